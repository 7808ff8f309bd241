package watch

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/describe"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
)

// standbyGroup is a stateful group (sub-topology 1, changelog) with one
// standby per task on the other instance, or, with stopped, the second
// instance gone.
func standbyGroup(configured string, stopped bool) *overview.Group {
	a := kafka.Member{MemberID: "m-a", ProcessID: "p-a", ClientHost: "/h-a",
		Assignment: kafka.Assignment{Active: tasks("1", 0), Standby: tasks("1", 1)}}
	b := kafka.Member{MemberID: "m-b", ProcessID: "p-b", ClientHost: "/h-b",
		Assignment: kafka.Assignment{Active: tasks("1", 1), Standby: tasks("1", 0)}}
	members := []kafka.Member{a, b}
	if stopped {
		a.Assignment.Active, a.Assignment.Standby = tasks("1", 0, 1), nil
		members = []kafka.Member{a}
	}
	for i := range members {
		members[i].TargetAssignment = members[i].Assignment
	}
	s := &overview.Settings{Values: map[string]overview.Setting{overview.ConfigStandbys: {Value: configured, Source: "group"}}}
	return overview.Join(admin.DescribedGroup{Group: "g", Streams: &kafka.StreamsGroup{State: "Stable", Members: members,
		Subtopologies: []kafka.Subtopology{{ID: "1", SourceTopics: []string{"in"}, StateChangelogTopics: []string{"g-s-changelog"}}}}}, s)
}

func ovSnap(g *overview.Group) Snapshot {
	return FromOverview(&overview.Result{Groups: []*overview.Group{g}})
}

func TestChanges_standbys(t *testing.T) {
	full := ovSnap(standbyGroup("1", false))
	assert.Equal(t, map[string]int{"1_0": 1, "1_1": 1}, full.Groups[0].Standbys)
	assert.Empty(t, Changes(full, full))
	got := texts(Changes(full, ovSnap(standbyGroup("1", true))))
	assert.Contains(t, got, "g: task 1_0 standbys 1 -> 0")
	assert.Contains(t, got, "g: task 1_1 standbys 1 -> 0")
	assert.Equal(t, []string{"g: standbys configured 1 -> 2"}, texts(Changes(full, ovSnap(standbyGroup("2", false)))))
	assert.Nil(t, snap(&describe.Group{Group: "g", StreamsGroup: *app()}).Groups[0].Standbys, "a describe has no coverage: no standby change is made up")
}
