package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/format/picture/picturetest"
)

// What a viewer sees in the playground's pictures, from their geometry:
// every label inside its shape (two-line topic labels included), no edge
// through a label or a sub-topology's title, and a legend no wider and no
// taller than the drawing it explains. For every group of the seed:
// overview -o svg, and describe --topology -o svg where a description is
// stored. (-o png paints the same layout, its text shrunk to the widths
// Graphviz measured.)
func TestPictureGeometry_playground(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := seedCluster(t)
	bs := bootstrap(c)
	described := map[string]bool{"word-count": true, "page-views": true, "order-audit": true, "clicks": true}
	groups := []string{"word-count", "billing", "inventory", "fraud-detector", "page-views", "order-audit", "clicks"}
	for _, group := range groups {
		views := map[string][]string{"overview": {"overview", "--group", group}}
		if described[group] {
			views["describe"] = []string{"describe", "--topology", "--group", group}
		}
		for view, args := range views {
			t.Run(group+" "+view, func(t *testing.T) {
				r := runPicture(t, append([]string{"--bootstrap-server", bs}, append(args, "-o", "svg")...)...)
				require.Equal(t, 0, r.code, r.stderr)
				g := picturetest.ParseSVG(t, []byte(r.stdout))
				assert.Positive(t, picturetest.CheckLabelsInside(t, g))
				assert.Positive(t, picturetest.CheckEdgesClear(t, g))
				checkLegendSize(t, g, view == "overview")
			})
		}
	}
}

// checkLegendSize asserts that the picture has a legend (when want) no
// wider and no taller than the drawing beside it.
func checkLegendSize(t *testing.T, g *picturetest.Geometry, want bool) {
	t.Helper()
	var legend, drawing *picturetest.Rect
	add := func(to **picturetest.Rect, r picturetest.Rect) {
		if *to == nil {
			*to = &r
			return
		}
		u := (*to).Union(r)
		*to = &u
	}
	for _, s := range g.Clusters {
		if s.Name == "cluster_legend" {
			add(&legend, s.Bounds(t))
		} else {
			add(&drawing, s.Bounds(t))
		}
	}
	for _, s := range g.Nodes {
		if !strings.HasPrefix(s.Name, "legend_") {
			add(&drawing, s.Bounds(t))
		}
	}
	require.NotNil(t, drawing)
	if !want && legend == nil {
		return
	}
	require.NotNil(t, legend, "a legend")
	assert.LessOrEqual(t, legend.Dx(), drawing.Dx(), "the legend is no wider than the drawing")
	assert.LessOrEqual(t, legend.Dy(), drawing.Dy(), "the legend is no taller than the drawing")
}
