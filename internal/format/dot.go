package format

// Graphviz rendering of a topology (-o dot); the layout is graph.go's.
// Shapes: sources are invhouse, processors rounded boxes, sinks house,
// topics cds (a tag) and state stores cylinders; global-store clusters are
// dashed; a cluster's title is a plaintext node at its top. Every label is a quoted string with ", \ and control characters
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
	// pick is the writer of a cluster, topic or store (its part's).
	pick := func(of func(*graphParts) []int, i int) *graphWriter {
		if parts == nil {
			return ws[0]
		}
		return ws[of(parts)[i]]
	}
	// Once: the direction is read from the whole graph.
	dir := g.direction()
	for _, bw := range ws {
		g.writeDotHeader(bw, name, dir, parts == nil)
	}
	if parts == nil {
		g.writeDotLegend(ws[0]) // drawPicture gives parts the legend with the title
	}
	topDown := dir == "TB"
	for ci := range g.clusters {
		bw := pick(func(p *graphParts) []int { return p.cluster }, ci)
		if err := g.writeDotCluster(bw, ci, topDown); err != nil {
			return err
		}
	}
	for i, t := range g.topics {
		bw := pick(func(p *graphParts) []int { return p.topic }, i)
		fill := "#e8f0fe"
		note := g.topicNote(t)
		if note.color != "" {
			fill = note.color
		}
		bw.WriteString("  ")
		bw.id(vertex{'t', 0, i})
		bw.WriteString(" [label=")
		writeDotQuoted(bw, withNote(t, note.label))
		bw.WriteString(", " + topicShape + ", style=filled, fillcolor=\"" + fill + "\"];\n")
	}
	for i, s := range g.stores {
		bw := pick(func(p *graphParts) []int { return p.store }, i)
		bw.WriteString("  ")
		bw.id(vertex{'s', 0, i})
		bw.WriteString(" [label=")
		writeDotQuoted(bw, s)
		bw.WriteString(", shape=cylinder, style=filled, fillcolor=\"#fef7e0\"];\n")
	}
	err := g.eachEdge(func(from, to vertex, kind edgeKind) error {
		node := from
		if node.kind != 'n' {
			node = to // every edge has a node
		}
		bw := pick(func(p *graphParts) []int { return p.cluster }, node.c)
		writeDotEdge(bw, from, to, kind, topDown)
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

// topicShape is a topic's shape: a tag (cds) whose horizontal margin,
// 0.18 inch (13 points), is wider than the tag's point (12 points at any
// height), so that no line of its label, centred on the whole shape,
// reaches into the point: with Graphviz's 0.11 inch, the end of a
// two-line label was cut by the point's slope. Its vertical margin, 0.11
// inch, keeps a second line's descenders off the border (Graphviz draws
// a tag of two lines 24 points high with its 0.055 inch).
const topicShape = `shape=cds, margin="0.18,0.11"`

// topicMargin is topicShape's horizontal margin in points.
const topicMargin = 0.18 * 72

// writeDotHeader opens a digraph: its direction, fonts and, with notes
// and titled, the title.
func (g *graph) writeDotHeader(bw *graphWriter, name, dir string, titled bool) {
	bw.WriteString("digraph ")
	writeDotQuoted(bw, name)
	bw.WriteString(" {\n")
	bw.WriteString("  rankdir=" + dir + ";\n")
	if g.notes != nil && g.notes.title != "" && titled {
		bw.WriteString("  label=")
		writeDotQuoted(bw, g.notes.title)
		bw.WriteString(";\n  labelloc=t;\n  fontname=\"Helvetica\";\n")
	}
	bw.WriteString("  node [fontname=\"Helvetica\", fontsize=11];\n")
	bw.WriteString("  edge [fontname=\"Helvetica\", fontsize=9];\n")
}

// writeDotCluster writes cluster ci: its border, its title and its nodes.
// The title is a node of its own (plaintext) rather than the cluster's
// label: Graphviz routes edges around nodes, but through a cluster's
// label, so an edge entering a sub-topology from above ran through its
// title. Top down, the title stands above the cluster's first nodes
// (invisible edges); left to right, at their rank, above them, out of the
// way of the edges that enter them from the left.
func (g *graph) writeDotCluster(bw *graphWriter, ci int, topDown bool) error {
	c := g.clusters[ci]
	note := g.clusterNote(c)
	bw.WriteString("  subgraph cluster_")
	bw.clusterID(ci)
	// label="": a cluster would inherit the overview's title.
	if c.global {
		bw.WriteString(" {\n    label=\"\";\n    style=\"rounded,dashed\";\n")
	} else {
		bw.WriteString(" {\n    label=\"\";\n    style=rounded;\n")
	}
	if note.color != "" {
		bw.WriteString("    color=")
		writeDotQuoted(bw, note.color)
		bw.WriteString(";\n    penwidth=" + strconv.FormatFloat(note.width, 'f', 1, 64) + ";\n")
	}
	bw.WriteString("    ")
	bw.titleID(ci)
	bw.WriteString(" [label=")
	writeDotQuoted(bw, withNote(c.label, note.label))
	bw.WriteString(", shape=plaintext, fontsize=12];\n")
	for ni, n := range c.nodes {
		bw.WriteString("    ")
		bw.id(vertex{'n', ci, ni})
		bw.WriteString(" [label=")
		writeDotQuoted(bw, nodeLabel(n))
		bw.WriteString(", ")
		bw.WriteString(dotShape(nodeKind(n.Kind)))
		bw.WriteString("];\n")
	}
	if !topDown {
		bw.WriteString("    {rank=same; ")
		bw.titleID(ci)
		for _, ni := range c.entries() {
			bw.WriteString("; ")
			bw.id(vertex{'n', ci, ni})
		}
		bw.WriteString(";}\n")
	}
	for _, ni := range c.entries() {
		// Top down, the edges rank the title above the entries; left to
		// right, a flat edge orders it above them in their rank (the
		// rotated layout draws a flat edge's head above its tail).
		bw.WriteString("    ")
		if topDown {
			bw.titleID(ci)
			bw.WriteString(" -> ")
			bw.id(vertex{'n', ci, ni})
		} else {
			bw.id(vertex{'n', ci, ni})
			bw.WriteString(" -> ")
			bw.titleID(ci)
		}
		bw.WriteString(" [style=invis];\n")
	}
	bw.WriteString("  }\n")
	return bw.failed()
}

// writeDotEdge writes an edge; top down, a topic read by a sub-topology
// also gets an invisible edge to the sub-topology's title, which puts the
// topic above the title (else it stands beside it, level with the title,
// and its edge enters the cluster from the side).
func writeDotEdge(bw *graphWriter, from, to vertex, kind edgeKind, topDown bool) {
	bw.WriteString("  ")
	bw.id(from)
	bw.WriteString(" -> ")
	bw.id(to)
	if kind == storeEdge {
		bw.WriteString(" [style=dashed, arrowhead=none]")
	}
	bw.WriteString(";\n")
	if kind == readEdge && topDown {
		bw.WriteString("  ")
		bw.id(from)
		bw.WriteString(" -> ")
		bw.titleID(to.c)
		bw.WriteString(" [style=invis];\n")
	}
}

// dotShape is the shape of a node's box (a source's, processor's or
// sink's).
func dotShape(k legendKind) string {
	switch k {
	case legendSource:
		return "shape=invhouse"
	case legendSink:
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
