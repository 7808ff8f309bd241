package main

import (
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
	if has := picturetest.CheckInset(t, g, "cluster_legend", "legend_"); want {
		assert.True(t, has, "a legend")
	}
}
