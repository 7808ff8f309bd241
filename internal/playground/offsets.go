package playground

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Offsets: OffsetFetch (key 9) and ListOffsets (key 2), for the offsets view
// of kafka-streams-groups.sh --describe. The cluster keeps a log start and
// end offset per partition (both 0 until set) and the offsets each group
// committed; nothing is ever produced or consumed, tests set the numbers.
//
// OffsetFetch follows the KIP-848/KIP-1071 group coordinator: the
// coordinator answers, other nodes say NOT_COORDINATOR per group; a group
// that does not exist has no offsets and no error; a streams group accepts
// the admin form (member id null, member epoch -1, StreamsGroup.
// validateOffsetFetch) and otherwise checks the member and its epoch. v8+
// batch groups, v10 names topics by id. A Fault with Key 9 answers its
// ErrorCode for the group (or for every group of the request when Group is
// "").
//
// ListOffsets answers from the partition leader only (other nodes:
// NOT_LEADER_OR_FOLLOWER), UNKNOWN_TOPIC_OR_PARTITION for what Metadata does
// not know, the log start for -2 (EARLIEST) and -4 (EARLIEST_LOCAL), the log
// end for -1 (LATEST) and -5 (LATEST_TIERED), and for -3 (MAX_TIMESTAMP) the
// record with the largest timestamp (the last offset when the partition has
// no timestamps; -1 on an empty log). A real timestamp T answers, as the
// broker's time index does, the first offset from the log start whose
// record timestamp is at least T, with that timestamp, or "no offset" (-1,
// timestamp -1) when there is none; records are the partition's
// timestamps (SetRecordTimestamps, the state file's timestamps), and a
// partition without timestamps has no record to find.

// Committed is an offset a group committed for a partition.
type Committed struct {
	Topic     string
	Partition int32
	Offset    int64
	// LeaderEpoch is the leader epoch sent with the commit; -1 means none.
	LeaderEpoch int32
	Metadata    *string
}

// StateCommitted is a Committed in a state file, where an omitted
// leader_epoch means none (-1).
type StateCommitted struct {
	Topic       string  `yaml:"topic"`
	Partition   int32   `yaml:"partition"`
	Offset      int64   `yaml:"offset"`
	LeaderEpoch *int32  `yaml:"leader_epoch"`
	Metadata    *string `yaml:"metadata"`
}

func (o StateCommitted) committed() Committed {
	epoch := int32(-1)
	if o.LeaderEpoch != nil {
		epoch = *o.LeaderEpoch
	}
	return Committed{Topic: o.Topic, Partition: o.Partition, Offset: o.Offset, LeaderEpoch: epoch, Metadata: o.Metadata}
}

// offsetBook is the cluster's offset state; the zero value is empty.
// Callers hold c.mu.
type offsetBook struct {
	logs      map[string][]logRange          // topic → per partition
	committed map[string]map[tpKey]Committed // group → partition → commit
	// times holds record timestamps (ms): times[topic][p][i] is the
	// timestamp of offset start+i of partition p.
	times map[string][][]int64
	// layout is how Fetch cuts each topic's records into batches
	// (fetch.go); a topic missing here has the defaults.
	layout map[string]topicLog
	// cache holds the batches Fetch encoded (fetch.go); nil until the
	// first Fetch, and dropped when a log changes.
	cache *batchCache
}

type logRange struct{ start, end int64 }

type tpKey struct {
	topic     string
	partition int32
}

// SetLogOffsets sets the log start and end offset of one partition. The
// partition does not have to exist; Metadata and ListOffsets only answer
// for partitions of topics added with PutTopic.
func (c *Cluster) SetLogOffsets(topicName string, partition int32, start, end int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.offsets.setLog(topicName, partition, start, end)
}

func (b *offsetBook) setLog(topicName string, partition int32, start, end int64) {
	b.cache = nil
	if b.logs == nil {
		b.logs = map[string][]logRange{}
	}
	b.logs[topicName] = setAt(b.logs[topicName], partition, logRange{start: start, end: end})
}

func (b *offsetBook) log(topicName string, partition int32) logRange {
	return at(b.logs[topicName], partition)
}

// at is s[i], or the zero value outside s.
func at[T any](s []T, i int32) T {
	if i < 0 || int(i) >= len(s) {
		var zero T
		return zero
	}
	return s[i]
}

// setAt is s with s[i] = v, grown with zero values to hold it.
func setAt[T any](s []T, i int32, v T) []T {
	for int32(len(s)) <= i {
		var zero T
		s = append(s, zero)
	}
	s[i] = v
	return s
}

// logRange is the log a state file gives partition p.
func (t StateTopic) logRange(p int32) logRange {
	return logRange{start: at(t.StartOffsets, p), end: at(t.EndOffsets, p)}
}

// SetRecordTimestamps sets the record timestamps (ms since the epoch) of one
// partition: ts[i] is the timestamp of the record at the partition's log
// start offset plus i. ListOffsets by timestamp searches them.
func (c *Cluster) SetRecordTimestamps(topicName string, partition int32, ts []int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.offsets.setTimes(topicName, partition, ts)
}

func (b *offsetBook) setTimes(topicName string, partition int32, ts []int64) {
	b.cache = nil
	if b.times == nil {
		b.times = map[string][][]int64{}
	}
	b.times[topicName] = setAt(b.times[topicName], partition, slices.Clone(ts))
}

// byTimestamp returns the first offset of the partition whose record
// timestamp is at least ts, and that timestamp, or -1, -1.
func (b *offsetBook) byTimestamp(topicName string, partition int32, ts int64) (offset, timestamp int64) {
	l := b.log(topicName, partition)
	for i, t := range b.partitionTimes(topicName, partition) {
		if off := l.start + int64(i); off < l.end && t >= ts {
			return off, t
		}
	}
	return -1, -1
}

// maxTimestamp returns the offset and timestamp of the partition's record
// with the largest timestamp (the first of equals); the last offset and -1
// when the partition has no timestamps; -1, -1 when there is none.
func (b *offsetBook) maxTimestamp(topicName string, partition int32) (offset, timestamp int64) {
	l := b.log(topicName, partition)
	times := b.partitionTimes(topicName, partition)
	if times == nil && l.end > l.start {
		return l.end - 1, -1
	}
	offset, timestamp = -1, -1
	for i, t := range times {
		if off := l.start + int64(i); off < l.end && t > timestamp {
			offset, timestamp = off, t
		}
	}
	return offset, timestamp
}

func (b *offsetBook) partitionTimes(topicName string, partition int32) []int64 {
	return at(b.times[topicName], partition)
}

// Commit records an offset of group, as an OffsetCommit would. LeaderEpoch
// -1 means the committer sent none.
func (c *Cluster) Commit(group string, o Committed) { c.CommitBatch(group, []Committed{o}) }

// CommitBatch records offsets of group as one OffsetCommit would, and
// writes them as one batch: for tests and benchmarks that fill the
// coordinator log.
func (c *Cluster) CommitBatch(group string, os []Committed) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.commitLocked(group, os)
}

func (c *Cluster) commitLocked(group string, os []Committed) {
	for _, o := range os {
		c.offsets.commit(group, o)
	}
	c.writeCommitsLocked(group, os, false)
}

func (b *offsetBook) commit(group string, o Committed) {
	if b.committed == nil {
		b.committed = map[string]map[tpKey]Committed{}
	}
	m := b.committed[group]
	if m == nil {
		m = map[tpKey]Committed{}
		b.committed[group] = m
	}
	o.Metadata = clonePtr(o.Metadata)
	m[tpKey{o.Topic, o.Partition}] = o
}

// CommittedOffsets returns group's committed offsets sorted by topic and
// partition.
func (c *Cluster) CommittedOffsets(group string) []Committed {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.offsets.sorted(group)
}

func (b *offsetBook) sorted(group string) []Committed {
	out := slices.Collect(maps.Values(b.committed[group]))
	slices.SortFunc(out, func(a, b Committed) int {
		return cmp.Or(strings.Compare(a.Topic, b.Topic), cmp.Compare(a.Partition, b.Partition))
	})
	return out
}

func (c *Cluster) handleOffsetFetch(n *node, r *kmsg.OffsetFetchRequest, resp *kmsg.OffsetFetchResponse) {
	if r.Version < 8 {
		// One group per request, answered at the top level.
		g := c.offsetFetchGroupLocked(n, r, kmsg.OffsetFetchRequestGroup{Group: r.Group, MemberEpoch: -1, Topics: v7Topics(r.Topics)})
		resp.ErrorCode = g.ErrorCode
		for _, t := range g.Topics {
			rt := kmsg.NewOffsetFetchResponseTopic()
			rt.Topic = t.Topic
			for _, p := range t.Partitions {
				rp := kmsg.NewOffsetFetchResponseTopicPartition()
				rp.Partition, rp.Offset, rp.LeaderEpoch, rp.Metadata, rp.ErrorCode = p.Partition, p.Offset, p.LeaderEpoch, p.Metadata, p.ErrorCode
				rt.Partitions = append(rt.Partitions, rp)
			}
			resp.Topics = append(resp.Topics, rt)
		}
		return
	}
	for _, rg := range r.Groups {
		resp.Groups = append(resp.Groups, c.offsetFetchGroupLocked(n, r, rg))
	}
}

func v7Topics(in []kmsg.OffsetFetchRequestTopic) []kmsg.OffsetFetchRequestGroupTopic {
	if in == nil {
		return nil
	}
	out := make([]kmsg.OffsetFetchRequestGroupTopic, 0, len(in))
	for _, t := range in {
		out = append(out, kmsg.OffsetFetchRequestGroupTopic{Topic: t.Topic, Partitions: t.Partitions})
	}
	return out
}

func (c *Cluster) offsetFetchGroupLocked(n *node, r *kmsg.OffsetFetchRequest, rg kmsg.OffsetFetchRequestGroup) kmsg.OffsetFetchResponseGroup {
	out := kmsg.NewOffsetFetchResponseGroup()
	out.Group = rg.Group
	if code, _, stop := c.groupCheckLocked(r.Key(), n, rg.Group); stop {
		out.ErrorCode = code
		return out
	}
	if g, ok := c.groups[rg.Group]; ok && g.streams != nil {
		if code := g.streams.checkFetcher(rg.MemberID, rg.MemberEpoch); code != 0 {
			out.ErrorCode = code
			return out
		}
	}
	ans := fetchAnswers{byID: r.Version >= 10, index: map[string]*fetchAnswer{}}
	if rg.Topics == nil {
		c.answerAllCommittedLocked(&ans, rg.Group)
	} else {
		c.answerRequestedLocked(&ans, rg)
	}
	for _, a := range ans.list {
		t := kmsg.NewOffsetFetchResponseGroupTopic()
		if ans.byID {
			t.TopicID = a.id
		} else {
			t.Topic = a.topic
		}
		t.Partitions = a.partitions
		out.Topics = append(out.Topics, t)
	}
	return out
}

// fetchAnswers gathers an OffsetFetch group's answer by topic, in the
// order topics first appear; byID answers by topic id (v10).
type fetchAnswers struct {
	byID  bool
	list  []*fetchAnswer
	index map[string]*fetchAnswer
}

type fetchAnswer struct {
	topic      string
	id         [16]byte
	partitions []kmsg.OffsetFetchResponseGroupTopicPartition
}

// add answers partition p of a topic: its committed offset o when found,
// else Kafka's "no offset" (-1, no epoch, empty metadata).
func (f *fetchAnswers) add(topicName string, id [16]byte, o Committed, found bool, p int32) {
	a := f.index[topicName]
	if a == nil {
		a = &fetchAnswer{topic: topicName, id: id}
		f.index[topicName] = a
		f.list = append(f.list, a)
	}
	rp := kmsg.NewOffsetFetchResponseGroupTopicPartition()
	rp.Partition = p
	if !found {
		rp.Offset, rp.LeaderEpoch, rp.Metadata = -1, -1, strPtr("")
	} else {
		rp.Offset, rp.LeaderEpoch = o.Offset, o.LeaderEpoch
		rp.Metadata = clonePtr(o.Metadata)
		if rp.Metadata == nil {
			rp.Metadata = strPtr("")
		}
	}
	a.partitions = append(a.partitions, rp)
}

// answerAllCommittedLocked answers every committed partition, the answer
// Kafka gives an admin client. At v10 a topic Metadata does not know has
// no id and is left out, as the broker skips deleted topics.
func (c *Cluster) answerAllCommittedLocked(f *fetchAnswers, group string) {
	for _, o := range c.offsets.sorted(group) {
		var id [16]byte
		if f.byID {
			t, ok := c.topics[o.Topic]
			if !ok {
				continue
			}
			id = t.id
		}
		f.add(o.Topic, id, o, true, o.Partition)
	}
}

// answerRequestedLocked answers the requested partitions, by name or (v10)
// by topic id; an unknown id answers "no offset".
func (c *Cluster) answerRequestedLocked(f *fetchAnswers, rg kmsg.OffsetFetchRequestGroup) {
	have := c.offsets.committed[rg.Group]
	for _, rt := range rg.Topics {
		name, id := rt.Topic, rt.TopicID
		if f.byID {
			name = c.topicNameByIDLocked(rt.TopicID)
		}
		for _, p := range rt.Partitions {
			o, found := have[tpKey{name, p}]
			if name == "" {
				found = false
			}
			f.add(name, id, o, found, p)
		}
	}
}

// topicNameByIDLocked is the name of the topic with id, or "".
func (c *Cluster) topicNameByIDLocked(id [16]byte) string {
	if id == offsetsTopicID {
		return OffsetsTopic
	}
	if t := c.topicByIDLocked(id); t != nil {
		return t.name
	}
	return ""
}

// checkFetcher applies StreamsGroup.validateOffsetFetch: the admin form
// (no member id, epoch -1) is always accepted; otherwise the member must
// exist and the epoch, when given, must match.
func (e *streamsEntry) checkFetcher(memberID *string, epoch int32) int16 {
	switch {
	case memberID != nil:
		return e.checkMember(*memberID, epoch)
	case epoch < 0:
		return 0
	}
	return kerr.UnknownMemberID.Code
}

// The ListOffsets special timestamps (KIP-79, KIP-734, KIP-1005).
const (
	tsLatest        int64 = -1
	tsEarliest      int64 = -2
	tsMaxTimestamp  int64 = -3
	tsEarliestLocal int64 = -4
	tsLatestTiered  int64 = -5
)

func (c *Cluster) handleListOffsets(n *node, r *kmsg.ListOffsetsRequest, resp *kmsg.ListOffsetsResponse) {
	nodes := int32(len(c.nodes))
	for _, rt := range r.Topics {
		t := kmsg.NewListOffsetsResponseTopic()
		t.Topic = rt.Topic
		known, ok := c.namedTopicLocked(rt.Topic)
		for _, rp := range rt.Partitions {
			p := kmsg.NewListOffsetsResponseTopicPartition()
			p.Partition = rp.Partition
			p.Timestamp, p.Offset, p.LeaderEpoch = -1, -1, -1
			switch {
			case !ok || rp.Partition < 0 || rp.Partition >= known.partitions:
				p.ErrorCode = kerr.UnknownTopicOrPartition.Code
			case leaderOf(rt.Topic, rp.Partition, nodes) != n.id:
				p.ErrorCode = kerr.NotLeaderForPartition.Code
			case rt.Topic == OffsetsTopic:
				cl := c.coordLogLocked()
				p.LeaderEpoch = 0
				p.Offset, p.Timestamp = listOffset(rp.Timestamp, cl.rangeOf(rp.Partition),
					func() (int64, int64) { return cl.maxTimestamp(rp.Partition) },
					func(ts int64) (int64, int64) { return cl.byTimestamp(rp.Partition, ts) })
			default:
				p.LeaderEpoch = 0
				p.Offset, p.Timestamp = listOffset(rp.Timestamp, c.offsets.log(rt.Topic, rp.Partition),
					func() (int64, int64) { return c.offsets.maxTimestamp(rt.Topic, rp.Partition) },
					func(ts int64) (int64, int64) { return c.offsets.byTimestamp(rt.Topic, rp.Partition, ts) })
				if r.Version == 0 && p.Offset >= 0 {
					p.OldStyleOffsets = []int64{p.Offset}
				}
			}
			t.Partitions = append(t.Partitions, p)
		}
		resp.Topics = append(resp.Topics, t)
	}
}

// listOffset answers ListOffsets' timestamp ts on log l, whose record
// timestamps maxTS and byTS search.
func listOffset(ts int64, l logRange, maxTS func() (int64, int64), byTS func(int64) (int64, int64)) (offset, timestamp int64) {
	switch {
	case ts == tsEarliest || ts == tsEarliestLocal:
		return l.start, -1
	case ts == tsLatest || ts == tsLatestTiered:
		return l.end, -1
	case ts == tsMaxTimestamp:
		return maxTS()
	case ts >= 0:
		return byTS(ts)
	}
	return -1, -1
}

// validateOffsets checks the offset keys of a state file.
func validateOffsets(s *State, p *problems) {
	topics := map[string]int32{}
	for _, t := range s.Topics {
		topics[t.Name] = t.Partitions
	}
	for i, t := range s.Topics {
		where := fmt.Sprintf("topics[%d] (%s)", i, t.Name)
		validateLogOffsets(where, t, p)
		validateLayout(where, t, p)
		validateTimestamps(where, t, p)
		validateProducedOver(where, t, p)
	}
	for i, g := range s.StreamsGroups {
		validateCommitted(fmt.Sprintf("streams_groups[%d] (%s)", i, g.ID), g.CommittedOffsets, topics, p)
	}
}

// validateLogOffsets checks a topic's start and end offsets: one per
// partition, none negative, no start after its end.
func validateLogOffsets(where string, t StateTopic, p *problems) {
	for _, k := range []struct {
		key  string
		list []int64
	}{{"start_offsets", t.StartOffsets}, {"end_offsets", t.EndOffsets}} {
		if len(k.list) > 0 && int32(len(k.list)) != t.Partitions {
			p.add("%s: %s has %d entries, want one per partition (%d)", where, k.key, len(k.list), t.Partitions)
		}
		for j, o := range k.list {
			if o < 0 {
				p.add("%s: %s[%d] is negative (%d)", where, k.key, j, o)
			}
		}
	}
	for j := range min(len(t.StartOffsets), len(t.EndOffsets)) {
		if t.StartOffsets[j] > t.EndOffsets[j] {
			p.add("%s: partition %d starts at %d, after its end %d", where, j, t.StartOffsets[j], t.EndOffsets[j])
		}
	}
}

// validateTimestamps checks a topic's record timestamps: one list per
// partition, no more records than the partition holds, none negative.
func validateTimestamps(where string, t StateTopic, p *problems) {
	if len(t.Timestamps) > 0 && int32(len(t.Timestamps)) != t.Partitions {
		p.add("%s: timestamps has %d entries, want one list per partition (%d)", where, len(t.Timestamps), t.Partitions)
	}
	for j, ts := range t.Timestamps {
		r := t.logRange(int32(j))
		if int64(len(ts)) > r.end-r.start {
			p.add("%s: timestamps[%d] has %d records, but partition %d holds %d (offsets %d to %d)", where, j, len(ts), j, max(r.end-r.start, 0), r.start, r.end)
		}
		for k, v := range ts {
			if v < 0 {
				p.add("%s: timestamps[%d][%d] is negative (%d)", where, j, k, v)
			}
		}
	}
}

// validateCommitted checks a group's committed offsets against topics.
func validateCommitted(where string, offsets []StateCommitted, topics map[string]int32, p *problems) {
	seen := map[tpKey]bool{}
	for j, o := range offsets {
		w := fmt.Sprintf("%s: committed_offsets[%d]", where, j)
		n, ok := topics[o.Topic]
		switch {
		case o.Topic == "":
			p.add("%s: topic is required", w)
		case !ok:
			p.add("%s: topic %q is not in topics", w, o.Topic)
		case o.Partition < 0 || o.Partition >= n:
			p.add("%s: partition %d out of range (%s has %d)", w, o.Partition, o.Topic, n)
		}
		if seen[tpKey{o.Topic, o.Partition}] {
			p.add("%s: duplicate offset for %s-%d", w, o.Topic, o.Partition)
		}
		seen[tpKey{o.Topic, o.Partition}] = true
		if o.Offset < 0 {
			p.add("%s: offset must not be negative, got %d", w, o.Offset)
		}
	}
}

// validateProducedOver checks a topic's produced_over: a duration, and
// not beside timestamps.
func validateProducedOver(where string, t StateTopic, p *problems) {
	if t.ProducedOver == "" {
		return
	}
	if d, err := time.ParseDuration(t.ProducedOver); err != nil || d < 0 {
		p.add("%s: produced_over %q is not a duration of 0 or more (a Go duration such as 1h)", where, t.ProducedOver)
	}
	if len(t.Timestamps) > 0 {
		p.add("%s: timestamps and produced_over exclude each other", where)
	}
}

// steadyTimes are the timestamps (ms) of records produced at a steady rate
// over span, the last at now: offset o is (end-1-o)/(end-1-start) of span
// old. One record is span old.
func steadyTimes(r logRange, span time.Duration, now time.Time) []int64 {
	n := r.end - r.start
	ts := make([]int64, n)
	end := now.UnixMilli()
	spanMs := span.Milliseconds()
	for i := range n {
		age := spanMs
		if n > 1 {
			age = spanMs * (n - 1 - i) / (n - 1)
		}
		ts[i] = end - age
	}
	return ts
}

// stateOffsets builds the offset book of a validated state file.
// now is the playground's start, which produced_over counts back from.
func stateOffsets(s *State, now time.Time) offsetBook {
	var b offsetBook
	for _, t := range s.Topics {
		for j := range t.Partitions {
			r := t.logRange(j)
			if r != (logRange{}) {
				b.setLog(t.Name, j, r.start, r.end)
			}
			if ts := at(t.Timestamps, j); len(ts) > 0 {
				b.setTimes(t.Name, j, ts)
			}
			if t.ProducedOver != "" && r.end > r.start {
				span, _ := time.ParseDuration(t.ProducedOver) // validated
				b.setTimes(t.Name, j, steadyTimes(r, span, now))
			}
		}
		if b.layout == nil {
			b.layout = map[string]topicLog{}
		}
		b.layout[t.Name] = t.topicLog()
	}
	for _, g := range s.StreamsGroups {
		for _, o := range g.CommittedOffsets {
			b.commit(g.ID, o.committed())
		}
	}
	return b
}
