package format

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/format/picture/picturetest"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// Every label fits its shape whatever characters the names hold: CJK,
// accented Latin, Cyrillic, Greek, emoji, combining marks and a mix, in
// the topology picture (every node kind) and in the overview's (its
// topics carry a lag line, the title the group's name, which must fit the
// picture), and no edge runs through a label or a title. Graphviz without fonts sizes a non-ASCII byte as a space
// (e2e/FINDINGS.md F532, F600), so before the text layout plugin every
// case but the combining marks' failed (their bytes outweigh the marks).
func TestPictureSVG_labelsFitTheirShapes_anyScript(t *testing.T) {
	cases := map[string]string{
		"CJK":             "注文集計プロセッサ名前",
		"Latin-1":         "ÄÖÜßéèêàáâ-Zähler-Größe",
		"Cyrillic":        "Пример-обработчик-ЖШЩЮ",
		"Greek":           "ΕΠΕΞΕΡΓΑΣΤΗΣ-Ωμέγα-ΑΒΓΔΩ",
		"emoji":           "📦🚀🔥🎉📦🚀🔥🎉-orders",
		"combining marks": "e\u0301te\u0301-cafe\u0301-n\u0303o",
		"mix":             "订单订单-Ärger-ЗАКАЗ-ΩΜΕΓΑ-🚀🚀",
	}
	for name, word := range cases {
		t.Run(name, func(t *testing.T) {
			long := strings.Repeat(word+"-", 3) + "0000000042"
			nodes := []*topology.Node{
				tt.Src("source-"+long, []string{"topic-" + long, "t"}, "p-"+long),
				tt.Proc("p-"+long, []string{"store-" + long}, word),
				tt.Proc(word, nil, "sink-"+long),
				tt.Sink("sink-"+long, "out-"+long),
			}
			// A second sub-topology reading what the first writes, and a
			// global store: short names under long titles, the edges
			// entering them from above.
			second := []*topology.Node{tt.Src("s", []string{"out-" + long}, "x"), tt.Sink("x", word)}
			global := [2]*topology.Node{tt.Src("g", []string{"global-" + word}, "gp"), tt.Proc("gp", []string{"global-store"})}
			d := tt.Desc([]*topology.Subtopology{tt.Sub("0", nodes...), tt.Sub("1", second...)}, global)
			var svg bytes.Buffer
			require.NoError(t, TopologyGraphContext(context.Background(), &svg, SVG, "t", d))
			checkPicture(t, svg.Bytes(), 8+3+4)

			g := &overview.Group{Group: "group-" + long, State: "Stable", DescriptionStatus: topology.Available, Lag: 1234567,
				GlobalStores: d.GlobalStores,
				Subtopologies: []*overview.Subtopology{{ID: "0", Nodes: nodes, Lag: 1234567,
					Sources: []overview.Source{{Topic: "topic-" + long, Lag: 1234567}, {Topic: "t"}}},
					{ID: "1", Nodes: second, Sources: []overview.Source{{Topic: "out-" + long}}}}}
			svg.Reset()
			require.NoError(t, OverviewGraphContext(context.Background(), &svg, SVG, g))
			checkPicture(t, svg.Bytes(), 11+3+4)

			// Short independent sub-topologies, drawn left to right.
			var subs []*topology.Subtopology
			for i := range 6 {
				n := strconv.Itoa(i)
				subs = append(subs, tt.Sub(n, tt.Src(word+n, []string{"in-" + word + n}, "o"+n), tt.Sink("o"+n, "out-"+word+n)))
			}
			d = tt.Desc(subs)
			gr := buildGraph(d)
			require.Equal(t, "LR", gr.direction())
			svg.Reset()
			require.NoError(t, TopologyGraphContext(context.Background(), &svg, SVG, "t", d))
			checkPicture(t, svg.Bytes(), 6*4)
		})
	}
}

// checkPicture checks an SVG's geometry: every text inside its shape
// (at least `least` texts: the labels, lag lines and titles the test
// expects), no edge through a text, a legend no larger than the drawing.
func checkPicture(t *testing.T, svg []byte, least int) {
	t.Helper()
	g := picturetest.ParseSVG(t, svg)
	assert.GreaterOrEqual(t, picturetest.CheckLabelsInside(t, g), least, "the labels were checked")
	assert.GreaterOrEqual(t, picturetest.CheckEdgesClear(t, g), least, "the labels were checked against the edges")
	picturetest.CheckInset(t, g, "cluster_legend", "legend_")
}
