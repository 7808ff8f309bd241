package format

// The overview picture's legend: what its colors and shapes mean. It is a
// cluster of its own with no edge to the drawing, so Graphviz sets it
// beside the topology, at the top; its entries are stacked (invisible
// edges) to keep it one box wide.

// legendEntries are the legend's boxes: the lag scale of overviewNotes
// (lagColor borders, lagFill fills), then the shapes of dotShape and of
// topics and stores.
var legendEntries = []struct{ id, attrs string }{
	{"legend_lag0", `label="no lag", shape=box, style="rounded,filled", fillcolor="#e8f0fe", color="#188038", penwidth=2`},
	{"legend_lag1", `label="lag under 1/4\nof the group's", shape=box, style="rounded,filled", fillcolor="#feefc3", color="#f9ab00", penwidth=2`},
	{"legend_lag2", `label="lag under 1/2", shape=box, style="rounded,filled", fillcolor="#fed7aa", color="#e8710a", penwidth=2`},
	{"legend_lag3", `label="lag 1/2 or more", shape=box, style="rounded,filled", fillcolor="#f6aea9", color="#d93025", penwidth=2`},
	{"legend_source", `label="source", shape=invhouse`},
	{"legend_processor", `label="processor", shape=box, style=rounded`},
	{"legend_sink", `label="sink", shape=house`},
	{"legend_topic", `label="topic", shape=cds, style=filled, fillcolor="#e8f0fe"`},
	{"legend_store", `label="state store", shape=cylinder, style=filled, fillcolor="#fef7e0"`},
}

// writeDotLegend writes the legend cluster.
func writeDotLegend(bw *graphWriter) {
	bw.WriteString("  subgraph cluster_legend {\n")
	bw.WriteString("    label=\"Legend: a sub-topology's border\\nand a topic's fill\\nshow its share of the lag\";\n")
	bw.WriteString("    labeljust=l;\n    style=rounded;\n    color=\"#9aa0a6\";\n    fontsize=10;\n")
	bw.WriteString("    node [fontsize=9, margin=\"0.08,0.04\"];\n")
	for _, e := range legendEntries {
		bw.WriteString("    " + e.id + " [" + e.attrs + "];\n")
	}
	bw.WriteString("    ")
	for i, e := range legendEntries {
		if i > 0 {
			bw.WriteString(" -> ")
		}
		bw.WriteString(e.id)
	}
	bw.WriteString(" [style=invis];\n  }\n")
}
