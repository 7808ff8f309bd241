//go:build linux

package main

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/benchtest"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

var procKB = regexp.MustCompile(`(?m)^(VmRSS|VmHWM):\s+(\d+) kB$`)

// procMemory is a process's resident set size and its peak, in MiB.
func procMemory(tb testing.TB, pid int) (rss, hwm float64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	require.NoError(tb, err)
	for _, m := range procKB.FindAllStringSubmatch(string(b), -1) {
		kb, _ := strconv.ParseFloat(m[2], 64)
		if m[1] == "VmRSS" {
			rss = kb / 1024
		} else {
			hwm = kb / 1024
		}
	}
	return rss, hwm
}

// BenchmarkServeRSS runs serve in a process of its own against the
// playground seeded with 2,000 groups and 50,000 partitions (in this
// process), cycles back to back (--interval 1s), and reports its resident
// memory after the 10th and the 40th cycle and its peak: the memory must
// not grow with the cycles (beyond the history, 2,000 groups times 96
// bytes a cycle, bounded at an hour of samples). GOMEMLIMIT and GOGC, when
// set, reach the serve process (and this one: the playground's collections
// then slow the cycles).
func BenchmarkServeRSS(b *testing.B) {
	b.Setenv("XDG_CONFIG_HOME", b.TempDir())
	b.Setenv("HOME", b.TempDir())
	groups := 2000
	if testing.Short() {
		groups = 200
	}
	pg, err := playground.StartState(benchtest.ServeState(groups, 25))
	require.NoError(b, err)
	b.Cleanup(func() { _ = pg.Close() })
	for b.Loop() {
		s := startServe(b, "--bootstrap-server", bootstrap(pg), "--interval", "1s", "--timeout", "60s")
		lastSuccess := ""
		cycles := 0
		var rss10, rss40, hwm float64
		deadline := time.Now().Add(10 * time.Minute)
		for cycles < 40 {
			require.True(b, time.Now().Before(deadline), "40 cycles in 10 minutes")
			_, body := s.get(b, "/metrics")
			for _, l := range strings.Split(body, "\n") {
				if strings.HasPrefix(l, "kstreams_serve_last_success_timestamp_seconds{") && l != lastSuccess {
					lastSuccess = l
					cycles++
					pg.ResetRequests()
					switch cycles {
					case 10:
						rss10, _ = procMemory(b, s.cmd.Process.Pid)
					case 40:
						rss40, hwm = procMemory(b, s.cmd.Process.Pid)
					}
				}
			}
			time.Sleep(200 * time.Millisecond)
		}
		b.ReportMetric(rss10, "rss-MiB@10")
		b.ReportMetric(rss40, "rss-MiB@40")
		b.ReportMetric(hwm, "peak-MiB")
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
}
