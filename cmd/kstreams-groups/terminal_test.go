//go:build linux || darwin

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin/admintest"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// runAsCLIEnv makes the test binary act as kstreams-groups (see TestMain),
// so that terminal tests run the real main() with real process streams.
const runAsCLIEnv = "KSTREAMS_GROUPS_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	processClock = fixedNowClock{at: testNow}
	if os.Getenv(runAsCLIEnv) == "1" {
		onSignalFallback = func() { fmt.Fprintln(os.Stderr, signalFallbackMark) }
		main() // exits
	}
	if spec := os.Getenv(renderChildEnv); spec != "" {
		os.Exit(renderChild(spec)) // BenchmarkRender's child
	}
	if spec := os.Getenv(historyChildEnv); spec != "" {
		os.Exit(historyChild(spec)) // BenchmarkHistory's child
	}
	raiseParallelism()
	os.Exit(m.Run())
}

// signalFallbackMark is what a child writes on stderr when a signal ended
// it through mainCode's fallback instead of the command unwinding.
const signalFallbackMark = "(the command did not unwind: ended by the fallback)"

// sgrEscapes matches the color sequences; anyEscape any ESC at all.
var (
	sgrEscapes = regexp.MustCompile("\x1b\\[[0-9;]*m")
	anyEscape  = regexp.MustCompile("\x1b")
)

// cliProcess is kstreams-groups as a child process with a clean
// environment plus env.
func cliProcess(t *testing.T, env []string, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, args...)
	home := t.TempDir()
	cmd.Env = append([]string{runAsCLIEnv + "=1", "HOME=" + home, "XDG_CONFIG_HOME=" + home, "PATH=" + os.Getenv("PATH")}, env...)
	return cmd
}

// onTerminal runs the CLI with stdout and stderr on a pseudo-terminal and
// returns what the terminal received, with the terminal's CR LF turned
// back into LF.
func onTerminal(t *testing.T, env []string, args ...string) (string, int) {
	t.Helper()
	cmd := cliProcess(t, env, args...)
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 60, Cols: 200})
	require.NoError(t, err)
	defer ptmx.Close()
	var out bytes.Buffer
	_, err = io.Copy(&out, ptmx) // ends with EIO once the child has exited
	var pe *os.PathError
	if err != nil && !errors.As(err, &pe) {
		require.NoError(t, err)
	}
	werr := cmd.Wait()
	code := 0
	var ee *exec.ExitError
	if errors.As(werr, &ee) {
		code = ee.ExitCode()
	} else {
		require.NoError(t, werr)
	}
	return strings.ReplaceAll(out.String(), "\r\n", "\n"), code
}

// inPipe runs the CLI with stdout and stderr on pipes.
func inPipe(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := cliProcess(t, env, args...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return o.String(), e.String(), ee.ExitCode()
	}
	require.NoError(t, err)
	return o.String(), e.String(), 0
}

// The same command colors on a terminal and not in a pipe, and the colored
// text is the plain text plus escape sequences. NO_COLOR, TERM=dumb,
// --no-color and a machine-readable -o turn color off on a terminal too.
func TestTerminal_colorOnlyOnATerminal(t *testing.T) {
	t.Parallel()
	c := startCluster(t, 1, playground.Kafka44)
	c.PutStreamsGroup(streamsGroup("word-count", tt.WordCount()))
	c.PutStreamsGroup(streamsGroup("inventory", nil))
	base := []string{"--bootstrap-server", bootstrap(c), "--describe", "--topology"}
	term := []string{"TERM=xterm-256color"}

	t.Run("topology", func(t *testing.T) {
		args := append(base, "--group", "word-count")
		plain, stderr, code := inPipe(t, term, args...)
		require.Equal(t, 0, code, stderr)
		assert.NotRegexp(t, anyEscape, plain, "no color in a pipe")

		colored, code := onTerminal(t, term, args...)
		require.Equal(t, 0, code, colored)
		assert.Contains(t, colored, "\x1b[32mSource:\x1b[0m", "node kinds colored on a terminal")
		assert.Contains(t, colored, "\x1b[1mSub-topology: 0\x1b[22m")
		assert.Equal(t, plain, sgrEscapes.ReplaceAllString(colored, ""), "color adds escape sequences only")
	})

	t.Run("status message and error line", func(t *testing.T) {
		args := append(base, "--group", "inventory", "--group", "nope")
		stdout, stderr, code := inPipe(t, term, args...)
		assert.Equal(t, 1, code)
		assert.NotRegexp(t, anyEscape, stdout+stderr)
		assert.Contains(t, stderr, "Error: streams group 'nope'")

		got, code := onTerminal(t, term, args...)
		assert.Equal(t, 1, code)
		assert.Contains(t, got, "\x1b[33mError: No topology description is stored for streams group 'inventory'.\x1b[0m")
		assert.Contains(t, got, "\x1b[31;1mError:\x1b[0;22m streams group 'nope': GROUP_ID_NOT_FOUND")
	})

	for _, tc := range []struct {
		name string
		env  []string
		args []string
	}{
		{name: "NO_COLOR", env: []string{"TERM=xterm", "NO_COLOR=1"}},
		{name: "TERM=dumb", env: []string{"TERM=dumb"}},
		{name: "--no-color", env: term, args: []string{"--no-color"}},
		{name: "-o json", env: term, args: []string{"-o", "json"}},
		{name: "-o yaml", env: term, args: []string{"-o", "yaml"}},
	} {
		t.Run("no color with "+tc.name, func(t *testing.T) {
			args := append(append(base, "--group", "word-count", "--group", "nope"), tc.args...)
			got, code := onTerminal(t, tc.env, args...)
			assert.Equal(t, 1, code, got)
			assert.NotRegexp(t, anyEscape, got)
			assert.Contains(t, got, "Error: streams group 'nope'")
		})
	}
}

// Hostile names reach a real terminal escaped: not one control character
// from the broker gets through, color on or off.
func TestTerminal_hostileNames(t *testing.T) {
	t.Parallel()
	c := startCluster(t, 1, playground.Kafka44)
	c.PutStreamsGroup(streamsGroup("evil\x1b]0;owned\x07", hostileTopology()))
	for _, env := range [][]string{{"TERM=xterm"}, {"TERM=xterm", "NO_COLOR=1"}} {
		got, code := onTerminal(t, env, "--bootstrap-server", bootstrap(c), "--describe", "--topology", "--all-groups")
		assert.Equal(t, 0, code, got)
		visible := sgrEscapes.ReplaceAllString(got, "")
		assert.NotRegexp(t, anyEscape, visible, "no ESC but our own color sequences")
		assert.NotContains(t, visible, "\x07")
		assert.NotContains(t, visible, "\r")
		assert.Contains(t, visible, "Source: src\\x1b]0;owned\\x07 (topics: [in\\rOVERWRITTEN])")
	}
}

// The color decision itself, on a real terminal device.
func Test_colorOn(t *testing.T) {
	t.Parallel()
	ptmx, tty, err := pty.Open()
	require.NoError(t, err)
	defer ptmx.Close()
	defer tty.Close()
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	defer w.Close()

	tests := []struct {
		name    string
		out     io.Writer
		noColor bool
		output  format.Output
		env     map[string]string
		want    bool
	}{
		{name: "terminal", out: tty, output: format.Text, want: true},
		{name: "empty NO_COLOR is unset", out: tty, output: format.Text, env: map[string]string{"NO_COLOR": ""}, want: true},
		{name: "pipe", out: w, output: format.Text},
		{name: "buffer", out: &bytes.Buffer{}, output: format.Text},
		{name: "NO_COLOR", out: tty, output: format.Text, env: map[string]string{"NO_COLOR": "1"}},
		{name: "TERM=dumb", out: tty, output: format.Text, env: map[string]string{"TERM": "dumb"}},
		{name: "--no-color", out: tty, output: format.Text, noColor: true},
		{name: "json", out: tty, output: format.JSON},
		{name: "yaml", out: tty, output: format.YAML},
		{name: "dot", out: tty, output: format.Dot},
		{name: "before the config is loaded", out: tty},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := map[string]string{"TERM": "xterm", "NO_COLOR": ""}
			maps.Copy(env, tc.env)
			a := &app{cfg: Config{Output: tc.output}, term: terminal{noColor: tc.noColor}, deps: deps{env: mapEnviron(env)}}
			assert.Equal(t, tc.want, a.colorOn(tc.out))
		})
	}
}

// A broker that never answers: on a terminal, after about two seconds, one
// line on stderr says what the client is waiting for, and it is erased
// before the error is printed; in a pipe there is no such line. The error
// names the stuck step (ApiVersions), not the request the command made.
func TestTerminal_waitingLine(t *testing.T) {
	t.Parallel()
	addr := admintest.Silent(t)
	args := []string{"--bootstrap-server", addr, "describe", "--group", "g", "--timeout", "3300ms"}
	stuck := "StreamsGroupDescribe: timed out waiting for " + addr + " to answer ApiVersions v4, the first request of a connection (is it a Kafka listener?)"

	// Both wait out --timeout: side by side.
	t.Run("terminal", func(t *testing.T) {
		t.Parallel()
		out, code := onTerminal(t, nil, args...)
		assert.Equal(t, 1, code, out)
		line := "\rwaiting 2s for " + addr + ": ApiVersions v4 (connection handshake)" + clearLine
		i := strings.Index(out, line)
		require.GreaterOrEqual(t, i, 0, "no waiting line in %q", out)
		erase := strings.LastIndex(out, "\r"+clearLine)
		e := strings.Index(out, "Error:")
		require.GreaterOrEqual(t, e, 0, out)
		assert.True(t, i < erase && erase < e, "the line is erased before the error: %q", out)
		assert.NotContains(t, out[erase:], "\rwaiting", "no line shown again after the erase")
		assert.Contains(t, out, stuck)
	})

	t.Run("pipe", func(t *testing.T) {
		t.Parallel()
		stdout, stderr, code := inPipe(t, nil, args...)
		assert.Equal(t, 1, code)
		assert.Empty(t, stdout)
		assert.NotContains(t, stderr, "\r")
		assert.NotRegexp(t, anyEscape, stderr)
		assert.Contains(t, stderr, stuck)
	})
}
