package admin

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"maps"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// Time lag and record lag read records: a Fetch (key 1) per partition
// leader, read_committed, from each partition's committed offset, for the
// timestamp of the first record a consumer would process next and, when
// few offsets separate the committed offset from the end, the number of
// records (transaction markers and aborted records left out) in between.
// It is an admin read: no group, no member, no fetch session, no commit.
// The batch headers tell markers, aborted batches and record counts apart
// (as a read_committed consumer does), so a batch is decompressed only when
// its records are needed: the one holding the first record, one cut by the
// committed offset or the end. Those are decompressed (every codec, by
// our bounded decompressor) and only each record's offset and timestamp
// deltas read (batchRecords); franz-go decodes (kgo.ProcessFetchPartition)
// every batch or answer not read plainly so. The header reader pays:
// BenchmarkFetchAnswer (fetch_bench_test.go) counts a 4,046-record gap in
// 4-12 µs and 200-300 B where kgo's decoding of every record takes
// 0.8-1.9 ms and 0.8-1.1 MB (uncompressed, lz4, zstd; issue 32), per
// partition of an overview with time lag.

// fetchAPI names Fetch in messages.
const fetchAPI = "Fetch"

// fetchVersion is the Fetch version sent: v12 is the last that names topics
// (v13 names them by id, which would cost a Metadata round trip for the
// ids); v4+ has read_committed and the aborted transactions.
const fetchVersion = 12

// RecordCountBound is the largest offset difference (end minus committed)
// for which the records in between are counted. Above it the offset
// difference stands as an upper bound: counting would read the whole gap.
const RecordCountBound = 4096

// Bytes asked per partition and per response. A broker returns at least
// the first batch of the first partition whatever the limit (KIP-74), so a
// partition whose first batch is larger gets it in a later round, asked
// first and with twice the room.
const (
	fetchPartitionBytes      = 64 << 10 // time lag only: one batch is enough
	fetchCountPartitionBytes = 1 << 20  // counting: the gap, in as few rounds as possible
	fetchPartitionBytesMax   = 16 << 20
	fetchResponseBytes       = 32 << 20 // below maxResponse, the cut of every answer
	// maxDecompressedBatch bounds what one batch may decompress to.
	maxDecompressedBatch = 32 << 20
	// fetchRounds bounds the Fetch rounds of one call: each round is one
	// Fetch per leader that still has partitions to read.
	fetchRounds = 16
)

// Timestamp types of a record batch (the batch attributes' bit 3).
const (
	CreateTime    = "CreateTime"
	LogAppendTime = "LogAppendTime"
)

// FirstRecordQuery asks for the first record of a partition at or after
// From, below End (the log end offset the offsets view used). Count asks
// for the number of records between From and End as well; the caller sets
// it when End-From is at most RecordCountBound.
type FirstRecordQuery struct {
	kafka.TopicPartition
	From, End int64
	Count     bool
	// Leader is the partition's leader when LeaderKnown (the node that
	// answered ListOffsets for End): no Metadata request is sent for the
	// partitions whose leader is known.
	Leader      int32
	LeaderKnown bool
	// Latest (ms since the epoch), when above 0, is the latest plausible
	// timestamp: a record stamped after it (a producer clock far ahead, a
	// bogus time such as 2^63-1) tells nothing of how old the data is,
	// so the read goes on to the next records for one whose time is
	// plausible (FirstRecord.Future).
	Latest int64
}

// FirstRecord is the answer for one partition.
type FirstRecord struct {
	kafka.TopicPartition
	// Found tells that a record was read: the first record at or after
	// From that a read_committed consumer sees (no marker, no aborted
	// record), at Offset with Timestamp (ms; -1 when it has none).
	Found     bool
	Offset    int64
	Timestamp int64
	// Future counts the records, from the first on, skipped for their
	// time when the first is stamped after the query's Latest: those
	// stamped after it, and those with no timestamp. FutureTimestamp is
	// the first one's. Timestamp is then the first later record's whose
	// time is plausible, -1 when none was read up to End.
	Future          int64
	FutureTimestamp int64
	// TimestampType is CreateTime or LogAppendTime, from the batch that
	// held the record (or any batch read); "" when no batch was read.
	TimestampType string
	// Records is the number of records in [From, End) a read_committed
	// consumer sees, when Counted; Counted is false when the query did not
	// ask for a count or the last stable offset is below End (an open
	// transaction: what it holds is not decided yet).
	Records int64
	Counted bool
	// Pending tells that the partition's last stable offset stopped the
	// read before a record was found: an open transaction holds the next
	// records.
	Pending bool
	Err     error
}

// FetchStats counts what FetchFirstRecords sent.
type FetchStats struct {
	// Requests is the number of Fetch requests sent; Rounds the rounds.
	Requests, Rounds int
}

// partRead is the state of one partition's read.
type partRead struct {
	q        FirstRecordQuery
	leader   int32
	pos      int64
	maxBytes int32
	stuck    bool
	done     bool
	// answered tells that this round's answer held the partition (each
	// read belongs to one leader's round: no lock).
	answered bool
	out      FirstRecord
}

// FetchFirstRecords reads, for each query, the first record at or after
// From (see FirstRecordQuery): one Metadata request for the leaders not
// known (Leader), then
// rounds of one Fetch per leader (read_committed, no wait, a few bytes per
// partition) until every partition is answered or fetchRounds is reached.
// The result is in query order; a partition that failed carries its error.
// The error is for a failure of the whole call (the leaders unknown).
func (c *Client) FetchFirstRecords(ctx context.Context, qs []FirstRecordQuery) ([]FirstRecord, FetchStats, error) {
	var stats FetchStats
	reads, topics := newReads(qs)
	if len(topics) > 0 {
		if err := c.findLeaders(ctx, reads, topics); err != nil {
			return nil, stats, err
		}
	}
	dec := newBoundedDecompressor(maxDecompressedBatch)
	for round := 0; round < fetchRounds; round++ {
		byLeader := map[int32][]*partRead{}
		for _, r := range reads {
			if !r.done {
				byLeader[r.leader] = append(byLeader[r.leader], r)
			}
		}
		if len(byLeader) == 0 {
			break
		}
		if err := ctx.Err(); err != nil {
			for _, rs := range byLeader {
				failReads(rs, &kafka.UnavailableError{Op: fetchAPI, Err: err})
			}
			break
		}
		stats.Rounds++
		// The leaders are asked at once; each read belongs to one leader,
		// so the rounds share nothing but the decompressor, which is
		// safe for concurrent use.
		var wg sync.WaitGroup
		for _, l := range slices.Sorted(maps.Keys(byLeader)) {
			stats.Requests++
			wg.Go(func() { c.fetchRound(ctx, l, byLeader[l], dec) })
		}
		wg.Wait()
	}
	for _, r := range reads {
		if !r.done {
			r.fail(&kafka.UnavailableError{Op: fetchAPI, Err: fmt.Errorf("no record read within %d Fetch rounds", fetchRounds)})
		}
	}
	return collect(reads), stats, nil
}

// newReads starts a read per query (one allocation for all of them) and
// returns the topics whose leaders are to be found: those of the reads
// not done whose leader is not known.
func newReads(qs []FirstRecordQuery) ([]*partRead, []string) {
	reads := make([]*partRead, len(qs))
	slab := make([]partRead, len(qs))
	var topics []string
	for i, q := range qs {
		r := &slab[i]
		*r = partRead{q: q, pos: q.From, maxBytes: fetchPartitionBytes, out: FirstRecord{TopicPartition: q.TopicPartition, Timestamp: -1, Offset: -1}}
		if q.Count {
			r.maxBytes = fetchCountPartitionBytes
		}
		if q.From >= q.End {
			// Caught up: nothing to read, nothing to count.
			r.done, r.out.Counted = true, q.Count
		}
		reads[i] = r
		switch {
		case r.done:
		case q.LeaderKnown:
			r.leader = q.Leader
		default:
			topics = append(topics, q.Topic)
		}
	}
	return reads, topics
}

// findLeaders sets the leader of each read whose leader was not known,
// from one Metadata request for topics; a read whose partition has none
// fails. The error is the request's.
func (c *Client) findLeaders(ctx context.Context, reads []*partRead, topics []string) error {
	tis, err := c.DescribeTopics(ctx, topics)
	if err != nil {
		return err
	}
	leaders := map[kafka.TopicPartition]int32{}
	topicErr := map[string]error{}
	for _, ti := range tis {
		topicErr[ti.Topic] = ti.Err
		for _, p := range ti.Partitions {
			leaders[kafka.TopicPartition{Topic: ti.Topic, Partition: p.Partition}] = p.Leader
		}
	}
	for _, r := range reads {
		if r.done || r.q.LeaderKnown {
			continue
		}
		l, ok := leaders[r.q.TopicPartition]
		switch {
		case topicErr[r.q.Topic] != nil:
			r.fail(topicErr[r.q.Topic])
		case !ok:
			r.fail(NewKafkaError(kerr.UnknownTopicOrPartition.Code, nil))
		case l < 0:
			r.fail(NewKafkaError(kerr.LeaderNotAvailable.Code, nil))
		default:
			r.leader = l
		}
	}
	return nil
}

func collect(reads []*partRead) []FirstRecord {
	out := make([]FirstRecord, len(reads))
	for i, r := range reads {
		out[i] = r.out
		if !out[i].Counted {
			out[i].Records = 0
		}
	}
	return out
}

func (r *partRead) fail(err error) { r.done, r.out.Err, r.out.Counted = true, err, false }

// fetchRound sends one Fetch to leader for rs: partitions that made no
// progress last round go first, where the broker's one-batch minimum
// applies.
func (c *Client) fetchRound(ctx context.Context, leader int32, rs []*partRead, dec *boundedDecompressor) {
	slices.SortStableFunc(rs, func(a, b *partRead) int {
		if a.stuck != b.stuck {
			if a.stuck {
				return -1
			}
			return 1
		}
		return kafka.CompareTopicPartitions(a.q.TopicPartition, b.q.TopicPartition)
	})
	req, byTP := fetchRequest(rs)
	kr, err := c.cl.Broker(int(leader)).RetriableRequest(ctx, fetchV12{req})
	if err != nil {
		failReads(rs, c.fetchError(err, leader))
		return
	}
	resp, ok := kr.(*kmsg.FetchResponse)
	if !ok {
		failReads(rs, &kafka.MalformedError{Reason: fmt.Sprintf("Fetch answered with %T", kr)})
		return
	}
	if resp.ErrorCode != 0 {
		failReads(rs, NewKafkaError(resp.ErrorCode, nil))
		return
	}
	takeResponse(resp, rs, byTP, dec)
}

// fetchRequest is the Fetch of one round for rs (sorted as sent). Several
// reads of one partition (groups at different offsets) share one entry,
// from the lowest position, with the most room any asks: byTP are the
// reads of each partition.
func fetchRequest(rs []*partRead) (*kmsg.FetchRequest, map[kafka.TopicPartition][]*partRead) {
	req := kmsg.NewPtrFetchRequest()
	req.ReplicaID = -1
	req.MaxWaitMillis = 0 // answer at once: what is there is all we want
	req.MinBytes = 0
	req.MaxBytes = fetchResponseBytes
	req.IsolationLevel = 1 // read_committed
	req.SessionID = 0
	req.SessionEpoch = -1 // no fetch session
	byTP := make(map[kafka.TopicPartition][]*partRead, len(rs))
	order := make([]*partRead, 0, len(rs))
	for _, r := range rs {
		if byTP[r.q.TopicPartition] == nil {
			order = append(order, r)
		}
		byTP[r.q.TopicPartition] = append(byTP[r.q.TopicPartition], r)
	}
	topicRuns(len(order), func(i int) string { return order[i].q.Topic }, func(topic string, from, to int) {
		rt := kmsg.NewFetchRequestTopic()
		rt.Topic = topic
		rt.Partitions = make([]kmsg.FetchRequestTopicPartition, 0, to-from)
		for _, r := range order[from:to] {
			rp := kmsg.NewFetchRequestTopicPartition()
			rp.Partition = r.q.Partition
			rp.CurrentLeaderEpoch = -1
			rp.FetchOffset = r.pos
			rp.PartitionMaxBytes = r.maxBytes
			for _, o := range byTP[r.q.TopicPartition] {
				rp.FetchOffset = min(rp.FetchOffset, o.pos)
				rp.PartitionMaxBytes = max(rp.PartitionMaxBytes, o.maxBytes)
			}
			rp.LastFetchedEpoch = -1
			rp.LogStartOffset = -1
			rt.Partitions = append(rt.Partitions, rp)
		}
		req.Topics = append(req.Topics, rt)
	})
	return req, byTP
}

// fetchError is the reads' error for a Fetch to leader that got no answer.
func (c *Client) fetchError(err error, leader int32) error {
	var ke *kerr.Error
	if errors.As(err, &ke) {
		return NewKafkaError(ke.Code, nil)
	}
	fe, permanent := c.failure(err, c.nodeAddr(leader), fetchAPI)
	if permanent {
		return fe
	}
	return &kafka.UnavailableError{Op: fetchAPI, Err: fe}
}

// failReads fails every read of rs with err.
func failReads(rs []*partRead, err error) {
	for _, r := range rs {
		r.fail(err)
	}
}

// takeResponse hands each read its partition's answer; a read left out of
// the answer (a response limit) is stuck, asked first next round.
func takeResponse(resp *kmsg.FetchResponse, rs []*partRead, byTP map[kafka.TopicPartition][]*partRead, dec *boundedDecompressor) {
	for _, r := range rs {
		r.answered = false
	}
	// The first batches decompress into one buffer, reused: their records
	// are read once.
	var scratch []byte
	for i := range resp.Topics {
		t := &resp.Topics[i]
		for j := range t.Partitions {
			p := &t.Partitions[j]
			for _, r := range byTP[kafka.TopicPartition{Topic: t.Topic, Partition: p.Partition}] {
				if !r.answered { // asked once, answered twice: the first counts
					r.answered = true
					r.take(p, dec, &scratch)
				}
			}
		}
	}
	for _, r := range rs {
		if !r.answered {
			r.stuck = true
		}
	}
}

// fetchV12 caps Fetch at v12 for this request (topic names).
type fetchV12 struct{ *kmsg.FetchRequest }

func (fetchV12) MaxVersion() int16 { return fetchVersion }

// take reads one partition's answer: from the batch headers where they
// are enough (takeHeaders), else every record decoded by franz-go.
func (r *partRead) take(p *kmsg.FetchResponseTopicPartition, dec *boundedDecompressor, scratch *[]byte) {
	if p.ErrorCode != 0 {
		r.fail(NewKafkaError(p.ErrorCode, nil))
		return
	}
	if typ, ok := batchTimestampType(p.RecordBatches); ok && r.out.TimestampType == "" {
		r.out.TimestampType = typ
	}
	next, ok := r.takeHeaders(p, dec, scratch)
	if !ok {
		var failed bool
		if next, failed = r.takeRecords(p, dec); failed {
			return
		}
	}
	r.advance(p, next)
}

// takeRecords reads the answer with every record decoded; failed tells
// that the read failed (r is done).
func (r *partRead) takeRecords(p *kmsg.FetchResponseTopicPartition, dec kgo.Decompressor) (next int64, failed bool) {
	fp, next := kgo.ProcessFetchPartition(kgo.ProcessFetchPartitionOpts{
		Offset:         r.pos,
		IsolationLevel: kgo.ReadCommitted(),
		Topic:          r.q.Topic,
		Partition:      r.q.Partition,
	}, p, dec, nil)
	if fp.Err != nil && len(fp.Records) == 0 && next <= r.pos {
		r.fail(&kafka.MalformedError{Reason: fmt.Sprintf("Fetch of %s-%d: %v", r.q.Topic, r.q.Partition, fp.Err)})
		return 0, true
	}
	r.out = r.records(r.out, r.pos, fp.Records)
	return next, false
}

// records adds recs (read_committed, in offset order) to out: the first at
// or after from and below End is the first record, all of them count.
func (r *partRead) records(out FirstRecord, from int64, recs []*kgo.Record) FirstRecord {
	for _, rec := range recs {
		if rec.Offset < from || rec.Offset >= r.q.End {
			continue
		}
		if !out.Found {
			if rec.Attrs.TimestampType() == 1 {
				out.TimestampType = LogAppendTime
			} else if rec.Attrs.TimestampType() == 0 {
				out.TimestampType = CreateTime
			}
		}
		r.stamp(&out, rec.Offset, recordTime(rec))
		out.Records++
	}
	return out
}

// recordTime is a kgo record's time, ms since the epoch; -1 for none.
func recordTime(r *kgo.Record) int64 {
	if r.Timestamp.IsZero() {
		return -1
	}
	return max(r.Timestamp.UnixMilli(), -1)
}

// Record batch header (magic 2): the offsets of its fields.
const (
	batchLengthAt    = 8  // int32: the bytes after this field
	batchMagicAt     = 16 // int8
	batchCRCAt       = 17 // uint32, CRC-32C of the bytes from attributes on
	batchAttrsAt     = 21 // int16
	batchLastDeltaAt = 23 // int32
	batchProducerAt  = 43 // int64
	batchCountAt     = 57 // int32
	batchHeaderLen   = 61
)

var crc32c = crc32.MakeTable(crc32.Castagnoli)

// takeHeaders reads the answer from the batch headers, decoding only the
// batches whose records it needs (the one holding the first record, one
// cut by the position or End): a batch wholly in [position, End) counts
// its header's record count, uncompressed, and markers and aborted
// batches are told from their headers and the aborted transactions as a
// read_committed consumer tells them. ok is false, with r unchanged, for
// anything it does not read plainly (another magic, a bad CRC, a count
// that does not fit): takeRecords reads those and says what is wrong.
func (r *partRead) takeHeaders(p *kmsg.FetchResponseTopicPartition, dec *boundedDecompressor, scratch *[]byte) (next int64, ok bool) {
	out, next := r.out, r.pos
	aborted := p.AbortedTransactions
	byFirst := func(a, b kmsg.FetchResponseTopicPartitionAbortedTransaction) int {
		return cmp.Compare(a.FirstOffset, b.FirstOffset)
	}
	if !slices.IsSortedFunc(aborted, byFirst) {
		aborted = slices.Clone(aborted)
		slices.SortStableFunc(aborted, byFirst)
	}
	var open map[int64]bool // producers inside an aborted transaction (most answers have none)
	b := p.RecordBatches
	for len(b) >= batchLengthAt+4 {
		size := int64(int32(binary.BigEndian.Uint32(b[batchLengthAt:]))) + batchLengthAt + 4
		if size > int64(len(b)) {
			break // cut by the response limit: the next round reads it
		}
		if size < batchHeaderLen || b[batchMagicAt] != 2 ||
			crc32.Checksum(b[batchAttrsAt:size], crc32c) != binary.BigEndian.Uint32(b[batchCRCAt:]) {
			return 0, false
		}
		raw := b[:size]
		b = b[size:]
		base := int64(binary.BigEndian.Uint64(raw))
		delta := int32(binary.BigEndian.Uint32(raw[batchLastDeltaAt:]))
		count := int32(binary.BigEndian.Uint32(raw[batchCountAt:]))
		if delta < 0 || count < 0 || int64(count) > int64(delta)+1 || base < 0 || base > math.MaxInt64-int64(delta)-1 {
			return 0, false
		}
		last := base + int64(delta)
		attrs := binary.BigEndian.Uint16(raw[batchAttrsAt:])
		producer := int64(binary.BigEndian.Uint64(raw[batchProducerAt:]))
		for len(aborted) > 0 && aborted[0].FirstOffset <= last {
			if open == nil {
				open = map[int64]bool{}
			}
			open[aborted[0].ProducerID] = true
			aborted = aborted[1:]
		}
		switch {
		case attrs&0b10_0000 != 0: // control batch: a marker
			if isAbortMarker(raw[batchHeaderLen:]) {
				delete(open, producer)
			}
		case last < next: // before the position (a batch the broker sent whole)
			continue
		case attrs&0b1_0000 != 0 && open[producer]: // aborted
		case base >= next && last < r.q.End && timeRead(out):
			out.Records += int64(count)
		default:
			// The first record, or a batch cut by the position or End:
			// its records read (already known as committed), only their
			// offsets and timestamps.
			var ok bool
			if out, ok = r.readBatch(out, next, p, raw, attrs, dec, scratch); !ok {
				return 0, false
			}
		}
		next = max(next, last+1)
		if timeRead(out) && !r.q.Count {
			break // the first record (and a time) is all that is asked
		}
	}
	r.out = out
	return next, true
}

// readBatch adds the records of one data batch (raw, of p's answer) at
// or after next to out: read plainly (batchRecords), else by kgo; ok is
// false when kgo cannot read it either.
func (r *partRead) readBatch(out FirstRecord, next int64, p *kmsg.FetchResponseTopicPartition, raw []byte, attrs uint16, dec *boundedDecompressor, scratch *[]byte) (FirstRecord, bool) {
	if got, ok := r.batchRecords(out, next, raw, attrs, dec, scratch); ok {
		return got, true
	}
	fp, _ := kgo.ProcessFetchPartition(kgo.ProcessFetchPartitionOpts{
		Offset:         next,
		IsolationLevel: kgo.ReadUncommitted(),
		Topic:          r.q.Topic,
		Partition:      r.q.Partition,
	}, &kmsg.FetchResponseTopicPartition{Partition: p.Partition, HighWatermark: p.HighWatermark, LastStableOffset: p.LastStableOffset,
		LogStartOffset: p.LogStartOffset, RecordBatches: raw}, dec, nil)
	if fp.Err != nil {
		return out, false
	}
	return r.records(out, next, fp.Records), true
}

// Record batch header fields read for the records' timestamps.
const (
	batchFirstTimestampAt = 27 // int64
	batchMaxTimestampAt   = 35 // int64
)

// batchRecords adds a data batch's records at or after from and below
// End to out, as records does with kgo's records, reading only what it
// needs of each record (its offset and timestamp deltas): kgo builds a
// Record of every one. ok is false, out unchanged, for a batch it
// cannot read plainly (kgo then reads it and says what is wrong).
func (r *partRead) batchRecords(out FirstRecord, from int64, raw []byte, attrs uint16, dec *boundedDecompressor, scratch *[]byte) (FirstRecord, bool) {
	orig := out
	recs, err := dec.decompressTo(*scratch, raw[batchHeaderLen:], kgo.CompressionCodecType(attrs&0b111))
	if err != nil {
		return orig, false
	}
	if attrs&0b111 != 0 {
		// The room used (or the larger one made) serves the next batch;
		// uncompressed records are the answer's own bytes.
		*scratch = recs[:0]
	}
	base := int64(binary.BigEndian.Uint64(raw))
	first := int64(binary.BigEndian.Uint64(raw[batchFirstTimestampAt:]))
	maxTS := int64(binary.BigEndian.Uint64(raw[batchMaxTimestampAt:]))
	logAppend := attrs&0b1000 != 0
	count := int32(binary.BigEndian.Uint32(raw[batchCountAt:]))
	for range count {
		// length, attributes int8, timestamp delta, offset delta, ...
		length, n := binary.Varint(recs)
		if n <= 0 || length < 1 || int64(len(recs)-n) < length {
			return orig, false
		}
		rec := recs[n : n+int(length)]
		recs = recs[n+int(length):]
		tsDelta, n1 := binary.Varint(rec[1:])
		if n1 <= 0 {
			return orig, false
		}
		offDelta, n2 := binary.Varint(rec[1+n1:])
		if n2 <= 0 || offDelta < 0 || offDelta > math.MaxInt32 {
			return orig, false
		}
		offset := base + offDelta
		if offset < from || offset >= r.q.End {
			continue
		}
		ts := first + tsDelta
		if logAppend {
			ts = maxTS
		}
		if !out.Found {
			out.TimestampType = CreateTime
			if logAppend {
				out.TimestampType = LogAppendTime
			}
		}
		r.stamp(&out, offset, max(ts, -1))
		out.Records++
	}
	return out, true
}

// stamp notes, in out, the record at offset stamped ts (ms; -1: none),
// records being noted in offset order: the first is the first record,
// and its time the time, unless it is stamped after the query's Latest;
// then the time is the first later record's that is not, the others
// counted in Future.
func (r *partRead) stamp(out *FirstRecord, offset, ts int64) {
	if !out.Found {
		out.Found, out.Offset, out.Timestamp = true, offset, -1
		if ts < 0 {
			return // no time: unknown, as the record has none
		}
	} else if timeRead(*out) {
		return
	}
	if r.q.Latest > 0 && (ts > r.q.Latest || ts < 0) {
		if out.Future == 0 {
			out.FutureTimestamp = ts
		}
		out.Future++
		return
	}
	out.Timestamp = ts
}

// timeRead tells that the first record was read and, when it is stamped
// after the query's Latest, a later record with a plausible time too.
func timeRead(out FirstRecord) bool {
	return out.Found && (out.Future == 0 || out.Timestamp >= 0)
}

// isAbortMarker tells whether a control batch's records (its first
// record's key: version int16, type int16) are an abort marker (type 0).
func isAbortMarker(recs []byte) bool {
	// length, attributes int8, timestamp delta, offset delta, key length
	_, n := binary.Varint(recs)
	if n <= 0 || len(recs) < n+1 {
		return false
	}
	recs = recs[n+1:]
	for range 2 {
		if _, n = binary.Varint(recs); n <= 0 {
			return false
		}
		recs = recs[n:]
	}
	klen, n := binary.Varint(recs)
	if n <= 0 || klen < 4 || int64(len(recs)-n) < klen {
		return false
	}
	return binary.BigEndian.Uint16(recs[n+2:]) == 0
}

// advance moves the read on to next and says whether it is done.
func (r *partRead) advance(p *kmsg.FetchResponseTopicPartition, next int64) {
	// The read stops at the last stable offset: beyond it, an open
	// transaction's records are not decided.
	stable := r.q.End
	if p.LastStableOffset >= 0 && p.LastStableOffset < stable {
		stable = p.LastStableOffset
	}
	if p.HighWatermark >= 0 && p.HighWatermark < stable {
		stable = p.HighWatermark
	}
	progressed := next > r.pos
	if progressed {
		r.pos = next
	}
	switch {
	case timeRead(r.out) && !r.q.Count:
		r.done = true
	case r.pos >= r.q.End:
		r.done, r.out.Counted = true, r.q.Count
	case r.pos >= stable:
		// Everything readable is read; the rest waits on a transaction.
		r.done = true
		r.out.Pending = !r.out.Found
		r.out.Counted = false
	case !progressed:
		r.stuck = true
		r.maxBytes = min(r.maxBytes*2, fetchPartitionBytesMax)
	default:
		r.stuck = false
	}
}

// batchTimestampType reads the timestamp type of the first record batch of
// a partition's records (attributes bit 3; magic 2 only).
func batchTimestampType(b []byte) (string, bool) {
	// baseOffset 8, length 4, leaderEpoch 4, magic 1, crc 4, attributes 2
	if len(b) < 23 || b[16] != 2 {
		return "", false
	}
	if b[22]&0b1000 != 0 {
		return LogAppendTime, true
	}
	return CreateTime, true
}

// TimeLag is now minus the record's timestamp, never negative (a producer
// clock ahead of ours is no lag); ok is false when the record has no
// timestamp.
func TimeLag(now time.Time, timestampMs int64) (time.Duration, bool) {
	if timestampMs < 0 {
		return 0, false
	}
	d := now.Sub(time.UnixMilli(timestampMs))
	return max(d, 0), true
}
