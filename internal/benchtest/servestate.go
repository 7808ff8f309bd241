package benchtest

import (
	"fmt"

	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// ServeState is serve's benchmark seed (issue 23): 3 nodes, groups
// streams groups of two members, each reading a topic of its own with
// parts partitions (one sub-topology), committed 50 behind the end: 2,000
// groups of 25 partitions are the 50,000 partitions.
func ServeState(groups, parts int) *playground.State {
	s := &playground.State{Nodes: 3}
	for g := range groups {
		id := fmt.Sprintf("app-%04d", g)
		topic := id + "-in"
		sg := playground.StateStreamsGroup{StreamsGroup: playground.StreamsGroup{ID: id, State: "Stable", GroupEpoch: 3, AssignmentEpoch: 3,
			Topology: &playground.Topology{Subtopologies: []playground.Subtopology{{ID: "0", SourceTopics: []string{topic}}}}}}
		t := playground.StateTopic{Name: topic, Partitions: int32(parts)}
		a0, a1 := map[string][]int32{}, map[string][]int32{}
		for p := range int32(parts) {
			t.StartOffsets = append(t.StartOffsets, 0)
			t.EndOffsets = append(t.EndOffsets, 1000)
			sg.CommittedOffsets = append(sg.CommittedOffsets, playground.StateCommitted{Topic: topic, Partition: p, Offset: 950})
			if p%2 == 0 {
				a0["0"] = append(a0["0"], p)
			} else {
				a1["0"] = append(a1["0"], p)
			}
		}
		s.Topics = append(s.Topics, t)
		sg.Members = []playground.Member{
			{MemberID: "m-0", MemberEpoch: 3, ProcessID: "p0", ClientID: "c0", Assignment: playground.Assignment{Active: a0}, TargetAssignment: playground.Assignment{Active: a0}},
			{MemberID: "m-1", MemberEpoch: 3, ProcessID: "p1", ClientID: "c1", Assignment: playground.Assignment{Active: a1}, TargetAssignment: playground.Assignment{Active: a1}},
		}
		s.StreamsGroups = append(s.StreamsGroups, sg)
	}
	return s
}
