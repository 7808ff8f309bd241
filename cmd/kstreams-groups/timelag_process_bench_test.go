//go:build linux || darwin

package main

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/benchtest"
)

// BenchmarkOverviewTimeLagProcess is issue 21's goal as people meet it:
// the wall time of `kstreams-groups overview --all-groups`, the release
// binary (releaseBuild) run as a process, on the large seed (20 groups,
// 640 partitions, 3 leaders, the playground in a child process), with
// --time-lag against without it, in text and -o json, run alternately so
// that both meet the same load. BenchmarkOverviewTimeLag measures the
// same in this process (no process start, no exit), which isolates the
// command's own cost; this one is the wall time a user, a script or a
// monitoring system waits for. It reports the medians of each (wall and
// CPU, user plus system) and their ratios, time lag over offsets: a
// median, because one run is a few milliseconds and a single scheduling
// hiccup of another process would weigh on a mean.
func BenchmarkOverviewTimeLagProcess(b *testing.B) {
	setenv(b, "XDG_CONFIG_HOME", b.TempDir())
	setenv(b, "HOME", b.TempDir())
	bin := filepath.Join(b.TempDir(), "kstreams-groups")
	releaseBuild(b, ".", bin)
	addr := startTimeLagPlayground(b, 20)
	for _, format := range []string{"text", "json"} {
		b.Run(format, func(b *testing.B) {
			base := []string{"--bootstrap-server", addr, "overview", "--all-groups", "-o", format}
			withLag := append(slices.Clone(base), "--time-lag")
			var offW, offC, lagW, lagC []time.Duration
			for b.Loop() {
				w, c, _ := runOnce(b, bin, base...)
				offW, offC = append(offW, w), append(offC, c)
				w, c, _ = runOnce(b, bin, withLag...)
				lagW, lagC = append(lagW, w), append(lagC, c)
			}
			b.StopTimer()
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
			ow, lw, oc, lc := benchtest.Median(offW), benchtest.Median(lagW), benchtest.Median(offC), benchtest.Median(lagC)
			b.ReportMetric(ms(ow), "offsets-ms")
			b.ReportMetric(ms(lw), "time-lag-ms")
			b.ReportMetric(float64(lw)/float64(max(ow, 1)), "wall-ratio")
			b.ReportMetric(ms(oc), "offsets-cpu-ms")
			b.ReportMetric(ms(lc), "time-lag-cpu-ms")
			b.ReportMetric(float64(lc)/float64(max(oc, 1)), "cpu-ratio")
		})
	}
}
