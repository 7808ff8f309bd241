package playground

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const timelineSeed = `
topics: [{name: t, partitions: 1}]
streams_groups:
  - id: g
    state: Stable
    group_epoch: 5
    assignment_epoch: 5
    members: [{member_id: a, member_epoch: 5}]
    committed_offsets: [{topic: t, partition: 0, offset: 3}]
timeline:
  repeat: true
  steps:
    - after: 100ms
      streams_groups:
        - {id: g, state: Reconciling, group_epoch: 6, assignment_epoch: 6, members: [{member_id: a, member_epoch: 5}, {member_id: b, member_epoch: 6}]}
    - after: 100ms
      streams_groups:
        - {id: g, state: Stable, group_epoch: 7, assignment_epoch: 7, members: [{member_id: a, member_epoch: 7}]}
`

// groupNow is the state, group epoch and member epochs the cluster holds
// for a streams group.
func groupNow(c *Cluster, id string) (string, int32, []int32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g := c.groups[id]
	var epochs []int32
	for _, m := range g.streams.row.Members {
		epochs = append(epochs, m.MemberEpoch)
	}
	return g.state, g.streams.row.Epoch, epochs
}

// A timeline replaces the group step by step, keeps its offsets, and each
// round raises the epochs (5 -> 6, 7, then 8, 9): they never go back.
func TestTimelinePlay(t *testing.T) {
	s, err := ParseState([]byte(timelineSeed))
	require.NoError(t, err)
	c, err := StartState(s)
	require.NoError(t, err)
	defer c.Close()
	state, epoch, _ := groupNow(c, "g")
	assert.Equal(t, "Stable", state)
	assert.Equal(t, int32(5), epoch, "Load does not play the timeline")

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.Play(ctx, s); close(done) }()
	seen := map[int32]string{}
	var members = map[int32][]int32{}
	deadline := time.Now().Add(10 * time.Second)
	for len(seen) < 4 && time.Now().Before(deadline) {
		state, epoch, m := groupNow(c, "g")
		seen[epoch], members[epoch] = state, m
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
	assert.Equal(t, map[int32]string{5: "Stable", 6: "Reconciling", 7: "Stable", 8: "Reconciling"}, map[int32]string{5: seen[5], 6: seen[6], 7: seen[7], 8: seen[8]})
	assert.Equal(t, []int32{7, 8}, members[8], "the second round's member epochs are raised too")
	c.mu.Lock()
	committed := c.offsets.sorted("g")
	require.Len(t, committed, 1)
	assert.Equal(t, int64(3), committed[0].Offset, "offsets stay")
	c.mu.Unlock()
}

func TestTimelineValidate(t *testing.T) {
	for name, tc := range map[string]struct{ yaml, want string }{
		"unknown group":  {"timeline: {steps: [{after: 1s, streams_groups: [{id: nope, state: Stable}]}]}", "timeline.steps[0].streams_groups[0] (nope): not a streams group of the seed"},
		"bad duration":   {"timeline: {steps: [{after: soon, streams_groups: [{id: g, state: Stable}]}]}", `timeline.steps[0]: after "soon": want a duration of at least 100ms`},
		"too short":      {"timeline: {steps: [{after: 1ms, streams_groups: [{id: g, state: Stable}]}]}", `after "1ms"`},
		"no steps":       {"timeline: {steps: []}", "timeline: steps is empty"},
		"no groups":      {"timeline: {steps: [{after: 1s}]}", "timeline.steps[0]: streams_groups is empty"},
		"bad state":      {"timeline: {steps: [{after: 1s, streams_groups: [{id: g, state: Running}]}]}", `(g): state "Running" is not a streams group state`},
		"unknown key":    {"timeline: {steps: [{after: 1s, streams_groups: [{id: g, state: Stable, coordinator: 0}]}]}", `unknown key "coordinator"`},
		"duplicate step": {"timeline: {steps: [{after: 1s, streams_groups: [{id: g, state: Stable}, {id: g, state: Empty}]}]}", "duplicate group id"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ParseState([]byte("streams_groups: [{id: g, state: Stable}]\n" + tc.yaml))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// The built-in seed's timeline is valid and changes only clicks.
func TestDefaultTimeline(t *testing.T) {
	s := DefaultState()
	require.NotNil(t, s.Timeline)
	assert.True(t, s.Timeline.Repeat)
	for _, step := range s.Timeline.Steps {
		for _, g := range step.StreamsGroups {
			assert.Equal(t, "clicks", g.ID)
		}
	}
}
