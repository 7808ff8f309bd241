//go:build linux || darwin

package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// On a terminal the overview colors lag, the largest task and moving tasks;
// the colored text is the plain text plus escape sequences.
func TestOverview_colorOnATerminal(t *testing.T) {
	t.Parallel()
	c := seedCluster(t)
	args := []string{"--bootstrap-server", bootstrap(c), "overview", "--group", "page-views"}
	term := []string{"TERM=xterm-256color"}
	plain, stderr, code := inPipe(t, term, args...)
	require.Equal(t, 0, code, stderr)
	assert.NotRegexp(t, anyEscape, plain, "no color in a pipe")

	colored, code := onTerminal(t, term, args...)
	require.Equal(t, 0, code, colored)
	assert.Contains(t, colored, "\x1b[33m2500\x1b[0m", "a lag above zero is yellow")
	assert.Contains(t, colored, "\x1b[31;1m4200\x1b[0;22m", "the largest task's lag is red")
	assert.Contains(t, colored, "\x1b[35mmoving: active -> m3, warm-up -> -\x1b[0m")
	assert.Contains(t, colored, "\x1b[33mReconciling\x1b[0m", "the state in its color")
	assert.Equal(t, plain, sgrEscapes.ReplaceAllString(colored, ""), "color adds escape sequences only")

	nocolor, code := onTerminal(t, append(term, "NO_COLOR=1"), args...)
	require.Equal(t, 0, code)
	assert.NotRegexp(t, anyEscape, nocolor)
}

// A PNG is never written to a terminal.
func TestOverview_pngNotOnATerminal(t *testing.T) {
	t.Parallel()
	c := seedCluster(t)
	got, code := onTerminal(t, nil, "--bootstrap-server", bootstrap(c), "overview", "--group", "page-views", "-o", "png")
	assert.Equal(t, 2, code)
	assert.Contains(t, got, "-o png writes a binary image: redirect stdout to a file")
}
