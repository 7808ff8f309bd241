package javaprops

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseBytes covers the corner cases of java.util.Properties.load. Every
// want below is what Java 17's Properties.load(InputStream) returned for the
// same bytes (checked with a small Java program while writing the test).
func TestParseBytes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		want    map[string]string
		wantErr string
	}{
		{name: "equals", in: "a=b\n", want: map[string]string{"a": "b"}},
		{name: "colon", in: "a:b\n", want: map[string]string{"a": "b"}},
		{name: "whitespace separator", in: "a b\n", want: map[string]string{"a": "b"}},
		{name: "spaces around separator", in: "  a  =   b  \n", want: map[string]string{"a": "b  "}},
		{name: "separator whitespace then equals", in: "a  = b\n", want: map[string]string{"a": "b"}},
		{name: "second separator is value", in: "a==b\n", want: map[string]string{"a": "=b"}},
		{name: "colon then equals", in: "a:=b\n", want: map[string]string{"a": "=b"}},
		{name: "tab and formfeed", in: "\ta\t=\fb\n", want: map[string]string{"a": "b"}},
		{name: "empty value", in: "a=\n", want: map[string]string{"a": ""}},
		{name: "key only", in: "a\n", want: map[string]string{"a": ""}},
		{name: "hash comment", in: "# x=y\na=b\n", want: map[string]string{"a": "b"}},
		{name: "bang comment", in: "! x=y\n  # indented comment\na=b\n", want: map[string]string{"a": "b"}},
		{name: "hash inside value", in: "a=b#c\n", want: map[string]string{"a": "b#c"}},
		{name: "comment ends with backslash", in: "# comment \\\na=b\n", want: map[string]string{"a": "b"}},
		{name: "continuation", in: "a=one\\\n    two\\\n\tthree\n", want: map[string]string{"a": "onetwothree"}},
		{name: "continuation line starting with hash", in: "a=one\\\n#two\n", want: map[string]string{"a": "one#two"}},
		{name: "empty continuation ends the line", in: "a=one\\\n\nb=2\n", want: map[string]string{"a": "one", "b": "2"}},
		{name: "escaped backslash at end", in: "a=one\\\\\nb=2\n", want: map[string]string{"a": "one\\", "b": "2"}},
		{name: "three backslashes", in: "a=one\\\\\\\n two\n", want: map[string]string{"a": "one\\two"}},
		{name: "backslash at eof", in: "a=one\\", want: map[string]string{"a": "one"}},
		{name: "crlf", in: "a=1\r\nb=2\r\n", want: map[string]string{"a": "1", "b": "2"}},
		{name: "cr only", in: "a=1\rb=2\r", want: map[string]string{"a": "1", "b": "2"}},
		{name: "crlf continuation", in: "a=1\\\r\n  2\r\n", want: map[string]string{"a": "12"}},
		{name: "escapes", in: "a=\\t\\n\\r\\f\\x\\\\\\=\\:\n", want: map[string]string{"a": "\t\n\r\fx\\=:"}},
		{name: "escaped separators in key", in: "a\\=b\\:c\\ d=e\n", want: map[string]string{"a=b:c d": "e"}},
		{name: "unicode escape", in: "a=caf\\u00e9 \\u20ac\n", want: map[string]string{"a": "caf\u00e9 \u20ac"}},
		{name: "surrogate pair", in: "a=\\ud83d\\ude00\n", want: map[string]string{"a": "\U0001f600"}},
		{name: "latin1 bytes", in: "a=caf\xe9\n", want: map[string]string{"a": "caf\u00e9"}},
		{name: "utf8 bytes read as latin1", in: "a=caf\xc3\xa9\n", want: map[string]string{"a": "caf\u00c3\u00a9"}},
		{name: "malformed unicode", in: "ssl.key.password=\\u12\n", wantErr: `line 1: property "ssl.key.password": malformed \uxxxx encoding`},
		{name: "malformed unicode hex", in: "ssl.key.password=\\u12zz\n", wantErr: `line 1: property "ssl.key.password": malformed \uxxxx encoding`},
		{name: "malformed unicode after a key that is no property name", in: "LeakMe-1 password=\\u12\n", wantErr: `line 1: property (name not shown: not a property name, may be part of a secret): malformed \uxxxx encoding`},
		{name: "unicode escape in key", in: "\\u0061b=c\n", want: map[string]string{"ab": "c"}},
		{name: "duplicate key keeps last", in: "a=1\na=2\n", want: map[string]string{"a": "2"}},
		{name: "blank lines", in: "\n\n   \n\ta=b\n\n", want: map[string]string{"a": "b"}},
		{name: "no trailing newline", in: "a=b", want: map[string]string{"a": "b"}},
		{name: "lone backslash line then comment", in: "\\\n#x=y\n", want: map[string]string{}},
		{name: "jaas multi line", in: "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required \\\n    username=\"alice\" \\\n    password=\"s3cret\";\n", want: map[string]string{"sasl.jaas.config": "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"alice\" password=\"s3cret\";"}},
		{name: "value trailing spaces kept", in: "a=b   \n", want: map[string]string{"a": "b   "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := ParseBytes([]byte(tt.in))
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			got := map[string]string{}
			for _, e := range p.Entries() {
				got[e.Key] = e.Value
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseBytes_lines(t *testing.T) {
	t.Parallel()
	in := "# header\n\na=1\nb=two\\\n  lines\r\n\r\n! c\nc : 3\n"
	p, err := ParseBytes([]byte(in))
	require.NoError(t, err)
	var got []Entry
	got = append(got, p.Entries()...)
	assert.Equal(t, []Entry{
		{Key: "a", Value: "1", Line: 3},
		{Key: "b", Value: "twolines", Line: 4},
		{Key: "c", Value: "3", Line: 8},
	}, got)

	_, err = ParseBytes([]byte("a=1\n\n# x\nb=\\uZZZZ\n"))
	var se *SyntaxError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 4, se.Line)
}

func TestProperties_Merge(t *testing.T) {
	t.Parallel()
	base, err := ParseBytes([]byte("a=1\nb=2\n"))
	require.NoError(t, err)
	got := base.Merge(FromMap(map[string]string{"b": "3", "c": "4"}))
	assert.Len(t, got.Entries(), 3)
	b, _ := got.Get("b")
	assert.Equal(t, "3", b.Value)
	a, _ := base.Get("a")
	assert.Equal(t, 1, a.Line)
}

// store writes entries as java.util.Properties.store does (saveConvert),
// with every character outside printable ASCII as a \uXXXX escape, one
// entry a line.
func store(entries []Entry) []byte {
	var b strings.Builder
	conv := func(s string, key bool) {
		for i, u := range utf16.Encode([]rune(s)) {
			switch c := rune(u); {
			case c == '\\':
				b.WriteString(`\\`)
			case c == ' ':
				if i == 0 || key {
					b.WriteByte('\\')
				}
				b.WriteByte(' ')
			case c == '\t':
				b.WriteString(`\t`)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c == '\f':
				b.WriteString(`\f`)
			case c == '=', c == ':', c == '#', c == '!':
				b.WriteByte('\\')
				b.WriteRune(c)
			case c < 0x20 || c > 0x7e:
				fmt.Fprintf(&b, `\u%04X`, u)
			default:
				b.WriteRune(c)
			}
		}
	}
	for _, e := range entries {
		conv(e.Key, true)
		b.WriteByte('=')
		conv(e.Value, false)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

func TestStore(t *testing.T) {
	t.Parallel()
	in := []Entry{{Key: " a=b:c#!", Value: "  lead\t\\ \u00e9\U0001f600\x00"}, {Key: "", Value: ""}, {Key: "k", Value: "v"}}
	data := store(in)
	assert.Equal(t, `\ a\=b\:c\#\!=\  lead\t\\ \u00E9\uD83D\uDE00\u0000`+"\n=\nk=v\n", string(data))
	p, err := ParseBytes(data)
	require.NoError(t, err)
	assert.Equal(t, []Entry{{Key: " a=b:c#!", Value: "  lead\t\\ \u00e9\U0001f600\x00", Line: 1}, {Key: "", Value: "", Line: 2}, {Key: "k", Value: "v", Line: 3}}, p.Entries())
}

// FuzzParseProperties proves the parser never panics, reports a syntax
// error with its line, returns the entries in line order, and reads back
// what java.util.Properties.store would write for them.
func FuzzParseProperties(f *testing.F) {
	for _, s := range []string{
		"a=b\n", "a\\\n b", "\\u00e9=\\u12", "#c\n!d\n a : b \\\r\n c", "\\", "\\\n#x", "a=\\ud83d",
		"security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"p\";\n",
		"sasl.jaas.config=x required a='b\\", "sasl.jaas.config=/* x required;", "ssl.enabled.protocols=TLSv1.2,,TLSv9",
		"caf\xe9 = \\u20ac\\ud83d\\ude00\r\n\f! x", "a=1\na=2\n\\=\\:\\ \\\\",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParseBytes(data)
		if err != nil {
			var se *SyntaxError
			require.ErrorAs(t, err, &se)
			assert.GreaterOrEqual(t, se.Line, 1)
			return
		}
		entries := p.Entries()
		want := map[string]string{}
		for i, e := range entries {
			assert.GreaterOrEqual(t, e.Line, 1)
			if i > 0 {
				prev := entries[i-1]
				assert.True(t, prev.Line < e.Line || prev.Line == e.Line && prev.Key < e.Key, "entries out of order: %+v before %+v", prev, e)
			}
			got, ok := p.Get(e.Key)
			assert.True(t, ok)
			assert.Equal(t, e, got)
			want[e.Key] = e.Value
		}
		again, err := ParseBytes(store(entries))
		require.NoError(t, err)
		got := map[string]string{}
		for _, e := range again.Entries() {
			got[e.Key] = e.Value
		}
		assert.Equal(t, want, got)
	})
}
