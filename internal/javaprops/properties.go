package javaprops

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
)

// Properties are the entries of a Java properties file. A key given twice
// keeps its last value, as java.util.Properties does.
type Properties struct {
	entries map[string]Entry
}

// Entry is one key with its value and where it was defined.
type Entry struct {
	Key   string
	Value string
	// Line is the 1-based line where the entry starts in its file; 0 for an
	// entry that came from somewhere else (a config file's inline
	// properties).
	Line int
}

// Get returns the entry for key.
func (p Properties) Get(key string) (Entry, bool) {
	e, ok := p.entries[key]
	return e, ok
}

// Entries returns the entries sorted by line, then key, so validation
// reports the first problem in file order.
func (p Properties) Entries() []Entry {
	return slices.SortedFunc(maps.Values(p.entries), func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Key, b.Key))
	})
}

// Merge returns p with every entry of over replacing p's entry of the same
// key.
func (p Properties) Merge(over Properties) Properties {
	out := Properties{entries: make(map[string]Entry, len(p.entries)+len(over.entries))}
	maps.Copy(out.entries, p.entries)
	maps.Copy(out.entries, over.entries)
	return out
}

// FromMap builds properties from inline key/value pairs (no line numbers).
func FromMap(m map[string]string) Properties {
	p := Properties{entries: make(map[string]Entry, len(m))}
	for k, v := range m {
		p.entries[k] = Entry{Key: k, Value: v}
	}
	return p
}

// ShownKey is how messages name a property key: quoted when it looks like
// a property name (lower-case words joined by '.', at least two of them,
// as every Kafka client property is), else not at all. A line that is
// not a property, such as the second line of a sasl.jaas.config that
// lost its ending backslash, is read as a key, and may be a secret.
func ShownKey(key string) string {
	if LooksLikePropertyName(key) {
		return strconv.Quote(key)
	}
	return "(name not shown: not a property name, may be part of a secret)"
}

// LooksLikePropertyName tells the keys ShownKey quotes.
func LooksLikePropertyName(key string) bool {
	if !strings.Contains(key, ".") || strings.HasPrefix(key, ".") || strings.HasSuffix(key, ".") || strings.Contains(key, "..") {
		return false
	}
	for _, c := range key {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// SyntaxError is a line that java.util.Properties would reject.
type SyntaxError struct {
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// ParseBytes parses a properties file as Java's Properties.load(InputStream)
// does, which is how Kafka's tools read --command-config: the bytes are
// ISO-8859-1, so characters outside Latin-1 must be written as \uXXXX (a
// UTF-8 file with such characters means different bytes to Java, and the
// same bytes here).
func ParseBytes(data []byte) (Properties, error) {
	rs := make([]rune, len(data))
	for i, b := range data {
		rs[i] = rune(b)
	}
	return parse(rs)
}

// parse follows java.util.Properties.load: LineReader joins natural lines
// into logical lines, then load0 splits key and value and loadConvert
// resolves escapes.
func parse(in []rune) (Properties, error) {
	p := Properties{entries: map[string]Entry{}}
	lr := lineReader{in: in, line: 1}
	for {
		buf, line, ok := lr.readLine()
		if !ok {
			return p, nil
		}
		keyLen, valueStart := splitKeyValue(buf)
		key, err := unescape(buf[:keyLen])
		if err != nil {
			return Properties{}, &SyntaxError{Line: line, Msg: err.Error()}
		}
		value, err := unescape(buf[valueStart:])
		if err != nil {
			return Properties{}, &SyntaxError{Line: line, Msg: fmt.Sprintf("property %s: %v", ShownKey(key), err)}
		}
		p.entries[key] = Entry{Key: key, Value: value, Line: line}
	}
}

// splitKeyValue is load0's split of a logical line: the key runs to the
// first unescaped '=', ':' or white space; the value starts after the
// white space and at most one separator that follow.
func splitKeyValue(buf []rune) (keyLen, valueStart int) {
	valueStart = len(buf)
	hasSep, backslash := false, false
	for keyLen < len(buf) {
		c := buf[keyLen]
		if (c == '=' || c == ':') && !backslash {
			valueStart, hasSep = keyLen+1, true
			break
		}
		if isWhite(c) && !backslash {
			valueStart = keyLen + 1
			break
		}
		backslash = c == '\\' && !backslash
		keyLen++
	}
	for valueStart < len(buf) {
		c := buf[valueStart]
		if !isWhite(c) {
			if hasSep || (c != '=' && c != ':') {
				break
			}
			hasSep = true
		}
		valueStart++
	}
	return keyLen, valueStart
}

// isWhite is Properties' white space: space, tab and form feed.
func isWhite(c rune) bool { return c == ' ' || c == '\t' || c == '\f' }

// lineReader is java.util.Properties.LineReader over runes.
type lineReader struct {
	in   []rune
	off  int
	line int // line number of in[off]
}

// readLine returns the next logical line, without comments, leading white
// space and continuation backslashes, and the line it started on.
func (lr *lineReader) readLine() (buf []rune, start int, ok bool) {
	skipWhite, appendedLineBegin, backslash := true, false, false
	start = lr.line
	for {
		if lr.off >= len(lr.in) {
			if len(buf) == 0 {
				return nil, 0, false
			}
			if backslash {
				buf = buf[:len(buf)-1]
			}
			return buf, start, true
		}
		c := lr.in[lr.off]
		lr.off++
		if skipWhite {
			if lr.skipsWhite(c, appendedLineBegin) {
				continue
			}
			skipWhite, appendedLineBegin = false, false
		}
		if len(buf) == 0 {
			start = lr.line
			if c == '#' || c == '!' {
				lr.skipComment()
				skipWhite = true
				continue
			}
		}
		if c != '\n' && c != '\r' {
			buf = append(buf, c)
			backslash = c == '\\' && !backslash
			continue
		}
		lr.newline(c)
		if len(buf) == 0 {
			skipWhite = true
			continue
		}
		if !backslash {
			return buf, start, true
		}
		buf = buf[:len(buf)-1]
		skipWhite, appendedLineBegin, backslash = true, true, false
	}
}

// skipsWhite reports whether c, read while skipping leading white space,
// is skipped: white space, or a line break unless a continuation line has
// just begun.
func (lr *lineReader) skipsWhite(c rune, appendedLineBegin bool) bool {
	if isWhite(c) {
		return true
	}
	if !appendedLineBegin && (c == '\r' || c == '\n') {
		lr.newline(c)
		return true
	}
	return false
}

// skipComment skips to the end of a comment line, leaving its line break.
func (lr *lineReader) skipComment() {
	for lr.off < len(lr.in) && lr.in[lr.off] != '\n' && lr.in[lr.off] != '\r' {
		lr.off++
	}
}

// newline counts a line break whose first character c was just read,
// consuming the \n of a \r\n pair.
func (lr *lineReader) newline(c rune) {
	if c == '\r' && lr.off < len(lr.in) && lr.in[lr.off] == '\n' {
		lr.off++
	}
	lr.line++
}

// escapes are the characters loadConvert's \t \r \n \f stand for.
var escapes = map[rune]rune{'t': '\t', 'r': '\r', 'n': '\n', 'f': '\f'}

// unescape is Properties.loadConvert: \uXXXX (UTF-16 code units, so
// surrogate pairs combine), \t \n \r \f, and any other escaped character
// stands for itself.
func unescape(in []rune) (string, error) {
	if !slices.Contains(in, '\\') {
		return string(in), nil
	}
	var units []uint16
	for i := 0; i < len(in); i++ {
		c := in[i]
		if c == '\\' && i+1 < len(in) {
			i++
			c = in[i]
			if c == 'u' {
				if i+4 >= len(in) {
					return "", fmt.Errorf(`malformed \uxxxx encoding`)
				}
				v, err := strconv.ParseUint(string(in[i+1:i+5]), 16, 16)
				if err != nil {
					return "", fmt.Errorf(`malformed \uxxxx encoding`)
				}
				units = append(units, uint16(v))
				i += 4
				continue
			}
			c = cmp.Or(escapes[c], c)
		}
		units = utf16.AppendRune(units, c)
	}
	return string(utf16.Decode(units)), nil
}
