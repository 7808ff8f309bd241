package picture

// Filling and stroking paths on the canvas, with x/image/vector's
// rasterizer over each shape's bounding box. A stroke is its segments as
// quadrilaterals of the line's width (all wound the same way, so where
// they overlap they cover once), each made longer by half the width at a
// joint so that corners close as a miter does; ends are butt ends, as
// SVG's default. A long outline is rasterized in pieces whose boxes stay
// small: the cost of a pass is its box's area. fogleman/gg's stroker
// (round caps and joins as curves, a path allocated per stroke) took most
// of a large picture's painting time.

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/vector"
)

// pt is a point in canvas pixels.
type pt struct{ x, y float64 }

// canvas is a band of the picture being painted and its rasterizer.
type canvas struct {
	img  *image.RGBA
	z    vector.Rasterizer
	mask []byte
	// Buffers of strokeLine.
	left, right, poly []pt
}

// box is the pixel rectangle of points grown by pad, within the canvas.
func (cv *canvas) box(pad float64, polys ...[]pt) image.Rectangle {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, poly := range polys {
		for _, q := range poly {
			minX, maxX = min(minX, q.x), max(maxX, q.x)
			minY, maxY = min(minY, q.y), max(maxY, q.y)
		}
	}
	if minX > maxX {
		return image.Rectangle{}
	}
	r := image.Rect(int(math.Floor(minX-pad)), int(math.Floor(minY-pad)), int(math.Ceil(maxX+pad))+1, int(math.Ceil(maxY+pad))+1)
	return r.Intersect(cv.img.Rect)
}

// fill fills the closed polygons with c (the nonzero rule).
func (cv *canvas) fill(polys [][]pt, c color.Color) {
	r := cv.box(0, polys...)
	if r.Empty() {
		return
	}
	cv.z.Reset(r.Dx(), r.Dy())
	ox, oy := float64(r.Min.X), float64(r.Min.Y)
	for _, poly := range polys {
		if len(poly) < 3 {
			continue
		}
		cv.z.MoveTo(float32(poly[0].x-ox), float32(poly[0].y-oy))
		for _, q := range poly[1:] {
			cv.z.LineTo(float32(q.x-ox), float32(q.y-oy))
		}
		cv.z.ClosePath()
	}
	cv.paint(r, c)
}

// strokePieceArea is the box area (pixels) up to which consecutive
// segments of a stroke are rasterized in one pass.
const strokePieceArea = 4096

// miterLimit is SVG's default: a sharper corner is bevelled.
const miterLimit = 4.0

// stroke strokes the polylines with c at width pixels; a closed polyline
// joins its last point to its first.
func (cv *canvas) stroke(lines [][]pt, closed bool, width float64, c color.Color) {
	if width <= 0 {
		return
	}
	for _, line := range lines {
		cv.strokeLine(line, closed, width/2, c)
	}
}

// strokeLine strokes one polyline: the outline of each piece is the
// line's offsets to the left, then back along its offsets to the right,
// with miter joins (so that where a curve's short segments meet nothing
// is covered twice: a thin line's partial coverage would darken there).
func (cv *canvas) strokeLine(in []pt, closed bool, hw float64, c color.Color) {
	line, closed := strokePath(in, closed)
	if line == nil {
		return
	}
	segs := len(line) - 1
	o := strokeOffsets{line: line, closed: closed, hw: hw}
	offsets := o.at
	// left holds the piece's left offsets forward, right its right
	// offsets forward; the outline is left, then right backwards.
	left, right := cv.left[:0], cv.right[:0]
	var bound image.Rectangle
	flush := func() {
		if len(left) > 0 {
			poly := append(cv.poly[:0], left...)
			for i := len(right) - 1; i >= 0; i-- {
				poly = append(poly, right[i])
			}
			cv.poly = poly
			cv.polys([][]pt{poly}, bound, c)
		}
		left, right, bound = left[:0], right[:0], image.Rectangle{}
	}
	l0, r0, m0 := offsets(0)
	for k := 1; k <= segs; k++ {
		l1, r1, m1 := offsets(k)
		r := cv.box(0, l0[:m0], r0[:m0], l1[:m1], r1[:m1])
		if u := bound.Union(r); len(left) > 0 && u.Dx()*u.Dy() > strokePieceArea {
			flush()
		}
		if len(left) == 0 {
			left = append(left, l0[:m0]...)
			right = append(right, r0[:m0]...)
		}
		left = append(left, l1[:m1]...)
		right = append(right, r1[:m1]...)
		bound = bound.Union(r)
		l0, r0, m0 = l1, r1, m1
	}
	flush()
	cv.left, cv.right = left, right
}

// strokePath is the polyline to stroke: repeated points dropped, and a
// closed one (of more than two points) ending at its first point again;
// nil for fewer than two points.
func strokePath(in []pt, closed bool) ([]pt, bool) {
	line := make([]pt, 0, len(in)+1)
	for _, q := range in {
		if len(line) == 0 || q != line[len(line)-1] {
			line = append(line, q)
		}
	}
	if closed && len(line) > 2 && line[0] == line[len(line)-1] {
		line = line[:len(line)-1]
	}
	if len(line) < 2 {
		return nil, false
	}
	closed = closed && len(line) > 2
	if closed {
		line = append(line, line[0])
	}
	return line, closed
}

// strokeOffsets are the offsets of a polyline's vertices hw to each side.
type strokeOffsets struct {
	line   []pt
	closed bool
	hw     float64
}

// normal is the left normal of segment i, hw long.
func (o strokeOffsets) normal(i int) pt {
	a, b := o.line[i], o.line[i+1]
	l := math.Hypot(b.x-a.x, b.y-a.y)
	return pt{-(b.y - a.y) / l * o.hw, (b.x - a.x) / l * o.hw}
}

// at is the offsets of vertex k: one point each side, or two where the
// corner is bevelled.
func (o strokeOffsets) at(k int) (left, right [2]pt, m int) {
	v, segs, hw := o.line[k], len(o.line)-1, o.hw
	var in, out pt
	switch {
	case k == 0 && !o.closed:
		in = o.normal(0)
		out = in
	case k == segs && !o.closed:
		in = o.normal(segs - 1)
		out = in
	default:
		i := k - 1
		if k == 0 || k == segs {
			i = segs - 1
		}
		next := k
		if k == segs {
			next = 0
		}
		in, out = o.normal(i), o.normal(next)
	}
	mv := pt{in.x + out.x, in.y + out.y}
	ml := math.Hypot(mv.x, mv.y)
	// cos of half the turn: the miter is hw / cos long.
	cos := ml / (2 * hw)
	if ml == 0 || cos < 1/miterLimit {
		return [2]pt{{v.x + in.x, v.y + in.y}, {v.x + out.x, v.y + out.y}},
			[2]pt{{v.x - in.x, v.y - in.y}, {v.x - out.x, v.y - out.y}}, 2
	}
	f := hw / cos / ml
	return [2]pt{{v.x + mv.x*f, v.y + mv.y*f}}, [2]pt{{v.x - mv.x*f, v.y - mv.y*f}}, 1
}

// polys fills polygons within r with c.
func (cv *canvas) polys(polys [][]pt, r image.Rectangle, c color.Color) {
	cv.z.Reset(r.Dx(), r.Dy())
	ox, oy := float32(r.Min.X), float32(r.Min.Y)
	for _, q := range polys {
		cv.z.MoveTo(float32(q[0].x)-ox, float32(q[0].y)-oy)
		for _, p := range q[1:] {
			cv.z.LineTo(float32(p.x)-ox, float32(p.y)-oy)
		}
		cv.z.ClosePath()
	}
	cv.paint(r, c)
}

// paint lays c over the canvas within r through the rasterizer's
// coverage (vector's own RGBA path blends every pixel of the box; most
// of a stroke's box is not covered).
func (cv *canvas) paint(r image.Rectangle, c color.Color) {
	w, h := r.Dx(), r.Dy()
	if cap(cv.mask) < w*h {
		cv.mask = make([]byte, w*h)
	}
	mask := &image.Alpha{Pix: cv.mask[:w*h], Stride: w, Rect: image.Rect(0, 0, w, h)}
	cv.z.DrawOp = draw.Src
	cv.z.Draw(mask, mask.Rect, image.Opaque, image.Point{})
	sr, sg, sb, sa := c.RGBA()
	for y := range h {
		row := mask.Pix[y*w : (y+1)*w]
		pix := cv.img.Pix[cv.img.PixOffset(r.Min.X, r.Min.Y+y):]
		for x, m := range row {
			if m == 0 {
				continue
			}
			i := 4 * x
			if m == 0xff && sa == 0xffff {
				pix[i], pix[i+1], pix[i+2], pix[i+3] = uint8(sr>>8), uint8(sg>>8), uint8(sb>>8), 0xff
				continue
			}
			// vector's formula for a uniform source over RGBA.
			ma := uint32(m) * 0x101
			a := 0xffff - sa*ma/0xffff
			pix[i] = uint8((uint32(pix[i])*0x101*a + sr*ma) / 0xffff >> 8)
			pix[i+1] = uint8((uint32(pix[i+1])*0x101*a + sg*ma) / 0xffff >> 8)
			pix[i+2] = uint8((uint32(pix[i+2])*0x101*a + sb*ma) / 0xffff >> 8)
			pix[i+3] = uint8((uint32(pix[i+3])*0x101*a + sa*ma) / 0xffff >> 8)
		}
	}
}

// dashed cuts polylines into their dashes: on and off lengths in pixels,
// alternating, starting on.
func dashed(lines [][]pt, closed bool, pattern []float64) [][]pt {
	total := 0.0
	for _, d := range pattern {
		total += d
	}
	if total <= 0 {
		return lines
	}
	var out [][]pt
	for _, line := range lines {
		if closed && len(line) > 2 {
			line = append(line[:len(line):len(line)], line[0])
		}
		k, left := 0, pattern[0]
		var cur []pt
		if len(line) > 0 {
			cur = []pt{line[0]}
		}
		for i := 0; i+1 < len(line); i++ {
			a, b := line[i], line[i+1]
			l := math.Hypot(b.x-a.x, b.y-a.y)
			pos := 0.0
			for l-pos > left {
				pos += left
				t := pos / l
				p := pt{a.x + (b.x-a.x)*t, a.y + (b.y-a.y)*t}
				if k%2 == 0 {
					out = append(out, append(cur, p))
					cur = nil
				} else {
					cur = []pt{p}
				}
				k = (k + 1) % len(pattern)
				left = pattern[k]
			}
			left -= l - pos
			if k%2 == 0 {
				cur = append(cur, b)
			}
		}
		if k%2 == 0 && len(cur) > 1 {
			out = append(out, cur)
		}
	}
	return out
}

// cubic appends the flattening of the cubic Bézier curve from p0 (the
// last point of line) through p1, p2 to p3, to within a fifth of a pixel.
func cubic(line []pt, p0, p1, p2, p3 pt) []pt {
	dd := max(math.Hypot(p0.x-2*p1.x+p2.x, p0.y-2*p1.y+p2.y), math.Hypot(p1.x-2*p2.x+p3.x, p1.y-2*p2.y+p3.y))
	n := int(math.Ceil(math.Sqrt(0.75 * dd / 0.2)))
	n = min(max(n, 1), 64)
	for i := 1; i <= n; i++ {
		t := float64(i) / float64(n)
		s := 1 - t
		a, b, c, d := s*s*s, 3*s*s*t, 3*s*t*t, t*t*t
		line = append(line, pt{a*p0.x + b*p1.x + c*p2.x + d*p3.x, a*p0.y + b*p1.y + c*p2.y + d*p3.y})
	}
	return line
}

// ellipse is the polygon of the ellipse at (cx, cy) with radii rx, ry,
// its sides short enough to stay within a fifth of a pixel.
func ellipse(cx, cy, rx, ry float64) []pt {
	r := max(math.Abs(rx), math.Abs(ry))
	n := 8
	if r > 0.2 {
		n = int(math.Ceil(math.Pi / math.Acos(1-0.2/r)))
	}
	n = min(max(n, 8), 256)
	poly := make([]pt, n)
	for i := range poly {
		a := 2 * math.Pi * float64(i) / float64(n)
		poly[i] = pt{cx + rx*math.Cos(a), cy + ry*math.Sin(a)}
	}
	return poly
}
