//go:build linux || darwin

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The playground removes an address file an earlier run left before it
// does anything slow (reading the seed), so that a script waiting for the
// file never reads a stale address; once it listens, it prints the address
// on stdout and, on stderr, the export line and how to stop it, and writes
// the file whole (no temporary file left beside it). The seed is read from
// a named pipe, which holds the playground where the stale file must
// already be gone.
func TestPlayground_addrFileAndGuide(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	addrFile := filepath.Join(dir, "pg.addr")
	require.NoError(t, os.WriteFile(addrFile, []byte("127.0.0.1:1\n"), 0o644))
	seed := filepath.Join(dir, "seed.fifo")
	require.NoError(t, syscall.Mkfifo(seed, 0o600))

	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, "playground", "--seed", seed, "--addr-file", addrFile)
	cmd.Env = []string{runAsCLIEnv + "=1", "HOME=" + dir, "XDG_CONFIG_HOME=" + dir, "PATH=" + os.Getenv("PATH")}
	// Files, not buffers: what the child wrote is in them when it wrote
	// it, with no copying goroutine between (that lagged under load, and
	// the guide looked printed after the address file).
	streams := t.TempDir()
	stdoutFile, err := os.Create(filepath.Join(streams, "stdout"))
	require.NoError(t, err)
	defer stdoutFile.Close()
	stderrFile, err := os.Create(filepath.Join(streams, "stderr"))
	require.NoError(t, err)
	defer stderrFile.Close()
	stdout, stderr := fileText(stdoutFile.Name()), fileText(stderrFile.Name())
	cmd.Stdout, cmd.Stderr = stdoutFile, stderrFile
	require.NoError(t, cmd.Start())
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})

	// Opening the pipe for writing waits for the playground to open it
	// for reading: by then the stale file must be gone.
	w, err := os.OpenFile(seed, os.O_WRONLY, 0)
	require.NoError(t, err)
	assert.NoFileExists(t, addrFile, "the stale address file is removed before the seed is read")
	data, err := os.ReadFile(filepath.Join(repoRoot, "internal", "playground", "seed", "default.yaml"))
	require.NoError(t, err)
	_, err = w.Write(data)
	require.NoError(t, err)
	require.NoError(t, w.Close())

	var addr string
	deadline := time.Now().Add(30 * time.Second)
	for addr == "" {
		b, _ := os.ReadFile(addrFile)
		addr = strings.TrimSuffix(string(b), "\n")
		if addr == "" {
			require.True(t, time.Now().Before(deadline), "no address file\n%s", stderr.String())
			time.Sleep(10 * time.Millisecond)
		}
	}
	assert.NotEqual(t, "127.0.0.1:1", addr)
	assert.Len(t, strings.Split(addr, ","), 3, "the default seed's three nodes")
	assert.Equal(t, addr+"\n", stdout.String(), "stdout is the address alone")
	assert.Equal(t, "Playground cluster listening. Point kstreams-groups at it with:\n"+
		"  export KSTREAMS_GROUPS_BOOTSTRAP_SERVER="+addr+"\n"+
		"Stop it with Ctrl-C, or kill "+strconv.Itoa(cmd.Process.Pid)+" when it runs in the background.\n", stderr.String(),
		"printed before the address file is written")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.ElementsMatch(t, []string{"pg.addr", "seed.fifo"}, names, "no temporary file left")

	r := runCLI(t, "--bootstrap-server", addr, "list")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "word-count")

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	assert.NoError(t, <-exited, "SIGTERM ends it with exit 0")
	exited <- nil // for the cleanup
}

// --seed names the seed file; --state, its first name (a group state
// everywhere else), still works for one release, hidden from the help,
// with a notice on stderr: stdout stays the address alone.
func TestPlayground_stateIsTheDeprecatedSeed(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "missing.yaml")
	seed := runCLI(t, "playground", "--seed", missing)
	state := runCLI(t, "playground", "--state", missing)
	assert.Equal(t, exitUsage, seed.code, seed.stderr)
	assert.Contains(t, seed.stderr, "cannot read state file: ", "--seed reads the file")
	assert.NotContains(t, seed.stderr, "deprecated")
	assert.Equal(t, seed.code, state.code)
	assert.Empty(t, state.stdout)
	assert.Equal(t, "Flag --state has been deprecated, use --seed\n"+seed.stderr, state.stderr, "--state reads the same file, after the notice")

	help := runCLI(t, "playground", "--help")
	assert.Contains(t, help.stdout, "--seed string")
	assert.NotContains(t, help.stdout, "--state")
}

// fileText is a file's text, read when asked.
type fileText string

func (f fileText) String() string {
	b, _ := os.ReadFile(string(f))
	return string(b)
}

func TestWriteFileAtomic(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "addr")
	require.NoError(t, os.WriteFile(path, []byte("old, longer content\n"), 0o600))
	require.NoError(t, writeFileAtomic(path, []byte("new\n")))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "new\n", string(b))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file left")
	err = writeFileAtomic(filepath.Join(dir, "missing", "addr"), []byte("x"))
	assert.ErrorContains(t, err, "--addr-file: ")
}
