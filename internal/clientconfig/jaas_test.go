package clientconfig

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseJAAS(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		want    jaasEntry
		wantErr string
	}{
		{
			name: "plain",
			in:   `org.apache.kafka.common.security.plain.PlainLoginModule required username="alice" password="s3cret";`,
			want: jaasEntry{Module: plainModule, Flag: "required", Options: map[string]string{"username": "alice", "password": "s3cret"}},
		},
		{
			name: "unquoted words, other flag case, no space before ;",
			in:   `org.apache.kafka.common.security.scram.ScramLoginModule REQUIRED username=alice password=pass-word_1;`,
			want: jaasEntry{Module: scramModule, Flag: "required", Options: map[string]string{"username": "alice", "password": "pass-word_1"}},
		},
		{
			name: "single quotes, escapes and special characters",
			in:   `x.Module optional password='a"b;c=d' user="q\"t\\\n\101" empty="";`,
			want: jaasEntry{Module: "x.Module", Flag: "optional", Options: map[string]string{"password": `a"b;c=d`, "user": "q\"t\\\nA", "empty": ""}},
		},
		{
			name: "comments and line breaks",
			in:   "x.Module /* block */ sufficient\n  // line comment\n  a=\"1\" /* b=\"2\" */ c=\"3\";",
			want: jaasEntry{Module: "x.Module", Flag: "sufficient", Options: map[string]string{"a": "1", "c": "3"}},
		},
		{
			name: "no options",
			in:   "x.Module requisite;",
			want: jaasEntry{Module: "x.Module", Flag: "requisite", Options: map[string]string{}},
		},
		{
			name: "quote ends at end of line",
			in:   "x.Module required a=\"open\n;",
			want: jaasEntry{Module: "x.Module", Flag: "required", Options: map[string]string{"a": "open"}},
		},
		{name: "empty", in: "  ", wantErr: "login module not specified"},
		{name: "no flag", in: "x.Module", wantErr: "login module control flag not specified"},
		{name: "bad flag", in: "x.Module mandatory;", wantErr: "invalid login module control flag (want required, requisite, sufficient or optional)"},
		{name: "no semicolon", in: `x.Module required a="1"`, wantErr: "login module entry not terminated by ';'"},
		{name: "no value", in: `x.Module required password=;`, wantErr: `value not specified for option "password"`},
		{name: "no equals", in: `x.Module required password "p";`, wantErr: `value not specified for option "password"`},
		{name: "unquoted number", in: `x.Module required password=12345;`, wantErr: `value of option "password" must be quoted`},
		{name: "two modules", in: `a.M required; b.M required;`, wantErr: "holds 2 login modules, a client needs exactly 1"},
		{name: "starts with punctuation", in: `= x`, wantErr: "expected a login module class name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseJAAS(tt.in)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
