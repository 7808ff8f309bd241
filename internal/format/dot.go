package format

// Graphviz rendering of a topology (-o dot); the layout is graph.go's.
// Shapes: sources are invhouse, processors rounded boxes, sinks house,
// topics cds (a tag) and state stores cylinders; global-store clusters are
// dashed. Every label is a quoted string with ", \ and control characters
// escaped, so no name can break out of it. The overview's notes add a
// title, a second label line and a border color per subtopology, and a
// second label line and a fill per topic.

import (
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// TopologyDot writes d as a Graphviz digraph named name.
func TopologyDot(w io.Writer, name string, d *topology.Description) error {
	return writeDot(w, name, buildGraph(d))
}

// writeDot writes a laid-out graph.
func writeDot(w io.Writer, name string, g *graph) error {
	return writeDotParts([]*graphWriter{newGraphWriter(w)}, name, g, nil)
}

// writeDotParts writes each part of g's parts to its writer, in one pass
// over g, without the title (a picture of parts has the title as a part
// of its own); all of g to ws[0] when parts is nil.
func writeDotParts(ws []*graphWriter, name string, g *graph, parts *graphParts) error {
	pick := func(of []int, i int) *graphWriter {
		if parts == nil {
			return ws[0]
		}
		return ws[of[i]]
	}
	// Once: the direction is read from the whole graph.
	dir := g.direction()
	for _, bw := range ws {
		bw.WriteString("digraph ")
		writeDotQuoted(bw, name)
		bw.WriteString(" {\n")
		bw.WriteString("  rankdir=" + dir + ";\n")
		if g.notes != nil && g.notes.title != "" && parts == nil {
			bw.WriteString("  label=")
			writeDotQuoted(bw, g.notes.title)
			bw.WriteString(";\n  labelloc=t;\n  fontname=\"Helvetica\";\n")
		}
		bw.WriteString("  node [fontname=\"Helvetica\", fontsize=11];\n")
		bw.WriteString("  edge [fontname=\"Helvetica\", fontsize=9];\n")
	}
	if g.notes != nil && parts == nil {
		writeDotLegend(ws[0]) // drawPicture gives parts the legend with the title
	}
	topDown := dir == "TB"
	for ci, c := range g.clusters {
		var clusterOf []int
		if parts != nil {
			clusterOf = parts.cluster
		}
		bw := pick(clusterOf, ci)
		note := g.clusterNote(c)
		bw.WriteString("  subgraph cluster_")
		bw.clusterID(ci)
		bw.WriteString(" {\n    label=")
		writeDotQuoted(bw, withNote(c.label, note.label))
		if c.global {
			bw.WriteString(";\n    style=\"rounded,dashed\";\n")
		} else {
			bw.WriteString(";\n    style=rounded;\n")
		}
		if topDown {
			// Left-justified, so that an edge entering the cluster from
			// above does not run through its label.
			bw.WriteString("    labeljust=l;\n")
		}
		if note.color != "" {
			bw.WriteString("    color=")
			writeDotQuoted(bw, note.color)
			bw.WriteString(";\n    penwidth=" + strconv.FormatFloat(note.width, 'f', 1, 64) + ";\n")
		}
		for ni, n := range c.nodes {
			bw.WriteString("    ")
			bw.id(vertex{'n', ci, ni})
			bw.WriteString(" [label=")
			writeDotQuoted(bw, nodeLabel(n))
			bw.WriteString(", ")
			bw.WriteString(dotShape(n.Kind))
			bw.WriteString("];\n")
		}
		bw.WriteString("  }\n")
		if err := bw.failed(); err != nil {
			return err
		}
	}
	for i, t := range g.topics {
		var topicOf []int
		if parts != nil {
			topicOf = parts.topic
		}
		bw := pick(topicOf, i)
		note := g.topicNote(t)
		fill := "#e8f0fe"
		if note.color != "" {
			fill = note.color
		}
		bw.WriteString("  ")
		bw.id(vertex{'t', 0, i})
		bw.WriteString(" [label=")
		writeDotQuoted(bw, withNote(t, note.label))
		bw.WriteString(", shape=cds, style=filled, fillcolor=\"" + fill + "\"];\n")
	}
	for i, s := range g.stores {
		var storeOf []int
		if parts != nil {
			storeOf = parts.store
		}
		bw := pick(storeOf, i)
		bw.WriteString("  ")
		bw.id(vertex{'s', 0, i})
		bw.WriteString(" [label=")
		writeDotQuoted(bw, s)
		bw.WriteString(", shape=cylinder, style=filled, fillcolor=\"#fef7e0\"];\n")
	}
	err := g.eachEdge(func(from, to vertex, kind edgeKind) error {
		bw := ws[0]
		if node := from; parts != nil {
			if node.kind != 'n' {
				node = to // every edge has a node
			}
			bw = ws[parts.cluster[node.c]]
		}
		bw.WriteString("  ")
		bw.id(from)
		bw.WriteString(" -> ")
		bw.id(to)
		if kind == storeEdge {
			bw.WriteString(" [style=dashed, arrowhead=none]")
		}
		bw.WriteString(";\n")
		return bw.failed()
	})
	if err != nil {
		return err
	}
	for _, bw := range ws {
		bw.WriteString("}\n")
		if err := bw.Flush(); err != nil {
			return err
		}
	}
	return nil
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

// dotQuoting is a DOT double-quoted string's. Graphviz reads \" and \\
// as escapes and \n as a centred line break; other control characters, and
// the invisible and bidi ones escape.go names, are shown as \xNN
// (\x{NNNN} above U+00FF) so that they cannot reach a terminal or break the
// file; a byte that is not UTF-8 is U+FFFD.
var dotQuoting = newQuoting(`"\`, func(r rune, raw string) string {
	switch {
	case r == utf8.RuneError && len(raw) == 1:
		return "\uFFFD"
	case r == '"':
		return `\"`
	case r == '\\':
		return `\\`
	case r == '\n':
		return `\n`
	case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
		return fmt.Sprintf(`\\x%02X`, r)
	case invisible(r):
		return fmt.Sprintf(`\\x{%04X}`, r)
	}
	return ""
})

// writeDotQuoted writes s as a DOT double-quoted string.
func writeDotQuoted(w byteWriter, s string) { dotQuoting.write(w, s) }
