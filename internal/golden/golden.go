// Package golden compares test output with the files under
// <module>/testdata/golden and rewrites them when tests run with -update
// (make golden). Its single job is that comparison; it is imported only by
// _test.go files.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/golden")

// Path is the golden file of the running test:
// testdata/golden/<package dir>/<t.Name()>.golden.
func Path(t testing.TB) string {
	t.Helper()
	root, rel := moduleRoot(t)
	return filepath.Join(root, "testdata", "golden", rel, filepath.FromSlash(t.Name())+".golden")
}

// Assert compares got with the test's golden file, or rewrites it with
// -update. Lines are quoted in the diff so that whitespace and control
// characters are visible.
func Assert(t testing.TB, got []byte) {
	t.Helper()
	AssertFile(t, Path(t), got)
}

// AssertFile is Assert for an explicit golden path.
func AssertFile(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run: make golden")
	if string(want) != string(got) {
		assert.Equal(t, quote(string(want)), quote(string(got)), "golden file %s differs; run make golden to accept", path)
	}
}

func quote(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		lines[i] = strconv.Quote(l)
	}
	return strings.Join(lines, "\n")
}

func moduleRoot(t testing.TB) (root, rel string) {
	t.Helper()
	wd, err := os.Getwd()
	require.NoError(t, err)
	dir := wd
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			r, err := filepath.Rel(dir, wd)
			require.NoError(t, err)
			return dir, r
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, parent, dir, "no go.mod above %s", wd)
		dir = parent
	}
}
