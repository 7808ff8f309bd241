package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Hostile and careless local input, end to end through run(): each case
// asserts the exit code, the one line it prints on stderr (before the
// --help hint of a usage error), the time it took, and that no raw control
// byte reaches stdout or stderr. The misbehaving servers are tested apart.

// hostileCase is one invocation and what it must give.
type hostileCase struct {
	name  string
	args  []string
	stdin io.Reader
	code  int
	// line is the first stderr line, exactly.
	line string
	// within bounds the run's wall time.
	within time.Duration
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
	code := run(tc.args, IOStreams{In: in, Out: &out, ErrOut: &errOut}, deps{})
	elapsed := time.Since(start)
	r := result{stdout: out.String(), stderr: errOut.String(), code: code}
	t.Logf("exit %d after %s", code, elapsed.Round(time.Millisecond))
	assert.Equal(t, tc.code, r.code, "stderr: %s", r.stderr)
	first, _, _ := strings.Cut(r.stderr, "\n")
	assert.Equal(t, tc.line, first)
	if tc.code == exitUsage {
		assert.Equal(t, first+"\nRun 'kstreams-groups --help' for usage.\n", r.stderr, "one line, then the hint")
	}
	assert.Less(t, elapsed, tc.within)
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
		{name: "playground seed", args: []string{"playground", "--state", "/dev/zero"},
			code: exitUsage, line: "state file /dev/zero is larger than 64 MiB, the limit for a seed file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.within = 5 * time.Second
			runHostile(t, tc)
		})
	}
}
