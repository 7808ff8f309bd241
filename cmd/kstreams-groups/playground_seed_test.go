package main

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// playground --state takes a file or, where no file of that name exists,
// a built-in seed (the docs' pages start `--state standbys`); a file of
// the name wins.
func TestPlaygroundBuiltinSeed(t *testing.T) {
	t.Chdir(t.TempDir())
	groups := func(name string) []string {
		st, err := readSeed(t.Context(), name)
		require.NoError(t, err, name)
		var ids []string
		for _, g := range st.StreamsGroups {
			ids = append(ids, g.ID)
		}
		return ids
	}
	assert.Contains(t, groups(""), "word-count")
	assert.Contains(t, groups("default"), "word-count")
	assert.Contains(t, groups("standbys"), "sb-host")
	assert.Contains(t, groups("timelag"), "shop")
	assert.Contains(t, groups("offsets"), "wc-live")

	require.NoError(t, os.WriteFile("standbys", []byte("streams_groups:\n  - {id: mine, state: Empty}\n"), 0o644))
	assert.Equal(t, []string{"mine"}, groups("standbys"), "the file wins")

	_, err := readSeed(t.Context(), "nope")
	var ue *usageError
	require.ErrorAs(t, err, &ue)
	assert.Contains(t, err.Error(), "cannot read state file: open nope: no such file or directory")
}
