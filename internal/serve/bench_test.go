package serve_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/benchtest"
	"github.com/kstreams-groups/kstreams-groups/internal/check"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
	"github.com/kstreams-groups/kstreams-groups/internal/serve"
)

// largeCollector is a collector on the large seed (groups of 25
// partitions), without the per-partition series (serve's default).
func largeCollector(tb testing.TB, groups int, interval time.Duration) (*serve.Collector, *playground.Cluster) {
	tb.Helper()
	pg, err := playground.StartStateWith(playground.Config{NoRequestLog: true}, benchtest.ServeState(groups, 25))
	require.NoError(tb, err)
	tb.Cleanup(func() { _ = pg.Close() })
	c := serve.NewCollector(serve.Config{
		Name:      "bench",
		NewClient: func(context.Context) (serve.Client, error) { return admin.New(admin.Config{Bootstrap: pg.Addrs()}) },
		Check:     check.Options{AllGroups: true, Describe: true},
		Interval:  interval,
		Timeout:   5 * time.Minute,
		Metrics:   format.PrometheusOptions{OmitTaskLag: true},
		MaxSeries: 1_000_000,
	})
	tb.Cleanup(c.Close)
	return c, pg
}

// benchGroups is the number of groups of the benchmarks: issue 23's 2,000
// (50,000 partitions), fewer with -short.
func benchGroups() int {
	if testing.Short() {
		return 200
	}
	return 2000
}

// BenchmarkCycle times one full cycle on 2,000 groups and 50,000
// partitions on three brokers: ListGroups, the descriptions with their
// topology, the committed offsets and the end offsets, the snapshot and
// its metric families.
func BenchmarkCycle(b *testing.B) {
	c, _ := largeCollector(b, benchGroups(), 30*time.Second)
	require.NoError(b, c.Cycle(b.Context())) // connections and metadata warm
	for b.Loop() {
		if err := c.Cycle(b.Context()); err != nil {
			b.Fatal(err)
		}
	}
	s := c.Snapshot()
	require.Len(b, s.Check.Groups, benchGroups())
	b.ReportMetric(float64(len(s.Check.Groups)), "groups")
}

// BenchmarkCycleMemory runs many cycles with the history at its bound (an
// interval of 20 minutes keeps 3 samples, as 30 s keeps 120: what an hour
// of cycles leaves) and reports the live heap after the 10th cycle and
// after the 30th: it must not grow with the cycles.
func BenchmarkCycleMemory(b *testing.B) {
	for b.Loop() {
		c, pg := largeCollector(b, benchGroups(), 20*time.Minute)
		heap := func() uint64 {
			// The playground records every request: not serve's memory.
			pg.ResetRequests()
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			return m.HeapAlloc
		}
		base := heap() // the playground's own
		var at10 uint64
		const cycles = 30
		for i := 1; i <= cycles; i++ {
			require.NoError(b, c.Cycle(b.Context()))
			if i == 10 {
				at10 = heap()
			}
		}
		last := heap()
		runtime.KeepAlive(c)
		b.ReportMetric(float64(at10-base)/(1<<20), "serve-MiB@10")
		b.ReportMetric(float64(last-base)/(1<<20), "serve-MiB@30")
		b.ReportMetric((float64(last)-float64(at10))/(1<<20), "growth-MiB")
	}
}

// BenchmarkScrape: 10 scrapers at once on /metrics over HTTP (gzip, as
// Prometheus asks), from the snapshot of the large seed; reports the
// latency percentiles of one scrape, and the first scrape after the cycle
// (cold-ms: the one that encodes).
func BenchmarkScrape(b *testing.B) {
	c, _ := largeCollector(b, benchGroups(), 30*time.Second)
	require.NoError(b, c.Cycle(b.Context()))
	srv := httptest.NewServer(serve.Handler(serve.Collectors{c}, serve.HandlerOptions{}))
	b.Cleanup(srv.Close)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	get := func() (time.Duration, int) {
		start := time.Now()
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/metrics", nil)
		req.Header.Set("Accept-Encoding", "gzip")
		resp, err := client.Do(req)
		if err != nil {
			b.Error(err)
			return 0, 0
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return time.Since(start), int(n)
	}
	// The first scrape after a cycle encodes; the others of the cycle are
	// answered with its bytes.
	cold, size := get()
	var mu sync.Mutex
	var lat []time.Duration
	for b.Loop() {
		var wg sync.WaitGroup
		for range 10 {
			wg.Go(func() {
				d, _ := get()
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			})
		}
		wg.Wait()
	}
	slices.Sort(lat)
	pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.5), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(float64(cold.Microseconds())/1000, "cold-ms")
	b.ReportMetric(float64(size)/1024, "gzip-KiB")
	b.ReportMetric(float64(c.Snapshot().Check.Groups[0].Overview.Lag), "lag")
}
