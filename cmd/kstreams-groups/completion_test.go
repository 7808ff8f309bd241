package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// The scripts are cobra's generators run on our command tree; the goldens
// show what a user installs and catch an accidental change of the tree.
func TestCompletionScripts(t *testing.T) {
	t.Parallel()
	for _, shell := range shells {
		t.Run(shell, func(t *testing.T) {
			isolate(t)
			r := runCLI(t, "completion", shell)
			require.Equal(t, 0, r.code, r.stderr)
			assert.Empty(t, r.stderr)
			assert.Contains(t, r.stdout, "kstreams-groups")
			golden.Assert(t, []byte(r.stdout))

			noDesc := runCLI(t, "completion", shell, "--no-descriptions")
			assert.Equal(t, 0, noDesc.code)
			assert.NotEqual(t, r.stdout, noDesc.stdout)
		})
	}
}

func TestCompletionScripts_ignoreABrokenConfigFile(t *testing.T) {
	t.Parallel()
	isolate(t)
	setenv(t, "KSTREAMS_GROUPS_CONFIG", "/nonexistent/config.yaml")
	r := runCLI(t, "completion", "bash")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.NotEmpty(t, r.stdout)
}

func TestCompletionCmd_usageErrors(t *testing.T) {
	t.Parallel()
	isolate(t)
	for _, args := range [][]string{{"completion"}, {"completion", "tcsh"}, {"completion", "bash", "zsh"}} {
		r := runCLI(t, args...)
		assert.Equal(t, 2, r.code, args)
		assert.Empty(t, r.stdout, args)
		assert.Contains(t, r.stderr, "completion takes one shell: bash, zsh, fish, powershell\n", args)
	}
}

// complete runs what a completion script runs on <TAB> and returns the
// candidates and the directive line.
func complete(t *testing.T, args ...string) (candidates []string, directive string) {
	t.Helper()
	r := runCLI(t, append([]string{"__complete"}, args...)...)
	require.Equal(t, 0, r.code, r.stderr)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	require.NotEmpty(t, lines)
	return lines[:len(lines)-1], lines[len(lines)-1]
}

// noFiles is cobra's directive "do not fall back to file names".
const noFiles = ":4"

func TestCompleteGroups(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := startCluster(t, 3, playground.Kafka44)
	c.PutStreamsGroup(streamsGroup("word-count", tt.WordCount()))
	c.SetCoordinator("word-count", 1)
	inventory := streamsGroup("inventory", nil)
	inventory.State = "Reconciling"
	c.PutStreamsGroup(inventory)
	c.SetCoordinator("inventory", 2)
	c.PutStreamsGroup(streamsGroup("with space", nil))
	c.PutStreamsGroup(streamsGroup("evil\x1b[2J", nil))
	c.PutGroup("legacy-consumer", "classic", "consumer", "Stable")
	c.PutGroup("kip848-consumer", "consumer", "consumer", "Stable")

	tests := []struct {
		name string
		args []string
		want []string
	}{
		{
			name: "kafka form lists streams groups only, with their state",
			args: []string{"--bootstrap-server", bootstrap(c), "--describe", "--topology", "--group", ""},
			want: []string{"inventory\tReconciling", "word-count\tStable"},
		},
		{
			name: "prefix",
			args: []string{"--bootstrap-server", bootstrap(c), "--describe", "--group", "wo"},
			want: []string{"word-count\tStable"},
		},
		{
			name: "subcommand form",
			args: []string{"describe", "--bootstrap-server", bootstrap(c), "--topology", "--group", ""},
			want: []string{"inventory\tReconciling", "word-count\tStable"},
		},
		{
			name: "second --group",
			args: []string{"--bootstrap-server", bootstrap(c), "--delete", "--group", "inventory", "--group", "i"},
			want: []string{"inventory\tReconciling"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, directive := complete(t, tc.args...)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, noFiles, directive)
		})
	}

	t.Run("bootstrap server from the environment", func(t *testing.T) {
		setenv(t, "KSTREAMS_GROUPS_BOOTSTRAP_SERVER", bootstrap(c))
		got, _ := complete(t, "--describe", "--group", "")
		assert.Equal(t, []string{"inventory\tReconciling", "word-count\tStable"}, got)
	})
	t.Run("without descriptions", func(t *testing.T) {
		r := runCLI(t, "__completeNoDesc", "--bootstrap-server", bootstrap(c), "--describe", "--group", "")
		assert.Equal(t, "inventory\nword-count\n:4\n", r.stdout)
	})
}

// A completion must never print into the user's command line: when the
// cluster cannot be asked, nothing is offered and the shell gets the plain
// directive.
func TestCompleteGroups_silentOnFailure(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		env  map[string]string
	}{
		{name: "no bootstrap server", args: []string{"--describe", "--group", ""}},
		{name: "unreachable cluster", args: []string{"--bootstrap-server", "CLOSED", "--describe", "--group", ""}},
		{name: "bad timeout", args: []string{"--bootstrap-server", "CLOSED", "--timeout", "-1", "--describe", "--group", ""}},
		{name: "unreadable config file", args: []string{"--describe", "--group", ""}, env: map[string]string{"KSTREAMS_GROUPS_CONFIG": "/nonexistent/config.yaml"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			isolate(t)
			for k, v := range tc.env {
				setenv(t, k, v)
			}
			closed := closedPort(t)
			args := make([]string, len(tc.args))
			for i, a := range tc.args {
				args[i] = strings.ReplaceAll(a, "CLOSED", closed)
			}
			r := runCLI(t, append([]string{"__complete"}, args...)...)
			assert.Equal(t, 0, r.code)
			assert.Equal(t, noFiles+"\n", r.stdout)
			assert.NotContains(t, r.stderr, "Error")
		})
	}
}

func TestCompleteStates(t *testing.T) {
	t.Parallel()
	isolate(t)
	all := []string{"Empty", "NotReady", "Stable", "Assigning", "Reconciling", "Dead"}
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{name: "list --state", args: []string{"--list", "--state", ""}, want: all},
		{name: "list --state=", args: []string{"--list", "--state="}, want: all},
		{name: "prefix, any case", args: []string{"--list", "--state", "st"}, want: []string{"Stable"}},
		{name: "next item of a list", args: []string{"--list", "--state", "Stable,"}, want: []string{"Stable,Empty", "Stable,NotReady", "Stable,Assigning", "Stable,Reconciling", "Stable,Dead"}},
		{name: "next item with prefix", args: []string{"--list", "--state", "stable,empty,re"}, want: []string{"stable,empty,Reconciling"}},
		{name: "list subcommand", args: []string{"list", "--state", "D"}, want: []string{"Dead"}},
		{name: "check --expect-state", args: []string{"check", "--expect-state", "Stable,r"}, want: []string{"Stable,Reconciling"}},
		{name: "describe --state takes no value", args: []string{"--describe", "--group", "g", "--state", ""}, want: []string{}},
		{name: "describe subcommand --state takes no value", args: []string{"describe", "--group", "g", "--state", ""}, want: []string{}},
		{name: "no action yet", args: []string{"--state", ""}, want: []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, directive := complete(t, tc.args...)
			if len(tc.want) == 0 {
				assert.Empty(t, got)
			} else {
				assert.Equal(t, tc.want, got)
			}
			assert.Equal(t, noFiles, directive)
		})
	}
}

func TestCompleteOutput(t *testing.T) {
	t.Parallel()
	isolate(t)
	var want []string
	for _, o := range format.AllowedOutputs() {
		want = append(want, string(o))
	}
	for _, args := range [][]string{{"-o", ""}, {"--output", ""}, {"--describe", "-o", ""}} {
		got, directive := complete(t, args...)
		assert.Equal(t, want, got, args)
		assert.Equal(t, noFiles, directive, args)
	}
	// A subcommand offers the formats it declares.
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"describe", "-o", ""}, []string{"text", "json", "yaml", "dot", "mermaid", "svg", "png"}},
		{[]string{"list", "-o", ""}, []string{"text", "json", "yaml", "prometheus"}},
		{[]string{"check", "-o", ""}, []string{"text", "json", "yaml", "prometheus"}},
		{[]string{"delete", "-o", ""}, []string{"text", "json", "yaml"}},
		{[]string{"version", "-o", ""}, []string{"text", "json", "yaml"}},
		{[]string{"render", "-o", ""}, []string{"text", "json", "yaml", "dot", "mermaid", "svg", "png"}},
	} {
		got, _ := complete(t, tc.args...)
		assert.Equal(t, tc.want, got, tc.args)
	}
}

// playground --seed (and --state, its deprecated name) is a seed file:
// the shell completes file names with the seed's extensions.
func TestCompletePlaygroundSeed(t *testing.T) {
	t.Parallel()
	isolate(t)
	for _, flag := range []string{"--seed", "--state"} {
		got, directive := complete(t, "playground", flag, "")
		assert.Equal(t, []string{"yaml", "yml", "json"}, got, flag)
		assert.Equal(t, ":8", directive, flag)
	}
}
