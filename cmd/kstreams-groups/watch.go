package main

// --watch for describe (every view), overview and check: one sample every
// --interval (default 2 s) over one client, each sample bounded by
// --timeout, until Ctrl-C (or --count samples). A sample that fails is
// shown and the watch goes on.
//
// On a terminal each sample redraws the screen in place: the cursor is
// hidden while watching and shown again at the end (the only terminal
// state the watch changes; it never switches the terminal to raw mode, so
// Ctrl-C is the terminal's own SIGINT). The frame is a header line, the
// changes since the last sample (package watch) in the warning color, and
// the view with every line that changed marked "> " in the gutter. In a
// pipe each sample is a block: a timestamp line, the changes as
// "changed: ..." lines, the view, and a blank line; never an escape
// sequence. A watch ended by a signal exits 130 (SIGINT) or 143 (SIGTERM);
// after --count samples the watch exits as its last sample would have
// alone. Time comes from deps.clock so that tests need not sleep.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/watch"
)

// The options of --watch, shared by the verbs that watch.
var (
	watchFlag = boolOption(flagDef{name: "watch", availableIf: []string{"describe"},
		kafkaHelp: watchHelp, help: watchHelp})
	watchIntervalFlag = durationOption(flagDef{name: "interval", availableIf: []string{"describe"},
		kafkaHelp: intervalHelp, help: intervalHelp},
		minInterval, "--interval: want a duration of at least "+minInterval.String()+", such as 2s or 500ms, got %q")
	watchCountFlag = intOption(flagDef{name: "count", availableIf: []string{"describe"},
		kafkaHelp: countHelp, help: countHelp},
		1, "--count: want a number of samples, 1 or more, got %q")
)

const (
	watchHelp    = "Look again every --interval until Ctrl-C: on a terminal the view is redrawn in place with what changed marked; in a pipe each sample is a block after a timestamp line (text output only)."
	intervalHelp = "With --watch, the time `D` between samples, such as 2s (the default), 500ms or 1m; at least 100ms."
	countHelp    = "With --watch, stop after `N` samples and exit as the last one would (default: until Ctrl-C)."
)

// defaultInterval and minInterval bound --interval.
const (
	defaultInterval = 2 * time.Second
	minInterval     = 100 * time.Millisecond
)

// watchOptions are the parsed --watch options.
type watchOptions struct {
	on       bool
	interval time.Duration
	count    int
}

// parseWatch reads the --watch options of v; the error is a usage error's.
func parseWatch(v flagValues) (watchOptions, error) {
	w := watchOptions{on: watchFlag.get(v)}
	for _, o := range []declared{watchIntervalFlag, watchCountFlag} {
		if o.def().set(v) && !w.on {
			return w, fmt.Errorf("--%s needs --watch", o.def().name)
		}
	}
	var err error
	if w.interval, err = watchIntervalFlag.or(v, defaultInterval); err != nil {
		return w, err
	}
	w.count, _, err = watchCountFlag.value(v)
	return w, err
}

// withWatch runs validate, then the --watch checks (werr, from parseWatch).
func withWatch(validate func() error, werr error) func() error {
	return func() error {
		if validate != nil {
			if err := validate(); err != nil {
				return err
			}
		}
		return werr
	}
}

// clock is where a watch takes its time from.
type clock interface {
	Now() time.Time
	// After fires once d has passed.
	After(d time.Duration) <-chan time.Time
}

type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// processClock is the clock of a command given none (deps.clock): the
// real one, except in the test binary run as the CLI, whose TestMain fixes
// its Now so that the time lags the docs show are the same every run.
var processClock clock = realClock{}

func (a *app) clock() clock {
	if a.deps.clock != nil {
		return a.deps.clock
	}
	return processClock
}

// sample is one look at the cluster.
type sample struct {
	// body is the view's text (colored on a terminal); lines are the error
	// lines of the sample, after it.
	body  []byte
	lines []string
	// snap is what the next sample is compared with; nil when the sample
	// failed as a whole.
	snap *watch.Snapshot
	// outcome is what the command would exit with after this sample alone.
	outcome error
}

// watchVerb watches a verb that prints with a printer: each sample is the
// text view and its failures' lines.
func watchVerb[R verbResult](a *app, ctx context.Context, w watchOptions, p printer[R], run func(ctx context.Context, c client) (R, error), snap func(R) watch.Snapshot) error {
	return a.watchLoop(ctx, w, func(ctx context.Context, c client, st *format.Styles) sample {
		res, err := run(ctx, c)
		failed := err != nil
		if failed && p.failed != nil {
			// A verb whose failed run is a result (check's UNKNOWN) shows
			// it as a sample without a snapshot.
			res, err = p.failed(err)
		}
		if err != nil {
			return sample{lines: []string{st.ErrorLabel() + " sample failed: " + a.errorText(err)}, outcome: err}
		}
		var b bytes.Buffer
		if err := p.text(&b, res, st); err != nil {
			return sample{lines: []string{st.ErrorLabel() + " " + a.errorText(err)}, outcome: err}
		}
		out := sample{body: b.Bytes()}
		if !failed {
			s := snap(res)
			out.snap = &s
		}
		lines, notes, outcome := p.report(res, format.Text)
		for _, l := range lines {
			out.lines = append(out.lines, st.ErrorLabel()+" "+l)
		}
		out.lines, out.outcome = append(out.lines, notes...), outcome
		return out
	})
}

// watchLoop takes a sample every interval over one client and draws it,
// until ctx ends (a signal) or w.count samples were taken.
func (a *app) watchLoop(ctx context.Context, w watchOptions, take func(ctx context.Context, c client, st *format.Styles) sample) error {
	if a.cfg.Output != format.Text {
		return usageErrorf("--watch prints text, not -o %s", a.cfg.Output)
	}
	c, err := a.newAdmin(ctx, a.defaultTarget())
	if err != nil {
		return err
	}
	defer c.Close()
	d := &drawer{term: a.isTerminal(a.io.Out), interval: w.interval}
	d.st = a.outStyles() // may wrap a.io.Out for a Windows console: after isTerminal
	d.w = a.io.Out
	d.begin()
	defer d.end()
	clk := a.clock()
	var prev *watch.Snapshot
	for n := 1; ; n++ {
		started := clk.Now()
		sctx, cancel := context.WithTimeout(ctx, a.cfg.Timeout)
		stop := a.showWaiting(c)
		s := take(sctx, c, d.st)
		stop()
		cancel()
		if ctx.Err() != nil {
			return plannedEnd(ctx)
		}
		var changes []watch.Change
		var rates []watch.Rate
		if s.snap != nil {
			s.snap.At = started
			if prev != nil {
				changes, rates = watch.Changes(*prev, *s.snap), watch.Rates(*prev, *s.snap)
			}
			prev = s.snap
		}
		if err := d.frame(started, n, changes, rates, s); err != nil {
			return err
		}
		if w.count > 0 && n >= w.count {
			return s.outcome
		}
		select {
		case <-ctx.Done():
			return plannedEnd(ctx)
		case <-clk.After(started.Add(w.interval).Sub(clk.Now())):
		}
	}
}

// Terminal control sequences of a redraw.
const (
	hideCursor = "\x1b[?25l"
	showCursor = "\x1b[?25h"
	clearAll   = "\x1b[H\x1b[2J"
	home       = "\x1b[H"
	clearLine  = "\x1b[K"
	clearBelow = "\x1b[J"
)

var sgr = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("\x1b\\[[0-9;]*m") })

// drawer draws the samples of a watch on w.
type drawer struct {
	w        io.Writer
	st       *format.Styles
	term     bool
	interval time.Duration
	// last are the plain lines of the previous view, for the gutter marks.
	last map[string]int
}

func (d *drawer) begin() {
	if d.term {
		_, _ = io.WriteString(d.w, hideCursor+clearAll)
	}
}

// end gives the terminal its cursor back, whatever ended the watch: past
// the writer a signal closed (ctxWriter), since the terminal must be
// restored after Ctrl-C too.
func (d *drawer) end() {
	if d.term {
		w := d.w
		if cw, ok := w.(ctxWriter); ok {
			w = cw.w
		}
		_, _ = io.WriteString(w, showCursor)
	}
}

func (d *drawer) frame(at time.Time, n int, changes []watch.Change, rates []watch.Rate, s sample) error {
	var lines []string
	// Whole seconds for an interval of whole seconds, else milliseconds,
	// always three digits: the timestamp keeps its width from one sample
	// to the next (RFC3339Nano trimmed trailing zeros).
	step, layout := time.Millisecond, "2006-01-02T15:04:05.000Z07:00"
	if d.interval%time.Second == 0 {
		step, layout = time.Second, time.RFC3339
	}
	header := fmt.Sprintf("Every %s: %s, sample %d", d.interval, at.Truncate(step).Format(layout), n)
	if d.term {
		header += " (Ctrl-C to stop)"
	}
	lines = append(lines, d.st.Paint(d.st.Header, header))
	for _, c := range changes {
		lines = append(lines, d.st.Paint(d.st.Warning, "changed: "+format.Escape(c.String())))
	}
	// The pace since the last sample (overview --watch --time-lag).
	for _, r := range rates {
		lines = append(lines, "rate: "+format.Escape(r.Group+": "+r.String()))
	}
	body := strings.Split(strings.TrimRight(string(s.body), "\n"), "\n")
	if len(s.body) == 0 {
		body = nil
	}
	seen := map[string]int{}
	for _, l := range body {
		plain := sgr().ReplaceAllString(l, "")
		seen[plain]++
		if !d.term {
			lines = append(lines, l)
			continue
		}
		mark := "  "
		if d.last != nil && seen[plain] > d.last[plain] {
			mark = d.st.Paint(d.st.Warning, "> ")
		}
		lines = append(lines, mark+l)
	}
	if len(body) > 0 || d.last == nil {
		d.last = seen
	}
	lines = append(lines, s.lines...)
	var b strings.Builder
	if d.term {
		b.WriteString(home)
		for _, l := range lines {
			b.WriteString(l + clearLine + "\n")
		}
		b.WriteString(clearBelow)
	} else {
		for _, l := range lines {
			b.WriteString(l + "\n")
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(d.w, b.String())
	return err
}
