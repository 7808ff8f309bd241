package picture

// Large drawings. Graphviz's dot layout costs more than linear time and
// memory in the size of the graph (1,000 sub-topologies of 10 nodes took
// 38 s and 719 MB), so a large drawing comes as parts, its connected
// components, each laid out on its own (one instance, one Graphviz
// context), and placed here on shelves: left to right in their order, a
// new row when the row would pass a width that makes the whole picture
// about as wide as it is tall (never narrower than the widest part). A
// title part, when there is one, takes the first row by itself. The SVG
// is the parts' SVG documents, each in a group moved to its place with
// its ids prefixed (p<k>_) so that they stay unique; the PNG paints each
// part's xdot operations at its place.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"sync"
)

// gap is the space between two parts, in points.
const gap = 18.0

// place is where a part goes, in points from the top left corner.
type place struct{ x, y, w, h float64 }

// shelves places parts of the given sizes; the first one alone in its row
// when titled. It returns the places and the size of the whole.
func shelves(sizes [][2]float64, titled bool) ([]place, float64, float64) {
	var area, widest float64
	for _, s := range sizes {
		area += (s[0] + gap) * (s[1] + gap)
		widest = max(widest, s[0])
	}
	width := max(widest, math.Sqrt(area))
	places := make([]place, len(sizes))
	var x, y, rowH, totalW float64
	for i, s := range sizes {
		if x > 0 && (x+s[0] > width || titled && i == 1) {
			x, y, rowH = 0, y+rowH+gap, 0
		}
		places[i] = place{x, y, s[0], s[1]}
		x += s[0] + gap
		rowH = max(rowH, s[1])
		totalW = max(totalW, x-gap)
	}
	return places, totalW, y + rowH
}

// RenderParts lays out each DOT document of parts and writes them packed
// as one SVG document or PNG image; with titled, the first part is the
// title (a graph with a label only) and takes the first row. One part is
// Render.
func RenderParts(ctx context.Context, parts [][]byte, titled bool, f Format, w io.Writer) error {
	if len(parts) == 1 {
		return Render(ctx, parts[0], f, w)
	}
	switch f {
	case SVG:
		svgs, err := graphvizAll(ctx, parts, recSVG)
		if err != nil {
			return err
		}
		return packSVG(svgs, titled, w)
	case PNG:
		js, err := graphvizAll(ctx, parts, recPNG)
		if err != nil {
			return err
		}
		return packPNG(ctx, js, titled, w)
	}
	return fmt.Errorf("unknown picture format %d", f)
}

var svgViewBox = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`viewBox="([-0-9.]+) ([-0-9.]+) ([0-9.]+) ([0-9.]+)"`)
})

// writePrefixedIDs writes body to b with prefix put in front of the value
// of every id attribute (an `id="` not preceded by a word character, as
// the regexp \bid=" finds it; a scan, because the regexp took a tenth of
// the CPU time of a 10,000-node SVG).
func writePrefixedIDs(b *bufio.Writer, body []byte, prefix string) {
	attr := []byte(`id="`)
	for {
		i := bytes.Index(body, attr)
		if i < 0 {
			b.Write(body)
			return
		}
		b.Write(body[:i+len(attr)])
		if i == 0 || !isWordByte(body[i-1]) {
			b.WriteString(prefix)
		}
		body = body[i+len(attr):]
	}
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// svgPart is a part's SVG: its size in points and what its <svg> element
// holds.
type svgPart struct {
	w, h float64
	body []byte
}

func parseSVGPart(svg []byte) (svgPart, error) {
	open := bytes.Index(svg, []byte("<svg"))
	end := bytes.LastIndex(svg, []byte("</svg>"))
	if open < 0 || end < open {
		return svgPart{}, fmt.Errorf("graphviz -Tsvg: no <svg> element")
	}
	tagEnd := bytes.IndexByte(svg[open:], '>')
	m := svgViewBox().FindSubmatch(svg[open : open+tagEnd])
	if tagEnd < 0 || m == nil {
		return svgPart{}, fmt.Errorf("graphviz -Tsvg: no viewBox")
	}
	w, err1 := strconv.ParseFloat(string(m[3]), 64)
	h, err2 := strconv.ParseFloat(string(m[4]), 64)
	if err1 != nil || err2 != nil {
		return svgPart{}, fmt.Errorf("graphviz -Tsvg: viewBox %q", m[0])
	}
	return svgPart{w: w, h: h, body: svg[open+tagEnd+1 : end]}, nil
}

func packSVG(drawings []drawing, titled bool, w io.Writer) error {
	svgs := make([][]byte, len(drawings))
	for i, d := range drawings {
		svgs[i] = d.svg()
	}
	parts := make([]svgPart, len(svgs))
	sizes := make([][2]float64, len(svgs))
	for i, s := range svgs {
		p, err := parseSVGPart(s)
		if err != nil {
			return err
		}
		parts[i], sizes[i] = p, [2]float64{p.w, p.h}
	}
	places, width, height := shelves(sizes, titled)
	// Written as it goes: the whole picture is never held twice.
	b := bufio.NewWriterSize(w, 64<<10)
	// Graphviz's prologue (XML declaration, doctype, comment), then one
	// <svg> of the whole size on a white ground.
	b.Write(svgs[0][:bytes.Index(svgs[0], []byte("<svg"))])
	_, _ = fmt.Fprintf(b, "<svg width=\"%.0fpt\" height=\"%.0fpt\"\n viewBox=\"0.00 0.00 %.2f %.2f\" xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n",
		width, height, width, height)
	_, _ = fmt.Fprintf(b, "<rect x=\"0\" y=\"0\" width=\"%.2f\" height=\"%.2f\" fill=\"white\" stroke=\"none\"/>\n", width, height)
	for i, p := range parts {
		_, _ = fmt.Fprintf(b, "<g id=\"p%d\" transform=\"translate(%.2f %.2f)\">", i, places[i].x, places[i].y)
		writePrefixedIDs(b, p.body, "p"+strconv.Itoa(i)+"_")
		b.WriteString("</g>\n")
		parts[i], drawings[i] = svgPart{}, drawing{}
		if i > 0 {
			svgs[i] = nil
		}
	}
	b.WriteString("</svg>\n")
	return b.Flush()
}

func packPNG(ctx context.Context, drawings []drawing, titled bool, w io.Writer) error {
	parts := make([]pngPart, len(drawings))
	sizes := make([][2]float64, len(drawings))
	for i, d := range drawings {
		p, err := d.pngPart()
		if err != nil {
			return err
		}
		parts[i], sizes[i] = p, [2]float64{p.w - 2*margin, p.h - 2*margin}
	}
	places, width, height := shelves(sizes, titled)
	scale, pw, ph, err := canvasSize(width+2*margin, height+2*margin, maxPackedPixels)
	if err != nil {
		return err
	}
	// One band per row of parts: a part's pixels, margins included, lie
	// within its row's (the gap between rows is wider than two margins).
	var starts []int
	var rows [][]int
	for i, pl := range places {
		if i == 0 || pl.y != places[i-1].y {
			starts = append(starts, int(math.Floor(pl.y*scale)))
			rows = append(rows, nil)
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], i)
	}
	starts[0] = 0
	return paintBands(ctx, w, pw, ph, starts, scale, func(row int, p *painter) error {
		for _, i := range rows[row] {
			part, pl := parts[i], places[i]
			// Graph coordinates of the picture's top left corner, as
			// the part is placed.
			p.x0, p.top = part.x0-pl.x, part.top+pl.y
			if err := part.paint(p); err != nil {
				return err
			}
			parts[i], drawings[i] = pngPart{}, drawing{}
		}
		return nil
	})
}

// maxPackedPixels bounds the canvas of a packed drawing: hundreds of
// parts are a map to find one's way in (the SVG is the one to read), and
// clearing, blending and compressing its pixels is most of the time a
// PNG takes after the layout (the canvas is held a band at a time).
const maxPackedPixels = 16 << 20
