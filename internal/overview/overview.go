package overview

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// Options select the groups of an overview and, with Store, the store view.
type Options struct {
	// Groups are shown in this order; AllGroups lists them instead.
	Groups    []string
	AllGroups bool
	// StoreGiven selects the store view of the state store named Store:
	// one row per partition, with the hosts of its active and standby
	// copies.
	StoreGiven bool
	Store      string
	// WithoutDescription describes the groups without their KIP-1331
	// description (StreamsGroupDescribe v0 is enough, so a Kafka 4.3
	// coordinator answers): the status is NOT_REQUESTED and no
	// subtopology has nodes.
	WithoutDescription bool
	// TimeLag reads, besides the offsets, the first unprocessed record of
	// every partition (timelag.go): time lag and record lag. Now is the
	// clock it is measured against (time.Now when nil).
	TimeLag bool
	Now     func() time.Time
	// PartitionMetrics asks -o prometheus for a time-lag series per
	// source partition (the command line's; Run does not read it).
	PartitionMetrics bool
	// WithoutSettings leaves the group configs unread (one
	// DescribeConfigs): the coverage then has no configured number.
	WithoutSettings bool
	// LastRebalance reads each group's history in __consumer_offsets for
	// its last rebalance and why (rebalance.go): the overview verb's head.
	LastRebalance bool
}

// Validate checks the options before any I/O. --group with --all-groups is
// the command line's check, shared with the other verbs.
func (o Options) Validate() error {
	if !o.AllGroups && len(o.Groups) == 0 {
		return errors.New("overview needs --group (repeatable) or --all-groups")
	}
	if o.StoreGiven && strings.TrimSpace(o.Store) == "" {
		return errors.New("--store needs the name of a state store")
	}
	return nil
}

// Client is what Run needs from the admin client.
type Client interface {
	DescribeStreamsGroups(ctx context.Context, groups []string, includeTopology bool) []admin.DescribedGroup
	ListStreamsGroups(ctx context.Context) ([]admin.ListedGroup, error)
	FetchCommittedOffsets(ctx context.Context, groups []string) []admin.GroupOffsets
	ListOffsets(ctx context.Context, tps []kafka.TopicPartition, timestamp int64) ([]admin.ListedOffset, error)
}

// Result holds one Group per requested group, in request order.
type Result struct {
	Groups []*Group
	// Store is the store of the store view; "" for the overview.
	Store string
	// Fetches counts the Fetch requests the time lag took (0 without it).
	Fetches int
}

// Failures lists the groups whose overview could not be made, in request
// order. A description that is NOT_STORED or ERROR is not a failure: the
// overview is made from the group's topology and shows the status.
func (r *Result) Failures() []kafka.Failure {
	return kafka.Failures(r.Groups, func(g *Group) (string, error) { return g.Group, g.Err })
}

// Group is the overview of one group, or the error that kept it from being
// made.
type Group struct {
	Group       string
	Coordinator *kafka.Broker
	// State and the epochs are the group's, as described.
	State           string
	GroupEpoch      int32
	AssignmentEpoch int32
	TopologyEpoch   int32
	AssignorName    *string
	// Rebalance is the group's last rebalance, read from its history
	// (Options.LastRebalance; rebalance.go).
	Rebalance *Rebalance
	// DescriptionStatus is the KIP-1331 status; the nodes of each
	// subtopology are known only when it is AVAILABLE.
	DescriptionStatus topology.Status
	// Members are sorted by member id; a task's owners are indexes into
	// it, and a member's index plus one is its short name (m1, m2, ...).
	Members []kafka.Member
	// Subtopologies are in id order (numeric ids numerically).
	Subtopologies []*Subtopology
	// GlobalStores are the description's global stores (no tasks).
	GlobalStores []*topology.GlobalStore
	// Lag is the sum of every task's lag (AddLag); Largest is the task
	// with the largest lag (the first in task order among equals), nil
	// when the group has no task.
	Lag     int64
	Largest *Task
	// Time is the group's time lag: the largest of its tasks' (timelag.go).
	Time TimeLag
	// Store is the store view of Result.Store; nil otherwise.
	Store *StoreView
	// Settings are the group's effective streams configs (nil when not
	// read); Coverage its standby coverage (standby.go), nil with Err.
	Settings *Settings
	Coverage *Coverage
	Err      error
}

// Subtopology is one subtopology: what it reads and writes and its tasks.
type Subtopology struct {
	ID string
	// Sources are the topics it reads: user topics, then repartition
	// topics (Repartition), each sorted; each with its lag over the tasks.
	Sources []Source
	// Sinks are the user topics its sink nodes write, sorted (known only
	// from an AVAILABLE description); DynamicSink tells that a sink picks
	// its topic per record.
	Sinks       []string
	DynamicSink bool
	// RepartitionSinks are the repartition topics it writes, sorted.
	RepartitionSinks []string
	// Stores are its state stores, sorted by name.
	Stores []Store
	// Nodes are the description's nodes in the broker's order; nil when the
	// description is not AVAILABLE.
	Nodes []*topology.Node
	// Tasks are sorted by partition.
	Tasks []*Task
	// Lag is the sum of its tasks' lag (AddLag); MaxTaskLag the largest
	// of them.
	Lag        int64
	MaxTaskLag int64
	// Time is the largest time lag of its tasks.
	Time TimeLag
}

// Source is a topic a subtopology reads.
type Source struct {
	Topic       string
	Repartition bool
	// Lag is the topic's lag summed over the subtopology's tasks (AddLag).
	Lag int64
	// Missing tells that the topic does not exist (the broker answered
	// UNKNOWN_TOPIC_OR_PARTITION for its partition 0): its lag is unknown,
	// not 0.
	Missing bool
}

// Store is a state store and its changelog topic ("" when it has none, for
// example with logging disabled, or none is known).
type Store struct {
	Name      string
	Changelog string
}

// TaskID names a task: subtopology S, partition P, written S_P.
type TaskID struct {
	Subtopology string
	Partition   int32
}

func (t TaskID) String() string { return t.Subtopology + "_" + strconv.Itoa(int(t.Partition)) }

// Task is one task: its holders by kind, current and target, and its lag.
type Task struct {
	TaskID
	// Active, Standby and Warmup are the members holding the task in their
	// current assignment (indexes into Group.Members, ascending); Target*
	// the same in their target assignment. Active has at most one member
	// unless the broker says otherwise.
	Active, Standby, Warmup                   []int
	TargetActive, TargetStandby, TargetWarmup []int
	// Lag is the sum over the subtopology's source topics of Offsets' lag
	// (AddLag).
	Lag int64
	// Time is the largest time lag of its partitions.
	Time TimeLag
	// Offsets are the task's partition P of each source topic that has one,
	// in the order of Subtopology.Sources.
	Offsets []PartitionLag
}

// Moving tells whether the task's target holders differ from its current
// ones: it is being moved, or a standby or warm-up is being added or
// removed.
func (t *Task) Moving() bool {
	return !slices.Equal(t.Active, t.TargetActive) || !slices.Equal(t.Standby, t.TargetStandby) || !slices.Equal(t.Warmup, t.TargetWarmup)
}

// MovingTasks counts the group's tasks that are moving (Task.Moving).
func (g *Group) MovingTasks() int64 {
	var n int64
	for _, st := range g.Subtopologies {
		for _, t := range st.Tasks {
			if t.Moving() {
				n++
			}
		}
	}
	return n
}

// PartitionLag is one source partition of a task, as the offsets view
// shows it: lag is the log end minus the committed offset, or minus the log
// start when nothing is committed. A committed offset past the log end (the
// topic was truncated or deleted and created again) is not a negative lag:
// Lag is 0 and Ahead says by how much the offset is past the end.
type PartitionLag struct {
	kafka.TopicPartition
	Repartition bool
	// Committed is nil when the group committed nothing for the partition.
	Committed *int64
	LogStart  int64
	LogEnd    int64
	Lag       int64
	// Ahead is the committed offset minus the log end when the committed
	// offset is past the log end; 0 otherwise.
	Ahead int64
	// Time is the partition's time lag and record lag (timelag.go).
	Time TimeLag
}

// AddLag adds a lag to a sum of lags: a negative lag counts as 0, and the
// sum stops at math.MaxInt64 instead of wrapping around. Every lag sum of
// the overview (task, sub-topology, topic, group) is made with it.
func AddLag(sum, lag int64) int64 {
	lag = max(lag, 0)
	if sum > math.MaxInt64-lag {
		return math.MaxInt64
	}
	return sum + lag
}

// lagFrom is the lag of a partition whose log ends at end, read from
// offset from: end - from, or, when from is past end, 0 and by how much
// it is past. Neither wraps around.
func lagFrom(end, from int64) (lag, ahead int64) {
	switch {
	case from > end:
		if end < 0 && from > math.MaxInt64+end {
			return 0, math.MaxInt64
		}
		return 0, from - end
	case from < 0 && end > math.MaxInt64+from:
		return math.MaxInt64, 0
	}
	return end - from, 0
}

// AheadPartitions lists the group's source partitions whose committed
// offset is past the log end, in task order.
func (g *Group) AheadPartitions() []PartitionLag {
	var out []PartitionLag
	for _, st := range g.Subtopologies {
		for _, t := range st.Tasks {
			for _, o := range t.Offsets {
				if o.Ahead > 0 {
					out = append(out, o)
				}
			}
		}
	}
	return out
}

// MissingTopics lists the source topics of the group that do not exist,
// sorted.
func (g *Group) MissingTopics() []string {
	var out []string
	for _, st := range g.Subtopologies {
		for _, src := range st.Sources {
			if src.Missing {
				out = append(out, src.Topic)
			}
		}
	}
	return sortedSet(out)
}

// StoreView is the store view of one group: the store's subtopology and
// one task per partition.
type StoreView struct {
	Name        string
	Subtopology string
	Changelog   string
	Tasks       []*Task
}

// StoreNotFoundError is a store view asked of a group that has no such
// partitioned store.
type StoreNotFoundError struct {
	Group, Store string
	// Global is set when the store is a global store, which has a full
	// copy on every instance and no partitions.
	Global bool
	// Known are the group's partitioned stores.
	Known []string
}

func (e *StoreNotFoundError) Error() string {
	if e.Global {
		return fmt.Sprintf("store %s is a global store: every instance holds all of it", e.Store)
	}
	known := "it has none"
	if len(e.Known) > 0 {
		known = "its stores are " + strings.Join(e.Known, ", ")
	}
	return fmt.Sprintf("no state store %s (%s)", e.Store, known)
}

// Run makes the overview of the groups of opts, which passed Validate.
// Per-group failures are in each Group's Err; the returned error is for
// failures of the whole command, such as listing the groups.
func Run(ctx context.Context, client Client, opts Options) (*Result, error) {
	ids, err := admin.RequestedGroups(ctx, client, opts.Groups, opts.AllGroups)
	if err != nil {
		return nil, err
	}
	res := &Result{Groups: make([]*Group, 0, len(ids))}
	if opts.StoreGiven {
		res.Store = opts.Store
	}
	if len(ids) == 0 {
		return res, nil
	}
	for _, d := range client.DescribeStreamsGroups(ctx, ids, !opts.WithoutDescription) {
		res.Groups = append(res.Groups, build(d))
	}
	fillAll(ctx, client, res, opts)
	for _, g := range res.Groups {
		if g.Err == nil {
			g.Coverage = computeCoverage(g, g.Settings)
		}
		if g.Err == nil && opts.StoreGiven {
			g.Store, g.Err = storeView(g, opts.Store)
		}
	}
	return res, nil
}

// build joins one described group's topology, description and members.
func build(d admin.DescribedGroup) *Group {
	g := &Group{Group: d.Group, Err: d.Err}
	if d.Coordinator != (kafka.Broker{}) {
		c := d.Coordinator
		g.Coordinator = &c
	}
	if d.Err != nil {
		return g
	}
	s := d.Streams
	g.State, g.GroupEpoch, g.AssignmentEpoch, g.TopologyEpoch, g.AssignorName = s.State, s.GroupEpoch, s.AssignmentEpoch, s.TopologyEpoch, s.AssignorName
	g.DescriptionStatus, g.Members = s.TopologyStatus, s.Members
	if s.Topology != nil {
		g.GlobalStores = s.Topology.GlobalStores
	}
	g.Subtopologies = subtopologies(d.Group, s)
	byID := map[string]*Subtopology{}
	for _, st := range g.Subtopologies {
		byID[st.ID] = st
	}
	for _, t := range Holders(g.Members) {
		st := byID[t.Subtopology]
		if st == nil {
			// The Java tool's error for the same answer.
			g.Err = &kafka.MalformedError{Reason: fmt.Sprintf("Subtopology %s not found in group description!", t.Subtopology)}
			return g
		}
		st.Tasks = append(st.Tasks, t)
	}
	return g
}

// Holders are the tasks the members hold, current and target, with their
// holders as indexes into members (which are sorted by member id), in the
// order the members name them first; no lag. A task's subtopology is not
// checked against any topology.
func Holders(members []kafka.Member) []*Task {
	var out []*Task
	tasks := map[TaskID]*Task{}
	task := func(id TaskID) *Task {
		t, ok := tasks[id]
		if !ok {
			t = &Task{TaskID: id}
			tasks[id] = t
			out = append(out, t)
		}
		return t
	}
	for i := range members {
		m := &members[i]
		for _, k := range []struct {
			tasks []kafka.Tasks
			add   func(t *Task)
		}{
			{m.Assignment.Active, func(t *Task) { t.Active = append(t.Active, i) }},
			{m.Assignment.Standby, func(t *Task) { t.Standby = append(t.Standby, i) }},
			{m.Assignment.Warmup, func(t *Task) { t.Warmup = append(t.Warmup, i) }},
			{m.TargetAssignment.Active, func(t *Task) { t.TargetActive = append(t.TargetActive, i) }},
			{m.TargetAssignment.Standby, func(t *Task) { t.TargetStandby = append(t.TargetStandby, i) }},
			{m.TargetAssignment.Warmup, func(t *Task) { t.TargetWarmup = append(t.TargetWarmup, i) }},
		} {
			for _, ts := range k.tasks {
				for _, p := range ts.Partitions {
					k.add(task(TaskID{Subtopology: ts.SubtopologyID, Partition: p}))
				}
			}
		}
	}
	return out
}

// subtopologies joins the group's KIP-1071 topology (topics) with its
// KIP-1331 description (nodes, stores, user sinks), in id order. Without a
// KIP-1071 topology the description alone gives the topics.
func subtopologies(group string, s *kafka.StreamsGroup) []*Subtopology {
	described := map[string]*topology.Subtopology{}
	if s.Topology != nil {
		for _, d := range s.Topology.Subtopologies {
			described[d.ID] = d
		}
	}
	var out []*Subtopology
	for _, t := range s.Subtopologies {
		st := &Subtopology{ID: t.ID, RepartitionSinks: sortedSet(t.RepartitionSinkTopics)}
		for _, topic := range sortedSet(t.SourceTopics) {
			// A topic named both ways is counted once, as repartition.
			if !slices.Contains(t.RepartitionSourceTopics, topic) {
				st.Sources = append(st.Sources, Source{Topic: topic})
			}
		}
		for _, topic := range sortedSet(t.RepartitionSourceTopics) {
			st.Sources = append(st.Sources, Source{Topic: topic, Repartition: true})
		}
		if d := described[t.ID]; d != nil {
			st.Nodes = d.Nodes
		}
		st.Stores = stores(group, st.Nodes, t.StateChangelogTopics)
		out = append(out, st)
	}
	if s.Subtopologies == nil && s.Topology != nil {
		out = fromDescription(group, s.Topology)
	}
	for _, st := range out {
		st.Sinks, st.DynamicSink = sinks(st.Nodes, st.RepartitionSinks)
	}
	slices.SortStableFunc(out, func(a, b *Subtopology) int { return kafka.CompareSubtopologyIDs(a.ID, b.ID) })
	return out
}

// fromDescription reads the subtopologies from a description alone: a
// topic that one subtopology writes and another reads is a repartition
// topic.
func fromDescription(group string, d *topology.Description) []*Subtopology {
	written := map[string]bool{}
	for _, s := range d.Subtopologies {
		for _, n := range s.Nodes {
			if n.Kind == topology.Sink && n.Topic != nil {
				written[*n.Topic] = true
			}
		}
	}
	var out []*Subtopology
	for _, s := range d.Subtopologies {
		st := &Subtopology{ID: s.ID, Nodes: s.Nodes}
		var read []string
		for _, n := range s.Nodes {
			if n.Kind == topology.Source {
				read = append(read, n.Topics...)
			}
			if n.Kind == topology.Sink && n.Topic != nil && strings.HasSuffix(*n.Topic, "-repartition") {
				st.RepartitionSinks = append(st.RepartitionSinks, *n.Topic)
			}
		}
		topics := sortedSet(read)
		for _, repartition := range []bool{false, true} { // user topics first
			for _, topic := range topics {
				if written[topic] == repartition {
					st.Sources = append(st.Sources, Source{Topic: topic, Repartition: repartition})
				}
			}
		}
		st.RepartitionSinks = sortedSet(st.RepartitionSinks)
		st.Stores = stores(group, s.Nodes, nil)
		out = append(out, st)
	}
	return out
}

// stores pairs the stores of the nodes with the changelog topics. Kafka
// Streams names a store's changelog "<application.id>-<store>-changelog";
// a changelog no node's store matches is listed under the store name its
// topic name gives.
func stores(group string, nodes []*topology.Node, changelogs []string) []Store {
	names := map[string]string{}
	for _, n := range nodes {
		for _, s := range n.Stores {
			names[s] = ""
		}
	}
	for _, c := range changelogs {
		name := strings.TrimSuffix(strings.TrimPrefix(c, group+"-"), "-changelog")
		names[name] = c
	}
	out := make([]Store, 0, len(names))
	for name, c := range names {
		out = append(out, Store{Name: name, Changelog: c})
	}
	slices.SortFunc(out, func(a, b Store) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

// sinks are the user topics the sink nodes write (repartition topics left
// out) and whether one of them is dynamic.
func sinks(nodes []*topology.Node, repartition []string) ([]string, bool) {
	var out []string
	dynamic := false
	for _, n := range nodes {
		switch {
		case n.Kind != topology.Sink:
		case n.Topic == nil:
			dynamic = true
		case !slices.Contains(repartition, *n.Topic):
			out = append(out, *n.Topic)
		}
	}
	return sortedSet(out), dynamic
}

func sortedSet(xs []string) []string {
	out := slices.Clone(xs)
	slices.Sort(out)
	return slices.Compact(out)
}

// fillLag fetches the offsets of groups, described without error (one
// OffsetFetch per coordinator; ListOffsets, earliest and latest, per
// partition leader for the union of the groups' partitions) and
// computes the tasks' lag. A task is every task some member holds, plus,
// for a group whose members hold none of them, every partition it
// committed on a subtopology's source topics; a group whose offsets cannot
// be fetched gets Err. Partition 0 of every source topic is asked too,
// whether a task reads it or not: a topic without it does not exist.
//
// It returns the leader of each partition whose log end it read (the node
// that answered ListOffsets), for the time lag's Fetch. beside, when set,
// runs while the log starts are asked, with the committed offsets and the
// log ends read so far (the time lag's Fetch goes out then: prefetch).
func fillLag(ctx context.Context, client Client, groups []*Group, beside besideLogStarts) leaderOf {
	if len(groups) == 0 {
		return nil
	}
	committed := fetchCommitted(ctx, client, groups)
	all := lagPartitions(groups, committed)
	if len(all) == 0 {
		return nil
	}
	latest, errL := listedIndex(client.ListOffsets(ctx, all, admin.LatestTimestamp))
	var wg sync.WaitGroup
	if beside != nil && errL == nil {
		wg.Go(func() { beside(groups, committed, latest) })
	}
	earliest, errE := listedIndex(client.ListOffsets(ctx, all, admin.EarliestTimestamp))
	wg.Wait()
	for _, g := range groups {
		if g.Err != nil {
			continue
		}
		if err := cmp.Or(errL, errE); err != nil {
			g.Err = err
			continue
		}
		g.Err = computeLag(g, committed[g.Group], latest, earliest)
	}
	return func(tp kafka.TopicPartition) (int32, bool) {
		lo, ok := latest.get(tp)
		return lo.Leader, ok && lo.Err == nil && lo.Leader >= 0
	}
}

// fetchCommitted reads the committed offsets of groups, by group; a group
// whose offsets could not be read gets Err.
func fetchCommitted(ctx context.Context, client Client, groups []*Group) map[string]partitionIndex[admin.CommittedOffset] {
	ids := make([]string, len(groups))
	for i, g := range groups {
		ids[i] = g.Group
	}
	committed := map[string]partitionIndex[admin.CommittedOffset]{}
	for _, co := range client.FetchCommittedOffsets(ctx, ids) {
		committed[co.Group] = committedIndex(co.Offsets)
		if co.Err == nil {
			continue
		}
		for _, g := range groups {
			if g.Group == co.Group {
				g.Err = co.Err
			}
		}
	}
	return committed
}

// lagPartitions adds, to each group whose offsets were read, the tasks of
// the partitions it committed when its members hold none
// (addCommittedTasks), and returns the partitions ListOffsets is asked
// about: every task's sources, and partition 0 of every source topic.
func lagPartitions(groups []*Group, committed map[string]partitionIndex[admin.CommittedOffset]) []kafka.TopicPartition {
	n := 0
	for _, g := range groups {
		for _, st := range g.Subtopologies {
			n += len(st.Sources) * (1 + len(st.Tasks))
		}
	}
	all := make([]kafka.TopicPartition, 0, n)
	for _, g := range groups {
		if g.Err != nil {
			continue
		}
		addCommittedTasks(g, committed[g.Group])
		for _, st := range g.Subtopologies {
			for _, src := range st.Sources {
				all = append(all, kafka.TopicPartition{Topic: src.Topic, Partition: 0})
			}
			for _, t := range st.Tasks {
				for _, src := range st.Sources {
					all = append(all, kafka.TopicPartition{Topic: src.Topic, Partition: t.Partition})
				}
			}
		}
	}
	return all
}

// besideLogStarts runs while fillLag asks for the log starts, with the
// groups whose offsets were fetched, their committed offsets and the log
// ends.
type besideLogStarts func(groups []*Group, committed map[string]partitionIndex[admin.CommittedOffset], latest partitionIndex[admin.ListedOffset])

// leaderOf is the node that answered ListOffsets for a partition, false
// when none did.
type leaderOf func(kafka.TopicPartition) (int32, bool)

// partitionIndex holds values sorted by partition, one per partition,
// found by binary search: what a map from partition would answer, without
// the memory of a map for every partition of every group (serve reads
// 50,000 partitions a cycle).
type partitionIndex[T any] struct {
	vals []T
	key  func(T) kafka.TopicPartition
}

// newPartitionIndex indexes vals; of values for the same partition the
// last one counts, as it would in a map. vals is used as it is when it is
// already sorted without duplicates (admin's answers are), else copied.
func newPartitionIndex[T any](vals []T, key func(T) kafka.TopicPartition) partitionIndex[T] {
	cmpKeys := func(a, b T) int { return kafka.CompareTopicPartitions(key(a), key(b)) }
	for i := 1; i < len(vals); i++ {
		if cmpKeys(vals[i-1], vals[i]) >= 0 {
			// Reversed, the last value of a partition sorts first: the
			// one Compact keeps.
			sorted := slices.Clone(vals)
			slices.Reverse(sorted)
			slices.SortStableFunc(sorted, cmpKeys)
			vals = slices.CompactFunc(sorted, func(a, b T) bool { return cmpKeys(a, b) == 0 })
			break
		}
	}
	return partitionIndex[T]{vals: vals, key: key}
}

// get is the value of tp: the zero value and false when there is none.
func (x partitionIndex[T]) get(tp kafka.TopicPartition) (T, bool) {
	i, ok := slices.BinarySearchFunc(x.vals, tp, func(v T, tp kafka.TopicPartition) int {
		return kafka.CompareTopicPartitions(x.key(v), tp)
	})
	if !ok {
		var zero T
		return zero, false
	}
	return x.vals[i], true
}

// at is get's value alone, the zero value when there is none.
func (x partitionIndex[T]) at(tp kafka.TopicPartition) T {
	v, _ := x.get(tp)
	return v
}

// listedIndex indexes a ListOffsets answer by partition, passing the
// request's error through.
func listedIndex(los []admin.ListedOffset, err error) (partitionIndex[admin.ListedOffset], error) {
	if err != nil {
		return partitionIndex[admin.ListedOffset]{}, err
	}
	return newPartitionIndex(los, func(lo admin.ListedOffset) kafka.TopicPartition { return lo.TopicPartition }), nil
}

// committedIndex indexes the offsets a group committed
// (admin.GroupOffsets.Committed without its map): a partition answered
// with an error or without an offset is left out.
func committedIndex(offs []admin.CommittedOffset) partitionIndex[admin.CommittedOffset] {
	if slices.ContainsFunc(offs, func(o admin.CommittedOffset) bool { return !o.Committed() }) {
		offs = slices.DeleteFunc(slices.Clone(offs), func(o admin.CommittedOffset) bool { return !o.Committed() })
	}
	return newPartitionIndex(offs, func(o admin.CommittedOffset) kafka.TopicPartition { return o.TopicPartition })
}

// fillAll computes the lag of groups and, with opts.TimeLag, their time
// lag, and reads their settings (unless opts.WithoutSettings). The
// settings depend on the description only: they are read while the
// offsets and records are (the same groups as before: those described;
// they are kept for those whose offsets were read).
func fillAll(ctx context.Context, client Client, res *Result, opts Options) {
	// The settings and the time lag only enrich the lag: a broker that
	// never answers them leaves the other half of the time to the offsets
	// (issue 30).
	enrich, cancel := kafka.EnrichContext(ctx)
	defer cancel()
	var described []*Group
	for _, g := range res.Groups {
		if g.Err == nil {
			described = append(described, g)
		}
	}
	var settings map[string]*Settings
	var wg sync.WaitGroup
	if !opts.WithoutSettings {
		ids, coord := settingsGroups(described)
		wg.Go(func() { settings = ReadSettings(enrich, client, ids, coord) })
	}
	var pre *prefetch
	var beside besideLogStarts
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	if rr, ok := client.(RecordReader); ok && opts.TimeLag {
		beside = func(groups []*Group, committed map[string]partitionIndex[admin.CommittedOffset], latest partitionIndex[admin.ListedOffset]) {
			pre = readAhead(enrich, rr, groups, committed, latest, now)
		}
	}
	var rebalances map[*Group]*Rebalance
	if opts.LastRebalance {
		// described is chosen before fillLag writes the groups' Err: the
		// read runs beside it and touches no group until both are done.
		wg.Go(func() { rebalances = readRebalances(enrich, client, described) })
	}
	leaders := fillLag(ctx, client, described, beside)
	if opts.TimeLag {
		res.Fetches = fillTimeLag(enrich, client, res.Groups, leaders, now, pre)
	}
	wg.Wait()
	for g, r := range rebalances {
		g.Rebalance = r
	}
	if settings != nil {
		for _, g := range res.Groups {
			if g.Err == nil {
				g.Settings = settings[g.Group]
			}
		}
	}
}

// addCommittedTasks adds, to a group whose members hold no task at all
// (an Empty group), a task for each partition it committed on a source
// topic, so that a stopped application still shows where it stands.
func addCommittedTasks(g *Group, committed partitionIndex[admin.CommittedOffset]) {
	for _, st := range g.Subtopologies {
		if len(st.Tasks) > 0 {
			return
		}
	}
	for _, st := range g.Subtopologies {
		parts := map[int32]bool{}
		for _, src := range st.Sources {
			for _, co := range committed.vals {
				if co.Topic == src.Topic {
					parts[co.Partition] = true
				}
			}
		}
		for p := range parts {
			st.Tasks = append(st.Tasks, &Task{TaskID: TaskID{Subtopology: st.ID, Partition: p}})
		}
	}
}

// computeLag fills every task's offsets and lag, the subtopologies' and the
// group's totals. A partition the broker does not know (a source topic with
// fewer partitions than the subtopology has tasks) is left out; a source
// topic whose partition 0 it does not know is Missing.
func computeLag(g *Group, committed partitionIndex[admin.CommittedOffset], latest, earliest partitionIndex[admin.ListedOffset]) error {
	g.Lag, g.Largest = 0, nil
	for _, st := range g.Subtopologies {
		slices.SortFunc(st.Tasks, func(a, b *Task) int { return cmp.Compare(a.Partition, b.Partition) })
		for i := range st.Sources {
			st.Sources[i].Lag = 0
			st.Sources[i].Missing = isUnknownPartition(latest.at(kafka.TopicPartition{Topic: st.Sources[i].Topic, Partition: 0}).Err)
		}
		st.Lag, st.MaxTaskLag = 0, 0
		for _, t := range st.Tasks {
			t.Lag, t.Offsets = 0, nil
			for i, src := range st.Sources {
				tp := kafka.TopicPartition{Topic: src.Topic, Partition: t.Partition}
				end := latest.at(tp)
				if isUnknownPartition(end.Err) {
					continue
				}
				if end.Err != nil {
					return end.Err
				}
				start := earliest.at(tp)
				if start.Err != nil && !isUnknownPartition(start.Err) {
					return start.Err
				}
				row := PartitionLag{TopicPartition: tp, Repartition: src.Repartition, LogStart: start.Offset, LogEnd: end.Offset}
				from := start.Offset
				if c, ok := committed.get(tp); ok {
					off := c.Offset
					row.Committed, from = &off, off
				}
				row.Lag, row.Ahead = lagFrom(end.Offset, from)
				t.Offsets = append(t.Offsets, row)
				t.Lag = AddLag(t.Lag, row.Lag)
				st.Sources[i].Lag = AddLag(st.Sources[i].Lag, row.Lag)
			}
			st.Lag = AddLag(st.Lag, t.Lag)
			st.MaxTaskLag = max(st.MaxTaskLag, t.Lag)
			g.Lag = AddLag(g.Lag, t.Lag)
			if g.Largest == nil || t.Lag > g.Largest.Lag {
				g.Largest = t
			}
		}
	}
	return nil
}

func isUnknownPartition(err error) bool {
	var ke *kafka.Error
	return errors.As(err, &ke) && ke.Code == kafka.CodeUnknownTopicOrPartition
}

// storeView finds the subtopology holding store and lists its tasks.
func storeView(g *Group, store string) (*StoreView, error) {
	var known []string
	for _, st := range g.Subtopologies {
		for _, s := range st.Stores {
			if s.Name == store {
				return &StoreView{Name: store, Subtopology: st.ID, Changelog: s.Changelog, Tasks: st.Tasks}, nil
			}
			known = append(known, s.Name)
		}
	}
	for _, gs := range g.GlobalStores {
		if slices.Contains(gs.Processor.Stores, store) {
			return nil, &StoreNotFoundError{Group: g.Group, Store: store, Global: true}
		}
	}
	slices.Sort(known)
	return nil, &StoreNotFoundError{Group: g.Group, Store: store, Known: slices.Compact(known)}
}
