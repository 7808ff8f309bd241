package picture

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// textWidth is Helvetica's AFM width where Helvetica has the character,
// a full em for CJK, more for emoji, nothing for combining marks and an
// em for the rest; wider in another face.
func TestTextWidth(t *testing.T) {
	for _, c := range []struct {
		s     string
		wider bool
		want  float64 // thousandths of an em
	}{
		{"abc", false, 556 + 556 + 500},
		{"ÄÖÜßé", false, 667 + 778 + 722 + 611 + 556},
		{"íï", false, 278 + 278},
		{"ďľťŁœ", false, 643 + 299 + 316 + 556 + 944},
		{"ŠžĀą", false, 667 + 500 + 667 + 556}, // as wide as their letters
		{"ĩĵ", false, 278 + 278},               // dotless, as í
		{"e\u0301", false, 556},
		{"名前", false, 2000},
		{"ＡＢ", false, 2000}, // fullwidth
		{"📦🚀", false, 2 * emojiEm},
		{"★", false, emojiEm},
		{"Жж", false, 1062 + 770}, // the Go font's 923 and 669, times 1.15
		{"Ю", false, 1162},        // Arial's is 1010
		{"ωΩ", false, 1707},
		{"ا", false, 1000}, // Arabic: an em
		{"il", true, 2 * 222 * widerFactor},
		{"名", true, 1000},
	} {
		assert.InDelta(t, c.want*11/1000, textWidth(c.s, 11, c.wider), 1e-9, "%q", c.s)
	}
}

func TestHelveticaMore_sorted(t *testing.T) {
	for i := 1; i < len(helveticaMore); i++ {
		assert.Less(t, helveticaMore[i-1].r, helveticaMore[i].r, "helveticaMore is sorted by rune")
	}
}
