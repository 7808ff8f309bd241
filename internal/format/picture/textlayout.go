package picture

// The text layout plugin: Graphviz asks it for the size of every line of
// every label (nodes, clusters, the title) before it sizes their shapes,
// and estimates the line itself when the plugin answers false. It answers
// false for a line of ASCII, so those pictures stay byte for byte what
// Graphviz's estimate made them, and measures any other line with
// textWidth, setting what Graphviz 12.1.2's estimate_textspan_size sets
// (lib/common/textspan.c): the line height is 1.2 times the font size
// and the centre line a tenth of it above the baseline.

import (
	"context"
	"math"
	"strings"

	"github.com/tetratelabs/wazero/api"
)

// textLayoutImport is the bridge's import that the plugin's textlayout
// entry calls: (textspan_t *span, char **fontpath) -> bool.
const textLayoutImport = "wasm_bridge_TextLayoutEngine_TextLayout"

// Offsets in the wasm32 layout of textspan_t not in record.go's list.
const (
	spanLayout      = 8  // textspan_t.layout
	spanFreeLayout  = 12 // textspan_t.free_layout
	spanYoffset     = 16 // textspan_t.yoffset_layout
	spanHeight      = 40 // textspan_t.size.y
	lineSpacing     = 1.2
	centerlineShare = 0.1
)

// textLayout is the plugin's textlayout entry.
func textLayout(_ context.Context, mod api.Module, stack []uint64) {
	mem := mod.Memory()
	span := uint32(stack[0])
	stack[0] = 0
	str, _ := mem.ReadUint32Le(span + spanStr)
	b := cbytesAt(mem, str)
	if ascii(b) {
		return // most lines: nothing allocated
	}
	s := string(b)
	font, _ := mem.ReadUint32Le(span + spanFont)
	size, _ := mem.ReadFloat64Le(font + fontSize)
	flags, _ := mem.ReadUint32Le(font + fontFlags)
	name, _ := mem.ReadUint32Le(font + fontName)
	// Helvetica's widths bound Helvetica's (and Arial's) Latin letters;
	// in another face (a cluster's label is in Times) or in bold, a
	// Latin letter may be up to a quarter wider.
	wider := flags&htmlBF != 0 || !helveticaLike(cstrAt(mem, name))
	f64 := func(off uint32, v float64) bool { return mem.WriteUint64Le(span+off, math.Float64bits(v)) }
	ok := mem.WriteUint32Le(span+spanLayout, 0) && mem.WriteUint32Le(span+spanFreeLayout, 0) &&
		f64(spanYoffset, 0) && f64(spanCenterline, centerlineShare*size) &&
		f64(spanWidth, textWidth(s, size, wider)) && f64(spanHeight, lineSpacing*size)
	if ok {
		stack[0] = 1
	}
}

// helveticaLike reports whether a face of that name has Helvetica's
// widths.
func helveticaLike(name string) bool {
	n := strings.ToLower(name)
	return strings.HasPrefix(n, "helvetica") || strings.HasPrefix(n, "arial") || strings.HasPrefix(n, "liberation sans")
}

// ascii reports whether s has only ASCII bytes.
func ascii(s []byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
