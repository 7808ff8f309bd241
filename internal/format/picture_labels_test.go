package format

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/format/picture/picturetest"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// Every label of a drawing fits its shape in the SVG: long names, of the
// widest and of the narrowest letters, as processors, sources, sinks,
// topics and stores. Each text element, at the width Helvetica gives it
// and its height, lies within its node's outline, and no edge runs
// through a text.
func TestPictureSVG_labelsFitTheirShapes(t *testing.T) {
	long := strings.Repeat("KSTREAM-AGGREGATE-", 6) + "0000000042"
	wide := strings.Repeat("WM", 30)
	narrow := strings.Repeat("il", 40)
	d := tt.Desc([]*topology.Subtopology{
		tt.Sub("0",
			tt.Src("source-"+long, []string{"topic-" + wide, "t"}, "p-"+long),
			tt.Proc("p-"+long, []string{"store-" + long}, wide),
			tt.Proc(wide, []string{"store-" + narrow}, narrow),
			tt.Proc(narrow, nil, "sink-"+wide),
			tt.Sink("sink-"+wide, "out-"+long)),
	})
	var svg bytes.Buffer
	require.NoError(t, TopologyGraphContext(context.Background(), &svg, SVG, "t", d))
	g := picturetest.ParseSVG(t, svg.Bytes())
	assert.GreaterOrEqual(t, picturetest.CheckLabelsInside(t, g), 10, "every node's label was checked")
	picturetest.CheckEdgesClear(t, g)
}
