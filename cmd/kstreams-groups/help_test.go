package main

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/golden"
)

// commandPaths lists every command a user can call, as argument lists:
// the root ([]), then each visible subcommand, depth first. Commands added
// later are found without touching this test; their help golden is
// written by make golden.
func commandPaths(t *testing.T) [][]string {
	t.Helper()
	root := (&app{}).newRootCmd()
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		paths = append(paths, path)
		for _, sub := range c.Commands() {
			if sub.Hidden {
				continue
			}
			walk(sub, append(append([]string{}, path...), sub.Name()))
		}
	}
	walk(root, nil)
	require.Greater(t, len(paths), 3)
	return paths
}

// Every command's help exits 0 on stdout, shows examples and an "Exit
// status" block built from exitStatuses, and is pinned by a golden file.
func TestHelp(t *testing.T) {
	t.Parallel()
	for _, path := range commandPaths(t) {
		name := strings.Join(append([]string{"kstreams-groups"}, path...), " ")
		t.Run(name, func(t *testing.T) {
			isolate(t)
			r := runCLI(t, append(path, "--help")...)
			assert.Equal(t, 0, r.code)
			assert.Empty(t, r.stderr)
			assert.Contains(t, r.stdout, "\nExamples:\n", "every command shows examples")
			assert.Contains(t, r.stdout, "\nExit status:\n  0  ", "every command documents its exit status")
			for _, line := range strings.Split(exampleBlock(r.stdout), "\n") {
				assert.NotRegexp(t, `^\s*\$`, line, "examples carry no shell prompt")
			}
			golden.Assert(t, []byte(r.stdout))

			short := runCLI(t, append(path, "-h")...)
			assert.Equal(t, r, short, "-h is --help")
			if len(path) > 0 && path[0] != "help" {
				viaHelp := runCLI(t, append([]string{"help"}, path...)...)
				assert.Equal(t, r, viaHelp, "help CMD is CMD --help")
			}
		})
	}
}

func exampleBlock(help string) string {
	_, after, _ := strings.Cut(help, "\nExamples:\n")
	before, _, _ := strings.Cut(after, "\n\n")
	return before
}

// The root, the Kafka form with the whole exit-code contract, prints the
// table exactly as exitcode.go has it; a verb, the rows it declares.
func TestHelp_exitStatusFromTable(t *testing.T) {
	t.Parallel()
	isolate(t)
	r := runCLI(t, "--help")
	assert.Contains(t, r.stdout, exitStatusHelp()+"\n")
	for _, s := range exitStatuses {
		assert.Contains(t, r.stdout, s.Meaning)
	}
	for _, vb := range verbs() {
		r := runCLI(t, append(strings.Fields(vb.command()), "--help")...)
		assert.Contains(t, r.stdout, "\n\n"+vb.outputHelp()+"\n\n"+vb.exitHelp()+"\n\nUsage:", vb.name)
		assert.NotContains(t, vb.long, "Exit status:", "%s: the block is derived from the declaration, not written in long", vb.name)
		for _, s := range exitStatuses {
			if !slices.Contains(vb.exitCodes(), s.Code) && vb.own == nil {
				assert.NotContains(t, r.stdout, "\n  "+strconv.Itoa(s.Code)+"  ", "%s cannot exit %d", vb.name, s.Code)
			}
		}
	}
}

func TestExitStatusHelpFor(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "Exit status:\n  0  Success\n  2  Usage error", exitStatusHelpFor(exitOK, exitUsage))
	assert.Equal(t, "Exit status:\n  0  Success\n  1  Any failure\n  2  Usage error", exitStatusHelpFor(exitUsage, exitFailure, exitOK), "table order")
}

func Test_firstClause(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"Success; for --describe --topology, every group is AVAILABLE.", "Success"},
		{"Usage error: unknown flag, bad value.", "Usage error"},
		{"Not authorized.", "Not authorized"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, firstClause(tc.in))
	}
}

// The Java tool prints its help and exits 1 without arguments; so do we
// (on stderr, exit 2 as every usage error), while --help is a success.
func TestHelp_noArgumentsIsAUsageError(t *testing.T) {
	t.Parallel()
	isolate(t)
	var out, errOut strings.Builder
	// An empty, non-nil slice: cobra reads os.Args when given nil.
	code := testRun(t, []string{}, IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}, deps{})
	r := result{stdout: out.String(), stderr: errOut.String(), code: code}
	assert.Equal(t, 2, r.code)
	assert.Empty(t, r.stdout)
	assert.Contains(t, r.stderr, "Exit status:")
}

// The root's help opens with its usage and examples, the playground's
// first, and ends with the exit codes; it names the playground.
func TestHelp_rootStartsWithUsage(t *testing.T) {
	t.Parallel()
	isolate(t)
	r := runCLI(t, "--help")
	require.Equal(t, 0, r.code)
	lines := strings.Split(r.stdout, "\n")
	require.Greater(t, len(lines), 10)
	assert.Equal(t, "Usage:", lines[2], "one summary line, then the usage")
	examples := exampleBlock(r.stdout)
	assert.True(t, strings.HasPrefix(examples, "  # No Kafka at hand?"), examples)
	first, _, _ := strings.Cut(r.stdout, "\n\n  # Print the stored topology")
	assert.Contains(t, first, "kstreams-groups playground --addr-file")
	assert.True(t, strings.HasSuffix(r.stdout, "\n"+exitStatusHelp()+"\n"), "the exit codes end the help")
	assert.Less(t, strings.Index(r.stdout, "\nAvailable Commands:\n"), strings.Index(r.stdout, "\nExit status:\n"))
}

// Each command's help lists only the root's options it takes: none for the
// playground, no output, color or exit-code option for serve, no cluster
// option for the commands that talk to none. A verb lists them all.
func TestHelp_onlyTheGlobalFlagsTaken(t *testing.T) {
	t.Parallel()
	isolate(t)
	globals := []string{"--bootstrap-server", "--command-config", "--timeout", "--detailed-exit-codes", "--debug",
		"--output", "--color", "--no-color", "--config", "--profile"}
	for _, tc := range []struct {
		cmd    string
		absent []string
	}{
		{"playground", globals},
		{"serve", []string{"--output", "--color", "--no-color", "--detailed-exit-codes"}},
		{"render", []string{"--bootstrap-server", "--command-config", "--timeout", "--detailed-exit-codes", "--debug"}},
		{"version", []string{"--bootstrap-server", "--command-config", "--timeout", "--detailed-exit-codes", "--debug"}},
		{"describe", nil},
	} {
		r := runCLI(t, tc.cmd, "--help")
		require.Equal(t, 0, r.code, tc.cmd)
		for _, f := range globals {
			if slices.Contains(tc.absent, f) {
				assert.NotContains(t, r.stdout, " "+f+" ", "%s --help lists %s", tc.cmd, f)
			} else {
				assert.Contains(t, r.stdout, " "+f+" ", "%s --help misses %s", tc.cmd, f)
			}
		}
	}
	r := runCLI(t, "playground", "--help")
	assert.NotContains(t, r.stdout, "Global Flags:")
	r = runCLI(t, "--bootstrap-server", "127.0.0.1:1", "playground", "--port", "-1")
	assert.Equal(t, exitUsage, r.code, "a global option the playground does not take is still accepted")
	assert.Contains(t, r.stderr, "invalid --port -1")
}
