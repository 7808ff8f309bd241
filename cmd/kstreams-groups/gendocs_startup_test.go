//go:build gendocs

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gen-docs, run as make docs and goreleaser run it, writes the pages of
// every command: a run builds only the command it runs (newRootCmdFor),
// and gen-docs builds the whole tree itself.
func TestGenDocs_wholeTree(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var errOut strings.Builder
	code := testRun(t, []string{"gen-docs", "--reference", dir}, IOStreams{In: strings.NewReader(""), Out: &strings.Builder{}, ErrOut: &errOut}, deps{})
	require.Equal(t, 0, code, errOut.String())
	pages, err := os.ReadDir(dir)
	require.NoError(t, err)
	committed, err := os.ReadDir(filepath.Join(repoRoot, "docs", "reference"))
	require.NoError(t, err)
	assert.Len(t, pages, len(committed))
	b, err := os.ReadFile(filepath.Join(dir, "kstreams-groups_describe.md"))
	require.NoError(t, err)
	assert.Contains(t, string(b), "--topology", "the page of a command built whole, with its options")
}
