package format

// A drawing's legend: what its shapes (and, in the overview, its colors)
// mean. It holds only what the drawing shows: the kinds of box it draws
// and the lag shares its borders and fills take. It is a cluster of its
// own with no edge to the drawing, so Graphviz sets it beside the
// topology, at the top, its entries in a grid (rows of boxes at one rank,
// stacked by invisible edges): two columns, and never more rows than the
// drawing has ranks below the legend's title, so that it is no taller
// than what it explains. A topology drawing (describe,
// render) has it in its pictures (svg, png) when the drawing is deep
// enough; -o dot and -o mermaid of a topology stay the bare graph. Mermaid
// gets the overview's legend in the same words, with Mermaid's shapes and
// styles, stacked.

import (
	"strconv"

	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// legendTitle and topologyLegendTitle are the legend's labels in the
// overview and in a topology picture.
const (
	legendTitle         = "Legend: a border or fill\nis a share of the group's lag"
	topologyLegendTitle = "Legend"
)

// legendColor is the legend's border.
const legendColor = "#9aa0a6"

// legendEntry is one box of the legend: its label, its kind of box
// (dotShape's kinds, and topics and stores), and for the lag scale the
// fill, border color and width that overviewNotes give (lagColor
// borders, lagFill fills).
type legendEntry struct {
	id, label string
	kind      legendKind
	fill      string
	color     string
	width     float64
}

type legendKind int

const (
	legendLag legendKind = iota // a sub-topology's border and a topic's fill
	legendSource
	legendProcessor
	legendSink
	legendTopic
	legendStore
)

// legendEntries are every entry, in the legend's order; a drawing's
// legend takes those it uses.
var legendEntries = []legendEntry{
	{id: "legend_lag0", label: "no lag", kind: legendLag, fill: "#e8f0fe", color: "#188038", width: 2},
	{id: "legend_lag1", label: "lag under 1/4", kind: legendLag, fill: "#feefc3", color: "#f9ab00", width: 2},
	{id: "legend_lag2", label: "lag under 1/2", kind: legendLag, fill: "#fed7aa", color: "#e8710a", width: 2},
	{id: "legend_lag3", label: "lag 1/2 or more", kind: legendLag, fill: "#f6aea9", color: "#d93025", width: 2},
	{id: "legend_source", label: "source", kind: legendSource},
	{id: "legend_processor", label: "processor", kind: legendProcessor},
	{id: "legend_sink", label: "sink", kind: legendSink},
	{id: "legend_topic", label: "topic", kind: legendTopic, fill: "#e8f0fe"},
	{id: "legend_store", label: "state store", kind: legendStore, fill: "#fef7e0"},
}

// minLegendDepth is the least depth (ranks) of a topology drawing that
// gets a legend in its pictures: a shallower one is about as small as
// its legend would be.
const minLegendDepth = 4

// legend is the drawing's legend: the entries it uses (nil for none) and
// its title. The overview's always has one; a topology drawing only in a
// picture and deep enough.
func (g *graph) legend() (entries []legendEntry, title string) {
	if g.notes == nil && (!g.pictured || g.legendDepth() < minLegendDepth) {
		return nil, ""
	}
	used := g.usedLegendKinds()
	for _, e := range legendEntries {
		if e.kind == legendLag && g.notes != nil && g.notes.lagColors[e.color] || e.kind != legendLag && used[e.kind] {
			entries = append(entries, e)
		}
	}
	if g.notes != nil {
		return entries, legendTitle
	}
	return entries, topologyLegendTitle
}

// legendDepth is the number of ranks of the drawing: its depth in boxes,
// and one more for the sub-topologies' titles.
func (g *graph) legendDepth() int {
	depth, _ := g.shape()
	return depth + 1
}

// usedLegendKinds are the kinds of box the drawing has.
func (g *graph) usedLegendKinds() map[legendKind]bool {
	used := map[legendKind]bool{legendTopic: len(g.topics) > 0, legendStore: len(g.stores) > 0}
	for _, c := range g.clusters {
		for _, n := range c.nodes {
			switch n.Kind {
			case topology.Source:
				used[legendSource] = true
			case topology.Sink:
				used[legendSink] = true
			default:
				used[legendProcessor] = true
			}
		}
	}
	return used
}

// legendGrid is the number of rows and columns of a legend of n entries
// in a drawing of depth ranks: two columns (one for a single entry),
// more only where the drawing has fewer than the rows that would take
// below the legend's title (which takes about a rank), so that the legend
// stays narrow and no taller than the drawing.
func legendGrid(n, depth int) (rows, cols int) {
	most := max(1, depth-1)
	cols = max(min(2, n), (n+most-1)/most)
	return (n + cols - 1) / cols, cols
}

// dotAttrs are the entry's DOT attributes.
func (e legendEntry) dotAttrs(bw *graphWriter) {
	bw.WriteString("label=")
	writeDotQuoted(bw, e.label)
	switch e.kind {
	case legendLag:
		bw.WriteString(`, shape=box, style="rounded,filled", fillcolor="` + e.fill + `", color="` + e.color + `", penwidth=` + strconv.FormatFloat(e.width, 'f', -1, 64))
	case legendSource:
		bw.WriteString(", shape=invhouse")
	case legendProcessor:
		bw.WriteString(", shape=box, style=rounded")
	case legendSink:
		bw.WriteString(", shape=house")
	case legendTopic:
		bw.WriteString(`, ` + topicShape + `, style=filled, fillcolor="` + e.fill + `"`)
	case legendStore:
		bw.WriteString(`, shape=cylinder, style=filled, fillcolor="` + e.fill + `"`)
	}
}

// writeDotLegend writes the drawing's legend cluster, if it has one.
func (g *graph) writeDotLegend(bw *graphWriter) {
	entries, title := g.legend()
	if len(entries) == 0 {
		return
	}
	bw.WriteString("  subgraph cluster_legend {\n")
	bw.WriteString("    label=")
	writeDotQuoted(bw, title)
	bw.WriteString(";\n")
	// Helvetica as every other text (a topology drawing's graph names
	// no font, and a cluster's label would be in Times).
	bw.WriteString("    labeljust=l;\n    style=rounded;\n    color=\"" + legendColor + "\";\n    fontname=\"Helvetica\";\n    fontsize=10;\n")
	bw.WriteString("    node [fontsize=9, margin=\"0.08,0.04\"];\n")
	for _, e := range entries {
		bw.WriteString("    " + e.id + " [")
		e.dotAttrs(bw)
		bw.WriteString("];\n")
	}
	// Left to right, a rank is a column as wide as the drawing's widest
	// box at that rank: the legend is one rank, its entries stacked.
	rows, cols := 1, len(entries)
	topDown := g.direction() == "TB"
	if topDown {
		rows, cols = legendGrid(len(entries), g.legendDepth())
	}
	for r := range rows {
		bw.WriteString("    {rank=same;")
		for _, e := range entries[r*cols : min(len(entries), (r+1)*cols)] {
			bw.WriteString(" " + e.id + ";")
		}
		bw.WriteString("}\n")
	}
	// Left to right, flat edges order the rank (the rotated layout draws
	// a flat edge's head above its tail).
	for i := 1; i < len(entries) && !topDown; i++ {
		bw.WriteString("    " + entries[i].id + " -> " + entries[i-1].id + " [style=invis];\n")
	}
	// Each column stacked by invisible edges, row after row.
	for c := range cols {
		for r := 1; r < rows && r*cols+c < len(entries); r++ {
			bw.WriteString("    " + entries[(r-1)*cols+c].id + " -> " + entries[r*cols+c].id + " [style=invis];\n")
		}
	}
	bw.WriteString("  }\n")
}

// writeMermaidLegend writes the overview's legend subgraph: the same
// boxes in the shapes writeMermaid gives sources, processors, sinks,
// topics and stores, stacked by invisible links.
func (g *graph) writeMermaidLegend(bw *graphWriter) {
	entries, title := g.legend()
	if len(entries) == 0 {
		return
	}
	bw.WriteString("  subgraph legend[")
	writeMermaidQuoted(bw, title)
	bw.WriteString("]\n")
	for _, e := range entries {
		bw.WriteString("    " + e.id)
		open, end := "(", ")"
		switch e.kind {
		case legendSource:
			open, end = ">", "]"
		case legendSink:
			open, end = "[/", "\\]"
		case legendTopic:
			open, end = "{{", "}}"
		case legendStore:
			open, end = "[(", ")]"
		}
		bw.WriteString(open)
		writeMermaidQuoted(bw, e.label)
		bw.WriteString(end + "\n")
	}
	bw.WriteString("    ")
	for i, e := range entries {
		if i > 0 {
			bw.WriteString(" ~~~ ")
		}
		bw.WriteString(e.id)
	}
	bw.WriteString("\n  end\n")
	bw.WriteString("  style legend stroke:" + legendColor + "\n")
	for _, e := range entries {
		switch {
		case e.kind == legendLag:
			bw.WriteString("  style " + e.id + " fill:" + e.fill + ",stroke:" + e.color + ",stroke-width:" + strconv.FormatFloat(e.width, 'f', 1, 64) + "px\n")
		case e.fill != "":
			bw.WriteString("  style " + e.id + " fill:" + e.fill + "\n")
		}
	}
}
