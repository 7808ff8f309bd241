//go:build gendocs

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The command reference has a page for a verb from its entry alone.
func TestFakeVerb_inReference(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	require.NoError(t, writeReference((&app{deps: withFakeVerb}).newRootCmd(), dir))
	page, err := os.ReadFile(filepath.Join(dir, "kstreams-groups_fake-verb.md"))
	require.NoError(t, err)
	assert.Contains(t, string(page), "A verb that only this test declares")
	assert.Contains(t, string(page), "Exit status:")
	root, err := os.ReadFile(filepath.Join(dir, "kstreams-groups.md"))
	require.NoError(t, err)
	assert.Contains(t, string(root), "[kstreams-groups fake-verb](kstreams-groups_fake-verb.md)")
}
