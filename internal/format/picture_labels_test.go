package format

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// helveticaWidths are Helvetica's advance widths (its AFM, thousandths of
// an em) of the ASCII letters, digits and the punctuation of the names
// below: a viewer draws the SVG's text in Helvetica or a font with its
// metrics (Arial, Liberation Sans).
var helveticaWidths = map[rune]float64{
	'0': 556, '1': 556, '2': 556, '3': 556, '4': 556, '5': 556, '6': 556, '7': 556, '8': 556, '9': 556,
	' ': 278, '-': 333, '_': 556, '.': 278, ':': 278, '(': 333, ')': 333,
	'A': 667, 'B': 667, 'C': 722, 'D': 722, 'E': 667, 'F': 611, 'G': 778, 'H': 722, 'I': 278,
	'J': 500, 'K': 667, 'L': 556, 'M': 833, 'N': 722, 'O': 778, 'P': 667, 'Q': 778, 'R': 722,
	'S': 667, 'T': 611, 'U': 722, 'V': 667, 'W': 944, 'X': 667, 'Y': 667, 'Z': 611,
	'a': 556, 'b': 556, 'c': 500, 'd': 556, 'e': 556, 'f': 278, 'g': 556, 'h': 556, 'i': 222,
	'j': 222, 'k': 500, 'l': 222, 'm': 833, 'n': 556, 'o': 556, 'p': 556, 'q': 556, 'r': 333,
	's': 500, 't': 278, 'u': 556, 'v': 500, 'w': 722, 'x': 500, 'y': 500, 'z': 500,
}

// Every label of a drawing fits its shape in the SVG: long names, of the
// widest and of the narrowest letters, as processors, sources, sinks,
// topics and stores. Each text element, at the width Helvetica gives it,
// lies within the horizontal extent of its node's outline.
func TestPictureSVG_labelsFitTheirShapes(t *testing.T) {
	long := strings.Repeat("KSTREAM-AGGREGATE-", 6) + "0000000042"
	wide := strings.Repeat("WM", 30)
	narrow := strings.Repeat("il", 40)
	d := tt.Desc([]*topology.Subtopology{
		tt.Sub("0",
			tt.Src("source-"+long, []string{"topic-" + wide, "t"}, "p-"+long),
			tt.Proc("p-"+long, []string{"store-" + long}, wide),
			tt.Proc(wide, []string{"store-" + narrow}, narrow),
			tt.Proc(narrow, nil, "sink-"+wide),
			tt.Sink("sink-"+wide, "out-"+long)),
	})
	var svg bytes.Buffer
	require.NoError(t, TopologyGraphContext(context.Background(), &svg, SVG, "t", d))
	checked := 0
	for _, n := range svgNodes(t, svg.Bytes()) {
		for _, text := range n.texts {
			w := 0.0
			for _, r := range text.s {
				cw, ok := helveticaWidths[r]
				require.True(t, ok, "no width for %q", r)
				w += cw / 1000 * text.size
			}
			left, right := text.extent(w)
			assert.GreaterOrEqual(t, left, n.minX, "%q starts left of its shape", text.s)
			assert.LessOrEqual(t, right, n.maxX, "%q ends right of its shape", text.s)
			checked++
		}
	}
	assert.Equal(t, 10, checked, "every node's label was checked")
}

type svgText struct {
	s, anchor string
	x, size   float64
}

// extent is where a text w wide lies, from its x and text-anchor.
func (text svgText) extent(w float64) (left, right float64) {
	switch text.anchor {
	case "start":
		return text.x, text.x + w
	case "end":
		return text.x - w, text.x
	}
	return text.x - w/2, text.x + w/2
}

type svgNode struct {
	minX, maxX float64
	texts      []svgText
}

// svgNodes reads the nodes of a Graphviz SVG: the horizontal extent of
// each one's outline (polygon points, path coordinates, ellipse) and its
// text elements.
func svgNodes(t *testing.T, data []byte) []svgNode {
	t.Helper()
	return svgShapes(t, data, "node")
}

// svgShapes reads the groups of a class ("node", "cluster", "graph": the
// whole picture) as svgNodes reads the nodes.
func svgShapes(t *testing.T, data []byte, class string) []svgNode {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	var nodes []svgNode
	var cur *svgNode
	depth, nodeDepth := 0, -1
	var text *svgText
	grow := func(xs ...float64) {
		for _, x := range xs {
			if cur.minX > cur.maxX {
				cur.minX, cur.maxX = x, x
			}
			cur.minX, cur.maxX = min(cur.minX, x), max(cur.maxX, x)
		}
	}
	attr := func(el xml.StartElement, name string) string {
		for _, a := range el.Attr {
			if a.Name.Local == name {
				return a.Value
			}
		}
		return ""
	}
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		require.NoError(t, err)
		return v
	}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		switch el := tok.(type) {
		case xml.StartElement:
			depth++
			if el.Name.Local == "g" && attr(el, "class") == class {
				nodes = append(nodes, svgNode{minX: 1, maxX: 0})
				cur, nodeDepth = &nodes[len(nodes)-1], depth
				continue
			}
			if cur == nil {
				continue
			}
			switch el.Name.Local {
			case "polygon", "polyline":
				for _, p := range strings.Fields(attr(el, "points")) {
					x, _, _ := strings.Cut(p, ",")
					grow(num(x))
				}
			case "path":
				// Graphviz's paths: M and C followed by x,y pairs.
				for _, p := range strings.FieldsFunc(attr(el, "d"), func(r rune) bool { return r == 'M' || r == 'C' || r == ' ' }) {
					x, _, _ := strings.Cut(p, ",")
					grow(num(x))
				}
			case "ellipse":
				cx, rx := num(attr(el, "cx")), num(attr(el, "rx"))
				grow(cx-rx, cx+rx)
			case "text":
				text = &svgText{anchor: attr(el, "text-anchor"), x: num(attr(el, "x")), size: num(attr(el, "font-size"))}
			}
		case xml.CharData:
			if text != nil {
				text.s += string(el)
			}
		case xml.EndElement:
			if text != nil && el.Name.Local == "text" {
				cur.texts = append(cur.texts, *text)
				text = nil
			}
			if depth == nodeDepth {
				cur, nodeDepth = nil, -1
			}
			depth--
		}
	}
	return nodes
}
