package format

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// libraryEncode is what encoding/json (with DEL and C1 controls escaped,
// the one difference Encode makes on purpose) and yaml.v3 write for v.
func libraryEncode(t testing.TB, o Output, v any) string {
	t.Helper()
	var b bytes.Buffer
	switch o {
	case JSON:
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		require.NoError(t, enc.Encode(v))
		return referenceEscapeDELAndC1(b.String())
	case YAML:
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		require.NoError(t, enc.Encode(v))
		require.NoError(t, enc.Close())
	}
	return b.String()
}

// referenceEscapeDELAndC1 writes DEL and C1 controls of a JSON text as \u00XX; they
// can only be inside its strings.
func referenceEscapeDELAndC1(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == 0x7f || r >= 0x80 && r <= 0x9f {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func ourEncode(t testing.TB, o Output, v any) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, Encode(&b, o, v))
	return b.String()
}

// materialized is the TopologyDoc of d with its fields filled, as the
// libraries need it.
func materialized(d *topology.Description) *TopologyDoc {
	if d == nil {
		return nil
	}
	m := NewTopologyDoc(d).materialized()
	return &m
}

// trickyStrings are the strings whose quoting the libraries decide with
// care: YAML's special words and indicators, numbers, block scalars,
// controls, bidi characters, invalid UTF-8.
var trickyStrings = []string{
	"", "a", "KSTREAM-SOURCE-0000000000", "wc-app", "0", "10", "007", "09", "08.5", "99999999999999999999999", "-1", "1.5", "1e3", "0x1F", "0o7", ".inf", "-.inf", ".nan",
	"true", "False", "YES", "no", "on", "Off", "y", "N", "null", "Null", "~", "<<", "2001-12-14", "12:30", "1_000",
	"-", "- x", "-x", "?", "? x", ":", "a:b", "a: b", "a #b", "#x", "&a", "*a", "!t", "|", ">", "'q", "\"q", "%x", "@x", "`x",
	"[a]", "{a}", "a,b", " lead", "trail ", "a  b", "a\tb", "\ta", "l1\nl2", "l1\nl2\n", "\nx", "x\n\n", "\n", " a\nb", "a\r\nb",
	"---", "...", "--- x", "é", "日本", "\u00a0", "\x7f", "\u0085", "\u0080", "\u009f", "\u2028", "\u2029", "\u202e", "\u200b",
	"\ufeff", "\x1b[31mred", "\x00", "\xff", "a\xffb", "<b>&amp;</b>", `back\slash`, "a/b", "a.b_c", "0a", "a0",
	strings.Repeat("long-", 40),
}

// randomString is one of trickyStrings or a random mix of their runes.
func randomString(r *rand.Rand) string {
	if r.IntN(3) > 0 {
		return trickyStrings[r.IntN(len(trickyStrings))]
	}
	var b strings.Builder
	for range r.IntN(8) {
		s := trickyStrings[r.IntN(len(trickyStrings))]
		if s != "" {
			b.WriteString(s[:1+r.IntN(len(s))])
		}
	}
	return b.String()
}

// fill gives v (settable) random content: strings from randomString,
// integers of every sign, floats, times, pointers nil or not, slices and
// maps nil, empty or not, interfaces holding any of them.
func fill(r *rand.Rand, v reflect.Value, depth int) {
	if v.Type() == timeType {
		v.Set(reflect.ValueOf(time.Unix(r.Int64N(4e9)-1e9, r.Int64N(1e9)).In(time.FixedZone("", 60*(r.IntN(1500)-750)))))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(randomString(r))
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		switch r.IntN(3) {
		case 0:
			v.SetInt(0)
		case 1:
			v.SetInt(int64(r.IntN(100) - 50))
		default:
			v.SetInt(r.Int64() >> (64 - v.Type().Bits()))
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(r.IntN(70000)) & (1<<v.Type().Bits() - 1))
	case reflect.Float32, reflect.Float64:
		f := []float64{0, -0.5, 1, 1e21, 1e-7, 123456.789, -3.25e-300}[r.IntN(7)] * (1 + float64(r.IntN(3)))
		if v.Kind() == reflect.Float32 {
			f = float64(float32(f))
		}
		v.SetFloat(f)
	case reflect.Pointer:
		if r.IntN(3) == 0 || depth > 6 {
			return
		}
		p := reflect.New(v.Type().Elem())
		fill(r, p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		switch n := r.IntN(5); {
		case n == 0 || depth > 6:
		case n == 1:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		default:
			s := reflect.MakeSlice(v.Type(), n-1, n-1)
			for i := range n - 1 {
				fill(r, s.Index(i), depth+1)
			}
			v.Set(s)
		}
	case reflect.Map:
		if n := r.IntN(5); n > 0 && depth <= 6 {
			m := reflect.MakeMap(v.Type())
			for range n - 1 {
				k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
				fill(r, k, depth+1)
				fill(r, e, depth+1)
				m.SetMapIndex(k, e)
			}
			v.Set(m)
		}
	case reflect.Interface:
		if depth <= 6 {
			for _, x := range []any{nil, "", 0, 0.0, false, []string(nil), map[string]int(nil)}[r.IntN(7):][:1] {
				if x != nil {
					e := reflect.New(reflect.TypeOf(x)).Elem()
					fill(r, e, depth+1)
					v.Set(e)
				}
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(r, v.Field(i), depth+1)
			}
		}
	}
}

var timeType = reflect.TypeFor[time.Time]()

// filled are the kinds fill gives content, and the struct types it fills
// as a whole.
var filled = []reflect.Kind{reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
	reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64,
	reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface, reflect.Struct}

// fieldTypes lists every type one of docs holds, through its exported
// fields, pointers, slices and maps.
func fieldTypes(docs []any) map[reflect.Type]bool {
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		if seen[t] {
			return
		}
		seen[t] = true
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walk(t.Elem())
		case reflect.Map:
			walk(t.Key())
			walk(t.Elem())
		case reflect.Struct:
			if t == timeType {
				return
			}
			for i := range t.NumField() {
				if f := t.Field(i); f.IsExported() {
					walk(f.Type)
				}
			}
		}
	}
	for _, d := range docs {
		walk(reflect.TypeOf(d))
	}
	return seen
}

// The documents hold only types that fill gives random content, so the
// comparison with the libraries below covers every field type.
func TestEncode_fillCoversEveryFieldType(t *testing.T) { fillCovers(t, Documents()) }

func fillCovers(t *testing.T, docs []any) {
	for typ := range fieldTypes(docs) {
		assert.Contains(t, filled, typ.Kind(), "%s: a field type the comparison with the libraries does not fill", typ)
	}
}

// A document holding floats, maps, times and interfaces, which the
// reflective encoder Encode once was refused at run time, is written as
// the libraries write it.
func TestEncode_anyFieldType(t *testing.T) {
	type doc struct {
		F   float64           `json:"f" yaml:"f"`
		F32 float32           `json:"f32,omitempty" yaml:"f32,omitempty"`
		M   map[string]int    `json:"m" yaml:"m"`
		MS  map[string]string `json:"ms,omitempty" yaml:"ms,omitempty"`
		T   time.Time         `json:"t" yaml:"t"`
		TP  *time.Time        `json:"tp,omitempty" yaml:"tp,omitempty"`
		A   any               `json:"a" yaml:"a"`
		As  []any             `json:"as" yaml:"as"`
		Top *TopologyDoc      `json:"top,omitempty" yaml:"top,omitempty"`
	}
	r := rand.New(rand.NewPCG(20, 26))
	for i := range 300 {
		var d doc
		fill(r, reflect.ValueOf(&d).Elem(), 0)
		for _, o := range []Output{JSON, YAML} {
			require.Equal(t, libraryEncode(t, o, d), ourEncode(t, o, d), "%s #%d", o, i)
		}
	}
	// A topology from its model in a document Encode does not know is
	// materialized, not streamed: the same bytes.
	m := doc{Top: NewTopologyDoc(tt.WordCount())}
	l := doc{Top: materialized(tt.WordCount())}
	for _, o := range []Output{JSON, YAML} {
		assert.Equal(t, libraryEncode(t, o, l), ourEncode(t, o, m), string(o))
	}
}

// Encode writes what the libraries write, on random documents of every
// type.
func TestEncode_matchesTheLibraries(t *testing.T) { matchesTheLibraries(t, Documents()) }

func matchesTheLibraries(t *testing.T, docs []any) {
	r := rand.New(rand.NewPCG(13, 160))
	for _, doc := range docs {
		typ := reflect.TypeOf(doc)
		t.Run(typ.Name(), func(t *testing.T) {
			for i := range 300 {
				v := reflect.New(typ)
				fill(r, v.Elem(), 0)
				for _, o := range []Output{JSON, YAML} {
					want := libraryEncode(t, o, v.Interface())
					got := ourEncode(t, o, v.Interface())
					if !assert.Equal(t, want, got, "%s #%d", o, i) {
						return
					}
					assert.Equal(t, want, ourEncode(t, o, v.Elem().Interface()), "%s #%d, by value", o, i)
				}
			}
		})
	}
}

// A TopologyDoc made from its model writes what the materialized document
// writes.
func TestEncode_topologyFromTheModel(t *testing.T) {
	cases := map[string]*topology.Description{
		"word count": tt.WordCount(),
		"large":      tt.Large(300),
		"empty":      tt.Desc(nil),
		"hostile": tt.Desc([]*topology.Subtopology{tt.Sub("0\n1",
			tt.Src("a\nb", []string{"t: x", "\x1b"}, "p"), tt.Proc("p", []string{"s\u0085"}, "k"), tt.Sink("k", "")),
		}, [2]*topology.Node{tt.Src("g", []string{"true"}, "gp"), tt.Proc("gp", []string{"-"})}),
		// Read back from a text: the stores in its order, each once.
		"stores as given": {
			Subtopologies: []*topology.Subtopology{tt.Sub("0", tt.Src("s", []string{"b", "a"}, "p"), tt.Proc("p", []string{"zeta", "alpha", "zeta"}))},
			GlobalStores:  []*topology.GlobalStore{}, StoresAsGiven: true,
		},
	}
	for name, d := range cases {
		t.Run(name, func(t *testing.T) {
			for _, o := range []Output{JSON, YAML} {
				assert.Equal(t, libraryEncode(t, o, materialized(d)), ourEncode(t, o, NewTopologyDoc(d)), string(o))
				lib := DescribeDoc{Groups: []GroupDoc{{Group: "g", TopologyDescription: materialized(d)}, {Group: "h"}}}
				ours := DescribeDoc{Groups: []GroupDoc{{Group: "g", TopologyDescription: NewTopologyDoc(d)}, {Group: "h"}}}
				assert.Equal(t, libraryEncode(t, o, lib), ourEncode(t, o, ours), string(o))
			}
		})
	}
}

// JSON escapes DEL and the C1 controls, which encoding/json leaves raw.
func TestEncode_jsonEscapesDELAndC1(t *testing.T) {
	got := ourEncode(t, JSON, ListDoc{Groups: []ListedGroupDoc{{Group: "a\x7fb\u0085c\u009f", State: "\u2028\x1b"}}})
	assert.Contains(t, got, `"group": "a\u007fb\u0085c\u009f"`)
	assert.Contains(t, got, `"state": "\u2028\u001b"`)
}

// Any string is written as the libraries write it, wherever it is.
func FuzzEncodeStrings(f *testing.F) {
	for _, s := range trickyStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tags := []ClientTagDoc{{Key: s, Value: s}}
		docs := []any{
			ListDoc{Groups: []ListedGroupDoc{{Group: s, State: s}}},
			DescribeDoc{Groups: []GroupDoc{{Group: s, AssignorName: &s, Members: &[]MemberDoc{{MemberID: s, ClientTags: tags, InstanceID: &s}},
				Error: &ErrorDoc{Name: s, Message: s}}}},
			DeleteDoc{Groups: []DeleteGroupDoc{{Group: s, InternalTopics: &InternalTopicsDoc{Inferred: []string{s, s}, Failed: []TopicErrorDoc{{Topic: s, Error: &ErrorDoc{Message: s}}}}}}},
		}
		d := tt.Desc([]*topology.Subtopology{tt.Sub(s, tt.Src(s, []string{s}, s), tt.Proc(s, []string{s}), tt.Sink(s+"k", s))})
		for _, o := range []Output{JSON, YAML} {
			for _, doc := range docs {
				if want, got := libraryEncode(t, o, doc), ourEncode(t, o, doc); want != got {
					t.Fatalf("%s of %q:\nlibrary: %q\nours:    %q", o, s, want, got)
				}
			}
			if want, got := libraryEncode(t, o, materialized(d)), ourEncode(t, o, NewTopologyDoc(d)); want != got {
				t.Fatalf("%s topology of %q:\nlibrary: %q\nours:    %q", o, s, want, got)
			}
		}
	})
}
