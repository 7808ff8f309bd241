package doctest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const page = "# Page\n\n" +
	"```sh\nkstreams-groups list   # exit 0\nkstreams-groups check \\\n  --group a   # exit 1\n```\n\n" +
	"<!-- real-kafka: a cluster of yours -->\n```sh\nkstreams-groups --bootstrap-server kafka:9092 list\n```\n\n" +
	"<!-- parse-only: timing -->\n```console\n$ kstreams-groups list --watch\nx\n```\n\n" +
	"<!-- not-run: a synopsis -->\n```\nkstreams-groups inventory [--orphans]\n```\n\n" +
	"```console\n$ kstreams-groups delete --group g\nError: no\n$ echo $?\n5\n```\n\n" +
	"```\nkstreams-groups list\n```\n"

func TestBlocks(t *testing.T) {
	blocks, problems := Blocks(page)
	assert.Equal(t, []string{"32: a block with kstreams-groups commands is ```sh or ```console, or says <!-- real-kafka: why --> or <!-- not-run: why --> on the line before it"}, problems)
	require.Len(t, blocks, 5)
	kinds := []string{}
	for _, b := range blocks {
		kinds = append(kinds, b.Kind+"/"+b.Marker)
	}
	assert.Equal(t, []string{"sh/", "real-kafka/real-kafka", "real-kafka/parse-only", "not-run/not-run", "console/"}, kinds)
	sh := blocks[0].Commands
	require.Len(t, sh, 2)
	assert.Equal(t, Command{Line: 4, Text: "kstreams-groups list   # exit 0", Kind: "sh", CheckRC: true}, sh[0])
	// The continuation stays one shell command: the backslash is kept.
	assert.Equal(t, "kstreams-groups check \\\n  --group a   # exit 1", sh[1].Text)
	assert.Equal(t, 1, sh[1].WantExit)
	con := blocks[4].Commands
	require.Len(t, con, 2)
	assert.Equal(t, 5, con[0].WantExit, "echo $? gives the code")
	assert.Equal(t, []string{"Error: no"}, con[0].Output)
	assert.Equal(t, 15, blocks[2].Line)
}

func TestStripComment(t *testing.T) {
	assert.Equal(t, "kstreams-groups x '#y'", StripComment("kstreams-groups x '#y'  # exit 2"))
	assert.Equal(t, "a#b", StripComment("a#b"))
	assert.True(t, Background("kstreams-groups serve &  # runs"))
	assert.False(t, Background("a && b"))
}
