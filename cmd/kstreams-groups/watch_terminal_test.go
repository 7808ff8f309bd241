//go:build linux || darwin

package main

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/buftest"
)

// waitFor waits until out holds want n times, failing after 30 s.
func waitFor(t *testing.T, out *buftest.Buffer, want string, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for strings.Count(out.String(), want) < n {
		if time.Now().After(deadline) {
			t.Fatalf("no %d× %q after 30 s in:\n%q", n, want, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// exitCode waits for cmd and returns its exit code.
func exitCode(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		require.NoError(t, err)
		return 0
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("the watch did not end within 30 s")
		return -1
	}
}

// termState is the terminal's settings, as stty -g prints them.
func termState(t *testing.T, tty *os.File) string {
	t.Helper()
	cmd := exec.Command("stty", "-g")
	cmd.Stdin = tty
	out, err := cmd.Output()
	require.NoError(t, err)
	return strings.TrimSpace(string(out))
}

// On a terminal: the view is redrawn in place (cursor home, lines cleared,
// the rest of the screen cleared), the cursor hidden while watching; Ctrl-C
// ends the watch with exit 130 and the cursor shown again, the terminal's
// settings unchanged.
func TestWatch_terminal(t *testing.T) {
	t.Parallel()
	c := healthCluster(t)
	ptmx, tty, err := pty.Open()
	require.NoError(t, err)
	defer ptmx.Close()
	defer tty.Close()
	require.NoError(t, pty.Setsize(ptmx, &pty.Winsize{Rows: 60, Cols: 200}))
	before := termState(t, tty)

	cmd := cliProcess(t, []string{"TERM=xterm"}, "--bootstrap-server", bootstrap(c), "describe", "--members", "--group", "steady", "--watch", "--interval", "150ms")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	require.NoError(t, cmd.Start())
	var out buftest.Buffer
	go func() { _, _ = io.Copy(&out, ptmx) }()

	waitFor(t, &out, ", sample 3 (Ctrl-C to stop)", 1)
	_, err = ptmx.Write([]byte{3}) // Ctrl-C: the terminal sends SIGINT
	require.NoError(t, err)
	assert.Equal(t, 130, exitCode(t, cmd))
	// The child wrote its last bytes before it exited; they reach out
	// when the copy has read them: the cursor shown after the last frame.
	lastBytes := func() bool {
		got := out.String()
		return strings.LastIndex(got, showCursor) > strings.LastIndex(got, home)
	}
	for deadline := time.Now().Add(30 * time.Second); !lastBytes() && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	got := out.String()

	assert.True(t, strings.HasPrefix(got, hideCursor+clearAll), "the cursor is hidden and the screen cleared first: %q", got[:min(40, len(got))])
	assert.GreaterOrEqual(t, strings.Count(got, home), 3, "every sample redraws from the top")
	assert.GreaterOrEqual(t, strings.Count(got, clearBelow), 3)
	assert.Contains(t, got, "m-a"+strings.Repeat(" ", 1))
	assert.Contains(t, got, clearLine+"\r\n", "each line clears the rest of its old text")
	assert.Contains(t, got, "\x1b[1mEvery 150ms: ", "the header is bold on a terminal")
	end := strings.LastIndex(got, showCursor)
	require.GreaterOrEqual(t, end, 0, "the cursor is shown again: %q", got)
	assert.Greater(t, end, strings.LastIndex(got, home), "after the last frame")
	assert.Equal(t, before, termState(t, tty), "the terminal's settings are as before")
}

// In a pipe, SIGINT ends the watch with 130 too, and no escape sequence was
// ever written.
func TestWatch_pipeInterrupt(t *testing.T) {
	t.Parallel()
	c := healthCluster(t)
	cmd := cliProcess(t, nil, "--bootstrap-server", bootstrap(c), "overview", "--group", "steady", "--watch", "--interval", "150ms")
	var out, errOut buftest.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	require.NoError(t, cmd.Start())
	waitFor(t, &out, ", sample 2\n", 1)
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	assert.Equal(t, 130, exitCode(t, cmd), errOut.String())
	assert.NotRegexp(t, anyEscape, out.String())
	assert.Empty(t, errOut.String())

	cmd = cliProcess(t, nil, "--bootstrap-server", bootstrap(c), "check", "--group", "steady", "--watch", "--interval", "150ms")
	var out2 buftest.Buffer
	cmd.Stdout = &out2
	require.NoError(t, cmd.Start())
	waitFor(t, &out2, ", sample 2\n", 1)
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	assert.Equal(t, 143, exitCode(t, cmd), "SIGTERM: 128 + 15")
}
