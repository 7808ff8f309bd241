package format

// Mermaid rendering of a topology (-o mermaid), a flowchart with the layout
// of graph.go. Shapes: sources are asymmetric (>"…"]), processors rounded
// ("…"), sinks trapezoids [/"…"\], topics hexagons {{"…"}} and state
// stores cylinders [("…")]. Labels are always double-quoted with " and #
// written as Mermaid entity codes, so no name can end a label early or be
// read as syntax.

import (
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// TopologyMermaid writes d as a Mermaid flowchart.
func TopologyMermaid(w io.Writer, d *topology.Description) error {
	return writeMermaid(w, buildGraph(d))
}

// writeMermaid writes a laid-out graph; notes add a title, cluster lines
// and border styles, and topic lines and fills.
func writeMermaid(w io.Writer, g *graph) error {
	bw := newGraphWriter(w)
	if g.notes != nil && g.notes.title != "" {
		// The title is a YAML string in the front matter: no backslash.
		bw.WriteString("---\ntitle: ")
		writeMermaidQuoted(bw, strings.ReplaceAll(g.notes.title, `\`, "#92;"))
		bw.WriteString("\n---\n")
	}
	bw.WriteString("flowchart " + g.direction() + "\n")
	g.writeMermaidLegend(bw)
	for ci, c := range g.clusters {
		note := g.clusterNote(c)
		bw.WriteString("  subgraph ")
		bw.clusterID(ci)
		bw.WriteByte('[')
		writeMermaidQuoted(bw, withNote(c.label, note.label))
		bw.WriteString("]\n")
		for ni, n := range c.nodes {
			bw.WriteString("    ")
			bw.id(vertex{'n', ci, ni})
			writeMermaidBox(bw, nodeKind(n.Kind), nodeLabel(n))
		}
		bw.WriteString("  end\n")
		if c.global {
			bw.WriteString("  style ")
			bw.clusterID(ci)
			bw.WriteString(" stroke-dasharray: 5 5\n")
		}
		if note.color != "" {
			bw.WriteString("  style ")
			bw.clusterID(ci)
			bw.WriteString(" stroke:" + note.color + ",stroke-width:" + strconv.FormatFloat(note.width, 'f', 1, 64) + "px\n")
		}
		if err := bw.failed(); err != nil {
			return err
		}
	}
	for i, t := range g.topics {
		note := g.topicNote(t)
		bw.WriteString("  ")
		bw.id(vertex{'t', 0, i})
		writeMermaidBox(bw, legendTopic, withNote(t, note.label))
		if note.color != "" {
			bw.WriteString("  style ")
			bw.id(vertex{'t', 0, i})
			bw.WriteString(" fill:" + note.color + "\n")
		}
	}
	for i, s := range g.stores {
		bw.WriteString("  ")
		bw.id(vertex{'s', 0, i})
		writeMermaidBox(bw, legendStore, s)
	}
	err := g.eachEdge(func(from, to vertex, kind edgeKind) error {
		bw.WriteString("  ")
		bw.id(from)
		if kind == storeEdge {
			bw.WriteString(" -.- ")
		} else {
			bw.WriteString(" --> ")
		}
		bw.id(to)
		bw.WriteByte('\n')
		return bw.failed()
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}

// writeMermaidBox writes a box of kind k after its id: label quoted in
// the kind's brackets, and a line break.
func writeMermaidBox(bw *graphWriter, k legendKind, label string) {
	open, end := "(", ")"
	switch k {
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
	writeMermaidQuoted(bw, label)
	bw.WriteString(end + "\n")
}

// mermaidQuoting is a quoted Mermaid label's. Inside quotes Mermaid
// decodes #name; and #NNN; entity codes, so " and # are written as codes; a
// line break becomes <br>, other control characters, and the invisible and
// bidi ones escape.go names, a visible code point; a byte that is not
// UTF-8 is U+FFFD.
var mermaidQuoting = newQuoting("\"#<>`", func(r rune, raw string) string {
	switch {
	case r == utf8.RuneError && len(raw) == 1:
		return "\uFFFD"
	case r == '"':
		return "#quot;"
	case r == '#':
		return "#35;"
	case r == '\n':
		return "<br>"
	case r == '<':
		return "#lt;"
	case r == '>':
		return "#gt;"
	case r == '`':
		return "#96;"
	case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || invisible(r):
		return "#" + strconv.Itoa(int(r)) + ";"
	}
	return ""
})

// writeMermaidQuoted writes s as a quoted Mermaid label.
func writeMermaidQuoted(w byteWriter, s string) { mermaidQuoting.write(w, s) }
