package picture

import (
	"context"
	"fmt"
	"io"
)

// Format is a picture format.
type Format int

// The picture formats.
const (
	SVG Format = iota
	PNG
)

// Render lays dot out with Graphviz's dot layout and writes it to w as an
// SVG document or a PNG image. A DOT document Graphviz cannot read is an
// error naming what Graphviz said.
func Render(ctx context.Context, dot []byte, f Format, w io.Writer) error {
	switch f {
	case SVG:
		// Graphviz's own writer: a small picture's bytes stay what
		// Graphviz writes, whatever the recorder does not write.
		svg, err := graphviz(ctx, dot, "svg")
		if err != nil {
			return err
		}
		_, err = w.Write(svg.data)
		return err
	case PNG:
		d, err := graphviz(ctx, dot, recPNG)
		if err != nil {
			return err
		}
		return paintPNG(ctx, d, w)
	}
	return fmt.Errorf("unknown picture format %d", f)
}
