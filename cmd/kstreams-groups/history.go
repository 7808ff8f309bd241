package main

// The history verb: `kstreams-groups history --group G`, the group's
// rebalances read back from the coordinator's records in
// __consumer_offsets (issue 34). Its exit codes are its own
// (historyExitStatuses): a script asks it "could the history be read?".

import (
	"context"
	"errors"
	"io"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/history"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/watch"
)

// history's exit codes.
const (
	historyRead       = 0
	historyUnreadable = 3
)

var historyExitStatuses = []exitStatus{
	{historyRead, false, "The history was read: to the end of the log, or to the byte budget (--max-bytes; a note says so)."},
	{exitUsage, false, "Usage error."},
	{historyUnreadable, false, "The history could not be read (or not to the end): no DESCRIBE and READ ACLs on topic __consumer_offsets (TOPIC_AUTHORIZATION_FAILED), cluster unreachable or timed out (the reason is on stderr)."},
}

func (a *app) historyVerb() *verb {
	since := parsedOption(flagDef{name: "since",
		help: "Show the rebalances from `D|TIME` on: a duration ago (2h, 30m) or a time (2026-12-06T03:12:00Z)."}, history.ParseSince)
	until := parsedOption(flagDef{name: "until",
		help: "Show the rebalances up to `TIME` (2026-12-06T04:00:00Z)."}, history.ParseTime)
	maxBytes := parsedOption(flagDef{name: "max-bytes",
		help: "Read at most `SIZE` of the partition (256MB by default; 64KB, 1GB, or bytes); a note says when it stopped the read."}, history.ParseSize)
	return &verb{
		name:           "history",
		subcommandOnly: true,
		flags:          table(groupFlag.withHelp("The streams group whose history to read."), since, until, maxBytes, watchFlag, watchIntervalFlag, watchCountFlag),
		own:            &ownExit{historyExitStatuses, "These are history's own codes, the same with --detailed-exit-codes."},
		short:          "Why did the group rebalance? Its past, from the coordinator's own records",
		long: `Show a streams group's rebalances, oldest first, read back from the records
the group coordinator wrote to __consumer_offsets: the partition that holds
the group (as Kafka computes it from the group id), from the earliest offset
still in the log, with one Fetch at a time; it never joins a group and
never commits. Each new group epoch is one entry: its time, the epochs,
its causes (member-joined, member-removed, member-rejoined for a static
member back with a new member id, member-changed, topology-changed,
partitions-changed, configs-changed with the keys' old and new values),
each naming the member (process, host, client id, instance id) or the
keys; what the target assignment moved (tasks whose active owner changed,
from which process to which, standbys placed or lost, warm-ups started);
and how long the members took to reach it, when their records show it.

__consumer_offsets is compacted: the history is complete from the first
record after the last hole in its offsets, and the output says from when;
nothing before is made up. The read needs the DESCRIBE and READ ACLs on
topic __consumer_offsets; without them history says so in one line and
exits 3. Records of a type or version this tool does not know are skipped
and counted. --max-bytes bounds what one run reads; memory does not grow
with the partition. --watch follows the log: each sample reads only what
was written since.`,
		printer: a.historyPrinter(),
		example: `  # Why did my-app rebalance last night?
  kstreams-groups history --group my-app --since 12h

  # The rebalances between two times, as JSON
  kstreams-groups history --group my-app --since 2026-12-06T03:00:00Z --until 2026-12-06T04:00:00Z -o json`,
		parse: func(v flagValues) job {
			var errs []error
			opts := history.Options{MaxBytes: history.DefaultMaxBytes}
			if gs := groupFlag.get(v); len(gs) == 1 {
				opts.Group = gs[0]
			} else if len(gs) > 1 {
				errs = append(errs, errors.New("history reads one group: give --group once"))
			}
			s, sinceGiven, err := since.value(v)
			errs = append(errs, err)
			if sinceGiven {
				opts.Since = s.From(a.clock().Now())
			}
			opts.Until, _, err = until.value(v)
			errs = append(errs, err)
			if n, given, err := maxBytes.value(v); given {
				opts.MaxBytes = n
				errs = append(errs, err)
			}
			w, werr := parseWatch(v)
			return job{opts: opts, parseErr: errors.Join(errs...), validate: withWatch(opts.Validate, werr), run: func(ctx context.Context) error { return a.history(ctx, opts, w) }}
		},
	}
}

// historyPrinter prints history's result.
func (a *app) historyPrinter() printer[*history.Result] {
	return printer[*history.Result]{
		text: func(w io.Writer, res *history.Result, st *format.Styles) error { return format.HistoryText(w, res, st) },
		doc:  func(res *history.Result) any { return format.NewGroupHistoryDoc(res) },
		line: func(_ *history.Result, f kafka.Failure, _ format.Output) string {
			return a.groupErrorLine(f.Group, f.Err) + format.HistoryHint(f.Err)
		},
		failed: func(err error) (*history.Result, error) { return nil, &verbExit{code: historyUnreadable, err: err} },
		outcome: func(_ *history.Result, failures []error) error {
			if len(failures) > 0 {
				return &verbExit{code: historyUnreadable}
			}
			return nil
		},
	}
}

// history runs the history verb, once or (--watch) every interval, the
// reader keeping the timeline between samples.
func (a *app) history(ctx context.Context, opts history.Options, w watchOptions) error {
	p := a.historyPrinter()
	r := history.NewReader(opts)
	run := func(ctx context.Context, c client) (*history.Result, error) { return r.Read(ctx, c) }
	if w.on {
		return watchVerb(a, ctx, w, p, run, func(*history.Result) watch.Snapshot { return watch.Snapshot{} })
	}
	return runVerb(a, ctx, p, run)
}
