package main

// The check verb: `kstreams-groups check`, a health check in the
// Monitoring Plugins convention (subcommand only). It has its own exit
// codes, the plugin states (checkExitStatuses), documented in its help and
// README section, never in exitStatuses: usage errors and an unreachable
// cluster are UNKNOWN (3) too, so its usage errors exit 3 (verb.usageExit)
// with UNKNOWN on stdout (checkUsageOutput).

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/check"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/watch"
)

// checkExitStatuses are check's exit codes, the plugin states.
var checkExitStatuses = []exitStatus{
	{int(check.OK), false, "OK: every group passed every condition given (with --all-groups, also when there is no streams group)."},
	{int(check.Warning), false, "WARNING: a group is in a state not expected (but not Dead), above --lag-warning, --task-lag-warning or --time-lag-warning, has more tasks moving than --max-moving-tasks, has a committed offset past its partition's log end, or has a stateful task with fewer standbys than --min-standbys or (--require-configured-standbys) than configured."},
	{int(check.Critical), false, "CRITICAL: a group does not exist or is not a streams group, is Dead, reads a source topic that does not exist, has fewer members than --min-members, is above --lag-critical, --task-lag-critical or --time-lag-critical, (--require-topology) has no AVAILABLE topology description, or (--standbys-critical) has a stateful task with fewer standbys than --min-standbys."},
	{int(check.Unknown), false, "UNKNOWN: usage error, cluster unreachable or timed out, not authorized, a time lag that cannot be measured against a --time-lag-* threshold, a broker too old for a condition asked (--require-topology needs Apache Kafka 4.4), or group configs that cannot be read for --require-configured-standbys."},
}

// ownExitHelp is the "Exit status:" block of a verb with codes of its own.
func ownExitHelp(statuses []exitStatus, note string) string {
	var b strings.Builder
	b.WriteString("Exit status:\n")
	for _, s := range statuses {
		fmt.Fprintf(&b, "  %d  %s\n", s.Code, s.Meaning)
	}
	b.WriteString(note)
	return b.String()
}

// checkExits are check's exit codes and the note after them.
var checkExits = &ownExit{checkExitStatuses, "With several groups the worst counts: CRITICAL, then UNKNOWN, then WARNING.\n" +
	"These are check's own codes, the same with --detailed-exit-codes; a --watch\nended by Ctrl-C exits 130."}

// checkConditions are check's conditions, in the order of its help; serve
// takes them too.
var checkConditions = struct {
	expectState                                                   stringOpt
	minMembers, lagWarning, lagCritical, taskLagWarning           parsedOpt[*int64]
	taskLagCritical, maxMovingTasks, minStandbys                  parsedOpt[*int64]
	timeLagWarning, timeLagCritical                               parsedOpt[*time.Duration]
	requireTopology, timeLag, standbysCritical, requireConfigured boolOpt
}{
	expectState: stringOption(flagDef{name: "expect-state",
		help: "The `STATES` that are OK, comma-separated (default Stable); another state is WARNING, Dead is CRITICAL."}),
	minMembers:      checkCount("min-members", "CRITICAL when the group has fewer than `N` members (an Empty group has none)."),
	lagWarning:      checkCount("lag-warning", "WARNING when the group's total lag is above `N` records."),
	lagCritical:     checkCount("lag-critical", "CRITICAL when the group's total lag is above `N` records."),
	taskLagWarning:  checkCount("task-lag-warning", "WARNING when the lag of one task is above `N` records."),
	taskLagCritical: checkCount("task-lag-critical", "CRITICAL when the lag of one task is above `N` records."),
	requireTopology: boolOption(flagDef{name: "require-topology",
		help: "CRITICAL unless the topology description is AVAILABLE (KIP-1331; needs Apache Kafka 4.4)."}),
	maxMovingTasks:  checkCount("max-moving-tasks", "WARNING when more than `N` tasks are moving (their target holders differ from their current ones)."),
	timeLagWarning:  checkDuration("time-lag-warning", "WARNING when the group's time lag (the age of its oldest unprocessed record) is above `D` (90s, 5m, 1h30m, or seconds)."),
	timeLagCritical: checkDuration("time-lag-critical", "CRITICAL when the group's time lag is above `D`."),
	timeLag: boolOption(flagDef{name: "time-lag", on: true,
		help: "Read the records (one Fetch per leader) for the time lag in the performance data, also without a time-lag threshold; --time-lag=false for the offset lag only."}),
	minStandbys:      checkCount("min-standbys", "WARNING when a stateful task has fewer than `N` standbys that count (not on its active's process or host)."),
	standbysCritical: boolOption(flagDef{name: "standbys-critical", help: "Make --min-standbys CRITICAL instead of WARNING."}),
	requireConfigured: boolOption(flagDef{name: "require-configured-standbys",
		help: "WARNING when a stateful task has fewer standbys that count than the group's streams.num.standby.replicas."}),
}

func checkCount(name, help string) parsedOpt[*int64] {
	return parsedOption(flagDef{name: name, help: help}, check.ParseCount)
}

func checkDuration(name, help string) parsedOpt[*time.Duration] {
	return parsedOption(flagDef{name: name, help: help}, check.ParseDuration)
}

// checkConditionFlags is the flag table of checkConditions.
func checkConditionFlags() []flagDef {
	c := checkConditions
	return table(c.expectState, c.minMembers, c.lagWarning, c.lagCritical, c.taskLagWarning, c.taskLagCritical,
		c.requireTopology, c.maxMovingTasks, c.timeLagWarning, c.timeLagCritical, c.timeLag,
		c.minStandbys, c.standbysCritical, c.requireConfigured)
}

func (a *app) checkVerb() *verb {
	verboseFlag := boolOption(flagDef{name: "verbose", short: "v", help: "After the status line, one line per group."})
	flags := slices.Concat(table(groupFlag, allGroupsFlag), checkConditionFlags(),
		table(partitionMetricsFlag, verboseFlag, watchFlag, watchIntervalFlag, watchCountFlag))
	return &verb{
		name:           "check",
		subcommandOnly: true,
		usageExit:      int(check.Unknown),
		usageLine:      a.checkUsageOutput,
		flags:          flags,
		short:          "Health check for monitoring systems (Nagios, Icinga, Sensu, Zabbix, ...)",
		long: `Check streams groups against thresholds and report in the Monitoring
Plugins convention: one status line, STREAMS OK, WARNING, CRITICAL or
UNKNOWN, naming the groups that are not OK and why, then after "|" the
performance data of each group ('G lag'=60;500;1000;0 and max_task_lag,
members, moving_tasks, group_epoch, target_assignment_epoch,
topology_epoch), with the thresholds in the warn and crit fields. -v adds
one line per group.

Each condition is optional. A threshold is crossed when the value is above
it, as the guidelines' range 0:N reads, so a lag equal to --lag-critical is
still OK. Without --expect-state only Stable is OK; an Empty group is a
WARNING then, and CRITICAL only with --min-members. A group that does not
exist is CRITICAL. The lag is the overview's: end offset minus committed
offset of every task's source partitions, repartition topics included;
the records are read too (one Fetch per leader, read_committed; with
--time-lag=false only for a lag threshold), so that transaction markers
and aborted records are no lag. A source topic that does not exist is CRITICAL; a committed offset
past its partition's log end (a truncated or re-created topic) counts as
lag 0 and is a WARNING. --time-lag-warning/--time-lag-critical D judge
the group's time lag, the age of its oldest unprocessed record (as
overview shows it); 'G time_lag' in seconds ends the performance data
unless --time-lag=false. A topic this principal may not READ keeps its
offset lag, with a note on stderr naming the ACL it needs.

--min-standbys N judges the standby coverage of every stateful task (a
sub-topology with a changelog): a standby on the same process or host as
its active does not count (docs/standbys.md); --standbys-critical makes it
CRITICAL. --require-configured-standbys compares it with the group's
effective streams.num.standby.replicas. Either adds the coverage to the
performance data (stateful_tasks, min_task_standbys, standbys_configured,
tasks_below_configured_standbys, colocated_standbys).

-o json|yaml prints the same as a document, -o prometheus as metrics for
node_exporter's textfile collector or a Pushgateway (the exit code is the
check's either way). --watch repeats the check every --interval.

Requests: StreamsGroupDescribe (v1 with the description only for
--require-topology, so a Kafka 4.3 cluster can be checked), OffsetFetch and
ListOffsets, as overview; DescribeConfigs of the GROUP resources for the
standby settings.`,
		printer: checkPrinter(check.Options{}, false),
		own:     checkExits,
		example: `  # Nagios/Icinga: CRITICAL above 10000 records behind, WARNING above 1000
  kstreams-groups check --group orders-app --lag-warning 1000 --lag-critical 10000 --min-members 2

  # Every group Stable, each with its topology description stored
  kstreams-groups check --all-groups --require-topology -v

  # Metrics for node_exporter's textfile collector, written whatever the status
  # (check exits 1 or 2 on WARNING or CRITICAL), then renamed into place
  kstreams-groups check --all-groups -o prometheus > /var/lib/node_exporter/kstreams.prom.$$
  mv /var/lib/node_exporter/kstreams.prom.$$ /var/lib/node_exporter/kstreams.prom`,
		parse: func(v flagValues) job {
			opts, perr := a.checkOptions(v)
			opts.Groups, opts.AllGroups = groupFlag.get(v), allGroupsFlag.get(v)
			verbose := verboseFlag.get(v)
			w, werr := parseWatch(v)
			return job{opts: opts, parseErr: perr, validate: withWatch(opts.Validate, werr), run: func(ctx context.Context) error { return a.check(ctx, opts, verbose, w) }}
		},
	}
}

// checkOptions reads check's conditions (and --partition-metrics), which
// serve takes too; the error is the first bad value.
func (a *app) checkOptions(v flagValues) (check.Options, error) {
	c := checkConditions
	opts := check.Options{RequireTopology: c.requireTopology.get(v),
		Now: func() time.Time { return a.clock().Now() }}
	var first error
	keep := func(err error) {
		if first == nil {
			first = err
		}
	}
	if s := c.expectState.given(v); s != nil {
		states, err := check.ParseStates(*s)
		keep(err)
		opts.ExpectStates = states
	}
	for _, n := range []struct {
		opt parsedOpt[*int64]
		to  **int64
	}{
		{c.minMembers, &opts.MinMembers}, {c.lagWarning, &opts.LagWarning}, {c.lagCritical, &opts.LagCritical},
		{c.taskLagWarning, &opts.TaskLagWarning}, {c.taskLagCritical, &opts.TaskLagCritical}, {c.maxMovingTasks, &opts.MaxMovingTasks},
		{c.minStandbys, &opts.MinStandbys},
	} {
		if count, given, err := n.opt.value(v); given {
			keep(err)
			*n.to = count
		}
	}
	for _, d := range []struct {
		opt parsedOpt[*time.Duration]
		to  **time.Duration
	}{{c.timeLagWarning, &opts.TimeLagWarning}, {c.timeLagCritical, &opts.TimeLagCritical}} {
		if dur, given, err := d.opt.value(v); given {
			keep(err)
			*d.to = dur
		}
	}
	opts.StandbysCritical, opts.RequireConfiguredStandbys = c.standbysCritical.get(v), c.requireConfigured.get(v)
	opts.TimeLag = c.timeLag.get(v)
	opts.PartitionMetrics = partitionMetricsFlag.get(v)
	return opts, first
}

// check runs the check verb: one check, or a watch of it. A check that
// could not run is UNKNOWN, printed as any result.
func (a *app) check(ctx context.Context, opts check.Options, verbose bool, w watchOptions) error {
	p := checkPrinter(opts, verbose)
	run := func(ctx context.Context, c client) (*check.Result, error) { return check.Run(ctx, c, opts) }
	if w.on {
		return watchVerb(a, ctx, w, p, run, watch.FromCheck)
	}
	return runVerb(a, ctx, p, run)
}

// checkPrinter prints a check: its text (--verbose), document and metrics.
// A check that could not run is UNKNOWN, printed as any result.
func checkPrinter(opts check.Options, verbose bool) printer[*check.Result] {
	return printer[*check.Result]{
		text: func(w io.Writer, res *check.Result, _ *format.Styles) error { return format.CheckText(w, res, verbose) },
		doc:  func(res *check.Result) any { return format.NewCheckDoc(res) },
		more: metrics(func(w io.Writer, res *check.Result) error {
			return format.CheckPrometheusWith(w, res, format.PrometheusOptions{PartitionTimeLag: res.Options.PartitionMetrics})
		}, nil),
		failed:  func(err error) (*check.Result, error) { return check.Failed(err, opts), nil },
		outcome: func(res *check.Result, _ []error) error { return checkOutcome(res) },
		notes:   func(res *check.Result) []string { return format.TimeLagDeniedNotes(res.DeniedTopics()) },
	}
}

// checkUsageOutput is what a check that could not start prints on stdout:
// UNKNOWN in the -o format once it is known (a textfile collector must not
// read a status line), else the status line.
func (a *app) checkUsageOutput(err error) string {
	res := check.Failed(&usageError{err: err}, check.Options{})
	var b strings.Builder
	// Every format of the check's printer but text, which is the line.
	if write, ok := checkPrinter(check.Options{}, false).writer(a.cfg.Output); ok {
		if write(&b, res) == nil {
			return strings.TrimSuffix(b.String(), "\n")
		}
	}
	return format.CheckUsageLine(err)
}

// checkOutcome is the exit of a check: its status as the plugin code.
func checkOutcome(res *check.Result) error {
	if res.Status == check.OK {
		return nil
	}
	return &verbExit{code: int(res.Status)}
}
