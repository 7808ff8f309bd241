package format

// The JSON and YAML encoder of the documents (Encode): encoding/json
// (two-space indent, no HTML escaping) and go.yaml.in/yaml/v3
// (SetIndent(2)), with two additions:
//   - a topology description made from its model (NewTopologyDoc) is
//     streamed into its place one node at a time (encode_topology.go), so
//     -o json|yaml of a 1,000,000-node topology costs about what its text
//     costs, where encoding/json builds the whole output in memory first
//     and yaml.v3 takes about 17 KB per node. The library writes a marker
//     in its place, a string no input can hold (a random number per call),
//     and the marker is replaced while the output is copied to w;
//   - JSON writes DEL and the C1 controls (U+0080 to U+009F) as \u007f to
//     \u009f, which encoding/json leaves raw for a terminal to obey.
// TestEncode_matchesTheLibraries compares it with both libraries on every
// document type; TestEncode_topologyFromTheModel and FuzzEncodeStrings
// compare the streamed topology with the materialized one.
//
// The hand-written parts are kept for what their benchmarks show (CPU time
// per op, issue 32): streaming, BenchmarkEncodeTopology100k: 0.4 MB
// allocated per op where the materialized document takes 141 MB (json) and
// 3.2 GB (yaml); indentJSON, BenchmarkEncodeDocument/json; the topology's
// own writers, encode_topology.go.

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// encode is Encode (output.go).
func encode(w io.Writer, o Output, v any) error {
	sp := newSplicer()
	v = sp.mark(v)
	var b bytes.Buffer
	switch o {
	case JSON:
		// Compact first, then indented by indentJSON: encoding/json's
		// own indentation (SetIndent) runs its scanner over every byte
		// and was most of the cost of a large document.
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return err
		}
		compact := escapeDELAndC1(bytes.TrimSuffix(b.Bytes(), []byte{'\n'}))
		if len(sp.models) == 0 {
			// Nothing to splice: indented straight into w.
			_, err := indentJSON(make([]byte, 0, jsonChunk+4<<10), compact, w)
			return err
		}
		out, _ := indentJSON(make([]byte, 0, 2*len(compact)), compact, nil)
		return sp.write(w, o, out)
	case YAML:
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		if err := enc.Encode(v); err != nil {
			return err
		}
		if err := enc.Close(); err != nil {
			return err
		}
		return sp.write(w, o, b.Bytes())
	}
	return fmt.Errorf("format %q is not a document format", o)
}

// indentJSON appends src, one value as encoding/json writes it compact
// (no space outside strings), to dst indented as json.Indent(dst, src, "",
// "  ") does, and a newline, as json.Encoder writes with SetIndent("",
// "  "): a newline and two spaces per level after an opening bracket and
// each comma, a space after each colon, empty objects and arrays kept as
// {} and []. Strings are copied whole. With w, dst is written to w
// whenever it holds jsonChunk bytes, and at the end (dst is then empty).
// FuzzIndentJSON compares it with json.Indent. It pays:
// BenchmarkEncodeDocument/json takes 13 ms with it, 44 ms with
// encoding/json's SetIndent (whose scanner re-reads every byte).
func indentJSON(dst, src []byte, w io.Writer) ([]byte, error) {
	depth := 0
	open := false // an opening bracket waits for its first element
	for i := 0; i < len(src); i++ {
		c := src[i]
		if open && c != '}' && c != ']' {
			open = false
			depth++
			dst = jsonNewline(dst, depth)
		}
		switch c {
		case '"':
			j := jsonStringEnd(src, i)
			dst = append(dst, src[i:j+1]...)
			i = j
		case '{', '[':
			open = true
			dst = append(dst, c)
		case ',':
			dst = jsonNewline(append(dst, c), depth)
			if w != nil && len(dst) >= jsonChunk {
				if _, err := w.Write(dst); err != nil {
					return dst[:0], err
				}
				dst = dst[:0]
			}
		case ':':
			dst = append(dst, ':', ' ')
		case '}', ']':
			if !open {
				depth--
				dst = jsonNewline(dst, depth)
			}
			open = false
			dst = append(dst, c)
		default:
			// A number or a literal: to the next punctuation.
			j := i + 1
			for j < len(src) && !isJSONPunct(src[j]) {
				j++
			}
			dst = append(dst, src[i:j]...)
			i = j - 1
		}
	}
	dst = append(dst, '\n')
	if w != nil {
		_, err := w.Write(dst)
		return dst[:0], err
	}
	return dst, nil
}

// jsonStringEnd is the index of the quote that closes the string opening
// at src[i]: the next one not escaped, that is, after an even number of
// backslashes (the last byte when there is none).
func jsonStringEnd(src []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(src[j:], '"')
		if k < 0 {
			return len(src) - 1
		}
		j += k
		bs := 0
		for bs < j-i-1 && src[j-1-bs] == '\\' {
			bs++
		}
		if bs%2 == 0 {
			return j
		}
		j++
	}
}

// jsonChunk is how much indentJSON gathers before a write.
const jsonChunk = 64 << 10

// jsonNewline appends a newline and the indentation of depth.
func jsonNewline(dst []byte, depth int) []byte {
	const spaces = "                                                                "
	dst = append(dst, '\n')
	for n := 2 * depth; n > 0; {
		k := min(n, len(spaces))
		dst = append(dst, spaces[:k]...)
		n -= k
	}
	return dst
}

func isJSONPunct(c byte) bool {
	switch c {
	case '{', '}', '[', ']', ',', ':', '"':
		return true
	}
	return false
}

// escapeDELAndC1 writes DEL and the C1 controls of encoding/json's output
// as \u00XX. They can only be inside its strings, and its output is valid
// UTF-8, so a 0xC2 byte always starts a character.
func escapeDELAndC1(out []byte) []byte {
	if bytes.IndexByte(out, 0x7f) < 0 && bytes.IndexByte(out, 0xc2) < 0 {
		return out
	}
	b := make([]byte, 0, len(out)+32)
	for i := 0; i < len(out); i++ {
		switch c := out[i]; {
		case c == 0x7f:
			b = append(b, `\u007f`...)
		case c == 0xc2 && i+1 < len(out) && out[i+1] >= 0x80 && out[i+1] <= 0x9f:
			i++
			b = append(b, '\\', 'u', '0', '0', hexDigits[out[i]>>4&0xf], hexDigits[out[i]&0xf])
		default:
			b = append(b, c)
		}
	}
	return b
}

// splicer replaces the topology descriptions of a document with markers
// for the library, and the markers of its output with the topologies.
type splicer struct {
	// prefix starts every marker of one Encode; a marker is prefix and the
	// index in models.
	prefix string
	models []*topology.Description
}

func newSplicer() *splicer {
	var nonce [8]byte
	_, _ = rand.Read(nonce[:]) // never fails (crypto/rand)
	return &splicer{prefix: "kstreams-groups-topology-" + hex.EncodeToString(nonce[:]) + "-"}
}

// mark returns v with each topology description made from a model, in the
// documents that hold one, replaced by a marker. A document not listed
// here that holds one still encodes right, materialized first
// (TopologyDoc.MarshalJSON).
func (s *splicer) mark(v any) any {
	switch d := v.(type) {
	case *TopologyDoc:
		return s.marked(d)
	case TopologyDoc:
		return s.marked(&d)
	case *DescribeDoc:
		if d != nil {
			return s.mark(*d)
		}
	case DescribeDoc:
		groups := make([]GroupDoc, len(d.Groups))
		for i, g := range d.Groups {
			g.TopologyDescription = s.marked(g.TopologyDescription)
			groups[i] = g
		}
		if d.Groups != nil {
			d.Groups = groups
		}
		return d
	}
	return v
}

func (s *splicer) marked(t *TopologyDoc) *TopologyDoc {
	if t == nil || t.model == nil {
		return t
	}
	s.models = append(s.models, t.model)
	return &TopologyDoc{marker: s.prefix + strconv.Itoa(len(s.models)-1)}
}

// write copies the library's output to w with each marker replaced by its
// topology: in JSON a string, at any place; in YAML a plain scalar, the
// whole document or a key's value.
func (s *splicer) write(w io.Writer, o Output, out []byte) error {
	e := newDocEncoder(w)
	for len(s.models) > 0 {
		i := bytes.Index(out, []byte(s.prefix))
		if i < 0 {
			break
		}
		end := i + len(s.prefix)
		for end < len(out) && out[end] >= '0' && out[end] <= '9' {
			end++
		}
		n, err := strconv.Atoi(string(out[i+len(s.prefix) : end]))
		if err != nil || n >= len(s.models) {
			return fmt.Errorf("encoding a topology: bad marker %q", out[i:end])
		}
		line := out[bytes.LastIndexByte(out[:i], '\n')+1 : i]
		col := len(line) - len(bytes.TrimLeft(line, " -"))
		switch {
		case o == JSON: // "marker"
			e.write(out[:i-1])
			e.jsonTopology(s.models[n], (len(line)-len(bytes.TrimLeft(line, " ")))/2)
			out = out[end+1:]
		case len(line) == 0: // marker\n: the document
			e.write(out[:i])
			e.yamlTopology(s.models[n], 0)
			out = out[end+1:]
		default: // key: marker\n
			e.write(out[:i-1])
			e.byte('\n')
			e.yamlTopology(s.models[n], col+2)
			out = out[end+1:]
		}
	}
	e.write(out)
	return e.finish()
}

// plainTopologyDoc is TopologyDoc without its marshalers.
type plainTopologyDoc TopologyDoc

// MarshalJSON writes the fields of t; one made from its model is its
// marker inside Encode and materialized elsewhere.
func (t TopologyDoc) MarshalJSON() ([]byte, error) {
	if t.marker != "" {
		return json.Marshal(t.marker)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(plainTopologyDoc(t.materialized()))
	return b.Bytes(), err
}

// MarshalYAML is MarshalJSON's counterpart.
func (t TopologyDoc) MarshalYAML() (any, error) {
	if t.marker != "" {
		return t.marker, nil
	}
	return plainTopologyDoc(t.materialized()), nil
}

// materialized is t with its fields made from its model, if it has one.
func (t TopologyDoc) materialized() TopologyDoc {
	d := t.model
	if d == nil {
		return t
	}
	out := TopologyDoc{Subtopologies: make([]SubtopologyDoc, 0, len(d.Subtopologies)), GlobalStores: make([]GlobalStoreDoc, 0, len(d.GlobalStores))}
	for _, s := range d.Subtopologies {
		ns := SubtopologyDoc{ID: s.ID, Nodes: make([]NodeDoc, 0, len(s.Nodes))}
		for _, n := range s.Nodes {
			ns.Nodes = append(ns.Nodes, nodeDoc(n, d.StoresAsGiven))
		}
		out.Subtopologies = append(out.Subtopologies, ns)
	}
	for _, g := range d.GlobalStores {
		out.GlobalStores = append(out.GlobalStores, GlobalStoreDoc{ID: g.ID, Source: nodeDoc(g.Source, d.StoresAsGiven), Processor: nodeDoc(g.Processor, d.StoresAsGiven)})
	}
	return out
}

// docEncoder writes a streamed topology; the first write error sticks and
// ends the walk early (a signal's closed stdout stops a large document at
// once).
type docEncoder struct {
	w   *bufio.Writer
	err error
	// storesAsGiven is the StoresAsGiven of the description being written.
	storesAsGiven bool
}

func newDocEncoder(w io.Writer) *docEncoder {
	return &docEncoder{w: bufio.NewWriterSize(w, 64<<10)}
}

func (e *docEncoder) str(s string) {
	if e.err == nil {
		_, e.err = e.w.WriteString(s)
	}
}

func (e *docEncoder) write(b []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(b)
	}
}

func (e *docEncoder) byte(b byte) {
	if e.err == nil {
		e.err = e.w.WriteByte(b)
	}
}

func (e *docEncoder) spaces(n int) {
	const blank = "                                                                "
	for n > len(blank) {
		e.str(blank)
		n -= len(blank)
	}
	e.str(blank[:n])
}

func (e *docEncoder) finish() error {
	if e.err != nil {
		return e.err
	}
	return e.w.Flush()
}

// jsonQuoting is encoding/json's without HTML escaping (\b \f \n \r \t,
// other controls \u00XX, U+2028 and U+2029 escaped, invalid UTF-8 as
// U+FFFD), with DEL and the C1 controls as \u00XX too: the topology's
// strings, for BenchmarkEncodeTopology100k/json (encode_topology.go).
var jsonQuoting = newQuoting(`"\`, func(r rune, raw string) string {
	switch {
	case r == utf8.RuneError && len(raw) == 1:
		return `\ufffd`
	case r == '"':
		return `\"`
	case r == '\\':
		return `\\`
	case r == '\b':
		return `\b`
	case r == '\f':
		return `\f`
	case r == '\n':
		return `\n`
	case r == '\r':
		return `\r`
	case r == '\t':
		return `\t`
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return `\u00` + string(hexDigits[r>>4]) + string(hexDigits[r&0xf])
	case r == '\u2028':
		return `\u2028`
	case r == '\u2029':
		return `\u2029`
	}
	return ""
})

// writeJSONString writes s as a JSON string.
func writeJSONString(e *docEncoder, s string) { jsonQuoting.write(e, s) }

// WriteString and WriteByte let quoting write through the encoder.
func (e *docEncoder) WriteString(s string) (int, error) {
	e.str(s)
	return len(s), e.err
}

func (e *docEncoder) WriteByte(b byte) error {
	e.byte(b)
	return e.err
}

// ---- YAML ----

// yamlString writes s as yaml.v3 does at its place: the plain names and
// the numbers, nearly every string of a topology, by hand
// (BenchmarkEncodeTopology100k/yaml, encode_topology.go), any other by
// yaml.v3 itself.
func (e *docEncoder) yamlString(s string, at yamlPlace) {
	switch {
	case yamlPlain(s):
		e.str(s)
		e.byte('\n')
		return
	case allDigits(s):
		// A number to YAML (an int, or a float when too long or not
		// octal): yaml.v3 double-quotes it. Subtopology ids are.
		e.byte('"')
		e.str(s)
		e.str("\"\n")
		return
	}
	e.str(yamlInPlace(s, at))
}

// yamlPlace is where a scalar is: the value of a key at column indent, or
// with item set a sequence item whose "- " is at column indent. A block
// scalar's lines, and the line a U+2028 or U+2029 in a quoted scalar
// breaks, are indented from there.
type yamlPlace struct {
	indent int
	item   bool
}

// yamlInPlace is what yaml.v3 writes for s at its place, from the key or
// "- " on: s in a document that puts it there, after the text before it.
// It ends with the line break, or without one when s ends with a break
// yaml.v3 counts as one (U+2028, U+2029).
func yamlInPlace(s string, at yamlPlace) string {
	var v any
	var prefix strings.Builder
	levels := at.indent / 2
	if at.item {
		v = []any{s}
		if levels > 0 {
			v = map[string]any{"k": v}
			levels--
		}
	} else {
		v = map[string]any{"k": s}
	}
	for i := 0; i < levels; i++ {
		prefix.WriteString(strings.Repeat("  ", i) + "a:\n")
		v = map[string]any{"a": v}
	}
	switch {
	case at.item && at.indent > 0:
		prefix.WriteString(strings.Repeat(" ", at.indent-2) + "k:\n" + strings.Repeat(" ", at.indent) + "- ")
	case at.item:
		prefix.WriteString("- ")
	default:
		prefix.WriteString(strings.Repeat(" ", at.indent) + "k: ")
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return strconv.Quote(s) + "\n" // unreachable: yaml.v3 encodes every string
	}
	_ = enc.Close()
	out, ok := strings.CutPrefix(b.String(), prefix.String())
	if !ok {
		return strconv.Quote(s) + "\n" // unreachable: the layout above is yaml.v3's
	}
	return out
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// yamlPlain tells the strings yaml.v3 writes as they are: a letter, then
// letters, digits and _ . / -, except the words that YAML reads as a
// boolean or null. Anything else goes to yaml.v3 itself.
func yamlPlain(s string) bool {
	if s == "" || len(s) > 1024 {
		return false
	}
	if c := s[0]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '/' || c == '-') {
			return false
		}
	}
	if len(s) <= 5 {
		switch strings.ToLower(s) {
		case "y", "yes", "n", "no", "on", "off", "true", "false", "null":
			return false
		}
	}
	return true
}
