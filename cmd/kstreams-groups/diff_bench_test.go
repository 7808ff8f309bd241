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
	"github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// BenchmarkDiff times `diff OLD NEW` on two files of our text (read,
// parse, compare, the text report with its unified diff) for a DSL
// application whose sub-topologies all share their node families, every
// generated name shifted and every sink topic changed: the case that was
// quadratic (7.5 MB against 20 MB took over two minutes). 26,000
// sub-topologies are 20 MB a side.
func BenchmarkDiff(b *testing.B) {
	for _, subs := range []int{2600, 26000} {
		dir := b.TempDir()
		files := make([]string, 2)
		size := 0
		for i, d := range []struct {
			first int
			sink  string
		}{{0, "out"}, {1, "out-v2"}} {
			var text bytes.Buffer
			if err := format.Topology(&text, topologytest.Generated(subs, d.first, d.sink)); err != nil {
				b.Fatal(err)
			}
			files[i] = filepath.Join(dir, fmt.Sprintf("side%d.txt", i))
			if err := os.WriteFile(files[i], text.Bytes(), 0o600); err != nil {
				b.Fatal(err)
			}
			size = max(size, text.Len())
		}
		b.Run(fmt.Sprintf("%d sub-topologies, %.1f MB a side", subs, float64(size)/1e6), func(b *testing.B) {
			cpu := benchtest.CPUTime()
			for b.Loop() {
				var errOut bytes.Buffer
				code := testRun(b, []string{"diff", files[0], files[1]}, IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: &errOut}, deps{})
				if code != diffFailing {
					b.Fatalf("exit %d: %s", code, errOut.String())
				}
			}
			benchtest.ReportCPU(b, cpu)
		})
	}
}
