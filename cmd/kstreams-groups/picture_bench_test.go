//go:build linux || darwin

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/kstreams-groups/kstreams-groups/internal/benchtest"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
)

// BenchmarkRenderPicture times render FILE -o svg|png of a topology of
// 100 and 1,000 sub-topologies (1,000 and 10,000 nodes; 1,000 sub-topologies
// in one Graphviz layout took 38 s and 719 MB), with the CPU time per
// picture and the peak memory of a process that draws it once.
func BenchmarkRenderPicture(b *testing.B) {
	for _, nodes := range []int{1_000, 10_000} {
		var text bytes.Buffer
		if err := formatTopology(&text, nodes); err != nil {
			b.Fatal(err)
		}
		file := filepath.Join(b.TempDir(), "topology.txt")
		if err := os.WriteFile(file, text.Bytes(), 0o600); err != nil {
			b.Fatal(err)
		}
		for _, o := range []format.Output{format.SVG, format.PNG} {
			b.Run(fmt.Sprintf("%s/%d nodes", o, nodes), func(b *testing.B) {
				cpu := benchtest.CPUTime()
				for b.Loop() {
					if err := renderTopology(context.Background(), io.Discard, o, file, text.String()); err != nil {
						b.Fatal(err)
					}
				}
				benchtest.ReportCPU(b, cpu)
				u := benchtest.ReportChild(b, renderChildEnv+"="+file+" "+string(o), int64(text.Len()))
				b.ReportMetric(u.Wall.Seconds(), "child-s")
				b.ReportMetric(u.CPU.Seconds(), "child-cpu-s")
			})
		}
	}
}
