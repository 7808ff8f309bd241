package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/diff"
	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	"github.com/kstreams-groups/kstreams-groups/internal/topoparse"
)

// diffData is a Topology#describe() text (or a stored rendering) of the e2e
// suite, as a path relative to this package.
func diffData(name string) string { return filepath.Join("..", "..", "e2e", "testdata", "diff", name) }

func parsed(t *testing.T, name string) *topology.Description {
	t.Helper()
	data, err := os.ReadFile(diffData(name))
	require.NoError(t, err)
	d, err := topoparse.ParseString(string(data))
	require.NoError(t, err)
	return d
}

// clusters are fake Kafka clusters by bootstrap server, recording the
// client settings each client was built with.
type clusters struct {
	mu      sync.Mutex
	byAddr  map[string]*fakeClient
	configs []admin.Config
}

func (c *clusters) deps() deps {
	return deps{newClient: func(cfg admin.Config) (client, error) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.configs = append(c.configs, cfg)
		f := c.byAddr[strings.Join(cfg.Bootstrap, ",")]
		if f == nil {
			f = &fakeClient{}
		}
		return f, nil
	}}
}

func stored(d *topology.Description) *kafka.StreamsGroup {
	return &kafka.StreamsGroup{State: "Stable", TopologyStatus: topology.Available, Topology: d}
}

// runStdin runs a command line with stdin.
func runStdin(t *testing.T, d deps, stdin string, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	code := testRun(t, args, IOStreams{In: strings.NewReader(stdin), Out: &out, ErrOut: &errOut}, d)
	return result{stdout: out.String(), stderr: errOut.String(), code: code}
}

// diff's own exit codes: 0 identical, 1 different, 3 breaking (or failing
// with --fail-on), whatever --detailed-exit-codes says; two files need no
// broker.
func TestDiff_files(t *testing.T) {
	t.Parallel()
	isolate(t)
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"identical", []string{diffData("diff-base.txt"), diffData("diff-base.txt")}, 0},
		{"stored text against describe text", []string{diffData("stored-df-blue.txt"), diffData("diff-base.txt"), "--application-id", "df-blue"}, 0},
		{"prefix not stripped without the application id", []string{diffData("stored-df-blue.txt"), diffData("diff-base.txt")}, 3},
		{"breaking", []string{diffData("diff-base.txt"), diffData("diff-filter.txt")}, 3},
		{"breaking with detailed exit codes", []string{diffData("diff-base.txt"), diffData("diff-filter.txt"), "--detailed-exit-codes"}, 3},
		{"warnings", []string{diffData("diff-base.txt"), diffData("diff-pinned.txt")}, 1},
		{"fail on warning", []string{diffData("diff-base.txt"), diffData("diff-pinned.txt"), "--fail-on", "warning"}, 3},
		{"fail on info", []string{diffData("diff-base.txt"), diffData("diff-pinned.txt"), "--fail-on=info"}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runWith(t, noClient(t), append([]string{"diff"}, tc.args...)...)
			assert.Equal(t, tc.code, r.code, r.stderr)
			assert.Empty(t, r.stderr)
			assert.True(t, strings.HasPrefix(r.stdout, "OLD: "), r.stdout)
		})
	}
}

// The whole report of the example, text, JSON and YAML.
func TestDiff_reports(t *testing.T) {
	t.Parallel()
	isolate(t)
	for _, o := range []string{"text", "json", "yaml"} {
		t.Run(o, func(t *testing.T) {
			r := runWith(t, noClient(t), "diff", diffData("diff-base.txt"), diffData("diff-filter.txt"), "-o", o)
			assert.Equal(t, diffFailing, r.code, r.stderr)
			golden.Assert(t, []byte(r.stdout))
		})
	}
	r := runWith(t, noClient(t), "diff", diffData("diff-base.txt"), diffData("diff-filter.txt"), "-o", "json")
	var doc struct {
		Outcome string
		Summary map[string]int
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &doc))
	assert.Equal(t, "failing", doc.Outcome)
	assert.Equal(t, map[string]int{"breaking": 3, "warning": 8, "info": 1}, doc.Summary)
}

// Our JSON and YAML are sides too: a rendered document compares identical
// with the text it came from, and a describe document with its group.
func TestDiff_documents(t *testing.T) {
	t.Parallel()
	isolate(t)
	dir := t.TempDir()
	for _, o := range []string{"json", "yaml"} {
		r := runWith(t, noClient(t), "render", "-o", o, diffData("diff-filter.txt"))
		require.Equal(t, 0, r.code, r.stderr)
		doc := filepath.Join(dir, "filter."+o)
		require.NoError(t, os.WriteFile(doc, []byte(r.stdout), 0o644))
		r = runWith(t, noClient(t), "diff", doc, diffData("diff-filter.txt"))
		assert.Equal(t, diffIdentical, r.code, "%s: %s%s", o, r.stdout, r.stderr)
		r = runWith(t, noClient(t), "diff", diffData("diff-base.txt"), doc)
		assert.Equal(t, diffFailing, r.code, "%s: %s", o, r.stderr)
	}
	f := &fakeClient{groups: map[string]*kafka.StreamsGroup{"df-blue": stored(parsed(t, "stored-df-blue.txt"))}}
	r := runWith(t, fakeDeps(f), "--bootstrap-server", "fake:9092", "describe", "--topology", "--group", "df-blue", "-o", "json")
	require.Equal(t, 0, r.code, r.stderr)
	doc := filepath.Join(dir, "describe.json")
	require.NoError(t, os.WriteFile(doc, []byte(r.stdout), 0o644))
	r = runWith(t, noClient(t), "diff", doc, diffData("diff-base.txt"), "--application-id", "df-blue")
	assert.Equal(t, diffIdentical, r.code, r.stdout+r.stderr)
}

// NEW may be stdin.
func TestDiff_stdin(t *testing.T) {
	t.Parallel()
	isolate(t)
	data, err := os.ReadFile(diffData("diff-filter.txt"))
	require.NoError(t, err)
	r := runStdin(t, noClient(t), string(data), "diff", diffData("diff-base.txt"), "-")
	assert.Equal(t, diffFailing, r.code, r.stderr)
	assert.Contains(t, r.stdout, "NEW: - (stdin, internal topics as given)\n")
	assert.Contains(t, r.stdout, "+++ NEW -\n")
}

// Each group side is fetched with its cluster's client: OLD from
// --bootstrap-server, NEW from --new-bootstrap-server with
// --new-command-config; one client when both are on one cluster.
func TestDiff_groups(t *testing.T) {
	t.Parallel()
	isolate(t)
	base := stored(parsed(t, "stored-df-blue.txt"))
	props := filepath.Join(t.TempDir(), "green.properties")
	require.NoError(t, os.WriteFile(props, []byte("client.id=green-ci\n"), 0o644))

	t.Run("two clusters", func(t *testing.T) {
		c := &clusters{byAddr: map[string]*fakeClient{
			"blue:9092":  {groups: map[string]*kafka.StreamsGroup{"df-blue": base}},
			"green:9092": {groups: map[string]*kafka.StreamsGroup{"df-green": stored(parsed(t, "diff-filter.txt"))}},
		}}
		r := runWith(t, c.deps(), "diff", "group:df-blue", "group:df-green", "--bootstrap-server", "blue:9092",
			"--new-bootstrap-server", "green:9092", "--new-command-config", props)
		assert.Equal(t, diffFailing, r.code, r.stderr)
		require.Len(t, c.configs, 2)
		assert.Equal(t, []string{"blue:9092"}, c.configs[0].Bootstrap)
		assert.Equal(t, []string{"green:9092"}, c.configs[1].Bootstrap)
		assert.Equal(t, "green-ci", c.configs[1].ClientID, "NEW's client properties")
		assert.NotEqual(t, "green-ci", c.configs[0].ClientID)
		assert.True(t, c.byAddr["blue:9092"].closed && c.byAddr["green:9092"].closed, "both clients are closed")
		assert.Contains(t, r.stdout, "OLD: group:df-blue (stored description, internal topics without the prefix \"df-blue-\")\n")
	})

	t.Run("one cluster", func(t *testing.T) {
		c := &clusters{byAddr: map[string]*fakeClient{
			"kafka:9092": {groups: map[string]*kafka.StreamsGroup{"df-blue": base, "df-green": stored(parsed(t, "diff-base.txt"))}},
		}}
		r := runWith(t, c.deps(), "diff", "group:df-blue", "group:df-green", "--bootstrap-server", "kafka:9092")
		assert.Equal(t, diffIdentical, r.code, r.stderr)
		assert.Len(t, c.configs, 1, "one client serves both sides")
	})

	t.Run("NEW only on its own cluster", func(t *testing.T) {
		// No --bootstrap-server is needed when the only group side has its own.
		c := &clusters{byAddr: map[string]*fakeClient{"green:9092": {groups: map[string]*kafka.StreamsGroup{"df-green": stored(parsed(t, "diff-base.txt"))}}}}
		r := runWith(t, c.deps(), "diff", diffData("diff-base.txt"), "group:df-green", "--new-bootstrap-server", "green:9092")
		assert.Equal(t, diffIdentical, r.code, r.stderr)
		assert.Contains(t, r.stdout, "OLD: "+diffData("diff-base.txt")+" (file, internal topics without the prefix \"df-green-\")\n", "a file side takes the group's id")
	})
}

// A topology the broker refuses for OLD's group is exit 3, never 0 or 1
// (issue 19): an added source topic was "differences, none breaking".
func TestDiff_brokerRefuses(t *testing.T) {
	t.Parallel()
	isolate(t)
	counting := func(sources ...string) string {
		return "Topologies:\n   Sub-topology: 0\n    Source: source (topics: [" + strings.Join(sources, ", ") + "])\n      --> count\n" +
			"    Processor: count (stores: [counts])\n      --> sink\n      <-- source\n" +
			"    Sink: sink (topic: out)\n      <-- count\n\n"
	}
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	d, err := topoparse.ParseString(counting("in"))
	require.NoError(t, err)
	running := stored(d)
	running.Subtopologies = []kafka.Subtopology{{ID: "0", SourceTopics: []string{"in"}, StateChangelogTopics: []string{"app-counts-changelog"}}}
	c := &clusters{byAddr: map[string]*fakeClient{"kafka:9092": {groups: map[string]*kafka.StreamsGroup{"app": running}}}}
	for _, tc := range []struct {
		name, text string
		code       int
		broker     string
	}{
		{"added source topic", counting("in", "in-eu"), diffFailing, "Broker: refuses NEW for group app (INVALID_REQUEST: Topology updates are not supported yet;"},
		{"changed sink topic", strings.Replace(counting("in"), "(topic: out)", "(topic: out-v2)", 1), diffDifferent, "Broker: accepts NEW for group app "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := write(strings.ReplaceAll(tc.name, " ", "-")+".txt", tc.text)
			for _, extra := range [][]string{nil, {"--detailed-exit-codes"}, {"--fail-on", "breaking"}} {
				r := runWith(t, c.deps(), append([]string{"diff", "group:app", file, "--bootstrap-server", "kafka:9092"}, extra...)...)
				assert.Equal(t, tc.code, r.code, "%v: %s", extra, r.stderr)
				assert.Contains(t, r.stdout, "\n"+tc.broker)
			}
			r := runWith(t, c.deps(), "diff", "group:app", file, "--bootstrap-server", "kafka:9092", "-o", "json")
			var doc struct{ Broker string }
			require.NoError(t, json.Unmarshal([]byte(r.stdout), &doc))
			assert.Equal(t, map[int]string{diffFailing: "refuses", diffDifferent: "accepts"}[tc.code], doc.Broker)
		})
	}
}

// A side that cannot be read or fetched exits 2 with the reason on stderr,
// one line per side; the document says so too.
func TestDiff_unreadableSides(t *testing.T) {
	t.Parallel()
	isolate(t)
	garbage := filepath.Join(t.TempDir(), "garbage.txt")
	require.NoError(t, os.WriteFile(garbage, []byte("Topologies:\n   Sub-topology: 0\n    Widget: w\n"), 0o644))
	f := &fakeClient{groups: map[string]*kafka.StreamsGroup{
		"ns-app":  {State: "Stable", TopologyStatus: topology.NotStored},
		"err-app": {State: "Stable", TopologyStatus: topology.Error},
	}}
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"missing group and missing file", []string{"group:missing", "nope.txt"}, []string{
			"Error: OLD group:missing: GROUP_ID_NOT_FOUND",
			"Error: NEW nope.txt: cannot read the topology description: no such file or directory",
		}},
		{"not stored", []string{diffData("diff-base.txt"), "group:ns-app"}, []string{
			"Error: NEW group:ns-app: No topology description is stored for streams group 'ns-app'.",
		}},
		{"description error", []string{"group:err-app", diffData("diff-base.txt")}, []string{
			"Error: OLD group:err-app: The broker failed to fetch the topology description for streams group 'err-app'. See the broker logs for details.",
		}},
		{"parse error", []string{diffData("diff-base.txt"), garbage}, []string{
			"Error: NEW " + garbage + `: line 3: expected "Sub-topology:", "Source:", "Processor:", "Sink:", "-->", "<--" or a blank line, found "Widget: w"`,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runWith(t, fakeDeps(f), append([]string{"--bootstrap-server", "fake:9092", "diff"}, tc.args...)...)
			assert.Equal(t, diffUnreadable, r.code)
			assert.Empty(t, r.stdout)
			lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
			require.Len(t, lines, len(tc.want), r.stderr)
			for i, w := range tc.want {
				assert.True(t, strings.HasPrefix(lines[i], w), "line %d: %q, want prefix %q", i, lines[i], w)
			}
		})
	}
	r := runWith(t, fakeDeps(f), "--bootstrap-server", "fake:9092", "diff", "group:missing", diffData("diff-base.txt"), "-o", "json")
	assert.Equal(t, diffUnreadable, r.code)
	var doc struct {
		Outcome string
		Old     struct{ Error struct{ Name string } }
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &doc), r.stdout)
	assert.Equal(t, "error", doc.Outcome)
	assert.Equal(t, "GROUP_ID_NOT_FOUND", doc.Old.Error.Name)
	assert.Contains(t, r.stderr, "Error: OLD group:missing: ")
}

// A file side is read as render's input is: over render's limit it is a
// side that cannot be read, at once, never a read of the whole input.
func TestDiff_sizeLimit(t *testing.T) {
	t.Parallel()
	isolate(t)
	for _, tc := range []struct {
		name  string
		args  []string
		stdin io.Reader
		line  string
	}{
		{"file", []string{"diff", "/dev/zero", diffData("diff-base.txt")}, strings.NewReader(""),
			"Error: OLD /dev/zero: cannot read the topology description: the file is larger than 64 MiB, the limit for a topology description\n"},
		{"stdin", []string{"diff", diffData("diff-base.txt"), "-"}, zeros{},
			"Error: NEW -: cannot read the topology description: stdin is larger than 64 MiB, the limit for a topology description\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := testRun(t, tc.args, IOStreams{In: tc.stdin, Out: &out, ErrOut: &errOut}, noClient(t))
			assert.Equal(t, diffUnreadable, code)
			assert.Equal(t, tc.line, errOut.String())
			assert.Empty(t, out.String())
		})
	}
}

// A file side is read outside --timeout, which bounds the fetching: a
// build that prints its topology slowly into diff's stdin is waited for.
func TestDiff_stdinOutsideTimeout(t *testing.T) {
	t.Parallel()
	isolate(t)
	data, err := os.ReadFile(diffData("diff-base.txt"))
	require.NoError(t, err)
	slow := readerFunc(func(p []byte) (int, error) {
		if len(data) == 0 {
			return 0, io.EOF
		}
		time.Sleep(300 * time.Millisecond)
		n := copy(p, data)
		data = data[n:]
		return n, nil
	})
	var out, errOut bytes.Buffer
	code := testRun(t, []string{"diff", "-", diffData("diff-base.txt"), "--timeout", "100"}, IOStreams{In: slow, Out: &out, ErrOut: &errOut}, noClient(t))
	assert.Equal(t, diffIdentical, code, errOut.String())
}

// A signal while a side is read or fetched ends diff with the signal's
// code and its one line, not with a side that failed.
func TestDiff_signal(t *testing.T) {
	t.Parallel()
	isolate(t)
	ctx, cancel := context.WithCancelCause(context.Background())
	d := noClient(t)
	d.signals = &signalWatch{ctx: ctx}
	// Ctrl-C while OLD is read from stdin.
	stdin := readerFunc(func([]byte) (int, error) {
		cancel(&signalError{sig: syscall.SIGINT})
		return 0, io.EOF
	})
	var out, errOut bytes.Buffer
	code := testRun(t, []string{"diff", "-", diffData("diff-base.txt")}, IOStreams{In: stdin, Out: &out, ErrOut: &errOut}, d)
	assert.Equal(t, exitSIGINT, code)
	assert.Equal(t, "Error: interrupted by SIGINT\n", errOut.String())
	assert.Empty(t, out.String())
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

// Usage errors exit 2 before anything connects.
func TestDiff_usage(t *testing.T) {
	t.Parallel()
	isolate(t)
	tests := []struct {
		name      string
		args      []string
		wantError string
	}{
		{"no arguments", []string{"diff"}, "diff takes two arguments, OLD and NEW (each group:NAME, a file or -), got 0"},
		{"three arguments", []string{"diff", "a", "b", "c"}, "diff takes two arguments, OLD and NEW (each group:NAME, a file or -), got 3"},
		{"group side without bootstrap", []string{"diff", "group:a", "b.txt"}, `Missing required argument "[bootstrap-server]"`},
		{"NEW group without bootstrap", []string{"diff", "a.txt", "group:b"}, `Missing required argument "[bootstrap-server]"`},
		{"empty group", []string{"--bootstrap-server", "x:1", "diff", "group:", "b.txt"}, `OLD "group:": name the group: group:NAME`},
		{"both stdin", []string{"diff", "-", "-"}, "OLD and NEW cannot both be read from stdin (-)"},
		{"new cluster for a file", []string{"--bootstrap-server", "x:1", "diff", "group:a", "b.txt", "--new-bootstrap-server", "y:1"}, `--new-bootstrap-server and --new-command-config are for a group: NEW side; NEW is the file "b.txt"`},
		{"bad fail-on", []string{"diff", "a.txt", "b.txt", "--fail-on", "fatal"}, `--fail-on: want breaking, warning or info, got "fatal"`},
		{"empty new bootstrap", []string{"diff", "a.txt", "group:b", "--new-bootstrap-server", " , "}, "--new-bootstrap-server: no server given"},
		{"drawing", []string{"diff", diffData("diff-base.txt"), diffData("diff-base.txt"), "-o", "dot"}, "-o dot: diff prints text, json or yaml; -o dot is printed by describe --topology, overview and render"},
		{"not a Kafka form action", []string{"--diff", "a.txt", "b.txt"}, "unknown flag: --diff"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runWith(t, noClient(t), tc.args...)
			assert.Equal(t, exitUsage, r.code, r.stderr)
			first, _, _ := strings.Cut(r.stderr, "\n")
			assert.Equal(t, tc.wantError, first)
			assert.Empty(t, r.stdout)
		})
	}
}

// failingWriter is a stdout that takes nothing, as /dev/full.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// A report that cannot be written is exit 2, never 1 ("differences"), which
// a CI gate would let pass, nor 0.
func TestDiff_writeFailure(t *testing.T) {
	t.Parallel()
	isolate(t)
	var errOut bytes.Buffer
	code := testRun(t, []string{"diff", diffData("diff-base.txt"), diffData("diff-filter.txt")},
		IOStreams{In: strings.NewReader(""), Out: failingWriter{}, ErrOut: &errOut}, deps{})
	assert.Equal(t, diffUnreadable, code)
	assert.Contains(t, errOut.String(), "no space left on device")
}

// The runF seam gets diff's options.
func TestDiff_options(t *testing.T) {
	t.Parallel()
	isolate(t)
	var got any
	d := noClient(t)
	d.runF = func(verb string, opts any) error { got = opts; return nil }
	r := runWith(t, d, "--bootstrap-server", "x:1", "diff", "group:a", "group:b", "--application-id", "app", "--fail-on", "warning", "--new-command-config", "p")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, diff.Options{Args: []string{"group:a", "group:b"}, ApplicationID: "app", FailOn: "warning", NewCluster: true}, got)
}

// exitCodeFor gives a verb's own outcome its code, in both modes.
func TestExitCodeFor_verbOutcome(t *testing.T) {
	t.Parallel()
	for _, code := range []int{diffIdentical, diffDifferent, diffUnreadable, diffFailing} {
		e := &verbExit{code: code}
		assert.Equal(t, code, exitCodeFor(e, false))
		assert.Equal(t, code, exitCodeFor(e, true))
	}
	assert.Equal(t, diffUnreadable, exitCodeFor(&verbExit{code: diffUnreadable, err: admin.NewKafkaError(kafka.CodeGroupIDNotFound, nil)}, true),
		"the reason does not turn into its category's code")
}

// readmeTable returns the rows of the README table between two markers,
// each row's cells trimmed.
func readmeTable(t *testing.T, name string) [][]string {
	t.Helper()
	s := readDocs(t)
	start, end := strings.Index(s, "<!-- "+name+":start -->"), strings.Index(s, "<!-- "+name+":end -->")
	require.True(t, start >= 0 && end > start, "README lacks the %s markers", name)
	var rows [][]string
	for _, line := range strings.Split(s[start:end], "\n")[1:] {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") || strings.HasPrefix(line, "|---") {
			continue
		}
		var cells []string
		for _, c := range strings.Split(strings.Trim(line, "|"), "|") {
			cells = append(cells, strings.TrimSpace(c))
		}
		rows = append(rows, cells)
	}
	require.NotEmpty(t, rows)
	return rows[1:] // without the header
}

// The README lists every kind of finding with its severity, as the code
// has them.
func TestREADMEDiffFindings(t *testing.T) {
	t.Parallel()
	var want [][]string
	for _, k := range diff.Kinds() {
		want = append(want, []string{"`" + string(k.Kind) + "`", k.Severity.String(), k.When})
	}
	assert.Equal(t, want, readmeTable(t, "diff-findings"))
}

// The README's diff exit codes are diff --help's.
func TestREADMEDiffExitCodes(t *testing.T) {
	t.Parallel()
	var want [][]string
	for _, s := range diffExitStatuses {
		want = append(want, []string{itoa(s.Code), s.Meaning})
	}
	assert.Equal(t, want, readmeTable(t, "diff-exit-codes"))
	assert.Contains(t, (&verb{own: diffExits}).exitHelp(), "Exit status:\n  0  "+diffExitStatuses[0].Meaning)
}
