package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/playground"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// Hostile and careless local input, end to end through run(): each case
// asserts the exit code, the one line it prints on stderr (before the
// --help hint of a usage error) and that no raw control byte reaches
// stdout or stderr; the time it took is logged (benchmarks measure speed). The misbehaving servers are tested apart.

// hostileCase is one invocation and what it must give.
type hostileCase struct {
	name  string
	args  []string
	stdin io.Reader
	code  int
	// line is the first stderr line, exactly.
	line string
}

func runHostile(t *testing.T, tc hostileCase) result {
	t.Helper()
	isolate(t)
	in := tc.stdin
	if in == nil {
		in = strings.NewReader("")
	}
	var out, errOut bytes.Buffer
	start := time.Now()
	code := testRun(t, tc.args, IOStreams{In: in, Out: &out, ErrOut: &errOut}, deps{})
	elapsed := time.Since(start)
	r := result{stdout: out.String(), stderr: errOut.String(), code: code}
	t.Logf("exit %d after %s", code, elapsed.Round(time.Millisecond))
	assert.Equal(t, tc.code, r.code, "stderr: %s", r.stderr)
	first, _, _ := strings.Cut(r.stderr, "\n")
	assert.Equal(t, tc.line, first)
	if tc.code == exitUsage {
		assert.Regexp(t, "^"+regexp.QuoteMeta(first)+"\nRun 'kstreams-groups( [a-z-]+)? --help' for usage.\n$", r.stderr, "one line, then the hint")
	}
	noRawControlBytes(t, "stdout", r.stdout)
	noRawControlBytes(t, "stderr", r.stderr)
	return r
}

// noRawControlBytes fails when s holds a C0 control other than LF, DEL or
// a C1 control (U+0080 to U+009F).
func noRawControlBytes(t *testing.T, what, s string) {
	t.Helper()
	for i, r := range s {
		if r < 0x20 && r != '\n' || r >= 0x7f && r <= 0x9f {
			t.Errorf("%s holds the raw control %U at %d: %q", what, r, i, s)
			return
		}
	}
}

// zeros is an endless stream of NUL bytes, like /dev/zero.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// Every local input has a size limit: past it, exit 2 at once with the
// file and the limit, never a read of the whole input.
func TestHostile_sizeLimits(t *testing.T) {
	t.Parallel()
	props := filepath.Join(t.TempDir(), "ssl.properties")
	require.NoError(t, os.WriteFile(props, []byte("security.protocol=SSL\nssl.truststore.type=PEM\nssl.truststore.location=/dev/zero\n"), 0o600))
	for _, tc := range []hostileCase{
		{name: "config file", args: []string{"--config", "/dev/zero", "--list", "--bootstrap-server", "127.0.0.1:9"},
			code: exitUsage, line: "config file /dev/zero is larger than 1 MiB, the limit for a config file"},
		{name: "command config", args: []string{"--command-config", "/dev/zero", "--list", "--bootstrap-server", "127.0.0.1:9"},
			code: exitUsage, line: "client properties /dev/zero (--command-config) is larger than 1 MiB, the limit for a properties file"},
		{name: "trust store", args: []string{"--command-config", props, "--list", "--bootstrap-server", "127.0.0.1:9"},
			code: exitUsage, line: props + ":line 3: ssl.truststore.location: /dev/zero is larger than 16 MiB, the limit for a key or trust store"},
		{name: "render file", args: []string{"render", "/dev/zero"},
			code: exitUsage, line: "/dev/zero is larger than 64 MiB, the limit for a topology description"},
		{name: "render stdin", args: []string{"render"}, stdin: zeros{},
			code: exitUsage, line: "stdin is larger than 64 MiB, the limit for a topology description"},
		{name: "playground seed", args: []string{"playground", "--seed", "/dev/zero"},
			code: exitUsage, line: "state file /dev/zero is larger than 64 MiB, the limit for a seed file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runHostile(t, tc)
		})
	}
}

// hostileHost is a broker host name from the issue: OSC title, BEL,
// erase screen, carriage return.
const hostileHost = "evil\x1b]0;PWN\x07\x1b[2J\rX"

// --debug escapes broker strings too: a Metadata answer naming a hostile
// host reaches stderr escaped in every line that quotes it.
func TestHostile_debugEscapesBrokerStrings(t *testing.T) {
	t.Parallel()
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	require.NoError(t, err)
	t.Cleanup(c.Close)
	c.ControlKey(int16(kmsg.Metadata), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		resp := req.ResponseKind().(*kmsg.MetadataResponse)
		resp.Brokers = []kmsg.MetadataResponseBroker{{NodeID: 7, Host: hostileHost, Port: 9092}}
		resp.ControllerID = 7
		return resp, nil, true
	})
	r := runHostile(t, hostileCase{
		args: []string{"--bootstrap-server", c.ListenAddrs()[0], "--list", "--debug", "--timeout", "1500"},
		code: exitFailure,
		line: "debug: config file: none; profile: none; client properties: none (PLAINTEXT); security: PLAINTEXT; bootstrap: " + c.ListenAddrs()[0] + "; timeout: 1500 ms",
	})
	assert.Contains(t, r.stderr, `evil^[]0;PWN^G^[[2J\rX`, "the host, escaped")
	assert.NotContains(t, r.stderr, "\x1b")
}

// Usage errors quote argv and local files, escaped: a flag name, the
// --state list, the --config and --command-config paths, a property key;
// a UTF-16 properties file is named as such instead of echoing its NULs.
func TestHostile_usageErrorsAreEscaped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(data), 0o600))
		return p
	}
	evilDir := filepath.Join(dir, "x\x1b[31m")
	require.NoError(t, os.Mkdir(evilDir, 0o700))
	utf16 := write("utf16.properties", "\xff\xfes\x00e\x00c\x00=\x00S\x00S\x00L\x00\n\x00")
	typo := write("typo.properties", "security.protocol=PLAINTEXT\nsasl.mechanisms=PLAIN\n")
	controlKey := write("control.properties", "ssl.key\x1b[2J.password=x\n")
	bs := []string{"--bootstrap-server", "127.0.0.1:9"}
	for _, tc := range []hostileCase{
		{name: "unknown flag", args: []string{"--bo\x1b[2Jgus"},
			line: "unknown flag: --bo^[[2Jgus"},
		{name: "state list", args: append([]string{"--list", "--state", "Stable,\x1b]0;x\x07"}, bs...),
			line: "Invalid state list 'Stable,^[]0;x^G'. Valid states are: Empty, NotReady, Stable, Assigning, Reconciling, Dead"},
		{name: "config path", args: append([]string{"--config", filepath.Join(evilDir, "config.yaml"), "--list"}, bs...),
			line: "cannot read config file: open " + dir + "/x^[[31m/config.yaml: no such file or directory"},
		{name: "command config path", args: append([]string{"--command-config", filepath.Join(evilDir, "c.properties"), "--list"}, bs...),
			line: "cannot read client properties (--command-config): open " + dir + "/x^[[31m/c.properties: no such file or directory"},
		{name: "a typo in a property key", args: append([]string{"--command-config", typo, "--list"}, bs...),
			line: typo + ":line 2: sasl.mechanisms: unsupported property"},
		{name: "a key that is no property name", args: append([]string{"--command-config", controlKey, "--list"}, bs...),
			line: controlKey + ":line 1: not a property (the line is not shown: it may be part of a secret; does the line before it lack its ending backslash?)"},
		{name: "UTF-16 properties", args: append([]string{"--command-config", utf16, "--list"}, bs...),
			line: "client properties " + utf16 + ": line 1 holds a NUL byte: is the file UTF-16? Kafka reads a properties file as ISO-8859-1 (save it as ASCII or Latin-1)"},
		{name: "render file path", args: []string{"render", filepath.Join(evilDir, "t.txt")},
			code: exitFailure, line: "Error: cannot read the topology description: open " + dir + "/x^[[31m/t.txt: no such file or directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.code == 0 {
				tc.code = exitUsage
			}
			runHostile(t, tc)
		})
	}
}

// A broker's error message is cut to a readable length in text output,
// with a note; JSON keeps it whole.
func TestHostile_longBrokerMessages(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := startCluster(t, 1, playground.Kafka44)
	long := "no\x1b[2J" + strings.Repeat("m", 20_000)
	c.PutStreamsGroup(streamsGroup("g", nil))
	c.InjectError(playground.Fault{Key: keyStreamsGroupDescribe, Group: "g", ErrorCode: 69, ErrorMessage: &long, Node: playground.AnyNode})
	cut := "GROUP_ID_NOT_FOUND: no^[[2J" + strings.Repeat("m", 1000-len("GROUP_ID_NOT_FOUND: no^[[2J")) + " [cut: the message has 20027 characters; -o json shows it whole]"

	r := runHostile(t, hostileCase{args: []string{"--bootstrap-server", bootstrap(c), "--describe", "--topology", "--group", "g"},
		code: exitFailure, line: "Error: streams group 'g': " + cut})
	assert.Empty(t, r.stdout)

	r = runHostile(t, hostileCase{args: []string{"--bootstrap-server", bootstrap(c), "--describe", "--topology", "--group", "g", "-o", "json"},
		code: exitFailure, line: "Error: streams group 'g': " + cut})
	assert.Contains(t, r.stdout, `"message": "no\u001b[2J`+strings.Repeat("m", 20_000)+`"`, "JSON keeps it whole")

	c.InjectError(playground.Fault{Key: keyDeleteGroups, Group: "g", ErrorCode: 134, ErrorMessage: &long, Node: playground.AnyNode})
	c.PutStreamsGroup(playground.StreamsGroup{ID: "g", State: "Empty"})
	r = runHostile(t, hostileCase{args: []string{"--bootstrap-server", bootstrap(c), "--delete", "--group", "g"},
		code: exitFailure, line: ""})
	assert.Contains(t, r.stdout, "* Group 'g' could not be deleted due to: GROUP_DELETION_FAILED: no^[[2J"+strings.Repeat("m", 1000-len("GROUP_DELETION_FAILED: no^[[2J"))+" [cut: the message has 20030 characters; -o json shows it whole]\n")
}

// The SASL example and a line holding only a secret: exit 2, one
// line naming the file and the line, no part of the password.
func TestHostile_secretsInProperties(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(data), 0o600))
		return p
	}
	misquoted := write("misquoted.properties", "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n"+
		`sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="alice password="LeakMe-1";`+"\n")
	alone := write("alone.properties", "security.protocol=SSL\nssl.truststore.password=\nLeakMe-10\n")
	for _, tc := range []hostileCase{
		{name: "a misquoted JAAS value", args: []string{"--command-config", misquoted, "--list", "--bootstrap-server", "127.0.0.1:9"},
			line: misquoted + ":line 3: sasl.jaas.config: value not specified for option 2 (name not shown: may be part of a value)"},
		{name: "a line holding only a secret", args: []string{"--command-config", alone, "--list", "--bootstrap-server", "127.0.0.1:9"},
			line: alone + ":line 3: not a property (the line is not shown: it may be part of a secret; does the line before it lack its ending backslash?)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.code = exitUsage
			r := runHostile(t, tc)
			assert.NotContains(t, r.stdout+r.stderr, "LeakMe")
		})
	}
}

// Bidi and invisible characters are escaped in text; JSON escapes DEL and
// the C1 controls.
func TestHostile_bidiAndC1(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := startCluster(t, 1, playground.Kafka44)
	d := tt.Desc([]*topology.Subtopology{tt.Sub("0", tt.Src("src\u202egnp.exe", []string{"in\u200b\x7f"}, "p\u2066"), tt.Proc("p\u2066", []string{"s\u0085"}))})
	c.PutStreamsGroup(streamsGroup("g\u2028", d))
	args := []string{"--bootstrap-server", bootstrap(c), "--describe", "--topology", "--all-groups"}
	r := runHostile(t, hostileCase{args: args, code: exitOK})
	assert.Contains(t, r.stdout, `Source: src\u202egnp.exe (topics: [in\u200b\x7f])`)
	assert.Contains(t, r.stdout, `Processor: p\u2066 (stores: [s\u0085])`)
	assert.NotContains(t, r.stdout, "\u202e")
	r = runHostile(t, hostileCase{args: append(args, "-o", "json"), code: exitOK})
	assert.Contains(t, r.stdout, `"group": "g\u2028"`)
	assert.Contains(t, r.stdout, "\"in\u200b\\u007f\"", "DEL escaped; U+200B is no control to JSON")
	assert.Contains(t, r.stdout, `"s\u0085"`)
}

// describe --topology | render gives back the same text, hostile names
// included; names the Processor API allows (", ", brackets, quotes, colons)
// are Kafka's bytes, sorted by the name; and diff of the group against its
// own text, saved or on stdin, finds nothing (F330).
func TestHostile_roundTrip(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := startCluster(t, 1, playground.Kafka44)
	d := tt.Desc([]*topology.Subtopology{tt.Sub("0",
		tt.Src("s", []string{"\x00", "0", "b"}, "\x1bp", "p", "p, [1]", `a\u200b`), tt.Proc("\x1bp", nil, "k: \"x\""), tt.Proc("p", nil, "k: \"x\""),
		tt.Proc("p, [1]", []string{"st\u200b"}, "k: \"x\""), tt.Proc(`a\u200b`, nil), tt.Sink("k: \"x\"", "t "))})
	c.PutStreamsGroup(streamsGroup("g", d))
	desc := runHostile(t, hostileCase{args: []string{"--bootstrap-server", bootstrap(c), "--describe", "--topology", "--group", "g"}, code: exitOK})
	assert.Contains(t, desc.stdout, "    Source: s (topics: [\\x00, 0, b])\n      --> \\x1bp, a\\\\u200b, p, p, [1]\n")
	assert.Contains(t, desc.stdout, "    Processor: p, [1] (stores: [st\\u200b])\n")
	assert.Contains(t, desc.stdout, "    Sink: k: \"x\" (topic: t )\n      <-- \\x1bp, p, p, [1]\n")
	again := runWithStdin(t, desc.stdout, "render")
	assert.Equal(t, desc.stdout, again.stdout)
	assert.Empty(t, again.stderr)

	saved := filepath.Join(t.TempDir(), "g.txt")
	require.NoError(t, os.WriteFile(saved, []byte(desc.stdout), 0o644))
	for _, side := range []string{saved, "-"} {
		r := runWithStdin(t, desc.stdout, "--bootstrap-server", bootstrap(c), "diff", "group:g", side)
		assert.Equal(t, 0, r.code, "diff against %s: %s%s", side, r.stdout, r.stderr)
	}
}

// rawControlWriter discards what it is given and remembers the first raw
// control character, for outputs too large to keep.
type rawControlWriter struct {
	n     int64
	found rune
}

func (w *rawControlWriter) Write(p []byte) (int, error) {
	for _, b := range p {
		if w.found == 0 && (b < 0x20 && b != '\n' || b == 0x7f) {
			w.found = rune(b)
		}
	}
	w.n += int64(len(p))
	return len(p), nil
}

// A large topology renders in every format, whole and with no raw control
// byte. Its cost (linear: 300,000 nodes once took -o dot minutes and -o
// yaml gigabytes) is measured by BenchmarkRender, not asserted here.
func TestHostile_largeTopology(t *testing.T) {
	t.Parallel()
	isolate(t)
	var text bytes.Buffer
	require.NoError(t, formatTopology(&text, 50_000))
	file := filepath.Join(t.TempDir(), "big.txt")
	require.NoError(t, os.WriteFile(file, text.Bytes(), 0o600))
	for _, o := range []string{"text", "json", "yaml", "dot", "mermaid"} {
		t.Run(o, func(t *testing.T) {
			var out rawControlWriter
			var errOut bytes.Buffer
			start := time.Now()
			code := testRun(t, []string{"render", "-o", o, file}, IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}, deps{})
			elapsed := time.Since(start)
			t.Logf("render -o %s of %d bytes: %d bytes in %s", o, text.Len(), out.n, elapsed.Round(time.Millisecond))
			assert.Equal(t, exitOK, code, errOut.String())
			assert.Empty(t, errOut.String())
			assert.Zero(t, out.found, "a raw control byte")
		})
	}
}
