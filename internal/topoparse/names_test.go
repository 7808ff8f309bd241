package topoparse

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/diff"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// sameModel asserts that got is want: names, kinds, topics, stores and the
// successor and predecessor sets (the text sorts them).
func sameModel(t testing.TB, want, got *topology.Description) {
	t.Helper()
	norm := func(d *topology.Description) *topology.Description {
		nodes := func(ns []*topology.Node) []*topology.Node {
			out := make([]*topology.Node, len(ns))
			for i, n := range ns {
				c := *n
				c.Topics, c.Stores = format.SortedSet(orEmpty(c.Topics)), format.SortedSet(orEmpty(c.Stores))
				c.Successors, c.Predecessors = format.SortedSet(orEmpty(c.Successors)), format.SortedSet(orEmpty(c.Predecessors))
				out[i] = &c
			}
			return out
		}
		o := &topology.Description{Subtopologies: []*topology.Subtopology{}, GlobalStores: []*topology.GlobalStore{}}
		for _, s := range d.Subtopologies {
			o.Subtopologies = append(o.Subtopologies, &topology.Subtopology{ID: s.ID, Nodes: nodes(s.Nodes)})
		}
		for _, g := range d.GlobalStores {
			ns := nodes([]*topology.Node{g.Source, g.Processor})
			o.GlobalStores = append(o.GlobalStores, &topology.GlobalStore{ID: g.ID, Source: ns[0], Processor: ns[1]})
		}
		return o
	}
	if !assert.Equal(t, dump(norm(want)), dump(norm(got))) {
		t.FailNow()
	}
}

// roundTrip checks that d reads back from its text, its JSON and its YAML
// as itself, that the text read back is the same text, and that diff finds
// nothing between d and what its text reads back as.
func roundTrip(t testing.TB, d *topology.Description) {
	t.Helper()
	shown := text(t, d)
	got, err := Parse([]byte(shown))
	require.NoError(t, err, shown)
	sameModel(t, d, got)
	require.Equal(t, shown, text(t, got))
	c, err := diff.CompareContext(context.Background(), diff.Input{Description: d}, diff.Input{Description: got})
	require.NoError(t, err)
	require.True(t, c.Identical(), "diff of a topology and its own text: %+v", c.Findings)
	for _, o := range []format.Output{format.JSON, format.YAML} {
		if !validUTF8(d) {
			break // JSON and YAML write a byte that is not UTF-8 as U+FFFD
		}
		var b bytes.Buffer
		require.NoError(t, format.Encode(&b, o, format.NewTopologyDoc(d)))
		got, err := Parse(b.Bytes())
		require.NoError(t, err, string(o))
		sameModel(t, d, got)
	}
	for _, o := range []format.Output{format.Dot, format.Mermaid} {
		require.NoError(t, format.TopologyGraph(&bytes.Buffer{}, o, "g", d))
	}
}

// A list of names read against the names the block defines: a name holding
// ", " is one successor, told from two by the other end's "<--" line
// (FINDINGS F330).
func TestParse_namesHoldingTheSeparator(t *testing.T) {
	cases := map[string]*topology.Description{
		"one name": tt.Desc([]*topology.Subtopology{tt.Sub("0",
			tt.Src("s", []string{"t"}, "a, b"), tt.Proc("a, b", nil, "k"), tt.Proc("a", nil), tt.Proc("b", nil), tt.Sink("k", "o"))}),
		"two names": tt.Desc([]*topology.Subtopology{tt.Sub("0",
			tt.Src("s", []string{"t"}, "a", "b"), tt.Proc("a, b", nil, "k"), tt.Proc("a", nil), tt.Proc("b", nil), tt.Sink("k", "o"))}),
		"all three": tt.Desc([]*topology.Subtopology{tt.Sub("0",
			tt.Src("s", []string{"t"}, "a", "b", "a, b"), tt.Proc("a, b", nil, "k"), tt.Proc("a", nil, "k"), tt.Proc("b", nil), tt.Sink("k", "o"))}),
		"overlapping names": tt.Desc([]*topology.Subtopology{tt.Sub("0",
			tt.Src("s", []string{"t"}, "a", "b, c"), tt.Proc("a, b", nil), tt.Proc("a", nil), tt.Proc("b, c", nil), tt.Proc("c", nil))}),
		"processor api names": tt.Desc([]*topology.Subtopology{tt.Sub("0",
			tt.Src(`src: "in"`, []string{"t"}, "[x, y]", `"q": r`), tt.Proc("[x, y]", []string{"st:1"}, "k, "), tt.Proc(`"q": r`, nil, "k, "), tt.Sink("k, ", "o"))}),
		"a node named none": tt.Desc([]*topology.Subtopology{tt.Sub("0",
			tt.Src("s", []string{"t"}, "none"), tt.Proc("none", nil), tt.Proc("p", nil))}),
		"a node named none, unreached": tt.Desc([]*topology.Subtopology{tt.Sub("0",
			tt.Src("s", []string{"t"}), tt.Proc("none", nil), tt.Src("r", []string{"u"}, "none"))}),
		"the empty name": tt.Desc([]*topology.Subtopology{tt.Sub("",
			tt.Src("", []string{"t"}, ""), tt.Src("s", []string{"u"}, "", "k"), tt.Sink("k", "o"))}),
		"escapes and separators": tt.Desc([]*topology.Subtopology{tt.Sub("0\u200b",
			tt.Src("s\x1b[2J", []string{"t\u202e"}, "a\u200b, b", `a\nb`), tt.Proc("a\u200b, b", []string{"st\x00"}), tt.Proc(`a\nb`, nil), tt.Proc("a\u200b", nil))},
			[2]*topology.Node{tt.Src("g, s", []string{"g"}, "g, p"), tt.Proc("g, p", []string{"gs"})}),
	}
	for name, d := range cases {
		t.Run(name, func(t *testing.T) { roundTrip(t, d) })
	}
}

// Store names are not defined anywhere in the text: one holding ", " reads
// as two, as Kafka's text shows it (README, FINDINGS F331).
func TestParse_storeHoldingTheSeparatorReadsSplit(t *testing.T) {
	d := tt.Desc([]*topology.Subtopology{tt.Sub("0", tt.Src("s", []string{"t"}, "p"), tt.Proc("p", []string{"a, b"}))})
	got, err := Parse([]byte(text(t, d)))
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, got.Subtopologies[0].Nodes[1].Stores)
	assert.Equal(t, text(t, d), text(t, got), "the text is the same")
}

// A made-up text costs at most the work budget: past it, lines are split
// plainly, and the text still parses.
func TestParse_resolveBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("Topologies:\n   Sub-topology: 0\n    Source: s (topics: [t])\n      --> ")
	b.WriteString(strings.Repeat("a, ", 20000) + "a")
	b.WriteString("\n    Processor: " + strings.Repeat("a, ", 20000) + "b (stores: [])\n      --> none\n      <-- s\n")
	d, err := Parse([]byte(b.String()))
	require.NoError(t, err)
	assert.NotEmpty(t, d.Subtopologies[0].Nodes[0].Successors)
}

// FuzzRoundTripNames: for any names, a topology reads back from its text
// (and its JSON and YAML) as itself, its text is a fixpoint, and diff of the
// topology against its own text finds nothing. Node names are anything;
// topic and store names are anything but ", " and " (" (Kafka's topic names
// hold neither; a store holding ", " reads split, F331) and not empty (an
// empty list and a list of the empty name print alike).
func FuzzRoundTripNames(f *testing.F) {
	seeds := [][5]string{
		{"KSTREAM-SOURCE-0000000000", "KSTREAM-MAPVALUES-0000000001", "KSTREAM-FILTER-0000000002", "KSTREAM-SINK-0000000003", "store"},
		{`src: "in"`, "a, b", "[x]", "sink, k", `st: [1]`},
		{"a", "a, b", "b", "none", "t"},
		{"", "none", "a, ", ", ", "x"},
		{"s\x1b[2J", "p\u200b", "q\u202e, r", "k\x00", "st\x9b"},
		{`a\nb`, "a\nb", `\x41`, `\\`, `C:\dir`},
		{"\xff", "a\xfe, b", "a", " b", "é"},
		{"x (topics: [y])", "p (stores: [q])", "k (topic: z)", "k (extractor class: c)", "s"},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1], s[2], s[3], s[4])
	}
	f.Fuzz(func(t *testing.T, a, b, c, d, e string) {
		if len(a)+len(b)+len(c)+len(d)+len(e) > 4096 {
			return
		}
		names := []string{a, b, c, d}
		if slices.Contains(names[1:], a) || slices.Contains(names[2:], b) || c == d {
			return // node names are unique in a sub-topology
		}
		safe := strings.NewReplacer(", ", ",", " (", "(").Replace(e)
		topic := safe
		if topic == "null" || topic == "" {
			topic += "_" // a sink's "(topic: null)" is a dynamic sink
		}
		store := safe
		if store == "" {
			store = "_" // "(stores: [])" is no store
		}
		top := tt.Desc([]*topology.Subtopology{tt.Sub(safe,
			tt.Src(a, []string{topic, "t2"}, b, c),
			tt.Proc(b, []string{store}, d),
			tt.Proc(c, nil, d, b),
			tt.Sink(d, topic))},
			[2]*topology.Node{tt.Src(d, []string{topic}, a), tt.Proc(a, []string{store})})
		roundTrip(t, top)
	})
}

// validUTF8 tells whether every string of d is UTF-8.
func validUTF8(d *topology.Description) bool {
	var b bytes.Buffer
	for _, s := range d.Subtopologies {
		b.WriteString(s.ID)
		for _, n := range s.Nodes {
			writeStrings(&b, n)
		}
	}
	for _, g := range d.GlobalStores {
		writeStrings(&b, g.Source)
		writeStrings(&b, g.Processor)
	}
	return utf8.Valid(b.Bytes())
}

func writeStrings(b *bytes.Buffer, n *topology.Node) {
	b.WriteString(n.Name)
	for _, xs := range [][]string{n.Topics, n.Stores, n.Successors} {
		for _, x := range xs {
			b.WriteString(x + "/")
		}
	}
	if n.Topic != nil {
		b.WriteString(*n.Topic)
	}
}

// dump shows a description's nodes for a failure message.
func dump(d *topology.Description) string {
	var b strings.Builder
	line := func(n *topology.Node) {
		fmt.Fprintf(&b, "  %v %q topics=%q stores=%q topic=%v succ=%q pred=%q\n", n.Kind, n.Name, n.Topics, n.Stores, deref1(n.Topic), n.Successors, n.Predecessors)
	}
	for _, s := range d.Subtopologies {
		fmt.Fprintf(&b, "sub %q\n", s.ID)
		for _, n := range s.Nodes {
			line(n)
		}
	}
	for _, g := range d.GlobalStores {
		fmt.Fprintf(&b, "global %d\n", g.ID)
		line(g.Source)
		line(g.Processor)
	}
	return b.String()
}

func deref1(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

// Topology#describe() of the real Kafka Streams 4.4.0 application of
// TestDiff/processor_api_names (e2e HostileNames.java, describe-only): every
// edge is read as the application built it, and the text round-trips.
func TestParse_realProcessorAPINames(t *testing.T) {
	data, err := os.ReadFile("../../e2e/testdata/streams-describe/hostile-names.txt")
	require.NoError(t, err)
	d, err := Parse(data)
	require.NoError(t, err)
	edges := map[string][]string{}
	for _, n := range d.Subtopologies[0].Nodes {
		edges[n.Name] = n.Successors
	}
	assert.Equal(t, map[string][]string{
		`src: "in" [0]`:    {"[1]", "p", "p, [1]"},
		"[1]":              {`q: "z"`},
		"p":                {`q: "z"`},
		"p, [1]":           {`q: "z"`},
		`q: "z"`:           {"p\u200b: [zw]"},
		"p\u200b: [zw]":    {`sink, out: ["x"]`},
		`sink, out: ["x"]`: {},
	}, edges)
	assert.Equal(t, []string{`st: [1] "x"`}, d.Subtopologies[0].Nodes[3].Stores)
	roundTrip(t, d)
}
