package delete

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

func (f *fakeClient) DescribeGroupConfigs(ctx context.Context, groups []string) []kafka.GroupConfigs {
	f.configCalls = append(f.configCalls, groups)
	f.configDeadline, _ = ctx.Deadline()
	out := make([]kafka.GroupConfigs, len(groups))
	for i, g := range groups {
		out[i] = kafka.GroupConfigs{Group: g, Entries: f.configs[g], Err: f.configsErr[g]}
	}
	return out
}

func (f *fakeClient) AlterGroupConfigs(_ context.Context, alters []admin.GroupConfigAlter, validateOnly bool) []admin.AlteredGroupConfig {
	f.alterCalls = append(f.alterCalls, alters)
	out := make([]admin.AlteredGroupConfig, len(alters))
	for i, a := range alters {
		out[i] = admin.AlteredGroupConfig{Group: a.Group, Err: f.alterErr[a.Group]}
	}
	return out
}

func dynamicEntry(name, value string) kafka.GroupConfigEntry {
	return kafka.GroupConfigEntry{Name: name, Value: &value, Source: kafka.SourceGroup}
}

func configsFake() *fakeClient {
	zero := "0"
	return &fakeClient{listed: listed(), configs: map[string][]kafka.GroupConfigEntry{
		"a": {dynamicEntry(kafka.StreamsNumStandbyReplicas, "1"), dynamicEntry(kafka.StreamsNumWarmupReplicas, "1"),
			{Name: kafka.StreamsSessionTimeoutMs, Value: &zero, Source: kafka.SourceDefault}},
		"b": {{Name: kafka.StreamsNumStandbyReplicas, Value: &zero, Source: kafka.SourceDefault}},
	}}
}

func TestDelete_configsRemain(t *testing.T) {
	f := configsFake()
	res, err := Run(context.Background(), f, Options{Groups: []string{"a", "b", "busy"}})
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"a", "b"}}, f.configCalls, "read once, for the groups that pass the pre-checks, before the delete")
	assert.Empty(t, f.alterCalls, "left alone without --delete-configs")
	a := res.Group("a")
	assert.Len(t, a.Configs.Remaining(), 2)
	assert.Empty(t, res.Group("b").Configs.Remaining())
	assert.Nil(t, res.Group("busy").Configs, "not checked: it was not deleted")
	assert.Len(t, res.Failures(), 1, "busy only")
}

func TestDelete_deleteConfigs(t *testing.T) {
	f := configsFake()
	f.deleteErr = map[string]error{"b": admin.NewKafkaError(kafka.CodeGroupDeletionFailed, nil)}
	res, err := Run(context.Background(), f, Options{Groups: []string{"a", "b"}, DeleteConfigs: true})
	require.NoError(t, err)
	require.Len(t, f.alterCalls, 1)
	assert.Equal(t, []admin.GroupConfigAlter{{Group: "a", Ops: []admin.ConfigOp{{Name: kafka.StreamsNumStandbyReplicas}, {Name: kafka.StreamsNumWarmupReplicas}}}}, f.alterCalls[0],
		"a DELETE of each key set on a deleted group; b was not deleted")
	assert.True(t, res.Group("a").Configs.Deleted)
	assert.Empty(t, res.Group("a").Configs.Remaining())
	assert.Len(t, res.Failures(), 1, "b only")
}

func TestDelete_deleteConfigsFails(t *testing.T) {
	f := configsFake()
	refused := admin.NewKafkaError(kafka.CodeGroupAuthorizationFailed, nil)
	f.alterErr = map[string]error{"a": refused}
	res, err := Run(context.Background(), f, Options{Groups: []string{"a"}, DeleteConfigs: true})
	require.NoError(t, err)
	g := res.Group("a")
	assert.True(t, g.Deleted)
	assert.Len(t, g.Configs.Remaining(), 2)
	assert.Equal(t, []kafka.Failure{{Group: "a", Err: refused}}, res.Failures())

	// Unreadable configs fail --delete-configs, but not a plain delete.
	f = configsFake()
	f.configsErr = map[string]error{"a": refused}
	res, err = Run(context.Background(), f, Options{Groups: []string{"a"}})
	require.NoError(t, err)
	assert.Empty(t, res.Failures())
	res, err = Run(context.Background(), f, Options{Groups: []string{"a"}, DeleteConfigs: true})
	require.NoError(t, err)
	assert.Equal(t, []kafka.Failure{{Group: "a", Err: refused}}, res.Failures())
	assert.Empty(t, f.alterCalls)
}

func TestDelete_configsDryRun(t *testing.T) {
	f := configsFake()
	res, err := Run(context.Background(), f, Options{Groups: []string{"a"}, DryRun: true, DeleteConfigs: true})
	require.NoError(t, err)
	assert.Empty(t, f.deleteCalls)
	assert.Empty(t, f.alterCalls)
	assert.Len(t, res.Group("a").Configs.Dynamic, 2, "what would be deleted")
}

// The configs read only enriches the output: it gets at most half the
// time left, so a broker that never answers it leaves DeleteGroups the
// rest (issue 30), and its failure does not stop the delete.
func TestDelete_configsReadBounded(t *testing.T) {
	f := configsFake()
	f.configsErr = map[string]error{"a": &kafka.UnsupportedAPIError{API: "DescribeConfigs"}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	deadline, _ := ctx.Deadline()
	res, err := Run(ctx, f, Options{Groups: []string{"a"}})
	require.NoError(t, err)
	require.False(t, f.configDeadline.IsZero())
	assert.Less(t, time.Until(f.configDeadline), time.Until(deadline)*2/3, "at most half the time left")
	a := res.Group("a")
	assert.True(t, a.Deleted)
	assert.Empty(t, res.Failures(), "without --delete-configs the read is no failure")
	assert.Error(t, a.Configs.Err)
}
