package format

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/overview"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// The overview's legend is in every drawing, in the same words: the
// title and every entry's label, each format quoting them its own way,
// and Mermaid's entries styled with the colors of the DOT legend.
func TestOverviewLegend_everyFormat(t *testing.T) {
	g := hostileOverview().Groups[0]
	var dot, mmd bytes.Buffer
	require.NoError(t, OverviewGraph(&dot, Dot, g))
	require.NoError(t, OverviewGraph(&mmd, Mermaid, g))
	gr := buildGraph(overviewDescription(g))
	gr.notes = overviewNotes(g)
	entries, title := gr.legend()
	require.NotEmpty(t, entries)
	assert.Equal(t, legendTitle, title)
	var q bytes.Buffer
	for _, label := range append([]string{legendTitle}, labelsOf(entries)...) {
		q.Reset()
		writeDotQuoted(&q, label)
		assert.Contains(t, dot.String(), q.String())
		q.Reset()
		writeMermaidQuoted(&q, label)
		assert.Contains(t, mmd.String(), q.String())
	}
	assert.Equal(t, 1, strings.Count(mmd.String(), "subgraph legend["), "one legend")
	for _, e := range entries {
		if e.kind == legendLag {
			assert.Contains(t, dot.String(), `fillcolor="`+e.fill+`", color="`+e.color+`"`)
			assert.Contains(t, mmd.String(), "style "+e.id+" fill:"+e.fill+",stroke:"+e.color)
		}
	}
	// A topology drawing has no lag, so no legend.
	mmd.Reset()
	require.NoError(t, TopologyMermaid(&mmd, overviewDescription(g)))
	assert.NotContains(t, mmd.String(), "legend")
}

func labelsOf(es []legendEntry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.label)
	}
	return out
}

// A legend holds what its drawing shows: the kinds of box it draws and
// the lag classes of its borders and fills, no other.
func TestLegend_onlyWhatTheDrawingShows(t *testing.T) {
	ids := func(es []legendEntry) []string {
		var out []string
		for _, e := range es {
			out = append(out, e.id)
		}
		return out
	}
	// word-count: every kind of box; a topology drawing has no lag.
	gr := buildGraph(tt.WordCount())
	entries, _ := gr.legend()
	assert.Empty(t, entries, "-o dot and -o mermaid of a topology have no legend")
	gr.pictured = true
	entries, title := gr.legend()
	assert.Equal(t, topologyLegendTitle, title)
	assert.Equal(t, []string{"legend_source", "legend_processor", "legend_sink", "legend_topic", "legend_store"}, ids(entries))

	// One sub-topology with all the lag, a source and a processor, no
	// sink, no store.
	g := &overview.Group{Group: "g", DescriptionStatus: topology.Available, Lag: 10,
		Subtopologies: []*overview.Subtopology{{ID: "0", Lag: 10, Nodes: []*topology.Node{
			tt.Src("s", []string{"in"}, "p"), tt.Proc("p", nil)},
			Sources: []overview.Source{{Topic: "in", Lag: 10}}}}}
	gr = buildGraph(overviewDescription(g))
	gr.notes = overviewNotes(g)
	entries, _ = gr.legend()
	assert.Equal(t, []string{"legend_lag3", "legend_source", "legend_processor", "legend_topic"}, ids(entries))
}

// The grid has two columns, more when the drawing has fewer ranks below
// the legend's title than that would take.
func TestLegendGrid(t *testing.T) {
	for _, c := range []struct{ n, depth, rows, cols int }{
		{1, 10, 1, 1}, {4, 10, 2, 2}, {5, 10, 3, 2}, {9, 10, 5, 2}, {5, 4, 3, 2}, {9, 4, 3, 3}, {9, 3, 2, 5}, {9, 2, 1, 9}, {9, 1, 1, 9},
	} {
		rows, cols := legendGrid(c.n, c.depth)
		assert.Equal(t, [2]int{c.rows, c.cols}, [2]int{rows, cols}, "%d entries, depth %d", c.n, c.depth)
		assert.GreaterOrEqual(t, rows*cols, c.n)
	}
}
