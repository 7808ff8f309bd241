package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/benchtest"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// largeTimeLagState is the benchmark's seed: 3 nodes, groups streams
// groups of two members, each with two sub-topologies reading a topic of
// 16 partitions of their own (zstd or gzip, batches of 10): 1,000 records
// per partition, committed 50 behind the end, so that every partition is
// read and counted.
func largeTimeLagState(groups int) *playground.State {
	s := &playground.State{Nodes: 3}
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC).UnixMilli()
	const parts, records, behind = 16, 1000, 50
	for g := range groups {
		id := fmt.Sprintf("app-%03d", g)
		sg := playground.StateStreamsGroup{StreamsGroup: playground.StreamsGroup{ID: id, State: "Stable", GroupEpoch: 3, AssignmentEpoch: 3,
			Topology: &playground.Topology{}}}
		a0, a1 := map[string][]int32{}, map[string][]int32{}
		for st := range 2 {
			topic := fmt.Sprintf("%s-in-%d", id, st)
			codec := []string{"zstd", "gzip"}[st]
			t := playground.StateTopic{Name: topic, Partitions: parts, Compression: codec, BatchRecords: 10}
			for p := range int32(parts) {
				t.StartOffsets = append(t.StartOffsets, 0)
				t.EndOffsets = append(t.EndOffsets, records)
				ts := make([]int64, records)
				for i := range ts {
					ts[i] = now - int64(records-i)*1000
				}
				t.Timestamps = append(t.Timestamps, ts)
				sg.CommittedOffsets = append(sg.CommittedOffsets, playground.StateCommitted{Topic: topic, Partition: p, Offset: records - behind})
				if p%2 == 0 {
					a0[fmt.Sprint(st)] = append(a0[fmt.Sprint(st)], p)
				} else {
					a1[fmt.Sprint(st)] = append(a1[fmt.Sprint(st)], p)
				}
			}
			s.Topics = append(s.Topics, t)
			sg.Topology.Subtopologies = append(sg.Topology.Subtopologies, playground.Subtopology{ID: fmt.Sprint(st), SourceTopics: []string{topic}})
		}
		sg.Members = []playground.Member{
			{MemberID: "m-0", MemberEpoch: 3, ProcessID: "p0", ClientID: "c0", Assignment: playground.Assignment{Active: a0}, TargetAssignment: playground.Assignment{Active: a0}},
			{MemberID: "m-1", MemberEpoch: 3, ProcessID: "p1", ClientID: "c1", Assignment: playground.Assignment{Active: a1}, TargetAssignment: playground.Assignment{Active: a1}},
		}
		s.StreamsGroups = append(s.StreamsGroups, sg)
	}
	return s
}

// BenchmarkOverviewTimeLag times overview --all-groups on the large seed
// (20 groups, 640 partitions, 3 leaders) with and without --time-lag, the
// whole CLI path in-process; fetches/op is the Fetch requests of a run
// (one per leader).
func BenchmarkOverviewTimeLag(b *testing.B) {
	b.Setenv("XDG_CONFIG_HOME", b.TempDir())
	b.Setenv("HOME", b.TempDir())
	c, err := playground.StartState(largeTimeLagState(20))
	require.NoError(b, err)
	b.Cleanup(func() { _ = c.Close() })
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"offsets", nil},
		{"time-lag", []string{"--time-lag"}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			args := append([]string{"--bootstrap-server", bootstrap(c), "overview", "--all-groups", "-o", "json"}, tc.args...)
			c.ResetRequests()
			runs := 0
			cpu := benchtest.CPUTime()
			for b.Loop() {
				var out, errOut strings.Builder
				if code := testRun(b, args, IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}, deps{clock: newFakeClock(nil)}); code != 0 {
					b.Fatalf("exit %d: %s", code, errOut.String())
				}
				runs++
			}
			// CPU time (the playground's serving included): on a loaded
			// machine the figure that does not depend on other processes.
			benchtest.ReportCPU(b, cpu)
			b.ReportMetric(float64(len(requestsWithKey(c, 1)))/float64(runs), "fetches/op")
		})
	}
}

// The seed reads as the benchmark assumes: every partition counted, one
// Fetch per leader. Not in parallel: it counts requests, and under the
// race detector on a loaded machine, beside the other tests, it once saw a
// second round for two leaders.
func TestLargeTimeLagSeed(t *testing.T) {
	isolate(t)
	c, err := playground.StartState(largeTimeLagState(5))
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	r := runCLIWith(t, deps{clock: newFakeClock(nil)}, "--bootstrap-server", bootstrap(c), "overview", "--all-groups", "--time-lag")
	require.Equal(t, 0, r.code, r.stderr)
	require.Equal(t, 5, strings.Count(r.stdout, "Time lag:      50s, 1600 records to process"), r.stdout)
	require.Len(t, requestsWithKey(c, 1), 3)
}
