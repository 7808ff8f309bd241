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
	g := buildGraph(d)
	bw := newGraphWriter(w)
	bw.WriteString("flowchart LR\n")
	for ci, c := range g.clusters {
		bw.WriteString("  subgraph ")
		bw.clusterID(ci)
		bw.WriteByte('[')
		writeMermaidQuoted(bw, c.label)
		bw.WriteString("]\n")
		for ni, n := range c.nodes {
			bw.WriteString("    ")
			bw.id(vertex{'n', ci, ni})
			switch n.Kind {
			case topology.Source:
				bw.WriteByte('>')
				writeMermaidQuoted(bw, nodeLabel(n))
				bw.WriteString("]\n")
			case topology.Sink:
				bw.WriteString("[/")
				writeMermaidQuoted(bw, nodeLabel(n))
				bw.WriteString("\\]\n")
			default:
				bw.WriteByte('(')
				writeMermaidQuoted(bw, nodeLabel(n))
				bw.WriteString(")\n")
			}
		}
		bw.WriteString("  end\n")
		if c.global {
			bw.WriteString("  style ")
			bw.clusterID(ci)
			bw.WriteString(" stroke-dasharray: 5 5\n")
		}
		if err := bw.failed(); err != nil {
			return err
		}
	}
	for i, t := range g.topics {
		bw.WriteString("  ")
		bw.id(vertex{'t', 0, i})
		bw.WriteString("{{")
		writeMermaidQuoted(bw, t)
		bw.WriteString("}}\n")
	}
	for i, s := range g.stores {
		bw.WriteString("  ")
		bw.id(vertex{'s', 0, i})
		bw.WriteString("[(")
		writeMermaidQuoted(bw, s)
		bw.WriteString(")]\n")
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

// mermaidQuote makes a quoted Mermaid label (writeMermaidQuoted).
func mermaidQuote(s string) string {
	var b strings.Builder
	writeMermaidQuoted(&b, s)
	return b.String()
}

// writeMermaidQuoted writes s as a quoted Mermaid label. Inside quotes
// Mermaid decodes #name; and #NNN; entity codes, so " and # are written as
// codes; a line break becomes <br>, other control characters, and the
// invisible and bidi ones escape.go names, a visible code point.
func writeMermaidQuoted(w byteWriter, s string) {
	w.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b >= 0x20 && b < 0x7f && b != '"' && b != '#' && b != '<' && b != '>' && b != '`' {
			i++
			continue
		}
		r, n := rune(b), 1
		if b >= 0x80 {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		var esc string
		switch {
		case r == utf8.RuneError && n == 1:
			esc = "\uFFFD" // as ranging over s reads it
		case r == '"':
			esc = "#quot;"
		case r == '#':
			esc = "#35;"
		case r == '\n':
			esc = "<br>"
		case r == '<':
			esc = "#lt;"
		case r == '>':
			esc = "#gt;"
		case r == '`':
			esc = "#96;"
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || invisible(r):
			esc = "#" + strconv.Itoa(int(r)) + ";"
		default:
			i += n
			continue
		}
		w.WriteString(s[start:i])
		w.WriteString(esc)
		i += n
		start = i
	}
	w.WriteString(s[start:])
	w.WriteByte('"')
}
