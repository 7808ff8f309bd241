//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	oursOnce sync.Once
	oursBin  string
	oursHome string // empty XDG_CONFIG_HOME/HOME for every run, so no user config leaks in
	oursErr  error
	oursDir  string // removed by removeOurBinary (TestMain)
)

// RepoRoot is the module root (the parent of the e2e directory).
func RepoRoot() string { return filepath.Dir(E2EDir()) }

// OurBinary builds ./cmd/kstreams-groups once per test binary (go build into a temp dir) and returns its path.
// The build uses `go` from $E2E_GO, else $GOROOT/bin/go, else PATH; a build failure fails tb (and
// every later caller, with the same message) rather than retrying a broken tree on each test.
// $E2E_OURS_BIN names a prebuilt binary to use instead (make bench-e2e passes the release build).
func OurBinary(tb testing.TB) string {
	tb.Helper()
	oursOnce.Do(func() {
		start := time.Now()
		oursDir, oursErr = os.MkdirTemp(os.Getenv("E2E_TMPDIR"), "e2e-ours-")
		if oursErr != nil {
			return
		}
		oursHome = filepath.Join(oursDir, "home")
		if oursErr = os.MkdirAll(oursHome, 0o755); oursErr != nil {
			return
		}
		if pre := os.Getenv("E2E_OURS_BIN"); pre != "" {
			oursBin, oursErr = filepath.Abs(pre)
			if oursErr == nil && !fileExists(oursBin) {
				oursErr = fmt.Errorf("e2e: E2E_OURS_BIN=%s does not exist", pre)
			}
			return
		}
		oursBin = filepath.Join(oursDir, "kstreams-groups")
		cmd := exec.Command(goBin(), "build", "-o", oursBin, "./cmd/kstreams-groups")
		cmd.Dir = RepoRoot()
		out, err := cmd.CombinedOutput()
		if err != nil {
			oursErr = fmt.Errorf("e2e: go build ./cmd/kstreams-groups: %w\n%s", err, out)
			return
		}
		logf("built %s (%s)", oursBin, time.Since(start).Round(time.Millisecond))
	})
	if oursErr != nil {
		tb.Fatal(oursErr)
	}
	return oursBin
}

// RunOurs runs our binary with args, capturing stdout, stderr and the exit code separately (no shell).
// The environment is the test's minus every KSTREAMS_GROUPS_* variable, with HOME and
// XDG_CONFIG_HOME pointing at an empty directory, so only args configure the run (pass --config
// or use RunOursEnv for more). A run that could not start or was killed (ctx deadline) reports
// ExitCode -1 and the reason appended to Stderr.
func RunOurs(ctx context.Context, bin string, args ...string) ToolResult {
	return RunOursEnv(ctx, bin, nil, args...)
}

// RunOursOn runs ours against broker b (its address as --bootstrap-server, before args) within
// 60 s, and logs the call, its exit code and its time under the test's name.
func RunOursOn(t testing.TB, bin string, b *Broker, args ...string) ToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	r := RunOurs(ctx, bin, append([]string{"--bootstrap-server", b.Addr}, args...)...)
	logf("%s: %s: exit %d in %s", t.Name(), strings.Join(args, " "), r.ExitCode, r.Duration.Round(time.Millisecond))
	return r
}

// RunOursEnv is RunOurs with extra "KEY=value" environment entries (applied last, so they win).
func RunOursEnv(ctx context.Context, bin string, env []string, args ...string) ToolResult {
	return runOurs(ctx, bin, env, nil, args...)
}

// RunOursStdin is RunOurs with stdin read from the string in (for a "-" input).
func RunOursStdin(ctx context.Context, bin, in string, args ...string) ToolResult {
	return runOurs(ctx, bin, nil, strings.NewReader(in), args...)
}

func runOurs(ctx context.Context, bin string, env []string, stdin io.Reader, args ...string) ToolResult {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = oursEnv(env)
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	res := ToolResult{Args: args, Stdout: stdout.String(), Stderr: stderr.String(), Duration: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && ee.Exited():
		res.ExitCode = ee.ExitCode()
	default:
		res.ExitCode = -1
		res.Stderr += fmt.Sprintf("\n[e2e] %s did not exit normally: %v", filepath.Base(bin), err)
	}
	return res
}

func oursEnv(extra []string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "KSTREAMS_GROUPS_") || k == "HOME" || k == "XDG_CONFIG_HOME" {
			continue
		}
		env = append(env, kv)
	}
	home := oursHome
	if home == "" { // RunOurs on a binary not from OurBinary: still keep user config out
		home = os.TempDir()
	}
	env = append(env, "HOME="+home, "XDG_CONFIG_HOME="+home)
	return append(env, extra...)
}

func goBin() string {
	if g := os.Getenv("E2E_GO"); g != "" {
		return g
	}
	if r := os.Getenv("GOROOT"); r != "" {
		if p := filepath.Join(r, "bin", "go"); fileExists(p) {
			return p
		}
	}
	return "go"
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// removeOurBinary deletes the temp dir OurBinary built into; TestMain calls it after all tests.
func removeOurBinary() {
	if oursDir != "" {
		_ = os.RemoveAll(oursDir)
	}
}
