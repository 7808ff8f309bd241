//go:build linux || darwin

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kstreams-groups/kstreams-groups/internal/benchtest"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	"github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// BenchmarkDiff times `diff OLD NEW` on two files of our text (read,
// parse, compare, the text report with its unified diff) for a DSL
// application whose sub-topologies all share their node families, every
// generated name shifted and every sink topic changed: the case that was
// quadratic (7.5 MB against 20 MB took over two minutes). 26,000
// sub-topologies are 20 MB a side.
//
// The application cases (topologytest.Application) mix the shapes of a
// real application and change it as an upgrade does: renames, sub-
// topologies removed, added and moved, repartition topics, stores, sinks
// and global stores replaced, one wide sub-topology per 500. 18,000
// sub-topologies are 19.5 MB a side (issue 30's H7: 5 s at 20 MB).
func BenchmarkDiff(b *testing.B) {
	for _, subs := range []int{2600, 26000} {
		benchmarkDiff(b, fmt.Sprintf("%d sub-topologies", subs), func() (*topology.Description, *topology.Description) {
			return topologytest.Generated(subs, 0, "out"), topologytest.Generated(subs, 1, "out-v2")
		})
	}
	for _, subs := range []int{1800, 18000} {
		benchmarkDiff(b, fmt.Sprintf("application of %d sub-topologies", subs), func() (*topology.Description, *topology.Description) {
			return topologytest.Application(subs, false), topologytest.Application(subs, true)
		})
	}
}

// benchmarkDiff writes the sides inside the sub-benchmark, so a -bench
// filter that leaves it out does not build them.
func benchmarkDiff(b *testing.B, name string, sides func() (old, new *topology.Description)) {
	b.Run(name, func(b *testing.B) {
		old, new := sides()
		dir := b.TempDir()
		files := make([]string, 2)
		size := 0
		for i, d := range []*topology.Description{old, new} {
			var text bytes.Buffer
			if err := format.Topology(&text, d); err != nil {
				b.Fatal(err)
			}
			files[i] = filepath.Join(dir, fmt.Sprintf("side%d.txt", i))
			if err := os.WriteFile(files[i], text.Bytes(), 0o600); err != nil {
				b.Fatal(err)
			}
			size = max(size, text.Len())
		}
		cpu := benchtest.CPUTime()
		for b.Loop() {
			var errOut bytes.Buffer
			code := testRun(b, []string{"diff", files[0], files[1]}, IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: &errOut}, deps{})
			if code != diffFailing {
				b.Fatalf("exit %d: %s", code, errOut.String())
			}
		}
		benchtest.ReportCPU(b, cpu)
		b.ReportMetric(float64(size)/1e6, "MB/side")
	})
}
