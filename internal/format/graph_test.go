package format

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// graphCases are the topologies every graph format is pinned on. The
// testdata/golden/internal/format/TestTopologyGraph/*.dot and *.mmd goldens
// are also rendered by Graphviz and parsed by Mermaid in CI
// (tools/graph-check).
func graphCases() map[string]*topology.Description {
	pattern := tt.Src("KSTREAM-SOURCE-0000000000", nil, "KSTREAM-MAPVALUES-0000000001")
	pattern.Pattern = "pt-input-.*"
	dynamic := tt.Sink("KSTREAM-SINK-0000000002", "")
	dynamic.Extractor = "SuffixExtractor"
	return map[string]*topology.Description{
		"repartition":              tt.WordCount(),
		"global_store":             tt.Desc([]*topology.Subtopology{tt.Sub("1", tt.Src("src", []string{"gs-input"}, "join"), tt.Proc("join", nil, "out"), tt.Sink("out", "gs-output"))}, [2]*topology.Node{tt.Src("gsrc", []string{"gs-global"}, "gproc"), tt.Proc("gproc", []string{"gs-global-store"})}),
		"pattern_and_dynamic_sink": tt.Desc([]*topology.Subtopology{tt.Sub("0", pattern, tt.Proc("KSTREAM-MAPVALUES-0000000001", nil, "KSTREAM-SINK-0000000002"), dynamic)}),
		"hostile_names": tt.Desc([]*topology.Subtopology{tt.Sub("0\"}; end",
			tt.Src("a\"b\\c#d", []string{"t\"];\nx", "<script>`"}, "p; end"),
			tt.Proc("p; end", []string{"st\x1b[31m"}, "k]"),
			tt.Sink("k]", "-->"))}),
		"empty": tt.Desc(nil),
	}
}

func TestTopologyGraph(t *testing.T) {
	for name, d := range graphCases() {
		for _, o := range []Output{Dot, Mermaid} {
			t.Run(name+"."+map[Output]string{Dot: "dot", Mermaid: "mmd"}[o], func(t *testing.T) {
				var a, b bytes.Buffer
				require.NoError(t, TopologyGraph(&a, o, "word-count", d))
				require.NoError(t, TopologyGraph(&b, o, "word-count", d))
				assert.Equal(t, a.String(), b.String(), "deterministic")
				assert.NotContains(t, a.String(), "\x1b", "no control character reaches the output")
				golden.Assert(t, a.Bytes())
			})
		}
	}
}

// A repartition topic is one node that the sink of one subtopology writes
// and the source of another reads, so the application is one graph.
func TestTopologyGraph_repartitionJoinsSubtopologies(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, TopologyDot(&b, "wc", tt.WordCount()))
	s := b.String()
	g := buildGraph(tt.WordCount())
	id := "t"
	for i, topic := range g.topics {
		if topic == "word-count-counts-repartition" {
			id += string(rune('0' + i))
		}
	}
	assert.Contains(t, s, "c0n4 -> "+id+";", "sink of sub-topology 0 writes the topic")
	assert.Contains(t, s, id+" -> c1n0;", "source of sub-topology 1 reads it")
	assert.Equal(t, 1, strings.Count(s, `label="word-count-counts-repartition"`))
}

func TestQuoting(t *testing.T) {
	assert.Equal(t, `"a\"b\\c\n\\x1B"`, dotQuote("a\"b\\c\n\x1b"))
	assert.Equal(t, `"a#quot;b#35;c<br>#lt;#gt;#96;#27;"`, mermaidQuote("a\"b#c\n<>`\x1b"))
	assert.Equal(t, `"x\\x{202E}y\\x7F\\x85`+"\uFFFD\"", dotQuote("x\u202ey\x7f\u0085\xff"))
	assert.Equal(t, `"x#8238;y#127;#133;`+"\uFFFD\"", mermaidQuote("x\u202ey\x7f\u0085\xff"))
}

// The graph layout is linear in the number of distinct topics and stores:
// 100,000 of each, which a search of the sorted list per edge takes
// minutes for, take well under a second.
func TestTopologyGraph_manyTopicsAndStores(t *testing.T) {
	const n = 100_000
	nodes := make([]*topology.Node, 0, 2*n)
	for i := range n {
		id := strconv.Itoa(i)
		nodes = append(nodes, tt.Src("src-"+id, []string{"topic-" + id}, "proc-"+id), tt.Proc("proc-"+id, []string{"store-" + id}))
	}
	d := tt.Desc([]*topology.Subtopology{tt.Sub("0", nodes...)})
	for _, o := range []Output{Dot, Mermaid} {
		start := time.Now()
		var b bytes.Buffer
		require.NoError(t, TopologyGraph(&b, o, "big", d))
		elapsed := time.Since(start)
		t.Logf("%s of %d topics and %d stores: %s, %d bytes", o, n, n, elapsed, b.Len())
	}
}

// dotQuote makes a DOT double-quoted string (writeDotQuoted).
func dotQuote(s string) string {
	var b strings.Builder
	writeDotQuoted(&b, s)
	return b.String()
}

// mermaidQuote makes a quoted Mermaid label (writeMermaidQuoted).
func mermaidQuote(s string) string {
	var b strings.Builder
	writeMermaidQuoted(&b, s)
	return b.String()
}
