package serve_test

import (
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
)

// BenchmarkCheckMetrics writes the check metrics of 2,000 groups (the
// large seed, 44,000 series) as the Prometheus text format: what -o
// prometheus and the first scrape after a cycle do, without the cluster.
func BenchmarkCheckMetrics(b *testing.B) {
	c, _ := largeCollector(b, benchGroups(), 30*time.Second)
	require.NoError(b, c.Cycle(b.Context()))
	res := c.Snapshot().Check
	po := format.PrometheusOptions{OmitTaskLag: true}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := format.CheckPrometheusWith(io.Discard, res, po); err != nil {
			b.Fatal(err)
		}
	}
}
