//go:build linux || darwin

package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/kstreams-groups/kstreams-groups/internal/benchtest"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// historyChildEnv makes the test binary run `history --group G -o json`
// once against a playground, for the peak memory of a process that does
// nothing else: "<bootstrap> <group>".
const historyChildEnv = "KSTREAMS_GROUPS_HISTORY_CHILD"

// historyChild runs history as the command line does, its document
// discarded.
func historyChild(spec string) int {
	addr, group, _ := strings.Cut(spec, " ")
	code := mainCode([]string{"--bootstrap-server", addr, "history", "--group", group, "-o", "json"}, IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: os.Stderr})
	benchtest.WritePeak()
	return code
}

// BenchmarkHistory is issue 34's budget: history of one group on a
// __consumer_offsets partition of 100 MB holding 1,000 groups' records,
// offset commits mostly, under 2 s and 50 MB. The playground runs in this
// process; each history runs as a process of its own (the test binary in
// its child mode), whose wall time, CPU time and peak resident memory are
// reported.
func BenchmarkHistory(b *testing.B) {
	setenv(b, "XDG_CONFIG_HOME", b.TempDir())
	setenv(b, "HOME", b.TempDir())
	const size = 100 << 20
	c := historyLog(b, size, 20)
	p := playground.OffsetsPartition(historyTarget)
	b.Logf("__consumer_offsets-%d: %.1f MB", p, float64(c.OffsetsPartitionBytes(p))/(1<<20))
	var last benchtest.Usage
	for b.Loop() {
		last = benchtest.ReportChild(b, fmt.Sprintf("%s=%s %s", historyChildEnv, bootstrap(c), historyTarget), c.OffsetsPartitionBytes(p))
	}
	b.ReportMetric(last.Wall.Seconds(), "child-s")
	b.ReportMetric(last.CPU.Seconds(), "child-cpu-s")
}
