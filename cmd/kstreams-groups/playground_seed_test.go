package main

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// playground --seed takes a file or, where no file of that name exists,
// a built-in seed (the docs' pages start `--seed standbys`); a file of
// the name wins.
func TestPlaygroundBuiltinSeed(t *testing.T) {
	t.Chdir(t.TempDir())
	groups := func(name string) []string {
		data, err := stateInput.readFile(t.Context(), "state file "+name, name)
		require.NoError(t, err, name)
		st, err := playground.ParseState([]byte(data))
		require.NoError(t, err, name)
		var ids []string
		for _, g := range st.StreamsGroups {
			ids = append(ids, g.ID)
		}
		return ids
	}
	assert.Contains(t, groups("default"), "word-count")
	assert.Contains(t, groups("standbys"), "sb-host")
	assert.Contains(t, groups("timelag"), "shop")
	assert.Contains(t, groups("offsets"), "wc-live")

	require.NoError(t, os.WriteFile("standbys", []byte("streams_groups:\n  - {id: mine, state: Empty}\n"), 0o644))
	assert.Equal(t, []string{"mine"}, groups("standbys"), "the file wins")

	r := runCLI(t, "playground", "--state", "nope")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "cannot read state file: open nope: no such file or directory")
}
