package picture

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	_ "image/png"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/format/picture/picturetest"
)

const sample = `digraph "g" {
  e0 [label="ellipse"]; e1 [label="filled", style=filled, fillcolor="#ffff00"]; e0 -> e1;
  rankdir=LR;
  node [fontname="Helvetica", fontsize=11];
  subgraph cluster_c0 { label="Sub-topology: 0\n2 tasks, lag 35"; style=rounded; color="#d93025"; penwidth=3;
    c0n0 [label="source", shape=invhouse];
    c0n1 [label="count", shape=box, style=rounded];
  }
  t0 [label="input\nlag 35", shape=cds, style=filled, fillcolor="#e8f0fe"];
  s0 [label="store", shape=cylinder, style=filled, fillcolor="#fef7e0"];
  t0 -> c0n0; c0n0 -> c0n1; c0n1 -> s0 [style=dashed, arrowhead=none];
}
`

func TestGraphvizWASMChecksum(t *testing.T) {
	sum := sha256.Sum256(graphvizWASM)
	assert.Equal(t, GraphvizWASMSHA256, hex.EncodeToString(sum[:]), "graphviz.wasm changed: run scripts/graphviz-wasm.sh and update the constant and NOTICE")
}

// An SVG is one well-formed XML document with a single <svg> root that
// holds every label.
func TestRender_svg(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, Render(context.Background(), []byte(sample), SVG, &buf))
	texts := picturetest.CheckSVG(t, buf.Bytes())
	for _, label := range []string{"Sub-topology: 0", "2 tasks, lag 35", "source", "count", "lag 35", "store"} {
		assert.Contains(t, texts, label)
	}
}

// A PNG decodes, has a plausible size (2 pixels per point of the SVG's
// size) and is not blank: lines, fills and text are painted.
func TestRender_png(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, Render(context.Background(), []byte(sample), PNG, &buf))
	img, kind, err := image.Decode(&buf)
	require.NoError(t, err)
	assert.Equal(t, "png", kind)
	b := img.Bounds()
	assert.Greater(t, b.Dx(), 300)
	assert.Greater(t, b.Dy(), 100)
	assert.Less(t, b.Dx(), 4000)
	dark, red, blue := 0, 0, 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			switch {
			case c.R < 80 && c.G < 80 && c.B < 80:
				dark++
			case c.R > 200 && c.G < 80 && c.B < 80:
				red++
			case c.B > 240 && c.R > 220 && c.R < 240:
				blue++
			}
		}
	}
	assert.Greater(t, dark, 500, "outlines and text are painted")
	assert.Greater(t, red, 200, "the red cluster border is painted")
	assert.Greater(t, blue, 200, "the topic's fill is painted")
	assert.Less(t, dark, b.Dx()*b.Dy()/10, "outlined shapes are not filled black")
}

func TestRender_badDot(t *testing.T) {
	err := Render(context.Background(), []byte("digraph { a -> }"), SVG, io.Discard)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "graphviz: the DOT document does not parse")
	assert.Contains(t, err.Error(), "syntax error")
	// The runtime still works after a failure.
	require.NoError(t, Render(context.Background(), []byte(sample), SVG, io.Discard))
}

// A large drawing takes the compiled engine; the picture is the same kind.
func TestRender_largeGraphIsCompiled(t *testing.T) {
	var b strings.Builder
	b.WriteString("digraph g {\n")
	for s := range 12 {
		fmt.Fprintf(&b, "  subgraph cluster_%d { label=\"Sub-topology: %d\";\n", s, s)
		for i := range 5 {
			fmt.Fprintf(&b, "    c%dn%d [label=\"KSTREAM-PROCESSOR-%010d\", shape=box, style=rounded];\n", s, i, s*5+i)
			if i > 0 {
				fmt.Fprintf(&b, "    c%dn%d -> c%dn%d;\n", s, i-1, s, i)
			}
		}
		fmt.Fprintf(&b, "  }\n  t%d [shape=cds]; t%d -> c%dn0; c%dn4 -> t%d;\n", s, s, s, s, s+1)
	}
	b.WriteString("}\n")
	dot := []byte(b.String())
	require.Greater(t, len(dot), compileAbove)
	assert.Same(t, compiled, engineForSize(len(dot)))
	assert.Same(t, interpreted, engineForSize(len(sample)))
	var buf bytes.Buffer
	require.NoError(t, Render(context.Background(), dot, SVG, &buf))
	texts := picturetest.CheckSVG(t, buf.Bytes())
	assert.Contains(t, texts, "KSTREAM-PROCESSOR-0000000059")
}
