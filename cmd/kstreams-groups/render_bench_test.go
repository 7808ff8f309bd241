//go:build linux || darwin

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kstreams-groups/kstreams-groups/internal/benchtest"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
)

// renderChildEnv makes the test binary render a file once, for the peak
// memory of a process that does nothing else: "<file> <format>".
const renderChildEnv = "KSTREAMS_GROUPS_RENDER_CHILD"

// renderChild reads the file of spec as render reads its input, but
// without the 64 MiB limit (the 1,000,000-node text is 138 MB), and
// renders it.
func renderChild(spec string) int {
	file, o, _ := strings.Cut(spec, " ")
	unlimited := localInput{kind: renderInput.kind, limit: 1 << 40}
	data, err := unlimited.readFile(context.Background(), file, file)
	if err == nil {
		err = renderTopology(context.Background(), io.Discard, format.Output(o), file, data)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	benchtest.WritePeak()
	return 0
}

// BenchmarkRender times render FILE -o <format> (the parse and the
// rendering of run's render command) of our text of 100,000 and 1,000,000
// nodes, and reports the peak memory of a process that renders the file
// once (peak/input: the multiple of the file's size; the budget is 4).
func BenchmarkRender(b *testing.B) {
	for _, nodes := range []int{100_000, 1_000_000} {
		var text bytes.Buffer
		if err := formatTopology(&text, nodes); err != nil {
			b.Fatal(err)
		}
		file := filepath.Join(b.TempDir(), "topology.txt")
		if err := os.WriteFile(file, text.Bytes(), 0o600); err != nil {
			b.Fatal(err)
		}
		data := text.String()
		for _, o := range format.AllowedOutputs() {
			if o.Picture() || o == format.Prometheus {
				continue // a picture lays out the dot output (Graphviz, not ours); render has no metrics
			}
			b.Run(fmt.Sprintf("%s/%d", o, nodes), func(b *testing.B) {
				for b.Loop() {
					if err := renderTopology(context.Background(), io.Discard, o, file, data); err != nil {
						b.Fatal(err)
					}
				}
				b.SetBytes(int64(len(data)))
				benchtest.ReportChild(b, renderChildEnv+"="+file+" "+string(o), int64(len(data)))
			})
		}
	}
}
