package format

// A drawing's legend: what its shapes (and, in the overview, its colors)
// mean. It holds only what the drawing shows: the kinds of box it draws
// and the lag shares its borders and fills take. It is a cluster of its
// own with no edge to the drawing, so Graphviz sets it beside the
// topology, at the top, its entries in ranks of the drawing (boxes at one
// rank side by side top down, stacked left to right) sized, before any
// layout, to be no wider and no taller than the drawing (legendFit), or
// left out. A topology drawing (describe, render) has it in its pictures
// (svg, png) when the drawing is deep enough; -o dot and -o mermaid of a
// topology stay the bare graph. Mermaid gets the overview's legend in the
// same words, with Mermaid's shapes and styles, stacked.

import (
	"strconv"

	"github.com/kstreams-groups/kstreams-groups/internal/format/picture"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// legendTitle is the legend's label: one word, so that the legend is as
// narrow as its entries.
const legendTitle = "Legend"

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

// nodeKind is the kind of box of a node of kind k.
func nodeKind(k topology.Kind) legendKind {
	switch k {
	case topology.Source:
		return legendSource
	case topology.Sink:
		return legendSink
	}
	return legendProcessor
}

// legendEntries are every entry, in the legend's order; a drawing's
// legend takes those it uses.
var legendEntries = []legendEntry{
	{id: "legend_lag0", label: "no lag", kind: legendLag, fill: "#e8f0fe", color: "#188038", width: 2},
	{id: "legend_lag1", label: "lag share\nunder 1/4", kind: legendLag, fill: "#feefc3", color: "#f9ab00", width: 2},
	{id: "legend_lag2", label: "lag share\nunder 1/2", kind: legendLag, fill: "#fed7aa", color: "#e8710a", width: 2},
	{id: "legend_lag3", label: "lag share\n1/2 or more", kind: legendLag, fill: "#f6aea9", color: "#d93025", width: 2},
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

// legendLayout is a drawing's legend: its entries (none: no legend), in
// ranks of at most perRank entries (side by side top down, stacked left
// to right).
type legendLayout struct {
	entries        []legendEntry
	ranks, perRank int
}

// legend is the drawing's legend: the entries it uses and where they go.
// The overview has one; a topology drawing only in a picture and deep
// enough. Neither has one that would be wider or taller than the
// drawing (legendFit).
func (g *graph) legend() legendLayout {
	if g.notes == nil && !g.pictured {
		return legendLayout{}
	}
	depth, breadth := g.shape()
	if g.notes == nil && depth+1 < minLegendDepth {
		return legendLayout{}
	}
	used := g.usedLegendKinds()
	var entries []legendEntry
	for _, e := range legendEntries {
		if e.kind == legendLag && g.notes != nil && g.notes.lagColors[e.color] || e.kind != legendLag && used[e.kind] {
			entries = append(entries, e)
		}
	}
	return g.legendFit(entries, depth, breadth)
}

// Graphviz's sizes, in points, that the legend's fit estimates with: a
// node's least width, its default horizontal margin (0.11 inch) and the
// legend's (0.08 inch), the space between nodes of a rank and a
// cluster's margin.
const (
	gvMinWidth      = 54
	gvMargin        = 7.92
	gvLegendMargin  = 5.76
	gvNodeSep       = 18
	gvClusterMargin = 8
)

// legendFit places the entries so that the legend is no taller and no
// wider than the drawing, as estimated before any layout from its depth
// and breadth (ranks, and boxes side by side) and its widest box (the
// drawing is at least that wide): a legend's rank is one of the
// drawing's. Top down, two columns (more where the drawing has too few
// ranks, fewer where it is too narrow); left to right, a rank holds as
// many entries as the drawing has boxes side by side. None if it cannot
// fit.
func (g *graph) legendFit(entries []legendEntry, depth, breadth int) legendLayout {
	n := len(entries)
	ranks := max(1, depth) // the drawing's, and its titles', less the legend's title
	if n == 0 {
		return legendLayout{}
	}
	if g.direction() != "TB" {
		per := min(n, max(1, breadth))
		if (n+per-1)/per > ranks {
			return legendLayout{}
		}
		return legendLayout{entries: entries, ranks: (n + per - 1) / per, perRank: per}
	}
	widest := g.widestBox()
	per := max(min(2, n), (n+ranks-1)/ranks)
	for per > 1 && legendWidth(entries, per) > widest && (n+per-2)/(per-1) <= ranks {
		per--
	}
	if legendWidth(entries, per) > widest || (n+per-1)/per > ranks {
		return legendLayout{}
	}
	return legendLayout{entries: entries, ranks: (n + per - 1) / per, perRank: per}
}

// legendWidth is how wide a legend of cols columns is at most.
func legendWidth(entries []legendEntry, cols int) float64 {
	w := float64(cols-1) * gvNodeSep
	for c := range cols {
		col := 0.0
		for i := c; i < len(entries); i += cols {
			col = max(col, entries[i].boxWidth()+2)
		}
		w += col
	}
	return 2*gvClusterMargin + max(w, picture.TextWidth(legendTitle, 10))
}

// boxWidth is an entry's box width at least (its pen width aside).
func (e legendEntry) boxWidth() float64 {
	margin := gvLegendMargin
	if e.kind == legendTopic {
		margin = topicMargin
	}
	return max(gvMinWidth, picture.TextWidth(e.label, 9)+2*margin)
}

// widestBox is the width of the drawing's widest box at least: a node
// with its cluster's margins, a title, a topic or a store.
func (g *graph) widestBox() float64 {
	box := func(label string, size, margin float64) float64 {
		return max(gvMinWidth, picture.TextWidth(label, size)+2*margin)
	}
	w := 0.0
	for _, c := range g.clusters {
		w = max(w, picture.TextWidth(withNote(c.label, g.clusterNote(c).label), 12)+2*gvMargin+2*gvClusterMargin)
		for _, n := range c.nodes {
			w = max(w, box(nodeLabel(n), 11, gvMargin)+2*gvClusterMargin)
		}
	}
	for _, t := range g.topics {
		w = max(w, box(withNote(t, g.topicNote(t).label), 11, topicMargin))
	}
	for _, s := range g.stores {
		w = max(w, box(s, 11, gvMargin))
	}
	return w
}

// usedLegendKinds are the kinds of box the drawing has.
func (g *graph) usedLegendKinds() map[legendKind]bool {
	used := map[legendKind]bool{legendTopic: len(g.topics) > 0, legendStore: len(g.stores) > 0}
	for _, c := range g.clusters {
		for _, n := range c.nodes {
			used[nodeKind(n.Kind)] = true
		}
	}
	return used
}

// dotAttrs are the entry's DOT attributes.
func (e legendEntry) dotAttrs(bw *graphWriter) {
	bw.WriteString("label=")
	writeDotQuoted(bw, e.label)
	switch e.kind {
	case legendLag:
		bw.WriteString(`, shape=box, style="rounded,filled", fillcolor="` + e.fill + `", color="` + e.color + `", penwidth=` + strconv.FormatFloat(e.width, 'f', -1, 64))
	case legendSource, legendProcessor, legendSink:
		bw.WriteString(", " + dotShape(e.kind))
	case legendTopic:
		bw.WriteString(`, ` + topicShape + `, style=filled, fillcolor="` + e.fill + `"`)
	case legendStore:
		bw.WriteString(`, shape=cylinder, style=filled, fillcolor="` + e.fill + `"`)
	}
}

// writeDotLegend writes the drawing's legend cluster, if it has one.
func (g *graph) writeDotLegend(bw *graphWriter) {
	l := g.legend()
	if len(l.entries) == 0 {
		return
	}
	bw.WriteString("  subgraph cluster_legend {\n")
	bw.WriteString("    label=")
	writeDotQuoted(bw, legendTitle)
	bw.WriteString(";\n")
	// Helvetica as every other text (a topology drawing's graph names
	// no font, and a cluster's label would be in Times).
	bw.WriteString("    labeljust=l;\n    style=rounded;\n    color=\"" + legendColor + "\";\n    fontname=\"Helvetica\";\n    fontsize=10;\n")
	bw.WriteString("    node [fontsize=9, margin=\"0.08,0.04\"];\n")
	for _, e := range l.entries {
		bw.WriteString("    " + e.id + " [")
		e.dotAttrs(bw)
		bw.WriteString("];\n")
	}
	topDown := g.direction() == "TB"
	for r := range l.ranks {
		rank := l.entries[r*l.perRank : min(len(l.entries), (r+1)*l.perRank)]
		bw.WriteString("    {rank=same;")
		for _, e := range rank {
			bw.WriteString(" " + e.id + ";")
		}
		bw.WriteString("}\n")
		// Left to right, flat edges order a rank (the rotated layout
		// draws a flat edge's head above its tail).
		for i := 1; i < len(rank) && !topDown; i++ {
			bw.WriteString("    " + rank[i].id + " -> " + rank[i-1].id + " [style=invis];\n")
		}
	}
	// Each column (row left to right) ranked by invisible edges.
	for c := range l.perRank {
		for r := 1; r < l.ranks && r*l.perRank+c < len(l.entries); r++ {
			bw.WriteString("    " + l.entries[(r-1)*l.perRank+c].id + " -> " + l.entries[r*l.perRank+c].id + " [style=invis];\n")
		}
	}
	bw.WriteString("  }\n")
}

// writeMermaidLegend writes the overview's legend subgraph: the same
// boxes in the shapes writeMermaid gives sources, processors, sinks,
// topics and stores, stacked by invisible links.
func (g *graph) writeMermaidLegend(bw *graphWriter) {
	entries := g.legend().entries
	if len(entries) == 0 {
		return
	}
	bw.WriteString("  subgraph legend[")
	writeMermaidQuoted(bw, legendTitle)
	bw.WriteString("]\n")
	for _, e := range entries {
		bw.WriteString("    " + e.id)
		writeMermaidBox(bw, e.kind, e.label)
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
