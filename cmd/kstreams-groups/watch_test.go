package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
	"github.com/kstreams-groups/kstreams-groups/internal/watch"
)

// fakeClock is a watch's time without waiting: After moves the time on at
// once, after running tick with the number of samples taken so far, so a
// test changes the cluster between samples.
type fakeClock struct {
	mu   sync.Mutex
	now  time.Time
	n    int
	tick func(n int)
}

func newFakeClock(tick func(n int)) *fakeClock {
	return &fakeClock{now: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), tick: tick}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	c.n++
	c.now = c.now.Add(d)
	n, now := c.n, c.now
	c.mu.Unlock()
	if c.tick != nil {
		c.tick(n)
	}
	ch := make(chan time.Time, 1)
	ch <- now
	return ch
}

// runCLIWith is runCLI with deps.
func runCLIWith(t *testing.T, d deps, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	code := testRun(t, args, IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}, d)
	return result{stdout: out.String(), stderr: errOut.String(), code: code}
}

// healthGroup is a streams group of healthState, to change and put back.
func healthGroup(t *testing.T, id string) playground.StreamsGroup {
	t.Helper()
	for _, g := range healthState(t).StreamsGroups {
		if g.ID == id {
			return g.StreamsGroup
		}
	}
	t.Fatalf("no group %s in health.yaml", id)
	return playground.StreamsGroup{}
}

// In a pipe: one block per sample after a timestamp line, the changes
// since the last sample as "changed:" lines, no escape sequence, and the
// exit code of the last sample.
func TestWatch_pipe(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := healthCluster(t)
	bs := bootstrap(c)

	t.Run("describe members, the group rebalances", func(t *testing.T) {
		clk := newFakeClock(func(n int) {
			if n != 1 {
				return
			}
			g := healthGroup(t, "moving")
			g.State, g.GroupEpoch, g.AssignmentEpoch = "Stable", 9, 9
			g.Members[0].Assignment.Active = map[string][]int32{"0": {0}}
			g.Members[1].Assignment.Active = map[string][]int32{"0": {1}}
			g.Members = append(g.Members, playground.Member{MemberID: "m-e", MemberEpoch: 9, ClientID: "moving-e"})
			c.PutStreamsGroup(g)
		})
		r := runCLIWith(t, deps{clock: clk}, "--bootstrap-server", bs, "describe", "--members", "--group", "moving", "--watch", "--count", "3")
		assert.Equal(t, 0, r.code, r.stderr)
		assert.Empty(t, r.stderr)
		assert.NotRegexp(t, anyEscape, r.stdout)
		assert.Equal(t, 3, strings.Count(r.stdout, "Every 2s: 2026-12-01T10:00:"), r.stdout)
		assert.Contains(t, r.stdout, "Every 2s: 2026-12-01T10:00:02Z, sample 2\n"+
			"changed: moving: state Reconciling -> Stable\n"+
			"changed: moving: group epoch 8 -> 9\n"+
			"changed: moving: target assignment epoch 8 -> 9\n"+
			"changed: moving: member m-e joined (moving-e)\n"+
			"changed: moving: task 0_1 moved from m-c to m-d\n"+
			"changed: moving: no task moving\n")
		_, third, _ := strings.Cut(r.stdout, "sample 3\n")
		assert.NotContains(t, third, "changed:", "nothing changed after sample 2")
		golden.Assert(t, []byte(r.stdout))
	})

	t.Run("overview, lag rising", func(t *testing.T) {
		clk := newFakeClock(func(n int) {
			if n == 1 {
				c.SetLogOffsets("in", 2, 0, 150)
			}
		})
		r := runCLIWith(t, deps{clock: clk}, "--bootstrap-server", bs, "overview", "--group", "steady", "--watch", "--interval", "500ms", "--count", "2")
		assert.Equal(t, 0, r.code, r.stderr)
		assert.NotRegexp(t, anyEscape, r.stdout)
		assert.Contains(t, r.stdout, "Every 500ms: 2026-12-01T10:00:00.500Z, sample 2\nchanged: steady: lag 40 -> 90 (+50)\n")
		c.SetLogOffsets("in", 2, 0, 100)
	})

	t.Run("check, OK to CRITICAL, the exit code of the last sample", func(t *testing.T) {
		clk := newFakeClock(func(n int) {
			if n == 1 {
				c.SetLogOffsets("in", 1, 0, 200)
			}
		})
		r := runCLIWith(t, deps{clock: clk}, "--bootstrap-server", bs, "check", "--group", "steady", "--lag-critical", "100", "--watch", "--count", "2", "--time-lag=false")
		assert.Equal(t, 2, r.code, r.stdout)
		assert.Contains(t, r.stdout, "sample 1\nSTREAMS OK - steady: ")
		assert.Contains(t, r.stdout, "sample 2\nchanged: steady: check OK -> CRITICAL\nchanged: steady: lag 40 -> 140 (+100)\nSTREAMS CRITICAL - steady CRITICAL: lag 140 > 100 | ")
		c.SetLogOffsets("in", 1, 0, 100)
	})

	t.Run("a failed sample is shown and the watch goes on", func(t *testing.T) {
		msg := "injected"
		clk := newFakeClock(func(n int) {
			switch n {
			case 1:
				c.InjectError(playground.Fault{Key: 89, Group: "steady", ErrorCode: 15, ErrorMessage: &msg, Times: 0, Node: playground.AnyNode})
			case 2:
				require.NoError(t, c.Load(healthState(t)))
				c.InjectError(playground.Fault{Key: 16, ErrorCode: 30, Times: 1, Node: playground.AnyNode})
			}
		})
		r := runCLIWith(t, deps{clock: clk}, "--bootstrap-server", bs, "--timeout", "300", "describe", "--state", "--all-groups", "--watch", "--count", "4")
		assert.Equal(t, 0, r.code, r.stdout)
		blocks := strings.Split(r.stdout, "Every 2s: ")
		require.Len(t, blocks, 5, r.stdout)
		assert.Contains(t, blocks[2], "Error: streams group 'steady': ", "sample 2: the group fails")
		assert.Contains(t, blocks[2], "changed: steady: fails: ")
		assert.Contains(t, blocks[3], "Error: sample failed: ", "sample 3: the listing fails")
		assert.Contains(t, blocks[4], "changed: steady: described again", "compared with the last good sample")
	})
}

func TestWatch_usage(t *testing.T) {
	t.Parallel()
	isolate(t)
	for _, tc := range []struct {
		args []string
		msg  string
		code int
	}{
		{[]string{"describe", "--group", "g", "--interval", "1s"}, "--interval needs --watch", 2},
		{[]string{"overview", "--group", "g", "--count", "2"}, "--count needs --watch", 2},
		{[]string{"describe", "--group", "g", "--watch", "--interval", "10ms"}, `--interval: want a duration of at least 100ms, such as 2s or 500ms, got "10ms"`, 2},
		{[]string{"describe", "--group", "g", "--watch", "--interval", "soon"}, `--interval: want a duration of at least 100ms, such as 2s or 500ms, got "soon"`, 2},
		{[]string{"describe", "--group", "g", "--watch", "--count", "0"}, `--count: want a number of samples, 1 or more, got "0"`, 2},
		{[]string{"-o", "json", "describe", "--group", "g", "--watch"}, "--watch prints text, not -o json", 2},
		{[]string{"--list", "--watch"}, "Option(s) [watch] are unavailable given other options on the command line", 2},
		{[]string{"check", "--group", "g", "--watch", "--interval", "1"}, `--interval: want a duration of at least 100ms, such as 2s or 500ms, got "1"`, 3},
	} {
		r := runCLI(t, append([]string{"--bootstrap-server", closedPort(t)}, tc.args...)...)
		assert.Equal(t, tc.code, r.code, "%v: %s", tc.args, r.stderr)
		assert.Contains(t, r.stderr, tc.msg+"\n", tc.args)
	}
	r := runCLIWith(t, deps{clock: newFakeClock(nil)}, "--bootstrap-server", "127.0.0.1:9", "--describe", "--group", "g", "--watch", "--count", "1", "--timeout", "200")
	assert.Equal(t, 1, r.code, "the Kafka form watches too; an unreachable cluster fails the sample: %s", r.stdout)
	assert.Contains(t, r.stdout, "Error: streams group 'g': ")
}

// On a terminal, a frame redraws from the top, paints the changes and
// marks each line of the view that is new since the last frame; in a pipe
// it writes the plain block.
func TestDrawer(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	d := &drawer{w: &b, st: format.NewStyles(true), term: true, interval: 2 * time.Second}
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	require.NoError(t, d.frame(at, 1, nil, nil, sample{body: []byte("GROUP STATE\ng Stable\n")}))
	first := b.String()
	assert.Equal(t, home+"\x1b[1mEvery 2s: 2026-12-01T10:00:00Z, sample 1 (Ctrl-C to stop)\x1b[22m"+clearLine+"\n  GROUP STATE"+clearLine+"\n  g Stable"+clearLine+"\n"+clearBelow, first)
	b.Reset()
	changes := []watch.Change{{Group: "g\x1b", Text: "state Stable -> Reconciling"}}
	require.NoError(t, d.frame(at.Add(2*time.Second), 2, changes, nil, sample{body: []byte("GROUP STATE\ng \x1b[33mReconciling\x1b[0m\n"), lines: []string{"Error: x"}}))
	assert.Equal(t, home+"\x1b[1mEvery 2s: 2026-12-01T10:00:02Z, sample 2 (Ctrl-C to stop)\x1b[22m"+clearLine+"\n"+
		"\x1b[33mchanged: g^[: state Stable -> Reconciling\x1b[0m"+clearLine+"\n"+
		"  GROUP STATE"+clearLine+"\n"+
		"\x1b[33m> \x1b[0mg \x1b[33mReconciling\x1b[0m"+clearLine+"\n"+
		"Error: x"+clearLine+"\n"+clearBelow, b.String(), "the changed line is marked, the broker string escaped")

	b.Reset()
	p := &drawer{w: &b, st: format.NewStyles(false), interval: 500 * time.Millisecond}
	require.NoError(t, p.frame(at.Add(1500*time.Millisecond), 4, changes, nil, sample{body: []byte("GROUP STATE\ng Stable\n")}))
	assert.Equal(t, "Every 500ms: 2026-12-01T10:00:01.500Z, sample 4\nchanged: g^[: state Stable -> Reconciling\nGROUP STATE\ng Stable\n\n", b.String())
}

// The timestamp keeps its width from sample to sample: RFC3339Nano trimmed
// trailing zeros (10:00:00.5Z, then 10:00:00.25Z, then 10:00:01Z).
func TestWatchFrame_timestampFixedWidth(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for _, interval := range []time.Duration{250 * time.Millisecond, 100 * time.Millisecond, 2 * time.Second} {
		t.Run(interval.String(), func(t *testing.T) {
			var b bytes.Buffer
			p := &drawer{w: &b, st: format.NewStyles(false), interval: interval}
			width := -1
			for n := range 12 {
				b.Reset()
				require.NoError(t, p.frame(at.Add(time.Duration(n)*interval+time.Duration(n)*time.Microsecond), n+1, nil, nil, sample{}))
				stamp, _, _ := strings.Cut(strings.TrimPrefix(b.String(), "Every "+interval.String()+": "), ",")
				if width < 0 {
					width = len(stamp)
				}
				assert.Len(t, stamp, width, "sample %d: %q", n+1, stamp)
			}
		})
	}
}
