package format

import (
	"bytes"
	"context"
	"fmt"
	"image"
	_ "image/png"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/format/picture/picturetest"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// chained is tt.Generated(n) with each sub-topology's sink writing the
// next one's source topic: one connected graph.
func chained(n int) *topology.Description {
	d := tt.Generated(n, 0, "input")
	for i, s := range d.Subtopologies {
		t := fmt.Sprintf("input-%d", i+1)
		s.Nodes[len(s.Nodes)-1].Topic = &t
	}
	return d
}

// The parts of a graph are its connected components: sub-topologies
// joined by a topic they share are one part, and every vertex and edge of
// the whole document is in exactly one part's document.
func TestGraphParts(t *testing.T) {
	d := tt.Large(50) // 5 sub-topologies on their own
	d.Subtopologies = append(d.Subtopologies, chained(3).Subtopologies...)
	g := buildGraph(d)
	p := g.parts()
	require.Len(t, p.size, 6, "5 alone, 3 chained")
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5, 5, 5}, p.cluster)
	var whole bytes.Buffer
	require.NoError(t, writeDot(&whole, "g", g))
	var lines []string
	bufs := make([]bytes.Buffer, len(p.size))
	ws := make([]*graphWriter, len(p.size))
	for k := range ws {
		ws[k] = newGraphWriter(&bufs[k])
	}
	require.NoError(t, writeDotParts(ws, "g", g, p))
	for _, b := range bufs {
		for _, l := range strings.Split(b.String(), "\n") {
			if strings.HasPrefix(l, "  ") && !strings.Contains(l, "rankdir") && !strings.HasPrefix(l, "  node [") && !strings.HasPrefix(l, "  edge [") {
				lines = append(lines, l)
			}
		}
	}
	var want []string
	for _, l := range strings.Split(whole.String(), "\n") {
		if strings.HasPrefix(l, "  ") && !strings.Contains(l, "rankdir") && !strings.HasPrefix(l, "  node [") && !strings.HasPrefix(l, "  edge [") {
			want = append(want, l)
		}
	}
	slices.Sort(lines)
	slices.Sort(want)
	assert.Equal(t, want, lines)
}

// Past the limits no layout starts: the error names the limit and -o dot.
func TestDrawPicture_tooLarge(t *testing.T) {
	for name, d := range map[string]*topology.Description{
		"all":       tt.Large(12_000), // 25,248 boxes
		"connected": chained(250),     // 2,251 boxes in one part
	} {
		t.Run(name, func(t *testing.T) {
			for _, o := range []Output{SVG, PNG} {
				var b bytes.Buffer
				err := TopologyGraphContext(context.Background(), &b, o, "t", d)
				var pe *PictureTooLargeError
				require.ErrorAs(t, err, &pe)
				assert.Contains(t, err.Error(), "-o dot")
				assert.Zero(t, b.Len())
			}
		})
	}
}

// A large drawing is laid out by part and packed: one SVG document with
// every sub-topology's label and unique ids, and a PNG that decodes.
func TestDrawPicture_packed(t *testing.T) {
	d := tt.Large(400) // 40 parts, 840 boxes
	var svg bytes.Buffer
	require.NoError(t, TopologyGraphContext(context.Background(), &svg, SVG, "t", d))
	texts := picturetest.CheckSVG(t, svg.Bytes())
	for _, s := range d.Subtopologies {
		assert.Contains(t, texts, "Sub-topology: "+s.ID)
	}
	ids := map[string]bool{}
	for _, m := range strings.Split(svg.String(), ` id="`)[1:] {
		id := m[:strings.IndexByte(m, '"')]
		assert.False(t, ids[id], "id %s twice", id)
		ids[id] = true
	}
	var png bytes.Buffer
	require.NoError(t, TopologyGraphContext(context.Background(), &png, PNG, "t", d))
	img, _, err := image.Decode(&png)
	require.NoError(t, err)
	assert.Greater(t, img.Bounds().Dx(), 1000)
	assert.Greater(t, img.Bounds().Dy(), 1000, "parts are packed in rows, not in one strip")
}

// A cancelled context ends a picture before or between layouts.
func TestDrawPicture_cancelled(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(assert.AnError)
	err := TopologyGraphContext(ctx, &bytes.Buffer{}, SVG, "t", tt.Large(400))
	assert.ErrorIs(t, err, assert.AnError)
}
