package picture

// How wide a label's text is drawn, for Graphviz to size its shape by.
// Graphviz 12.1.2 in WebAssembly has no fontconfig: it estimates a line's
// width byte by byte from a table of ASCII widths, and every byte of a
// UTF-8 sequence counts as a space (0.278 em), so "é" is sized as 0.556 em
// and a CJK character (3 bytes) as 0.833 em where every CJK font draws a
// full em (e2e/FINDINGS.md F532, F600). A line with a non-ASCII byte is
// measured here instead, by the text layout plugin (textlayout.go), as
// wide as a viewer can draw it: Helvetica's widths (its AFM; Arial and
// Liberation Sans have the same) for the characters Helvetica has, a full
// em for East Asian wide and fullwidth characters, more for emoji, none
// for combining marks, the Go font's widths (which the PNG draws with,
// and within 12% of Arial's) with a margin for Greek and Cyrillic
// letters, and a full em for anything else. ASCII lines keep Graphviz's
// own estimate, so that their pictures stay byte-identical.

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/width"
)

// helvetica are Helvetica's advance widths (Adobe's AFM, thousandths of
// an em) of U+0020 to U+00FF; 0 for the C1 controls, which the DOT
// writer escapes.
var helvetica = [0x100 - 0x20]uint16{
	// U+0020: space ! " # $ % & ' ( ) * + , - . /
	278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
	// 0-9 : ; < = > ?
	556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
	// @ A-O
	1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
	// P-Z [ \ ] ^ _
	667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
	// ` a-o
	333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
	// p-z { | } ~ DEL
	556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, 0,
	// U+0080 to U+009F
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	// U+00A0: nbsp ¡ ¢ £ ¤ ¥ ¦ § ¨ © ª « ¬ shy ® ¯
	278, 333, 556, 556, 556, 556, 260, 556, 333, 737, 370, 556, 584, 333, 737, 333,
	// ° ± ² ³ ´ µ ¶ · ¸ ¹ º » ¼ ½ ¾ ¿
	400, 584, 333, 333, 333, 556, 537, 278, 333, 333, 365, 556, 834, 834, 834, 611,
	// À Á Â Ã Ä Å Æ Ç È É Ê Ë Ì Í Î Ï
	667, 667, 667, 667, 667, 667, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278,
	// Ð Ñ Ò Ó Ô Õ Ö × Ø Ù Ú Û Ü Ý Þ ß
	722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611,
	// à á â ã ä å æ ç è é ê ë ì í î ï
	556, 556, 556, 556, 556, 556, 889, 500, 556, 556, 556, 556, 278, 278, 278, 278,
	// ð ñ ò ó ô õ ö ÷ ø ù ú û ü ý þ ÿ
	556, 556, 556, 556, 556, 556, 556, 584, 611, 556, 556, 556, 556, 500, 556, 500,
}

// helveticaMore are the AFM's widths of its characters above U+00FF that
// are not a Latin-1 letter with marks as wide as the letter (ď, ľ and ť
// take a caron beside them; ı, ł, œ have no decomposition). A sorted
// array, not a map: nothing is built at start-up.
var helveticaMore = [...]afmWidth{
	{'ď', 643}, {'Đ', 722}, {'đ', 556}, {'ı', 278}, {'ľ', 299}, {'Ł', 556}, {'ł', 222},
	{'Œ', 1000}, {'œ', 944}, {'ť', 316}, {'ƒ', 556}, {'ˆ', 333}, {'ˇ', 333}, {'˘', 333},
	{'˙', 333}, {'˚', 333}, {'˛', 333}, {'˜', 333}, {'˝', 333}, {'–', 556}, {'—', 1000},
	{'‘', 222}, {'’', 222}, {'‚', 222}, {'“', 333}, {'”', 333}, {'„', 333}, {'†', 556},
	{'‡', 556}, {'•', 350}, {'…', 1000}, {'‰', 1000}, {'‹', 333}, {'›', 333}, {'⁄', 167},
	{'€', 556}, {'™', 1000}, {'−', 584},
}

type afmWidth struct {
	r rune
	w uint16
}

const (
	// em is a full em: a CJK character's advance in every CJK font, and
	// the bound used for characters no table here knows.
	em = 1000
	// emojiEm bounds an emoji's advance: Noto Color Emoji's is 1.245 em.
	emojiEm = 1300
	// goFontFactor bounds Arial's Greek and Cyrillic letters by the Go
	// font's: Arial's ї is 1.13 times the Go font's, its Ω 1.06 times.
	goFontFactor = 1.15
	// widerFactor bounds how much wider than Helvetica a bold face or
	// Times draws a Latin letter (Helvetica-Bold's i and l, Times's i,
	// j and l are 25% wider than Helvetica's).
	widerFactor = 1.25
)

// TextWidth is the width in points, at size points, of the widest line
// of s as a viewer draws it in Helvetica (or Arial, Liberation Sans) at
// most: Graphviz's own estimate for an ASCII line, this package's for any
// other (the text layout plugin's).
func TextWidth(s string, size float64) float64 {
	w := 0.0
	for line := range strings.SplitSeq(s, "\n") {
		w = max(w, textWidth(line, size, false))
	}
	return w
}

// textWidth is the width in points, at size points, that a viewer draws
// the line s in at most (wider: in a bold face or one other than
// Helvetica's).
func textWidth(s string, size float64, wider bool) float64 {
	total := 0.0
	for _, r := range s {
		w := float64(runeWidth(r))
		if wider && w < em {
			w *= widerFactor
		}
		total += w
	}
	return total * size / 1000
}

// runeWidth is r's advance in thousandths of an em (an upper bound where
// no table knows r).
func runeWidth(r rune) int {
	switch {
	case r >= 0x20 && r < 0x100 && helvetica[r-0x20] != 0:
		return int(helvetica[r-0x20])
	case unicode.Is(unicode.Mn, r):
		// Combining marks, variation selectors: drawn over the letter
		// before them.
		return 0
	}
	if i, ok := slices.BinarySearchFunc(helveticaMore[:], r, func(e afmWidth, r rune) int { return cmp.Compare(e.r, r) }); ok {
		return int(helveticaMore[i].w)
	}
	if r >= 0x1f000 || unicode.Is(unicode.So, r) {
		// Emoji and pictographs (most are East Asian wide too), which
		// an emoji font draws wider than an em.
		return emojiEm
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return em
	}
	if unicode.In(r, unicode.Greek, unicode.Cyrillic) && unicode.IsLetter(r) {
		if f := goFontAdvances(); f != nil {
			var buf sfnt.Buffer
			if g, err := f.GlyphIndex(&buf, r); err == nil && g != 0 {
				if adv, err := f.GlyphAdvance(&buf, g, fixed.I(em), font.HintingNone); err == nil {
					return int(math.Ceil(float64(adv) / 64 * goFontFactor))
				}
			}
		}
	}
	if unicode.Is(unicode.Latin, r) {
		// A Latin letter with marks is as wide as its letter in
		// Helvetica, whose accented i and j drop their dot (í is 278,
		// i 222).
		var buf [utf8.UTFMax * 4]byte
		d := norm.NFD.AppendString(buf[:0], string(r))
		if base, _ := utf8.DecodeRune(d); base != r && base >= 0x20 && base < 0x100 {
			switch base {
			case 'i', 'j':
				return 278
			}
			if w := helvetica[base-0x20]; w != 0 {
				return int(w)
			}
		}
	}
	return em
}

// goFontAdvances is the Go Regular font, parsed on the first Greek or
// Cyrillic letter (nil if it cannot be).
var goFontAdvances = sync.OnceValue(func() *sfnt.Font {
	f, err := sfnt.Parse(goregular.TTF)
	if err != nil {
		return nil
	}
	return f
})
