package format

// The overview picture's legend: what its colors and shapes mean. It is a
// cluster of its own with no edge to the drawing, so Graphviz sets it
// beside the topology, at the top; its entries are stacked (invisible
// edges) to keep it one box wide. Mermaid gets the same subgraph, in the
// same words, with Mermaid's shapes and styles.

import "strconv"

// legendTitle is the legend's label.
const legendTitle = "Legend: a sub-topology's border\nand a topic's fill\nshow its share of the lag"

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

var legendEntries = []legendEntry{
	{id: "legend_lag0", label: "no lag", kind: legendLag, fill: "#e8f0fe", color: "#188038", width: 2},
	{id: "legend_lag1", label: "lag under 1/4\nof the group's", kind: legendLag, fill: "#feefc3", color: "#f9ab00", width: 2},
	{id: "legend_lag2", label: "lag under 1/2", kind: legendLag, fill: "#fed7aa", color: "#e8710a", width: 2},
	{id: "legend_lag3", label: "lag 1/2 or more", kind: legendLag, fill: "#f6aea9", color: "#d93025", width: 2},
	{id: "legend_source", label: "source", kind: legendSource},
	{id: "legend_processor", label: "processor", kind: legendProcessor},
	{id: "legend_sink", label: "sink", kind: legendSink},
	{id: "legend_topic", label: "topic", kind: legendTopic, fill: "#e8f0fe"},
	{id: "legend_store", label: "state store", kind: legendStore, fill: "#fef7e0"},
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
		bw.WriteString(`, shape=cds, style=filled, fillcolor="` + e.fill + `"`)
	case legendStore:
		bw.WriteString(`, shape=cylinder, style=filled, fillcolor="` + e.fill + `"`)
	}
}

// writeDotLegend writes the legend cluster.
func writeDotLegend(bw *graphWriter) {
	bw.WriteString("  subgraph cluster_legend {\n")
	bw.WriteString("    label=")
	writeDotQuoted(bw, legendTitle)
	bw.WriteString(";\n")
	bw.WriteString("    labeljust=l;\n    style=rounded;\n    color=\"" + legendColor + "\";\n    fontsize=10;\n")
	bw.WriteString("    node [fontsize=9, margin=\"0.08,0.04\"];\n")
	for _, e := range legendEntries {
		bw.WriteString("    " + e.id + " [")
		e.dotAttrs(bw)
		bw.WriteString("];\n")
	}
	writeLegendChain(bw, " -> ")
	bw.WriteString(" [style=invis];\n  }\n")
}

// writeLegendChain writes the legend's boxes in order joined by link, the
// invisible links that stack them.
func writeLegendChain(bw *graphWriter, link string) {
	bw.WriteString("    ")
	for i, e := range legendEntries {
		if i > 0 {
			bw.WriteString(link)
		}
		bw.WriteString(e.id)
	}
}

// writeMermaidLegend writes the legend subgraph: the same boxes in the
// shapes writeMermaid gives sources, processors, sinks, topics and
// stores, stacked by invisible links.
func writeMermaidLegend(bw *graphWriter) {
	bw.WriteString("  subgraph legend[")
	writeMermaidQuoted(bw, legendTitle)
	bw.WriteString("]\n")
	for _, e := range legendEntries {
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
	writeLegendChain(bw, " ~~~ ")
	bw.WriteString("\n  end\n")
	bw.WriteString("  style legend stroke:" + legendColor + "\n")
	for _, e := range legendEntries {
		switch {
		case e.kind == legendLag:
			bw.WriteString("  style " + e.id + " fill:" + e.fill + ",stroke:" + e.color + ",stroke-width:" + strconv.FormatFloat(e.width, 'f', 1, 64) + "px\n")
		case e.fill != "":
			bw.WriteString("  style " + e.id + " fill:" + e.fill + "\n")
		}
	}
}
