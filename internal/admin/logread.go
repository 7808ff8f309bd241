package admin

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// ReadLog reads one partition's records in offset order for a caller that
// keeps what it needs of each and lets the rest go (history reads the
// group coordinator's records in __consumer_offsets): one Fetch at a time
// on the partition's leader, as the time-lag reader sends them (v12, no
// fetch session, no group, no commit), each answer's batches walked by
// their headers and decoded one at a time by kgo with our bounded
// decompressor. Memory is one answer's, whatever the partition's size.
//
// It reads read_uncommitted: the coordinator's own records are never
// transactional, while a transactional offset commit still open (an
// exactly-once application's) would hold a read_committed read at the
// last stable offset, short of the newest group records.

// Bytes asked per Fetch of a log read: a few round trips per megabyte,
// one answer in memory at a time.
const logReadFetchBytes = 1 << 20

// logReadAttempts bounds the Fetches in a row that answer a retriable
// error (a leader moving) before the read gives up.
const logReadAttempts = 5

// LogRead asks for one partition's records from From on.
type LogRead struct {
	kafka.TopicPartition
	// From is the first offset wanted; EarliestTimestamp (-2) for the log
	// start.
	From int64
	// MaxBytes is the budget of record-batch bytes fetched; 0 is none.
	MaxBytes int64
}

// LogRecord is one data record of the log. Key and Value (nil for a
// tombstone) are valid only during the callback: they are the answer's.
type LogRecord struct {
	Offset int64
	// Timestamp is the record's time, ms since the epoch (-1: none).
	Timestamp int64
	// Batch is the base offset of the record batch that held it: the
	// records one write appended share it.
	Batch      int64
	Key, Value []byte
	// Gap tells that offsets before this record, since the previous one
	// read (or the log's first offset, 0), hold no record: compaction
	// removed them (a transaction marker counts as present).
	Gap bool
}

// LogReadStats says what a log read covered.
type LogReadStats struct {
	// LogStart is the partition's log start offset; End the high
	// watermark of the last answer; Next the offset after the last one
	// read (where a later read resumes).
	LogStart, End, Next int64
	// Bytes are the record-batch bytes fetched, Fetches the requests.
	Bytes   int64
	Fetches int
	// Budget tells that MaxBytes stopped the read before End.
	Budget bool
}

// ReadLog hands each data record of q's partition, from q.From to the
// high watermark (or the byte budget), to fn in offset order; fn's error
// stops the read and is returned. The error is also a partition's
// (TOPIC_AUTHORIZATION_FAILED without DESCRIBE and READ on the topic) or
// the cluster's.
func (c *Client) ReadLog(ctx context.Context, q LogRead, fn func(LogRecord) error) (LogReadStats, error) {
	st := LogReadStats{LogStart: -1, End: -1, Next: q.From}
	leader, start, err := c.logLeader(ctx, q.TopicPartition)
	if err != nil {
		return st, err
	}
	st.LogStart = start
	if q.From < start {
		st.Next = start
	}
	w := logWalk{expect: max(q.From, 0), fn: fn, dec: newBoundedDecompressor(maxDecompressedBatch), tp: q.TopicPartition}
	failures := 0
	for {
		if err := ctx.Err(); err != nil {
			return st, &kafka.UnavailableError{Op: fetchAPI, Err: err}
		}
		room, ok := fetchRoom(q.MaxBytes, st.Bytes)
		if !ok {
			st.Budget = true
			return st, nil
		}
		p, err := c.fetchOne(ctx, leader, q.TopicPartition, st.Next, room)
		st.Fetches++
		if err != nil {
			return st, err
		}
		if p.ErrorCode != 0 {
			// A leader that moved is found again; any other error ends the read.
			if failures++; failures >= logReadAttempts || !kerr.IsRetriable(kerr.ErrorForCode(p.ErrorCode)) {
				return st, NewKafkaError(p.ErrorCode, nil)
			}
			if leader, _, err = c.logLeader(ctx, q.TopicPartition); err != nil {
				return st, err
			}
			continue
		}
		failures = 0
		st.End = p.HighWatermark
		st.Bytes += int64(len(p.RecordBatches))
		next, err := w.answer(p.RecordBatches, st.Next)
		if err != nil {
			// The batches handed over before the error are read: a
			// read resumed at Next does not hand them over twice.
			st.Next = max(st.Next, next)
			return st, err
		}
		if next <= st.Next {
			// Nothing whole in the answer: at the end, or a broken batch.
			if st.Next >= st.End {
				return st, nil
			}
			return st, &kafka.MalformedError{Reason: fmt.Sprintf("Fetch of %s-%d at offset %d: no record batch read below the high watermark %d",
				q.Topic, q.Partition, st.Next, st.End)}
		}
		st.Next = next
		if st.Next >= st.End {
			return st, nil
		}
	}
}

// fetchRoom is the bytes the next Fetch asks for with used of budget
// (0: none) fetched; false when the budget is spent.
func fetchRoom(budget, used int64) (int32, bool) {
	if budget <= 0 {
		return logReadFetchBytes, true
	}
	if used >= budget {
		return 0, false
	}
	return int32(min(logReadFetchBytes, budget-used)), true
}

// logLeader is the partition's leader and log start offset (ListOffsets).
func (c *Client) logLeader(ctx context.Context, tp kafka.TopicPartition) (leader int32, start int64, err error) {
	los, err := c.ListOffsets(ctx, []kafka.TopicPartition{tp}, EarliestTimestamp)
	if err != nil {
		return -1, -1, err
	}
	if los[0].Err != nil {
		return -1, -1, los[0].Err
	}
	return los[0].Leader, los[0].Offset, nil
}

// fetchOne is one Fetch of one partition at offset, for up to bytes;
// the error is the request's (the partition's error is in its answer).
func (c *Client) fetchOne(ctx context.Context, leader int32, tp kafka.TopicPartition, offset int64, bytes int32) (*kmsg.FetchResponseTopicPartition, error) {
	req := kmsg.NewPtrFetchRequest()
	req.ReplicaID = -1
	req.MaxWaitMillis = 0
	req.MaxBytes = bytes
	req.IsolationLevel = 0 // read_uncommitted: see ReadLog
	req.SessionEpoch = -1
	rt := kmsg.NewFetchRequestTopic()
	rt.Topic = tp.Topic
	rp := kmsg.NewFetchRequestTopicPartition()
	rp.Partition = tp.Partition
	rp.CurrentLeaderEpoch = -1
	rp.FetchOffset = offset
	rp.PartitionMaxBytes = bytes
	rp.LastFetchedEpoch = -1
	rp.LogStartOffset = -1
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)
	kr, err := c.cl.Broker(int(leader)).RetriableRequest(ctx, fetchV12{req})
	if err != nil {
		return nil, c.fetchError(err, leader)
	}
	resp, ok := kr.(*kmsg.FetchResponse)
	if !ok {
		return nil, &kafka.MalformedError{Reason: fmt.Sprintf("Fetch answered with %T", kr)}
	}
	if resp.ErrorCode != 0 {
		return nil, NewKafkaError(resp.ErrorCode, nil)
	}
	for i := range resp.Topics {
		for j := range resp.Topics[i].Partitions {
			if p := &resp.Topics[i].Partitions[j]; resp.Topics[i].Topic == tp.Topic && p.Partition == tp.Partition {
				return p, nil
			}
		}
	}
	return nil, &kafka.MalformedError{Reason: fmt.Sprintf("Fetch has no answer for %s-%d", tp.Topic, tp.Partition)}
}

// logWalk hands an answer's records to fn, noting the holes in the
// offsets (Gap).
type logWalk struct {
	tp  kafka.TopicPartition
	fn  func(LogRecord) error
	dec *boundedDecompressor
	// expect is the offset after the last one seen; gap that offsets
	// were missing since.
	expect int64
	gap    bool
	// scratch is the room batches decompress into, out the records of
	// one batch: both reused from batch to batch.
	scratch []byte
	out     []LogRecord
}

// answer walks one answer's batches from offset from on and returns the
// offset after the last whole batch read.
func (w *logWalk) answer(b []byte, from int64) (int64, error) {
	next := from
	for len(b) >= batchLengthAt+4 {
		size := int64(int32(binary.BigEndian.Uint32(b[batchLengthAt:]))) + batchLengthAt + 4
		if size > int64(len(b)) {
			break // cut by the answer's limit: the next Fetch reads it whole
		}
		if size < batchHeaderLen || b[batchMagicAt] != 2 {
			return next, &kafka.MalformedError{Reason: fmt.Sprintf("Fetch of %s-%d: a record batch of magic %d at offset %d",
				w.tp.Topic, w.tp.Partition, b[batchMagicAt], next)}
		}
		raw := b[:size]
		b = b[size:]
		base := int64(binary.BigEndian.Uint64(raw))
		last := base + int64(int32(binary.BigEndian.Uint32(raw[batchLastDeltaAt:])))
		if last < next {
			continue // before the position: a batch the broker sent whole
		}
		if err := w.batch(raw, base, last, from); err != nil {
			return next, err
		}
		next = last + 1
	}
	return next, nil
}

// batch hands one batch's records at or after from to fn: read plainly
// (plainRecords), else by kgo. The plain read pays: BenchmarkLogBatches
// (fetch_bench_test.go) reads 4,096 records in 0.3-1.2 ms with next to no
// allocation, kgo in 1.4-2.7 ms with 0.7-1.0 MB (uncompressed, lz4, zstd;
// measured beside a CI run), and history reads whole partitions of them.
func (w *logWalk) batch(raw []byte, base, last, from int64) error {
	// The plain read does not check the CRC as kgo does: checked here,
	// for both.
	if crc32.Checksum(raw[batchAttrsAt:], crc32c) != binary.BigEndian.Uint32(raw[batchCRCAt:]) {
		return &kafka.MalformedError{Reason: fmt.Sprintf("Fetch of %s-%d, batch at offset %d: its CRC does not match its bytes", w.tp.Topic, w.tp.Partition, base)}
	}
	attrs := binary.BigEndian.Uint16(raw[batchAttrsAt:])
	if attrs&0b10_0000 != 0 { // a transaction marker: its offsets are no hole
		w.see(base, last)
		return nil
	}
	if recs, ok := w.plainRecords(raw, attrs, base, from); ok {
		for _, r := range recs {
			w.see(r.Offset, r.Offset)
			r.Gap, w.gap = w.gap, false
			if err := w.fn(r); err != nil {
				return err
			}
		}
		w.see(last+1, last)
		return nil
	}
	fp, _ := kgo.ProcessFetchPartition(kgo.ProcessFetchPartitionOpts{
		Offset:         from,
		IsolationLevel: kgo.ReadUncommitted(),
		Topic:          w.tp.Topic,
		Partition:      w.tp.Partition,
	}, &kmsg.FetchResponseTopicPartition{Partition: w.tp.Partition, HighWatermark: -1, LastStableOffset: -1, LogStartOffset: -1, RecordBatches: raw}, w.dec, nil)
	if fp.Err != nil {
		return &kafka.MalformedError{Reason: fmt.Sprintf("Fetch of %s-%d, batch at offset %d: %v", w.tp.Topic, w.tp.Partition, base, fp.Err)}
	}
	for _, r := range fp.Records {
		w.see(r.Offset, r.Offset)
		rec := LogRecord{Offset: r.Offset, Timestamp: recordTime(r), Batch: base, Key: r.Key, Value: r.Value, Gap: w.gap}
		w.gap = false
		if err := w.fn(rec); err != nil {
			return err
		}
	}
	// Records compacted away at the batch's end are a hole before the next.
	w.see(last+1, last)
	return nil
}

// plainRecords reads a data batch's records at or after from as
// batchRecords reads the time lag's (the batch decompressed into the
// walk's scratch room, each record's fields read in place): a partition
// of offset commits is a million records, which kgo would make a Record
// each of. ok is false for a batch it cannot read plainly; kgo then reads
// it and says what is wrong. The records' keys and values are the
// scratch room's or the answer's: valid until the next batch.
func (w *logWalk) plainRecords(raw []byte, attrs uint16, base, from int64) ([]LogRecord, bool) {
	recs, err := w.dec.decompressTo(w.scratch, raw[batchHeaderLen:], kgo.CompressionCodecType(attrs&0b111))
	if err != nil {
		return nil, false
	}
	if attrs&0b111 != 0 {
		w.scratch = recs[:0]
	}
	first := int64(binary.BigEndian.Uint64(raw[batchFirstTimestampAt:]))
	maxTS := int64(binary.BigEndian.Uint64(raw[batchMaxTimestampAt:]))
	count := int32(binary.BigEndian.Uint32(raw[batchCountAt:]))
	out := w.out[:0]
	for range count {
		r, rest, ok := plainRecord(recs)
		if !ok {
			return nil, false
		}
		recs = rest
		r.Offset += base
		r.Batch = base
		if attrs&0b1000 != 0 { // LogAppendTime: the batch's time
			r.Timestamp = maxTS
		} else {
			r.Timestamp += first
		}
		r.Timestamp = max(r.Timestamp, -1)
		if r.Offset >= from {
			out = append(out, r)
		}
	}
	w.out = out
	return out, true
}

// plainRecord reads one record (v2) off recs: its offset and timestamp
// deltas, key and value (nil for null); the headers are skipped.
func plainRecord(recs []byte) (LogRecord, []byte, bool) {
	var r LogRecord
	length, n := binary.Varint(recs)
	if n <= 0 || length < 1 || int64(len(recs)-n) < length {
		return r, nil, false
	}
	rec, rest := recs[n+1:n+int(length)], recs[n+int(length):] // past the attributes
	var ok bool
	var tsDelta, offDelta int64
	if tsDelta, rec, ok = varint(rec); !ok {
		return r, nil, false
	}
	if offDelta, rec, ok = varint(rec); !ok || offDelta < 0 || offDelta > math.MaxInt32 {
		return r, nil, false
	}
	if r.Key, rec, ok = varBytes(rec); !ok {
		return r, nil, false
	}
	if r.Value, _, ok = varBytes(rec); !ok {
		return r, nil, false
	}
	r.Offset, r.Timestamp = offDelta, tsDelta
	return r, rest, true
}

func varint(b []byte) (int64, []byte, bool) {
	v, n := binary.Varint(b)
	if n <= 0 {
		return 0, nil, false
	}
	return v, b[n:], true
}

// varBytes reads a varint length (-1: null) and that many bytes.
func varBytes(b []byte) ([]byte, []byte, bool) {
	l, b, ok := varint(b)
	switch {
	case !ok || l < -1 || l > int64(len(b)):
		return nil, nil, false
	case l == -1:
		return nil, b, true
	}
	return b[:l:l], b[l:], true
}

// see notes offsets first to last as present; a hole before first is a
// gap, told with the next record.
func (w *logWalk) see(first, last int64) {
	if first > w.expect {
		w.gap = true
	}
	w.expect = max(w.expect, last+1)
}
