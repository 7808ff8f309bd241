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

// procCPU is the CPU time (user and system) a process has used.
func procCPU(tb testing.TB, pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	require.NoError(tb, err)
	// The fields after the command name, which is in parentheses: the
	// 12th and 13th of them are utime and stime, in clock ticks (100 a
	// second on Linux).
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// BenchmarkServeRSS runs serve in a process of its own against the
// playground seeded with 2,000 groups and 50,000 partitions (in this
// process), cycles back to back (--interval 1s), and reports its resident
// memory after the 10th, 40th and 100th cycle and its peak, and the CPU
// time of a cycle in the serve process (cycles 11 to 100: the reading,
// the snapshot, one /metrics encoding and the garbage collection). A
// hundred cycles at 1s keep as many samples of history as an hour at the
// default 30s does, beyond which the history is bounded: the memory must
// not grow with the cycles. Each sub-benchmark is one setting of the
// runtime's soft memory limit, GOMEMLIMIT=off being none at all.
func BenchmarkServeRSS(b *testing.B) {
	groups := 2000
	if testing.Short() {
		groups = 200
	}
	pg, err := playground.StartStateWith(playground.Config{NoRequestLog: true}, benchtest.ServeState(groups, 25))
	require.NoError(b, err)
	b.Cleanup(func() { _ = pg.Close() })
	for _, setting := range []struct {
		name string
		env  []string
		args []string
	}{
		{"limit=default", nil, nil},
		{"GOMEMLIMIT=off", []string{"GOMEMLIMIT=off"}, nil},
		{"GOMEMLIMIT=100MiB", []string{"GOMEMLIMIT=100MiB"}, nil},
		{"GOMEMLIMIT=120MiB", []string{"GOMEMLIMIT=120MiB"}, nil},
	} {
		b.Run(setting.name, func(b *testing.B) {
			for b.Loop() {
				serveRSS(b, pg, setting.env, setting.args)
			}
		})
	}
}

// serveRSS is one run of BenchmarkServeRSS.
func serveRSS(b *testing.B, pg *playground.Cluster, env, args []string) {
	s := startServeEnv(b, env, append([]string{"--bootstrap-server", bootstrap(pg), "--interval", "1s", "--timeout", "60s"}, args...)...)
	defer func() {
		_ = s.cmd.Process.Kill()
		<-s.exited
	}()
	pid := s.cmd.Process.Pid
	lastSuccess := ""
	cycles := 0
	var rss10, rss40, rss100, hwm float64
	var cpu10, cpu100 time.Duration
	deadline := time.Now().Add(40 * time.Minute)
	for cycles < 100 {
		require.True(b, time.Now().Before(deadline), "100 cycles in 40 minutes")
		// A scrape a cycle, as Prometheus at the interval.
		_, body := s.get(b, "/metrics")
		for _, l := range strings.Split(body, "\n") {
			if !strings.HasPrefix(l, "kstreams_serve_last_success_timestamp_seconds{") || l == lastSuccess {
				continue
			}
			lastSuccess = l
			cycles++
			pg.ResetRequests()
			switch cycles {
			case 10:
				rss10, _ = procMemory(b, pid)
				cpu10 = procCPU(b, pid)
			case 40:
				rss40, _ = procMemory(b, pid)
			case 100:
				rss100, hwm = procMemory(b, pid)
				cpu100 = procCPU(b, pid)
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	b.ReportMetric(rss10, "rss-MiB@10")
	b.ReportMetric(rss40, "rss-MiB@40")
	b.ReportMetric(rss100, "rss-MiB@100")
	b.ReportMetric(hwm, "peak-MiB")
	b.ReportMetric(float64((cpu100-cpu10).Milliseconds())/90, "cpu-ms/cycle")
}
