package serve_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/check"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/format/promtest"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
	"github.com/kstreams-groups/kstreams-groups/internal/serve"
)

// switchable is a real admin client that a test can take down: while
// down, listing fails as an unreachable cluster would, and so does
// building a new client.
type switchable struct {
	*admin.Client
	down *atomic.Bool
}

var errDown = errors.New("connection refused (the test took the cluster down)")

func (s switchable) ListStreamsGroupsInStates(ctx context.Context, states []string) ([]admin.ListedGroup, error) {
	if s.down.Load() {
		return nil, errDown
	}
	return s.Client.ListStreamsGroupsInStates(ctx, states)
}

// fixture is a playground with the default seed and a collector on it.
type fixture struct {
	pg      *playground.Cluster
	down    atomic.Bool
	clients atomic.Int32
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	pg, err := playground.StartState(playground.DefaultState())
	require.NoError(t, err)
	t.Cleanup(func() { _ = pg.Close() })
	return &fixture{pg: pg}
}

func (f *fixture) newClient(context.Context) (serve.Client, error) {
	if f.down.Load() {
		return nil, errDown
	}
	c, err := admin.New(admin.Config{Bootstrap: f.pg.Addrs()})
	if err != nil {
		return nil, err
	}
	f.clients.Add(1)
	return switchable{Client: c, down: &f.down}, nil
}

func (f *fixture) config(name string) serve.Config {
	return serve.Config{
		Name:      name,
		NewClient: f.newClient,
		Check:     check.Options{AllGroups: true, Describe: true},
		Interval:  time.Second,
		Timeout:   10 * time.Second,
		Metrics:   format.PrometheusOptions{PartitionTimeLag: true},
	}
}

func scrape(t *testing.T, h http.Handler, path string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	return rec.Code, rec.Body.String()
}

// withoutCluster is fams with the cluster label removed, after checking
// every sample has it with want.
func withoutCluster(t *testing.T, fams map[string]*dto.MetricFamily, want string) map[string]*dto.MetricFamily {
	t.Helper()
	for name, f := range fams {
		for _, m := range f.GetMetric() {
			var kept []*dto.LabelPair
			found := false
			for _, l := range m.GetLabel() {
				if l.GetName() == "cluster" {
					assert.Equal(t, want, l.GetValue(), name)
					found = true
					continue
				}
				kept = append(kept, l)
			}
			assert.True(t, found, "%s has a cluster label", name)
			m.Label = kept
		}
	}
	return fams
}

// TestMetricsEqualCheck: /metrics holds the families of check -o
// prometheus for the same state, with the same names, labels and values,
// each labelled cluster.
func TestMetricsEqualCheck(t *testing.T) {
	f := newFixture(t)
	c := serve.NewCollector(f.config("prod"))
	require.NoError(t, c.Cycle(t.Context()))
	h := serve.Handler(serve.Collectors{c}, serve.HandlerOptions{})
	code, body := scrape(t, h, "/metrics")
	require.Equal(t, http.StatusOK, code)

	snap := c.Snapshot()
	require.NotNil(t, snap.Check)
	var want bytes.Buffer
	require.NoError(t, format.CheckPrometheusWith(&want, snap.Check, format.PrometheusOptions{PartitionTimeLag: true}))
	wantFams := promtest.Parse(t, want.String())
	gotFams := withoutCluster(t, promtest.Parse(t, promtest.WithoutServe(body)), "prod")
	assert.Equal(t, promtest.Canonical(wantFams), promtest.Canonical(gotFams))
	promtest.Promtool(t, body)
	for _, line := range strings.Split(body, "\n") {
		if name, ok := strings.CutPrefix(line, "# TYPE "); ok && strings.HasPrefix(name, "kstreams_") {
			assert.Contains(t, servedMetricNames(), strings.Fields(name)[0], "ServedMetricNames lists every family")
		}
	}
	assert.Equal(t, 1.0, promtest.Value(t, gotFams, "kstreams_group_up", "group", "word-count"))
}

// TestCollectorSnapshot: a cycle reads the list and the check, with the
// topology described, a sample of every group, and is ready.
func TestCollectorSnapshot(t *testing.T) {
	f := newFixture(t)
	c := serve.NewCollector(f.config("default"))
	assert.False(t, c.Ready())
	assert.Nil(t, c.Snapshot().Check)
	require.NoError(t, c.Cycle(t.Context()))
	s := c.Snapshot()
	assert.True(t, c.Ready())
	assert.False(t, s.Stale)
	require.NotNil(t, s.List)
	var listed []string
	for _, g := range s.List.Groups {
		listed = append(listed, g.Group)
	}
	var checked []string
	for _, g := range s.Check.Groups {
		checked = append(checked, g.ID())
		require.Len(t, s.History[g.ID()], 1, g.ID())
		if g.ID() == "word-count" {
			assert.Equal(t, "AVAILABLE", g.Overview.DescriptionStatus.String(), "serve asks for the description")
		}
	}
	assert.Equal(t, listed, checked, "the groups listed are the groups checked")
	assert.True(t, s.Check.Options.AllGroups)
}

// TestCollectorStale: a failed cycle keeps the last good snapshot and
// metrics, marks them stale with the reason, counts the error, and a new
// client is built; the next good cycle clears it.
func TestCollectorStale(t *testing.T) {
	f := newFixture(t)
	c := serve.NewCollector(f.config("default"))
	h := serve.Handler(serve.Collectors{c}, serve.HandlerOptions{})
	require.NoError(t, c.Cycle(t.Context()))
	good := c.Snapshot()

	f.down.Store(true)
	err := c.Cycle(t.Context())
	require.ErrorIs(t, err, errDown)
	s := c.Snapshot()
	assert.True(t, s.Stale)
	assert.Contains(t, s.Error, "connection refused")
	assert.Same(t, good.Check, s.Check, "the last good check is kept")
	assert.Equal(t, good.LastSuccess, s.LastSuccess)
	assert.True(t, good.Taken.Before(s.Taken) || good.Taken.Equal(s.Taken))
	assert.False(t, good.Stale, "a published snapshot never changes")
	assert.True(t, c.Ready(), "ready once a cycle succeeded")

	_, body := scrape(t, h, "/metrics")
	fams := promtest.Parse(t, promtest.WithoutServe(body))
	assert.Equal(t, 1.0, promtest.Value(t, fams, "kstreams_group_up", "cluster", "default", "group", "word-count"), "the last good metrics are served")
	assert.Contains(t, body, `kstreams_serve_stale{cluster="default"} 1`)
	assert.Contains(t, body, `kstreams_serve_cycle_errors_total{cluster="default"} 1`)

	require.ErrorIs(t, c.Cycle(t.Context()), errDown, "building a new client fails too")
	assert.Contains(t, scrapeBody(t, h), `kstreams_serve_cycle_errors_total{cluster="default"} 2`)

	f.down.Store(false)
	require.NoError(t, c.Cycle(t.Context()))
	s = c.Snapshot()
	assert.False(t, s.Stale)
	assert.Empty(t, s.Error)
	assert.NotSame(t, good.Check, s.Check)
	assert.Len(t, s.History["word-count"], 2, "the failed cycles add no sample")
	assert.EqualValues(t, 2, f.clients.Load(), "a new client after the failure")
	assert.Contains(t, scrapeBody(t, h), `kstreams_serve_stale{cluster="default"} 0`)
}

func scrapeBody(t *testing.T, h http.Handler) string {
	t.Helper()
	_, body := scrape(t, h, "/metrics")
	return body
}

// TestCollectorStaleOnClosedCluster: the cluster really gone, the cycle
// fails within the timeout and the snapshot is stale.
func TestCollectorStaleOnClosedCluster(t *testing.T) {
	f := newFixture(t)
	cfg := f.config("default")
	cfg.Timeout = 2 * time.Second
	c := serve.NewCollector(cfg)
	require.NoError(t, c.Cycle(t.Context()))
	require.NoError(t, f.pg.Close())
	require.Error(t, c.Cycle(t.Context()))
	s := c.Snapshot()
	assert.True(t, s.Stale)
	assert.NotEmpty(t, s.Error)
	assert.NotNil(t, s.Check)
}

func TestBackoff(t *testing.T) {
	for _, tc := range []struct {
		interval time.Duration
		fails    int
		want     time.Duration
	}{
		{30 * time.Second, 0, 30 * time.Second},
		{30 * time.Second, 1, 30 * time.Second},
		{30 * time.Second, 2, time.Minute},
		{30 * time.Second, 3, 2 * time.Minute},
		{30 * time.Second, 4, 4 * time.Minute},
		{30 * time.Second, 5, 4 * time.Minute},
		{30 * time.Second, 1000, 4 * time.Minute},
		{2 * time.Second, 5, 16 * time.Second},
		{2 * time.Second, 6, 16 * time.Second},
		{time.Minute, 9, 5 * time.Minute},
		{10 * time.Minute, 9, 10 * time.Minute},
	} {
		assert.Equal(t, tc.want, serve.Backoff(tc.interval, tc.fails), "%s after %d failures", tc.interval, tc.fails)
	}
}

// TestRunBacksOff: while the cluster is down Run waits longer after each
// failure, up to the cap, never stops, and goes back to the interval once
// a cycle succeeds.
func TestRunBacksOff(t *testing.T) {
	f := newFixture(t)
	f.down.Store(true)
	var mu sync.Mutex
	var waits []time.Duration
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	fire := make(chan time.Time)
	close(fire)
	cfg := f.config("default")
	cfg.Interval = time.Minute // far longer than a cycle takes
	cfg.After = func(d time.Duration) <-chan time.Time {
		mu.Lock()
		defer mu.Unlock()
		waits = append(waits, d)
		switch len(waits) {
		case 6:
			f.down.Store(false)
		case 8:
			cancel()
		}
		return fire
	}
	c := serve.NewCollector(cfg)
	done := make(chan struct{})
	go func() { c.Run(ctx); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("Run did not end with its context")
	}
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, waits, 8)
	round := func(d time.Duration) time.Duration { return (d + 30*time.Second).Truncate(time.Minute) }
	var got []time.Duration
	for _, w := range waits {
		got = append(got, round(w))
	}
	// Six failures (1, 2, 4, 5, 5, 5 minutes: the cap is 5 minutes), then
	// the interval again.
	assert.Equal(t, []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 5 * time.Minute, 5 * time.Minute, 5 * time.Minute, time.Minute, time.Minute}, got)
	assert.False(t, c.Snapshot().Stale)
}

// TestSeveralClusters: two playgrounds, each its collector; /metrics
// holds both, each labelled its cluster, /readyz waits for both; the
// registry finds nothing to log (no series twice, one help per family).
func TestSeveralClusters(t *testing.T) {
	a, b := newFixture(t), newFixture(t)
	b.pg.RemoveGroup("billing")
	ca, cb := serve.NewCollector(a.config("prod")), serve.NewCollector(b.config("staging"))
	cs := serve.Collectors{ca, cb}
	var logged bytes.Buffer
	h := serve.Handler(cs, serve.HandlerOptions{Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	code, body := scrape(t, h, "/readyz")
	assert.Equal(t, http.StatusServiceUnavailable, code)
	assert.Contains(t, body, "prod staging")
	require.NoError(t, ca.Cycle(t.Context()))
	code, body = scrape(t, h, "/readyz")
	assert.Equal(t, http.StatusServiceUnavailable, code)
	assert.Contains(t, body, "staging")
	assert.NotContains(t, body, "prod")
	require.NoError(t, cb.Cycle(t.Context()))
	code, _ = scrape(t, h, "/readyz")
	assert.Equal(t, http.StatusOK, code)

	fams := promtest.Parse(t, promtest.WithoutServe(scrapeBody(t, h)))
	assert.Equal(t, 1.0, promtest.Value(t, fams, "kstreams_group_up", "cluster", "prod", "group", "billing"))
	assert.False(t, promtest.Has(fams, "kstreams_group_up", "cluster", "staging", "group", "billing"))
	assert.Equal(t, 1.0, promtest.Value(t, fams, "kstreams_group_up", "cluster", "staging", "group", "word-count"))
	assert.True(t, promtest.Has(fams, "kstreams_check_status", "cluster", "prod"))
	assert.True(t, promtest.Has(fams, "kstreams_check_status", "cluster", "staging"))
	assert.Empty(t, logged.String(), "the registry's checks pass")
	clusters := cs.Clusters()
	require.Len(t, clusters, 2)
	assert.Equal(t, "prod", clusters[0].Name)
	assert.Equal(t, "staging", clusters[1].Name)
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestHistoryAndEvents: each cycle adds a sample (bounded to the hour at
// the interval) and the changes since the last cycle; a published
// snapshot never changes.
func TestHistoryAndEvents(t *testing.T) {
	f := newFixture(t)
	cfg := f.config("default")
	cfg.Interval = 20 * time.Minute // three samples make the hour
	c := serve.NewCollector(cfg)
	require.NoError(t, c.Cycle(t.Context()))
	first := c.Snapshot()
	require.Len(t, first.History["fraud-detector"], 1)
	for _, e := range first.Events["fraud-detector"] {
		// Only the rebalances read back from the history (backfill.go).
		assert.True(t, strings.HasPrefix(e.Text, "rebalance: "), "no change seen before a second cycle: %v", e)
	}

	var fraud playground.StreamsGroup
	for _, g := range playground.DefaultState().StreamsGroups {
		if g.ID == "page-views" {
			fraud = g.StreamsGroup
		}
	}
	require.NotEmpty(t, fraud.ID)
	fraud.State, fraud.Members = "Empty", nil
	fraud.GroupEpoch++
	f.pg.PutStreamsGroup(fraud)
	for range 4 {
		require.NoError(t, c.Cycle(t.Context()))
	}
	s := c.Snapshot()
	assert.Len(t, s.History["page-views"], 3, "an hour at 20 minutes")
	assert.Len(t, first.History["page-views"], 1, "the first snapshot is unchanged")
	var texts []string
	for _, e := range s.Events["page-views"] {
		texts = append(texts, e.Text)
	}
	assert.Contains(t, strings.Join(texts, "\n"), "state Reconciling -> Empty")
	assert.Contains(t, strings.Join(texts, "\n"), " left (")

	f.pg.RemoveGroup("page-views")
	require.NoError(t, c.Cycle(t.Context()))
	assert.NotContains(t, c.Snapshot().History, "page-views", "a group gone is forgotten")
}

// TestHandler: the probes, the placeholder page, the page mounted, and
// promhttp's compression.
func TestHandler(t *testing.T) {
	f := newFixture(t)
	c := serve.NewCollector(f.config("default"))
	h := serve.Handler(serve.Collectors{c}, serve.HandlerOptions{})
	code, body := scrape(t, h, "/healthz")
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, "ok\n", body)
	code, _ = scrape(t, h, "/readyz")
	assert.Equal(t, http.StatusServiceUnavailable, code)
	code, body = scrape(t, h, "/")
	assert.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, "/metrics")
	code, _ = scrape(t, h, "/api/v1/overview")
	assert.Equal(t, http.StatusNotFound, code)

	// Before the first cycle: serve's own metrics, no group's.
	body = scrapeBody(t, h)
	assert.Contains(t, body, "kstreams_serve_series{cluster=\"default\"} 0\n")
	assert.NotContains(t, body, "kstreams_group_up")

	require.NoError(t, c.Cycle(t.Context()))
	req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	assert.Equal(t, "gzip", rec.Header().Get("Content-Encoding"))
	zr, err := gzip.NewReader(rec.Body)
	require.NoError(t, err)
	plain, err := io.ReadAll(zr)
	require.NoError(t, err)
	assert.Contains(t, string(plain), "kstreams_group_up{")
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/metrics", nil))
	assert.Equal(t, http.StatusMethodNotAllowed, rec.Code, "read-only")

	var got []string
	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = append(got, r.URL.Path) })
	h = serve.Handler(serve.Collectors{c}, serve.HandlerOptions{Web: page})
	scrape(t, h, "/")
	scrape(t, h, "/api/v1/overview")
	scrape(t, h, "/groups/word-count")
	_, body = scrape(t, h, "/metrics")
	assert.Equal(t, []string{"/", "/api/v1/overview", "/groups/word-count"}, got)
	assert.Contains(t, body, "kstreams_group_up")
}

// TestScrapeSendsNoRequest: a scrape is answered from memory.
func TestScrapeSendsNoRequest(t *testing.T) {
	f := newFixture(t)
	c := serve.NewCollector(f.config("default"))
	require.NoError(t, c.Cycle(t.Context()))
	h := serve.Handler(serve.Collectors{c}, serve.HandlerOptions{})
	f.pg.ResetRequests()
	for range 5 {
		scrape(t, h, "/metrics")
	}
	assert.Empty(t, f.pg.Requests())
}
