package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/list"
)

// declaredArgs is an invocation of each verb that declares a format beyond
// text, json and yaml, without the option its rule needs (added from the
// rule).
var declaredArgs = map[string][]string{
	"describe":  {"describe", "--group", "g"},
	"list":      {"list"},
	"overview":  {"overview", "--group", "g"},
	"check":     {"check", "--group", "g"},
	"inventory": {"inventory"},
}

// Every format a verb declares has a printer: runVerb refuses, before
// connecting, a declared format it cannot print, so each declared drawing
// or metrics format is run up to the connection (which fails here).
func TestVerbOutputs_declaredArePrinted(t *testing.T) {
	t.Parallel()
	isolate(t)
	for _, vb := range verbs() {
		for _, r := range vb.outputRules() {
			for _, o := range r.formats {
				if slices.Contains(documentOutputs, o) || o.Binary() {
					continue // every verb writes documents; png needs a file
				}
				args, ok := declaredArgs[vb.name]
				require.True(t, ok, "%s declares -o %s: add it to declaredArgs", vb.name, o)
				args = append(slices.Clone(args), "-o", string(o), "--bootstrap-server", "127.0.0.1:9")
				if r.with != nil {
					args = append(args, "--"+r.with.def().name)
				}
				res := runWith(t, deps{newClient: noBroker}, args...)
				assert.NotContains(t, res.stderr, "has no printer", args)
				if vb.name == "check" {
					// check prints its UNKNOWN in the format asked for.
					assert.Equal(t, 3, res.code, args)
					assert.Contains(t, res.stdout, "kstreams_check_status 3", args)
					continue
				}
				assert.Contains(t, res.stderr, "no broker in this test", args)
			}
		}
	}
}

// A verb's formats are its printer's renderers: text, json and yaml, then
// the renderers that need no option, then those of each option, in the
// order of format.AllowedOutputs; and the printer writes each of them.
func TestPrinter_outputsFromRenderers(t *testing.T) {
	t.Parallel()
	state := boolOption(flagDef{name: "state"})
	p := printer[*list.Result]{
		text: func(_ io.Writer, _ *list.Result, _ *format.Styles) error { return nil },
		doc:  func(*list.Result) any { return map[string]int{"n": 1} },
		more: metrics(func(w io.Writer, _ *list.Result) error { _, err := io.WriteString(w, "m 1\n"); return err }, state),
	}
	rules := p.outputRules()
	require.Len(t, rules, 2)
	assert.Equal(t, documentOutputs, rules[0].formats)
	assert.Nil(t, rules[0].with)
	assert.Equal(t, []format.Output{format.Prometheus}, rules[1].formats)
	assert.Equal(t, "state", rules[1].with.def().name)
	assert.Equal(t, "text, json or yaml, and prometheus with --state", describeOutputs(rules))
	for o, want := range map[format.Output]string{format.Prometheus: "m 1\n", format.JSON: "{\n  \"n\": 1\n}\n"} {
		write, ok := p.writer(o)
		require.True(t, ok, o)
		var b bytes.Buffer
		require.NoError(t, write(&b, &list.Result{}))
		assert.Equal(t, want, b.String(), o)
	}
	_, ok := p.writer(format.Dot)
	assert.False(t, ok, "no renderer, no format")
	_, ok = p.writer(format.Text)
	assert.False(t, ok, "text needs stdout's styles: runVerb writes it")
}

// One message for a format a verb does not print, naming the commands that
// print it, the same for every verb and both forms.
func TestVerbOutputs_refusal(t *testing.T) {
	t.Parallel()
	isolate(t)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"list", "-o", "png"}, "-o png: list prints text, json or yaml, and prometheus with --state; -o png is printed by describe --topology, overview and render"},
		{[]string{"--list", "-o", "svg"}, "-o svg: list prints text, json or yaml, and prometheus with --state; -o svg is printed by describe --topology, overview and render"},
		{[]string{"doctor", "--group", "g", "-o", "mermaid"}, "-o mermaid: doctor prints text, json or yaml; -o mermaid is printed by describe --topology, overview and render"},
		{[]string{"overview", "--group", "g", "-o", "mermaid", "--watch"}, "--watch prints text, not -o mermaid"},
	}
	for _, tc := range tests {
		r := runWith(t, noClient(t), append([]string{"--bootstrap-server", "127.0.0.1:9"}, tc.args...)...)
		assert.Equal(t, exitUsage, r.code, tc.args)
		first, _, _ := strings.Cut(r.stderr, "\n")
		assert.Equal(t, tc.want, first, tc.args)
	}
}

// Each verb declares its exit codes; together they cover the table, and a
// verb of the table's never lists a code of another verb's own.
func TestVerbExits_declared(t *testing.T) {
	t.Parallel()
	covered := map[int]bool{}
	for _, vb := range verbs() {
		codes := vb.exitCodes()
		require.NotEmpty(t, codes, vb.name)
		assert.Contains(t, codes, exitOK, vb.name)
		if vb.own == nil {
			assert.Contains(t, codes, exitUsage, vb.name)
			for _, c := range codes {
				covered[c] = true
				assert.True(t, slices.ContainsFunc(exitStatuses, func(s exitStatus) bool { return s.Code == c }), "%s declares %d, which exitStatuses lacks", vb.name, c)
			}
		}
	}
	for _, s := range exitStatuses {
		assert.True(t, covered[s.Code], "no verb can exit %d (%s)", s.Code, s.Meaning)
	}
}

// A misspelt subcommand or flag gets the closest names, and the hint names
// the help of the command that was run.
func TestUsage_didYouMean(t *testing.T) {
	t.Parallel()
	isolate(t)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"descibe", "--group", "g"}, "unknown command \"descibe\"; did you mean 'describe'?\nRun 'kstreams-groups --help' for usage.\n"},
		{[]string{"overveiw"}, "unknown command \"overveiw\"; did you mean 'overview'?\nRun 'kstreams-groups --help' for usage.\n"},
		{[]string{"frobnicate"}, "unexpected argument \"frobnicate\"\nRun 'kstreams-groups --help' for usage.\n"},
		{[]string{"describe", "--grup", "g"}, "unknown flag: --grup; did you mean --group?\nRun 'kstreams-groups describe --help' for usage.\n"},
		{[]string{"--describe", "--topolgy", "--group", "g"}, "unknown flag: --topolgy; did you mean --topology?\nRun 'kstreams-groups --help' for usage.\n"},
		{[]string{"doctor", "--all-group"}, "unknown flag: --all-group; did you mean --all-groups?\nRun 'kstreams-groups doctor --help' for usage.\n"},
		{[]string{"list", "--zzzzzz"}, "unknown flag: --zzzzzz\nRun 'kstreams-groups list --help' for usage.\n"},
		// pflag's value errors lose the Go parser's words.
		{[]string{"playground", "--port", "10s"}, "invalid argument \"10s\" for \"--port\" flag: want a whole number\nRun 'kstreams-groups playground --help' for usage.\n"},
		{[]string{"describe", "--color", "sometimes", "--group", "g"}, "invalid --color \"sometimes\": want auto, always or never\nRun 'kstreams-groups describe --help' for usage.\n"},
	}
	for _, tc := range tests {
		r := runWith(t, noClient(t), append([]string{"--bootstrap-server", "127.0.0.1:9"}, tc.args...)...)
		assert.Equal(t, exitUsage, r.code, tc.args)
		assert.Equal(t, tc.want, r.stderr, tc.args)
		assert.NotContains(t, r.stderr, "strconv", tc.args)
	}
}

// --color: auto is the terminal rule (NO_COLOR, TERM=dumb), always colors
// text output anywhere and beats NO_COLOR, never never colors.
func TestColorFlag(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		color   string
		noColor bool
		term    bool
		env     map[string]string
		output  format.Output
		want    bool
	}{
		{name: "auto on a terminal", color: "auto", term: true, output: format.Text, want: true},
		{name: "auto in a pipe", color: "auto", output: format.Text},
		{name: "auto with NO_COLOR", color: "auto", term: true, env: map[string]string{"NO_COLOR": "1"}, output: format.Text},
		{name: "always in a pipe", color: "always", output: format.Text, want: true},
		{name: "always with NO_COLOR", color: "always", env: map[string]string{"NO_COLOR": "1", "TERM": "dumb"}, output: format.Text, want: true},
		{name: "always with json", color: "always", output: format.JSON},
		{name: "always with --no-color", color: "always", noColor: true, output: format.Text},
		{name: "never on a terminal", color: "never", term: true, output: format.Text},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := &app{cfg: Config{Output: tc.output}, term: terminal{color: tc.color, noColor: tc.noColor},
				deps: deps{env: mapEnviron(tc.env), terminal: func(io.Writer) bool { return tc.term }}}
			assert.Equal(t, tc.want, a.colorOn(&bytes.Buffer{}))
		})
	}
}

// --color=always colors a real command's text in a pipe.
func TestColorFlag_command(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := healthCluster(t)
	plain := runCLI(t, "--bootstrap-server", bootstrap(c), "overview", "--group", "steady")
	require.Equal(t, 0, plain.code, plain.stderr)
	assert.NotContains(t, plain.stdout, "\x1b[")
	colored := runCLI(t, "--bootstrap-server", bootstrap(c), "overview", "--group", "steady", "--color=always")
	require.Equal(t, 0, colored.code, colored.stderr)
	assert.Contains(t, colored.stdout, "\x1b[")
	assert.Equal(t, plain.stdout, sgr().ReplaceAllString(colored.stdout, ""), "the same text, painted")
}

// doctor --all-groups diagnoses every streams group, in id order.
func TestDoctor_allGroups(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := healthCluster(t)
	r := runCLI(t, "--bootstrap-server", bootstrap(c), "doctor", "--all-groups", "-o", "json")
	assert.Equal(t, doctorWrong, r.code, r.stderr)
	var doc struct {
		Groups []struct {
			Group string `json:"group"`
		} `json:"groups"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &doc))
	var got []string
	for _, g := range doc.Groups {
		got = append(got, g.Group)
	}
	listed := runCLI(t, "--bootstrap-server", bootstrap(c), "list")
	require.Equal(t, 0, listed.code)
	assert.Equal(t, strings.Fields(listed.stdout), got)
}

// The duration and integer handles parse their value, with the verb's
// message for one that does not parse or is below the least accepted.
func TestHandles_durationAndInt(t *testing.T) {
	t.Parallel()
	d := durationOption(flagDef{name: "every"}, time.Second, "--every: want at least 1s, got %q")
	n := intOption(flagDef{name: "n"}, 1, "--n: want 1 or more, got %q")
	for _, tc := range []struct {
		args    []string
		dur     time.Duration
		num     int
		given   bool
		wantErr string
	}{
		{args: nil},
		{args: []string{"--every", " 2s ", "--n", "3"}, dur: 2 * time.Second, num: 3, given: true},
		{args: []string{"--every", "500ms"}, wantErr: `--every: want at least 1s, got "500ms"`},
		{args: []string{"--every", "soon"}, wantErr: `--every: want at least 1s, got "soon"`},
		{args: []string{"--n", "0"}, wantErr: `--n: want 1 or more, got "0"`},
		{args: []string{"--n", "x"}, wantErr: `--n: want 1 or more, got "x"`},
	} {
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		d.register(fs, false)
		n.register(fs, false)
		require.NoError(t, fs.Parse(tc.args))
		v := flagValues{fs: fs}
		got, given, derr := d.value(v)
		num, _, nerr := n.value(v)
		if tc.wantErr != "" {
			assert.EqualError(t, errors.Join(derr, nerr), tc.wantErr, tc.args)
			continue
		}
		require.NoError(t, errors.Join(derr, nerr), tc.args)
		assert.Equal(t, tc.dur, got, tc.args)
		assert.Equal(t, tc.num, num, tc.args)
		assert.Equal(t, tc.given, given, tc.args)
	}
}
