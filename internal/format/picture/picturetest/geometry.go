package picturetest

// The geometry of a Graphviz SVG, for tests that check what a viewer
// sees: every text inside its shape at the width a real font draws it, and
// no edge through a text (a node's label, a sub-topology's title, the
// picture's title). Shapes are read as the convex hull of their outline
// (every node shape the drawings use is convex); edges as polylines
// sampled from their Bézier paths, arrowheads included.

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	eaw "golang.org/x/text/width"
)

// Point is a point of the SVG's user space (y grows downwards).
type Point struct{ X, Y float64 }

// Rect is an axis-aligned box.
type Rect struct{ Min, Max Point }

// Text is a text element: its string, anchor, position and size.
type Text struct {
	S, Anchor string
	X, Y      float64
	Size      float64
}

// Shape is a node, a cluster or the whole picture: its name (the SVG
// title: a node's or cluster's id), the convex hull of its outline (empty
// for a node drawn without one) and its texts.
type Shape struct {
	Name  string
	Hull  []Point
	Texts []Text
	// points are the outline's points, hulled by ParseSVG.
	points []Point
}

// Edge is an edge's drawing: polylines (its path and arrowheads).
type Edge struct {
	Name  string
	Lines [][]Point
}

// Geometry is a picture's shapes and edges.
type Geometry struct {
	Graph    Shape
	Clusters []Shape
	Nodes    []Shape
	Edges    []Edge
}

// Helvetica's ascender and descender (its AFM, in ems): the height of a
// line of text above and below its baseline.
const (
	ascent  = 0.718
	descent = 0.207
)

// Box is where the text is drawn, at the width DrawnWidth gives it.
func (x Text) Box(t testing.TB) Rect {
	w := DrawnWidth(t, x.S, x.Size)
	left := x.X - w/2
	switch x.Anchor {
	case "start":
		left = x.X
	case "end":
		left = x.X - w
	}
	return Rect{Point{left, x.Y - ascent*x.Size}, Point{left + w, x.Y + descent*x.Size}}
}

// Bounds is the box around a shape's outline and texts.
func (s Shape) Bounds(t testing.TB) Rect {
	r := Rect{Point{math.Inf(1), math.Inf(1)}, Point{math.Inf(-1), math.Inf(-1)}}
	grow := func(p Point) {
		r.Min.X, r.Min.Y = min(r.Min.X, p.X), min(r.Min.Y, p.Y)
		r.Max.X, r.Max.Y = max(r.Max.X, p.X), max(r.Max.Y, p.Y)
	}
	for _, p := range s.Hull {
		grow(p)
	}
	for _, x := range s.Texts {
		b := x.Box(t)
		grow(b.Min)
		grow(b.Max)
	}
	return r
}

// Union is the box around both.
func (r Rect) Union(o Rect) Rect {
	return Rect{Point{min(r.Min.X, o.Min.X), min(r.Min.Y, o.Min.Y)}, Point{max(r.Max.X, o.Max.X), max(r.Max.Y, o.Max.Y)}}
}

// Dx and Dy are the box's width and height.
func (r Rect) Dx() float64 { return r.Max.X - r.Min.X }
func (r Rect) Dy() float64 { return r.Max.Y - r.Min.Y }

// ParseSVG reads a Graphviz SVG's geometry.
func ParseSVG(t testing.TB, data []byte) *Geometry {
	t.Helper()
	p := &svgParser{t: t, g: &Geometry{}}
	dec := xml.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		switch el := tok.(type) {
		case xml.StartElement:
			p.start(el)
		case xml.CharData:
			p.chars(string(el))
		case xml.EndElement:
			p.end(el.Name.Local)
		}
	}
	g := p.g
	g.Graph.Hull = hull(g.Graph.points)
	for _, list := range [][]Shape{g.Clusters, g.Nodes} {
		for i := range list {
			list[i].Hull = hull(list[i].points)
		}
	}
	return g
}

// svgParser is ParseSVG's state: the group, title and text being read.
type svgParser struct {
	t       testing.TB
	g       *Geometry
	shape   *Shape
	edge    *Edge
	text    *Text
	inTitle bool
	title   string
}

func (p *svgParser) start(el xml.StartElement) {
	t := p.t
	switch el.Name.Local {
	case "g":
		p.shape, p.edge = p.g.open(attr(el, "class"))
	case "title":
		p.inTitle, p.title = true, ""
	case "text":
		p.text = &Text{Anchor: attr(el, "text-anchor"), X: num(t, attr(el, "x")), Y: num(t, attr(el, "y")), Size: num(t, attr(el, "font-size"))}
	default:
		pts := outline(t, el)
		switch {
		case p.edge != nil && len(pts) > 0:
			p.edge.Lines = append(p.edge.Lines, pts)
		case p.shape != nil:
			p.shape.points = append(p.shape.points, pts...)
		}
	}
}

func (p *svgParser) chars(s string) {
	if p.inTitle {
		p.title += s
	}
	if p.text != nil {
		p.text.S += s
	}
}

func (p *svgParser) end(name string) {
	switch name {
	case "title":
		p.inTitle = false
		if p.edge != nil {
			p.edge.Name = p.title
		} else if p.shape != nil && p.shape.Name == "" {
			p.shape.Name = p.title
		}
	case "text":
		if p.shape != nil {
			p.shape.Texts = append(p.shape.Texts, *p.text)
		}
		p.text = nil
	case "g":
		p.shape, p.edge = nil, nil
	}
}

// open starts a group of a class: the shape or edge its elements go to.
// Graphviz's groups are not nested (the graph's holds only its background
// and title).
func (g *Geometry) open(class string) (*Shape, *Edge) {
	switch class {
	case "graph":
		return &g.Graph, nil
	case "cluster":
		g.Clusters = append(g.Clusters, Shape{})
		return &g.Clusters[len(g.Clusters)-1], nil
	case "node":
		g.Nodes = append(g.Nodes, Shape{})
		return &g.Nodes[len(g.Nodes)-1], nil
	case "edge":
		g.Edges = append(g.Edges, Edge{})
		return nil, &g.Edges[len(g.Edges)-1]
	}
	return nil, nil
}

func attr(el xml.StartElement, name string) string {
	for _, a := range el.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func num(t testing.TB, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	require.NoError(t, err, "a number: %q", s)
	return v
}

// outline is the points of a drawing element: a polygon's or polyline's
// corners, a path's Bézier curves sampled, an ellipse sampled.
func outline(t testing.TB, el xml.StartElement) []Point {
	t.Helper()
	pair := func(s string) Point {
		x, y, ok := strings.Cut(s, ",")
		require.True(t, ok, "a point: %q", s)
		return Point{num(t, x), num(t, y)}
	}
	var pts []Point
	switch el.Name.Local {
	case "polygon", "polyline":
		for _, p := range strings.Fields(attr(el, "points")) {
			pts = append(pts, pair(p))
		}
	case "path":
		// Graphviz's paths: M x,y C followed by x,y triples.
		var ps []Point
		for _, p := range strings.FieldsFunc(attr(el, "d"), func(r rune) bool { return r == 'M' || r == 'C' || r == ' ' }) {
			ps = append(ps, pair(p))
		}
		if len(ps) > 0 {
			pts = append(pts, ps[0])
		}
		for i := 1; i+2 < len(ps); i += 3 {
			p0, c1, c2, p3 := ps[i-1], ps[i], ps[i+1], ps[i+2]
			for k := 1; k <= 16; k++ {
				s := float64(k) / 16
				u := 1 - s
				pts = append(pts, Point{
					u*u*u*p0.X + 3*u*u*s*c1.X + 3*u*s*s*c2.X + s*s*s*p3.X,
					u*u*u*p0.Y + 3*u*u*s*c1.Y + 3*u*s*s*c2.Y + s*s*s*p3.Y,
				})
			}
		}
	case "ellipse":
		cx, cy, rx, ry := num(t, attr(el, "cx")), num(t, attr(el, "cy")), num(t, attr(el, "rx")), num(t, attr(el, "ry"))
		for k := range 32 {
			a := float64(k) * math.Pi / 16
			pts = append(pts, Point{cx + rx*math.Cos(a), cy + ry*math.Sin(a)})
		}
	}
	return pts
}

// hull is the convex hull of pts, counter-clockwise in the SVG's
// coordinates (Andrew's monotone chain).
func hull(pts []Point) []Point {
	if len(pts) < 3 {
		return nil
	}
	ps := slices.Clone(pts)
	slices.SortFunc(ps, func(a, b Point) int {
		if a.X != b.X {
			return cmpF(a.X, b.X)
		}
		return cmpF(a.Y, b.Y)
	})
	var h []Point
	for pass := 0; pass < 2; pass++ {
		start := len(h)
		for _, p := range ps {
			for len(h) >= start+2 && cross(h[len(h)-2], h[len(h)-1], p) <= 0 {
				h = h[:len(h)-1]
			}
			h = append(h, p)
		}
		h = h[:len(h)-1]
		slices.Reverse(ps)
	}
	return h
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cross(o, a, b Point) float64 { return (a.X-o.X)*(b.Y-o.Y) - (a.Y-o.Y)*(b.X-o.X) }

// inside reports whether p lies in the convex hull h, within tol.
func inside(h []Point, p Point, tol float64) bool {
	for i := range h {
		a, b := h[i], h[(i+1)%len(h)]
		if cross(a, b, p) < -tol*math.Hypot(b.X-a.X, b.Y-a.Y) {
			return false
		}
	}
	return true
}

// CheckLabelsInside asserts that every text of every node and cluster
// drawn with an outline lies inside it (all four corners of the text's
// box: the shapes are convex), and that the picture's title lies within
// the picture. It returns the number of texts checked.
func CheckLabelsInside(t testing.TB, g *Geometry) int {
	t.Helper()
	checked := 0
	for _, list := range [][]Shape{{g.Graph}, g.Nodes, g.Clusters} {
		for _, s := range list {
			if len(s.Hull) == 0 {
				continue
			}
			for _, x := range s.Texts {
				b := x.Box(t)
				for _, c := range []Point{b.Min, {b.Max.X, b.Min.Y}, b.Max, {b.Min.X, b.Max.Y}} {
					if !assert.True(t, inside(s.Hull, c, 0.01), "%s: the text %q (%.1f to %.1f, %.1f to %.1f) extends past its shape", s.Name, x.S, b.Min.X, b.Max.X, b.Min.Y, b.Max.Y) {
						break
					}
				}
				checked++
			}
		}
	}
	return checked
}

// CheckEdgesClear asserts that no edge (its line or arrowhead) runs
// through a text: a label, a title, the picture's title. It returns the
// number of texts checked against the edges.
func CheckEdgesClear(t testing.TB, g *Geometry) int {
	t.Helper()
	var texts []Text
	var owners []string
	for _, list := range [][]Shape{{g.Graph}, g.Clusters, g.Nodes} {
		for _, s := range list {
			for _, x := range s.Texts {
				texts = append(texts, x)
				owners = append(owners, s.Name)
			}
		}
	}
	for i, x := range texts {
		b := x.Box(t)
		for _, e := range g.Edges {
			for _, line := range e.Lines {
				for k := 1; k < len(line); k++ {
					if segmentHits(line[k-1], line[k], b) {
						assert.Failf(t, "an edge crosses a text", "the edge %s runs through %q of %s (%.1f to %.1f, %.1f to %.1f)", e.Name, x.S, owners[i], b.Min.X, b.Max.X, b.Min.Y, b.Max.Y)
						k = len(line)
					}
				}
			}
		}
	}
	return len(texts)
}

// segmentHits reports whether the segment ab meets the inside of r
// (Liang-Barsky clipping).
func segmentHits(a, b Point, r Rect) bool {
	t0, t1 := 0.0, 1.0
	dx, dy := b.X-a.X, b.Y-a.Y
	for _, c := range [][2]float64{{-dx, a.X - r.Min.X}, {dx, r.Max.X - a.X}, {-dy, a.Y - r.Min.Y}, {dy, r.Max.Y - a.Y}} {
		p, q := c[0], c[1]
		if p == 0 {
			if q <= 0 {
				return false
			}
			continue
		}
		s := q / p
		if p < 0 {
			t0 = max(t0, s)
		} else {
			t1 = min(t1, s)
		}
	}
	return t0 < t1
}

// helvetica are Helvetica's advance widths (its AFM, thousandths of an
// em) of printable ASCII: a viewer draws the SVG's text in Helvetica or a
// font with its metrics (Arial, Liberation Sans), and the PNG shrinks the
// Go font to the width Graphviz measured with them.
var helvetica = [95]float64{
	278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
	556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
	1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
	667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
	333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
	556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
}

// helveticaLatin1 are Helvetica's AFM widths of the Latin-1 letters test
// names use.
var helveticaLatin1 = map[rune]float64{
	'Ä': 667, 'Ö': 778, 'Ü': 722, 'ß': 611, 'é': 556, 'è': 556, 'ê': 556, 'à': 556,
	'á': 556, 'â': 556, 'ä': 556, 'ö': 556, 'ü': 556, 'í': 278, 'ñ': 556, 'ç': 500,
	'Æ': 1000, 'ø': 611,
}

// notoEmojiAdvance is Noto Color Emoji's advance (2550 of 2048 units per
// em), wider than Apple's and Segoe's emoji.
const notoEmojiAdvance = 2550.0 / 2048 * 1000

// DrawnWidth is how wide a viewer draws s at size points, by tables of
// real fonts: Helvetica's AFM for ASCII and Latin-1, a full em for East
// Asian wide and fullwidth characters (every CJK font's advance), Noto
// Color Emoji's advance for emoji, nothing for combining marks, and the
// Go font's advance (the PNG's font, wider than Arial's) for the Greek and
// Cyrillic letters.
func DrawnWidth(t testing.TB, s string, size float64) float64 {
	t.Helper()
	var buf sfnt.Buffer
	w := 0.0
	for _, r := range s {
		if r >= 0x20 && r < 0x7f {
			w += helvetica[r-0x20]
			continue
		}
		if cw, ok := helveticaLatin1[r]; ok {
			w += cw
			continue
		}
		switch k := eaw.LookupRune(r).Kind(); {
		case unicode.Is(unicode.Mn, r):
		case r >= 0x1f000:
			w += notoEmojiAdvance
		case k == eaw.EastAsianWide || k == eaw.EastAsianFullwidth:
			w += 1000
		default:
			f := goFont(t)
			g, err := f.GlyphIndex(&buf, r)
			require.NoError(t, err)
			require.NotZero(t, g, "the Go font has no %q", r)
			adv, err := f.GlyphAdvance(&buf, g, fixed.I(1000), 0)
			require.NoError(t, err)
			w += float64(adv) / 64
		}
	}
	return w / 1000 * size
}

func goFont(t testing.TB) *sfnt.Font {
	f, err := sfnt.Parse(goregular.TTF)
	require.NoError(t, err)
	return f
}

// CheckInset asserts that the cluster named inset (a legend), with the
// nodes whose names start with prefix, is no wider and no taller than
// the rest of the drawing (its other clusters and nodes), and reports
// whether the picture has it.
func CheckInset(t testing.TB, g *Geometry, inset, prefix string) bool {
	t.Helper()
	var in, rest *Rect
	add := func(to **Rect, r Rect) {
		if *to != nil {
			r = (*to).Union(r)
		}
		*to = &r
	}
	for _, s := range g.Clusters {
		if s.Name == inset {
			add(&in, s.Bounds(t))
		} else {
			add(&rest, s.Bounds(t))
		}
	}
	for _, s := range g.Nodes {
		if !strings.HasPrefix(s.Name, prefix) {
			add(&rest, s.Bounds(t))
		}
	}
	if in == nil {
		return false
	}
	require.NotNil(t, rest, "a drawing beside %s", inset)
	assert.LessOrEqual(t, in.Dx(), rest.Dx(), "%s is no wider than the drawing", inset)
	assert.LessOrEqual(t, in.Dy(), rest.Dy(), "%s is no taller than the drawing", inset)
	return true
}
