package topoparse

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

func text(t testing.TB, d *topology.Description) string {
	var b bytes.Buffer
	require.NoError(t, format.Topology(&b, d))
	return b.String()
}

// Topology#describe() texts printed by the real Kafka Streams 4.4.0
// applications of the e2e suite (e2e/testdata/streams-describe).
func TestParse_realStreamsDescribe(t *testing.T) {
	files, err := filepath.Glob("../../e2e/testdata/streams-describe/*.txt")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name[:len(name)-len(".txt")], func(t *testing.T) {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			d, err := Parse(data)
			require.NoError(t, err)
			golden.Assert(t, []byte(text(t, d)))
		})
	}
}

func TestParse_streamsDetails(t *testing.T) {
	data, err := os.ReadFile("../../e2e/testdata/streams-describe/pattern.txt")
	require.NoError(t, err)
	d, err := Parse(data)
	require.NoError(t, err)
	src, sink := d.Subtopologies[0].Nodes[0], d.Subtopologies[0].Nodes[2]
	assert.Equal(t, "pt-input-.*", src.Pattern)
	assert.Empty(t, src.Topics)
	assert.Nil(t, sink.Topic)
	assert.Equal(t, "SuffixExtractor", sink.Extractor)
	assert.Equal(t, []string{"KSTREAM-MAPVALUES-0000000001"}, sink.Predecessors)

	data, err = os.ReadFile("../../e2e/testdata/streams-describe/globalstore.txt")
	require.NoError(t, err)
	d, err = Parse(data)
	require.NoError(t, err)
	require.Len(t, d.Subtopologies, 1, "the interleaved global store is not a subtopology")
	assert.Equal(t, "1", d.Subtopologies[0].ID)
	require.Len(t, d.GlobalStores, 1)
	assert.Equal(t, 1, d.GlobalStores[0].ID, "numbered after the subtopologies, as the CLI does")
	assert.Equal(t, []string{"gs-global-store"}, d.GlobalStores[0].Processor.Stores)
}

// The CLI's own text goes through render -o text unchanged, byte for byte.
func TestParse_roundTripsOurText(t *testing.T) {
	cases := map[string]*topology.Description{
		"word count": tt.WordCount(),
		"large":      tt.Large(2000),
		"empty":      tt.Desc(nil),
		"dynamic sink and empty lists": tt.Desc([]*topology.Subtopology{tt.Sub("x y",
			tt.Src("s (1)", nil, "p"), tt.Proc("p", nil, "k", "elsewhere"), tt.Sink("k", ""))}),
		"global stores only": tt.Desc(nil, [2]*topology.Node{tt.Src("g", []string{"t"}, "p"), tt.Proc("p", []string{"s"})}),
	}
	for name, d := range cases {
		t.Run(name, func(t *testing.T) {
			want := text(t, d)
			for _, in := range []string{want, want + "\n", "Topologies:\n\n" + want[len("Topologies:\n"):]} {
				got, err := Parse([]byte(in))
				require.NoError(t, err)
				assert.Equal(t, want, text(t, got))
			}
		})
	}
}

// Our text of names with control characters, the separator ", ", empty
// names and names ending in a space reads back to the same text: the
// lists are sorted by what they show (FuzzParse found the first).
func TestParse_roundTripsHostileNames(t *testing.T) {
	cases := map[string]*topology.Description{
		"NUL sorts before 0 raw, after it escaped": tt.Desc([]*topology.Subtopology{tt.Sub("0", tt.Src("s", []string{"\x00", "0"}))}),
		"escapes in every list": tt.Desc([]*topology.Subtopology{tt.Sub("0",
			tt.Src("\x1b[31m", []string{"b\r", "a\n", "a"}, "\x07p", "p"), tt.Proc("\x07p", []string{"\u202es", "s"}, "k"), tt.Proc("p", nil, "k"), tt.Sink("k", "t\t"))}),
		"the separator in a name":    tt.Desc([]*topology.Subtopology{tt.Sub("0", tt.Src("s", []string{"b"}, "x, y", "w"), tt.Proc("x, y", nil), tt.Proc("w", nil))}),
		"empty names":                tt.Desc([]*topology.Subtopology{tt.Sub("", tt.Src("", []string{""}, ""), tt.Sink("k", ""))}),
		"names ending with a space":  tt.Desc([]*topology.Subtopology{tt.Sub("0 ", tt.Src("s ", []string{"t "}, "p "), tt.Proc("p ", []string{"st "}))}),
		"escaped forms that collide": tt.Desc([]*topology.Subtopology{tt.Sub("0", tt.Src("s", []string{"\x1b", "^["}))}),
	}
	for name, d := range cases {
		t.Run(name, func(t *testing.T) {
			want := text(t, d)
			got, err := Parse([]byte(want))
			require.NoError(t, err)
			assert.Equal(t, want, text(t, got))
		})
	}
}

// Documents written by the CLI (-o json / yaml) are read back.
func TestParse_documents(t *testing.T) {
	d := tt.WordCount()
	doc := format.NewTopologyDoc(d)
	for _, o := range []format.Output{format.JSON, format.YAML} {
		var b bytes.Buffer
		require.NoError(t, format.Encode(&b, o, doc))
		got, err := Parse(b.Bytes())
		require.NoError(t, err, string(o))
		assert.Equal(t, text(t, d), text(t, got), string(o))

		b.Reset()
		require.NoError(t, format.Encode(&b, o, format.DescribeDoc{Groups: []format.GroupDoc{{Group: "g", TopologyDescription: doc}, {Group: "h"}}}))
		got, err = Parse(b.Bytes())
		require.NoError(t, err, string(o))
		assert.Equal(t, text(t, d), text(t, got), string(o))
	}
}

func TestParse_errors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", `line 1: expected "Topologies:", found an empty input`},
		{"no header", "Sub-topology: 0\n", `line 1: expected "Topologies:", found "Sub-topology: 0"`},
		{"not stored message", "\nError: No topology description is stored for streams group 'g'.\n", `line 2: expected "Topologies:", found "Error: No topology description is stored for streams group 'g'."; the input holds no topology description`},
		{"several groups", "Streams group 'a':\nTopologies:\n", `line 1: expected "Topologies:", found "Streams group 'a':"; the input holds the output for several groups, render one group's topology at a time`},
		{"node before subtopology", "Topologies:\n    Source: s (topics: [t])\n", `line 2: expected "Sub-topology:" before the first node`},
		{"arrow before node", "Topologies:\n   Sub-topology: 0\n      --> x\n", `line 3: expected a node line before "-->"`},
		{"garbage line", "Topologies:\n   Sub-topology: 0\n    Widget: w\n", `line 3: expected "Sub-topology:", "Source:", "Processor:", "Sink:", "-->", "<--" or a blank line, found "Widget: w"`},
		{"two successor lines", "Topologies:\n   Sub-topology: 0\n    Source: s (topics: [t])\n      --> a\n      --> b\n", `line 5: expected one "-->" line for node "s", found a second`},
		{"bad global store", "Topologies:\n   Sub-topology: 0 for global store (will not generate tasks)\n    Processor: p (stores: [])\n", `line 2: expected a global store to be a source followed by a processor`},
		{"global store with three nodes", "Topologies:\n   Sub-topology: 0 for global store (will not generate tasks)\n    Source: s (topics: [t])\n    Processor: p (stores: [])\n    Sink: k (topic: x)\n", `line 5: expected a global store to have only a source and a processor, found a third node`},
		{"not utf8", "Topologies:\n\xff\n", `line 1: input is not UTF-8 text`},
		{"bad json", "{\"subtopologies\": [\n  {\"id\": 1}\n]}", `line 2: expected a JSON topology document: subtopologies.id: want string, found number`},
		{"json without topology", `{"groups": [{"group": "g"}]}`, `line 1: expected a document with exactly one group holding a topology_description, found 0`},
		{"json bad node type", `{"subtopologies": [{"id": "0", "nodes": [{"name": "n", "type": "widget"}]}]}`, `line 1: node "n": unknown node type "widget" (want source, processor or sink)`},
		{"yaml error", "subtopologies:\n  - id: [\n", `line 2: expected a YAML topology document: line 2: did not find expected node content`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Parse([]byte(tc.in))
			assert.Nil(t, d)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			var pe *Error
			assert.ErrorAs(t, err, &pe)
		})
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"Topologies:\n", text(f, tt.WordCount()), `{"subtopologies":[]}`, "subtopologies: []\n", "Topologies:\n   Sub-topology: 0 for global store (will not generate tasks)\n    Source: s (topics: x)\n"} {
		f.Add([]byte(s))
	}
	if files, _ := filepath.Glob("../../e2e/testdata/streams-describe/*.txt"); files != nil {
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse(data)
		if err != nil {
			return
		}
		// Whatever parses renders in every format without error, and the
		// text form parses again to the same text.
		var b bytes.Buffer
		if err := format.Topology(&b, d); err != nil {
			t.Fatal(err)
		}
		for _, o := range []format.Output{format.Dot, format.Mermaid} {
			if err := format.TopologyGraph(&bytes.Buffer{}, o, "g", d); err != nil {
				t.Fatal(err)
			}
		}
		again, err := Parse(b.Bytes())
		if err != nil {
			t.Fatalf("own text does not parse: %v\n%q", err, b.String())
		}
		if namesNone(d) {
			// A lone successor named "none" reads as no successor, in
			// Kafka's text as in ours (format.shown).
			return
		}
		var b2 bytes.Buffer
		_ = format.Topology(&b2, again)
		if b.String() != b2.String() {
			t.Fatalf("round trip differs:\n%q\n%q", b.String(), b2.String())
		}
	})
}

// namesNone tells whether a node of d has a successor named "none".
func namesNone(d *topology.Description) bool {
	var nodes []*topology.Node
	for _, s := range d.Subtopologies {
		nodes = append(nodes, s.Nodes...)
	}
	for _, g := range d.GlobalStores {
		nodes = append(nodes, g.Source, g.Processor)
	}
	for _, n := range nodes {
		if slices.Contains(n.Successors, "none") {
			return true
		}
	}
	return false
}
