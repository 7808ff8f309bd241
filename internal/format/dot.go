package format

// Graphviz rendering of a topology (-o dot); the layout is graph.go's.
// Shapes: sources are invhouse, processors rounded boxes, sinks house,
// topics cds (a tag) and state stores cylinders; global-store clusters are
// dashed. Every label is a quoted string with ", \ and control characters
// escaped, so no name can break out of it.

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// TopologyDot writes d as a Graphviz digraph named name.
func TopologyDot(w io.Writer, name string, d *topology.Description) error {
	return writeDot(w, name, buildGraph(d))
}

// writeDot writes a laid-out graph; notes add a title, cluster lines and
// colors, and topic lines and fills.
func writeDot(w io.Writer, name string, g *graph) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "digraph %s {\n", dotQuote(name))
	bw.WriteString("  rankdir=" + g.direction() + ";\n")
	if g.notes != nil && g.notes.title != "" {
		fmt.Fprintf(bw, "  label=%s;\n  labelloc=t;\n  fontname=\"Helvetica\";\n", dotQuote(g.notes.title))
	}
	bw.WriteString("  node [fontname=\"Helvetica\", fontsize=11];\n")
	bw.WriteString("  edge [fontname=\"Helvetica\", fontsize=9];\n")
	for _, c := range g.clusters {
		note := g.clusterNote(c)
		fmt.Fprintf(bw, "  subgraph cluster_%s {\n", c.id)
		fmt.Fprintf(bw, "    label=%s;\n", dotQuote(withNote(c.label, note.label)))
		if c.global {
			bw.WriteString("    style=\"rounded,dashed\";\n")
		} else {
			bw.WriteString("    style=rounded;\n")
		}
		if note.color != "" {
			// Left-justified, so that an edge entering the cluster from
			// above does not run through its label.
			fmt.Fprintf(bw, "    labeljust=l;\n    color=%s;\n    penwidth=%s;\n", dotQuote(note.color), strconv.FormatFloat(note.width, 'f', 1, 64))
		}
		for _, n := range c.nodes {
			fmt.Fprintf(bw, "    %s [label=%s, %s];\n", n.id, dotQuote(nodeLabel(n.node)), dotShape(n.node.Kind))
		}
		bw.WriteString("  }\n")
	}
	for i, t := range g.topics {
		note := g.topicNote(t)
		fill := "#e8f0fe"
		if note.color != "" {
			fill = note.color
		}
		fmt.Fprintf(bw, "  t%d [label=%s, shape=cds, style=filled, fillcolor=\"%s\"];\n", i, dotQuote(withNote(t, note.label)), fill)
	}
	for i, s := range g.stores {
		fmt.Fprintf(bw, "  s%d [label=%s, shape=cylinder, style=filled, fillcolor=\"#fef7e0\"];\n", i, dotQuote(s))
	}
	for _, e := range g.edges {
		switch e.kind {
		case storeEdge:
			fmt.Fprintf(bw, "  %s -> %s [style=dashed, arrowhead=none];\n", e.from, e.to)
		default:
			fmt.Fprintf(bw, "  %s -> %s;\n", e.from, e.to)
		}
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

func dotShape(k topology.Kind) string {
	switch k {
	case topology.Source:
		return "shape=invhouse"
	case topology.Sink:
		return "shape=house"
	}
	return "shape=box, style=rounded"
}

// dotQuote makes a DOT double-quoted string. Graphviz reads \" and \\ as
// escapes and \n as a centred line break; other control characters are
// shown as \xNN so that they cannot reach a terminal or break the file.
func dotQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, `\\x%02X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
