//go:build linux || darwin

package main

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// TestHelpExamples runs every example of every command's help (the cobra
// Example fields), as a user would paste it, against a playground. An
// example is a block of lines after its "# ..." comment; it runs in bash,
// in an empty directory that is also HOME, with kstreams-groups on PATH (a
// shim that runs this test binary as the CLI and logs each call's exit
// code). The rules that make a pasted example meet the playground instead
// of a real cluster, and nothing else:
//
//   - a host:port given to --bootstrap-server, --new-bootstrap-server or
//     KSTREAMS_GROUPS_BOOTSTRAP_SERVER becomes the playground's address, and
//     KSTREAMS_GROUPS_BOOTSTRAP_SERVER is set for the examples without one;
//   - an absolute path under /var, /tmp or /etc moves into the directory,
//     and the directory of every file an example writes exists (as it
//     does where the example applies: node_exporter's textfile directory);
//   - the files an example reads without writing them first exist:
//     topology.txt, build/topology.txt and saved.txt hold orders-app's
//     stored topology text (a new build that changed nothing),
//     green.properties is an empty client properties file;
//   - the playground holds the default seed plus the groups the examples
//     name (exampleState).
//
// Every kstreams-groups call must exit with the code exampleCodes gives
// (0 unless listed, each listing saying why), and the block as a whole
// must succeed. An example that cannot run here is listed in exampleSkips
// with the reason and is skipped by name (t.Skip), never silently; an
// entry of either table that matches no example fails the test.
func TestHelpExamples(t *testing.T) {
	t.Parallel()
	isolate(t)
	if _, err := exec.LookPath("bash"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("bash is needed to run the examples") // .ci/run itself runs under bash
		}
		t.Skip("bash is needed to run the examples")
	}
	exe, err := os.Executable()
	require.NoError(t, err)
	shimDir := t.TempDir()
	shim := "#!/bin/sh\n" + runAsCLIEnv + "=1 \"" + exe + "\" \"$@\"\nrc=$?\nprintf '%s\\t%s\\n' \"$rc\" \"$*\" >> \"$EXAMPLE_LOG\"\nexit $rc\n"
	require.NoError(t, os.WriteFile(filepath.Join(shimDir, "kstreams-groups"), []byte(shim), 0o755))

	// The examples run side by side (each its own playground, directory
	// and log; most of their time is spent waiting for the calls they
	// make); the keys they used are checked once all are done.
	var (
		usedMu sync.Mutex
		used   = map[string]bool{}
	)
	use := func(key string) {
		usedMu.Lock()
		defer usedMu.Unlock()
		used[key] = true
	}
	t.Cleanup(func() {
		if f := flag.Lookup("test.run"); f != nil && f.Value.String() != "" && f.Value.String() != "^TestHelpExamples$" {
			return // only some examples ran
		}
		for _, table := range []map[string]bool{keys(exampleSkips), keys(exampleCodes), keys(exampleChecks)} {
			for key := range table {
				assert.True(t, used[key], "%q matches no example", key)
			}
		}
	})
	for _, ex := range helpExamples((&app{}).newRootCmd()) {
		t.Run(ex.name, func(t *testing.T) {
			t.Parallel()
			for key, why := range exampleSkips {
				if strings.Contains(ex.script, key) {
					use(key)
					t.Skip("needs what this test cannot give: " + why)
				}
			}
			c, err := playground.StartStateWith(testPlayground, exampleState(t))
			require.NoError(t, err)
			t.Cleanup(func() { _ = c.Close() })
			addr := c.Addrs()[0]
			dir := t.TempDir()
			script := exampleScript(ex.script, addr, dir)
			stored := runCLI(t, "--bootstrap-server", addr, "describe", "--topology", "--group", "orders-app")
			require.Equal(t, 0, stored.code, stored.stderr)
			for _, f := range []string{"topology.txt", "build/topology.txt", "saved.txt"} {
				require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755))
				writeFile(t, filepath.Dir(filepath.Join(dir, f)), filepath.Base(f), stored.stdout)
			}
			writeFile(t, dir, "green.properties", "")
			for _, m := range redirectTarget.FindAllStringSubmatch(script, -1) {
				require.NoError(t, os.MkdirAll(filepath.Dir(strings.ReplaceAll(m[1], "~", dir)), 0o755))
			}
			for _, p := range regexp.MustCompile(regexp.QuoteMeta(dir)+`/(var|tmp|etc)/[^\s"')]+`).FindAllString(script, -1) {
				require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			}
			log := filepath.Join(t.TempDir(), "calls")

			ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, "bash", "-c", script)
			cmd.Dir = dir
			cmd.Env = []string{"HOME=" + dir, "XDG_CONFIG_HOME=" + dir, "PATH=" + shimDir + ":" + os.Getenv("PATH"),
				"KSTREAMS_GROUPS_BOOTSTRAP_SERVER=" + addr, "EXAMPLE_LOG=" + log}
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			// Files, not pipes: a call left in the background (the
			// playground) must not hold the test.
			out, err := os.Create(filepath.Join(t.TempDir(), "out"))
			require.NoError(t, err)
			defer out.Close()
			cmd.Stdout, cmd.Stderr = out, out
			runErr := cmd.Run()
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
			output, _ := os.ReadFile(out.Name())
			t.Logf("%s\n%s", script, output)
			// The example as a whole exits as its last call, when that
			// call ends it, else 0.
			lines := strings.Split(ex.script, "\n")
			last := lines[len(lines)-1]

			calls, err := os.ReadFile(log)
			require.NoError(t, err, "no kstreams-groups call ran")
			lastCode := 0
			for _, line := range strings.Split(strings.TrimSpace(string(calls)), "\n") {
				code, args, _ := strings.Cut(line, "\t")
				want := 0
				for key, c := range exampleCodes {
					if strings.Contains(ex.script, key) && strings.Contains(args, c.args) {
						use(key)
						want = c.code
					}
				}
				assert.Equal(t, strconv.Itoa(want), code, "kstreams-groups %s", args)
				lastCode = want
			}
			if !strings.HasPrefix(last, "kstreams-groups ") && !strings.HasPrefix(last, "KSTREAMS_GROUPS_") {
				lastCode = 0
			}
			var ee *exec.ExitError
			switch {
			case lastCode == 0:
				require.NoError(t, runErr, "the example fails as a whole")
			case assert.ErrorAs(t, runErr, &ee):
				assert.Equal(t, lastCode, ee.ExitCode(), "the example exits as its last call")
			}
			for key, check := range exampleChecks {
				if strings.Contains(ex.script, key) {
					use(key)
					check(t, dir)
				}
			}
		})
	}
}

// exampleSkips are the examples this test cannot run, by a part of their
// text, with the reason.
var exampleSkips = map[string]string{
	`"${fpath[1]}/`:          "zsh: the example is zsh's syntax (bash would write to /), and zsh is not run here",
	"kstreams-groups serve ": "serve runs until a signal and listens on a fixed port; serve_test.go runs it",
	"upgrade apply --resume": "needs a migration stopped part-way and its journal; upgrade_apply_test.go runs it",
	"upgrade verify --group": "needs a migrated group that a new version joined; upgrade_apply_test.go runs it",
}

// exampleCodes are the calls that exit with another code than 0 against
// the example playground, by a part of the example's text and of the
// call's arguments, and why that is the example's point or the seed's.
var exampleCodes = map[string]struct {
	args string
	code int
}{
	// check's Monitoring Plugins status: orders-app is stopped (Empty, no
	// member: CRITICAL with --min-members 2); the seed has Empty groups
	// (WARNING) and a NOT_STORED and an ERROR description (CRITICAL with
	// --require-topology).
	"--lag-warning 1000 --lag-critical 10000 --min-members 2": {"check", 2},
	"--all-groups --require-topology -v":                      {"check", 2},
	"-o prometheus > ":                                        {"check", 1},
	// doctor --all-groups: the seed's Empty groups and its ERROR and
	// NOT_STORED descriptions are wrong (1).
	"doctor --all-groups": {"doctor --all-groups", 1},
	// --all-groups --detailed-exit-codes: billing's description is ERROR
	// (4), the first failure in id order.
	"--describe --topology --all-groups --detailed-exit-codes": {"--all-groups", 4},
	"describe --topology --all-groups --detailed-exit-codes":   {"--all-groups", 4},
	// delete --all-groups --dry-run: the running groups do not pass the
	// pre-checks (not empty, exit 1).
	"delete --all-groups --dry-run": {"--all-groups", 1},
	// build/topology.txt is orders-app's own topology: the broker accepts
	// it as is, nothing to migrate (4).
	"kstreams-groups upgrade apply --group orders-app build/topology.txt": {"apply --group", 4},
}

// exampleChecks look at what an example left behind, by a part of its text.
var exampleChecks = map[string]func(t *testing.T, dir string){
	// The textfile collector's file is written whatever check's status,
	// and no temporary file is left behind (the example chained mv with
	// &&, so a WARNING or CRITICAL left the old metrics and a temporary
	// file each time).
	"/var/lib/node_exporter/kstreams.prom": func(t *testing.T, dir string) {
		d := filepath.Join(dir, "var", "lib", "node_exporter")
		entries, err := os.ReadDir(d)
		require.NoError(t, err)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		assert.Equal(t, []string{"kstreams.prom"}, names)
		b, err := os.ReadFile(filepath.Join(d, "kstreams.prom"))
		require.NoError(t, err)
		assert.Contains(t, string(b), "kstreams_group_")
	},
}

func keys[V any](m map[string]V) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

// helpExample is one example block of a command's help.
type helpExample struct {
	name, script string
}

// helpExamples collects the example blocks of root and its subcommands.
func helpExamples(root *cobra.Command) []helpExample {
	var out []helpExample
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, block := range strings.Split(c.Example, "\n\n") {
			var title string
			var lines []string
			for _, l := range strings.Split(block, "\n") {
				l = strings.TrimSpace(l)
				if t, ok := strings.CutPrefix(l, "# "); ok {
					title += " " + t
					continue
				}
				if l != "" {
					lines = append(lines, l)
				}
			}
			if len(lines) > 0 {
				path := strings.TrimSpace(strings.TrimPrefix(c.CommandPath(), "kstreams-groups"))
				path = strings.ReplaceAll(path, " ", "_")
				if path == "" {
					path = "root"
				}
				out = append(out, helpExample{name: path + "/" + strings.TrimSpace(title), script: strings.Join(lines, "\n")})
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return out
}

var (
	bootstrapValue = regexp.MustCompile(`(--bootstrap-server[ =]|--new-bootstrap-server[ =]|KSTREAMS_GROUPS_BOOTSTRAP_SERVER=)[A-Za-z0-9.-]+:[0-9]+`)
	absolutePath   = regexp.MustCompile(`(^|[\s>"'=])/(var|tmp|etc)/`)
	redirectTarget = regexp.MustCompile(`>\s*"?([^\s"<>|;&]+)`)
)

// exampleScript applies the rules of TestHelpExamples to an example.
func exampleScript(s, addr, dir string) string {
	s = bootstrapValue.ReplaceAllString(s, "${1}"+addr)
	return absolutePath.ReplaceAllString(s, "${1}"+dir+"/${2}/")
}

// exampleState is the default seed plus the groups the examples name:
// my-app, orders-blue and orders-green run like word-count (AVAILABLE);
// orders-app and billing-app are Empty like fraud-detector, orders-app
// with committed offsets to reset. A clone is what the application would
// be under the new application.id: its internal topics (and client ids)
// carry the new id as their prefix, and exist as the original's do, so
// that diff derives the same broker topology from its text as the group
// holds.
func exampleState(t *testing.T) *playground.State {
	st := playground.DefaultState()
	clone := func(from, id string) playground.StateStreamsGroup {
		for _, tp := range slices.Clone(st.Topics) {
			if strings.HasPrefix(tp.Name, from+"-") {
				tp.Name = id + strings.TrimPrefix(tp.Name, from)
				st.Topics = append(st.Topics, tp)
			}
		}
		for _, g := range st.StreamsGroups {
			if g.ID == from {
				b, err := yaml.Marshal(g)
				require.NoError(t, err)
				var out playground.StateStreamsGroup
				require.NoError(t, yaml.Unmarshal([]byte(strings.ReplaceAll(string(b), from+"-", id+"-")), &out))
				out.ID = id
				return out
			}
		}
		t.Fatalf("the default seed has no group %s", from)
		return playground.StateStreamsGroup{}
	}
	for _, id := range []string{"my-app", "orders-blue", "orders-green"} {
		st.StreamsGroups = append(st.StreamsGroups, clone("word-count", id))
	}
	// orders-app: word-count's topology, stopped, with offsets committed on
	// its input topics and on the seed's topic orders.
	orders := clone("word-count", "orders-app")
	orders.State, orders.Members = "Empty", nil
	for p := range int32(2) { // the seed's topic orders has more

		orders.CommittedOffsets = append(orders.CommittedOffsets, playground.StateCommitted{Topic: "orders", Partition: p, Offset: 40})
	}
	st.StreamsGroups = append(st.StreamsGroups, orders, clone("fraud-detector", "billing-app"))
	return st
}
