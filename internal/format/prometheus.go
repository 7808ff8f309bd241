package format

// -o prometheus: the Prometheus text exposition format (version 0.0.4), for
// node_exporter's textfile collector or a Pushgateway. Every metric is a
// gauge named kstreams_*, each family is written once with its # HELP and
// # TYPE lines and then its samples, groups in request order (a group
// requested twice is written once: a series may appear only once). A
// label value is the name escaped reversibly (labelEscape: a backslash
// doubled, every control character, byte that is not UTF-8 and invisible
// or bidi character as \xNN or \x{NNNN}), so that it is valid UTF-8, keeps
// nothing a terminal would obey, and two names never give one value; then
// the format's own escapes apply (backslash, double quote). No sample
// carries a timestamp (the textfile collector refuses them). A family
// without a sample is left out.
//
// Metrics of a described group (overview, check):
//
//	kstreams_group_up{group}                       1 described, 0 not (missing, not authorized, unreachable, ...)
//	kstreams_group_state{group,state}              1 for the group's state, 0 for the five others
//	kstreams_group_members{group}
//	kstreams_group_epoch{group}, kstreams_group_target_assignment_epoch{group}, kstreams_group_topology_epoch{group}
//	kstreams_group_topology_description_status{group,status}   one-hot over NOT_REQUESTED, NOT_STORED, ERROR, AVAILABLE
//	kstreams_group_lag{group}, kstreams_group_max_task_lag{group}, kstreams_group_moving_tasks{group}
//	kstreams_group_missing_source_topics{group}, kstreams_group_partitions_ahead{group}   (lag not counted)
//	kstreams_subtopology_lag{group,subtopology}
//	kstreams_task_lag{group,subtopology,partition}
//	kstreams_group_lag_seconds{group}, kstreams_subtopology_lag_seconds{group,subtopology}
//	    the time lag (overview --time-lag, check with a time-lag threshold or --time-lag), in seconds
//	    to the millisecond; no sample when it is not known
//	kstreams_partition_lag_seconds{group,subtopology,topic,partition}   only with --partition-metrics
//	kstreams_group_stateful_tasks{group}, kstreams_group_tasks_without_standby{group},
//	kstreams_group_standbys_colocated{group}, kstreams_group_min_task_standbys{group}
//	    standby coverage (docs/standbys.md): standbys on the active's process or host do not count
//	kstreams_group_standbys_configured{group}, kstreams_group_tasks_below_configured_standbys{group}
//	    no sample when the group configs could not be read
//
// list --state has kstreams_group_state only; check adds
// kstreams_check_group_status{group} and kstreams_check_status, the
// plugin states (0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN).

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/check"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/list"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// PromFamily is one gauge family of the exposition and its samples: what
// -o prometheus writes and what serve's /metrics exports, from the same
// code (CheckPromFamilies, OverviewPromFamilies, ListPromFamilies).
type PromFamily struct {
	Name, Help string
	Samples    []PromSample
}

// PromSample is one sample of a family.
type PromSample struct {
	// Labels are name, value, name, value, ...; a value is the name as the
	// broker sent it: PromLabelValue gives the label value a parser reads.
	Labels []string
	Value  float64
	// text is the value as written: a whole number exactly, seconds to the
	// millisecond.
	text string
}

// addSeconds adds a sample of d in seconds, to the millisecond.
func (f *PromFamily) addSeconds(d time.Duration, labels ...string) {
	f.Samples = append(f.Samples, PromSample{Labels: labels, Value: float64(d.Milliseconds()) / 1000, text: seconds(d)})
}

func (f *PromFamily) add(value int64, labels ...string) {
	f.Samples = append(f.Samples, PromSample{Labels: labels, Value: float64(value), text: strconv.FormatInt(value, 10)})
}

// promFamilies are the families in the order they are written.
type promFamilies []*PromFamily

func (fs *promFamilies) family(name, help string) *PromFamily {
	f := &PromFamily{Name: name, Help: help}
	*fs = append(*fs, f)
	return f
}

// kept are the families with a sample: a family without one is left out.
func (fs promFamilies) kept() []*PromFamily {
	out := make([]*PromFamily, 0, len(fs))
	for _, f := range fs {
		if len(f.Samples) > 0 {
			out = append(out, f)
		}
	}
	return out
}

// WritePrometheus writes families in the text exposition format.
func WritePrometheus(w io.Writer, fs []*PromFamily) error {
	bw := bufio.NewWriter(w)
	for _, f := range fs {
		if len(f.Samples) == 0 {
			continue
		}
		bw.WriteString("# HELP " + f.Name + " ")
		promHelpQuoting.body(bw, f.Help)
		bw.WriteString("\n")
		bw.WriteString("# TYPE " + f.Name + " gauge\n")
		for _, s := range f.Samples {
			bw.WriteString(f.Name)
			if len(s.Labels) > 0 {
				bw.WriteByte('{')
				for i := 0; i < len(s.Labels); i += 2 {
					if i > 0 {
						bw.WriteByte(',')
					}
					bw.WriteString(s.Labels[i] + "=")
					promLabelQuoting.write(bw, s.Labels[i+1])
				}
				bw.WriteByte('}')
			}
			text := s.text
			if text == "" {
				text = strconv.FormatFloat(s.Value, 'f', -1, 64)
			}
			bw.WriteString(" " + text + "\n")
		}
	}
	return bw.Flush()
}

// PromLabelValue is the label value written for name, as a parser reads
// it back (labelEscape: valid UTF-8, reversible, nothing a terminal
// obeys); the exposition's own escapes are the writer's.
func PromLabelValue(name string) string {
	var b strings.Builder
	promLabelValueQuoting.body(&b, name)
	return b.String()
}

// The exposition format escapes a backslash, a line feed and, in a label
// value, a double quote, and has no escape for other characters. A label
// value is the name encoded by labelEscape (reversible: two names never
// give one series, which the textfile collector would refuse), then
// written with the format's escapes. A HELP text is quoted as DOT quotes
// (dotQuoting) but for its double quotes, which stay as they are.
var (
	promLabelQuoting = newQuoting(`"\`, func(r rune, raw string) string {
		if r == '"' {
			return `\"`
		}
		return strings.ReplaceAll(labelEscape(r, raw), `\`, `\\`)
	})
	promHelpQuoting       = newQuoting(`\`, dotQuoting.escape)
	promLabelValueQuoting = newQuoting(`\`, labelEscape)
)

// groupMetrics are the families of described groups.
type groupMetrics struct {
	up, state, members, epoch, targetEpoch, topologyEpoch, description, lag, maxTaskLag, moving, subLag, taskLag *PromFamily
	missingTopics, ahead                                                                                         *PromFamily
	// Standby coverage.
	statefulTasks, withoutStandby, colocated, minStandbys, configured, belowConfigured *PromFamily
	// The time lag, when measured and asked for (PrometheusOptions).
	opts                                      PrometheusOptions
	lagSeconds, subLagSeconds, partLagSeconds *PromFamily
}

// PrometheusOptions choose the optional metrics.
type PrometheusOptions struct {
	// TimeLag writes the time lag families of groups whose time lag was
	// measured; PartitionTimeLag adds one series per source partition
	// (cardinality: one per partition of every group).
	TimeLag, PartitionTimeLag bool
	// OmitTaskLag leaves kstreams_task_lag out (one series per task):
	// serve exports per-partition series only with --partition-metrics.
	OmitTaskLag bool
}

func newGroupMetrics(fs *promFamilies) *groupMetrics {
	return &groupMetrics{
		up:            fs.family("kstreams_group_up", "Whether the streams group could be described: 1 yes, 0 no (not found, not a streams group, not authorized, unreachable)."),
		state:         fs.family("kstreams_group_state", "The streams group's state, one-hot: 1 for its state, 0 for the others."),
		members:       fs.family("kstreams_group_members", "Members of the streams group."),
		epoch:         fs.family("kstreams_group_epoch", "The streams group's epoch."),
		targetEpoch:   fs.family("kstreams_group_target_assignment_epoch", "The epoch of the streams group's target assignment."),
		topologyEpoch: fs.family("kstreams_group_topology_epoch", "The epoch of the topology the group coordinator holds (-1 when it holds none)."),
		description:   fs.family("kstreams_group_topology_description_status", "The KIP-1331 topology description status, one-hot (NOT_REQUESTED when it was not asked for)."),
		lag:           fs.family("kstreams_group_lag", "Records the streams group has not processed: the sum of its tasks' lag over their source topics, repartition topics included."),
		maxTaskLag:    fs.family("kstreams_group_max_task_lag", "The largest lag of one task of the streams group."),
		moving:        fs.family("kstreams_group_moving_tasks", "Tasks whose target holders differ from their current ones (being moved, or a standby or warm-up added or removed)."),
		subLag:        fs.family("kstreams_subtopology_lag", "The lag of a sub-topology: the sum of its tasks' lag."),
		taskLag:       fs.family("kstreams_task_lag", "The lag of one task (sub-topology S, partition P): end offset minus committed offset at partition P of each source topic."),
		missingTopics: fs.family("kstreams_group_missing_source_topics", "Source topics of the streams group that do not exist: their lag is unknown, not counted."),
		ahead:         fs.family("kstreams_group_partitions_ahead", "Source partitions whose committed offset is past the log end (a truncated or re-created topic): their lag counts as 0."),
		statefulTasks: fs.family("kstreams_group_stateful_tasks", "Tasks of the streams group's sub-topologies with a changelog, which the broker gives standbys."),
		withoutStandby: fs.family("kstreams_group_tasks_without_standby",
			"Stateful tasks with no standby that counts (a standby on the active's process or host does not): a failover restores them from the changelog."),
		colocated: fs.family("kstreams_group_standbys_colocated",
			"Standbys on the same process or host as their task's active (or another standby of it): they do not count."),
		minStandbys: fs.family("kstreams_group_min_task_standbys", "The fewest standbys that count of one stateful task of the streams group."),
		configured:  fs.family("kstreams_group_standbys_configured", "The streams group's effective streams.num.standby.replicas (set on the group, or the broker's default)."),
		belowConfigured: fs.family("kstreams_group_tasks_below_configured_standbys",
			"Stateful tasks with fewer standbys that count than streams.num.standby.replicas."),
		lagSeconds: fs.family("kstreams_group_lag_seconds",
			"The streams group's time lag: the age of the oldest record it has not processed (the largest of its partitions'); 0 when caught up."),
		subLagSeconds: fs.family("kstreams_subtopology_lag_seconds",
			"A sub-topology's time lag: the age of the oldest record it has not processed (the largest of its partitions')."),
		partLagSeconds: fs.family("kstreams_partition_lag_seconds",
			"A source partition's time lag: now minus the timestamp of the first record after the committed offset that a read_committed consumer sees; 0 when there is none."),
	}
}

// addState adds the one-hot state of group: the six states, and the
// broker's own state name when it is none of them.
func addState(f *PromFamily, group, state string) {
	known := false
	for _, s := range kafka.States {
		v := int64(0)
		if s.Is(state) {
			v, known = 1, true
		}
		f.add(v, "group", group, "state", string(s))
	}
	if !known {
		f.add(1, "group", group, "state", state)
	}
}

func (m *groupMetrics) add(g *overview.Group) {
	if g.Err != nil {
		m.up.add(0, "group", g.Group)
		return
	}
	m.up.add(1, "group", g.Group)
	addState(m.state, g.Group, g.State)
	m.members.add(int64(len(g.Members)), "group", g.Group)
	m.epoch.add(int64(g.GroupEpoch), "group", g.Group)
	m.targetEpoch.add(int64(g.AssignmentEpoch), "group", g.Group)
	m.topologyEpoch.add(int64(g.TopologyEpoch), "group", g.Group)
	for _, s := range []topology.Status{topology.NotRequested, topology.NotStored, topology.Error, topology.Available} {
		v := int64(0)
		if s == g.DescriptionStatus {
			v = 1
		}
		m.description.add(v, "group", g.Group, "status", s.String())
	}
	m.lag.add(g.Lag, "group", g.Group)
	var largest int64
	if g.Largest != nil {
		largest = g.Largest.Lag
	}
	for _, st := range g.Subtopologies {
		m.subLag.add(st.Lag, "group", g.Group, "subtopology", st.ID)
		for _, t := range st.Tasks {
			if m.opts.OmitTaskLag {
				break
			}
			m.taskLag.add(t.Lag, "group", g.Group, "subtopology", st.ID, "partition", strconv.Itoa(int(t.Partition)))
		}
	}
	m.maxTaskLag.add(largest, "group", g.Group)
	m.moving.add(g.MovingTasks(), "group", g.Group)
	m.missingTopics.add(int64(len(g.MissingTopics())), "group", g.Group)
	m.ahead.add(int64(len(g.AheadPartitions())), "group", g.Group)
	m.addCoverage(g)
	if !m.opts.TimeLag || !g.Time.Measured {
		return
	}
	// A time lag not known has no sample: a guess would alert or hide.
	if g.Time.Known {
		m.lagSeconds.addSeconds(g.Time.Lag, "group", g.Group)
	}
	for _, st := range g.Subtopologies {
		if st.Time.Known {
			m.subLagSeconds.addSeconds(st.Time.Lag, "group", g.Group, "subtopology", st.ID)
		}
		if !m.opts.PartitionTimeLag {
			continue
		}
		for _, t := range st.Tasks {
			for _, o := range t.Offsets {
				if o.Time.Known {
					m.partLagSeconds.addSeconds(o.Time.Lag, "group", g.Group, "subtopology", st.ID, "topic", o.Topic, "partition", strconv.Itoa(int(o.Partition)))
				}
			}
		}
	}
}

// addCoverage adds the group's standby coverage.
func (m *groupMetrics) addCoverage(g *overview.Group) {
	c := g.Coverage
	if c == nil {
		return
	}
	m.statefulTasks.add(int64(len(c.Tasks)), "group", g.Group)
	m.withoutStandby.add(int64(c.WithoutStandby()), "group", g.Group)
	m.colocated.add(int64(c.Colocated()), "group", g.Group)
	if least, ok := c.MinCounted(); ok {
		m.minStandbys.add(int64(least), "group", g.Group)
	}
	if c.ConfiguredKnown {
		m.configured.add(c.Configured, "group", g.Group)
		m.belowConfigured.add(int64(len(c.Short())), "group", g.Group)
	}
}

// OverviewPrometheus writes the metrics of an overview.
func OverviewPrometheus(w io.Writer, res *overview.Result) error {
	return OverviewPrometheusWith(w, res, PrometheusOptions{TimeLag: true})
}

// OverviewPrometheusWith is OverviewPrometheus with options.
func OverviewPrometheusWith(w io.Writer, res *overview.Result, po PrometheusOptions) error {
	return WritePrometheus(w, OverviewPromFamilies(res, po))
}

// OverviewPromFamilies are the families of an overview, those with a
// sample, in the order they are written.
func OverviewPromFamilies(res *overview.Result, po PrometheusOptions) []*PromFamily {
	var fs promFamilies
	m := newGroupMetrics(&fs)
	m.opts = po
	seen := map[string]bool{}
	for _, g := range res.Groups {
		if !seen[g.Group] {
			seen[g.Group] = true
			m.add(g)
		}
	}
	return fs.kept()
}

// The families of check only.
const (
	checkGroupStatusMetric = "kstreams_check_group_status"
	checkStatusMetric      = "kstreams_check_status"
)

// PromFamilyNames are the names of every family -o prometheus may write
// (overview's, check's, list's), for the dashboards and rules that use
// them.
func PromFamilyNames() []string {
	var fs promFamilies
	newGroupMetrics(&fs)
	names := []string{checkGroupStatusMetric, checkStatusMetric}
	for _, f := range fs {
		names = append(names, f.Name)
	}
	return names
}

// ListPrometheus writes the state of each listed group (list --state).
func ListPrometheus(w io.Writer, res *list.Result) error {
	return WritePrometheus(w, ListPromFamilies(res))
}

// ListPromFamilies are the families of list --state.
func ListPromFamilies(res *list.Result) []*PromFamily {
	var fs promFamilies
	state := newGroupMetrics(&fs).state
	for _, g := range res.Groups {
		addState(state, g.Group, g.State)
	}
	return fs.kept()
}

// CheckPrometheus writes the metrics of a check: each group's, its check
// status, and the status of the whole check.
func CheckPrometheus(w io.Writer, res *check.Result) error {
	return CheckPrometheusWith(w, res, PrometheusOptions{})
}

// CheckPrometheusWith is CheckPrometheus with options; the time lag is
// written when the check was asked for it (check.Options.ShowsTimeLag).
func CheckPrometheusWith(w io.Writer, res *check.Result, po PrometheusOptions) error {
	return WritePrometheus(w, CheckPromFamilies(res, po))
}

// CheckPromFamilies are the families of a check, those with a sample, in
// the order they are written; the time lag's when the check was asked
// for it.
func CheckPromFamilies(res *check.Result, po PrometheusOptions) []*PromFamily {
	var fs promFamilies
	m := newGroupMetrics(&fs)
	po.TimeLag = res.Options.ShowsTimeLag()
	m.opts = po
	groupStatus := fs.family(checkGroupStatusMetric, "The check of the streams group, as a Monitoring Plugins state: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.")
	status := fs.family(checkStatusMetric, "The whole check, as a Monitoring Plugins state (its exit code): 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.")
	seen := map[string]bool{}
	for _, g := range res.Groups {
		if !seen[g.ID()] {
			seen[g.ID()] = true
			m.add(g.Overview)
			groupStatus.add(int64(g.Status), "group", g.ID())
		}
	}
	status.add(int64(res.Status))
	return fs.kept()
}
