package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The commands that are not verbs are declared as verbs are: their help's
// formats and exit codes, the refusal of another -o and the completion of
// -o come from the declaration (issue 32).
func TestCommands_declared(t *testing.T) {
	t.Parallel()
	isolate(t)
	for _, c := range commandDecls() {
		t.Run(c.name, func(t *testing.T) {
			help := runWith(t, deps{}, c.name, "--help")
			require.Equal(t, 0, help.code, help.stderr)
			assert.Contains(t, help.stdout, c.asVerb().outputHelp()+"\n\nExit status:\n")
			outs := runWith(t, deps{}, "__complete", c.name, "-o", "")
			require.Equal(t, 0, outs.code, outs.stderr)
			for _, f := range c.asVerb().verbFormats() {
				assert.Contains(t, outs.stdout, string(f)+"\n")
			}
			assert.NotContains(t, outs.stdout, "prometheus\n", "no command here prints metrics")
		})
	}
	tests := []struct {
		args       []string
		wantCode   int
		wantStderr string
	}{
		{[]string{"playground", "-o", "json"}, 2, "-o json: playground prints text; -o json is printed by "},
		{[]string{"completion", "bash", "-o", "yaml"}, 2, "-o yaml: completion prints text"},
		{[]string{"serve", "-o", "dot"}, 2, "-o dot: serve prints text; -o dot is printed by describe --topology"},
		{[]string{"version", "-o", "svg"}, 2, "-o svg: version prints text, json or yaml; -o svg is printed by describe --topology"},
		{[]string{"render", "-o", "prometheus"}, 2, "-o prometheus: render prints text, json, yaml, dot, mermaid, svg or png"},
	}
	for _, tt := range tests {
		r := runWith(t, deps{}, tt.args...)
		assert.Equal(t, tt.wantCode, r.code, tt.args)
		assert.Contains(t, r.stderr, tt.wantStderr, tt.args)
		assert.Empty(t, r.stdout, tt.args)
	}
	// A command that reads no configuration takes only its own -o: the
	// environment's output is not version's.
	setenv(t, "KSTREAMS_GROUPS_OUTPUT", "json")
	v := runWith(t, deps{}, "version")
	require.Equal(t, 0, v.code, v.stderr)
	assert.Contains(t, v.stdout, "Version:    ")
}
