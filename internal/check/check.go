package check

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// Status is a Monitoring Plugins service state; its value is the plugin's
// exit code.
type Status int

// The plugin states.
const (
	OK       Status = 0
	Warning  Status = 1
	Critical Status = 2
	Unknown  Status = 3
)

func (s Status) String() string {
	switch s {
	case OK:
		return "OK"
	case Warning:
		return "WARNING"
	case Critical:
		return "CRITICAL"
	}
	return "UNKNOWN"
}

// severity orders the states for "the worst of": OK < WARNING < UNKNOWN <
// CRITICAL, as Icinga ranks them. A group found CRITICAL outranks one that
// could not be checked; a group that could not be checked outranks a
// WARNING, since it may be worse.
func (s Status) severity() int {
	switch s {
	case OK:
		return 0
	case Warning:
		return 1
	case Unknown:
		return 2
	}
	return 3
}

// Worst returns the more severe of a and b.
func Worst(a, b Status) Status {
	if b.severity() > a.severity() {
		return b
	}
	return a
}

// Options select the groups and the conditions. A nil threshold is a
// condition not given.
type Options struct {
	// Groups are checked in this order; AllGroups lists them instead.
	Groups    []string
	AllGroups bool
	// ExpectStates are the states that are OK; nil means Stable. Another
	// state is WARNING, Dead is CRITICAL.
	ExpectStates []kafka.State
	// MinMembers: fewer members is CRITICAL (an Empty group has none).
	MinMembers *int64
	// LagWarning and LagCritical bound the group's total lag,
	// TaskLagWarning and TaskLagCritical its largest task lag: a value
	// above the threshold crosses it, one equal to it does not.
	LagWarning, LagCritical         *int64
	TaskLagWarning, TaskLagCritical *int64
	// RequireTopology: a topology description that is not AVAILABLE is
	// CRITICAL. Only then is the description asked for (it needs Apache
	// Kafka 4.4; the other conditions work with 4.3).
	RequireTopology bool
	// Describe asks for the description without judging it (serve: the
	// page draws the topology); it needs Apache Kafka 4.4 as
	// RequireTopology does.
	Describe bool
	// MaxMovingTasks: more tasks whose target holders differ from their
	// current ones is WARNING.
	MaxMovingTasks *int64
	// TimeLagWarning and TimeLagCritical bound the group's time lag (its
	// largest, overview.TimeLag). TimeLag reads the records (one Fetch per
	// leader) without a time-lag threshold, for the performance data.
	// Whenever the records are read, the lag conditions judge the record
	// lag (markers and aborted records left out) instead of the offset lag.
	TimeLagWarning, TimeLagCritical *time.Duration
	TimeLag                         bool
	// Now is the clock of the time lag (time.Now when nil).
	Now func() time.Time
	// PartitionMetrics asks -o prometheus for a time-lag series per
	// source partition (the command line's; Run does not read it).
	PartitionMetrics bool
	// MinStandbys: a stateful task with fewer standbys that count (not on
	// its active's process or host, overview's coverage) is WARNING, or
	// CRITICAL with StandbysCritical.
	MinStandbys      *int64
	StandbysCritical bool
	// RequireConfiguredStandbys: a stateful task with fewer standbys that
	// count than the group's streams.num.standby.replicas is WARNING.
	RequireConfiguredStandbys bool
}

// ChecksStandbys tells whether a standby condition was given: the
// performance data then shows the coverage.
func (o Options) ChecksStandbys() bool { return o.MinStandbys != nil || o.RequireConfiguredStandbys }

// ShowsTimeLag tells whether the time lag was asked for (a time-lag
// threshold or TimeLag): the performance data and documents show it then.
// A lag threshold alone reads the records for the record lag only.
func (o Options) ShowsTimeLag() bool {
	return o.TimeLag || o.TimeLagWarning != nil || o.TimeLagCritical != nil
}

// measured tells whether the check reads records: a time-lag threshold, a
// lag threshold (so that markers and aborted records are no lag) or
// TimeLag.
func (o Options) measured() bool {
	return o.ShowsTimeLag() || o.LagWarning != nil || o.LagCritical != nil || o.TaskLagWarning != nil || o.TaskLagCritical != nil
}

// The conditions, named as their options.
const (
	CondGroup           = "group"
	CondExpectState     = "expect-state"
	CondMinMembers      = "min-members"
	CondLagWarning      = "lag-warning"
	CondLagCritical     = "lag-critical"
	CondTaskLagWarning  = "task-lag-warning"
	CondTaskLagCritical = "task-lag-critical"
	CondRequireTopology = "require-topology"
	CondMaxMovingTasks  = "max-moving-tasks"
	// CondSourceTopic (CRITICAL) and CondCommittedOffset (WARNING) are
	// checked always, as a group that does not exist is: a source topic
	// that does not exist, and a committed offset past its partition's log
	// end, whose lag is unknown and counted as 0.
	CondSourceTopic     = "source-topic"
	CondCommittedOffset = "committed-offset"
	CondTimeLagWarning  = "time-lag-warning"
	CondTimeLagCritical = "time-lag-critical"
	// CondTimeLag is a time-lag threshold that could not be judged.
	CondTimeLag = "time-lag"
	// CondMinStandbys and CondConfiguredStandbys are the standby
	// conditions.
	CondMinStandbys        = "min-standbys"
	CondConfiguredStandbys = "require-configured-standbys"
)

// maxNamed is how many partitions a problem names before "and N more".
const maxNamed = 3

// ParseStates reads --expect-state: comma-separated state names, matched
// case-insensitively.
func ParseStates(s string) ([]kafka.State, error) {
	var out []kafka.State
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		st, ok := kafka.ParseState(part)
		if !ok {
			return nil, fmt.Errorf("--expect-state: unknown state %q (want a comma-separated list of %s)", part, strings.Join(kafka.StateNames(), ", "))
		}
		if !slices.Contains(out, st) {
			out = append(out, st)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("--expect-state needs at least one state (" + strings.Join(kafka.StateNames(), ", ") + ")")
	}
	return out, nil
}

// ParseCount reads the value of a threshold option: a whole number, 0 or
// more.
func ParseCount(option, s string) (*int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n < 0 {
		return nil, fmt.Errorf("--%s: want a whole number, 0 or more, got %q", option, s)
	}
	return &n, nil
}

// ParseDuration reads a time-lag threshold: a Go duration (90s, 5m,
// 1h30m) or a whole number of seconds, 0 or more.
func ParseDuration(option, s string) (*time.Duration, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && n >= 0 && n <= int64(math.MaxInt64/time.Second) {
		d := time.Duration(n) * time.Second
		return &d, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return nil, fmt.Errorf("--%s: want a duration such as 90s, 5m or 1h30m (or whole seconds), 0 or more, got %q", option, s)
	}
	return &d, nil
}

// Validate checks the options before any I/O.
func (o Options) Validate() error {
	if !o.AllGroups && len(o.Groups) == 0 {
		return errors.New("check needs --group (repeatable) or --all-groups")
	}
	for _, p := range []struct {
		warn, crit *int64
		name       string
	}{{o.LagWarning, o.LagCritical, "lag"}, {o.TaskLagWarning, o.TaskLagCritical, "task-lag"}} {
		if p.warn != nil && p.crit != nil && *p.warn > *p.crit {
			return fmt.Errorf("--%s-warning %d is above --%s-critical %d: the warning threshold must not exceed the critical one", p.name, *p.warn, p.name, *p.crit)
		}
	}
	if w, c := o.TimeLagWarning, o.TimeLagCritical; w != nil && c != nil && *w > *c {
		return fmt.Errorf("--time-lag-warning %s is above --time-lag-critical %s: the warning threshold must not exceed the critical one", w, c)
	}
	if o.StandbysCritical && o.MinStandbys == nil {
		return errors.New("--standbys-critical needs --min-standbys N")
	}
	return nil
}

// expected is the states that are OK.
func (o Options) expected() []kafka.State {
	if o.ExpectStates == nil {
		return []kafka.State{kafka.StateStable}
	}
	return o.ExpectStates
}

// Client is what Run needs from the admin client: the overview's.
type Client interface {
	overview.Client
}

// Result is the check of every requested group, in request order.
type Result struct {
	Groups []*Group
	// Status is the worst of the groups' (OK when there is none), or
	// UNKNOWN when Err is set.
	Status Status
	// Err is a failure of the whole check (the groups could not be
	// listed, the cluster not reached); Groups is then empty.
	Err error
	// Options are the conditions checked, for the thresholds of the
	// performance data.
	Options Options
}

// DeniedTopics are the topics whose records the principal may not read
// (overview.DeniedTopics): their time lag is unknown, which changes the
// status only against a time-lag threshold.
func (r *Result) DeniedTopics() []string {
	groups := make([]*overview.Group, 0, len(r.Groups))
	for _, g := range r.Groups {
		groups = append(groups, g.Overview)
	}
	return overview.DeniedTopics(groups)
}

// Failures lists the groups that could not be checked (missing ones
// included), in request order; the check's status already counts them.
func (r *Result) Failures() []kafka.Failure {
	return kafka.Failures(r.Groups, func(g *Group) (string, error) { return g.ID(), g.Overview.Err })
}

// Group is the check of one group.
type Group struct {
	// Overview is the group's join; its Err is set when the group could
	// not be checked (then only Group and Coordinator are known).
	Overview *overview.Group
	Status   Status
	// Problems are the conditions the group crossed: those checked always
	// (CondSourceTopic, CondCommittedOffset) first, then in option order.
	Problems []Problem
	// MovingTasks counts the tasks being moved; MaxTaskLag is the largest
	// task lag (0 without tasks).
	MovingTasks int64
	MaxTaskLag  int64
	// Lag is the lag judged: the record lag when the records were read,
	// else the offset lag (Overview.Lag); LargestTask is the task of
	// MaxTaskLag, judged the same way (nil without tasks).
	Lag         int64
	LargestTask *overview.Task
}

// ID is the group's id.
func (g *Group) ID() string { return g.Overview.Group }

// Problem is one condition a group crossed.
type Problem struct {
	// Condition is the option that found it (CondLagCritical, ...), or
	// CondGroup for a group that does not exist or could not be checked.
	Condition string
	Status    Status
	// Message says what was found against what was expected; it holds
	// broker strings (states, error messages) unescaped.
	Message string
}

// Failed is the result of a check that could not run at all: UNKNOWN.
func Failed(err error, opts Options) *Result {
	return &Result{Status: Unknown, Err: err, Options: opts}
}

// Run checks the groups of opts, which passed Validate. The returned error
// is a failure of the whole check (listing the groups); a group that
// cannot be checked is UNKNOWN (CRITICAL when it does not exist).
func Run(ctx context.Context, client Client, opts Options) (*Result, error) {
	ov, err := overview.Run(ctx, client, overview.Options{Groups: opts.Groups, AllGroups: opts.AllGroups, WithoutDescription: !opts.RequireTopology && !opts.Describe,
		TimeLag: opts.measured(), Now: opts.Now})
	if err != nil {
		return nil, err
	}
	res := &Result{Status: OK, Options: opts}
	for _, g := range ov.Groups {
		cg := Evaluate(g, opts)
		res.Groups = append(res.Groups, cg)
		res.Status = Worst(res.Status, cg.Status)
	}
	return res, nil
}

// aheadMessage names the partitions committed past their log end, up to
// maxNamed of them.
func aheadMessage(ahead []overview.PartitionLag) string {
	var named []string
	for _, p := range ahead[:min(len(ahead), maxNamed)] {
		named = append(named, fmt.Sprintf("%s-%d at %d > %d", p.Topic, p.Partition, *p.Committed, p.LogEnd))
	}
	more := ""
	if len(ahead) > maxNamed {
		more = fmt.Sprintf(" and %d more", len(ahead)-maxNamed)
	}
	return fmt.Sprintf("%s committed past the log end (lag counted as 0): %s%s",
		plural(int64(len(ahead)), "partition"), strings.Join(named, ", "), more)
}

// Evaluate holds one group's overview against the conditions of opts.
func Evaluate(g *overview.Group, opts Options) *Group {
	out := &Group{Overview: g, Status: OK}
	add := func(cond string, s Status, format string, args ...any) {
		out.Problems = append(out.Problems, Problem{Condition: cond, Status: s, Message: fmt.Sprintf(format, args...)})
		out.Status = Worst(out.Status, s)
	}
	if g.Err != nil {
		switch {
		case errors.Is(g.Err, kafka.ErrGroupNotFound):
			add(CondGroup, Critical, "%s", g.Err)
		case errors.Is(g.Err, kafka.ErrBrokerTooOld) && opts.RequireTopology:
			add(CondRequireTopology, Unknown, "--require-topology cannot be checked: %s", g.Err)
		default:
			add(CondGroup, Unknown, "cannot be checked: %s", g.Err)
		}
		return out
	}
	out.MovingTasks = g.MovingTasks()
	lag, largest := g.Lag, g.Largest
	if g.Time.Measured {
		// The record lag: what is left to process.
		lag, largest = g.Time.Records, largestRecords(g)
	}
	taskLag := func(t *overview.Task) int64 {
		if t.Time.Measured {
			return t.Time.Records
		}
		return t.Lag
	}
	if largest != nil {
		out.MaxTaskLag = taskLag(largest)
	}
	out.Lag, out.LargestTask = lag, largest
	if missing := g.MissingTopics(); len(missing) == 1 {
		add(CondSourceTopic, Critical, "source topic %s does not exist", missing[0])
	} else if len(missing) > 1 {
		add(CondSourceTopic, Critical, "source topics %s do not exist", strings.Join(missing, ", "))
	}
	if ahead := g.AheadPartitions(); len(ahead) > 0 {
		add(CondCommittedOffset, Warning, "%s", aheadMessage(ahead))
	}

	expected := opts.expected()
	switch state := g.State; {
	case slices.ContainsFunc(expected, func(s kafka.State) bool { return s.Is(state) }):
	case kafka.StateDead.Is(state):
		add(CondExpectState, Critical, "state %s, expected %s", state, joinStates(expected))
	default:
		add(CondExpectState, Warning, "state %s, expected %s", state, joinStates(expected))
	}
	if n := int64(len(g.Members)); opts.MinMembers != nil && n < *opts.MinMembers {
		add(CondMinMembers, Critical, "%s, at least %d expected", plural(n, "member"), *opts.MinMembers)
	}
	switch {
	case above(lag, opts.LagCritical):
		add(CondLagCritical, Critical, "lag %d > %d", lag, *opts.LagCritical)
	case above(lag, opts.LagWarning):
		add(CondLagWarning, Warning, "lag %d > %d", lag, *opts.LagWarning)
	}
	if largest != nil {
		switch t := largest; {
		case above(taskLag(t), opts.TaskLagCritical):
			add(CondTaskLagCritical, Critical, "task %s lag %d > %d", t, taskLag(t), *opts.TaskLagCritical)
		case above(taskLag(t), opts.TaskLagWarning):
			add(CondTaskLagWarning, Warning, "task %s lag %d > %d", t, taskLag(t), *opts.TaskLagWarning)
		}
	}
	if tl := g.Time; tl.Measured && (opts.TimeLagWarning != nil || opts.TimeLagCritical != nil) {
		// A time lag not wholly known still crosses a threshold its known
		// part crosses; else it cannot be judged.
		switch {
		case above(tl.Lag, opts.TimeLagCritical):
			add(CondTimeLagCritical, Critical, "time lag %s > %s", roundD(tl.Lag), opts.TimeLagCritical)
		case !tl.Known && tl.Err != nil:
			add(CondTimeLag, Unknown, "time lag cannot be measured: %s", tl.Err)
		case !tl.Known:
			add(CondTimeLag, Unknown, "time lag cannot be measured (%s of it known)", roundD(tl.Lag))
		case above(tl.Lag, opts.TimeLagWarning):
			add(CondTimeLagWarning, Warning, "time lag %s > %s", roundD(tl.Lag), opts.TimeLagWarning)
		}
	}
	if opts.RequireTopology && g.DescriptionStatus != topology.Available {
		add(CondRequireTopology, Critical, "topology description %s", g.DescriptionStatus)
	}
	if above(out.MovingTasks, opts.MaxMovingTasks) {
		add(CondMaxMovingTasks, Warning, "%s moving > %d", plural(out.MovingTasks, "task"), *opts.MaxMovingTasks)
	}
	evaluateStandbys(g, opts, add)
	return out
}

// evaluateStandbys holds the group's standby coverage against
// --min-standbys and --require-configured-standbys.
func evaluateStandbys(g *overview.Group, opts Options, add func(cond string, s Status, format string, args ...any)) {
	c := g.Coverage
	if c == nil || len(c.Tasks) == 0 {
		return // no stateful task: nothing to fail over
	}
	if n := opts.MinStandbys; n != nil {
		if below := c.Below(*n); len(below) > 0 {
			s := Warning
			if opts.StandbysCritical {
				s = Critical
			}
			add(CondMinStandbys, s, "%d of %s with fewer than %s: %s", len(below), plural(int64(len(c.Tasks)), "stateful task"),
				plural(*n, "standby"), shortTasks(c, below))
		}
	}
	if opts.RequireConfiguredStandbys {
		switch {
		case !c.ConfiguredKnown:
			why := "the group configs were not read"
			if g.Settings != nil && g.Settings.Err != nil {
				why = g.Settings.Err.Error()
			} else if g.Settings != nil {
				why = "the broker does not report " + overview.ConfigStandbys
			}
			add(CondConfiguredStandbys, Unknown, "--require-configured-standbys cannot be checked: %s", why)
		case len(c.Short()) > 0:
			short := c.Short()
			add(CondConfiguredStandbys, Warning, "%d of %s with fewer than the %s configured: %s", len(short), plural(int64(len(c.Tasks)), "stateful task"),
				plural(c.Configured, "standby"), shortTasks(c, short))
		}
	}
}

// shortTasks names up to maxNamed tasks with their counted standbys, and
// why they have fewer than configured, when known.
func shortTasks(c *overview.Coverage, tasks []*overview.TaskCoverage) string {
	var named []string
	for _, tc := range tasks[:min(len(tasks), maxNamed)] {
		s := fmt.Sprintf("%s has %d", tc.Task, tc.Counted)
		if n := tc.Colocated(); n > 0 {
			s += fmt.Sprintf(" (%d co-located)", n)
		}
		named = append(named, s)
	}
	out := strings.Join(named, ", ")
	if len(tasks) > maxNamed {
		out += fmt.Sprintf(" and %d more", len(tasks)-maxNamed)
	}
	var reasons []string
	for _, tc := range tasks {
		if tc.Reason != "" && !slices.Contains(reasons, c.ReasonText(tc.Reason)) {
			reasons = append(reasons, c.ReasonText(tc.Reason))
		}
	}
	if len(reasons) > 0 {
		out += " (" + strings.Join(reasons, "; ") + ")"
	}
	return out
}

// roundD shows a time lag to the millisecond.
func roundD(d time.Duration) time.Duration { return d.Round(time.Millisecond) }

// largestRecords is the task with the largest record lag (the first in
// task order among equals), nil without tasks.
func largestRecords(g *overview.Group) *overview.Task {
	var out *overview.Task
	for _, st := range g.Subtopologies {
		for _, t := range st.Tasks {
			if out == nil || t.Time.Records > out.Time.Records {
				out = t
			}
		}
	}
	return out
}

// above tells whether v crosses the threshold t: the Monitoring Plugins
// range 0:t, so a value equal to t is still OK.
func above[T int64 | time.Duration](v T, t *T) bool { return t != nil && v > *t }

func joinStates(states []kafka.State) string {
	names := make([]string, len(states))
	for i, s := range states {
		names[i] = string(s)
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func plural(n int64, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.FormatInt(n, 10) + " " + word + "s"
}
