package format

// -o prometheus: the Prometheus text exposition format (version 0.0.4), for
// node_exporter's textfile collector or a Pushgateway, written by expfmt
// from client_model families; serve's /metrics exports the same families
// (CheckPromFamilies). Every family is a kstreams_* gauge, written once in
// promMetrics' order, groups in request order (a group requested twice is
// written once: a series may appear only once). A label value is the name
// escaped reversibly (PromLabelValue), so that it is valid UTF-8, keeps
// nothing a terminal would obey, and two names never give one value; the
// format's own escapes are expfmt's. No sample carries a timestamp (the
// textfile collector refuses them). A family without a sample is left out.
//
// list --state has kstreams_group_state only; check adds
// kstreams_check_group_status{group} and kstreams_check_status, the
// plugin states (0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN).

import (
	"bufio"
	"cmp"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"google.golang.org/protobuf/proto"

	"github.com/kstreams-groups/kstreams-groups/internal/check"
	"github.com/kstreams-groups/kstreams-groups/internal/inventory"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/list"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// PromMetric is a metric family of the expositions, an index into
// promMetrics: the one table of every name and help text, -o prometheus's
// and serve's own.
type PromMetric int

// The families, in the order they are written.
const (
	promGroupUp PromMetric = iota
	promGroupState
	promGroupMembers
	promGroupEpoch
	promGroupTargetEpoch
	promGroupTopologyEpoch
	promGroupDescription
	promGroupLag
	promGroupMaxTaskLag
	promGroupMovingTasks
	promSubtopologyLag
	promTaskLag
	promGroupMissingTopics
	promGroupAhead
	promGroupStatefulTasks
	promGroupWithoutStandby
	promGroupColocated
	promGroupMinStandbys
	promGroupConfiguredStandbys
	promGroupBelowConfigured
	promGroupLagSeconds
	promSubtopologyLagSeconds
	promPartitionLagSeconds
	promCheckGroupStatus
	promCheckStatus
	promInventoryApplicationBytes
	promInventoryApplicationFindings
	promInventoryTopicBytes
	promInventoryOrphanedBytes
	promInventoryOrphanedTopics
	promInventoryOrphanedBytesTotal
	promInventoryLeftoverConfigs
	// serve's own, by cluster.
	PromServeCycleDuration
	PromServeLastSuccess
	PromServeStale
	PromServeSeries
	PromServeCycleErrors
	PromServeDroppedSeries
	promCount
)

// promMetrics are the name and help text of every family; a counter is
// marked, the others are gauges.
var promMetrics = [promCount]struct {
	name, help string
	counter    bool
}{
	promGroupUp:            {name: "kstreams_group_up", help: "Whether the streams group could be described: 1 yes, 0 no (not found, not a streams group, not authorized, unreachable)."},
	promGroupState:         {name: "kstreams_group_state", help: "The streams group's state, one-hot: 1 for its state, 0 for the others."},
	promGroupMembers:       {name: "kstreams_group_members", help: "Members of the streams group."},
	promGroupEpoch:         {name: "kstreams_group_epoch", help: "The streams group's epoch."},
	promGroupTargetEpoch:   {name: "kstreams_group_target_assignment_epoch", help: "The epoch of the streams group's target assignment."},
	promGroupTopologyEpoch: {name: "kstreams_group_topology_epoch", help: "The epoch of the topology the group coordinator holds (-1 when it holds none)."},
	promGroupDescription:   {name: "kstreams_group_topology_description_status", help: "The KIP-1331 topology description status, one-hot (NOT_REQUESTED when it was not asked for)."},
	promGroupLag:           {name: "kstreams_group_lag", help: "Records the streams group has not processed: the sum of its tasks' lag over their source topics, repartition topics included."},
	promGroupMaxTaskLag:    {name: "kstreams_group_max_task_lag", help: "The largest lag of one task of the streams group."},
	promGroupMovingTasks:   {name: "kstreams_group_moving_tasks", help: "Tasks whose target holders differ from their current ones (being moved, or a standby or warm-up added or removed)."},
	promSubtopologyLag:     {name: "kstreams_subtopology_lag", help: "The lag of a sub-topology: the sum of its tasks' lag."},
	promTaskLag:            {name: "kstreams_task_lag", help: "The lag of one task (sub-topology S, partition P): end offset minus committed offset at partition P of each source topic."},
	promGroupMissingTopics: {name: "kstreams_group_missing_source_topics", help: "Source topics of the streams group that do not exist: their lag is unknown, not counted."},
	promGroupAhead:         {name: "kstreams_group_partitions_ahead", help: "Source partitions whose committed offset is past the log end (a truncated or re-created topic): their lag counts as 0."},
	promGroupStatefulTasks: {name: "kstreams_group_stateful_tasks", help: "Tasks of the streams group's sub-topologies with a changelog, which the broker gives standbys."},
	promGroupWithoutStandby: {name: "kstreams_group_tasks_without_standby",
		help: "Stateful tasks with no standby that counts (a standby on the active's process or host does not): a failover restores them from the changelog."},
	promGroupColocated: {name: "kstreams_group_standbys_colocated",
		help: "Standbys on the same process or host as their task's active (or another standby of it): they do not count."},
	promGroupMinStandbys:        {name: "kstreams_group_min_task_standbys", help: "The fewest standbys that count of one stateful task of the streams group."},
	promGroupConfiguredStandbys: {name: "kstreams_group_standbys_configured", help: "The streams group's effective streams.num.standby.replicas (set on the group, or the broker's default)."},
	promGroupBelowConfigured:    {name: "kstreams_group_tasks_below_configured_standbys", help: "Stateful tasks with fewer standbys that count than streams.num.standby.replicas."},
	promGroupLagSeconds: {name: "kstreams_group_lag_seconds",
		help: "The streams group's time lag: the age of the oldest record it has not processed (the largest of its partitions'); 0 when caught up."},
	promSubtopologyLagSeconds: {name: "kstreams_subtopology_lag_seconds",
		help: "A sub-topology's time lag: the age of the oldest record it has not processed (the largest of its partitions')."},
	promPartitionLagSeconds: {name: "kstreams_partition_lag_seconds",
		help: "A source partition's time lag: now minus the timestamp of the first record after the committed offset that a read_committed consumer sees; 0 when there is none."},
	promCheckGroupStatus: {name: "kstreams_check_group_status", help: "The check of the streams group, as a Monitoring Plugins state: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN."},
	promCheckStatus:      {name: "kstreams_check_status", help: "The whole check, as a Monitoring Plugins state (its exit code): 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN."},

	promInventoryApplicationBytes:    {name: "kstreams_inventory_application_bytes", help: "Size on disk (every replica) of the internal topics a live streams group declares, in bytes."},
	promInventoryApplicationFindings: {name: "kstreams_inventory_application_findings", help: "Differences between the internal topics a live streams group declares and the cluster."},
	promInventoryTopicBytes:          {name: "kstreams_inventory_topic_bytes", help: "Size on disk (every replica) of a declared internal topic, in bytes."},
	promInventoryOrphanedBytes: {name: "kstreams_inventory_orphaned_bytes",
		help: "Size on disk (every replica) of orphaned internal topics, by the application their names give (empty: unknown), in bytes."},
	promInventoryOrphanedTopics:     {name: "kstreams_inventory_orphaned_topics", help: "Orphaned internal topics, by the application their names give (empty: unknown)."},
	promInventoryOrphanedBytesTotal: {name: "kstreams_inventory_orphaned_bytes_total", help: "Size on disk (every replica) of every orphaned internal topic, in bytes."},
	promInventoryLeftoverConfigs:    {name: "kstreams_inventory_leftover_group_configs", help: "Groups that no longer exist but whose dynamic configs the broker keeps."},

	PromServeCycleDuration: {name: "kstreams_serve_cycle_duration_seconds", help: "How long the last cycle of the cluster took, successful or not."},
	PromServeLastSuccess:   {name: "kstreams_serve_last_success_timestamp_seconds", help: "When the last successful cycle of the cluster ended (Unix time; absent before the first)."},
	PromServeStale:         {name: "kstreams_serve_stale", help: "1 when the last cycle failed and the group metrics are the last good cycle's, else 0."},
	PromServeSeries:        {name: "kstreams_serve_series", help: "Group series exported for the cluster."},
	PromServeCycleErrors:   {name: "kstreams_serve_cycle_errors_total", help: "Cycles of the cluster that failed.", counter: true},
	PromServeDroppedSeries: {name: "kstreams_serve_dropped_series_total", help: "Group series left out by --max-series, summed over the cycles.", counter: true},
}

// Name is the family's name.
func (m PromMetric) Name() string { return promMetrics[m].name }

// Help is the family's help text.
func (m PromMetric) Help() string { return promMetrics[m].help }

// Counter tells a counter from a gauge.
func (m PromMetric) Counter() bool { return promMetrics[m].counter }

// PromLabel is the label pair of a label name and a name from a broker or
// the operator: its value is PromLabelValue's.
func PromLabel(name, value string) *dto.LabelPair {
	return &dto.LabelPair{Name: proto.String(name), Value: proto.String(PromLabelValue(value))}
}

// PromLabelValue is the label value written for name (labelEscape: valid
// UTF-8, reversible, so that two names never give one series, which the
// textfile collector would refuse, and nothing a terminal obeys); the
// exposition's own escapes are expfmt's.
func PromLabelValue(name string) string {
	var b strings.Builder
	promLabelValueQuoting.body(&b, name)
	return b.String()
}

var promLabelValueQuoting = newQuoting(`\`, labelEscape)

// promSet builds the families of one exposition, once.
type promSet struct {
	// base are the labels every sample has first (serve's cluster).
	base []*dto.LabelPair
	fams [promCount]*dto.MetricFamily
	// The label pairs and gauges the series have in common, one of each
	// (the encoders only read them): serve keeps a cycle's families until
	// the next, and without the sharing they take some 5 MiB more of live
	// heap for 2,000 groups (BenchmarkCycleMemory after 30 cycles: 49.1 MiB
	// without, 44.7 with).
	pairs  map[[2]string]*dto.LabelPair
	gauges map[float64]*dto.Gauge
}

// label is the shared label pair of name and value (PromLabel).
func (s *promSet) label(name, value string) *dto.LabelPair {
	k := [2]string{name, value}
	p := s.pairs[k]
	if p == nil {
		p = PromLabel(name, value)
		if s.pairs == nil {
			s.pairs = map[[2]string]*dto.LabelPair{}
		}
		s.pairs[k] = p
	}
	return p
}

// gauge is the shared gauge of v (never NaN: counts and milliseconds).
func (s *promSet) gauge(v float64) *dto.Gauge {
	g := s.gauges[v]
	if g == nil {
		g = &dto.Gauge{Value: proto.Float64(v)}
		if s.gauges == nil {
			s.gauges = map[float64]*dto.Gauge{}
		}
		s.gauges[v] = g
	}
	return g
}

// add adds a sample of m. With base labels the pairs are sorted by name,
// as client_golang's registry wants them (it sorts a copy otherwise, at
// every scrape); without, they stay in the order written.
func (s *promSet) add(m PromMetric, v float64, labels ...*dto.LabelPair) {
	f := s.fams[m]
	if f == nil {
		f = &dto.MetricFamily{Name: proto.String(m.Name()), Help: proto.String(m.Help()), Type: dto.MetricType_GAUGE.Enum()}
		s.fams[m] = f
	}
	if len(s.base) > 0 {
		labels = slices.Concat(s.base, labels)
		slices.SortFunc(labels, func(a, b *dto.LabelPair) int { return cmp.Compare(a.GetName(), b.GetName()) })
	}
	f.Metric = append(f.Metric, &dto.Metric{Label: labels, Gauge: s.gauge(v)})
}

// families are the families with a sample, in promMetrics' order.
func (s *promSet) families() []*dto.MetricFamily {
	out := make([]*dto.MetricFamily, 0, len(s.fams))
	for _, f := range s.fams {
		if f != nil {
			out = append(out, f)
		}
	}
	return out
}

// write writes the families in the text exposition format.
func (s *promSet) write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, f := range s.families() {
		if _, err := expfmt.MetricFamilyToText(bw, f); err != nil {
			return err
		}
	}
	return bw.Flush()
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

// addState adds the one-hot state of a group: the six states, and the
// broker's own state name when it is none of them.
func (s *promSet) addState(group *dto.LabelPair, state string) {
	known := false
	for _, st := range kafka.States {
		v := 0.0
		if st.Is(state) {
			v, known = 1, true
		}
		s.add(promGroupState, v, group, s.label("state", string(st)))
	}
	if !known {
		s.add(promGroupState, 1, group, s.label("state", state))
	}
}

// addGroup adds the families of a described group.
func (s *promSet) addGroup(g *overview.Group, po PrometheusOptions) {
	group := s.label("group", g.Group)
	one := func(m PromMetric, v int64) { s.add(m, float64(v), group) }
	if g.Err != nil {
		one(promGroupUp, 0)
		return
	}
	one(promGroupUp, 1)
	s.addState(group, g.State)
	one(promGroupMembers, int64(len(g.Members)))
	one(promGroupEpoch, int64(g.GroupEpoch))
	one(promGroupTargetEpoch, int64(g.AssignmentEpoch))
	one(promGroupTopologyEpoch, int64(g.TopologyEpoch))
	for _, st := range []topology.Status{topology.NotRequested, topology.NotStored, topology.Error, topology.Available} {
		v := 0.0
		if st == g.DescriptionStatus {
			v = 1
		}
		s.add(promGroupDescription, v, group, s.label("status", st.String()))
	}
	one(promGroupLag, g.Lag)
	var largest int64
	if g.Largest != nil {
		largest = g.Largest.Lag
	}
	one(promGroupMaxTaskLag, largest)
	one(promGroupMovingTasks, g.MovingTasks())
	for _, st := range g.Subtopologies {
		sub := s.label("subtopology", st.ID)
		s.add(promSubtopologyLag, float64(st.Lag), group, sub)
		for _, t := range st.Tasks {
			if po.OmitTaskLag {
				break
			}
			s.add(promTaskLag, float64(t.Lag), group, sub, s.label("partition", strconv.Itoa(int(t.Partition))))
		}
	}
	one(promGroupMissingTopics, int64(len(g.MissingTopics())))
	one(promGroupAhead, int64(len(g.AheadPartitions())))
	s.addCoverage(group, g.Coverage)
	if po.TimeLag && g.Time.Measured {
		s.addTimeLag(group, g, po.PartitionTimeLag)
	}
}

// addTimeLag adds the time lag of a group whose time lag was measured. A
// time lag not known has no sample: a guess would alert or hide.
func (s *promSet) addTimeLag(group *dto.LabelPair, g *overview.Group, partitions bool) {
	secs := func(d time.Duration) float64 { return float64(d.Milliseconds()) / 1000 }
	if g.Time.Known {
		s.add(promGroupLagSeconds, secs(g.Time.Lag), group)
	}
	for _, st := range g.Subtopologies {
		sub := s.label("subtopology", st.ID)
		if st.Time.Known {
			s.add(promSubtopologyLagSeconds, secs(st.Time.Lag), group, sub)
		}
		if !partitions {
			continue
		}
		for _, t := range st.Tasks {
			for _, o := range t.Offsets {
				if o.Time.Known {
					s.add(promPartitionLagSeconds, secs(o.Time.Lag), group, sub, s.label("topic", o.Topic), s.label("partition", strconv.Itoa(int(o.Partition))))
				}
			}
		}
	}
}

// addCoverage adds a group's standby coverage.
func (s *promSet) addCoverage(group *dto.LabelPair, c *overview.Coverage) {
	if c == nil {
		return
	}
	one := func(m PromMetric, v int64) { s.add(m, float64(v), group) }
	one(promGroupStatefulTasks, int64(len(c.Tasks)))
	one(promGroupWithoutStandby, int64(c.WithoutStandby()))
	one(promGroupColocated, int64(c.Colocated()))
	if least, ok := c.MinCounted(); ok {
		one(promGroupMinStandbys, int64(least))
	}
	if c.ConfiguredKnown {
		one(promGroupConfiguredStandbys, c.Configured)
		one(promGroupBelowConfigured, int64(len(c.Short())))
	}
}

// OverviewPrometheusWith writes the metrics of an overview.
func OverviewPrometheusWith(w io.Writer, res *overview.Result, po PrometheusOptions) error {
	var s promSet
	seen := map[string]bool{}
	for _, g := range res.Groups {
		if !seen[g.Group] {
			seen[g.Group] = true
			s.addGroup(g, po)
		}
	}
	return s.write(w)
}

// ListPrometheus writes the state of each listed group (list --state).
func ListPrometheus(w io.Writer, res *list.Result) error {
	var s promSet
	for _, g := range res.Groups {
		s.addState(s.label("group", g.Group), g.State)
	}
	return s.write(w)
}

// CheckPrometheusWith writes the metrics of a check: each group's, its
// check status, and the status of the whole check; the time lag when the
// check was asked for it (check.Options.ShowsTimeLag).
func CheckPrometheusWith(w io.Writer, res *check.Result, po PrometheusOptions) error {
	return checkPromSet(res, po, nil).write(w)
}

// CheckPromFamilies are the families of a check, those with a sample, in
// the order they are written, each sample labelled base first (serve's
// cluster label; its pairs then sorted by name).
func CheckPromFamilies(res *check.Result, po PrometheusOptions, base ...*dto.LabelPair) []*dto.MetricFamily {
	return checkPromSet(res, po, base).families()
}

func checkPromSet(res *check.Result, po PrometheusOptions, base []*dto.LabelPair) *promSet {
	s := &promSet{base: base}
	po.TimeLag = res.Options.ShowsTimeLag()
	seen := map[string]bool{}
	for _, g := range res.Groups {
		if id := g.ID(); !seen[id] {
			seen[id] = true
			s.addGroup(g.Overview, po)
			s.add(promCheckGroupStatus, float64(g.Status), s.label("group", id))
		}
	}
	s.add(promCheckStatus, float64(res.Status))
	return s
}

// InventoryPrometheus writes the inventory's metrics.
func InventoryPrometheus(w io.Writer, r *inventory.Result) error {
	var s promSet
	seen := map[string]bool{}
	for _, g := range r.Groups {
		if !g.Live || seen[g.Group] {
			continue
		}
		seen[g.Group] = true
		group := s.label("group", g.Group)
		s.add(promInventoryApplicationBytes, float64(g.Bytes()), group)
		s.add(promInventoryApplicationFindings, float64(len(g.Findings)), group)
		for _, t := range g.Topics {
			if t.Present {
				s.add(promInventoryTopicBytes, float64(t.Usage.Bytes), group, s.label("topic", t.Name))
			}
		}
	}
	byApp, count := map[string]int64{}, map[string]int64{}
	for _, o := range r.Orphans {
		byApp[o.Application] += o.Usage.Bytes
		count[o.Application]++
	}
	for _, a := range slices.Sorted(maps.Keys(byApp)) {
		app := s.label("application", a)
		s.add(promInventoryOrphanedBytes, float64(byApp[a]), app)
		s.add(promInventoryOrphanedTopics, float64(count[a]), app)
	}
	s.add(promInventoryOrphanedBytesTotal, float64(r.OrphanedBytes()))
	s.add(promInventoryLeftoverConfigs, float64(len(r.LeftoverConfigs)))
	return s.write(w)
}
