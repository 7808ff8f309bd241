package serve_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kstreams-groups/kstreams-groups/internal/serve"
)

// TestMetricsProcessFamilies: /metrics keeps the Go runtime's and the
// process's families (client_golang's default collectors, gathered from
// its default registry rather than made again), once each, beside serve's
// own.
func TestMetricsProcessFamilies(t *testing.T) {
	f := newFixture(t)
	c := serve.NewCollector(f.config("default"))
	body := scrapeBody(t, serve.Handler(serve.Collectors{c}, serve.HandlerOptions{}))
	want := []string{"go_goroutines", "go_memstats_alloc_bytes", "go_info", "go_gc_duration_seconds", "kstreams_serve_series"}
	if runtime.GOOS == "linux" {
		want = append(want, "process_cpu_seconds_total", "process_start_time_seconds", "process_resident_memory_bytes")
	}
	for _, name := range want {
		assert.Equal(t, 1, strings.Count(body, "# TYPE "+name+" "), "the family %s, once", name)
	}
}
