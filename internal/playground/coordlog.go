package playground

import (
	"math"
	"slices"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// The coordinator log: the records a group coordinator writes to
// __consumer_offsets, kept as the record batches a broker would serve. A
// streams group's records (coordrecords, the schemas of Kafka 4.4's group
// coordinator) are written whenever the group changes: the seed's groups
// when a state is loaded, every PutStreamsGroup (the timeline's steps), a
// change of a group config that its assignment uses, its deletion
// (tombstones); offset commits and deletions write OffsetCommit records.
// Each change is one batch, stamped with the playground's clock, on the
// partition Kafka would use (abs(groupId.hashCode) % 50). Fetch and
// ListOffsets serve the topic like any other (fetch.go, offsets.go).

// OffsetsTopic is the group coordinator's topic.
const OffsetsTopic = "__consumer_offsets"

// defaultCoordLogBytes bounds each partition of the coordinator log: past
// it the oldest batches go, as retention would take them, so that a
// playground running a repeating timeline for days stays small. Kafka
// compacts the topic instead; either way the oldest history goes.
const defaultCoordLogBytes = 32 << 20

// coordRecord is one record of a batch; a nil value is a tombstone.
type coordRecord struct {
	key, value []byte
}

// coordBatch is one encoded batch and where it sits.
type coordBatch struct {
	base, next int64 // first offset, and the offset after its last
	maxTS      int64
	data       []byte
}

// coordPartition is one partition of the coordinator log.
type coordPartition struct {
	batches    []coordBatch
	start, end int64
	bytes      int64
}

// coordLog is the cluster's __consumer_offsets. Callers hold c.mu.
type coordLog struct {
	parts    map[int32]*coordPartition
	maxBytes int64
	// groups is the last state written of each streams group (coordstate.go).
	groups map[string]*writtenGroup
}

func newCoordLog(maxBytes int64) *coordLog {
	if maxBytes <= 0 {
		maxBytes = defaultCoordLogBytes
	}
	return &coordLog{parts: map[int32]*coordPartition{}, maxBytes: maxBytes, groups: map[string]*writtenGroup{}}
}

// OffsetsPartition is the __consumer_offsets partition holding group's
// records, as Kafka 4.4's GroupCoordinatorService.partitionFor computes it:
// Utils.abs(groupId.hashCode()) % partitions.
func OffsetsPartition(group string) int32 {
	return kafkaAbs(javaHash(group)) % offsetsTopicPartitions
}

// kafkaAbs is Kafka's Utils.abs: Math.abs, and 0 for Integer.MIN_VALUE.
// (javaAbs, which the playground's placements use, masks the sign bit:
// another number for a negative hash.)
func kafkaAbs(n int32) int32 {
	switch {
	case n == math.MinInt32:
		return 0
	case n < 0:
		return -n
	}
	return n
}

func (l *coordLog) partition(p int32) *coordPartition {
	cp := l.parts[p]
	if cp == nil {
		cp = &coordPartition{}
		l.parts[p] = cp
	}
	return cp
}

// append writes recs as one batch at ts (ms) on group's partition.
func (l *coordLog) append(group string, ts int64, recs []coordRecord) {
	if len(recs) == 0 {
		return
	}
	cp := l.partition(OffsetsPartition(group))
	b := coordBatch{base: cp.end, next: cp.end + int64(len(recs)), maxTS: ts, data: encodeCoordBatch(cp.end, ts, recs)}
	cp.batches = append(cp.batches, b)
	cp.end = b.next
	cp.bytes += int64(len(b.data))
	drop := 0
	for cp.bytes > l.maxBytes && drop < len(cp.batches)-1 {
		cp.bytes -= int64(len(cp.batches[drop].data))
		drop++
	}
	if drop > 0 {
		cp.batches = slices.Delete(cp.batches, 0, drop)
		cp.start = cp.batches[0].base
	}
}

// rangeOf is the log start and end of partition p.
func (l *coordLog) rangeOf(p int32) logRange {
	cp := l.parts[p]
	if cp == nil {
		return logRange{}
	}
	return logRange{start: cp.start, end: cp.end}
}

// batches are the batches of partition p.
func (l *coordLog) batches(p int32) []coordBatch {
	if cp := l.parts[p]; cp != nil {
		return cp.batches
	}
	return nil
}

// read is the batches of partition p from the one holding offset from,
// within limit bytes (the first always).
func (l *coordLog) read(p int32, from, limit int64) [][]byte {
	batches := l.batches(p)
	i, _ := slices.BinarySearchFunc(batches, from, func(b coordBatch, o int64) int {
		switch {
		case b.next <= o:
			return -1
		case b.base > o:
			return 1
		}
		return 0
	})
	var out [][]byte
	size := int64(0)
	for ; i < len(batches) && len(out) < maxFetchRecords; i++ {
		d := batches[i].data
		if len(out) > 0 && size+int64(len(d)) > limit {
			break
		}
		out = append(out, d)
		size += int64(len(d))
	}
	return out
}

// byTimestamp is the first offset whose batch's timestamp is at least ts,
// with it; -1, -1 when none.
func (l *coordLog) byTimestamp(p int32, ts int64) (offset, timestamp int64) {
	for _, b := range l.batches(p) {
		if b.maxTS >= ts {
			return b.base, b.maxTS
		}
	}
	return -1, -1
}

// maxTimestamp is the first offset with the largest timestamp; -1, -1 on
// an empty log.
func (l *coordLog) maxTimestamp(p int32) (offset, timestamp int64) {
	offset, timestamp = -1, -1
	for _, b := range l.batches(p) {
		if b.maxTS > timestamp {
			offset, timestamp = b.base, b.maxTS
		}
	}
	return offset, timestamp
}

// encodeCoordBatch is recs as one uncompressed v2 batch from base, every
// record at ts, as a coordinator appends them (no producer).
func encodeCoordBatch(base, ts int64, recs []coordRecord) []byte {
	var body []byte
	for i, r := range recs {
		body = appendRecord(body, 0, int64(i), r.key, r.value)
	}
	return sealBatch(kmsg.RecordBatch{
		FirstOffset: base, Magic: 2, LastOffsetDelta: int32(len(recs) - 1), FirstTimestamp: ts, MaxTimestamp: ts,
		ProducerID: -1, ProducerEpoch: -1, FirstSequence: -1, NumRecords: int32(len(recs)), Records: body,
	})
}

// commitRecord is the OffsetCommit record of one of group's commits, or
// with tombstone its deletion's.
func commitRecord(group string, o Committed, ts int64, tombstone bool) coordRecord {
	k := kmsg.OffsetCommitKey{Version: 1, Group: group, Topic: o.Topic, Partition: o.Partition}
	r := coordRecord{key: k.AppendTo(nil)}
	if !tombstone {
		v := kmsg.NewOffsetCommitValue()
		v.Version = 3
		v.Offset, v.LeaderEpoch, v.CommitTimestamp = o.Offset, o.LeaderEpoch, ts
		if o.Metadata != nil {
			v.Metadata = *o.Metadata
		}
		r.value = v.AppendTo(nil)
	}
	return r
}

// writeCommitsLocked writes group's commits (or, with tombstone, their
// deletion) as one batch.
func (c *Cluster) writeCommitsLocked(group string, os []Committed, tombstone bool) {
	if len(os) == 0 {
		return
	}
	ts := c.now().UnixMilli()
	recs := make([]coordRecord, 0, len(os))
	for _, o := range os {
		recs = append(recs, commitRecord(group, o, ts, tombstone))
	}
	c.coordLogLocked().append(group, ts, recs)
}

// coordLogLocked is the cluster's coordinator log, made on first use.
func (c *Cluster) coordLogLocked() *coordLog {
	if c.coord == nil {
		c.coord = newCoordLog(c.cfg.CoordinatorLogBytes)
	}
	return c.coord
}

// offsetsTopicID is __consumer_offsets' topic id, name-derived as every
// playground topic's.
var offsetsTopicID = topicID(OffsetsTopic)

// namedTopicLocked is the topic named name: a registered one, or
// __consumer_offsets, which every playground has.
func (c *Cluster) namedTopicLocked(name string) (*topic, bool) {
	if t, ok := c.topics[name]; ok {
		return t, true
	}
	if name == OffsetsTopic {
		return &topic{name: OffsetsTopic, id: offsetsTopicID, partitions: offsetsTopicPartitions, configs: map[string]string{"cleanup.policy": "compact"}}, true
	}
	return nil, false
}

// fetchCoordLocked is a Fetch of a __consumer_offsets partition: its
// offsets in p, and the batches to answer.
func (c *Cluster) fetchCoordLocked(rp kmsg.FetchRequestTopicPartition, p *kmsg.FetchResponseTopicPartition) (fetchJob, bool) {
	l := c.coordLogLocked()
	r := l.rangeOf(rp.Partition)
	p.HighWatermark, p.LastStableOffset, p.LogStartOffset = r.end, r.end, r.start
	if rp.FetchOffset < r.start || rp.FetchOffset > r.end {
		p.ErrorCode = kerr.OffsetOutOfRange.Code
		return fetchJob{}, false
	}
	raw := l.read(rp.Partition, rp.FetchOffset, int64(rp.PartitionMaxBytes))
	if raw == nil {
		raw = [][]byte{}
	}
	return fetchJob{raw: raw, max: int64(rp.PartitionMaxBytes)}, true
}

// joinWithin is batches joined, within limit bytes (the first batch
// always when minOne).
func joinWithin(batches [][]byte, limit int64, minOne bool) []byte {
	var out []byte
	for _, b := range batches {
		if int64(len(out)+len(b)) > limit && !(minOne && len(out) == 0) {
			break
		}
		out = append(out, b...)
	}
	return out
}

// OffsetsPartitionBytes is the size of partition p of __consumer_offsets:
// its batches' bytes.
func (c *Cluster) OffsetsPartitionBytes(p int32) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cp := c.coordLogLocked().parts[p]; cp != nil {
		return cp.bytes
	}
	return 0
}
