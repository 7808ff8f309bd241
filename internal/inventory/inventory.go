package inventory

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// DefaultMinAge is --min-age's default: a topic whose newest record was
// appended more recently is not deleted.
const DefaultMinAge = 24 * time.Hour

// Options select what to inventory and whether to clean up.
type Options struct {
	// Groups are the streams groups (application ids) to show, in this
	// order; none (or AllGroups) means every live streams group. Orphans
	// are then limited to the topics named after one of Groups.
	Groups    []string
	AllGroups bool
	// Orphans shows only the orphans (and, with Delete, deletes them).
	Orphans bool
	// Delete deletes the orphans listed; only with Execute is anything
	// deleted, else it is a dry run.
	Delete  bool
	Execute bool
	// DryRun is --dry-run, the default of Delete, said explicitly.
	DryRun bool
	// Configs also deletes the left-over group configs listed (with
	// Delete).
	Configs bool
	// MinAge: a topic whose newest record was appended less than MinAge
	// ago, or whose age is unknown, is not deleted (0: whatever its age).
	// MinAgeGiven: the user set it (it takes Delete).
	MinAge      time.Duration
	MinAgeGiven bool
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// BeforeRecheck, when set, runs between the listing and the re-checks
	// of a deletion: tests change the cluster there.
	BeforeRecheck func()
}

// Validate checks the options before any I/O.
func (o Options) Validate() error {
	switch {
	case o.Delete && !o.Orphans:
		return errors.New("Option [delete] takes [orphans]: only orphaned internal topics are ever deleted")
	case o.DryRun && o.Execute:
		return errors.New("Option [dry-run] can't be used with option [execute]")
	}
	// The options that only shape a deletion take --delete.
	for _, f := range []struct {
		name string
		set  bool
	}{{"execute", o.Execute}, {"dry-run", o.DryRun}, {"configs", o.Configs}, {"min-age", o.MinAgeGiven}} {
		if f.set && !o.Delete {
			return fmt.Errorf("Option [%s] takes [delete]", f.name)
		}
	}
	if o.MinAge < 0 {
		return fmt.Errorf("--min-age must not be negative, got %s", o.MinAge)
	}
	for _, g := range o.Groups {
		if strings.TrimSpace(g) == "" {
			return errors.New("--group must not be empty")
		}
	}
	return nil
}

// Client is what Run needs from the admin client.
type Client interface {
	ListAllGroups(ctx context.Context) ([]admin.AnyGroup, error)
	ListAllTopics(ctx context.Context) (*admin.ClusterTopics, error)
	DescribeStreamsGroups(ctx context.Context, groups []string, includeTopology bool) []admin.DescribedGroup
	DescribeTopicConfigs(ctx context.Context, topics, names []string) ([]admin.TopicConfigs, error)
	DescribeLogDirs(ctx context.Context) (*admin.LogDirSizes, error)
	FetchCommittedOffsets(ctx context.Context, groups []string) []admin.GroupOffsets
	FetchShareGroupOffsets(ctx context.Context, groups []string) []admin.GroupOffsets
	ListOffsets(ctx context.Context, tps []kafka.TopicPartition, timestamp int64) ([]admin.ListedOffset, error)
	FetchFirstRecords(ctx context.Context, qs []admin.FirstRecordQuery) ([]admin.FirstRecord, admin.FetchStats, error)
	DeleteTopics(ctx context.Context, topics []string) []admin.DeletedTopic
	ListGroupConfigResources(ctx context.Context) ([]string, error)
	DescribeGroupConfigs(ctx context.Context, groups []string) []kafka.GroupConfigs
	AlterGroupConfigs(ctx context.Context, alters []admin.GroupConfigAlter, validateOnly bool) []admin.AlteredGroupConfig
}

// Finding kinds: what differs between a declared internal topic (or a
// source topic) and the cluster.
const (
	FindingMissing           = "missing"
	FindingPartitions        = "partitions"
	FindingReplicationFactor = "replication_factor"
	FindingConfig            = "config"
	FindingSourceMissing     = "source_missing"
	// FindingNotReady: the group is NOT_READY and nothing above explains
	// it (the broker keeps the reason to the members' heartbeats).
	FindingNotReady = "not_ready"
)

// Finding is one difference.
type Finding struct {
	Kind  string
	Topic string
	// Config is the config's name for a FindingConfig.
	Config string
	// Want and Have are what the application expects and what the cluster
	// has ("" for a missing topic or config).
	Want, Have string
}

// Message is the finding in words.
func (f Finding) Message() string {
	switch f.Kind {
	case FindingMissing:
		return fmt.Sprintf("%s is missing", f.Topic)
	case FindingPartitions:
		return fmt.Sprintf("%s has %s partitions, expected %s", f.Topic, f.Have, f.Want)
	case FindingReplicationFactor:
		return fmt.Sprintf("%s has replication factor %s, the application asks for %s", f.Topic, f.Have, f.Want)
	case FindingConfig:
		have := f.Have
		if have == "" {
			have = "unset"
		}
		return fmt.Sprintf("%s has %s=%s, the application asks for %s", f.Topic, f.Config, have, f.Want)
	case FindingSourceMissing:
		return fmt.Sprintf("source topic %s is missing", f.Topic)
	case FindingNotReady:
		return "the group is NOT_READY, but every declared topic matches the cluster: the members may not have declared the current topology yet"
	}
	return f.Kind
}

// Usage is what a topic costs.
type Usage struct {
	// Bytes is the size on disk of every replica; CopyBytes that of one
	// copy (the largest replica of each partition, summed). SizeKnown is
	// false when no log directory reported the topic.
	Bytes, CopyBytes int64
	Copies           int16
	SizeKnown        bool
	// Empty: no partition holds a record. Newest is the newest record's
	// timestamp among the partitions it could be read from; Unknown
	// counts the non-empty partitions whose newest record could not be
	// read (a transaction marker, aborted records, an error).
	Empty   bool
	Newest  *time.Time
	Unknown int
	// CreateTime counts the partitions whose newest record carries its
	// producer's time (message.timestamp.type=CreateTime; in a changelog
	// or repartition topic, the input's event time), not the time the
	// broker appended it: the topic's age is then unknown.
	CreateTime int
}

// NewestKnown tells that the topic's newest record time is known: it is
// empty, or every non-empty partition's newest record was read.
func (u Usage) NewestKnown() bool { return u.Empty || (u.Newest != nil && u.Unknown == 0) }

// Topic is one declared internal topic against the cluster.
type Topic struct {
	Name, Kind  string
	Subtopology string
	Declared    kafka.DeclaredTopic
	// ExpectedPartitions is the count the broker requires (declared, or
	// derived as the broker derives it); 0 when it cannot be told.
	ExpectedPartitions int32
	Present            bool
	Partitions         int32
	ReplicationFactor  int16
	Usage              Usage
}

// Group is one streams group's internal topics.
type Group struct {
	Group string
	// Live is false when no live streams group has this id: its topics,
	// if any, are among the orphans.
	Live   bool
	State  string
	Topics []Topic
	// Findings are in topic order, the group's NOT_READY note last.
	Findings []Finding
	Err      error
}

// Bytes is the size on disk of the group's present declared topics.
func (g *Group) Bytes() int64 {
	var n int64
	for _, t := range g.Topics {
		n += t.Usage.Bytes
	}
	return n
}

// Orphan is a topic named as an internal topic that no live application
// declares.
type Orphan struct {
	Topic string
	// Application is the application id it belongs to by its name, ""
	// when the name allows several and none is known.
	Application       string
	Reason            string
	Partitions        int32
	ReplicationFactor int16
	Usage             Usage
}

// Kept is a topic named as an internal topic that is not an orphan,
// though no live application declares it, and why.
type Kept struct {
	Topic, Reason string
}

// Deletion outcomes.
const (
	Deleted     = "deleted"
	WouldDelete = "would_delete"
	Skipped     = "skipped"
	DeleteError = "failed"
)

// Outcome is what became of one listed orphan.
type Outcome struct {
	Topic   string
	Outcome string
	// Reason says why a topic was skipped; Err why its deletion failed.
	Reason string
	Err    error
}

// LeftoverConfig is a group that no longer exists but whose dynamic
// configs the broker keeps (FINDINGS F402).
type LeftoverConfig struct {
	Group string
	// Configs are its dynamic configs, by name.
	Configs []kafka.ConfigEntry
}

// Deletion is the cleanup's outcome, in the orphans' order; Configs, with
// Options.Configs, in the left-over configs' order, Outcome.Topic holding
// the group id.
type Deletion struct {
	Execute bool
	MinAge  time.Duration
	Topics  []Outcome
	Configs []Outcome
}

// NotDeletedError is a listed orphan that was not deleted.
type NotDeletedError struct{ Topic, Reason string }

func (e *NotDeletedError) Error() string {
	return fmt.Sprintf("internal topic %s not deleted: %s", e.Topic, e.Reason)
}

// Is makes a topic not deleted count as a deletion that failed.
func (e *NotDeletedError) Is(target error) bool { return target == kafka.ErrDeletionFailed }

// Result is the inventory.
type Result struct {
	At      time.Time
	Brokers int
	Groups  []*Group
	Orphans []Orphan
	Kept    []Kept
	// LeftoverConfigs are the dynamic configs of groups that no longer
	// exist, when the broker can list them (ListConfigResources).
	LeftoverConfigs []LeftoverConfig
	// Unread lists what could not be read and makes the orphans
	// uncertain: groups whose committed offsets are unknown, streams
	// groups not described, brokers that reported no sizes. Each is a
	// failure: a run with any is incomplete (Failures).
	Unread []*UnreadError
	// Notes are what the broker cannot tell (a broker older than 4.1
	// lists no group config resources): shown, but not a failure.
	Notes    []string
	Deletion *Deletion
}

// UnreadError is a part of the cluster that could not be read.
type UnreadError struct {
	// What names the part ("the committed offsets of group g").
	What string
	Err  error
}

func (e *UnreadError) Error() string { return "could not read " + e.Text() }

// Text is what could not be read and why, for a note.
func (e *UnreadError) Text() string { return e.What + ": " + e.Err.Error() }

func (e *UnreadError) Unwrap() error { return e.Err }

// OrphanedBytes is the size on disk of every orphan.
func (r *Result) OrphanedBytes() int64 {
	var n int64
	for _, o := range r.Orphans {
		n += o.Usage.Bytes
	}
	return n
}

// Failures lists the groups that could not be described, what else could
// not be read (the run is incomplete) and the listed orphans a cleanup did
// not delete (in a dry run: would not).
func (r *Result) Failures() []kafka.Failure {
	out := kafka.Failures(r.Groups, func(g *Group) (string, error) { return g.Group, g.Err })
	for _, u := range r.Unread {
		out = append(out, kafka.Failure{Err: u})
	}
	if r.Deletion != nil {
		for _, o := range r.Deletion.Topics {
			switch o.Outcome {
			case Skipped:
				out = append(out, kafka.Failure{Group: o.Topic, Err: &NotDeletedError{Topic: o.Topic, Reason: o.Reason}})
			case DeleteError:
				out = append(out, kafka.Failure{Group: o.Topic, Err: fmt.Errorf("internal topic %s not deleted: %w", o.Topic, o.Err)})
			}
		}
		for _, o := range r.Deletion.Configs {
			switch o.Outcome {
			case Skipped:
				out = append(out, kafka.Failure{Group: o.Topic, Err: &NotDeletedError{Topic: "configs of group " + o.Topic, Reason: o.Reason}})
			case DeleteError:
				out = append(out, kafka.Failure{Group: o.Topic, Err: fmt.Errorf("the configs of group %s not deleted: %w", o.Topic, o.Err)})
			}
		}
	}
	return out
}

// snapshot is what one pass read of the cluster.
type snapshot struct {
	groups  map[string]admin.AnyGroup
	topics  map[string]admin.ClusterTopic
	brokers int
	// live are the live streams groups described, descErr those that
	// could not be.
	live    map[string]*kafka.StreamsGroup
	descErr map[string]error
	// committed: topic → groups with a committed offset on it;
	// unknownOffsets: groups whose offsets could not be read, and why.
	committed      map[string][]string
	unknownOffsets []string
	offsetErrs     map[string]error
	// declared, read, written: topic → live streams groups.
	declared, read, written map[string][]string
}

func isLiveStreams(g admin.AnyGroup) bool {
	return g.Type == "streams" && !kafka.StateDead.Is(g.State)
}

// read takes a snapshot of the cluster.
func read(ctx context.Context, client Client) (*snapshot, error) {
	groups, err := client.ListAllGroups(ctx)
	if err != nil {
		return nil, err
	}
	cl, err := client.ListAllTopics(ctx)
	if err != nil {
		return nil, err
	}
	s := &snapshot{groups: map[string]admin.AnyGroup{}, topics: map[string]admin.ClusterTopic{}, brokers: len(cl.Brokers),
		live: map[string]*kafka.StreamsGroup{}, descErr: map[string]error{}, committed: map[string][]string{}, offsetErrs: map[string]error{},
		declared: map[string][]string{}, read: map[string][]string{}, written: map[string][]string{}}
	for _, t := range cl.Topics {
		s.topics[t.Topic] = t
	}
	var live, withOffsets, shares []string
	for _, g := range groups {
		s.groups[g.Group] = g
		switch {
		case isLiveStreams(g):
			live = append(live, g.Group)
			withOffsets = append(withOffsets, g.Group)
		case g.Type == "share":
			// Share groups keep their offsets apart (DescribeShareGroupOffsets).
			shares = append(shares, g.Group)
		case !kafka.StateDead.Is(g.State):
			withOffsets = append(withOffsets, g.Group)
		}
	}
	describeLive(ctx, client, live, s)
	var offsets []admin.GroupOffsets
	if len(withOffsets) > 0 {
		offsets = client.FetchCommittedOffsets(ctx, withOffsets)
	}
	if len(shares) > 0 {
		offsets = append(offsets, client.FetchShareGroupOffsets(ctx, shares)...)
	}
	for _, o := range offsets {
		if o.Err != nil {
			if errors.Is(o.Err, kafka.ErrGroupNotFound) {
				continue // gone since the listing: no offsets
			}
			s.unknownOffsets = append(s.unknownOffsets, o.Group)
			s.offsetErrs[o.Group] = o.Err
			continue
		}
		for _, c := range o.Offsets {
			if c.Committed() {
				addTo(s.committed, c.Topic, o.Group)
			}
		}
	}
	slices.Sort(s.unknownOffsets)
	return s, nil
}

// describeLive describes the live streams groups, with their topology
// description where the broker keeps one (for the sink topics), and
// indexes what they declare, read and write.
func describeLive(ctx context.Context, client Client, live []string, s *snapshot) {
	if len(live) == 0 {
		return
	}
	for _, d := range describeAll(ctx, client, live) {
		if d.Err != nil {
			if errors.Is(d.Err, kafka.ErrGroupNotFound) {
				continue // deleted since the listing
			}
			s.descErr[d.Group] = d.Err
			continue
		}
		s.live[d.Group] = d.Streams
		s.index(d.Group, d.Streams)
	}
}

// describeAll describes groups with their topology descriptions; those
// whose coordinator is too old for them (4.3) are described again
// without: v0 has the topology.
func describeAll(ctx context.Context, client Client, groups []string) []admin.DescribedGroup {
	ds := client.DescribeStreamsGroups(ctx, groups, true)
	var old []string
	for _, d := range ds {
		if errors.Is(d.Err, kafka.ErrBrokerTooOld) {
			old = append(old, d.Group)
		}
	}
	if len(old) == 0 {
		return ds
	}
	byID := map[string]admin.DescribedGroup{}
	for _, d := range client.DescribeStreamsGroups(ctx, old, false) {
		byID[d.Group] = d
	}
	for i, d := range ds {
		if a, ok := byID[d.Group]; ok {
			ds[i] = a
		}
	}
	return ds
}

// addTo adds group g to m[topic] once.
func addTo(m map[string][]string, topic, g string) {
	if !slices.Contains(m[topic], g) {
		m[topic] = append(m[topic], g)
	}
}

// index records what the live streams group g declares, reads and
// writes: its subtopologies' topics, and its topology description's
// sources and sinks.
func (s *snapshot) index(g string, sg *kafka.StreamsGroup) {
	for _, sub := range sg.Subtopologies {
		for _, t := range sub.Declared {
			addTo(s.declared, t.Name, g)
		}
		for _, t := range slices.Concat(sub.SourceTopics, sub.RepartitionSourceTopics) {
			addTo(s.read, t, g)
		}
		for _, t := range sub.RepartitionSinkTopics {
			addTo(s.written, t, g)
		}
	}
	if sg.Topology == nil {
		return
	}
	for _, sub := range sg.Topology.Subtopologies {
		for _, n := range sub.Nodes {
			switch {
			case n.Kind == topology.Source:
				for _, t := range n.Topics {
					addTo(s.read, t, g)
				}
			case n.Kind == topology.Sink && n.Topic != nil:
				addTo(s.written, *n.Topic, g)
			}
		}
	}
	for _, gs := range sg.Topology.GlobalStores {
		for _, t := range gs.Source.Topics {
			addTo(s.read, t, g)
		}
	}
}

// Run takes the inventory and, with Delete, cleans up.
func Run(ctx context.Context, client Client, opts Options) (*Result, error) {
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	s, err := read(ctx, client)
	if err != nil {
		return nil, err
	}
	r := &Result{At: now(), Brokers: s.brokers}
	for _, g := range s.unknownOffsets {
		r.Unread = append(r.Unread, &UnreadError{What: "the committed offsets of group " + g, Err: s.offsetErrs[g]})
	}
	if !opts.Orphans {
		r.Groups = groupsOf(s, opts)
	}
	r.Unread = append(r.Unread, undescribed(s, r.Groups)...)
	r.Orphans, r.Kept = orphansOf(s, opts.Groups)
	var unread []*UnreadError
	r.LeftoverConfigs, unread, r.Notes = leftoverConfigs(ctx, client, s, opts.Groups)
	r.Unread = append(r.Unread, unread...)

	var topics []string
	for _, g := range r.Groups {
		for _, t := range g.Topics {
			if t.Present {
				topics = append(topics, t.Name)
			}
		}
	}
	for _, o := range r.Orphans {
		topics = append(topics, o.Topic)
	}
	usage, unread, err := usageOf(ctx, client, s, topics)
	if err != nil {
		return nil, err
	}
	r.Unread = append(r.Unread, unread...)
	for _, g := range r.Groups {
		for i := range g.Topics {
			if g.Topics[i].Present {
				g.Topics[i].Usage = usage[g.Topics[i].Name]
			}
		}
	}
	for i := range r.Orphans {
		r.Orphans[i].Usage = usage[r.Orphans[i].Topic]
	}
	if err := configFindings(ctx, client, r.Groups); err != nil {
		return nil, err
	}
	for _, g := range r.Groups {
		if g.Live && kafka.StateNotReady.Is(g.State) && len(g.Findings) == 0 {
			g.Findings = append(g.Findings, Finding{Kind: FindingNotReady})
		}
	}
	if opts.Delete {
		d, err := cleanup(ctx, client, opts, r, now)
		if err != nil {
			return nil, err
		}
		r.Deletion = d
	}
	return r, nil
}

// undescribed are the streams groups that could not be described and
// that the groups section does not show with their error: the orphans
// named after them are kept, so what is listed may be incomplete.
func undescribed(s *snapshot, shown []*Group) []*UnreadError {
	var out []*UnreadError
	for _, id := range slices.Sorted(maps.Keys(s.descErr)) {
		if !slices.ContainsFunc(shown, func(g *Group) bool { return g.Group == id }) {
			out = append(out, &UnreadError{What: "the streams group " + id, Err: s.descErr[id]})
		}
	}
	return out
}

// groupsOf builds the groups section: the requested groups in order, or
// every live streams group by id.
func groupsOf(s *snapshot, opts Options) []*Group {
	ids := opts.Groups
	if len(ids) == 0 || opts.AllGroups {
		ids = slices.AppendSeq(slices.Collect(maps.Keys(s.live)), maps.Keys(s.descErr))
		slices.Sort(ids)
	}
	var out []*Group
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		g := &Group{Group: id}
		out = append(out, g)
		if err, ok := s.descErr[id]; ok {
			g.Live, g.State, g.Err = true, s.groups[id].State, err
			continue
		}
		sg, ok := s.live[id]
		if !ok {
			continue
		}
		g.Live, g.State = true, sg.State
		g.Topics = declaredTopics(s, sg)
		g.Findings = topicFindings(s, sg, g.Topics)
	}
	return out
}

// topicFindings are a live group's source topics that are missing, then
// what differs between its declared topics and the cluster's.
func topicFindings(s *snapshot, sg *kafka.StreamsGroup, topics []Topic) []Finding {
	var fs []Finding
	for _, sub := range sg.Subtopologies {
		for _, t := range sub.SourceTopics {
			if _, ok := s.topics[t]; !ok && !hasFinding(fs, FindingSourceMissing, t) {
				fs = append(fs, Finding{Kind: FindingSourceMissing, Topic: t})
			}
		}
	}
	for _, t := range topics {
		switch {
		case !t.Present:
			fs = append(fs, Finding{Kind: FindingMissing, Topic: t.Name})
			continue
		case t.ExpectedPartitions > 0 && t.Partitions != t.ExpectedPartitions:
			fs = append(fs, Finding{Kind: FindingPartitions, Topic: t.Name, Want: fmt.Sprint(t.ExpectedPartitions), Have: fmt.Sprint(t.Partitions)})
		}
		if rf := t.Declared.ReplicationFactor; rf > 0 && t.ReplicationFactor != rf {
			fs = append(fs, Finding{Kind: FindingReplicationFactor, Topic: t.Name, Want: fmt.Sprint(rf), Have: fmt.Sprint(t.ReplicationFactor)})
		}
	}
	return fs
}

func hasFinding(fs []Finding, kind, topic string) bool {
	return slices.ContainsFunc(fs, func(f Finding) bool { return f.Kind == kind && f.Topic == topic })
}

// configFindings compares the configs each present declared topic asks
// for with the topic's, read in one DescribeConfigs.
func configFindings(ctx context.Context, client Client, groups []*Group) error {
	topics, keys := configsAskedFor(groups)
	if len(topics) == 0 {
		return nil
	}
	tcs, err := client.DescribeTopicConfigs(ctx, topics, keys)
	if err != nil {
		return err
	}
	have := map[string]map[string]*string{}
	failed := map[string]error{}
	for _, tc := range tcs {
		if tc.Err != nil {
			failed[tc.Topic] = tc.Err
			continue
		}
		m := map[string]*string{}
		for _, c := range tc.Configs {
			m[c.Name] = c.Value
		}
		have[tc.Topic] = m
	}
	for _, g := range groups {
		g.Findings = append(g.Findings, g.configFindings(have, failed)...)
		slices.SortStableFunc(g.Findings, func(a, b Finding) int { return strings.Compare(a.Topic, b.Topic) })
	}
	return nil
}

// configsAskedFor are the present declared topics that ask for configs,
// each once, and the configs' names.
func configsAskedFor(groups []*Group) (topics, names []string) {
	keys := map[string]bool{}
	for _, g := range groups {
		for _, t := range g.Topics {
			if t.Present && len(t.Declared.Configs) > 0 && !slices.Contains(topics, t.Name) {
				topics = append(topics, t.Name)
				for _, c := range t.Declared.Configs {
					keys[c.Key] = true
				}
			}
		}
	}
	return topics, slices.Sorted(maps.Keys(keys))
}

// configFindings are the group's topics' configs that differ from what
// they ask for (have: topic → config → value); a topic whose configs
// could not be read (failed) is the group's error.
func (g *Group) configFindings(have map[string]map[string]*string, failed map[string]error) []Finding {
	var out []Finding
	for _, t := range g.Topics {
		if !t.Present {
			continue
		}
		if err := failed[t.Name]; err != nil && len(t.Declared.Configs) > 0 {
			if g.Err == nil {
				g.Err = fmt.Errorf("the configs of %s could not be read: %w", t.Name, err)
			}
			continue
		}
		for _, c := range t.Declared.Configs {
			cur := ""
			if v := have[t.Name][c.Key]; v != nil {
				cur = *v
			}
			if !sameConfig(c.Key, c.Value, cur) {
				out = append(out, Finding{Kind: FindingConfig, Topic: t.Name, Config: c.Key, Want: c.Value, Have: cur})
			}
		}
	}
	return out
}

// sameConfig compares a config's values; cleanup.policy is a set.
func sameConfig(key, want, have string) bool {
	if key != "cleanup.policy" {
		return want == have
	}
	split := func(v string) []string {
		var out []string
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	return slices.Equal(split(want), split(have))
}

// orphansOf finds the topics named as internal topics (of one of apps,
// when given) that no live streams group declares, and sorts them into
// orphans and those kept by a "never an orphan" rule. The rules run over
// every application id the name fits, whatever apps says ("orders-x-changelog"
// may be the live "orders-x"'s under --group orders): apps only chooses
// which of the results are listed.
func orphansOf(s *snapshot, apps []string) ([]Orphan, []Kept) {
	known := map[string]bool{}
	for id := range s.groups {
		known[id] = true
	}
	for _, a := range apps {
		known[a] = true
	}
	for name := range s.topics {
		if g := generatedOwner(name); g != "" {
			known[g] = true
		}
	}
	var orphans []Orphan
	var kept []Kept
	for _, name := range slices.Sorted(maps.Keys(s.topics)) {
		t := s.topics[name]
		if t.Internal || len(s.declared[name]) > 0 {
			continue
		}
		owners := Owners(name)
		if len(owners) == 0 || !inScope(owners, apps) {
			continue
		}
		if reason := keptBecause(s, name, owners); reason != "" {
			kept = append(kept, Kept{Topic: name, Reason: reason})
			continue
		}
		o := orphanOf(s, name, owners, apps, known)
		if len(apps) > 0 && o.Application != "" && !slices.Contains(apps, o.Application) {
			continue // another application's, by its name or a live group
		}
		orphans = append(orphans, o)
	}
	return orphans, kept
}

// inScope tells whether one of a name's possible owners is among apps
// (every name is, without apps).
func inScope(owners, apps []string) bool {
	return len(apps) == 0 || slices.ContainsFunc(owners, func(o string) bool { return slices.Contains(apps, o) })
}

// orphanOf is the orphan topic name, whose possible application ids are
// owners (longest first), with the application it belongs to and why it
// is an orphan: a live streams group among the owners that does not
// declare it, else the generated name's id, a group or a requested id
// among the owners, or the only owner.
func orphanOf(s *snapshot, name string, owners, apps []string, known map[string]bool) Orphan {
	t := s.topics[name]
	o := Orphan{Topic: name, Partitions: t.Partitions, ReplicationFactor: t.ReplicationFactor}
	for _, a := range owners { // longest first
		if _, live := s.live[a]; live {
			o.Application = a
			o.Reason = fmt.Sprintf("the live streams group %s does not declare it", a)
			return o
		}
	}
	if g := generatedOwner(name); g != "" {
		owners = []string{g} // the generated part names no application
	}
	o.Reason = "no streams group " + noneOf(owners) + " exists"
	if len(owners) == 1 {
		o.Application = owners[0]
		return o
	}
	for _, a := range owners { // a requested id first, then any known one
		if slices.Contains(apps, a) {
			o.Application = a
			return o
		}
	}
	for _, a := range owners {
		if known[a] {
			o.Application = a
			break
		}
	}
	return o
}

// noneOf names the candidate application ids: "app" or "a, a-b or a-b-c".
func noneOf(owners []string) string {
	o := slices.Clone(owners)
	slices.Reverse(o) // shortest first reads better
	if len(o) == 1 {
		return o[0]
	}
	return "named " + strings.Join(o[:len(o)-1], ", ") + " or " + o[len(o)-1]
}

// keptBecause is the "never an orphan" rule that keeps topic, "" when none
// does.
func keptBecause(s *snapshot, topic string, owners []string) string {
	if gs := s.committed[topic]; len(gs) > 0 {
		return "group " + strings.Join(gs, ", ") + " has committed offsets on it"
	}
	if gs := s.read[topic]; len(gs) > 0 {
		return "the live streams group " + strings.Join(gs, ", ") + " reads it"
	}
	if gs := s.written[topic]; len(gs) > 0 {
		return "the live streams group " + strings.Join(gs, ", ") + " writes it"
	}
	for _, a := range owners {
		if _, failed := s.descErr[a]; failed {
			return "the streams group " + a + " could not be described"
		}
		if sg, live := s.live[a]; live && sg.Subtopologies == nil {
			return "the streams group " + a + " has no topology yet"
		}
		if g, ok := s.groups[a]; ok && g.Type != "streams" && !kafka.StateDead.Is(g.State) {
			return fmt.Sprintf("a %s group %s exists: a Kafka Streams application on the classic protocol is a consumer group named after its application id", g.Type, a)
		}
	}
	return ""
}

// leftoverConfigs lists the groups with dynamic configs that no longer
// exist (of apps, when given), with those configs; unread says what could
// not be read, notes what the broker cannot tell (one older than 4.1
// cannot list them: that is no failure).
func leftoverConfigs(ctx context.Context, client Client, s *snapshot, apps []string) ([]LeftoverConfig, []*UnreadError, []string) {
	names, err := client.ListGroupConfigResources(ctx)
	if errors.Is(err, kafka.ErrBrokerTooOld) {
		return nil, nil, []string{"the broker cannot list the groups with dynamic configs (ListConfigResources v1, Apache Kafka 4.1 or newer): " + err.Error()}
	}
	if err != nil {
		return nil, []*UnreadError{{What: "the groups with dynamic configs (ListConfigResources)", Err: err}}, nil
	}
	var gone []string
	for _, g := range names {
		if _, exists := s.groups[g]; !exists && (len(apps) == 0 || slices.Contains(apps, g)) {
			gone = append(gone, g)
		}
	}
	if len(gone) == 0 {
		return nil, nil, nil
	}
	var out []LeftoverConfig
	var unread []*UnreadError
	for _, gc := range client.DescribeGroupConfigs(ctx, gone) {
		if gc.Err != nil {
			unread = append(unread, &UnreadError{What: "the configs of group " + gc.Group, Err: gc.Err})
			continue
		}
		l := LeftoverConfig{Group: gc.Group}
		for _, e := range gc.Entries {
			if e.Source == kafka.SourceGroup && e.Value != nil {
				l.Configs = append(l.Configs, kafka.ConfigEntry{Key: e.Name, Value: *e.Value})
			}
		}
		if len(l.Configs) > 0 {
			out = append(out, l)
		}
	}
	return out, unread, nil
}
