package serve_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/format/promtest"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/serve"
)

// loadingClient is a real admin client whose listing can omit groups, as a
// 4.4.0 broker's does while its coordinator loads __consumer_offsets
// (F570), and whose describe can answer COORDINATOR_LOAD_IN_PROGRESS.
type loadingClient struct {
	*admin.Client
	mu       sync.Mutex
	unlisted map[string]bool
	loading  map[string]bool
}

func (l *loadingClient) set(unlisted []string, loading ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.unlisted, l.loading = map[string]bool{}, map[string]bool{}
	for _, g := range unlisted {
		l.unlisted[g] = true
	}
	for _, g := range loading {
		l.loading[g] = true
	}
}

func (l *loadingClient) ListStreamsGroupsInStates(ctx context.Context, states []string) ([]admin.ListedGroup, error) {
	gs, err := l.Client.ListStreamsGroupsInStates(ctx, states)
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []admin.ListedGroup
	for _, g := range gs {
		if !l.unlisted[g.Group] {
			out = append(out, g)
		}
	}
	return out, err
}

func (l *loadingClient) DescribeStreamsGroups(ctx context.Context, groups []string, topology bool) []admin.DescribedGroup {
	out := l.Client.DescribeStreamsGroups(ctx, groups, topology)
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := range out {
		if l.loading[out[i].Group] {
			out[i].Streams, out[i].Err = nil, admin.NewKafkaError(kafka.CodeCoordinatorLoadInProgress, nil)
		}
	}
	return out
}

func (l *loadingClient) Close() { l.Client.Close() }

func groupIDs(t *testing.T, c *serve.Collector) (checked, listed []string) {
	t.Helper()
	snap := c.Snapshot()
	require.False(t, snap.Stale, snap.Error)
	for _, g := range snap.Check.Groups {
		checked = append(checked, g.ID())
	}
	for _, g := range snap.List.Groups {
		listed = append(listed, g.Group)
	}
	return checked, listed
}

// TestGroupOmittedFromListing: a group the last cycle had that the listing
// omits is still described; it goes only when the broker says it is gone,
// and keeps its last data, marked stale, while its coordinator loads.
func TestGroupOmittedFromListing(t *testing.T) {
	const g = "fraud-detector" // Empty in the seed: it can be deleted.
	f := newFixture(t)
	ac, err := admin.New(admin.Config{Bootstrap: f.pg.Addrs()})
	require.NoError(t, err)
	lc := &loadingClient{Client: ac}
	cfg := f.config("prod")
	cfg.NewClient = func(context.Context) (serve.Client, error) { return lc, nil }
	c := serve.NewCollector(cfg)
	h := serve.Handler(serve.Collectors{c}, serve.HandlerOptions{})

	require.NoError(t, c.Cycle(t.Context()))
	checked1, listed1 := groupIDs(t, c)
	require.Contains(t, checked1, g)
	_, metrics1 := scrape(t, h, "/metrics")
	require.Contains(t, metrics1, `group="`+g+`"`)

	// The listing omits it, the describe answers: still there, as before.
	lc.set([]string{g})
	require.NoError(t, c.Cycle(t.Context()))
	checked2, listed2 := groupIDs(t, c)
	assert.Equal(t, checked1, checked2)
	assert.Equal(t, listed1, listed2)
	assert.Empty(t, c.Snapshot().StaleGroups)
	_, metrics2 := scrape(t, h, "/metrics")
	assert.Equal(t, promtest.WithoutServe(metrics1), promtest.WithoutServe(metrics2))

	// Omitted and its coordinator loading: the last data, marked stale.
	lc.set([]string{g}, g)
	require.NoError(t, c.Cycle(t.Context()))
	checked3, _ := groupIDs(t, c)
	assert.Equal(t, checked1, checked3)
	assert.Contains(t, c.Snapshot().StaleGroups[g], "COORDINATOR_LOAD_IN_PROGRESS")
	for _, cg := range c.Snapshot().Check.Groups {
		assert.NoError(t, cg.Overview.Err, cg.ID())
	}
	_, metrics3 := scrape(t, h, "/metrics")
	assert.Equal(t, promtest.WithoutServe(metrics1), promtest.WithoutServe(metrics3))

	// Really deleted: gone from the next snapshot.
	lc.set(nil)
	deleted := ac.DeleteGroups(t.Context(), []string{g})
	require.Len(t, deleted, 1)
	require.NoError(t, deleted[0].Err)
	lc.set([]string{g})
	require.NoError(t, c.Cycle(t.Context()))
	checked4, listed4 := groupIDs(t, c)
	assert.NotContains(t, checked4, g)
	assert.NotContains(t, listed4, g)
	assert.Len(t, checked4, len(checked1)-1)
	assert.Empty(t, c.Snapshot().StaleGroups)
	_, metrics4 := scrape(t, h, "/metrics")
	assert.NotContains(t, metrics4, `group="`+g+`"`)
}
