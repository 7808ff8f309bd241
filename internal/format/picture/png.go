package picture

// PNG painting. Graphviz's -Tjson output carries every object's drawing as
// xdot 1.7 operations (_draw_, _ldraw_, _hdraw_, _tdraw_, _hldraw_,
// _tldraw_), in points with y growing upwards inside the graph's bounding
// box. They are painted in Graphviz's order (the graph, its clusters, the
// edges, the nodes) at 2 pixels per point (less for a large picture: see
// maxPixels) on a white canvas, one band of rows at a time. Filled shapes
// are filled with the fill color and outlined with the pen color; unfilled
// ones are only outlined. Filled are E, P and, in Graphviz 12.1.2's -Tjson
// (unlike its -Txdot and the xdot specification), B: its json writer swaps
// the two B-spline letters (e2e/FINDINGS.md F181). Text uses the Go Regular
// font whatever the face asked, aligned at Graphviz's anchor and shrunk
// where it is wider than the width Graphviz measured (textWidth's for a
// line that is not ASCII); a character the Go fonts lack (CJK, emoji) is
// an outlined box as wide as textWidth has it. Images (I) are not
// painted.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"io"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// pixelsPerPoint is the PNG's scale: 144 dpi.
const pixelsPerPoint = 2.0

// maxPixels bounds the canvas (4 bytes each): a larger drawing is scaled
// down to fit.
const maxPixels = 32 << 20

// margin is the white border around the drawing, in points.
const margin = 4.0

type gvJSON struct {
	BB          string     `json:"bb"`
	Draw        []xdotOp   `json:"_draw_"`
	LDraw       []xdotOp   `json:"_ldraw_"`
	SubgraphCnt int        `json:"_subgraph_cnt"`
	Objects     []gvObject `json:"objects"`
	Edges       []gvObject `json:"edges"`
}

type gvObject struct {
	Draw   []xdotOp `json:"_draw_"`
	LDraw  []xdotOp `json:"_ldraw_"`
	HDraw  []xdotOp `json:"_hdraw_"`
	TDraw  []xdotOp `json:"_tdraw_"`
	HLDraw []xdotOp `json:"_hldraw_"`
	TLDraw []xdotOp `json:"_tldraw_"`
}

type xdotOp struct {
	Op       string       `json:"op"`
	Color    string       `json:"color"`
	Grad     string       `json:"grad"`
	Stops    []xdotStop   `json:"stops"`
	Points   [][2]float64 `json:"points"`
	Rect     []float64    `json:"rect"`
	Pt       []float64    `json:"pt"`
	Align    string       `json:"align"`
	Text     string       `json:"text"`
	Width    float64      `json:"width"`
	Size     float64      `json:"size"`
	Face     string       `json:"face"`
	Style    string       `json:"style"`
	Fontchar int          `json:"fontchar"`
}

type xdotStop struct {
	Color string `json:"color"`
}

// painter holds the state of the xdot operations: colors, font, style.
type painter struct {
	cv         canvas
	scale      float64
	x0, top    float64 // graph coordinates of the picture's origin (top left)
	band       float64 // points from the picture's top to the canvas's
	pen, fill  color.Color
	fontSize   float64
	bold       bool
	lineWidth  float64
	dash       []float64
	faces      map[string]font.Face
	fontsReady struct{ regular, bold *opentype.Font }
}

func paintPNG(ctx context.Context, d drawing, w io.Writer) error {
	part, err := d.pngPart()
	if err != nil {
		return err
	}
	scale, width, height, err := canvasSize(part.w, part.h, maxPixels)
	if err != nil {
		return err
	}
	return paintBands(ctx, w, width, height, []int{0}, scale, func(_ int, p *painter) error {
		p.x0, p.top = part.x0, part.top
		return part.paint(p)
	})
}

// pngPart is a drawing to paint: its canvas size in points (its margin
// included), the graph coordinates of the canvas's top left corner, and
// how to paint it at the painter's x0 and top.
type pngPart struct {
	w, h, x0, top float64
	paint         func(*painter) error
}

// pngPart reads a recording, or Graphviz's -Tjson: only its bounding
// box until it is painted, so that a thousand parts are never held
// decoded.
func (d drawing) pngPart() (pngPart, error) {
	if r := d.rec; r != nil {
		return pngPart{w: r.w, h: r.h, x0: r.x0, top: r.top, paint: func(p *painter) error {
			p.run(r.ops)
			return nil
		}}, nil
	}
	var head struct {
		BB string `json:"bb"`
	}
	if err := json.Unmarshal(d.data, &head); err != nil {
		return pngPart{}, fmt.Errorf("graphviz -Tjson: %w", err)
	}
	bb, err := parseBB(head.BB)
	if err != nil {
		return pngPart{}, err
	}
	js := d.data
	return pngPart{w: bb[2] - bb[0] + 2*margin, h: bb[3] - bb[1] + 2*margin, x0: bb[0] - margin, top: bb[3] + margin,
		paint: func(p *painter) error {
			var g gvJSON
			if err := json.Unmarshal(js, &g); err != nil {
				return fmt.Errorf("graphviz -Tjson: %w", err)
			}
			p.paint(g)
			return nil
		}}, nil
}

// svg is the drawing's SVG document.
func (d drawing) svg() []byte {
	if d.rec != nil {
		return d.rec.svg.Bytes()
	}
	return d.data
}

// canvasSize is the scale (pixels per point) and the pixel size of a
// canvas of wPt by hPt points: pixelsPerPoint, or less where that would
// pass limit pixels.
func canvasSize(wPt, hPt float64, limit float64) (scale float64, width, height int, err error) {
	scale = pixelsPerPoint
	if px := wPt * hPt * scale * scale; px > limit {
		scale *= math.Sqrt(limit / px)
	}
	width, height = int(math.Ceil(wPt*scale)), int(math.Ceil(hPt*scale))
	if width < 1 || height < 1 {
		return 0, 0, 0, errors.New("graphviz -Tjson: an empty drawing")
	}
	return scale, width, height, nil
}

// newPainter is a painter at scale pixels per point, with no canvas yet.
func newPainter(scale float64) (*painter, error) {
	p := &painter{scale: scale, pen: color.Black, fill: color.Black, fontSize: 14, lineWidth: 1, faces: map[string]font.Face{}}
	if err := p.loadFonts(); err != nil {
		return nil, err
	}
	return p, nil
}

// paintBands paints and writes a PNG image of width by height pixels in
// bands of rows, band i starting at row starts[i]: paint paints band i
// on the painter, whose canvas is the band (white) and whose y origin
// the band's first row (x0 and top are paint's to set). Bands are
// painted and compressed side by side, one goroutine per CPU (at most
// maxInstances), and written in order; at most two per goroutine are
// held at once. It stops between bands once ctx is done.
func paintBands(ctx context.Context, w io.Writer, width, height int, starts []int, scale float64, paint func(i int, p *painter) error) error {
	n := len(starts)
	workers := min(runtime.GOMAXPROCS(0), maxInstances, n)
	pw := newPNGWriter(w, width, height)
	bp := &bandPainter{ctx: ctx, width: width, height: height, starts: starts, scale: scale, paint: paint,
		results: make([]chan bandResult, n), tokens: make(chan struct{}, 2*workers), stop: make(chan struct{})}
	for i := range bp.results {
		bp.results[i] = make(chan bandResult, 1)
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bp.work()
		}()
	}
	var err error
	for i := range n {
		r := <-bp.results[i]
		<-bp.tokens
		if r.err != nil {
			err = r.err
			break
		}
		pw.band(r.band)
	}
	close(bp.stop)
	wg.Wait()
	if err != nil {
		return err
	}
	return pw.close()
}

// bandResult is a band painted and compressed, or why not.
type bandResult struct {
	band pngBand
	err  error
}

// bandPainter is paintBands' state shared by its workers: a token per
// band held (two per worker), the next band to take, each band's result.
type bandPainter struct {
	ctx           context.Context
	width, height int
	starts        []int
	scale         float64
	paint         func(i int, p *painter) error
	results       []chan bandResult
	tokens        chan struct{}
	stop          chan struct{}
	next          atomic.Int64
}

// work paints bands until there are none left or paintBands stops.
func (bp *bandPainter) work() {
	p, perr := newPainter(bp.scale)
	var enc bandEncoder
	var pix []byte
	for {
		select {
		case bp.tokens <- struct{}{}:
		case <-bp.stop:
			return
		}
		i := int(bp.next.Add(1) - 1)
		if i >= len(bp.starts) {
			return
		}
		switch {
		case perr != nil:
			bp.results[i] <- bandResult{err: perr}
		case bp.ctx.Err() != nil:
			bp.results[i] <- bandResult{err: context.Cause(bp.ctx)}
		default:
			bp.results[i] <- bp.band(i, p, &enc, &pix)
		}
	}
}

// band paints band i on a white canvas in *pix (grown as needed) and
// compresses it.
func (bp *bandPainter) band(i int, p *painter, enc *bandEncoder, pix *[]byte) bandResult {
	end := bp.height
	if i+1 < len(bp.starts) {
		end = bp.starts[i+1]
	}
	size := 4 * bp.width * (end - bp.starts[i])
	if cap(*pix) < size {
		*pix = make([]byte, size)
	}
	*pix = (*pix)[:size]
	white(*pix)
	img := &image.RGBA{Pix: *pix, Stride: 4 * bp.width, Rect: image.Rect(0, 0, bp.width, end-bp.starts[i])}
	p.cv.img = img
	p.band = float64(bp.starts[i]) / bp.scale
	r := bandResult{err: bp.paint(i, p)}
	if r.err == nil {
		r.band, r.err = enc.encode(img)
	}
	return r
}

// white sets every byte of pix to 0xff: an opaque white canvas.
func white(pix []byte) {
	if len(pix) == 0 {
		return
	}
	pix[0] = 0xff
	for n := 1; n < len(pix); n *= 2 {
		copy(pix[n:], pix[:n])
	}
}

// paint paints one laid-out graph at the painter's x0 and top.
func (p *painter) paint(g gvJSON) {
	p.run(drawOps(g.Draw))
	p.run(drawOps(g.LDraw))
	for i, o := range g.Objects {
		if i < g.SubgraphCnt {
			p.object(o)
		}
	}
	for _, e := range g.Edges {
		p.object(e)
	}
	for i, o := range g.Objects {
		if i >= g.SubgraphCnt {
			p.object(o)
		}
	}
}

func parseBB(s string) ([4]float64, error) {
	var bb [4]float64
	parts := strings.Split(s, ",")
	if len(parts) != 4 {
		return bb, fmt.Errorf("graphviz -Tjson: bounding box %q", s)
	}
	for i, part := range parts {
		v, err := strconv.ParseFloat(part, 64)
		if err != nil {
			return bb, fmt.Errorf("graphviz -Tjson: bounding box %q", s)
		}
		bb[i] = v
	}
	return bb, nil
}

func (p *painter) loadFonts() error {
	var err error
	if p.fontsReady.regular, err = opentype.Parse(goregular.TTF); err != nil {
		return err
	}
	p.fontsReady.bold, err = opentype.Parse(gobold.TTF)
	return err
}

func (p *painter) object(o gvObject) {
	for _, ops := range [][]xdotOp{o.Draw, o.HDraw, o.TDraw, o.LDraw, o.HLDraw, o.TLDraw} {
		p.run(drawOps(ops))
	}
}

// drawOp is one xdot operation as the painter reads it, compact: a
// large picture's recordings are all held until they are painted.
type drawOp struct {
	op    byte
	align byte         // T: 'l', 'c' or 'r'
	s     string       // c, C: the color; S: the style; T: the text
	pts   [][2]float64 // P, p, L, B, b: the points
	x, y  float64      // E: the center; T: the anchor
	a, b  float64      // E: the radii; T: a: the width; F: a: the size; t: a: the font flags
}

// drawOps are -Tjson's operations as the painter reads them (a gradient
// as its first stop).
func drawOps(ops []xdotOp) []drawOp {
	out := make([]drawOp, 0, len(ops))
	for _, o := range ops {
		if o.Op == "" {
			continue
		}
		d := drawOp{op: o.Op[0]}
		switch d.op {
		case 'c', 'C':
			d.s = o.Color
			if o.Grad != "" && o.Grad != "none" && len(o.Stops) > 0 {
				d.s = o.Stops[0].Color
			}
		case 'S':
			d.s = o.Style
		case 'F':
			d.a = o.Size
		case 't':
			d.a = float64(o.Fontchar)
		case 'E', 'e':
			if len(o.Rect) != 4 {
				continue
			}
			d.x, d.y, d.a, d.b = o.Rect[0], o.Rect[1], o.Rect[2], o.Rect[3]
		case 'P', 'p', 'L', 'B', 'b':
			d.pts = o.Points
		case 'T':
			if len(o.Pt) < 2 {
				continue
			}
			d.x, d.y, d.a, d.s, d.align = o.Pt[0], o.Pt[1], o.Width, o.Text, 'c'
			if o.Align == "l" || o.Align == "r" {
				d.align = o.Align[0]
			}
		}
		out = append(out, d)
	}
	return out
}

// x and y map graph points to canvas pixels.
func (p *painter) x(v float64) float64 { return (v - p.x0) * p.scale }
func (p *painter) y(v float64) float64 { return (p.top - v - p.band) * p.scale }

func (p *painter) run(ops []drawOp) {
	// Every attribute's operations start from the defaults.
	p.pen, p.fill, p.lineWidth, p.dash, p.bold = color.Black, color.Black, 1, nil, false
	for _, op := range ops {
		switch op.op {
		case 'c':
			p.pen = parseColor(op.s)
		case 'C':
			p.fill = parseColor(op.s)
		case 'S':
			p.style(op.s)
		case 'F':
			p.fontSize = op.a
		case 't':
			p.bold = int(op.a)&1 != 0
		case 'E', 'e':
			poly := ellipse(p.x(op.x), p.y(op.y), op.a*p.scale, op.b*p.scale)
			p.finish(poly, op.op == 'E', true)
		case 'P', 'p', 'L':
			if len(op.pts) > 0 {
				line := make([]pt, len(op.pts))
				for i, q := range op.pts {
					line[i] = pt{p.x(q[0]), p.y(q[1])}
				}
				p.finish(line, op.op == 'P', op.op != 'L')
			}
		case 'B', 'b':
			if len(op.pts) >= 4 {
				line := []pt{{p.x(op.pts[0][0]), p.y(op.pts[0][1])}}
				for i := 1; i+2 < len(op.pts); i += 3 {
					a, b, c := op.pts[i], op.pts[i+1], op.pts[i+2]
					line = cubic(line, line[len(line)-1], pt{p.x(a[0]), p.y(a[1])}, pt{p.x(b[0]), p.y(b[1])}, pt{p.x(c[0]), p.y(c[1])})
				}
				p.finish(line, op.op == 'B', op.op == 'B')
			}
		case 'T':
			p.text(op)
		}
	}
}

// finish fills (with the fill color) and strokes (with the pen) the
// polyline, closed or not.
func (p *painter) finish(line []pt, filled, closed bool) {
	if filled && len(line) > 2 && visible(p.fill) {
		p.cv.fill([][]pt{line}, p.fill)
	}
	if !visible(p.pen) {
		return
	}
	lines := [][]pt{line}
	if len(p.dash) > 0 {
		lines = dashed(lines, closed, p.dash)
		closed = false
	}
	p.cv.stroke(lines, closed, p.lineWidth*p.scale, p.pen)
}

// visible is whether painting c changes anything.
func visible(c color.Color) bool {
	_, _, _, a := c.RGBA()
	return a != 0
}

func (p *painter) style(s string) {
	switch {
	case s == "dashed":
		p.dash = []float64{5 * p.scale, 2 * p.scale}
	case s == "dotted":
		p.dash = []float64{1 * p.scale, 3 * p.scale}
	case s == "solid":
		p.dash = nil
	case s == "bold":
		p.lineWidth = 2
	case strings.HasPrefix(s, "setlinewidth(") && strings.HasSuffix(s, ")"):
		if v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimPrefix(s, "setlinewidth("), ")"), 64); err == nil {
			p.lineWidth = v
		}
	}
}

func (p *painter) text(op drawOp) {
	if op.s == "" {
		return
	}
	face := p.face(p.fontSize)
	if face == nil {
		return
	}
	// Graphviz measured the text with its own font metrics (op.Width);
	// the Go font is shrunk where it would be wider than that.
	if want := op.a * p.scale; want > 0 {
		if got := float64(font.MeasureString(face, op.s)) / 64; got > want {
			if f := p.face(p.fontSize * want / got); f != nil {
				face = f
			}
		}
	}
	ax := 0.5
	switch op.align {
	case 'l':
		ax = 0
	case 'r':
		ax = 1
	}
	// What gg's DrawStringAnchored does, without its bilinear transform
	// of every glyph (the matrix is the identity here): the glyphs'
	// masks drawn at their places.
	x := p.x(op.x) - ax*float64(font.MeasureString(face, op.s))/64
	d := font.Drawer{Dst: p.cv.img, Src: image.NewUniform(p.pen), Face: face,
		Dot: fixed.Point26_6{X: fixed.Int26_6(math.Round(x * 64)), Y: fixed.Int26_6(math.Round(p.y(op.y) * 64))}}
	d.DrawString(op.s)
}

// glyphCache is a face that keeps the masks of the glyphs it drew, by
// rune and the dot's fraction of a pixel: labels repeat their letters,
// and rasterizing a glyph costs far more than copying its mask.
type glyphCache struct {
	font.Face
	glyphs map[glyphKey]glyph
	// font is the face's font and ppem its size in pixels: a character
	// the Go fonts lack (CJK, emoji) is drawn as an outlined box as wide
	// as textWidth has it, where the face would draw nothing.
	font *sfnt.Font
	buf  sfnt.Buffer
	ppem float64
}

// lacks reports whether the font has no glyph for r.
func (c *glyphCache) lacks(r rune) bool {
	if c.font == nil || r < 0x80 {
		return false
	}
	g, err := c.font.GlyphIndex(&c.buf, r)
	return err == nil && g == 0
}

// boxAdvance is the advance of r's box: its width in the layout.
func (c *glyphCache) boxAdvance(r rune) fixed.Int26_6 {
	return fixed.Int26_6(math.Round(float64(runeWidth(r)) / 1000 * c.ppem * 64))
}

func (c *glyphCache) GlyphAdvance(r rune) (fixed.Int26_6, bool) {
	if c.lacks(r) {
		return c.boxAdvance(r), true
	}
	return c.Face.GlyphAdvance(r)
}

// box is the glyph of a character the font lacks: an outline a tenth of
// its advance in from each side, from the baseline to 0.7 em above it.
func (c *glyphCache) box(r rune) glyph {
	adv := c.boxAdvance(r)
	w := adv.Round()
	pad := max(1, w/10)
	h := int(math.Round(0.7 * c.ppem))
	if w-2*pad < 2 || h < 2 {
		return glyph{advance: adv, ok: true}
	}
	m := image.NewAlpha(image.Rect(0, 0, w-2*pad, h))
	line := max(1, int(math.Round(c.ppem/16)))
	for y := range h {
		for x := range w - 2*pad {
			if x < line || y < line || x >= w-2*pad-line || y >= h-line {
				m.Pix[y*m.Stride+x] = 0xff
			}
		}
	}
	return glyph{dr: image.Rect(pad, -h, w-pad, 0), mask: m, advance: adv, ok: true}
}

type glyphKey struct {
	r    rune
	x, y fixed.Int26_6
}

type glyph struct {
	dr      image.Rectangle
	mask    *image.Alpha
	maskp   image.Point
	advance fixed.Int26_6
	ok      bool
}

func (c *glyphCache) Glyph(dot fixed.Point26_6, r rune) (image.Rectangle, image.Image, image.Point, fixed.Int26_6, bool) {
	// The dot at a quarter of a pixel across and a whole pixel down (a
	// baseline on the pixel grid, as hinting puts it): otherwise nearly
	// every glyph drawn is at a fraction of its own, rasterized anew.
	dot.X = (dot.X + 8) &^ 15
	dot.Y = (dot.Y + 32) &^ 63
	whole := image.Pt(dot.X.Floor(), dot.Y.Floor())
	k := glyphKey{r, dot.X - fixed.I(whole.X), dot.Y - fixed.I(whole.Y)}
	g, hit := c.glyphs[k]
	if !hit && c.lacks(r) {
		g, hit = c.box(r), true
		c.glyphs[k] = g
	}
	if !hit {
		dr, mask, maskp, advance, ok := c.Face.Glyph(fixed.Point26_6{X: k.x, Y: k.y}, r)
		g = glyph{dr: dr, maskp: image.Point{}, advance: advance, ok: ok}
		if ok && !dr.Empty() {
			// The face reuses its mask: keep a copy of the glyph's part.
			g.mask = image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
			draw.Draw(g.mask, g.mask.Rect, mask, maskp, draw.Src)
		}
		c.glyphs[k] = g
	}
	if g.mask == nil {
		return g.dr.Add(whole), image.Transparent, image.Point{}, g.advance, g.ok
	}
	return g.dr.Add(whole), g.mask, g.maskp, g.advance, g.ok
}

// face is the Go font at size points (bold when the text is), cached.
func (p *painter) face(size float64) font.Face {
	key := strconv.FormatFloat(size, 'f', 2, 64) + strconv.FormatBool(p.bold)
	if face, ok := p.faces[key]; ok {
		return face
	}
	f := p.fontsReady.regular
	if p.bold {
		f = p.fontsReady.bold
	}
	// Graphviz sizes are points; at 72 dpi a point is a pixel, then scaled.
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size * p.scale, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil
	}
	cached := &glyphCache{Face: face, glyphs: map[glyphKey]glyph{}, font: f, ppem: size * p.scale}
	p.faces[key] = cached
	return cached
}

// parseColor reads an xdot color: #rrggbb or #rrggbbaa (Graphviz writes
// resolved colors so).
func parseColor(s string) color.Color {
	s = strings.TrimPrefix(s, "#")
	if len(s) != 6 && len(s) != 8 {
		return color.Black
	}
	v, err := strconv.ParseUint(s, 16, 32)
	if err != nil {
		return color.Black
	}
	if len(s) == 6 {
		return color.NRGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}
	}
	return color.NRGBA{R: uint8(v >> 24), G: uint8(v >> 16), B: uint8(v >> 8), A: uint8(v)}
}
