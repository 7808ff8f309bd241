package javaprops

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseJAAS(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		want    JAASEntry
		wantErr string
	}{
		{
			name: "plain",
			in:   `org.apache.kafka.common.security.plain.PlainLoginModule required username="alice" password="s3cret";`,
			want: JAASEntry{Module: "org.apache.kafka.common.security.plain.PlainLoginModule", Flag: "required", Options: map[string]string{"username": "alice", "password": "s3cret"}},
		},
		{
			name: "unquoted words, other flag case, no space before ;",
			in:   `org.apache.kafka.common.security.scram.ScramLoginModule REQUIRED username=alice password=pass-word_1;`,
			want: JAASEntry{Module: "org.apache.kafka.common.security.scram.ScramLoginModule", Flag: "required", Options: map[string]string{"username": "alice", "password": "pass-word_1"}},
		},
		{
			name: "single quotes, escapes and special characters",
			in:   `x.Module optional password='a"b;c=d' user="q\"t\\\n\101" empty="";`,
			want: JAASEntry{Module: "x.Module", Flag: "optional", Options: map[string]string{"password": `a"b;c=d`, "user": "q\"t\\\nA", "empty": ""}},
		},
		{
			name: "comments and line breaks",
			in:   "x.Module /* block */ sufficient\n  // line comment\n  a=\"1\" /* b=\"2\" */ c=\"3\";",
			want: JAASEntry{Module: "x.Module", Flag: "sufficient", Options: map[string]string{"a": "1", "c": "3"}},
		},
		{
			name: "no options",
			in:   "x.Module requisite;",
			want: JAASEntry{Module: "x.Module", Flag: "requisite", Options: map[string]string{}},
		},
		{
			name: "quote ends at end of line",
			in:   "x.Module required a=\"open\n;",
			want: JAASEntry{Module: "x.Module", Flag: "required", Options: map[string]string{"a": "open"}},
		},
		{name: "empty", in: "  ", wantErr: "login module not specified"},
		{name: "no flag", in: "x.Module", wantErr: "login module control flag not specified"},
		{name: "bad flag", in: "x.Module mandatory;", wantErr: "invalid login module control flag (want required, requisite, sufficient or optional)"},
		{name: "no semicolon", in: `x.Module required a="1"`, wantErr: "login module entry not terminated by ';'"},
		{name: "no value", in: `x.Module required password=;`, wantErr: `value not specified for option "password"`},
		{name: "a misquoted value names no part of it", in: `x.Module required username="alice password="LeakMe-1";`, wantErr: `value not specified for option 2 (name not shown: may be part of a value)`},
		{name: "unknown option names are not quoted", in: `x.Module required s3cret;`, wantErr: `value not specified for option 1 (name not shown: may be part of a value)`},
		{name: "no equals", in: `x.Module required password "p";`, wantErr: `value not specified for option "password"`},
		{name: "unquoted number", in: `x.Module required password=12345;`, wantErr: `value of option "password" must be quoted`},
		{name: "two modules", in: `a.M required; b.M required;`, wantErr: "holds 2 login modules, a client needs exactly 1"},
		{name: "starts with punctuation", in: `= x`, wantErr: "expected a login module class name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseJAAS(tt.in)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// renderJAAS writes e back as JAAS text: every value double quoted, with
// the escapes the tokenizer reads back.
func renderJAAS(e JAASEntry) string {
	var b strings.Builder
	b.WriteString(e.Module + " " + e.Flag)
	keys := make([]string, 0, len(e.Options))
	for k := range e.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		b.WriteString(" " + k + `="`)
		for _, r := range e.Options[k] {
			switch r {
			case '\\', '"':
				b.WriteRune('\\')
				b.WriteRune(r)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			default:
				b.WriteRune(r)
			}
		}
		b.WriteByte('"')
	}
	b.WriteByte(';')
	return b.String()
}

// jaasErrors are the messages ParseJAAS may return: fixed text, or an
// option key (a word token, never a value) in one of two places.
var (
	jaasFixedErrors = map[string]bool{
		"expected a login module class name":                                                   true,
		"login module control flag not specified":                                              true,
		"invalid login module control flag (want required, requisite, sufficient or optional)": true,
		"expected an option name or ';'":                                                       true,
		"login module entry not terminated by ';'":                                             true,
		"login module not specified":                                                           true,
	}
	jaasKeyError   = regexp.MustCompile(`^(?:value not specified for option (".*"|[0-9]+ \(name not shown: may be part of a value\))|value of option (".*"|[0-9]+ \(name not shown: may be part of a value\)) must be quoted)$`)
	jaasCountError = regexp.MustCompile(`^holds [0-9]+ login modules, a client needs exactly 1$`)
)

func isWord(s string) bool {
	for i, r := range []rune(s) {
		if i == 0 && !isWordStart(r) || !isWordPart(r) {
			return false
		}
	}
	return s != ""
}

// FuzzJAAS proves ParseJAAS never panics, that what it returns reads back
// the same once written out again, and that an error is one of its fixed
// messages, at most naming an option key: no part of an option value (a
// password, a client secret) can reach an error.
func FuzzJAAS(f *testing.F) {
	for _, s := range []string{
		`org.apache.kafka.common.security.plain.PlainLoginModule required username="alice" password="s3cret";`,
		`org.apache.kafka.common.security.scram.ScramLoginModule REQUIRED username=alice password=pass-word_1 tokenauth=true;`,
		`x.Module optional password='a"b;c=d' user="q\"t\\\n\101\777\3777" empty="";`,
		"x.Module /* block */ sufficient\n  // line comment\n  a=\"1\" /* b=\"2\" */ c=\"3\";",
		"x.Module required a=\"open\n;", "x.Module requisite;", "  ", "x.Module", "x.Module mandatory;",
		`x.Module required a="1"`, `x.Module required password=;`, `x.Module required password "p";`,
		`x.Module required password=12345;`, `a.M required; b.M required;`, `= x`, "/", "/*", `x.M required a='\`,
		"\u00e9t\u00e9 required caf\u00e9=\"\xff\x00\";", `x.M required a=-1;`, `x.M required a="1" a="2";`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := ParseJAAS(s)
		if err != nil {
			msg := err.Error()
			if jaasFixedErrors[msg] || jaasCountError.MatchString(msg) {
				return
			}
			m := jaasKeyError.FindStringSubmatch(msg)
			require.NotNil(t, m, "unexpected error %q", msg)
			if named := m[1] + m[2]; strings.HasPrefix(named, `"`) {
				key, uerr := strconv.Unquote(named)
				require.NoError(t, uerr, msg)
				assert.True(t, knownOptions[key], "the error names %q, which is not a known option", key)
			}
			return
		}
		assert.True(t, isWord(e.Module), "module %q", e.Module)
		assert.Contains(t, []string{"required", "requisite", "sufficient", "optional"}, e.Flag)
		for k := range e.Options {
			assert.True(t, isWord(k), "option key %q", k)
		}
		again, err := ParseJAAS(renderJAAS(e))
		require.NoError(t, err, renderJAAS(e))
		assert.Equal(t, e, again)
	})
}

// FuzzJAASSecrets plants a secret in JAAS text, whole or cut by the text
// around it (prefix and suffix from the fuzzer: lost quotes, escapes,
// comments, semicolons), and proves that no error holds any four of its
// characters: an error quotes no part of the text but known option names.
func FuzzJAASSecrets(f *testing.F) {
	for _, c := range [][2]string{
		{`org.apache.kafka.common.security.plain.PlainLoginModule required username="alice password="`, `";`},
		{`x.M required password=`, ``},
		{`x.M required password="`, ``},
		{`x.M required `, `="v";`},
		{``, ` required;`},
		{`x.M required a="\`, `\";`},
		{`x.M required a='`, "\n;"},
		{`x.M required /* `, ` */ b=1;`},
		{`x.M required username=alice `, ` password="p";`},
		{`x.M `, `;`},
	} {
		f.Add(c[0], "seed", c[1])
	}
	f.Fuzz(func(t *testing.T, prefix, seed, suffix string) {
		// Upper-case letters and digits in turn: no fixed message holds
		// four such characters in a row.
		var b strings.Builder
		for i := range max(8, len(seed)) {
			c := byte(i)
			if i < len(seed) {
				c = seed[i]
			}
			if i%2 == 0 {
				b.WriteByte("ABCDEFGHJKLMNPQRSTUVWXYZ"[int(c)%24])
			} else {
				b.WriteByte("23456789"[int(c)%8])
			}
		}
		secret := b.String()
		_, err := ParseJAAS(prefix + secret + suffix)
		if err == nil {
			return
		}
		for i := 0; i+4 <= len(secret); i++ {
			if strings.Contains(err.Error(), secret[i:i+4]) {
				t.Fatalf("the error %q holds %q of the secret %q", err, secret[i:i+4], secret)
			}
		}
	})
}
