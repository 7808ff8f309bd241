package format

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/format/picture/picturetest"
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
	require.NoError(t, OverviewGraphContext(context.Background(), &dot, Dot, g))
	require.NoError(t, OverviewGraphContext(context.Background(), &mmd, Mermaid, g))
	gr := buildGraph(overviewDescription(g))
	gr.notes = overviewNotes(g)
	entries := gr.legend().entries
	require.NotEmpty(t, entries)
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
	assert.Empty(t, gr.legend().entries, "-o dot and -o mermaid of a topology have no legend")
	gr.pictured = true
	entries := gr.legend().entries
	assert.Equal(t, []string{"legend_source", "legend_processor", "legend_sink", "legend_topic", "legend_store"}, ids(entries))

	// One sub-topology with all the lag, a source and a processor, no
	// sink, no store.
	g := &overview.Group{Group: "g", DescriptionStatus: topology.Available, Lag: 10,
		Subtopologies: []*overview.Subtopology{{ID: "0", Lag: 10, Nodes: []*topology.Node{
			tt.Src("s", []string{"in"}, "KSTREAM-AGGREGATE-0000000001"), tt.Proc("KSTREAM-AGGREGATE-0000000001", nil)},
			Sources: []overview.Source{{Topic: "in", Lag: 10}}}}}
	gr = buildGraph(overviewDescription(g))
	gr.notes = overviewNotes(g)
	entries = gr.legend().entries
	assert.Equal(t, []string{"legend_lag3", "legend_source", "legend_processor", "legend_topic"}, ids(entries))
}

// A legend is no wider than the drawing's widest box and has no more
// ranks than the drawing: two columns beside a wide drawing, one beside a
// narrow one, none where even one would not fit; left to right, as many
// entries a rank as the drawing has boxes side by side.
func TestLegendFit(t *testing.T) {
	// layout is the legend's layout, checked against the picture's
	// geometry.
	layout := func(d *topology.Description) legendLayout {
		g := buildGraph(d)
		g.pictured = true
		var svg bytes.Buffer
		require.NoError(t, TopologyGraphContext(context.Background(), &svg, SVG, "t", d))
		has := picturetest.CheckInset(t, picturetest.ParseSVG(t, svg.Bytes()), "cluster_legend", "legend_")
		l := g.legend()
		assert.Equal(t, len(l.entries) > 0, has, "the picture has the legend")
		return l
	}
	wide := strings.Repeat("KSTREAM-AGGREGATE-", 3)
	l := layout(tt.Desc([]*topology.Subtopology{tt.Sub("0", tt.Src(wide, []string{"i"}, "p"), tt.Proc("p", []string{"st"}, "b"), tt.Sink("b", "o"))}))
	assert.Equal(t, [2]int{3, 2}, [2]int{l.ranks, l.perRank}, "5 entries in two columns")
	l = layout(tt.Desc([]*topology.Subtopology{tt.Sub("0", tt.Src("a", []string{"i"}, "p"), tt.Proc("p", []string{"st"}, "b"), tt.Sink("b", "o"))}))
	assert.Equal(t, [2]int{5, 1}, [2]int{l.ranks, l.perRank}, "one column beside a narrow drawing")
	l = layout(tt.Desc([]*topology.Subtopology{tt.Sub("0", tt.Src("a", []string{"i"}, "b"), tt.Sink("b", "o"))}))
	assert.Equal(t, [2]int{3, 1}, [2]int{l.ranks, l.perRank}, "3 entries beside 4 narrow ranks")
	// The overview of one narrow sub-topology 3 ranks deep: 4 entries
	// need two columns, wider than the drawing.
	g := &overview.Group{Group: "g", DescriptionStatus: topology.Available, Lag: 10,
		Subtopologies: []*overview.Subtopology{{ID: "0", Lag: 10, Nodes: []*topology.Node{
			tt.Src("s", []string{"in"}, "p"), tt.Proc("p", nil)},
			Sources: []overview.Source{{Topic: "in", Lag: 10}}}}}
	gr := buildGraph(overviewDescription(g))
	gr.notes = overviewNotes(g)
	assert.Empty(t, gr.legend().entries, "no legend larger than the drawing")
	g.Subtopologies[0].Nodes[1].Name = "KSTREAM-AGGREGATE-0000000001"
	g.Subtopologies[0].Nodes[0].Successors = []string{"KSTREAM-AGGREGATE-0000000001"}
	var svg bytes.Buffer
	require.NoError(t, OverviewGraphContext(context.Background(), &svg, SVG, g))
	assert.True(t, picturetest.CheckInset(t, picturetest.ParseSVG(t, svg.Bytes()), "cluster_legend", "legend_"), "a wider drawing has it")
	var subs []*topology.Subtopology
	for i := range 6 {
		n := strconv.Itoa(i)
		subs = append(subs, tt.Sub(n, tt.Src("s"+n, []string{"in" + n}, "o"+n), tt.Sink("o"+n, "out"+n)))
	}
	l = layout(tt.Desc(subs))
	assert.Equal(t, [2]int{1, 3}, [2]int{l.ranks, l.perRank}, "left to right: one rank of 3 entries")
}
