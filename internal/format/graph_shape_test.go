package format

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// independent is n sub-topologies of their own, each a source reading
// in-i and a sink writing out-i: shallow and side by side.
func independent(n int) *topology.Description {
	var subs []*topology.Subtopology
	for i := range n {
		subs = append(subs, tt.Sub(fmt.Sprint(i), tt.Src("src", []string{fmt.Sprintf("in-%d", i)}, "sink"), tt.Sink("sink", fmt.Sprintf("out-%d", i))))
	}
	return tt.Desc(subs)
}

// A drawing goes the way that makes it narrower: a chain (WordCount: two
// sub-topologies joined by their repartition topic) top to bottom, many
// short independent sub-topologies left to right, one row each.
func TestGraphDirection(t *testing.T) {
	for name, tc := range map[string]struct {
		d              *topology.Description
		depth, breadth int
		dir            string
	}{
		// words-input, 5 nodes, the repartition topic, 4 nodes, words-output,
		// plus the store; the global store's source, processor and store.
		"word count":          {d: tt.WordCount(), dir: "TB"},
		"chained":             {d: chained(4), dir: "TB"},
		"twelve independents": {d: independent(12), depth: 4, breadth: 12, dir: "LR"},
		"one independent":     {d: independent(1), depth: 4, breadth: 1, dir: "TB"},
	} {
		t.Run(name, func(t *testing.T) {
			g := buildGraph(tc.d)
			depth, breadth := g.shape()
			if tc.depth > 0 {
				assert.Equal(t, tc.depth, depth, "depth")
				assert.Equal(t, tc.breadth, breadth, "breadth")
			}
			assert.Equal(t, tc.dir, g.direction())
			var dot bytes.Buffer
			require.NoError(t, writeDot(&dot, "g", g))
			assert.Contains(t, dot.String(), "rankdir="+tc.dir+";")
		})
	}
}

// A sub-topology that writes the topic it reads is a cycle: its vertices
// have no start, so they all stay at depth 0, and the shape is found.
func TestGraphShape_cycle(t *testing.T) {
	d := tt.Desc([]*topology.Subtopology{tt.Sub("0", tt.Src("src", []string{"loop"}, "sink"), tt.Sink("sink", "loop"))})
	depth, breadth := buildGraph(d).shape()
	assert.Equal(t, []int{1, 3}, []int{depth, breadth})
}

// The shape costs time and memory linear in the graph; it runs once per
// drawing, before dot or mermaid is written.
func BenchmarkGraphShape(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		g := buildGraph(tt.Large(n))
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				g.shape()
			}
		})
	}
}

// The dot document of the same graphs, for scale: the shape is a part of
// its cost.
func BenchmarkGraphDot(b *testing.B) {
	for _, n := range []int{100_000} {
		g := buildGraph(tt.Large(n))
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var out bytes.Buffer
				_ = writeDot(&out, "g", g)
			}
		})
	}
}
