package groupconfig

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"describe one", Options{Groups: []string{"g"}}, ""},
		{"describe all", Options{AllGroups: true, Dynamic: true}, ""},
		{"no group", Options{}, "Option [config] takes one of these options: [all-groups], [group]"},
		{"dry run", Options{Groups: []string{"g"}, Set: []string{"streams.num.standby.replicas=1"}, DryRun: true}, ""},
		{"execute a delete", Options{Groups: []string{"g"}, DeleteConfigs: []string{"streams.num.warmup.replicas"}, Execute: true}, ""},
		{"an empty value", Options{Groups: []string{"g"}, Set: []string{"streams.rack.aware.assignment.tags="}, Execute: true}, ""},
		{"neither dry run nor execute", Options{Groups: []string{"g"}, Set: []string{"streams.num.standby.replicas=1"}},
			"Option [config] with --set or --delete-config takes the option: [execute] or [dry-run]"},
		{"both", Options{Groups: []string{"g"}, Set: []string{"streams.num.standby.replicas=1"}, DryRun: true, Execute: true},
			"Option [config] only accepts one of [execute] and [dry-run]"},
		{"dry run without a change", Options{Groups: []string{"g"}, DryRun: true}, "--dry-run and --execute need a change: --set KEY=VALUE or --delete-config KEY"},
		{"all groups", Options{AllGroups: true, Set: []string{"streams.num.standby.replicas=1"}, Execute: true},
			"--set and --delete-config change the groups named with --group, not --all-groups"},
		{"dynamic with a change", Options{Groups: []string{"g"}, Set: []string{"streams.num.standby.replicas=1"}, Execute: true, Dynamic: true},
			"--dynamic is for showing configs: leave it out with --set or --delete-config"},
		{"no equals sign", Options{Groups: []string{"g"}, Set: []string{"streams.num.standby.replicas"}, Execute: true},
			`--set "streams.num.standby.replicas": want KEY=VALUE`},
		{"empty key", Options{Groups: []string{"g"}, Set: []string{"=1"}, Execute: true}, "a group config name is empty"},
		{"unknown key, even without a mode", Options{Groups: []string{"g"}, Set: []string{"foo=1"}},
			`"foo" is not a group config of Apache Kafka 4.4 (kstreams-groups config --group G shows them)`},
		{"the broker's name", Options{Groups: []string{"g"}, Set: []string{"group.streams.num.standby.replicas=1"}, Execute: true},
			`"group.streams.num.standby.replicas" is the broker's default, not a group config: the group's own is "streams.num.standby.replicas"`},
		{"the application's name", Options{Groups: []string{"g"}, DeleteConfigs: []string{"num.standby.replicas"}, DryRun: true},
			`"num.standby.replicas" is not a group config: under the streams protocol the broker ignores the application's num.standby.replicas; the group's config is "streams.num.standby.replicas"`},
		{"the wrong case", Options{Groups: []string{"g"}, Set: []string{"Streams.Num.Standby.Replicas=1"}, Execute: true},
			`"Streams.Num.Standby.Replicas" is not a group config (names are case-sensitive): did you mean "streams.num.standby.replicas"?`},
		{"twice", Options{Groups: []string{"g"}, Set: []string{"streams.num.standby.replicas=1"}, DeleteConfigs: []string{"streams.num.standby.replicas"}, Execute: true},
			`group config "streams.num.standby.replicas" is changed twice`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.opts.Validate()
			if tc.want == "" {
				assert.NoError(t, err)
				return
			}
			assert.EqualError(t, err, tc.want)
		})
	}
}

type fakeClient struct {
	listed    []admin.ListedGroup
	listErr   error
	configs   map[string][]kafka.GroupConfigEntry
	describe  map[string]error
	refuse    map[string]error
	readBack  error
	alters    [][]admin.GroupConfigAlter
	validated []bool
	describes int
}

func (f *fakeClient) ListStreamsGroups(context.Context) ([]admin.ListedGroup, error) {
	return f.listed, f.listErr
}

func (f *fakeClient) DescribeGroupConfigs(_ context.Context, groups []string) []kafka.GroupConfigs {
	f.describes++
	out := make([]kafka.GroupConfigs, len(groups))
	for i, g := range groups {
		out[i] = kafka.GroupConfigs{Group: g, Entries: f.configs[g], Err: f.describe[g]}
		if f.describes > 1 && f.readBack != nil {
			out[i] = kafka.GroupConfigs{Group: g, Err: f.readBack}
		}
	}
	return out
}

func (f *fakeClient) AlterGroupConfigs(_ context.Context, alters []admin.GroupConfigAlter, validateOnly bool) []admin.AlteredGroupConfig {
	f.alters = append(f.alters, alters)
	f.validated = append(f.validated, validateOnly)
	out := make([]admin.AlteredGroupConfig, len(alters))
	for i, a := range alters {
		out[i] = admin.AlteredGroupConfig{Group: a.Group, Err: f.refuse[a.Group]}
		if out[i].Err != nil || validateOnly {
			continue
		}
		for _, op := range a.Ops {
			var kept []kafka.GroupConfigEntry
			for _, e := range f.configs[a.Group] {
				if e.Name != op.Name {
					kept = append(kept, e)
				}
			}
			if op.Value != nil {
				kept = append(kept, entry(op.Name, *op.Value, kafka.SourceGroup, "0"))
			} else if op.Name == kafka.StreamsNumStandbyReplicas {
				kept = append(kept, entry(op.Name, "0", kafka.SourceDefault, "0"))
			}
			f.configs[a.Group] = kept
		}
	}
	return out
}

func ptr(s string) *string { return &s }

// entry is a config as the broker answers it: the group's own value (when
// source is SourceGroup) over the broker's default def.
func entry(name, value string, source kafka.ConfigSource, def string) kafka.GroupConfigEntry {
	k, _ := kafka.LookupGroupConfigKey(name)
	e := kafka.GroupConfigEntry{Name: name, Value: ptr(value), Source: source}
	if source == kafka.SourceGroup {
		e.Synonyms = append(e.Synonyms, kafka.ConfigSynonym{Name: name, Value: ptr(value), Source: source})
	}
	e.Synonyms = append(e.Synonyms, kafka.ConfigSynonym{Name: k.Broker, Value: ptr(def), Source: kafka.SourceDefault})
	return e
}

func TestRun(t *testing.T) {
	ctx := context.Background()
	invalid := &kafka.Error{Code: kafka.CodeInvalidConfig, Name: "INVALID_CONFIG", Message: "streams.num.standby.replicas must be less than or equal to 2", FromBroker: true}
	newFake := func() *fakeClient {
		return &fakeClient{configs: map[string][]kafka.GroupConfigEntry{
			"a": {entry(kafka.StreamsNumStandbyReplicas, "0", kafka.SourceDefault, "0"), entry(kafka.StreamsNumWarmupReplicas, "1", kafka.SourceGroup, "2")},
			"b": {entry(kafka.StreamsNumStandbyReplicas, "1", kafka.SourceGroup, "0")},
		}}
	}

	t.Run("describe, all groups", func(t *testing.T) {
		f := newFake()
		f.listed = []admin.ListedGroup{{Group: "a"}, {Group: "b"}}
		res, err := Run(ctx, f, Options{AllGroups: true})
		require.NoError(t, err)
		require.Len(t, res.Groups, 2)
		assert.Equal(t, Describe, res.Mode)
		assert.Len(t, res.Groups[0].Configs, 2)
		var unreported []string
		for _, k := range res.Groups[0].Unreported {
			unreported = append(unreported, k.Name)
		}
		assert.Equal(t, []string{"streams.assignor.offload.enable", kafka.StreamsTaskOffsetIntervalMs, kafka.StreamsAcceptableRecoveryLag}, unreported, "the warm-ups are set, so reported")
		assert.Empty(t, f.alters, "nothing is sent")
		assert.Empty(t, res.Failures())
	})

	t.Run("a listing that fails fails the run", func(t *testing.T) {
		f := newFake()
		f.listErr = errors.New("boom")
		_, err := Run(ctx, f, Options{AllGroups: true})
		assert.EqualError(t, err, "boom")
	})

	t.Run("a group that cannot be described", func(t *testing.T) {
		f := newFake()
		f.describe = map[string]error{"b": &kafka.Error{Code: kafka.CodeGroupAuthorizationFailed, Name: "GROUP_AUTHORIZATION_FAILED"}}
		res, err := Run(ctx, f, Options{Groups: []string{"a", "b", "a"}, Set: []string{"streams.num.standby.replicas=1"}, Execute: true})
		require.NoError(t, err)
		require.Len(t, res.Groups, 2, "a repeated group once")
		require.Len(t, f.alters, 1)
		assert.Equal(t, []admin.GroupConfigAlter{{Group: "a", Ops: []admin.ConfigOp{{Name: kafka.StreamsNumStandbyReplicas, Value: ptr("1")}}}}, f.alters[0], "nothing is sent for b")
		assert.Equal(t, []kafka.Failure{{Group: "b", Err: f.describe["b"]}}, res.Failures())
	})

	t.Run("dry run", func(t *testing.T) {
		f := newFake()
		res, err := Run(ctx, f, Options{Groups: []string{"a"}, Set: []string{"streams.num.standby.replicas=2"}, DeleteConfigs: []string{kafka.StreamsNumWarmupReplicas}, DryRun: true})
		require.NoError(t, err)
		assert.Equal(t, []bool{true}, f.validated, "validateOnly")
		g := res.Groups[0]
		assert.False(t, g.Applied)
		assert.Equal(t, []Change{
			{Name: kafka.StreamsNumStandbyReplicas, Value: ptr("2"),
				Before: Setting{Value: ptr("0"), Source: kafka.SourceDefault, Name: "group.streams.num.standby.replicas", Known: true},
				After:  Setting{Value: ptr("2"), Source: kafka.SourceGroup, Name: kafka.StreamsNumStandbyReplicas, Known: true}},
			{Name: kafka.StreamsNumWarmupReplicas,
				Before: Setting{Value: ptr("1"), Source: kafka.SourceGroup, Name: kafka.StreamsNumWarmupReplicas, Known: true},
				After:  Setting{Value: ptr("2"), Source: kafka.SourceDefault, Name: "group.streams.num.warmup.replicas", Known: true}},
		}, g.Changes)
		assert.Equal(t, 1, f.describes, "nothing to read back")
	})

	t.Run("refused", func(t *testing.T) {
		f := newFake()
		f.refuse = map[string]error{"a": invalid}
		res, err := Run(ctx, f, Options{Groups: []string{"a", "b"}, Set: []string{"streams.num.standby.replicas=3"}, Execute: true})
		require.NoError(t, err)
		assert.Equal(t, invalid, res.Groups[0].Err)
		assert.False(t, res.Groups[0].Applied)
		assert.False(t, res.Groups[0].Changes[0].After.Known, "nothing changed")
		assert.True(t, res.Groups[1].Applied)
		assert.Equal(t, []kafka.Failure{{Group: "a", Err: invalid}}, res.Failures())
	})

	t.Run("execute reads back", func(t *testing.T) {
		f := newFake()
		res, err := Run(ctx, f, Options{Groups: []string{"b"}, DeleteConfigs: []string{kafka.StreamsNumStandbyReplicas}, Execute: true})
		require.NoError(t, err)
		g := res.Groups[0]
		assert.True(t, g.Applied)
		assert.Equal(t, 2, f.describes)
		assert.Equal(t, Setting{Value: ptr("0"), Source: kafka.SourceDefault, Name: "group.streams.num.standby.replicas", Known: true}, g.Changes[0].After)
		e, _ := kafka.GroupConfigs{Entries: g.Configs}.Entry(kafka.StreamsNumStandbyReplicas)
		assert.False(t, e.Dynamic(), "the configs are those read back")
	})

	t.Run("applied but not read back", func(t *testing.T) {
		f := newFake()
		f.readBack = &kafka.UnavailableError{Op: "DescribeConfigs", Err: context.DeadlineExceeded}
		res, err := Run(ctx, f, Options{Groups: []string{"a"}, Set: []string{"streams.num.standby.replicas=1"}, Execute: true})
		require.NoError(t, err)
		g := res.Groups[0]
		assert.True(t, g.Applied)
		assert.NoError(t, g.Err)
		assert.Equal(t, f.readBack, g.ReadBackErr)
		assert.Equal(t, []kafka.Failure{{Group: "a", Err: f.readBack}}, res.Failures())
	})
}
