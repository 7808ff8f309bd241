package picture

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recordSamples are DOT documents in the forms the format package writes
// (sub-topologies, topics, stores, overview colors and pen widths, a
// title-only part), and a few more of Graphviz's features.
var recordSamples = map[string]string{
	"sample": sample,
	"part": `digraph "g" {
  rankdir=LR;
  node [fontname="Helvetica", fontsize=11];
  edge [fontname="Helvetica", fontsize=9];
  subgraph cluster_c5 {
    label="Sub-topology: 5";
    style=rounded;
    color="#f29900";
    penwidth=2.5;
    c5n0 [label="KSTREAM-SOURCE-0000000000", shape=invhouse];
    c5n1 [label="KSTREAM-AGGREGATE-0000000001", shape=box, style=rounded];
    c5n2 [label="KSTREAM-SINK-0000000002", shape=house];
  }
  t1 [label="input\nlag 12, 4m12s", shape=cds, style=filled, fillcolor="#e8f0fe"];
  t2 [label="out-5", shape=cds, style=filled, fillcolor="#e8f0fe"];
  s1 [label="store-5-1", shape=cylinder, style=filled, fillcolor="#fef7e0"];
  t1 -> c5n0;
  c5n0 -> c5n1;
  c5n1 -> s1 [style=dashed, arrowhead=none];
  c5n1 -> c5n2;
  c5n2 -> t2;
}
`,
	"title": "digraph \"topology\" {\n  label=\"Group: g & h <1>\";\n  labelloc=t;\n  fontname=\"Helvetica\";\n}\n",
	"features": `digraph "a--b" {
  graph [bgcolor="#ffffff80"];
  a [label="a & b < c \"q\"  two  spaces &amp; 'x' ü\u200b", style="filled,bold", fillcolor="#ff000080", color=red, fontcolor="#0000ff"];
  b [shape=ellipse, style=dotted, penwidth=0.5];
  c [shape=point];
  d [shape=doublecircle, style=filled, fillcolor=white];
  a -> b [label="edge\nlabel", color="#00000080", penwidth=2];
  b -> c [style=dotted, dir=both, arrowtail=diamond];
  c -> d [arrowhead=vee, color=transparent];
  d -> a [style=invis];
  subgraph cluster_x { label="left\l"; style="filled,dashed"; fillcolor=lightgrey; e; f [shape=box3d]; e -> f; }
}
`,
}

// The recording renderer writes, for every sample, the bytes Graphviz's
// own SVG writer writes.
func TestRecordedSVGIsGraphvizSVG(t *testing.T) {
	for name, dot := range recordSamples {
		t.Run(name, func(t *testing.T) {
			want, err := graphviz(context.Background(), []byte(dot), "svg")
			require.NoError(t, err)
			got, err := graphviz(context.Background(), []byte(dot), recSVG)
			require.NoError(t, err)
			require.NotNil(t, got.rec, "recorded, not drawn by Graphviz's writer")
			assert.Equal(t, string(want.data), string(got.svg()))
		})
	}
}

// What the recorder does not write is written by Graphviz's writer.
func TestRecordedSVG_unsupportedFallsBack(t *testing.T) {
	for name, dot := range map[string]string{
		"link":     `digraph { a [URL="https://example.com", tooltip="t"]; a -> b; }`,
		"gradient": `digraph { a [style=filled, fillcolor="red:blue"]; }`,
		"class":    `digraph { a [class="x"]; }`,
	} {
		t.Run(name, func(t *testing.T) {
			want, err := graphviz(context.Background(), []byte(dot), "svg")
			require.NoError(t, err)
			got, err := graphviz(context.Background(), []byte(dot), recSVG)
			require.NoError(t, err)
			assert.Nil(t, got.rec)
			assert.Equal(t, string(want.data), string(got.svg()))
			png, err := graphviz(context.Background(), []byte(dot), recPNG)
			require.NoError(t, err)
			assert.Nil(t, png.rec)
			assert.Contains(t, string(png.data), `"_draw_"`, "Graphviz's -Tjson")
		})
	}
}

// The recorded PNG paints what the -Tjson drawing paints: the same size
// and nearly every pixel alike (the recording paints in the SVG's order,
// nodes and edges interleaved, where -Tjson lists edges before nodes).
func TestRecordedPNGPaintsAsJSON(t *testing.T) {
	for name, dot := range recordSamples {
		t.Run(name, func(t *testing.T) {
			js, err := graphviz(context.Background(), []byte(dot), "json")
			require.NoError(t, err)
			rec, err := graphviz(context.Background(), []byte(dot), recPNG)
			require.NoError(t, err)
			require.NotNil(t, rec.rec)
			var a, b bytes.Buffer
			require.NoError(t, paintPNG(context.Background(), js, &a))
			require.NoError(t, paintPNG(context.Background(), rec, &b))
			ia, _, err := image.Decode(&a)
			require.NoError(t, err)
			ib, _, err := image.Decode(&b)
			require.NoError(t, err)
			require.Equal(t, ia.Bounds(), ib.Bounds())
			differ := 0
			r := ia.Bounds()
			for y := r.Min.Y; y < r.Max.Y; y++ {
				for x := r.Min.X; x < r.Max.X; x++ {
					ca := color.NRGBAModel.Convert(ia.At(x, y)).(color.NRGBA)
					cb := color.NRGBAModel.Convert(ib.At(x, y)).(color.NRGBA)
					if absDiff(ca.R, cb.R)+absDiff(ca.G, cb.G)+absDiff(ca.B, cb.B) > 48 {
						differ++
					}
				}
			}
			assert.Less(t, differ, r.Dx()*r.Dy()/200, "at most 0.5%% of the pixels differ")
		})
	}
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}
