package format

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

func render(t testing.TB, d *topology.Description) string {
	var b bytes.Buffer
	require.NoError(t, Topology(&b, d))
	return b.String()
}

// The seven cases of Kafka 4.4's TopologyDescriptionFormatterTest, with its
// expected strings verbatim: the goldens below may never drift from these.
func TestTopology_kafkaFormatterTests(t *testing.T) {
	cases := []struct {
		name string
		d    *topology.Description
		want string
	}{
		{
			name: "simple subtopology",
			d: tt.Desc([]*topology.Subtopology{tt.Sub("0",
				tt.Src("source", []string{"input"}, "processor"),
				tt.Proc("processor", []string{"store"}, "sink"),
				tt.Sink("sink", "output"))}),
			want: "Topologies:\n   Sub-topology: 0\n    Source: source (topics: [input])\n      --> processor\n    Processor: processor (stores: [store])\n      --> sink\n      <-- source\n    Sink: sink (topic: output)\n      <-- processor\n\n",
		},
		{
			name: "global store",
			d: tt.Desc(nil, [2]*topology.Node{
				tt.Src("global-source", []string{"global-topic"}, "global-processor"),
				tt.Proc("global-processor", []string{"global-store"})}),
			want: "Topologies:\n   Sub-topology: 0 for global store (will not generate tasks)\n    Source: global-source (topics: [global-topic])\n      --> global-processor\n    Processor: global-processor (stores: [global-store])\n      --> none\n      <-- global-source\n\n",
		},
		{
			name: "multiple global stores are separated by blank line",
			d: tt.Desc(nil,
				[2]*topology.Node{tt.Src("global-source-0", []string{"topic-0"}, "global-processor-0"), tt.Proc("global-processor-0", []string{"store-0"})},
				[2]*topology.Node{tt.Src("global-source-1", []string{"topic-1"}, "global-processor-1"), tt.Proc("global-processor-1", []string{"store-1"})}),
			want: "Topologies:\n" +
				"   Sub-topology: 0 for global store (will not generate tasks)\n    Source: global-source-0 (topics: [topic-0])\n      --> global-processor-0\n    Processor: global-processor-0 (stores: [store-0])\n      --> none\n      <-- global-source-0\n\n" +
				"   Sub-topology: 1 for global store (will not generate tasks)\n    Source: global-source-1 (topics: [topic-1])\n      --> global-processor-1\n    Processor: global-processor-1 (stores: [store-1])\n      --> none\n      <-- global-source-1\n\n",
		},
		{
			name: "multiple subtopologies are indented consistently",
			d: tt.Desc([]*topology.Subtopology{
				tt.Sub("0", tt.Src("source-0", []string{"input-0"})),
				tt.Sub("1", tt.Src("source-1", []string{"input-1"}))}),
			want: "Topologies:\n   Sub-topology: 0\n    Source: source-0 (topics: [input-0])\n      --> none\n\n   Sub-topology: 1\n    Source: source-1 (topics: [input-1])\n      --> none\n\n",
		},
		{
			name: "empty successors and predecessors render as none",
			d:    tt.Desc([]*topology.Subtopology{tt.Sub("0", tt.Proc("processor", []string{"store"}))}),
			want: "Topologies:\n   Sub-topology: 0\n    Processor: processor (stores: [store])\n      --> none\n      <-- none\n\n",
		},
		{
			name: "empty topology has no trailing space",
			d:    tt.Desc(nil),
			want: "Topologies:\n",
		},
		{
			name: "sink without topic and multiple successors",
			d: tt.Desc([]*topology.Subtopology{tt.Sub("0",
				tt.Src("source", []string{"t2", "t1"}, "p2", "p1", "sink"),
				tt.Sink("sink", ""))}),
			// Kafka's test builds the source with successors {p2, p1} only;
			// here "sink" is a successor too so that its predecessor is
			// rebuilt from the wire relation, as it is in production.
			want: "Topologies:\n   Sub-topology: 0\n    Source: source (topics: [t1, t2])\n      --> p1, p2, sink\n    Sink: sink (topic: null)\n      <-- source\n\n",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := render(t, c.d)
			assert.Equal(t, c.want, got)
			golden.Assert(t, []byte(got))
		})
	}
}

// Rules beyond Kafka's own tests, each pinned by a golden file.
func TestTopology_rules(t *testing.T) {
	cases := []struct {
		name string
		d    *topology.Description
	}{
		{name: "word count with global store", d: tt.WordCount()},
		{
			name: "wire order is never re-sorted",
			d: tt.Desc([]*topology.Subtopology{
				tt.Sub("10", tt.Src("z", []string{"t"}, "a"), tt.Proc("a", nil)),
				tt.Sub("2", tt.Src("b", []string{"t2"})),
			}),
		},
		{
			name: "sets are sorted and de-duplicated",
			d: tt.Desc([]*topology.Subtopology{tt.Sub("0",
				tt.Src("src", []string{"b", "a", "b", "B", "_"}, "p", "p", "Z"),
				tt.Proc("p", []string{"s2", "s1", "s2"}, "Z"),
				tt.Proc("Z", nil))}),
		},
		{
			name: "successor outside the subtopology",
			d: tt.Desc([]*topology.Subtopology{
				tt.Sub("0", tt.Src("src", []string{"in"}, "elsewhere"), tt.Proc("p", nil, "src")),
			}),
		},
		{
			name: "pattern source and dynamic sink",
			d: tt.Desc([]*topology.Subtopology{tt.Sub("0",
				tt.Src("KSTREAM-SOURCE-0000000000", nil, "KSTREAM-SINK-0000000001"),
				tt.Sink("KSTREAM-SINK-0000000001", ""))}),
		},
		{
			name: "subtopology without nodes",
			d:    tt.Desc([]*topology.Subtopology{tt.Sub("0")}),
		},
		{
			name: "global stores numbered after subtopologies",
			d: tt.Desc([]*topology.Subtopology{tt.Sub("5", tt.Src("s", []string{"t"}))},
				[2]*topology.Node{tt.Src("gs", []string{"g"}, "gp"), tt.Proc("gp", []string{"store"})}),
		},
		{
			name: "java string order for non ascii",
			d: tt.Desc([]*topology.Subtopology{tt.Sub("0",
				tt.Proc("p", []string{"\U0001F600-emoji", "\uFF5E-fullwidth", "é", "z"}))}),
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			golden.Assert(t, []byte(render(t, c.d)))
		})
	}
}

func TestJavaCompare(t *testing.T) {
	tests := []struct {
		a, b string
		want int // sign
	}{
		{"a", "b", -1},
		{"b", "a", 1},
		{"a", "a", 0},
		{"a", "ab", -1},
		{"B", "a", -1},
		// U+1F600 is the surrogate pair D83D DE00 in UTF-16, which sorts
		// before U+FF5E; Go's byte order says the opposite.
		{"\U0001F600", "\uFF5E", -1},
		{"\uFF5E", "\U0001F600", 1},
		{"\U0001F600", "\U0001F601", -1},
		{"é", "z", 1},
	}
	for _, tc := range tests {
		got := JavaCompare(tc.a, tc.b)
		switch {
		case tc.want < 0:
			assert.Negative(t, got, "%q < %q", tc.a, tc.b)
		case tc.want > 0:
			assert.Positive(t, got, "%q > %q", tc.a, tc.b)
		default:
			assert.Zero(t, got)
		}
	}
}

func BenchmarkTopology100k(b *testing.B) {
	d := tt.Large(100_000)
	b.ReportAllocs()
	var n int64
	for b.Loop() {
		var buf bytes.Buffer
		if err := Topology(&buf, d); err != nil {
			b.Fatal(err)
		}
		n = int64(buf.Len())
	}
	b.SetBytes(n)
	b.ReportMetric(float64(tt.NodeCount(d)), "nodes")
}

// javaCompareRunes is JavaCompare's definition: rune by rune from the
// start, by UTF-16 code unit.
func javaCompareRunes(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			if ua, ub := firstUnit(ra), firstUnit(rb); ua != ub {
				return int(ua) - int(ub)
			}
			return int(secondUnit(ra)) - int(secondUnit(rb))
		}
		a, b = a[na:], b[nb:]
	}
	return len(a) - len(b)
}

// JavaCompare's shortcut from the first differing byte agrees with the
// rune-by-rune definition, on valid and invalid UTF-8 alike.
func TestJavaCompare_matchesTheDefinition(t *testing.T) {
	pieces := []string{"a", "b", "z", "é", "è", "\uffff", "\ue000", "\U0001F600", "\U00010000", "\xff", "\xc3", "\x80", "\xe2\x82", "日", ""}
	r := rand.New(rand.NewPCG(3, 4))
	gen := func() string {
		var b strings.Builder
		for range r.IntN(6) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	sign := func(x int) int { return min(max(x, -1), 1) }
	for range 200_000 {
		a, b := gen(), gen()
		if r.IntN(2) == 0 {
			b = a + b
		}
		if got, want := sign(JavaCompare(a, b)), sign(javaCompareRunes(a, b)); got != want {
			t.Fatalf("JavaCompare(%q, %q) = %d, want %d", a, b, got, want)
		}
	}
}
