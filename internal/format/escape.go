package format

// Escaping of broker-supplied strings in text output. Group, member, client,
// topic, node and store names come from the broker (and, through it, from any
// client of the cluster), and Kafka does not restrict group or node names:
// printed raw, a hostile name could move the cursor, rewrite earlier lines,
// change the window title or fake a line of output. Text output therefore
// makes every control character visible, in the spirit of kubectl's
// WriteEscaped:
//   - ESC becomes "^[" and CR becomes the two characters `\r` (kubectl's
//     choices); LF, TAB and the other C0 controls become `\n`, `\t` and caret
//     notation (BEL is "^G"), DEL becomes "^?";
//   - C1 controls (U+0080 to U+009F, which some terminals obey as 8-bit CSI,
//     OSC, ...) become `\u0080` to `\u009f`;
//   - bytes that are not valid UTF-8 become `\xNN`, so that no terminal in a
//     legacy 8-bit mode can read them as C1 controls either;
//   - the invisible and bidirectional formatting characters (invisible:
//     U+200B to U+200F, U+202A to U+202E, U+2066 to U+2069, U+2028, U+2029,
//     U+061C and U+FEFF), which can hide text or show it in another order
//     than it is, become `\u200b` and so on.
// Everything else, including every non-ASCII letter, is written unchanged,
// so ordinary names are byte-identical to kafka-streams-groups.sh's output.
// JSON and YAML escape control characters by their own rules and do not
// use this. The topology text uses EscapeName (below): the same characters,
// backslash escapes only, so that topoparse reads every name back exactly.

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// needsEscape reports whether s has anything Escape would change.
func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if b := s[i]; b < 0x20 || b >= 0x7f {
			return needsEscapeUTF8(s[i:])
		}
	}
	return false
}

// needsEscapeUTF8 is needsEscape from the first byte that is not
// printable ASCII on.
func needsEscapeUTF8(s string) bool {
	for i := 0; i < len(s); {
		b := s[i]
		if b < 0x80 {
			if b < 0x20 || b == 0x7f {
				return true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || r >= 0x80 && r <= 0x9f || invisible(r) {
			return true
		}
		i += n
	}
	return false
}

// invisible tells the invisible and bidirectional formatting characters
// that text output escapes.
func invisible(r rune) bool {
	switch {
	case r < 0x61c:
		return false
	case r >= 0x200b && r <= 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return r == 0x2028 || r == 0x2029 || r == 0x061c || r == 0xfeff
}

// Escape returns s with control characters and invalid UTF-8 made visible
// (see the rules at the top of this file). It returns s itself when nothing
// needs escaping.
func Escape(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	escapeTo(&b, s)
	return b.String()
}

// byteWriter is what escapeTo writes to: a strings.Builder or a
// bufio.Writer.
type byteWriter interface {
	WriteString(string) (int, error)
	WriteByte(byte) error
}

// textQuoting is the escaping of text output (the rules at the top of
// this file).
var textQuoting = newQuoting("", func(r rune, raw string) string {
	switch {
	case r == 0x1b:
		return "^["
	case r == '\r':
		return `\r`
	case r == '\n':
		return `\n`
	case r == '\t':
		return `\t`
	case r < 0x20:
		return "^" + string('@'+r)
	case r == 0x7f:
		return "^?"
	case r == utf8.RuneError && len(raw) == 1:
		return `\x` + string(hexDigits[raw[0]>>4]) + string(hexDigits[raw[0]&0xf])
	case r >= 0x80 && r <= 0x9f:
		return `\u00` + string(hexDigits[r>>4]) + string(hexDigits[r&0xf])
	case invisible(r):
		return `\u` + string(hexDigits[r>>12]) + string(hexDigits[r>>8&0xf]) + string(hexDigits[r>>4&0xf]) + string(hexDigits[r&0xf])
	}
	return ""
})

func escapeTo(w byteWriter, s string) { textQuoting.body(w, s) }

// LineEscaper writes each Write's text escaped (Escape), but for its final
// line break: for a log whose writer gets one line per write and whose
// lines carry broker strings (the --debug log: hosts, error messages).
type LineEscaper struct{ W io.Writer }

// Write writes Escape(p) with p's trailing "\n" kept, and reports len(p).
func (e LineEscaper) Write(p []byte) (int, error) {
	s := string(p)
	line, nl := strings.CutSuffix(s, "\n")
	out := Escape(line)
	if nl {
		out += "\n"
	}
	if _, err := io.WriteString(e.W, out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// MaxMessage is how many characters of an error message text output
// shows; JSON and YAML keep it whole (but serve's, CutMessage).
const MaxMessage = 1000

// EscapeMessage is Escape(s) for an error message in text output, cut to
// MaxMessage characters of what is shown, between two characters of s
// (never inside an escape), with a note saying how long it was. A broker
// can send a message of any length.
func EscapeMessage(s string) string {
	return cutMessage(s, Escape, "-o json shows it whole")
}

// CutMessage is an error message as a long-lived document keeps it (serve's
// snapshot and its /api/v1): not escaped (its encoder escapes it), cut as
// EscapeMessage cuts one, the note saying where the whole one is.
func CutMessage(s, whole string) string {
	return cutMessage(s, func(s string) string { return s }, whole)
}

// cutMessage is esc(s) cut to MaxMessage characters between two
// characters of s, with "[cut: the message has N characters; whole]".
func cutMessage(s string, esc func(string) string, whole string) string {
	e := esc(s)
	if len(e) <= MaxMessage || utf8.RuneCountInString(e) <= MaxMessage {
		return e
	}
	var b strings.Builder
	shown := 0
	for i := 0; i < len(s); {
		_, n := utf8.DecodeRuneInString(s[i:])
		part := esc(s[i : i+n])
		w := utf8.RuneCountInString(part)
		if shown+w > MaxMessage {
			break
		}
		b.WriteString(part)
		shown += w
		i += n
	}
	fmt.Fprintf(&b, " [cut: the message has %d characters; %s]", utf8.RuneCountInString(e), whole)
	return b.String()
}

// quoting is how a format writes strings (text, JSON, dot, Mermaid): the
// bytes it writes as they are, and the escape of any other character (raw
// holds its bytes; a byte that is not UTF-8 decodes as U+FFFD), "" to keep
// it.
type quoting struct {
	plain  [256]bool
	escape func(r rune, raw string) string
}

// newQuoting is a quoting whose plain bytes are the printable ASCII ones
// but special.
func newQuoting(special string, escape func(r rune, raw string) string) *quoting {
	q := &quoting{escape: escape}
	for b := 0x20; b < 0x7f; b++ {
		q.plain[b] = !strings.ContainsRune(special, rune(b))
	}
	return q
}

// write writes s between double quotes, escaped as q says.
func (q *quoting) write(w byteWriter, s string) {
	w.WriteByte('"')
	q.body(w, s)
	w.WriteByte('"')
}

// body writes s escaped as q says.
func (q *quoting) body(w byteWriter, s string) {
	start := 0 // s[start:i] is pending, unchanged text
	for i := 0; i < len(s); {
		b := s[i]
		if q.plain[b] {
			i++
			continue
		}
		r, n := rune(b), 1
		if b >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		esc := q.escape(r, s[i:i+n])
		if esc == "" {
			i += n
			continue
		}
		w.WriteString(s[start:i])
		w.WriteString(esc)
		i += n
		start = i
	}
	w.WriteString(s[start:])
}

// labelEscape is the reversible escape of a name in a label: a Prometheus
// label value and, with "'", "=" and "|" escaped too (perfLabelQuoting), a
// Monitoring Plugins perfdata label. Unlike Escape it is injective, so that
// two groups never share a series or a label: the escape character "\"
// is doubled; a byte that is not UTF-8 is \xNN (NN from 80 to FF), a C0
// control or DEL \xNN (below 80), and a C1 control or an invisible or bidi
// character \x{NNNN}. Read back, \\ is "\", \xNN the byte NN and
// \x{NNNN} the character U+NNNN; everything else is itself.
func labelEscape(r rune, raw string) string {
	switch {
	case r == utf8.RuneError && len(raw) == 1:
		return `\x` + hex2(raw[0])
	case r == '\\':
		return `\\`
	case r < 0x20 || r == 0x7f:
		return `\x` + hex2(byte(r))
	case r >= 0x80 && r <= 0x9f || invisible(r):
		return fmt.Sprintf(`\x{%04X}`, r)
	}
	return ""
}

const upperHex = "0123456789ABCDEF"

func hex2(b byte) string { return string([]byte{upperHex[b>>4], upperHex[b&0xf]}) }

// EscapeName is how the topology text shows a name (node, topic, store,
// sub-topology id), and UnescapeName, its inverse, is how topoparse reads
// it back: UnescapeName(EscapeName(x)) == x for every x. A name is shown as
// it is, byte for byte Kafka's, unless it holds what a terminal must not
// see (the characters Escape changes) or a sequence the reader would take
// for an escape (`\\`, `\n`, `\r`, `\t`, `\x` and two hex digits, `\u` and
// four). Such a name is written with backslash escapes only: `\n`, `\r`,
// `\t`; `\xNN` for the other C0 controls, DEL and a byte that is not UTF-8;
// `\u00NN` for the C1 controls and `\uNNNN` for the invisible and
// bidirectional characters; `\\` for a backslash. Caret notation (Escape's
// "^[") is not used: `^[` is common in a topic pattern and could not be
// told apart from an escape.
func EscapeName(x string) string {
	if !nameNeedsEscape(x) {
		return x
	}
	var b strings.Builder
	b.Grow(len(x) + 8)
	nameQuoting.body(&b, x)
	return b.String()
}

// writeEscapedName writes EscapeName(x) to bw without building a string.
func writeEscapedName(bw *bufio.Writer, x string) {
	if !nameNeedsEscape(x) {
		bw.WriteString(x)
		return
	}
	nameQuoting.body(bw, x)
}

// nameNeedsEscape tells the names EscapeName changes.
func nameNeedsEscape(x string) bool {
	return needsEscape(x) || strings.IndexByte(x, '\\') >= 0 && looksEscaped(x)
}

// looksEscaped tells whether x holds a sequence UnescapeName decodes.
func looksEscaped(x string) bool {
	for i := strings.IndexByte(x, '\\'); i >= 0 && i+1 < len(x); {
		if _, n := nameEscapeAt(x[i:]); n > 0 {
			return true
		}
		j := strings.IndexByte(x[i+1:], '\\')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// nameEscapeAt decodes the escape at the start of s (which starts with a
// backslash): its bytes and its length, 0 when s does not start with one.
// Hex digits are lower case only, as EscapeName writes them.
func nameEscapeAt(s string) (string, int) {
	if len(s) < 2 {
		return "", 0
	}
	switch s[1] {
	case '\\':
		return `\`, 2
	case 'n':
		return "\n", 2
	case 'r':
		return "\r", 2
	case 't':
		return "\t", 2
	case 'x':
		if v, ok := lowerHex(s[2:], 2); ok {
			return string([]byte{byte(v)}), 4
		}
	case 'u':
		if v, ok := lowerHex(s[2:], 4); ok {
			return string(rune(v)), 6
		}
	}
	return "", 0
}

// lowerHex reads n lower-case hex digits at the start of s.
func lowerHex(s string, n int) (int, bool) {
	if len(s) < n {
		return 0, false
	}
	v := 0
	for i := range n {
		d := strings.IndexByte(hexDigits, s[i])
		if d < 0 {
			return 0, false
		}
		v = v<<4 | d
	}
	return v, true
}

// UnescapeName reads a name as the topology text shows it (EscapeName). A
// shown form EscapeName could not have written (say `\x41`, which it writes
// as "A", or `C:\dir`) is a name that holds those characters, as Kafka's
// own text shows them, and is returned unchanged. The one text that reads
// otherwise than Kafka meant is Kafka's text of a name that holds such a
// sequence itself (the four characters `a\tb`, which our text shows as
// `a\\tb`).
func UnescapeName(s string) string {
	if strings.IndexByte(s, '\\') < 0 || !looksEscaped(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '\\')
		if j < 0 {
			b.WriteString(s[i:])
			break
		}
		b.WriteString(s[i : i+j])
		i += j
		dec, n := nameEscapeAt(s[i:])
		if n == 0 {
			return s // a lone backslash: EscapeName writes none
		}
		b.WriteString(dec)
		i += n
	}
	if x := b.String(); EscapeName(x) == s {
		return x
	}
	return s
}

// nameQuoting is EscapeName's escaping (all but the plain ASCII bytes are
// looked at; a backslash is doubled).
var nameQuoting = newQuoting(`\`, func(r rune, raw string) string {
	switch {
	case r == '\\':
		return `\\`
	case r == '\n':
		return `\n`
	case r == '\r':
		return `\r`
	case r == '\t':
		return `\t`
	case r < 0x20 || r == 0x7f:
		return `\x` + string(hexDigits[r>>4]) + string(hexDigits[r&0xf])
	case r == utf8.RuneError && len(raw) == 1:
		return `\x` + string(hexDigits[raw[0]>>4]) + string(hexDigits[raw[0]&0xf])
	case r >= 0x80 && r <= 0x9f, invisible(r):
		return `\u` + string(hexDigits[r>>12]) + string(hexDigits[r>>8&0xf]) + string(hexDigits[r>>4&0xf]) + string(hexDigits[r&0xf])
	}
	return ""
})
