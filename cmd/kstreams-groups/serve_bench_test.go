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

	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// serveBenchState is issue 23's seed: 3 nodes, 2,000 streams groups of
// two members, each reading a topic of its own of 25 partitions (50,000
// partitions), committed 50 behind the end.
func serveBenchState(groups, parts int) *playground.State {
	s := &playground.State{Nodes: 3}
	for g := range groups {
		id := fmt.Sprintf("app-%04d", g)
		topic := id + "-in"
		sg := playground.StateStreamsGroup{StreamsGroup: playground.StreamsGroup{ID: id, State: "Stable", GroupEpoch: 3, AssignmentEpoch: 3,
			Topology: &playground.Topology{Subtopologies: []playground.Subtopology{{ID: "0", SourceTopics: []string{topic}}}}}}
		t := playground.StateTopic{Name: topic, Partitions: int32(parts)}
		a0, a1 := map[string][]int32{}, map[string][]int32{}
		for p := range int32(parts) {
			t.StartOffsets = append(t.StartOffsets, 0)
			t.EndOffsets = append(t.EndOffsets, 1000)
			sg.CommittedOffsets = append(sg.CommittedOffsets, playground.StateCommitted{Topic: topic, Partition: p, Offset: 950})
			if p%2 == 0 {
				a0["0"] = append(a0["0"], p)
			} else {
				a1["0"] = append(a1["0"], p)
			}
		}
		s.Topics = append(s.Topics, t)
		sg.Members = []playground.Member{
			{MemberID: "m-0", MemberEpoch: 3, ProcessID: "p0", ClientID: "c0", Assignment: playground.Assignment{Active: a0}, TargetAssignment: playground.Assignment{Active: a0}},
			{MemberID: "m-1", MemberEpoch: 3, ProcessID: "p1", ClientID: "c1", Assignment: playground.Assignment{Active: a1}, TargetAssignment: playground.Assignment{Active: a1}},
		}
		s.StreamsGroups = append(s.StreamsGroups, sg)
	}
	return s
}

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
	pg, err := playground.StartState(serveBenchState(groups, 25))
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
