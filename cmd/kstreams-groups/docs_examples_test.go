//go:build linux || darwin

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/doctest"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// TestDocExamples runs the shell examples of README.md and every docs/
// page as a reader would paste them: each page's runnable blocks, in
// order, in one bash session (a block may use what an earlier one started
// or exported), in an empty directory that is also HOME, with
// kstreams-groups on PATH (the shim of TestHelpExamples). A fenced block is
//
//   - ```sh (or bash, shell): a script. Every line that calls kstreams-groups
//     must exit 0, or the code its comment names ("# exit 3"); every file it
//     writes with > must be there and not be empty.
//   - ```console: a transcript. Each "$ " line runs, and what it prints
//     (stdout and stderr) must be what the page shows below it: lines
//     compared without trailing blanks, a line "..." standing for any
//     number of lines, 127.0.0.1 ports and timestamps read as equal. A
//     command must exit 0 unless the next one is "echo $?", which shows its
//     code.
//   - after a line <!-- real-kafka: WHY -->: a block that needs a real
//     cluster. Each kstreams-groups command in it runs once against the
//     playground and must not be a usage error (its flags and values
//     parse); e2e/ runs such commands against Kafka itself.
//   - after a line <!-- parse-only: WHY -->: the same, for an example whose
//     output depends on timing or on a cluster the playground is not.
//   - after a line <!-- not-run: WHY -->: not run (a config file, say).
//
// Any other block that holds a kstreams-groups command fails the test:
// every example is run or says why not, and the test counts them. A page
// with examples starts with one that runs (```sh or ```console), the
// production form after it.
//
// The examples run as written: a page that starts no playground of its
// own talks to the one its reader started as the tour does (the default
// seed, its address in KSTREAMS_GROUPS_BOOTSTRAP_SERVER); no address is
// rewritten and no file made up, so a page creates what it reads. Three
// rules stand in for what the test cannot be: "make build" is done (the
// shim is the build), "make demo" runs scripts/demo.sh on the shim, "make
// test" is this suite and is not run; and a path under /var, /tmp or /etc
// moves into the session's directory. The pages run in parallel.
// docs/reference/ is generated from the commands' help, whose examples
// TestHelpExamples runs.
func TestDocExamples(t *testing.T) {
	t.Parallel()
	isolate(t)
	if _, err := exec.LookPath("bash"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("bash is needed to run the examples")
		}
		t.Skip("bash is needed to run the examples")
	}
	shimDir := exampleShim(t)
	var count exampleCount
	var pages sync.WaitGroup
	for _, page := range docFiles(t) {
		if strings.HasPrefix(page, "docs/reference/") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(repoRoot, page))
		require.NoError(t, err)
		blocks, problems := doctest.Blocks(string(data))
		for _, p := range problems {
			t.Errorf("%s:%s", page, p)
		}
		count.add(blocks)
		if len(blocks) == 0 {
			continue
		}
		if first := blocks[0]; first.Kind != "sh" && first.Kind != "console" {
			t.Errorf("%s:%d: the page's first example is %s: a page starts with one that runs on the playground as written, the production form after it", page, first.Line, first.Kind)
		}
		// The pages run side by side within this test's own slot, not as
		// parallel subtests: those would queue behind every other
		// parallel test of the package, and the tour (which waits about
		// 10 s for the playground's rebalance) then started 20 s into the
		// run and ended it.
		pages.Add(1)
		go func() {
			defer pages.Done()
			t.Run(page, func(t *testing.T) { runDocPage(t, page, blocks, shimDir) })
		}()
	}
	pages.Wait()
	t.Logf("examples: %s", count)
	assert.Positive(t, count.played, "the pages' examples were found")
}

// runDocPage runs one page's examples (TestDocExamples).
func runDocPage(t *testing.T, page string, blocks []docBlock, shimDir string) {
	// The page's commands and the checks of its real-cluster
	// commands each get a playground: a checked "delete" must not
	// change what the page's next example sees.
	addr, checkAddr := docsPlayground(t), examplePlayground(t)
	stored := runCLI(t, "--bootstrap-server", checkAddr, "describe", "--topology", "--group", "orders-app")
	require.Equal(t, 0, stored.code, stored.stderr)
	var run []docCommand
	for _, b := range blocks {
		switch b.Kind {
		case "real-kafka":
			dir := t.TempDir() // the block's commands share it, as in a shell
			for _, cmd := range b.Commands {
				validateRealKafkaCommand(t, page, cmd, checkAddr, shimDir, stored.stdout, dir)
			}
		case "sh", "console":
			run = append(run, b.Commands...)
		}
	}
	if len(run) > 0 {
		runDocCommands(t, page, run, addr, shimDir)
	}
}

// exampleCount counts the examples of the pages: the kstreams-groups calls
// run as written on the playground, those of blocks that need a real
// cluster (checked to parse here, run by e2e TestDocExamplesRealKafka),
// those whose output depends on timing (parse-only), and the blocks not
// run.
type exampleCount struct{ played, realKafka, parseOnly, notRun int }

func (c *exampleCount) add(blocks []docBlock) {
	for _, b := range blocks {
		calls := 0
		for _, cmd := range b.Commands {
			if strings.Contains(cmd.Text, "kstreams-groups ") {
				calls++
			}
		}
		switch {
		case b.Kind == "not-run":
			c.notRun++
		case b.Marker == "parse-only":
			c.parseOnly += calls
		case b.Marker == "real-kafka":
			c.realKafka += calls
		default:
			c.played += calls
		}
	}
}

func (c exampleCount) String() string {
	return fmt.Sprintf("%d calls run as written on the playground, %d need a real cluster (parsed here, run by e2e), %d parse-only, %d blocks not run",
		c.played, c.realKafka, c.parseOnly, c.notRun)
}

// docsPlayground starts the playground a reader starts: the default seed.
func docsPlayground(t *testing.T) string {
	c, err := playground.StartStateWith(testPlayground, playground.DefaultState())
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c.Addrs()[0]
}

// examplePlayground starts a playground seeded with exampleState for the
// test and returns its bootstrap address.
func examplePlayground(t *testing.T) string {
	c, err := playground.StartStateWith(testPlayground, exampleState(t))
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c.Addrs()[0]
}

// exampleShim is a directory holding a kstreams-groups that runs this test
// binary as the CLI and logs each call's exit code to $EXAMPLE_LOG.
func exampleShim(t *testing.T) string {
	exe, err := os.Executable()
	require.NoError(t, err)
	dir := t.TempDir()
	shim := "#!/bin/sh\n" + runAsCLIEnv + "=1 \"" + exe + "\" \"$@\"\nrc=$?\nprintf '%s\\t%s\\n' \"$rc\" \"$*\" >> \"${EXAMPLE_LOG:-/dev/null}\"\nexit $rc\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "kstreams-groups"), []byte(shim), 0o755))
	return dir
}

type (
	docBlock   = doctest.Block
	docCommand = doctest.Command
)

var stripComment = doctest.StripComment

// docRewrite applies the rules of TestDocExamples to one command.
func docRewrite(cmd, addr, dir string) string {
	cmd = stripComment(cmd)
	switch strings.TrimSpace(cmd) {
	case "make build":
		return ":"
	case "make demo":
		demo, _ := filepath.Abs(filepath.Join(repoRoot, "scripts", "demo.sh"))
		return demo + " kstreams-groups"
	case "make test":
		return ": make test is the suite that runs this"
	}
	return exampleScript(cmd, addr, dir)
}

// docAsWritten is a page's command as a reader runs it: only "make build",
// "make demo" and "make test" stand for what they do, and a path under
// /var, /tmp or /etc moves into dir (the place it names exists where the
// example applies). No address and no file is made up: a page creates
// what it reads, and talks to the playground its reader started.
func docAsWritten(cmd, dir string) string {
	cmd = stripComment(cmd)
	switch strings.TrimSpace(cmd) {
	case "make build", "make demo", "make test":
		return docRewrite(cmd, "", dir)
	}
	return absolutePath.ReplaceAllString(cmd, "${1}"+dir+"/${2}/")
}

// makeWriteDirs makes the directories of what script writes under dir
// (a sandboxed /var/lib/node_exporter, say).
func makeWriteDirs(t *testing.T, dir, script string) {
	for _, m := range redirectTarget.FindAllStringSubmatch(script, -1) {
		if strings.HasPrefix(m[1], dir) {
			require.NoError(t, os.MkdirAll(filepath.Dir(m[1]), 0o755))
		}
	}
	for _, p := range regexp.MustCompile(regexp.QuoteMeta(dir)+`/(var|tmp|etc)/[^\s"')]+`).FindAllString(script, -1) {
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	}
}

// prepareExampleDir gives dir the files examples read without writing
// them, as TestHelpExamples does (stored is orders-app's topology text),
// and the directories they write to.
func prepareExampleDir(t *testing.T, stored, dir, script string) {
	for _, f := range []string{"topology.txt", "build/topology.txt", "saved.txt"} {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755))
		writeFile(t, filepath.Dir(filepath.Join(dir, f)), filepath.Base(f), stored)
	}
	for _, m := range redirectTarget.FindAllStringSubmatch(script, -1) {
		require.NoError(t, os.MkdirAll(filepath.Dir(strings.ReplaceAll(m[1], "~", dir)), 0o755))
	}
	for _, p := range regexp.MustCompile(regexp.QuoteMeta(dir)+`/(var|tmp|etc)/[^\s"')]+`).FindAllString(script, -1) {
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	}
}

var (
	loopbackPort = regexp.MustCompile(`127\.0\.0\.1:\d+`)
	timestamp    = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z`)
	rcLine       = regexp.MustCompile(`(?m)^@@@RC (\d+) (\d+)$`)
	noFile       = regexp.MustCompile(`@@@NOFILE (.*)`)
)

// runDocCommands runs a page's commands in one bash session and checks
// each.
func runDocCommands(t *testing.T, page string, cmds []docCommand, addr, shimDir string) {
	dir := t.TempDir()
	var script strings.Builder
	script.WriteString("__rc=0\n")
	for i, c := range cmds {
		text := docAsWritten(c.Text, dir)
		if strings.HasSuffix(strings.TrimSpace(text), "&") {
			// A server left running: its output is not the page's.
			text = strings.TrimSuffix(strings.TrimSpace(text), "&") + " >/dev/null 2>&1 &"
		}
		fmt.Fprintf(&script, "printf '\\n@@@CMD %d\\n'\n(exit $__rc); %s\n__ps=(\"${PIPESTATUS[@]}\"); __rc=${__ps[-1]}; printf '\\n@@@RC %%d %%d\\n' \"$__rc\" \"${__ps[0]}\"\n", i, text)
		if c.Kind != "sh" {
			continue
		}
		// What it wrote, checked where the session is (a block may cd).
		for _, f := range redirectTarget.FindAllStringSubmatch(stripComment(c.Text), -1) {
			if f[1] != "/dev/null" && !strings.HasPrefix(f[1], "&") {
				fmt.Fprintf(&script, "[ -s %q ] || printf '@@@NOFILE %%s\\n' %q\n", docAsWritten(f[1], dir), f[1])
			}
		}
	}
	makeWriteDirs(t, dir, script.String())

	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script.String())
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + dir, "XDG_CONFIG_HOME=" + dir, "PATH=" + shimDir + ":" + os.Getenv("PATH"),
		"KSTREAMS_GROUPS_BOOTSTRAP_SERVER=" + addr, "TMPDIR=" + t.TempDir()}
	killGroupOnCancel(cmd)
	out, err := os.Create(filepath.Join(t.TempDir(), "out"))
	require.NoError(t, err)
	defer out.Close()
	cmd.Stdout, cmd.Stderr = out, out
	runErr := cmd.Run()
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	output, _ := os.ReadFile(out.Name())
	require.NoError(t, runErr, "%s: the examples' shell session failed:\n%s", page, output)

	parts := regexp.MustCompile(`(?m)^@@@CMD \d+$`).Split(string(output), -1)[1:]
	require.Len(t, parts, len(cmds), "%s: every command ran", page)
	for i, c := range cmds {
		m := rcLine.FindStringSubmatch(parts[i])
		require.NotNil(t, m, "%s:%d: no exit status", page, c.Line)
		got := strings.TrimSuffix(parts[i][:strings.Index(parts[i], "@@@RC")], "\n")
		got = strings.TrimPrefix(got, "\n")
		where := fmt.Sprintf("%s:%d: %s", page, c.Line, c.Text)
		switch c.Kind {
		case "sh":
			first, _ := strconv.Atoi(m[2])
			if c.CheckRC {
				assert.Equal(t, c.WantExit, first, "%s exits %d\n%s", where, c.WantExit, got)
			}
			for _, m := range noFile.FindAllStringSubmatch(parts[i], -1) {
				t.Errorf("%s: writes %s, missing or empty", where, m[1])
			}
		case "console":
			rc, _ := strconv.Atoi(m[1])
			if c.CheckRC && strings.TrimSpace(c.Text) != "echo $?" {
				assert.Equal(t, c.WantExit, rc, "%s exits %d (else the page shows echo $?)\n%s", where, c.WantExit, got)
			}
			want := trimLines(c.Output)
			have := trimLines(strings.Split(got, "\n"))
			assert.True(t, linesMatch(want, have), "%s prints what the page shows\n--- page\n%s\n--- got\n%s", where, strings.Join(want, "\n"), strings.Join(have, "\n"))
		}
	}
}

// trimLines drops trailing blanks of each line and blank lines at the end,
// and reads ports on 127.0.0.1 and timestamps as placeholders.
func trimLines(lines []string) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		l = loopbackPort.ReplaceAllString(l, "127.0.0.1:PORT")
		l = timestamp.ReplaceAllString(l, "TIMESTAMP")
		out = append(out, l)
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// linesMatch compares lines where a want line "..." (or "…") stands for
// any number of lines, and a want line ending in " ..." for any line that
// starts with what comes before.
func linesMatch(want, have []string) bool {
	if len(want) == 0 {
		return len(have) == 0
	}
	if w := strings.TrimSpace(want[0]); w == "..." || w == "…" {
		for i := 0; i <= len(have); i++ {
			if linesMatch(want[1:], have[i:]) {
				return true
			}
		}
		return false
	}
	if len(have) == 0 {
		return false
	}
	same := want[0] == have[0]
	for _, dots := range []string{" ...", " …"} {
		if prefix, ok := strings.CutSuffix(want[0], dots); ok && strings.HasPrefix(have[0], prefix) {
			same = true
		}
	}
	return same && linesMatch(want[1:], have[1:])
}

// killGroupOnCancel makes the end of cmd's context end every process it
// started (a watch piped into tee, a server left in the background), not
// only the shell.
func killGroupOnCancel(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
}

// usageHintRE matches what every usage error ends with on stderr.
var usageHintRE = regexp.MustCompile(`Run 'kstreams-groups[^']*--help'`)

// validateRealKafkaCommand runs a command meant for a real cluster against
// the playground: whatever the cluster answers, its command line must
// parse.
func validateRealKafkaCommand(t *testing.T, page string, c docCommand, addr, shimDir, stored, dir string) {
	if !strings.HasPrefix(c.Text, "kstreams-groups ") && !strings.HasPrefix(c.Text, "KSTREAMS_GROUPS_") {
		return
	}
	text := docRewrite(c.Text, addr, dir)
	text = strings.TrimSuffix(strings.TrimSpace(text), "&")
	prepareExampleDir(t, stored, dir, text)
	// A usage error is told at once, before any work; a command that runs
	// until stopped (a watch) is stopped once its first sample is out (its
	// flags parsed), else after a while.
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", text)
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + dir, "XDG_CONFIG_HOME=" + dir, "PATH=" + shimDir + ":" + os.Getenv("PATH"),
		"KSTREAMS_GROUPS_BOOTSTRAP_SERVER=" + addr, "KSTREAMS_GROUPS_TIMEOUT=3000"}
	killGroupOnCancel(cmd)
	cmd.Stdin = strings.NewReader("")
	out := &sampleWatcher{sampled: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = out, out
	go func() {
		select {
		case <-out.sampled:
			cancel()
		case <-ctx.Done():
		}
	}()
	_ = cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	}
	got := out.String()
	assert.NotRegexp(t, usageHintRE, got, "%s:%d: %s is a usage error", page, c.Line, c.Text)
	// A line of the command taken as a command of its own (a continuation
	// lost) is not found by the shell.
	assert.NotContains(t, got, "command not found", "%s:%d: %s runs as one command", page, c.Line, c.Text)
}

// watchSample1 is the header of a watch's first sample (watch.go's
// frame), in a pipe.
var watchSample1 = regexp.MustCompile(`(?m)^Every \S+: \S+, sample 1$`)

// sampleWatcher is a command's output (exec.Cmd writes stdout and stderr
// to it from one goroutine at a time); sampled is closed once it holds a
// watch's first sample header.
// (The buffer is a field: embedded, its ReadFrom would take the copy
// past Write.)
type sampleWatcher struct {
	buf     bytes.Buffer
	sampled chan struct{}
	seen    bool
}

func (w *sampleWatcher) Write(p []byte) (int, error) {
	n, err := w.buf.Write(p)
	if !w.seen && watchSample1.Match(w.buf.Bytes()) {
		w.seen = true
		close(w.sampled)
	}
	return n, err
}

func (w *sampleWatcher) String() string { return w.buf.String() }

func TestLinesMatch(t *testing.T) {
	assert.True(t, linesMatch([]string{"a", "...", "d"}, []string{"a", "b", "c", "d"}))
	assert.True(t, linesMatch([]string{"a", "…"}, []string{"a"}))
	assert.False(t, linesMatch([]string{"a", "d"}, []string{"a", "b", "d"}))
	assert.False(t, linesMatch([]string{"a", "...", "e"}, []string{"a", "b", "d"}))
	assert.True(t, linesMatch([]string{"x | y ..."}, []string{"x | y z"}))
	assert.False(t, linesMatch([]string{"x | y ..."}, []string{"x | z"}))
	assert.Equal(t, []string{"x 127.0.0.1:PORT TIMESTAMP"}, trimLines([]string{"x 127.0.0.1:4242 2026-12-01T10:00:02Z  ", ""}))
	assert.Equal(t, "kstreams-groups x '#y'", stripComment("kstreams-groups x '#y'  # exit 2"))
}
