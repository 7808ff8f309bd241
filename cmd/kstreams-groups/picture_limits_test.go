package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A topology past the picture limits is a usage error (exit 2) that
// names the limit and suggests -o dot, before any layout starts; -o dot
// of the same file works.
func TestRender_pictureTooLarge(t *testing.T) {
	t.Parallel()
	isolate(t)
	var text bytes.Buffer
	require.NoError(t, formatTopology(&text, 12_000))
	file := filepath.Join(t.TempDir(), "large.txt")
	require.NoError(t, os.WriteFile(file, text.Bytes(), 0o600))
	for _, o := range []string{"svg", "png"} {
		r := runCLI(t, "render", file, "-o", o)
		assert.Equal(t, exitUsage, r.code, r.stderr)
		assert.Empty(t, r.stdout)
		assert.Contains(t, r.stderr, "too large for a picture: 25248 boxes")
		assert.Contains(t, r.stderr, "-o dot")
	}
	r := runCLI(t, "render", file, "-o", "dot")
	assert.Equal(t, exitOK, r.code, r.stderr)
}
