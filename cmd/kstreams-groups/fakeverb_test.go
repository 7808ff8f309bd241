package main

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/list"
)

// fakeVerb is a verb added by a test only: it lists the groups through
// list's package, so its run needs nothing the client lacks. It is what a
// new verb's entry declares, nothing more.
func fakeVerb(a *app) *verb {
	state := stateFlag.withHelp("Print each group's state.")
	return &verb{
		name:           "fake-verb",
		subcommandOnly: true,
		flags:          table(state),
		short:          "A verb that only this test declares",
		long:           "Lists the streams groups, as list does, to show that a verb's entry is enough.",
		printer:        listPrinter(list.Options{}, state),
		exits:          clusterExits(),
		example:        "  kstreams-groups fake-verb --state -o prometheus",
		parse: func(v flagValues) job {
			opts := list.Options{WithState: state.set(v)}
			return job{opts: &opts, run: func(ctx context.Context) error {
				return runVerb(a, ctx, listPrinter(opts, state), listRun(opts))
			}}
		},
	}
}

var withFakeVerb = deps{moreVerbs: func(a *app) []*verb { return []*verb{fakeVerb(a)} }}

// A new verb's entry is all that help, the exit status block, the -o
// formats, completion and the run path need: the fake verb appears in
// each with no other edit (issue 32). The reference is checked with the
// gendocs tag (fakeverb_gendocs_test.go).
func TestFakeVerb_foundByRule(t *testing.T) {
	t.Parallel()
	isolate(t)
	run := func(args ...string) result { return runWith(t, withFakeVerb, args...) }

	root := run("--help")
	require.Equal(t, 0, root.code, root.stderr)
	assert.Regexp(t, `(?m)^\s+fake-verb\s+A verb that only this test declares$`, root.stdout)

	help := run("fake-verb", "--help")
	require.Equal(t, 0, help.code, help.stderr)
	assert.Contains(t, help.stdout, "Exit status:\n")
	assert.Contains(t, help.stdout, "--state")
	assert.Regexp(t, `Output formats \(-o\): [^\n]*prometheus with --state`, help.stdout, "the formats come from the printer's renderers")

	// -o: a format the printer has no renderer for is refused before
	// anything connects; one it has is offered by completion.
	bad := run("fake-verb", "-o", "dot", "--bootstrap-server", "127.0.0.1:9")
	assert.Equal(t, 2, bad.code)
	assert.Contains(t, bad.stderr, "fake-verb")
	verbs := run("__complete", "")
	require.Equal(t, 0, verbs.code, verbs.stderr)
	assert.Contains(t, verbs.stdout, "fake-verb\t")
	outs := run("__complete", "fake-verb", "-o", "")
	require.Equal(t, 0, outs.code, outs.stderr)
	assert.Contains(t, strings.Fields(outs.stdout), "prometheus")

	// And it runs, through runVerb, against a broker.
	c := listCluster(t)
	got := run("fake-verb", "--state", "--bootstrap-server", bootstrap(c))
	want := run("list", "--state", "--bootstrap-server", bootstrap(c))
	require.Equal(t, 0, got.code, got.stderr)
	assert.Equal(t, want.stdout, got.stdout)
	assert.Contains(t, got.stdout, "wc-app")

	// Without the seam the verb is unknown: the test shows the entry, not
	// a leftover.
	assert.NotContains(t, runWith(t, deps{}, "--help").stdout, "fake-verb")
}
