package format

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The overview's legend is in every drawing, in the same words: the
// title and every entry's label, each format quoting them its own way,
// and Mermaid's entries styled with the colors of the DOT legend.
func TestOverviewLegend_everyFormat(t *testing.T) {
	g := hostileOverview().Groups[0]
	var dot, mmd bytes.Buffer
	require.NoError(t, OverviewGraph(&dot, Dot, g))
	require.NoError(t, OverviewGraph(&mmd, Mermaid, g))
	var q bytes.Buffer
	for _, label := range append([]string{legendTitle}, labelsOf(legendEntries)...) {
		q.Reset()
		writeDotQuoted(&q, label)
		assert.Contains(t, dot.String(), q.String())
		q.Reset()
		writeMermaidQuoted(&q, label)
		assert.Contains(t, mmd.String(), q.String())
	}
	assert.Equal(t, 1, strings.Count(mmd.String(), "subgraph legend["), "one legend")
	for _, e := range legendEntries {
		if e.kind == legendLag {
			assert.Contains(t, dot.String(), `fillcolor="`+e.fill+`", color="`+e.color+`"`)
			assert.Contains(t, mmd.String(), "style "+e.id+" fill:"+e.fill+",stroke:"+e.color)
		}
	}
	// A topology drawing has no lag, so no legend.
	mmd.Reset()
	require.NoError(t, TopologyMermaid(&mmd, overviewDescription(g)))
	assert.NotContains(t, mmd.String(), "legend")
}

func labelsOf(es []legendEntry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.label)
	}
	return out
}
