package topology

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseStatus(t *testing.T) {
	for b, want := range map[int8]string{0: "NOT_REQUESTED", 1: "NOT_STORED", 2: "ERROR", 3: "AVAILABLE"} {
		s, err := ParseStatus(b)
		require.NoError(t, err)
		assert.Equal(t, want, s.String())
	}
	for _, b := range []int8{4, -1, 127} {
		_, err := ParseStatus(b)
		assert.ErrorContains(t, err, "Unknown topology description status")
	}
}

func TestParseKind(t *testing.T) {
	for name, want := range map[string]Kind{"source": Source, "processor": Processor, "sink": Sink} {
		k, err := ParseKind(name)
		require.NoError(t, err)
		assert.Equal(t, want, k)
		assert.Equal(t, name, k.String())
	}
	_, err := ParseKind("widget")
	assert.EqualError(t, err, `unknown node type "widget" (want source, processor or sink)`)
}

func TestLinkPredecessors(t *testing.T) {
	node := func(name string, succ ...string) *Node { return &Node{Name: name, Successors: succ} }
	nodes := []*Node{
		node("a", "c", "c", "b"), // a successor named twice
		node("b", "c", "missing"),
		node("c"),
		node("a", "c", "d"), // a second node named a
		node("d"),
	}
	LinkPredecessors(nodes)
	assert.Equal(t, []string{}, nodes[0].Predecessors)
	assert.Equal(t, []string{"a"}, nodes[1].Predecessors)
	assert.Equal(t, []string{"a", "b"}, nodes[2].Predecessors, "first-seen order, each name once")
	assert.Equal(t, []string{"a"}, nodes[4].Predecessors)
	assert.Equal(t, nodes[0].Predecessors, nodes[3].Predecessors, "nodes sharing a name share their predecessors")
}

// A node's fan-in costs time linear in it: 400,000 parents, which a
// membership test by linear scan takes minutes for, take a fraction of a
// second.
func TestLinkPredecessors_largeFanIn(t *testing.T) {
	const parents = 400_000
	nodes := make([]*Node, 0, parents+1)
	for i := range parents {
		nodes = append(nodes, &Node{Name: "p" + strconv.Itoa(i), Successors: []string{"sink"}})
	}
	nodes = append(nodes, &Node{Name: "sink"})
	start := time.Now()
	LinkPredecessors(nodes)
	elapsed := time.Since(start)
	t.Logf("%d parents linked in %s", parents, elapsed)
	require.Len(t, nodes[parents].Predecessors, parents)
	assert.Equal(t, "p0", nodes[parents].Predecessors[0])
}

func BenchmarkLinkPredecessorsFanIn(b *testing.B) {
	for _, parents := range []int{40_000, 400_000} {
		nodes := make([]*Node, 0, parents+1)
		for i := range parents {
			nodes = append(nodes, &Node{Name: "p" + strconv.Itoa(i), Successors: []string{"sink"}})
		}
		nodes = append(nodes, &Node{Name: "sink"})
		b.Run(strconv.Itoa(parents), func(b *testing.B) {
			for b.Loop() {
				LinkPredecessors(nodes)
			}
		})
	}
}
