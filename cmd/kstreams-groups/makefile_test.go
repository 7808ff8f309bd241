//go:build linux || darwin

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// makeDry runs make -n (print, do not run) in the repository.
func makeDry(t *testing.T, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("make"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("make is needed")
		}
		t.Skip("make is needed")
	}
	cmd := exec.Command("make", append([]string{"-n", "--no-print-directory"}, args...)...)
	cmd.Dir = repoRoot
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return string(out)
}

// make build stamps the version, commit and date from git, as the
// release's ldflags do (a binary built from a clone must not say "dev
// (commit unknown, built unknown)"); without git it stamps nothing, and the
// build still works.
func TestMakefile_buildStampsVersion(t *testing.T) {
	t.Parallel()
	git := func(args ...string) string {
		out, err := exec.Command("git", append([]string{"-C", repoRoot}, args...)...).Output()
		if err != nil {
			t.Skipf("not a git clone here: %v", err)
		}
		return strings.TrimSpace(string(out))
	}
	head := git("rev-parse", "HEAD")
	describe := strings.TrimPrefix(git("describe", "--tags", "--always", "--dirty"), "v")

	out := makeDry(t, "build")
	assert.Contains(t, out, "-X main.version="+describe+" ")
	assert.Contains(t, out, "-X main.commit="+head+" ")
	assert.Regexp(t, `-X main\.date=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ'`, out, "the commit's date in UTC, as the release's")
	assert.Contains(t, out, "-trimpath")

	out = makeDry(t, "build", "GIT="+filepath.Join(t.TempDir(), "no-git"))
	assert.NotContains(t, out, "-X main.")
	assert.Contains(t, out, "-ldflags='-s -w' ")
}

// make help lists every target of the Makefile that has a description,
// and every target has one (the awk once missed names with a digit: e2e,
// bench-e2e).
func TestMakefile_helpListsEveryTarget(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(repoRoot, "Makefile"))
	require.NoError(t, err)
	targets := regexp.MustCompile(`(?m)^([a-zA-Z0-9_-][a-zA-Z0-9_.-]*):`).FindAllStringSubmatch(string(data), -1)
	require.NotEmpty(t, targets)
	cmd := exec.Command("make", "--no-print-directory", "help")
	cmd.Dir = repoRoot
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is needed")
	}
	out, err := cmd.Output()
	require.NoError(t, err)
	listed := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		listed[strings.Fields(line)[0]] = true
	}
	for _, m := range targets {
		assert.True(t, listed[m[1]], "make help does not list %s", m[1])
	}
	for _, name := range []string{"e2e", "bench-e2e", "man", "build", "test"} {
		assert.True(t, listed[name], name)
	}
}

// make man writes the man pages where man finds them from a clone.
func TestMakefile_man(t *testing.T) {
	t.Parallel()
	out := makeDry(t, "man")
	assert.Contains(t, out, "gen-docs ")
	assert.Regexp(t, `cp build/man-docs/man/\*\.1 \S+/share/man/man1/`, out)
	out = makeDry(t, "man", "PREFIX=/home/me/.local")
	assert.Contains(t, out, "mkdir -p /home/me/.local/share/man/man1\n")
}
