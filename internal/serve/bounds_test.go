package serve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/check"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/format/promtest"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
	"github.com/kstreams-groups/kstreams-groups/internal/serve"
	"github.com/kstreams-groups/kstreams-groups/internal/serve/api"
	"github.com/kstreams-groups/kstreams-groups/internal/serve/web"
)

// lockedBuffer is a log destination the collector's goroutine writes and
// the test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestRunRetryInNeverNegative (W9): a failed cycle that took longer than
// its back-off logs retry_in 0s and starts the next at once, never a
// negative wait.
func TestRunRetryInNeverNegative(t *testing.T) {
	f := newFixture(t)
	f.down.Store(true)
	var logs lockedBuffer
	cfg := f.config("default")
	cfg.Logger = slog.New(slog.NewJSONHandler(&logs, nil))
	// Every reading of the clock is ten minutes later: each cycle seems
	// to take far longer than any back-off.
	var mu sync.Mutex
	clock := time.Unix(1_700_000_000, 0)
	cfg.Now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(10 * time.Minute)
		return clock
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var waits []time.Duration
	fire := make(chan time.Time)
	close(fire)
	cfg.After = func(d time.Duration) <-chan time.Time {
		mu.Lock()
		defer mu.Unlock()
		if waits = append(waits, d); len(waits) == 3 {
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
	assert.Equal(t, []time.Duration{0, 0, 0}, waits)
	mu.Unlock()
	var logged int
	for line := range strings.Lines(logs.String()) {
		var rec map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &rec), line)
		if rec["msg"] == "cycle failed" {
			logged++
			assert.Equal(t, "0s", rec["retry_in"], line)
		}
	}
	assert.Equal(t, 3, logged)
}

// fifteenGroups is the playground of the fixture with 15 streams groups
// more, copies of its own under other ids.
func fifteenGroups(t *testing.T) *fixture {
	t.Helper()
	f := newFixture(t)
	seed := playground.DefaultState().StreamsGroups
	for i := range 15 {
		g := seed[i%len(seed)].StreamsGroup
		g.ID = fmt.Sprintf("copy-%02d", i)
		f.pg.PutStreamsGroup(g)
	}
	return f
}

// belowGroupLevel tells a family of a group's parts (sub-topology, task,
// partition).
func belowGroupLevel(f *dto.MetricFamily) bool {
	for _, l := range f.GetMetric()[0].GetLabel() {
		if l.GetName() == "subtopology" {
			return true
		}
	}
	return false
}

// TestMaxSeriesDropsWholeFamilies (W11): past --max-series whole
// families go, those with the most labels first, and only below group
// level: every family left has every series it had without the cap, and
// kstreams_group_up and the state families are there for every group,
// even when they alone pass the cap.
func TestMaxSeriesDropsWholeFamilies(t *testing.T) {
	f := fifteenGroups(t)
	all := serve.NewCollector(f.config("default"))
	require.NoError(t, all.Cycle(t.Context()))
	full := promtest.Parse(t, promtest.WithoutServe(scrapeBody(t, serve.Handler(serve.Collectors{all}, serve.HandlerOptions{}))))
	total, groupLevel := 0, 0
	for _, fam := range full {
		total += len(fam.GetMetric())
		if !belowGroupLevel(fam) {
			groupLevel += len(fam.GetMetric())
		}
	}
	groups := len(full["kstreams_group_up"].GetMetric())
	require.GreaterOrEqual(t, groups, 15)
	taskLag := len(full["kstreams_task_lag"].GetMetric())
	require.Positive(t, taskLag)
	subLag := len(full["kstreams_subtopology_lag"].GetMetric())
	require.Positive(t, subLag)

	for _, tc := range []struct {
		name      string
		maxSeries int
		// gone are the families dropped.
		gone []string
	}{
		{"one series too many: the task families go whole", total - 1, []string{"kstreams_task_lag"}},
		{"past the tasks: the sub-topologies go too", total - taskLag - 1, []string{"kstreams_task_lag", "kstreams_subtopology_lag"}},
		{"below the group level alone", 20, []string{"kstreams_task_lag", "kstreams_subtopology_lag"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := f.config("default")
			cfg.MaxSeries = tc.maxSeries
			c := serve.NewCollector(cfg)
			require.NoError(t, c.Cycle(t.Context()))
			require.NoError(t, c.Cycle(t.Context()))
			body := scrapeBody(t, serve.Handler(serve.Collectors{c}, serve.HandlerOptions{}))
			fams := promtest.Parse(t, promtest.WithoutServe(body))
			kept := 0
			for name, fam := range fams {
				kept += len(fam.GetMetric())
				assert.Len(t, fam.GetMetric(), len(full[name].GetMetric()), "%s is whole", name)
			}
			for name, fam := range full {
				if slices.Contains(tc.gone, name) {
					assert.NotContains(t, fams, name)
				} else {
					assert.Contains(t, fams, name, "only %v go", tc.gone)
				}
				if !belowGroupLevel(fam) {
					assert.Contains(t, fams, name, "a group-level family is never dropped")
				}
			}
			for _, name := range []string{"kstreams_group_up", "kstreams_group_state", "kstreams_check_group_status"} {
				assert.Len(t, fams[name].GetMetric(), len(full[name].GetMetric()), name)
			}
			assert.Len(t, fams["kstreams_group_up"].GetMetric(), groups)
			assert.GreaterOrEqual(t, kept, min(tc.maxSeries, groupLevel))
			dropped := total - kept
			assert.Contains(t, body, "kstreams_serve_series{cluster=\"default\"} "+itoa(kept)+"\n")
			assert.Contains(t, body, "kstreams_serve_dropped_series_total{cluster=\"default\"} "+itoa(2*dropped)+"\n", "counted each cycle")
		})
	}
}

// TestBrokerMessageBounded (W5): a group whose description fails with a
// 4-million-character message is kept with the message cut (saying
// where it is whole) in the snapshot, its problems and its timeline, and
// every /api/v1 document stays small; the error keeps its Kafka code and
// name, and the group stays UNKNOWN/CRITICAL as before.
func TestBrokerMessageBounded(t *testing.T) {
	f := newFixture(t)
	c := serve.NewCollector(f.config("default"))
	require.NoError(t, c.Cycle(t.Context()))
	const size = 4 << 20
	huge := "denied: " + strings.Repeat("\x1b[31mé", size/8)
	f.pg.InjectError(playground.Fault{Key: 89, Group: "word-count", ErrorCode: kafka.CodeGroupAuthorizationFailed, ErrorMessage: &huge, Node: playground.AnyNode})
	require.NoError(t, c.Cycle(t.Context()))

	snap := c.Snapshot()
	var g *check.Group
	for _, cg := range snap.Check.Groups {
		if cg.ID() == "word-count" {
			g = cg
		}
	}
	require.NotNil(t, g)
	require.Error(t, g.Overview.Err)
	text := g.Overview.Err.Error()
	assert.Less(t, len(text), 4*format.MaxMessage, "the snapshot keeps a bounded message")
	assert.Contains(t, text, "[cut: the message has ")
	assert.Contains(t, text, "characters; kstreams-groups check -o json shows it whole]")
	assert.True(t, errors.Is(g.Overview.Err, kafka.ErrNotAuthorized), "classified as before")
	var ke *kafka.Error
	require.True(t, errors.As(g.Overview.Err, &ke))
	assert.Equal(t, kafka.CodeGroupAuthorizationFailed, ke.Code)
	assert.Less(t, len(ke.Message), 4*format.MaxMessage)
	require.NotEmpty(t, g.Problems)
	for _, p := range g.Problems {
		assert.Less(t, len(p.Message), 4*format.MaxMessage, p.Condition)
	}
	require.NotEmpty(t, snap.Events["word-count"], "the change to failing is in the timeline")
	for _, e := range snap.Events["word-count"] {
		assert.Less(t, len(e.Text), 4*format.MaxMessage)
	}

	srv := httptest.NewServer(web.Handler(serve.Collectors{c}))
	defer srv.Close()
	for _, path := range []string{"/api/v1/groups", "/api/v1/clusters", "/api/v1/clusters/default/check", "/api/v1/clusters/default/overview",
		"/api/v1/clusters/default/groups/word-count", "/api/v1/clusters/default/groups/word-count/events"} {
		res, err := srv.Client().Get(srv.URL + path)
		require.NoError(t, err)
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, res.StatusCode, path)
		assert.Less(t, len(body), 256<<10, "%s is bounded", path)
		if path == "/api/v1/groups" {
			var doc api.GroupsDoc
			require.NoError(t, json.Unmarshal(body, &doc))
			found := false
			for _, row := range doc.Groups {
				if row.Group == "word-count" {
					found = true
					require.NotNil(t, row.Error)
					assert.Equal(t, "GROUP_AUTHORIZATION_FAILED", row.Error.Name)
					assert.Contains(t, row.Error.Message, "denied: ")
					assert.Contains(t, row.Error.Message, "kstreams-groups check -o json shows it whole]")
				}
			}
			assert.True(t, found)
		}
	}
	_, metrics := scrape(t, serve.Handler(serve.Collectors{c}, serve.HandlerOptions{}), "/metrics")
	assert.Contains(t, metrics, `kstreams_group_up{cluster="default",group="word-count"} 0`)
}

// TestCycleErrorBounded (W5): a cycle that fails with a long message
// keeps it cut in the snapshot (which the log line and the documents
// show).
func TestCycleErrorBounded(t *testing.T) {
	f := newFixture(t)
	cfg := f.config("default")
	huge := strings.Repeat("x", 4<<20)
	cfg.NewClient = func(context.Context) (serve.Client, error) { return nil, errors.New(huge) }
	c := serve.NewCollector(cfg)
	require.Error(t, c.Cycle(t.Context()))
	assert.Less(t, len(c.Snapshot().Error), 4*format.MaxMessage)
	assert.Contains(t, c.Snapshot().Error, "[cut: the message has 4194304 characters; ")
}
