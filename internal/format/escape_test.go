package format

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestEscape(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{name: "ordinary name", in: "word-count_v2.app", want: "word-count_v2.app"},
		{name: "kafka streams node name", in: "KSTREAM-AGGREGATE-STATE-STORE-0000000004", want: "KSTREAM-AGGREGATE-STATE-STORE-0000000004"},
		{name: "non-ASCII letters", in: "zählung-日本-é-\U0001F600", want: "zählung-日本-é-\U0001F600"},
		{name: "empty", in: "", want: ""},
		{name: "SGR color", in: "\x1b[31mred\x1b[0m", want: "^[[31mred^[[0m"},
		{name: "OSC window title", in: "\x1b]0;pwned\x07x", want: "^[]0;pwned^Gx"},
		{name: "carriage return overwrites the line", in: "good\rEVIL", want: `good\rEVIL`},
		{name: "line feed fakes a line", in: "g\n   Sub-topology: 99", want: `g\n   Sub-topology: 99`},
		{name: "tab", in: "a\tb", want: `a\tb`},
		{name: "NUL and BEL", in: "\x00\x07", want: "^@^G"},
		{name: "unit separator", in: "\x1f", want: "^_"},
		{name: "DEL", in: "a\x7f", want: "a^?"},
		{name: "C1 CSI as UTF-8", in: "x\u009b31my", want: `x\u009b31my`},
		{name: "C1 NEL and APC", in: "\u0085\u009f", want: `\u0085\u009f`},
		{name: "first character after C1", in: "\u00a0", want: "\u00a0"},
		{name: "lone 8-bit CSI byte", in: "x\x9b31m", want: `x\x9b31m`},
		{name: "truncated UTF-8", in: "ab\xc3", want: `ab\xc3`},
		{name: "invalid byte between letters", in: "é\xffé", want: `é\xffé`},
		{name: "right-to-left override hides the order", in: "evil\u202egnp.exe", want: `evil\u202egnp.exe`},
		{name: "bidi embeddings and isolates", in: "\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069", want: `\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069`},
		{name: "zero-width and marks", in: "a\u200bb\u200cc\u200dd\u200ee\u200ff", want: `a\u200bb\u200cc\u200dd\u200ee\u200ff`},
		{name: "line and paragraph separators", in: "a\u2028b\u2029c", want: `a\u2028b\u2029c`},
		{name: "Arabic letter mark and BOM", in: "\u061cx\ufeff", want: `\u061cx\ufeff`},
		{name: "neighbours stay", in: "\u200a\u2010\u2027\u202f\u2065\u206a", want: "\u200a\u2010\u2027\u202f\u2065\u206a"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Escape(tc.in))
		})
	}
}

// Ordinary names are the common case: no copy, no allocation.
func TestEscape_ordinaryNamesDoNotAllocate(t *testing.T) {
	for _, s := range []string{"KSTREAM-SOURCE-0000000000", "zählung-日本"} {
		allocs := testing.AllocsPerRun(100, func() { _ = Escape(s) })
		assert.Zero(t, allocs, s)
	}
}

// FuzzEscape: whatever the broker sends, the escaped text holds no control
// character and is valid UTF-8, and clean text passes through unchanged.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"word-count", "\x1b[2J", "a\rb\n", "\u009b", "\xff\xfe", "日本\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Escape(s)
		if !utf8.ValidString(got) {
			t.Fatalf("Escape(%q) = %q is not valid UTF-8", s, got)
		}
		for _, r := range got {
			if r < 0x20 || r >= 0x7f && r <= 0x9f {
				t.Fatalf("Escape(%q) = %q holds control character %U", s, got, r)
			}
		}
		if !needsEscape(s) && got != s {
			t.Fatalf("Escape(%q) changed clean text to %q", s, got)
		}
		if needsEscape(s) == (got == s) {
			t.Fatalf("needsEscape(%q) = %v but Escape returned %q", s, needsEscape(s), got)
		}
	})
}

func BenchmarkNeedsEscape(b *testing.B) {
	names := []string{"KSTREAM-AGGREGATE-STATE-STORE-0000000004", "word-count-counts-repartition", "p", "zählung-日本"}
	for b.Loop() {
		for _, s := range names {
			if needsEscape(s) {
				b.Fatal(s)
			}
		}
	}
}

// A long message is cut to MaxMessage shown characters, between two of
// its characters, with a note; a short one is only escaped.
func TestEscapeMessage(t *testing.T) {
	assert.Equal(t, "short ^[", EscapeMessage("short \x1b"))
	exact := strings.Repeat("x", MaxMessage)
	assert.Equal(t, exact, EscapeMessage(exact))

	long := strings.Repeat("é", 999) + "\u0085" + strings.Repeat("y", 5000)
	got := EscapeMessage(long)
	assert.Equal(t, strings.Repeat("é", 999)+" [cut: the message has 6005 characters; -o json shows it whole]", got,
		"the escape of U+0085 does not fit, and is not cut in two")
	assert.True(t, utf8.ValidString(got))
}
