package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime/pprof"
	"slices"
	"strconv"
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

// BenchmarkOverviewTimeLag is issue 21's goal: the wall time of
// `overview --all-groups` on the large seed (20 groups, 640 partitions, 3
// leaders) with --time-lag against the same without it, in text and -o
// json. Each iteration runs both, one after the other, so that both meet
// the same load; the command runs in this process, the playground in a
// child process (timeLagPlaygroundChild): a broker's serving is not the
// command's cost, so the CPU figures are the command's alone. It reports,
// per run, the wall and CPU milliseconds of each and their ratios (time
// lag over offsets), and the Fetch requests of a run with time lag (one
// per leader), counted from the --debug log of one more run. The output
// goes to io.Discard, as to a file: its bytes are the golden tests'.
func BenchmarkOverviewTimeLag(b *testing.B) {
	setenv(b, "XDG_CONFIG_HOME", b.TempDir())
	setenv(b, "HOME", b.TempDir())
	addr := startTimeLagPlayground(b, 20)
	for _, format := range []string{"text", "json"} {
		b.Run(format, func(b *testing.B) {
			base := []string{"--bootstrap-server", addr, "overview", "--all-groups", "-o", format}
			withLag := append(slices.Clone(base), "--time-lag")
			// Each run is labelled (run=offsets|time-lag) for a CPU profile:
			// go tool pprof -tagfocus run=time-lag.
			once := func(run string, args []string) (wall, cpu time.Duration) {
				var errOut strings.Builder
				c0, w0 := benchtest.CPUTime(), time.Now()
				pprof.Do(context.Background(), pprof.Labels("run", run), func(context.Context) {
					if code := testRun(b, args, IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: &errOut}, deps{clock: newFakeClock(nil)}); code != 0 {
						b.Fatalf("exit %d: %s", code, errOut.String())
					}
				})
				return time.Since(w0), benchtest.CPUTime() - c0
			}
			var offW, offC, lagW, lagC time.Duration
			n := 0
			for b.Loop() {
				w, c := once("offsets", base)
				offW, offC = offW+w, offC+c
				w, c = once("time-lag", withLag)
				lagW, lagC = lagW+w, lagC+c
				n++
			}
			b.StopTimer()
			per := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(n) }
			b.ReportMetric(per(offW), "offsets-ms/op")
			b.ReportMetric(per(lagW), "time-lag-ms/op")
			b.ReportMetric(float64(lagW)/float64(offW), "wall-ratio")
			b.ReportMetric(per(offC), "offsets-cpu-ms/op")
			b.ReportMetric(per(lagC), "time-lag-cpu-ms/op")
			b.ReportMetric(float64(lagC)/float64(max(offC, 1)), "cpu-ratio")
			var errOut strings.Builder
			if code := testRun(b, append(slices.Clone(withLag), "--debug"), IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: &errOut}, deps{clock: newFakeClock(nil)}); code != 0 {
				b.Fatalf("exit %d: %s", code, errOut.String())
			}
			b.ReportMetric(float64(strings.Count(errOut.String(), "] > Fetch v")), "fetches/op")
		})
	}
}

// timeLagPlaygroundEnv makes the test binary serve the playground seeded
// with largeTimeLagState(N) for BenchmarkOverviewTimeLag (N the value): it
// prints the bootstrap address on stdout and serves until its stdin ends
// (the parent closed it, or ended). The mode is entered from an init, not
// TestMain, so that it stays in this file.
const timeLagPlaygroundEnv = "KSTREAMS_GROUPS_TEST_TIMELAG_PLAYGROUND"

func init() {
	if n := os.Getenv(timeLagPlaygroundEnv); n != "" {
		os.Exit(timeLagPlaygroundChild(n))
	}
}

func timeLagPlaygroundChild(n string) int {
	groups, err := strconv.Atoi(n)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	c, err := playground.StartStateWith(playground.Config{NoRequestLog: true}, largeTimeLagState(groups))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer c.Close()
	fmt.Println(bootstrap(c))
	_, _ = io.Copy(io.Discard, os.Stdin) // until the parent closes it or ends
	return 0
}

// startTimeLagPlayground starts the child playground and returns its
// bootstrap address; the benchmark's cleanup ends it.
func startTimeLagPlayground(b *testing.B, groups int) string {
	b.Helper()
	exe, err := os.Executable()
	require.NoError(b, err)
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d", timeLagPlaygroundEnv, groups))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	require.NoError(b, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(b, err)
	require.NoError(b, cmd.Start())
	b.Cleanup(func() {
		_ = stdin.Close()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(b, err, "the playground child's address")
	return strings.TrimSpace(line)
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
