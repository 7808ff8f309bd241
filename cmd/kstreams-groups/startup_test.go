package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// What the root command builds for a command line: the subcommand that
// runs, and the others by name only (newRootCmdFor); --version and the
// Kafka form build none, and a word that is a flag's value is no
// subcommand.
func TestStartup_buildsOnlyWhatRuns(t *testing.T) {
	t.Parallel()
	built := func(args ...string) []string {
		a := &app{args: args}
		var names []string
		for _, c := range a.newRootCmdFor(joinOptionalArgsOf(args, a.verbs())).Commands() {
			if _, placeholder := c.Annotations[placeholderAnnotation]; !placeholder && c.Name() != "help" {
				names = append(names, c.Name())
			}
		}
		return names
	}
	assert.Empty(t, built("--version"))
	assert.Empty(t, built("--bootstrap-server", "localhost:9092", "--describe", "--group", "list", "--state"))
	assert.Equal(t, []string{"describe"}, built("describe", "--group", "g", "--members"))
	assert.Equal(t, []string{"check"}, built("-o", "json", "check", "--group", "g"))
	assert.Equal(t, []string{"version"}, built("version", "-o", "json"))
	// Help and completion show every command.
	all := len((&app{}).newRootCmd().Commands()) - 1
	assert.Len(t, built("describe", "--help"), all)
	assert.Len(t, built("help", "describe"), all)
	assert.Len(t, built("__complete", "des"), all)

	// A command built on demand is the one the whole tree has: its
	// options and its help.
	whole := (&app{}).newRootCmd()
	for _, name := range []string{"describe", "serve", "version"} {
		a := &app{}
		lazy, _, err := a.newRootCmdFor([]string{name}).Find([]string{name})
		require.NoError(t, err)
		full, _, err := whole.Find([]string{name})
		require.NoError(t, err)
		assert.Equal(t, full.Long, lazy.Long, name)
		assert.Equal(t, full.Flags().FlagUsages(), lazy.Flags().FlagUsages(), name)
	}
}

// What the binary people run links is what every run initialises before
// main (BenchmarkStartup measures it): the release's doc generator (cobra's
// man pages, a markdown library) stays behind the gendocs tag.
func TestStartup_noDocGenerator(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	require.NoError(t, err)
	deps := strings.Fields(string(out))
	for _, heavy := range []string{"github.com/spf13/cobra/doc", "github.com/cpuguy83/go-md2man/v2/md2man", "github.com/russross/blackfriday/v2",
		// serve gathers client_golang's default registry for the Go and
		// process metrics; this package's init compiles regexps.
		"github.com/prometheus/client_golang/prometheus/collectors"} {
		assert.NotContains(t, deps, heavy, "the kstreams-groups binary links %s; keep it behind the gendocs tag", heavy)
	}
	tagged, err := exec.Command("go", "list", "-tags", "gendocs", "-deps", ".").Output()
	require.NoError(t, err)
	assert.Contains(t, strings.Fields(string(tagged)), "github.com/spf13/cobra/doc", "gen-docs is built with -tags gendocs")
}
