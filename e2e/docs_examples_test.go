//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/doctest"
)

// TestDocExamplesRealKafka runs the examples the pages mark as needing a
// real cluster (<!-- real-kafka: ... -->; cmd TestDocExamples only checks
// that they parse) against the run's shared 4.4.0 broker: each block in
// one bash session in an empty directory, with our binary on PATH as
// kstreams-groups. The one substitution is the address: every host:port
// given to --bootstrap-server (kafka:9092, localhost:9092) becomes
// ${BOOTSTRAP}, the broker's, and KSTREAMS_GROUPS_BOOTSTRAP_SERVER is set
// for the commands that give none. The files a block reads are the
// e2e's own topology texts (testdata/diff): build/topology.txt is
// diff-base.txt, diff-filter.txt itself.
//
// The groups orders-app, billing-app and my-app are made here as a
// stopped application leaves them: a streams group whose member joined
// with a topology reading docs-input (2 partitions, 10 records each) and
// left (Empty), with offsets committed at 5. Each call must reach the
// broker and be understood (not a usage error, not an unreachable
// cluster), and find those groups unless an earlier example deleted them.
// The other groups the pages name (wc-app, wc, wc-live, df-blue) belong to
// other e2e tests on the shared broker and are not made here, and what
// the commands print is not compared (the pages show a reader's cluster).
// The parse-only blocks are not run here: their output depends on timing,
// and they run on the playground.
func TestDocExamplesRealKafka(t *testing.T) {
	b := SharedBroker(t, BrokerOptions{})
	bin := OurBinary(t)
	ctx := context.Background()
	require.NoError(t, createTopic(ctx, b, "docs-input", 2))
	produceTo(t, b, "docs-input", map[int32]int{0: 10, 1: 10})
	made := []string{"orders-app", "billing-app", "my-app"}
	t.Cleanup(func() {
		// The broker is shared: leave no group behind (those the examples
		// deleted already answer GROUP_ID_NOT_FOUND).
		r := RunOursOn(t, bin, b, "delete", "--group", made[0], "--group", made[1], "--group", made[2])
		logf("TestDocExamplesRealKafka: cleanup: exit %d %s", r.ExitCode, strings.TrimSpace(r.Stderr))
	})
	for _, g := range made {
		joinAndLeave(t, b, g, "docs-input")
		require.NoError(t, b.WaitGroupState(ctx, g, "Empty", 30*time.Second, b.Proc))
		for p := range int32(2) {
			require.EqualValues(t, 0, ooAdminCommit(t, b, g, "docs-input", p, 5))
		}
	}
	deleted := map[string]bool{}
	binDir := t.TempDir()
	require.NoError(t, os.Symlink(bin, filepath.Join(binDir, "kstreams-groups")))
	ran := 0
	for _, page := range docPages(t) {
		data, err := os.ReadFile(filepath.Join(RepoRoot(), page))
		require.NoError(t, err)
		blocks, _ := doctest.Blocks(string(data))
		for _, blk := range blocks {
			if blk.Marker != "real-kafka" {
				continue
			}
			var cmds []doctest.Command
			for _, c := range blk.Commands {
				if strings.HasPrefix(c.Text, "kstreams-groups ") {
					cmds = append(cmds, c)
				}
			}
			if len(cmds) == 0 {
				continue
			}
			t.Run(fmt.Sprintf("%s:%d", page, blk.Line), func(t *testing.T) {
				ran += runRealKafkaBlock(t, page, cmds, b.Addr, binDir, made, deleted)
			})
		}
	}
	logf("TestDocExamplesRealKafka: %d calls of the pages' real-kafka blocks ran against %s", ran, b.Addr)
	assert.Positive(t, ran)
}

// docPages are the README and the docs pages, the generated reference
// left out.
func docPages(t *testing.T) []string {
	pages := []string{"README.md"}
	matches, err := filepath.Glob(filepath.Join(RepoRoot(), "docs", "*.md"))
	require.NoError(t, err)
	for _, m := range matches {
		pages = append(pages, filepath.ToSlash(filepath.Join("docs", filepath.Base(m))))
	}
	return pages
}

var (
	docBootstrap = regexp.MustCompile(`(--bootstrap-server[ =]|--new-bootstrap-server[ =]|KSTREAMS_GROUPS_BOOTSTRAP_SERVER=)[A-Za-z0-9.-]+:[0-9]+`)
	// usageHint ends every usage error on stderr.
	usageHint = regexp.MustCompile(`Run 'kstreams-groups[^']*--help'`)
	// unreached is what a call that did not reach the broker says.
	unreached = regexp.MustCompile(`(?i)connection refused|no such host|timed out|unreachable`)
)

// runRealKafkaBlock runs one block's calls in one bash session and checks
// each: the groups of made are found unless deleted says an earlier call
// deleted them (a call that deletes one is added). It returns the number
// of calls run.
func runRealKafkaBlock(t *testing.T, page string, cmds []doctest.Command, addr, binDir string, made []string, deleted map[string]bool) int {
	dir := t.TempDir()
	for name, from := range map[string]string{"build/topology.txt": "diff-base.txt", "diff-filter.txt": "diff-filter.txt"} {
		data, err := os.ReadFile(filepath.Join(E2EDir(), "testdata", "diff", from))
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	var script strings.Builder
	for i, c := range cmds {
		text := docBootstrap.ReplaceAllString(doctest.StripComment(c.Text), "${1}"+addr)
		fmt.Fprintf(&script, "printf '\\n@@@CMD %d\\n'\n%s\nprintf '\\n@@@RC %%d\\n' $?\n", i, text)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script.String())
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + dir, "XDG_CONFIG_HOME=" + dir, "PATH=" + binDir + ":" + os.Getenv("PATH"),
		"KSTREAMS_GROUPS_BOOTSTRAP_SERVER=" + addr, "KSTREAMS_GROUPS_TIMEOUT=20000"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s: the block's shell session failed:\n%s", page, out)
	parts := regexp.MustCompile(`(?m)^@@@CMD \d+$`).Split(string(out), -1)[1:]
	require.Len(t, parts, len(cmds), "every call ran:\n%s", out)
	for i, c := range cmds {
		where := fmt.Sprintf("%s:%d: %s", page, c.Line, c.Text)
		assert.NotRegexp(t, usageHint, parts[i], "%s is a usage error", where)
		assert.NotContains(t, parts[i], "command not found", "%s runs as one command", where)
		assert.NotRegexp(t, unreached, parts[i], "%s reaches the broker", where)
		assert.Contains(t, parts[i], "@@@RC ", where)
		for _, g := range made {
			if namesGroup(c.Text, g) && !deleted[g] {
				assert.NotContains(t, parts[i], "Group "+g+" not found", "%s finds %s", where, g)
				assert.NotContains(t, parts[i], "Group '"+g+"' does not exist", "%s finds %s", where, g)
			}
			if namesGroup(c.Text, g) && deletes.MatchString(c.Text) {
				deleted[g] = true
			}
		}
		logf("%s: %s", where, strings.TrimSpace(strings.ReplaceAll(parts[i], "\n", " | ")))
	}
	return len(cmds)
}

// deletes matches a call that deletes groups (either form).
var deletes = regexp.MustCompile(`^kstreams-groups (.* )?(--delete|delete) `)

// namesGroup tells whether a call names group g (--group g, group:g).
func namesGroup(cmd, g string) bool {
	return regexp.MustCompile(`(--group[ =]|group:)` + regexp.QuoteMeta(g) + `(\s|$)`).MatchString(cmd)
}
