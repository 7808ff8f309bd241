package format

// The JSON and YAML encoder of the documents (Encode). It writes the bytes
// encoding/json (two-space indent, no HTML escaping) and go.yaml.in/yaml/v3
// (SetIndent(2)) write for the document types of this package, with two
// differences:
//   - it streams: nothing is built before it is written, and a topology
//     description is turned into its document one subtopology at a time
//     (TopologyDoc's model), so -o json|yaml of a 1,000,000-node topology
//     costs about what its text costs, where encoding/json built the whole
//     output in memory first and yaml.v3 about 17 KB per node;
//   - JSON writes DEL and the C1 controls (U+0080 to U+009F) as \u007f to
//     \u009f, which encoding/json leaves raw for a terminal to obey.
// The document types use what this encoder knows: structs with json and
// yaml tags (omitempty; an embedded struct or struct pointer tagged
// ",inline" has its fields written in place, nothing when nil), pointers,
// slices, strings, bools and integers. TestEncode_matchesTheLibraries compares it with both libraries
// on every document type; FuzzEncodeStrings on any string.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// docEncoder writes one document; the first write error sticks and ends
// the walk early (a signal's closed stdout stops a large document at once).
type docEncoder struct {
	w   *bufio.Writer
	err error
	// yamlScalars memoizes yaml.v3's rendering of the strings the fast
	// path does not take, which repeat (topic names, ids).
	yamlScalars map[yamlScalarKey]string
}

// maxMemoized bounds yamlScalars.
const maxMemoized = 1 << 12

func newDocEncoder(w io.Writer) *docEncoder {
	return &docEncoder{w: bufio.NewWriterSize(w, 64<<10)}
}

func (e *docEncoder) str(s string) {
	if e.err == nil {
		_, e.err = e.w.WriteString(s)
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

// seq is a sequence to write: a slice, or a TopologyDoc's subtopologies
// made one at a time.
type seq struct {
	n  int
	at func(i int) reflect.Value
	// null is a nil slice: JSON null.
	null bool
}

func sliceSeq(v reflect.Value) seq {
	return seq{n: v.Len(), at: v.Index, null: v.IsNil()}
}

// docField is one field of a struct that is written.
type docField struct {
	key string
	v   reflect.Value
	// lazy, when set, is the value instead of v.
	lazy *seq
}

// structInfo is a struct type's fields, computed once per type.
type structInfo struct {
	fields []fieldInfo
}

type fieldInfo struct {
	index     int
	key       string
	omitEmpty bool
	// inline is an embedded struct whose fields are written in place, as
	// both libraries write an untagged (json) or ",inline" (yaml) one.
	inline bool
}

var structInfos sync.Map // reflect.Type -> *structInfo

func infoOf(t reflect.Type) *structInfo {
	if si, ok := structInfos.Load(t); ok {
		return si.(*structInfo)
	}
	si := &structInfo{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			si.fields = append(si.fields, fieldInfo{index: i, inline: true})
			continue
		}
		if name == "" {
			name = f.Name
		}
		si.fields = append(si.fields, fieldInfo{index: i, key: name, omitEmpty: strings.Contains(","+opts+",", ",omitempty,")})
	}
	structInfos.Store(t, si)
	return si
}

// fieldsOf lists the fields of struct v that are written, in order.
func fieldsOf(v reflect.Value) []docField {
	if fields, ok := refFields(v); ok {
		return fields
	}
	if v.Type() == topologyDocType {
		if td := v.Addr().Interface().(*TopologyDoc); td.model != nil {
			return td.lazyFields()
		}
	}
	si := infoOf(v.Type())
	out := make([]docField, 0, len(si.fields))
	for _, f := range si.fields {
		fv := v.Field(f.index)
		if f.inline {
			if sub, ok := deref(fv); ok {
				out = append(out, fieldsOf(addressable(sub))...)
			}
			continue
		}
		if f.omitEmpty && isEmpty(fv) {
			continue
		}
		out = append(out, docField{key: f.key, v: fv})
	}
	return out
}

var topologyDocType = reflect.TypeFor[TopologyDoc]()

// isEmpty is omitempty's test, the same in both libraries for the kinds
// the documents use.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		return v.IsNil()
	case reflect.Slice, reflect.Map, reflect.String, reflect.Array:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return v.Uint() == 0
	}
	return false
}

// deref follows pointers; ok is false at a nil one.
func deref(v reflect.Value) (reflect.Value, bool) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return v, false
		}
		v = v.Elem()
	}
	return v, true
}

// addressable returns v, or an addressable copy (fieldsOf takes a
// TopologyDoc's address).
func addressable(v reflect.Value) reflect.Value {
	if v.CanAddr() {
		return v
	}
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return c
}

// errUnsupported is a document holding a kind the encoder does not write.
var errUnsupported = errors.New("unsupported document value")

// ---- JSON ----

func (e *docEncoder) json(v reflect.Value, depth int) {
	if e.err != nil {
		return
	}
	v, ok := deref(v)
	if !ok {
		e.str("null")
		return
	}
	switch {
	case v.Type() == nodeRefType:
		e.jsonNode(v.Interface().(nodeRef).n, depth)
	case v.Kind() == reflect.Struct:
		e.jsonObject(fieldsOf(addressable(v)), depth)
	case v.Kind() == reflect.Slice:
		e.jsonArray(sliceSeq(v), depth)
	default:
		e.jsonScalar(v)
	}
}

func (e *docEncoder) jsonObject(fields []docField, depth int) {
	if len(fields) == 0 {
		e.str("{}")
		return
	}
	e.str("{\n")
	for i, f := range fields {
		e.spaces(2 * (depth + 1))
		writeJSONString(e, f.key)
		e.str(": ")
		if f.lazy != nil {
			e.jsonArray(*f.lazy, depth+1)
		} else {
			e.json(f.v, depth+1)
		}
		if i < len(fields)-1 {
			e.byte(',')
		}
		e.byte('\n')
	}
	e.spaces(2 * depth)
	e.byte('}')
}

func (e *docEncoder) jsonArray(s seq, depth int) {
	switch {
	case s.null:
		e.str("null")
		return
	case s.n == 0:
		e.str("[]")
		return
	}
	e.str("[\n")
	for i := 0; i < s.n && e.err == nil; i++ {
		e.spaces(2 * (depth + 1))
		e.json(s.at(i), depth+1)
		if i < s.n-1 {
			e.byte(',')
		}
		e.byte('\n')
	}
	e.spaces(2 * depth)
	e.byte(']')
}

func (e *docEncoder) jsonScalar(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		writeJSONString(e, v.String())
	case reflect.Bool:
		e.str(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.str(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		e.str(strconv.FormatUint(v.Uint(), 10))
	default:
		if e.err == nil {
			e.err = fmt.Errorf("%w: %s", errUnsupported, v.Type())
		}
	}
}

// jsonQuoting is encoding/json's without HTML escaping (\b \f \n \r \t,
// other controls \u00XX, U+2028 and U+2029 escaped, invalid UTF-8 as
// U+FFFD), with DEL and the C1 controls as \u00XX too.
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
//
// yaml.v3 with an indent of 2: a mapping's keys at its indent, a mapping
// value on its own lines 2 deeper, a sequence's "- " 2 deeper than its key
// with an item mapping's keys after it, empty sequences and mappings as []
// and {}, and block scalars indented 2 deeper than what holds them.

// yamlTop writes v as a whole document.
func (e *docEncoder) yamlTop(v reflect.Value) {
	e.yamlInline(v, 0, yamlPlace{})
}

// yamlInline writes a value that starts where the writer is (the start of
// the document, or after a "- " at at.indent): a mapping's or sequence's
// later lines at indent.
func (e *docEncoder) yamlInline(v reflect.Value, indent int, at yamlPlace) {
	v, ok := deref(v)
	switch {
	case !ok:
		e.str("null\n")
	case v.Type() == nodeRefType:
		e.yamlNode(v.Interface().(nodeRef).n, indent, true)
	case v.Kind() == reflect.Struct:
		if fields := fieldsOf(addressable(v)); len(fields) > 0 {
			e.yamlMapping(fields, indent, true)
		} else {
			e.str("{}\n")
		}
	case v.Kind() == reflect.Slice:
		if v.Len() == 0 {
			e.str("[]\n")
		} else {
			e.yamlSequence(sliceSeq(v), indent, true)
		}
	default:
		e.yamlScalar(v, at)
	}
}

// yamlMapping writes fields as a block mapping at indent; inline means the
// first key follows a "- " already written.
func (e *docEncoder) yamlMapping(fields []docField, indent int, inline bool) {
	for i, f := range fields {
		if i > 0 || !inline {
			e.spaces(indent)
		}
		e.str(f.key)
		e.byte(':')
		if f.lazy != nil {
			e.yamlSeqValue(*f.lazy, indent)
			continue
		}
		v, ok := deref(f.v)
		switch {
		case !ok:
			e.str(" null\n")
		case v.Type() == nodeRefType:
			e.byte('\n')
			e.yamlNode(v.Interface().(nodeRef).n, indent+2, false)
		case v.Kind() == reflect.Struct:
			if sub := fieldsOf(addressable(v)); len(sub) > 0 {
				e.byte('\n')
				e.yamlMapping(sub, indent+2, false)
			} else {
				e.str(" {}\n")
			}
		case v.Kind() == reflect.Slice:
			e.yamlSeqValue(sliceSeq(v), indent)
		default:
			e.byte(' ')
			e.yamlScalar(v, yamlPlace{indent: indent})
		}
	}
}

// yamlSeqValue writes a sequence that is the value of a key at indent.
func (e *docEncoder) yamlSeqValue(s seq, indent int) {
	if s.n == 0 {
		e.str(" []\n")
		return
	}
	e.byte('\n')
	e.yamlSequence(s, indent+2, false)
}

// yamlSequence writes s as a block sequence whose "- " is at indent.
func (e *docEncoder) yamlSequence(s seq, indent int, inline bool) {
	for i := 0; i < s.n && e.err == nil; i++ {
		if i > 0 || !inline {
			e.spaces(indent)
		}
		e.str("- ")
		e.yamlInline(s.at(i), indent+2, yamlPlace{indent: indent, item: true})
	}
}

// yamlScalar writes a scalar at its place and its line break.
func (e *docEncoder) yamlScalar(v reflect.Value, at yamlPlace) {
	switch v.Kind() {
	case reflect.String:
		e.yamlString(v.String(), at)
	case reflect.Bool:
		e.str(strconv.FormatBool(v.Bool()))
		e.byte('\n')
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.str(strconv.FormatInt(v.Int(), 10))
		e.byte('\n')
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		e.str(strconv.FormatUint(v.Uint(), 10))
		e.byte('\n')
	default:
		if e.err == nil {
			e.err = fmt.Errorf("%w: %s", errUnsupported, v.Type())
		}
	}
}

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
	key := yamlScalarKey{s: s, at: at}
	out, ok := e.yamlScalars[key]
	if !ok {
		out = yamlInPlace(s, at)
		if len(s) <= 256 && len(e.yamlScalars) < maxMemoized {
			if e.yamlScalars == nil {
				e.yamlScalars = map[yamlScalarKey]string{}
			}
			e.yamlScalars[key] = out
		}
	}
	e.str(out)
}

// yamlPlace is where a scalar is: the value of a key at column indent, or
// with item set a sequence item whose "- " is at column indent. A block
// scalar's lines, and the line a U+2028 or U+2029 in a quoted scalar
// breaks, are indented from there.
type yamlPlace struct {
	indent int
	item   bool
}

type yamlScalarKey struct {
	s  string
	at yamlPlace
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
