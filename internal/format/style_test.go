package format

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/describe"
	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// sgr matches the Select Graphic Rendition sequences that color adds.
var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

func stripSGR(s string) string { return sgr.ReplaceAllString(s, "") }

func renderStyled(t testing.TB, d *topology.Description, st *Styles) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, WriteTopology(&b, d, st))
	return b.String()
}

// hostile is a topology whose every broker-supplied string tries to take
// over the terminal or fake output lines.
func hostile() *topology.Description {
	return tt.Desc([]*topology.Subtopology{tt.Sub("0\x1b[2J",
		tt.Src("src\x1b]0;owned\x07", []string{"in\rOVERWRITTEN", "in\u009b31m"}, "proc\n   Sub-topology: 99"),
		tt.Proc("proc\n   Sub-topology: 99", []string{"store\x00\x7f"}, "sink\x1b[8m"),
		tt.Sink("sink\x1b[8m", "out\xff\t"))},
		[2]*topology.Node{tt.Src("gs\x1b[1A", []string{"g"}, "gp"), tt.Proc("gp", []string{"gstore\x1b[0m"})})
}

// topologies are the cases of the color tests: ordinary ones, whose plain
// text must not change at all, and the hostile one.
func topologies() map[string]*topology.Description {
	return map[string]*topology.Description{
		"word count":     tt.WordCount(),
		"dynamic sink":   tt.Desc([]*topology.Subtopology{tt.Sub("0", tt.Src("s", nil, "k"), tt.Sink("k", ""))}),
		"non ascii":      tt.Desc([]*topology.Subtopology{tt.Sub("0", tt.Proc("zählung-日本", []string{"é", "\U0001F600"}))}),
		"empty":          tt.Desc(nil),
		"hostile names":  hostile(),
		"large topology": tt.Large(500),
	}
}

// The colored topology differs from the plain one only by escape sequences:
// stripping them gives the plain bytes back.
func TestTopology_colorOnlyAddsEscapes(t *testing.T) {
	for name, d := range topologies() {
		t.Run(name, func(t *testing.T) {
			plain := render(t, d)
			colored := renderStyled(t, d, NewStyles(true))
			assert.Equal(t, plain, stripSGR(colored))
			assert.NotEqual(t, plain, colored, "color on adds escape sequences")
			assert.Equal(t, plain, renderStyled(t, d, NewStyles(false)), "color off is plain")
			assert.Equal(t, plain, renderStyled(t, d, nil), "nil styles are plain")
		})
	}
}

// Ordinary names print byte-identically to Kafka's text, and hostile names
// cannot put a single control character on the terminal.
func TestTopology_hostileNamesAreEscaped(t *testing.T) {
	got := render(t, hostile())
	for _, b := range []byte(got) {
		if b < 0x20 && b != '\n' || b == 0x7f {
			t.Fatalf("control byte %#x in output:\n%q", b, got)
		}
	}
	assert.NotContains(t, got, "\u009b")
	// Topologies, a subtopology of 7 lines and a global store of 5, each
	// with its header and blank line: 17 lines, whatever the names hold.
	assert.Equal(t, 17, strings.Count(got, "\n"), "no name adds a line")
	golden.Assert(t, []byte(got))
}

func TestWriteTopology_color(t *testing.T) {
	for _, name := range []string{"word count", "hostile names"} {
		t.Run(name, func(t *testing.T) {
			golden.Assert(t, []byte(renderStyled(t, topologies()[name], NewStyles(true))))
		})
	}
}

func TestWriteTopologyBlock(t *testing.T) {
	groups := []*describe.Group{
		{Group: "word-count", StreamsGroup: kafka.StreamsGroup{TopologyStatus: topology.Available, Topology: tt.WordCount()}},
		{Group: "inventory", StreamsGroup: kafka.StreamsGroup{TopologyStatus: topology.NotStored}},
		{Group: "billing\x1b[2J", StreamsGroup: kafka.StreamsGroup{TopologyStatus: topology.Error}},
	}
	for _, colored := range []bool{false, true} {
		name := "plain"
		if colored {
			name = "color"
		}
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			for _, g := range groups {
				require.NoError(t, WriteTopologyBlock(&b, g, true, NewStyles(colored)))
			}
			var plain bytes.Buffer
			for _, g := range groups {
				require.NoError(t, WriteTopologyBlock(&plain, g, true, nil))
			}
			assert.Equal(t, plain.String(), stripSGR(b.String()))
			golden.Assert(t, b.Bytes())
		})
	}
}

// Per-instance settings override fatih/color's global NoColor, which is
// true under go test (stdout is not a terminal); the test never sets it.
func TestNewStyles(t *testing.T) {
	on, off := NewStyles(true), NewStyles(false)
	assert.True(t, on.Enabled())
	assert.False(t, off.Enabled())
	assert.False(t, (*Styles)(nil).Enabled())
	assert.Equal(t, "\x1b[31;1mError:\x1b[0;22m", on.ErrorLabel())
	assert.Equal(t, "Error:", off.ErrorLabel())
	assert.Equal(t, "Error:", (*Styles)(nil).ErrorLabel())
	assert.Equal(t, "x", on.Paint(nil, "x"))
	assert.Equal(t, "", on.Paint(on.Error, ""))
	assert.Equal(t, span{}, off.span(off.Source))
	assert.Equal(t, span{on: "\x1b[32m", off: "\x1b[0m"}, on.span(on.Source))
}

func TestStyles_State(t *testing.T) {
	st := NewStyles(true)
	tests := []struct {
		state string
		want  *string // escape that opens the color; nil for plain
	}{
		{"Stable", ptr("\x1b[32m")},
		{"STABLE", ptr("\x1b[32m")},
		{"Assigning", ptr("\x1b[33m")},
		{"Reconciling", ptr("\x1b[33m")},
		{"NotReady", ptr("\x1b[31m")},
		{"not_ready", ptr("\x1b[31m")},
		{"Dead", ptr("\x1b[31m")},
		{"Empty", nil},
		{"Unknown", nil},
		{"", nil},
	}
	for _, tc := range tests {
		t.Run(tc.state, func(t *testing.T) {
			got := st.PaintState(tc.state, tc.state+"  ")
			if tc.want == nil {
				assert.Equal(t, tc.state+"  ", got)
				return
			}
			assert.True(t, strings.HasPrefix(got, *tc.want), "%q", got)
			assert.Equal(t, tc.state+"  ", stripSGR(got))
		})
	}
	assert.Equal(t, "Stable", (*Styles)(nil).PaintState("Stable", "Stable"))
}

func ptr(s string) *string { return &s }

func BenchmarkTopology100kColor(b *testing.B) {
	d := tt.Large(100_000)
	st := NewStyles(true)
	b.ReportAllocs()
	var n int64
	for b.Loop() {
		var buf bytes.Buffer
		if err := WriteTopology(&buf, d, st); err != nil {
			b.Fatal(err)
		}
		n = int64(buf.Len())
	}
	b.SetBytes(n)
	b.ReportMetric(float64(tt.NodeCount(d)), "nodes")
}
