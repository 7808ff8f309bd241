package check

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

func n(v int64) *int64 { return &v }

// group is a Stable group with two members, lag 60 of which task 0_1
// holds 35, and task 0_2 moving.
func group() *overview.Group {
	t0 := &overview.Task{TaskID: overview.TaskID{Subtopology: "0", Partition: 0}, Active: []int{0}, TargetActive: []int{0}, Lag: 25}
	t1 := &overview.Task{TaskID: overview.TaskID{Subtopology: "0", Partition: 1}, Active: []int{1}, TargetActive: []int{1}, Lag: 35}
	t2 := &overview.Task{TaskID: overview.TaskID{Subtopology: "0", Partition: 2}, Active: []int{1}, TargetActive: []int{0}}
	return &overview.Group{Group: "app", State: "Stable", GroupEpoch: 4, AssignmentEpoch: 4, DescriptionStatus: topology.Available,
		Members:       []kafka.Member{{MemberID: "a"}, {MemberID: "b"}},
		Subtopologies: []*overview.Subtopology{{ID: "0", Tasks: []*overview.Task{t0, t1, t2}, Lag: 60, MaxTaskLag: 35}},
		Lag:           60, Largest: t1}
}

func TestEvaluate(t *testing.T) {
	notFound := admin.NewKafkaError(kafka.CodeGroupIDNotFound, ptr("Group app not found."))
	tooOld := &kafka.BrokerTooOldError{NodeID: 1, API: "StreamsGroupDescribe", Need: 1, Have: 0, Feature: "topology descriptions"}
	tests := []struct {
		name   string
		opts   Options
		change func(g *overview.Group)
		want   Status
		msgs   []string
	}{
		{name: "no condition, Stable", want: OK},
		{name: "default expects Stable", change: func(g *overview.Group) { g.State = "Reconciling" }, want: Warning,
			msgs: []string{"expect-state WARNING state Reconciling, expected Stable"}},
		{name: "Empty is a warning without --min-members", change: func(g *overview.Group) { g.State, g.Members = "Empty", nil }, want: Warning,
			msgs: []string{"expect-state WARNING state Empty, expected Stable"}},
		{name: "Empty is critical with --min-members", opts: Options{MinMembers: n(1)}, change: func(g *overview.Group) { g.State, g.Members = "Empty", nil }, want: Critical,
			msgs: []string{"expect-state WARNING state Empty, expected Stable", "min-members CRITICAL 0 members, at least 1 expected"}},
		{name: "Dead is critical", change: func(g *overview.Group) { g.State = "Dead" }, want: Critical,
			msgs: []string{"expect-state CRITICAL state Dead, expected Stable"}},
		{name: "expected states", opts: Options{ExpectStates: []kafka.State{kafka.StateStable, kafka.StateReconciling}}, change: func(g *overview.Group) { g.State = "Reconciling" }, want: OK},
		{name: "expected states, another one", opts: Options{ExpectStates: []kafka.State{kafka.StateStable, kafka.StateReconciling, kafka.StateEmpty}}, change: func(g *overview.Group) { g.State = "Assigning" }, want: Warning,
			msgs: []string{"expect-state WARNING state Assigning, expected Stable, Reconciling or Empty"}},
		{name: "min members met", opts: Options{MinMembers: n(2)}, want: OK},
		{name: "min members missed", opts: Options{MinMembers: n(3)}, want: Critical, msgs: []string{"min-members CRITICAL 2 members, at least 3 expected"}},
		{name: "lag equal to the warning", opts: Options{LagWarning: n(60), LagCritical: n(100)}, want: OK},
		{name: "lag above the warning", opts: Options{LagWarning: n(59), LagCritical: n(100)}, want: Warning, msgs: []string{"lag-warning WARNING lag 60 > 59"}},
		{name: "lag equal to the critical", opts: Options{LagWarning: n(10), LagCritical: n(60)}, want: Warning, msgs: []string{"lag-warning WARNING lag 60 > 10"}},
		{name: "lag above the critical", opts: Options{LagWarning: n(10), LagCritical: n(59)}, want: Critical, msgs: []string{"lag-critical CRITICAL lag 60 > 59"}},
		{name: "lag critical alone", opts: Options{LagCritical: n(0)}, want: Critical, msgs: []string{"lag-critical CRITICAL lag 60 > 0"}},
		{name: "task lag equal", opts: Options{TaskLagWarning: n(35), TaskLagCritical: n(35)}, want: OK},
		{name: "task lag warning", opts: Options{TaskLagWarning: n(34)}, want: Warning, msgs: []string{"task-lag-warning WARNING task 0_1 lag 35 > 34"}},
		{name: "task lag critical", opts: Options{TaskLagWarning: n(1), TaskLagCritical: n(34)}, want: Critical, msgs: []string{"task-lag-critical CRITICAL task 0_1 lag 35 > 34"}},
		{name: "no task, no task lag", opts: Options{TaskLagCritical: n(0)}, change: func(g *overview.Group) { g.Largest, g.Subtopologies, g.Lag = nil, nil, 0 }, want: OK},
		{name: "topology available", opts: Options{RequireTopology: true}, want: OK},
		{name: "topology not stored", opts: Options{RequireTopology: true}, change: func(g *overview.Group) { g.DescriptionStatus = topology.NotStored }, want: Critical,
			msgs: []string{"require-topology CRITICAL topology description NOT_STORED"}},
		{name: "topology error", opts: Options{RequireTopology: true}, change: func(g *overview.Group) { g.DescriptionStatus = topology.Error }, want: Critical,
			msgs: []string{"require-topology CRITICAL topology description ERROR"}},
		{name: "not stored without --require-topology", change: func(g *overview.Group) { g.DescriptionStatus = topology.NotStored }, want: OK},
		{name: "moving equal", opts: Options{MaxMovingTasks: n(1)}, want: OK},
		{name: "moving above", opts: Options{MaxMovingTasks: n(0)}, want: Warning, msgs: []string{"max-moving-tasks WARNING 1 task moving > 0"}},
		{name: "not found is critical", change: func(g *overview.Group) { g.Err = notFound }, want: Critical,
			msgs: []string{"group CRITICAL GROUP_ID_NOT_FOUND: Group app not found."}},
		{name: "unreachable is unknown", change: func(g *overview.Group) {
			g.Err = &kafka.UnavailableError{Op: "StreamsGroupDescribe", Err: context.DeadlineExceeded}
		}, want: Unknown, msgs: []string{"group UNKNOWN cannot be checked: StreamsGroupDescribe: timed out"}},
		{name: "too old for --require-topology", opts: Options{RequireTopology: true}, change: func(g *overview.Group) { g.Err = tooOld }, want: Unknown,
			msgs: []string{"require-topology UNKNOWN --require-topology cannot be checked: topology descriptions: broker 1 supports only v0 of StreamsGroupDescribe, v1 is needed (Apache Kafka 4.4 or newer)"}},
		{name: "a source topic that does not exist is critical", change: func(g *overview.Group) {
			g.Subtopologies[0].Sources = []overview.Source{{Topic: "gone", Missing: true}, {Topic: "in"}}
		}, want: Critical, msgs: []string{"source-topic CRITICAL source topic gone does not exist"}},
		{name: "source topics that do not exist", change: func(g *overview.Group) {
			g.Subtopologies[0].Sources = []overview.Source{{Topic: "b", Missing: true}, {Topic: "a", Missing: true}}
		}, want: Critical, msgs: []string{"source-topic CRITICAL source topics a, b do not exist"}},
		{name: "a committed offset past the log end is a warning", change: func(g *overview.Group) {
			g.Subtopologies[0].Tasks[2].Offsets = []overview.PartitionLag{{TopicPartition: kafka.TopicPartition{Topic: "in", Partition: 2}, Committed: n(10_010), LogEnd: 10, Ahead: 10_000}}
		}, want: Warning, msgs: []string{"committed-offset WARNING 1 partition committed past the log end (lag counted as 0): in-2 at 10010 > 10"}},
		{name: "many committed offsets past the log end", opts: Options{LagCritical: n(59)}, change: func(g *overview.Group) {
			for i, task := range g.Subtopologies[0].Tasks {
				for _, topic := range []string{"a", "b"} {
					task.Offsets = append(task.Offsets, overview.PartitionLag{TopicPartition: kafka.TopicPartition{Topic: topic, Partition: int32(i)}, Committed: n(7), LogEnd: 5, Ahead: 2})
				}
			}
		}, want: Critical, msgs: []string{"committed-offset WARNING 6 partitions committed past the log end (lag counted as 0): a-0 at 7 > 5, b-0 at 7 > 5, a-1 at 7 > 5 and 3 more", "lag-critical CRITICAL lag 60 > 59"}},
		{name: "the worst wins", opts: Options{LagWarning: n(1), MinMembers: n(5)}, change: func(g *overview.Group) { g.State = "Reconciling" }, want: Critical,
			msgs: []string{"expect-state WARNING state Reconciling, expected Stable", "min-members CRITICAL 2 members, at least 5 expected", "lag-warning WARNING lag 60 > 1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := group()
			if tc.change != nil {
				tc.change(g)
			}
			got := Evaluate(g, tc.opts)
			assert.Equal(t, tc.want, got.Status)
			var msgs []string
			for _, p := range got.Problems {
				msgs = append(msgs, p.Condition+" "+p.Status.String()+" "+p.Message)
			}
			assert.Equal(t, tc.msgs, msgs)
			if g.Err == nil && g.Subtopologies != nil {
				assert.EqualValues(t, 1, got.MovingTasks)
			}
		})
	}
}

func ptr(s string) *string { return &s }

func TestWorst(t *testing.T) {
	assert.Equal(t, Warning, Worst(OK, Warning))
	assert.Equal(t, Unknown, Worst(Warning, Unknown), "a group that could not be checked may be worse than a warning")
	assert.Equal(t, Critical, Worst(Unknown, Critical))
	assert.Equal(t, Critical, Worst(Critical, Warning))
	// The states by value.
	statuses := []Status{OK, Warning, Critical, Unknown}
	for i, s := range statuses {
		assert.EqualValues(t, i, s, "the value is the plugin exit code")
	}
	assert.Equal(t, "OK WARNING CRITICAL UNKNOWN", statuses[0].String()+" "+statuses[1].String()+" "+statuses[2].String()+" "+statuses[3].String())
}

func TestParse(t *testing.T) {
	st, err := ParseStates(" stable,Reconciling,STABLE ")
	require.NoError(t, err)
	assert.Equal(t, []kafka.State{kafka.StateStable, kafka.StateReconciling}, st)
	_, err = ParseStates("Stable,Running")
	assert.EqualError(t, err, `--expect-state: unknown state "Running" (want a comma-separated list of Empty, NotReady, Stable, Assigning, Reconciling, Dead)`)
	_, err = ParseStates(",")
	assert.EqualError(t, err, "--expect-state needs at least one state (Empty, NotReady, Stable, Assigning, Reconciling, Dead)")
	v, err := ParseCount("lag-warning", "0")
	require.NoError(t, err)
	assert.EqualValues(t, 0, *v)
	for _, bad := range []string{"-1", "1.5", "", "ten"} {
		_, err = ParseCount("lag-warning", bad)
		assert.ErrorContains(t, err, "--lag-warning: want a whole number, 0 or more, got", bad)
	}
	assert.EqualError(t, Options{}.Validate(), "check needs --group (repeatable) or --all-groups")
	assert.EqualError(t, Options{AllGroups: true, LagWarning: n(10), LagCritical: n(5)}.Validate(),
		"--lag-warning 10 is above --lag-critical 5: the warning threshold must not exceed the critical one")
	assert.EqualError(t, Options{AllGroups: true, TaskLagWarning: n(10), TaskLagCritical: n(5)}.Validate(),
		"--task-lag-warning 10 is above --task-lag-critical 5: the warning threshold must not exceed the critical one")
	assert.NoError(t, Options{AllGroups: true, LagWarning: n(5), LagCritical: n(5)}.Validate())
}

// fake answers one Stable group "app" and records whether the description
// was asked for.
type fake struct {
	described []bool
	listErr   error
}

func (f *fake) DescribeStreamsGroups(_ context.Context, groups []string, includeTopology bool) []admin.DescribedGroup {
	f.described = append(f.described, includeTopology)
	out := make([]admin.DescribedGroup, len(groups))
	for i, g := range groups {
		out[i] = admin.DescribedGroup{Group: g, Err: admin.NewKafkaError(kafka.CodeGroupIDNotFound, nil)}
		if g == "app" {
			status := topology.NotRequested
			if includeTopology {
				status = topology.NotStored
			}
			out[i] = admin.DescribedGroup{Group: g, Streams: &kafka.StreamsGroup{State: "Stable", TopologyStatus: status, Members: []kafka.Member{{MemberID: "m"}}}}
		}
	}
	return out
}

func (f *fake) ListStreamsGroups(context.Context) ([]admin.ListedGroup, error) {
	return []admin.ListedGroup{{Group: "app"}}, f.listErr
}

func (f *fake) FetchCommittedOffsets(_ context.Context, groups []string) []admin.GroupOffsets {
	out := make([]admin.GroupOffsets, len(groups))
	for i, g := range groups {
		out[i] = admin.GroupOffsets{Group: g}
	}
	return out
}

func (f *fake) ListOffsets(context.Context, []kafka.TopicPartition, int64) ([]admin.ListedOffset, error) {
	return nil, nil
}

func TestRun(t *testing.T) {
	f := &fake{}
	res, err := Run(context.Background(), f, Options{Groups: []string{"app", "nope"}})
	require.NoError(t, err)
	assert.Equal(t, []bool{false}, f.described, "the description is not asked for without --require-topology")
	require.Len(t, res.Groups, 2)
	assert.Equal(t, OK, res.Groups[0].Status)
	assert.Equal(t, Critical, res.Groups[1].Status)
	assert.Equal(t, Critical, res.Status)
	assert.Equal(t, "nope", res.Groups[1].ID())
	require.Len(t, res.Failures(), 1)
	assert.Equal(t, "nope", res.Failures()[0].Group)

	f = &fake{}
	res, err = Run(context.Background(), f, Options{AllGroups: true, RequireTopology: true})
	require.NoError(t, err)
	assert.Equal(t, []bool{true}, f.described)
	assert.Equal(t, Critical, res.Status, "NOT_STORED")

	f = &fake{listErr: errors.New("boom")}
	_, err = Run(context.Background(), f, Options{AllGroups: true})
	assert.EqualError(t, err, "boom")
	fr := Failed(err, Options{})
	assert.Equal(t, Unknown, fr.Status)

	res, err = Run(context.Background(), &fake{}, Options{Groups: []string{"app"}, LagWarning: n(1)})
	require.NoError(t, err)
	assert.Equal(t, OK, res.Status, "no lag")
}
