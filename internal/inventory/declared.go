package inventory

import (
	"cmp"
	"slices"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// declaredTopics lists a group's declared internal topics, each once, in
// subtopology order, with the partition counts the broker requires: a
// repartition topic's declared count, or the most partitions of the
// source topics of the subtopologies writing it; a changelog's, the most
// partitions of its subtopology's source topics (its task count). An
// existing topic's real count stands for itself in those maxima, as in
// the broker's InternalTopicManager. Linear in the topology's size (issue
// 32): see repartitionCounts.
func declaredTopics(s *snapshot, sg *kafka.StreamsGroup) []Topic {
	pc := newPartitionCounts(s, sg)
	pc.derive()
	var out []Topic
	seen := map[string]bool{}
	for _, sub := range sg.Subtopologies {
		for _, d := range sub.Declared {
			if seen[d.Name] {
				continue
			}
			seen[d.Name] = true
			t := Topic{Name: d.Name, Kind: d.Kind, Subtopology: sub.ID, Declared: d}
			if d.Kind == kafka.RepartitionTopic {
				t.ExpectedPartitions = pc.expect[d.Name]
			} else {
				t.ExpectedPartitions = pc.taskCount(sub)
			}
			if ct, ok := s.topics[d.Name]; ok {
				t.Present, t.Partitions, t.ReplicationFactor = true, ct.Partitions, ct.ReplicationFactor
			}
			out = append(out, t)
		}
	}
	return out
}

// partitionCounts works out the partition counts of one group's topics.
type partitionCounts struct {
	s    *snapshot
	subs []kafka.Subtopology
	// declared: a repartition topic's declared count (> 0); derived: the
	// repartition topics declared without one, whose count comes from
	// their writers' sources.
	declared map[string]int32
	derived  map[string]bool
	// expect is the count the broker requires of a repartition topic
	// (declared, or derived when one could be).
	expect map[string]int32
	// writers: topic → the subtopologies (indices) writing it; readers:
	// topic → the subtopologies reading it.
	writers, readers map[string][]int
}

func newPartitionCounts(s *snapshot, sg *kafka.StreamsGroup) *partitionCounts {
	pc := &partitionCounts{s: s, subs: sg.Subtopologies, declared: map[string]int32{}, derived: map[string]bool{},
		expect: map[string]int32{}, writers: map[string][]int{}, readers: map[string][]int{}}
	for i, sub := range sg.Subtopologies {
		for _, d := range sub.Declared {
			switch {
			case d.Kind != kafka.RepartitionTopic:
			case d.Partitions > 0:
				pc.declared[d.Name], pc.expect[d.Name] = d.Partitions, d.Partitions
			default:
				pc.derived[d.Name] = true
			}
		}
		for _, t := range sub.RepartitionSinkTopics {
			pc.writers[t] = append(pc.writers[t], i)
		}
		for _, t := range slices.Concat(sub.SourceTopics, sub.RepartitionSourceTopics) {
			pc.readers[t] = append(pc.readers[t], i)
		}
	}
	return pc
}

// count is a topic's partition count as a source: an existing topic's
// real one, else a repartition topic's declared or derived one; false
// when none is known.
func (pc *partitionCounts) count(topic string) (int32, bool) {
	if t, ok := pc.s.topics[topic]; ok {
		return t.Partitions, true
	}
	if n, ok := pc.declared[topic]; ok {
		return n, true
	}
	if n, ok := pc.expect[topic]; ok && pc.derived[topic] {
		return n, true
	}
	return 0, false
}

// passesThrough tells whether a topic's count as a source is its derived
// one: a repartition topic without a declared count that does not exist.
func (pc *partitionCounts) passesThrough(topic string) bool {
	_, exists := pc.s.topics[topic]
	return pc.derived[topic] && !exists
}

// derive sets the derived repartition topics' counts: the most partitions
// among the sources of the subtopologies writing each, where a source
// that passes through counts with its own derived count. That is the
// greatest known count from which the topic is reached through
// pass-through topics, so the subtopologies are taken by their own
// sources' greatest known count, largest first (a topological order of
// the maxima, which also settles cycles), and each reaches, through the
// repartition edges, the topics and subtopologies not reached yet: each
// edge is walked once.
func (pc *partitionCounts) derive() {
	base := make([]int32, len(pc.subs))
	var order []int
	for i, sub := range pc.subs {
		for _, src := range slices.Concat(sub.SourceTopics, sub.RepartitionSourceTopics) {
			if pc.passesThrough(src) {
				continue // reached from its writers
			}
			if n, ok := pc.count(src); ok {
				base[i] = max(base[i], n)
			}
		}
		if base[i] > 0 {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(base[b], base[a]) })
	reached := make([]bool, len(pc.subs))
	for _, root := range order {
		if reached[root] {
			continue
		}
		reached[root] = true
		for queue := []int{root}; len(queue) > 0; queue = queue[1:] {
			queue = append(queue, pc.reach(queue[0], base[root], reached)...)
		}
	}
}

// reach gives the derived topics subtopology i writes, not reached yet,
// the count n, and returns the subtopologies reading those that pass
// through, not reached yet.
func (pc *partitionCounts) reach(i int, n int32, reached []bool) []int {
	var next []int
	for _, t := range pc.subs[i].RepartitionSinkTopics {
		if _, done := pc.expect[t]; done || !pc.derived[t] {
			continue
		}
		pc.expect[t] = n
		if !pc.passesThrough(t) {
			continue
		}
		for _, r := range pc.readers[t] {
			if !reached[r] {
				reached[r] = true
				next = append(next, r)
			}
		}
	}
	return next
}

// taskCount is a changelog's expected count: the most partitions of its
// subtopology's sources, a repartition source counting with what it
// should have (a wrong one is its own finding, not its changelogs').
func (pc *partitionCounts) taskCount(sub kafka.Subtopology) int32 {
	var most int32
	for _, src := range sub.SourceTopics {
		if n, ok := pc.count(src); ok {
			most = max(most, n)
		}
	}
	for _, src := range sub.RepartitionSourceTopics {
		n, ok := pc.expect[src]
		if !ok {
			n, ok = pc.count(src)
		}
		if ok {
			most = max(most, n)
		}
	}
	return most
}
