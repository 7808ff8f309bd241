package serve_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
	"github.com/kstreams-groups/kstreams-groups/internal/serve"
	"github.com/kstreams-groups/kstreams-groups/internal/serve/snapshot"
)

// TestCollectorBackfill: serve's first cycle puts each group's rebalances
// of the last hours, read back from its history, into its timeline, with
// their causes; a later cycle reads on only when the group's epoch moved,
// and adds the new rebalances with theirs.
func TestCollectorBackfill(t *testing.T) {
	f := newFixture(t)
	// The seed's clicks group gets a third member.
	for _, sg := range playground.DefaultState().StreamsGroups {
		if g := sg.StreamsGroup; g.ID == "clicks" {
			g.GroupEpoch, g.AssignmentEpoch = 6, 6
			m := g.Members[0]
			m.MemberID, m.ProcessID, m.MemberEpoch = "joiner", "process-joiner", 6
			g.Members = append(g.Members, m)
			f.pg.PutStreamsGroup(g)
		}
	}
	cfg := f.config("default")
	cfg.NewClient = func(context.Context) (serve.Client, error) {
		// The admin client itself: it reads logs, as serve's does.
		return admin.New(admin.Config{Bootstrap: f.pg.Addrs()})
	}
	c := serve.NewCollector(cfg)
	defer c.Close()
	require.NoError(t, c.Cycle(t.Context()))
	events := c.Snapshot().Events["clicks"]
	require.Len(t, events, 2, "%v", events)
	assert.Equal(t, "rebalance: group epoch 0 -> 5", events[0].Text)
	assert.Equal(t, "rebalance: group epoch 5 -> 6", events[1].Text)
	require.Len(t, events[1].Causes, 1)
	assert.True(t, strings.HasPrefix(events[1].Causes[0], "member-joined joiner: process process-joiner"), events[1].Causes[0])
	assert.WithinDuration(t, time.Now(), events[1].Time, time.Minute)

	require.NoError(t, c.Cycle(t.Context()))
	assert.Equal(t, events, c.Snapshot().Events["clicks"], "no rebalance, no read")

	// The joiner leaves: the next cycle reads on and adds the rebalance.
	for _, sg := range playground.DefaultState().StreamsGroups {
		if g := sg.StreamsGroup; g.ID == "clicks" {
			g.GroupEpoch, g.AssignmentEpoch = 7, 7
			f.pg.PutStreamsGroup(g)
		}
	}
	require.NoError(t, c.Cycle(t.Context()))
	var rebalances []snapshot.Event
	for _, e := range c.Snapshot().Events["clicks"] {
		if strings.HasPrefix(e.Text, "rebalance: ") {
			rebalances = append(rebalances, e)
		}
	}
	require.Len(t, rebalances, 3, "%v", c.Snapshot().Events["clicks"])
	assert.Equal(t, "rebalance: group epoch 6 -> 7", rebalances[2].Text)
	require.Len(t, rebalances[2].Causes, 1)
	assert.True(t, strings.HasPrefix(rebalances[2].Causes[0], "member-removed joiner: process process-joiner"), rebalances[2].Causes[0])
}
