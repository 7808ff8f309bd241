package format

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"

	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

func TestEscapeName(t *testing.T) {
	tests := []struct{ name, shown string }{
		// Names a terminal can show are Kafka's bytes, whatever they hold.
		{"KSTREAM-SOURCE-0000000000", "KSTREAM-SOURCE-0000000000"},
		{`a, b [c] "d": e`, `a, b [c] "d": e`},
		{`^[a-z]+`, `^[a-z]+`},
		{`C:\dir\file`, `C:\dir\file`},
		{`\x4`, `\x4`},
		{`\xAB`, `\xAB`},
		{"zählung-日本", "zählung-日本"},
		{"", ""},
		// What a terminal must not see, backslash escapes only.
		{"a\x1b[2Jb", `a\x1b[2Jb`},
		{"a\nb\rc\td", `a\nb\rc\td`},
		{"\x00\x07\x7f", `\x00\x07\x7f`},
		{"a\xffb", `a\xffb`},
		{"a\u009bb", `a\u009bb`},
		{"a\u200bb\u202ec\ufeff", `a\u200bb\u202ec\ufeff`},
		// A backslash is doubled in a name that is escaped anyway, and in
		// one that would read back as an escape.
		{"C:\\dir\x1b", `C:\\dir\x1b`},
		{`a\nb`, `a\\nb`},
		{`a\\b`, `a\\\\b`},
		{`\x41`, `\\x41`},
		{`\u200b`, `\\u200b`},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.shown, EscapeName(tc.name), "%q", tc.name)
		assert.Equal(t, tc.name, UnescapeName(tc.shown), "%q", tc.shown)
	}
}

// Kafka's text of a name holding what looks like an escape reads as that
// name unless our writer could have written it.
func TestUnescapeName_kafkaText(t *testing.T) {
	for _, s := range []string{`\x41`, `\u0041`, `C:\dir`, `a\`, `\ud800`, `\q`, `\X1b`} {
		assert.Equal(t, s, UnescapeName(s), "%q", s)
	}
}

func TestEscapeName_ordinaryNamesDoNotAllocate(t *testing.T) {
	for _, s := range []string{"KSTREAM-SOURCE-0000000000", "zählung-日本", `a, b [c] "d": e`} {
		assert.Zero(t, testing.AllocsPerRun(100, func() { _ = EscapeName(s) }), s)
		assert.Zero(t, testing.AllocsPerRun(100, func() { _ = UnescapeName(s) }), s)
	}
}

// FuzzEscapeName: every name reads back as itself, what the text shows
// holds nothing a terminal obeys, and a name a terminal can show that does
// not look escaped is shown as it is (Kafka's bytes).
func FuzzEscapeName(f *testing.F) {
	for _, s := range []string{"word-count", "a, b", "\x1b[2J", "a\rb\n", "\u009b", "\xff\xfe", "日本\x00", `a\nb`, `\\`, `\x41`, "\u200b", `\u200b`, `C:\dir`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		shown := EscapeName(s)
		if back := UnescapeName(shown); back != s {
			t.Fatalf("UnescapeName(EscapeName(%q)) = %q (shown %q)", s, back, shown)
		}
		if !utf8.ValidString(shown) || needsEscape(shown) {
			t.Fatalf("EscapeName(%q) = %q holds what a terminal must not see", s, shown)
		}
		if !needsEscape(s) && !looksEscaped(s) && shown != s {
			t.Fatalf("EscapeName(%q) = %q changed a name a terminal can show", s, shown)
		}
		if !strings.Contains(s, `\`) && !needsEscape(s) && UnescapeName(s) != s {
			t.Fatalf("UnescapeName(%q) changed a plain name", s)
		}
	})
}

// Names the Processor API allows (Topology#addProcessor takes any string)
// are printed as Kafka prints them: as they are, sorted by the name
// (FINDINGS F330).
func TestTopology_processorAPINamesAreKafkasBytes(t *testing.T) {
	d := tt.Desc([]*topology.Subtopology{tt.Sub("0",
		tt.Src(`src: "in"`, []string{"hn-input"}, "a, b", "a", "[x]", "a,b"),
		tt.Proc("a, b", []string{`st: [1]`}, "sink, k"),
		tt.Proc("a", nil, "sink, k"),
		tt.Proc("a,b", nil),
		tt.Proc("[x]", nil, "sink, k"),
		tt.Sink("sink, k", "hn-output"))})
	want := "Topologies:\n" +
		"   Sub-topology: 0\n" +
		"    Source: src: \"in\" (topics: [hn-input])\n" +
		"      --> [x], a, a, b, a,b\n" +
		"    Processor: a, b (stores: [st: [1]])\n" +
		"      --> sink, k\n" +
		"      <-- src: \"in\"\n" +
		"    Processor: a (stores: [])\n" +
		"      --> sink, k\n" +
		"      <-- src: \"in\"\n" +
		"    Processor: a,b (stores: [])\n" +
		"      --> none\n" +
		"      <-- src: \"in\"\n" +
		"    Processor: [x] (stores: [])\n" +
		"      --> sink, k\n" +
		"      <-- src: \"in\"\n" +
		"    Sink: sink, k (topic: hn-output)\n" +
		"      <-- [x], a, a, b\n" +
		"\n"
	assert.Equal(t, want, render(t, d))
}
