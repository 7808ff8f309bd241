//go:build linux || darwin

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// diff colors like git diff on a terminal only: removed lines red, added
// green, hunk headers cyan, breaking findings red and warnings yellow;
// the colored text is the plain text plus escape sequences.
func TestTerminal_diffColors(t *testing.T) {
	t.Parallel()
	term := []string{"TERM=xterm-256color"}
	args := []string{"diff", diffData("diff-base.txt"), diffData("diff-filter.txt")}
	plain, stderr, code := inPipe(t, term, args...)
	require.Equal(t, diffFailing, code, stderr)
	assert.NotRegexp(t, anyEscape, plain, "no color in a pipe")

	colored, code := onTerminal(t, term, args...)
	require.Equal(t, diffFailing, code, colored)
	for _, want := range []string{
		"\x1b[31;1mbreaking\x1b[0;22m",
		"\x1b[33mwarning \x1b[0m",
		"\x1b[1m--- OLD ",
		"\x1b[36m@@ -1,25 +1,28 @@\x1b[0m",
		"\x1b[31m-    Processor: KSTREAM-FILTER-0000000006 (stores: [])\x1b[0m",
		"\x1b[32m+    Processor: KSTREAM-FILTER-0000000001 (stores: [])\x1b[0m",
	} {
		assert.Contains(t, colored, want)
	}
	assert.Equal(t, plain, sgrEscapes.ReplaceAllString(colored, ""), "color adds escape sequences only")

	got, code := onTerminal(t, append(term, "NO_COLOR=1"), args...)
	assert.Equal(t, diffFailing, code)
	assert.NotRegexp(t, anyEscape, got)
}

// Names from a file reach the terminal escaped, in the findings, the
// changes and the unified diff alike.
func TestTerminal_diffHostileNames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	old := filepath.Join(dir, "old.txt")
	evil := filepath.Join(dir, "evil.txt")
	require.NoError(t, os.WriteFile(old, []byte("Topologies:\n   Sub-topology: 0\n    Source: s (topics: [in])\n      --> p\n    Processor: p (stores: [st])\n      --> none\n      <-- s\n"), 0o644))
	require.NoError(t, os.WriteFile(evil, []byte("Topologies:\n   Sub-topology: 0\n    Source: s (topics: [in\x1b]0;owned\x07])\n      --> p\x1b[2J\n    Processor: p\x1b[2J (stores: [st\x1b[31m])\n      --> none\n      <-- s\n"), 0o644))
	got, code := onTerminal(t, []string{"TERM=xterm"}, "diff", old, evil)
	assert.Equal(t, diffFailing, code, got)
	visible := sgrEscapes.ReplaceAllString(got, "")
	assert.NotRegexp(t, anyEscape, visible, "only our own color sequences reach the terminal")
	assert.Contains(t, visible, "p^[[2J")
	assert.Contains(t, visible, "st^[[31m")
}
