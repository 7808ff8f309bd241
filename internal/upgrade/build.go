package upgrade

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/diff"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// Answers are what Build makes a plan from: the cluster's answers and
// NEW, with diff's comparison of the two.
type Answers struct {
	Group   string
	Streams *kafka.StreamsGroup
	// Offsets are the group's committed offsets (OffsetFetch).
	Offsets []admin.CommittedOffset
	New     *topology.Description
	// Comparison is diff's comparison of the group's stored topology
	// (OLD) with NEW, the group's id as the application id.
	Comparison *diff.Comparison
	// Topics, Starts and Ends answer Lookups: the partitions of the
	// internal topics the migration leaves, and their log start and end
	// offsets; nil when not asked or not answered.
	Topics       []admin.TopicInfo
	Starts, Ends []admin.ListedOffset
}

// full is an internal topic's name with the application id prefix, as
// the broker names it (diff's findings name them without).
func (a Answers) full(t string) string {
	if a.Group == "" || strings.HasPrefix(t, a.Group+"-") {
		return t
	}
	return a.Group + "-" + t
}

// changelogOf is a store's changelog topic (full name), as Kafka Streams
// names it (ProcessorStateManager.storeChangelogTopic).
func (a Answers) changelogOf(store string) string { return a.full(store + "-changelog") }

// Lookups are the topics whose partitions and offsets the plan needs when
// the broker refuses NEW: the repartition topics NEW renames or drops
// (are they drained?) and the changelogs of the stores NEW renames or
// drops (how much state is lost?), sorted.
func (a Answers) Lookups() []string {
	var out []string
	changelogs := a.changelogs()
	for _, f := range a.Comparison.Findings {
		switch f.Kind {
		case diff.RepartitionRenamed, diff.RepartitionRemoved:
			out = append(out, a.full(f.Old))
		case diff.StoreRenamed, diff.StoreRemoved:
			if cl := a.changelogOf(f.Old); changelogs == nil || changelogs[cl] {
				out = append(out, cl)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// changelogs are the changelog topics the coordinator lists for the group;
// nil when it lists no sub-topology (every store is then taken as logged).
func (a Answers) changelogs() map[string]bool {
	if len(a.Streams.Subtopologies) == 0 {
		return nil
	}
	return topicSet(a.Streams.Subtopologies, func(s kafka.Subtopology) []string { return s.StateChangelogTopics })
}

// topicSet is the set of the topics of each sub-topology that of lists.
func topicSet(subs []kafka.Subtopology, of func(kafka.Subtopology) []string) map[string]bool {
	out := map[string]bool{}
	for _, s := range subs {
		for _, t := range of(s) {
			out[t] = true
		}
	}
	return out
}

// Build makes the plan from the answers.
func Build(a Answers) *Plan {
	p := &Plan{Group: a.Group, State: a.Streams.State, Members: len(a.Streams.Members), DescriptionStatus: a.Streams.TopologyStatus, Verdict: AcceptedAsIs}
	p.Refused = refusedBy(a.Comparison)
	ends := offsetIndex(a.Ends)
	p.Offsets = a.carried()
	p.Stores = a.stores(sizes(a.Topics, offsetIndex(a.Starts), ends))
	p.Repartitions = a.repartitions(offsetIndex(a.Starts), ends)
	for _, f := range a.Comparison.Findings {
		if f.Kind == diff.SourceAdded {
			p.NewSources = append(p.NewSources, NewSource{Topic: f.New, Subtopology: f.NewSubtopology})
		}
	}
	p.LeftBehind = a.leftBehind(p)
	p.Preconditions = preconditions(a)
	if len(p.Refused) == 0 {
		return p
	}
	p.Verdict = MigrationNeeded
	p.Blockers = blockers(p)
	if len(p.Blockers) > 0 {
		p.Verdict = Blocked
	}
	return p
}

// refusedBy are the comparison's topology-refused findings.
func refusedBy(c *diff.Comparison) []Refusal {
	var out []Refusal
	for _, f := range c.Findings {
		if f.Kind == diff.TopologyRefused {
			out = append(out, Refusal{Subtopology: cmp.Or(f.OldSubtopology, f.NewSubtopology), Subject: f.Subject, Old: f.Old, New: f.New})
		}
	}
	return out
}

// strip is a topic's name without the application id prefix, so that
// OLD's topics and NEW's (a Topology#describe() text names internal
// topics without it, our documents with it) compare.
func (a Answers) strip(t string) string {
	if rest, ok := strings.CutPrefix(t, a.Group+"-"); ok && a.Group != "" {
		return rest
	}
	return t
}

// newReads are the topics NEW's sources read, without the prefix.
func (a Answers) newReads() map[string]bool {
	out := map[string]bool{}
	for _, s := range a.New.Subtopologies {
		for _, n := range s.Nodes {
			if n.Kind == topology.Source {
				for _, t := range n.Topics {
					out[a.strip(t)] = true
				}
			}
		}
	}
	return out
}

// carried are every committed offset of the group: the input and
// repartition topics of OLD (a repartition offset left out is re-read and
// counted twice), and any other the group holds, which costs nothing to
// keep and keeps the export whole.
func (a Answers) carried() []Offset {
	repartition := topicSet(a.Streams.Subtopologies, func(s kafka.Subtopology) []string { return s.RepartitionSourceTopics })
	reads := a.newReads()
	var out []Offset
	for _, o := range a.Offsets {
		if !o.Committed() {
			continue
		}
		kind := InputOffset
		if repartition[o.Topic] {
			kind = RepartitionOffset
		}
		out = append(out, Offset{Group: a.Group, TopicPartition: o.TopicPartition, Offset: o.Offset, Kind: kind, InNew: reads[a.strip(o.Topic)]})
	}
	slices.SortFunc(out, func(x, y Offset) int { return kafka.CompareTopicPartitions(x.TopicPartition, y.TopicPartition) })
	return out
}

// stores lists OLD's stores (global stores aside: their state is rebuilt
// from their topic by every instance) with their fate from diff's
// findings, then NEW's new ones.
func (a Answers) stores(records map[string]int64) []Store {
	renamed, dropped := map[string]diff.Finding{}, map[string]bool{}
	var added []diff.Finding
	for _, f := range a.Comparison.Findings {
		switch f.Kind {
		case diff.StoreRenamed:
			renamed[f.Old] = f
		case diff.StoreRemoved:
			dropped[f.Old] = true
		case diff.StoreAdded:
			added = append(added, f)
		}
	}
	changelogs := a.changelogs()
	changelog := func(store string) string {
		if cl := a.changelogOf(store); changelogs == nil || changelogs[cl] {
			return cl
		}
		return ""
	}
	var out []Store
	seen := map[string]bool{}
	for _, s := range a.Streams.Topology.Subtopologies {
		for _, n := range s.Nodes {
			for _, name := range n.Stores {
				if seen[name] {
					continue
				}
				seen[name] = true
				st := Store{Name: name, NewName: name, Fate: StoreKept, Subtopology: s.ID, Changelog: changelog(name), ChangelogRecords: -1}
				st.NewChangelog = st.Changelog
				if f, ok := renamed[name]; ok {
					st.Fate, st.NewName, st.NewChangelog = StoreRenamed, f.New, a.changelogOf(f.New)
				} else if dropped[name] {
					st.Fate, st.NewName, st.NewChangelog = StoreDropped, "", ""
				}
				if n, ok := records[st.Changelog]; ok && st.Lost() {
					st.ChangelogRecords = n
				}
				out = append(out, st)
			}
		}
	}
	for _, f := range added {
		out = append(out, Store{NewName: f.New, Fate: StoreNew, Subtopology: f.NewSubtopology, NewChangelog: a.changelogOf(f.New), ChangelogRecords: -1})
	}
	return out
}

// repartitions are OLD's repartition topics that NEW renames or drops,
// each partition with its committed, start and end offsets.
func (a Answers) repartitions(starts, ends map[kafka.TopicPartition]int64) []Repartition {
	committed := map[kafka.TopicPartition]int64{}
	for _, o := range a.Offsets {
		if o.Committed() {
			committed[o.TopicPartition] = o.Offset
		}
	}
	partitions := map[string][]int32{}
	for _, t := range a.Topics {
		if t.Err == nil {
			for _, p := range t.Partitions {
				partitions[t.Topic] = append(partitions[t.Topic], p.Partition)
			}
		}
	}
	var out []Repartition
	for _, f := range a.Comparison.Findings {
		if f.Kind != diff.RepartitionRenamed && f.Kind != diff.RepartitionRemoved {
			continue
		}
		r := Repartition{Topic: a.full(f.Old), Fate: RepartitionDropped}
		if f.Kind == diff.RepartitionRenamed {
			r.Fate, r.NewTopic = RepartitionRenamed, a.full(f.New)
		}
		ps := partitions[r.Topic]
		r.Known = len(ps) > 0
		for _, n := range ps {
			tp := kafka.TopicPartition{Topic: r.Topic, Partition: n}
			p := InFlight{Partition: n, Committed: -1, Start: -1, End: -1}
			if c, ok := committed[tp]; ok {
				p.Committed = c
			}
			if s, ok := starts[tp]; ok {
				p.Start = s
			}
			e, ok := ends[tp]
			if ok {
				p.End = e
			}
			r.Known = r.Known && ok && (p.Committed >= 0 || p.Start >= 0)
			r.Partitions = append(r.Partitions, p)
		}
		out = append(out, r)
	}
	slices.SortFunc(out, func(x, y Repartition) int { return strings.Compare(x.Topic, y.Topic) })
	return out
}

// offsetIndex indexes the offsets answered without an error.
func offsetIndex(los []admin.ListedOffset) map[kafka.TopicPartition]int64 {
	out := make(map[kafka.TopicPartition]int64, len(los))
	for _, lo := range los {
		if lo.Err == nil && lo.Offset >= 0 {
			out[lo.TopicPartition] = lo.Offset
		}
	}
	return out
}

// sizes are the records of each topic whose every partition's start and
// end offsets are known: the end minus the start, summed.
func sizes(topics []admin.TopicInfo, starts, ends map[kafka.TopicPartition]int64) map[string]int64 {
	out := map[string]int64{}
	for _, t := range topics {
		if t.Err != nil || len(t.Partitions) == 0 {
			continue
		}
		var n int64
		known := true
		for _, p := range t.Partitions {
			tp := kafka.TopicPartition{Topic: t.Topic, Partition: p.Partition}
			s, sok := starts[tp]
			e, eok := ends[tp]
			if !sok || !eok {
				known = false
				break
			}
			n += max(e-s, 0)
		}
		if known {
			out[t.Topic] = n
		}
	}
	return out
}

// leftBehind are OLD's internal topics that NEW no longer uses and the
// offsets of topics NEW does not read.
func (a Answers) leftBehind(p *Plan) LeftBehind {
	var lb LeftBehind
	for _, s := range p.Stores {
		if s.Lost() && s.Changelog != "" {
			lb.Topics = append(lb.Topics, s.Changelog)
		}
	}
	for _, r := range p.Repartitions {
		lb.Topics = append(lb.Topics, r.Topic)
	}
	slices.Sort(lb.Topics)
	lb.Topics = slices.Compact(lb.Topics)
	for _, o := range p.Offsets {
		if !o.InNew {
			lb.Offsets = append(lb.Offsets, o.TopicPartition)
		}
	}
	return lb
}

// preconditions are the migration's preconditions as they hold now.
func preconditions(a Answers) []Precondition {
	g := a.Streams
	return []Precondition{
		{Kind: GroupEmpty, Holds: g.State == "Empty", Detail: "state " + g.State},
		{Kind: NoMembers, Holds: len(g.Members) == 0, Detail: members(len(g.Members))},
		{Kind: NewReadable, Holds: a.New != nil, Detail: subtopologies(len(a.New.Subtopologies))},
	}
}

// blockers are why the migration cannot be carried out now: the group
// still running, or a repartition topic NEW leaves with records in it.
func blockers(p *Plan) []Blocker {
	var out []Blocker
	if p.State != "Empty" {
		out = append(out, Blocker{Kind: BlockerNotEmpty, Subject: p.Group, Detail: "the group is " + p.State + ": stop every instance of the application first"})
	}
	if p.Members > 0 {
		out = append(out, Blocker{Kind: BlockerMembers, Subject: p.Group, Detail: members(p.Members) + ": the group cannot be deleted nor its offsets committed while any is left"})
	}
	for _, r := range p.Repartitions {
		switch {
		case !r.Known:
			out = append(out, Blocker{Kind: BlockerUnknownEnd, Subject: r.Topic, Detail: "its end offsets could not be read: whether it is drained is unknown"})
		case !r.Drained():
			out = append(out, Blocker{Kind: BlockerUndrained, Subject: r.Topic,
				Detail: fmt.Sprintf("%d records in flight: NEW does not read it, so they would be lost; stop the input and let the old version read it to the end first", r.InFlight())})
		}
	}
	return out
}

func members(n int) string {
	if n == 1 {
		return "1 member"
	}
	return fmt.Sprintf("%d members", n)
}

func subtopologies(n int) string {
	if n == 1 {
		return "1 sub-topology"
	}
	return fmt.Sprintf("%d sub-topologies", n)
}
