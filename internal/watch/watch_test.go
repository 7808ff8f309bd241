package watch

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kstreams-groups/kstreams-groups/internal/check"
	"github.com/kstreams-groups/kstreams-groups/internal/describe"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

func tasks(sub string, ps ...int32) []kafka.Tasks {
	return []kafka.Tasks{{SubtopologyID: sub, Partitions: ps}}
}

// app: m-a runs 0_0 and 0_1, m-b runs 0_2.
func app() *kafka.StreamsGroup {
	return &kafka.StreamsGroup{State: "Stable", GroupEpoch: 4, AssignmentEpoch: 4, TopologyEpoch: 0, TopologyStatus: topology.Available,
		Members: []kafka.Member{
			{MemberID: "m-a", ClientID: "c-a", Assignment: kafka.Assignment{Active: tasks("0", 0, 1)}, TargetAssignment: kafka.Assignment{Active: tasks("0", 0, 1)}},
			{MemberID: "m-b", ClientID: "c-b", Assignment: kafka.Assignment{Active: tasks("0", 2)}, TargetAssignment: kafka.Assignment{Active: tasks("0", 2)}},
		}}
}

func snap(gs ...*describe.Group) Snapshot {
	return FromDescribe(&describe.Result{Groups: gs, View: describe.ViewMembers})
}

func texts(cs []Change) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.String())
	}
	return out
}

func TestChanges(t *testing.T) {
	before := app()
	assert.Empty(t, Changes(snap(&describe.Group{Group: "g", StreamsGroup: *before}), snap(&describe.Group{Group: "g", StreamsGroup: *before})), "nothing changed")

	after := app()
	after.State, after.GroupEpoch = "Reconciling", 5
	after.Members = append(after.Members, kafka.Member{MemberID: "m-c", ClientID: "c-c",
		Assignment: kafka.Assignment{Active: tasks("0", 1)}, TargetAssignment: kafka.Assignment{Active: tasks("0", 1)}})
	after.Members[0].Assignment.Active = tasks("0", 0)
	after.Members[0].TargetAssignment.Active = tasks("0", 0)
	after.Members[1].TargetAssignment.Active = nil // 0_2 moving to nobody yet
	after.TopologyStatus = topology.NotStored
	got := texts(Changes(snap(&describe.Group{Group: "g", StreamsGroup: *before}), snap(&describe.Group{Group: "g", StreamsGroup: *after})))
	assert.Equal(t, []string{
		"g: state Stable -> Reconciling",
		"g: group epoch 4 -> 5",
		"g: topology description AVAILABLE -> NOT_STORED",
		"g: member m-c joined (c-c)",
		"g: task 0_1 moved from m-a to m-c",
		"g: 1 task moving: 0_2",
	}, got)

	left := app()
	left.Members = left.Members[:1]
	got = texts(Changes(snap(&describe.Group{Group: "g", StreamsGroup: *before}), snap(&describe.Group{Group: "g", StreamsGroup: *left})))
	assert.Equal(t, []string{"g: member m-b left (c-b)"}, got)

	back := texts(Changes(snap(&describe.Group{Group: "g", StreamsGroup: *after}), snap(&describe.Group{Group: "g", StreamsGroup: *before})))
	assert.Contains(t, back, "g: no task moving")

	failed := snap(&describe.Group{Group: "g", Err: errors.New("unreachable")}, &describe.Group{Group: "h", StreamsGroup: *before})
	assert.Equal(t, []string{"g: fails: unreachable", "h: appeared"}, texts(Changes(snap(&describe.Group{Group: "g", StreamsGroup: *before}), failed)))
	assert.Empty(t, Changes(failed, failed), "the same failure is no change")
	assert.Equal(t, []string{"g: described again", "h: gone"},
		texts(Changes(failed, snap(&describe.Group{Group: "g", StreamsGroup: *before}))))
}

func TestChanges_lagRising(t *testing.T) {
	off := func(lag int64) *describe.Result {
		return &describe.Result{View: describe.ViewOffsets, Groups: []*describe.Group{{Group: "g", StreamsGroup: *app(),
			Offsets: []describe.PartitionOffset{{Topic: "in", Lag: lag}, {Topic: "in", Partition: 1, Lag: 1}}}}}
	}
	assert.Equal(t, []string{"g: lag 11 -> 31 (+20)"}, texts(Changes(FromDescribe(off(10)), FromDescribe(off(30)))))
	assert.Empty(t, Changes(FromDescribe(off(30)), FromDescribe(off(10))), "falling lag is progress, not news")
	assert.Nil(t, FromDescribe(&describe.Result{View: describe.ViewState, Groups: []*describe.Group{{Group: "g", StreamsGroup: *app()}}}).Groups[0].Lag,
		"the state view has no lag")

	ov := func(lag int64, st check.Status) *check.Result {
		g := &overview.Group{Group: "g", State: "Stable", Lag: lag}
		return &check.Result{Groups: []*check.Group{{Overview: g, Status: st}}}
	}
	assert.Equal(t, []string{"g: check OK -> CRITICAL", "g: lag 5 -> 50 (+45)"}, texts(Changes(FromCheck(ov(5, check.OK)), FromCheck(ov(50, check.Critical)))))
	assert.Equal(t, []string{"g: lag 5 -> 6 (+1)"}, texts(Changes(FromOverview(&overview.Result{Groups: []*overview.Group{ov(5, 0).Groups[0].Overview}}),
		FromOverview(&overview.Result{Groups: []*overview.Group{ov(6, 0).Groups[0].Overview}}))))
}

// The tasks moving are named in task order, partition 10 after 2.
func TestChanges_movingOrder(t *testing.T) {
	moving := app()
	moving.Members[0].Assignment.Active = []kafka.Tasks{{SubtopologyID: "0", Partitions: []int32{0, 1, 2, 10}}}
	got := texts(Changes(snap(&describe.Group{Group: "g", StreamsGroup: *app()}), snap(&describe.Group{Group: "g", StreamsGroup: *moving})))
	assert.Contains(t, got, "g: 2 tasks moving: 0_2, 0_10")
}

func TestCompareTasks(t *testing.T) {
	assert.Negative(t, compareTasks("0_2", "0_10"))
	assert.Negative(t, compareTasks("2_0", "10_0"))
	assert.Zero(t, compareTasks("a_b_1", "a_b_1"))
}

// An overview's snapshot reads the owners and the tasks moving from the
// overview's tasks, and says what a describe of the same members says.
func TestFromOverview_tasks(t *testing.T) {
	sg := app()
	sg.Members[1].TargetAssignment.Active = nil // 0_2 moving
	g := &overview.Group{Group: "g", State: sg.State, GroupEpoch: sg.GroupEpoch, AssignmentEpoch: sg.AssignmentEpoch,
		DescriptionStatus: sg.TopologyStatus, Members: sg.Members, Lag: 7,
		Subtopologies: []*overview.Subtopology{{ID: "0", Tasks: []*overview.Task{
			{TaskID: overview.TaskID{Subtopology: "0", Partition: 0}, Active: []int{0}, TargetActive: []int{0}},
			{TaskID: overview.TaskID{Subtopology: "0", Partition: 1}, Active: []int{0}, TargetActive: []int{0}},
			{TaskID: overview.TaskID{Subtopology: "0", Partition: 2}, Active: []int{1}},
			{TaskID: overview.TaskID{Subtopology: "0", Partition: 3}}, // committed only (an Empty group's)
		}}}}
	got := FromOverview(&overview.Result{Groups: []*overview.Group{g}}).Groups[0]
	assert.Equal(t, map[string]string{"0_0": "m-a", "0_1": "m-a", "0_2": "m-b"}, got.Owners)
	assert.Equal(t, []string{"0_2"}, got.Moving)
	assert.Equal(t, []Member{{ID: "m-a", ClientID: "c-a"}, {ID: "m-b", ClientID: "c-b"}}, got.Members)
	assert.Equal(t, int64(7), *got.Lag)

	described := snap(&describe.Group{Group: "g", StreamsGroup: *sg}).Groups[0]
	got.Lag = nil
	assert.Equal(t, described, got)
}
