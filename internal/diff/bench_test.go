package diff_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/kstreams-groups/kstreams-groups/internal/diff"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// shiftedLarge is topologytest.Large(n) with every generated index moved
// (past the old ones: Large numbers each sub-topology's nodes from 0) and
// the sub-topologies in reverse order: every node renamed, every
// sub-topology elsewhere in the list.
func shiftedLarge(n int) *topology.Description {
	d := tt.Large(n)
	var subs []*topology.Subtopology
	for i := len(d.Subtopologies) - 1; i >= 0; i-- {
		s := d.Subtopologies[i]
		var nodes []*topology.Node
		rename := func(name string) string {
			var sub, idx int
			if _, err := fmt.Sscanf(name, "KSTREAM-NODE-%04d-%010d", &sub, &idx); err != nil {
				return name
			}
			return fmt.Sprintf("KSTREAM-NODE-%04d-%010d", sub, idx+1000)
		}
		for _, nd := range s.Nodes {
			c := *nd
			c.Name = rename(nd.Name)
			c.Successors = nil
			for _, x := range nd.Successors {
				c.Successors = append(c.Successors, rename(x))
			}
			nodes = append(nodes, &c)
		}
		subs = append(subs, tt.Sub(s.ID, nodes...))
	}
	var globals [][2]*topology.Node
	for _, g := range d.GlobalStores {
		globals = append(globals, [2]*topology.Node{g.Source, g.Processor})
	}
	return tt.Desc(subs, globals...)
}

// A 20,000-node topology whose every generated name shifted compares in
// well under a second: sub-topologies pair by content, nodes along edges.
func TestCompare_large(t *testing.T) {
	old, new := tt.Large(20000), shiftedLarge(20000)
	start := time.Now()
	c := diff.Compare(diff.Input{Description: old}, diff.Input{Description: new})
	elapsed := time.Since(start)
	t.Logf("20,000 nodes: %s, %d findings", elapsed, len(c.Findings))
	assert.Equal(t, 0, c.Count(diff.Breaking), "names shift, nothing breaks")
	assert.Equal(t, 20000, c.Count(diff.Warning))
}

func BenchmarkCompare(b *testing.B) {
	for _, n := range []int{1000, 20000} {
		old, new := tt.Large(n), shiftedLarge(n)
		b.Run(fmt.Sprintf("%d nodes shifted", n), func(b *testing.B) {
			for b.Loop() {
				diff.Compare(diff.Input{Description: old}, diff.Input{Description: new})
			}
		})
	}
	// Sub-topologies that share every node family (a DSL application),
	// all renamed and their sinks changed: 26,000 of them is 20 MB of text.
	for _, n := range []int{2600, 26000} {
		old, new := tt.Generated(n, 0, "out"), tt.Generated(n, 1, "out-v2")
		b.Run(fmt.Sprintf("%d sub-topologies of one family", n), func(b *testing.B) {
			for b.Loop() {
				diff.Compare(diff.Input{Description: old}, diff.Input{Description: new})
			}
		})
	}
}
