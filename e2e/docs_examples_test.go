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
// The groups the pages name (orders-app, wc-app, ...) are the reader's and
// do not exist here, so what the commands print is not compared; each
// call must reach the broker and be understood: not a usage error, not an
// unreachable cluster. The parse-only blocks are not run here: their
// output depends on timing, and they run on the playground.
func TestDocExamplesRealKafka(t *testing.T) {
	b := SharedBroker(t, BrokerOptions{})
	bin := OurBinary(t)
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
				ran += runRealKafkaBlock(t, page, cmds, b.Addr, binDir)
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
// each; it returns the number of calls run.
func runRealKafkaBlock(t *testing.T, page string, cmds []doctest.Command, addr, binDir string) int {
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
		assert.NotRegexp(t, unreached, parts[i], "%s reaches the broker", where)
		assert.Contains(t, parts[i], "@@@RC ", where)
		logf("%s: %s", where, strings.TrimSpace(strings.ReplaceAll(parts[i], "\n", " | ")))
	}
	return len(cmds)
}
