package format

// Mermaid rendering of a topology (-o mermaid), a flowchart with the layout
// of graph.go. Shapes: sources are asymmetric (>"…"]), processors rounded
// ("…"), sinks trapezoids [/"…"\], topics hexagons {{"…"}} and state
// stores cylinders [("…")]. Labels are always double-quoted with " and #
// written as Mermaid entity codes, so no name can end a label early or be
// read as syntax.

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// TopologyMermaid writes d as a Mermaid flowchart.
func TopologyMermaid(w io.Writer, d *topology.Description) error {
	return writeMermaid(w, buildGraph(d))
}

// writeMermaid writes a laid-out graph; notes add a title, cluster lines
// and border styles, and topic lines and fills.
func writeMermaid(w io.Writer, g *graph) error {
	bw := bufio.NewWriter(w)
	if g.notes != nil && g.notes.title != "" {
		// The title is a YAML string in the front matter: no backslash.
		fmt.Fprintf(bw, "---\ntitle: %s\n---\n", mermaidQuote(strings.ReplaceAll(g.notes.title, `\`, "#92;")))
	}
	bw.WriteString("flowchart " + g.direction() + "\n")
	for _, c := range g.clusters {
		note := g.clusterNote(c)
		fmt.Fprintf(bw, "  subgraph %s[%s]\n", c.id, mermaidQuote(withNote(c.label, note.label)))
		for _, n := range c.nodes {
			l := mermaidQuote(nodeLabel(n.node))
			switch n.node.Kind {
			case topology.Source:
				fmt.Fprintf(bw, "    %s>%s]\n", n.id, l)
			case topology.Sink:
				fmt.Fprintf(bw, "    %s[/%s\\]\n", n.id, l)
			default:
				fmt.Fprintf(bw, "    %s(%s)\n", n.id, l)
			}
		}
		bw.WriteString("  end\n")
		if c.global {
			fmt.Fprintf(bw, "  style %s stroke-dasharray: 5 5\n", c.id)
		}
		if note.color != "" {
			fmt.Fprintf(bw, "  style %s stroke:%s,stroke-width:%spx\n", c.id, note.color, strconv.FormatFloat(note.width, 'f', 1, 64))
		}
	}
	for i, t := range g.topics {
		note := g.topicNote(t)
		fmt.Fprintf(bw, "  t%d{{%s}}\n", i, mermaidQuote(withNote(t, note.label)))
		if note.color != "" {
			fmt.Fprintf(bw, "  style t%d fill:%s\n", i, note.color)
		}
	}
	for i, s := range g.stores {
		fmt.Fprintf(bw, "  s%d[(%s)]\n", i, mermaidQuote(s))
	}
	for _, e := range g.edges {
		if e.kind == storeEdge {
			fmt.Fprintf(bw, "  %s -.- %s\n", e.from, e.to)
		} else {
			fmt.Fprintf(bw, "  %s --> %s\n", e.from, e.to)
		}
	}
	return bw.Flush()
}

// mermaidQuote makes a quoted Mermaid label. Inside quotes Mermaid decodes
// #name; and #NNN; entity codes, so " and # are written as codes; a line
// break becomes <br>, other control characters a visible code point.
func mermaidQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString("#quot;")
		case r == '#':
			b.WriteString("#35;")
		case r == '\n':
			b.WriteString("<br>")
		case r == '<':
			b.WriteString("#lt;")
		case r == '>':
			b.WriteString("#gt;")
		case r == '`':
			b.WriteString("#96;")
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, "#%d;", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
