package playground

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"slices"
	"strings"
	"sync"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Fetch (key 1) answers real record batches made from a partition's
// offsets: every offset from the log start to the log end is a record
// (value "r<offset>", no key) whose timestamp is the partition's
// timestamps entry, or -1 (none) past the list; records are cut into
// batches of the topic's batch_records, in its compression and timestamp
// type; a transaction's records are one transactional producer's batches
// followed by its control batch (COMMIT or ABORT) at the marker offset;
// read_committed answers list the aborted transactions. The partition
// leader answers (others: NOT_LEADER_OR_FOLLOWER); an offset outside the
// log is OFFSET_OUT_OF_RANGE. Each partition gets at least one batch, then
// batches while its PartitionMaxBytes and the request's MaxBytes allow.
// v12 and below name topics, v13+ give their ids. The answer never waits.

// Transaction is a transaction written to a partition: Records records
// from Offset, then its marker at Offset+Records.
type Transaction struct {
	Partition int32 `yaml:"partition"`
	Offset    int64 `yaml:"offset"`
	Records   int64 `yaml:"records"`
	Aborted   bool  `yaml:"aborted"`
}

// topicLog is how a topic's records are laid out in batches.
type topicLog struct {
	logAppendTime bool
	codec         string // none, gzip, snappy, lz4, zstd
	batchRecords  int64
	txns          []Transaction // sorted by partition, offset
}

// Limits of one answer per partition, so that a large log answers
// quickly.
const (
	defaultBatchRecords = 10
	maxFetchRecords     = 5000
)

// control record types.
const (
	controlAbort  = 0
	controlCommit = 1
)

// codecs are the compressions a state file may name, with their batch
// attribute bits. Each compressor is built once: a zstd encoder is costly
// to make, and kgo's compressors are safe for concurrent use. The table is
// built on first use, not at every start (TestStartup_initBudget).
var codecs = sync.OnceValue(func() map[string]codec {
	return map[string]codec{
		"none":   {0, nil},
		"gzip":   {1, compressorOf(kgo.GzipCompression())},
		"snappy": {2, compressorOf(kgo.SnappyCompression())},
		"lz4":    {3, compressorOf(kgo.Lz4Compression())},
		"zstd":   {4, compressorOf(kgo.ZstdCompression())},
	}
})

type codec struct {
	bits       int16
	compressor func() (kgo.Compressor, error)
}

func compressorOf(codec kgo.CompressionCodec) func() (kgo.Compressor, error) {
	return sync.OnceValues(func() (kgo.Compressor, error) { return kgo.DefaultCompressor(codec) })
}

func (c *Cluster) handleFetch(n *node, req kmsg.Request) (kmsg.Response, error) {
	r := req.(*kmsg.FetchRequest)
	resp := r.ResponseKind().(*kmsg.FetchResponse)
	// What the answer needs is read under the lock; the batches are
	// encoded after it, so that a large Fetch does not stall other
	// requests (a partition's timestamps and layout are replaced, never
	// changed in place).
	var jobs []fetchJob
	c.mu.Lock()
	if c.offsets.cache == nil {
		c.offsets.cache = &batchCache{m: map[batchKey][]byte{}}
	}
	cache := c.offsets.cache
	for _, rt := range r.Topics {
		name := rt.Topic
		if r.Version >= 13 {
			name = c.topicNameByIDLocked(rt.TopicID)
		}
		t := kmsg.NewFetchResponseTopic()
		t.Topic, t.TopicID = rt.Topic, rt.TopicID
		for _, rp := range rt.Partitions {
			p := kmsg.NewFetchResponseTopicPartition()
			p.Partition = rp.Partition
			p.HighWatermark, p.LastStableOffset, p.LogStartOffset = -1, -1, -1
			if j, ok := c.fetchPartitionLocked(n, r.Version, name, rp, &p); ok {
				j.ti, j.pi = len(resp.Topics), len(t.Partitions)
				jobs = append(jobs, j)
			}
			t.Partitions = append(t.Partitions, p)
		}
		resp.Topics = append(resp.Topics, t)
	}
	c.mu.Unlock()
	budget := max(int64(r.MaxBytes), 1)
	first := true
	for _, j := range jobs {
		p := &resp.Topics[j.ti].Partitions[j.pi]
		if j.raw != nil {
			p.RecordBatches = joinWithin(j.raw, min(j.max, budget), first)
		} else {
			batches, aborted, err := encodeBatches(j.log, j.tl, j.times, j.from, min(j.max, budget), first, cache, j.key)
			if err != nil {
				return nil, err
			}
			p.RecordBatches = batches
			if r.IsolationLevel == 1 {
				p.AbortedTransactions = aborted
			}
		}
		first = first && len(p.RecordBatches) == 0
		budget -= int64(len(p.RecordBatches))
	}
	return resp, nil
}

// fetchJob is one partition's read of a Fetch, taken under the lock and
// encoded after it.
type fetchJob struct {
	ti, pi int // the partition's place in the answer
	log    logRange
	tl     topicLog
	times  []int64
	from   int64
	max    int64
	key    batchKey
	// raw, for __consumer_offsets, are the coordinator log's batches from
	// the fetch offset on (coordlog.go).
	raw [][]byte
}

// fetchPartitionLocked answers a partition's error into p, or returns the
// read to make of it (its offsets are then in p).
func (c *Cluster) fetchPartitionLocked(n *node, version int16, name string, rp kmsg.FetchRequestTopicPartition, p *kmsg.FetchResponseTopicPartition) (fetchJob, bool) {
	known, ok := c.namedTopicLocked(name)
	fault, faulted := c.takeTopicFaultLocked(1, n.id, name)
	switch {
	case faulted && ok:
		p.ErrorCode = fault.ErrorCode
		return fetchJob{}, false
	case !ok || rp.Partition < 0 || rp.Partition >= known.partitions:
		p.ErrorCode = kerr.UnknownTopicOrPartition.Code
		if version >= 13 {
			p.ErrorCode = kerr.UnknownTopicID.Code
		}
		return fetchJob{}, false
	case leaderOf(name, rp.Partition, int32(len(c.nodes))) != n.id:
		p.ErrorCode = kerr.NotLeaderForPartition.Code
		return fetchJob{}, false
	}
	if name == OffsetsTopic {
		return c.fetchCoordLocked(rp, p)
	}
	l := c.offsets.log(name, rp.Partition)
	p.HighWatermark, p.LastStableOffset, p.LogStartOffset = l.end, l.end, l.start
	if rp.FetchOffset < l.start || rp.FetchOffset > l.end {
		p.ErrorCode = kerr.OffsetOutOfRange.Code
		return fetchJob{}, false
	}
	tl := c.offsets.topicLog(name)
	tl.txns = slices.DeleteFunc(slices.Clone(tl.txns), func(x Transaction) bool { return x.Partition != rp.Partition })
	return fetchJob{log: l, tl: tl, times: c.offsets.partitionTimes(name, rp.Partition), from: rp.FetchOffset, max: int64(rp.PartitionMaxBytes),
		key: batchKey{topic: name, partition: rp.Partition}}, true
}

func (b *offsetBook) topicLog(topic string) topicLog {
	tl, ok := b.layout[topic]
	if !ok {
		return topicLog{codec: "none", batchRecords: defaultBatchRecords}
	}
	return tl
}

// encodeBatches encodes the batches of a partition (log l, layout tl with
// the partition's transactions only, record timestamps times) from the
// one holding from, within limit bytes (the first batch always when
// minOne), and the aborted transactions they overlap.
func encodeBatches(l logRange, tl topicLog, times []int64, from, limit int64, minOne bool, cache *batchCache, key batchKey) ([]byte, []kmsg.FetchResponseTopicPartitionAbortedTransaction, error) {
	txns := tl.txns
	ts := func(o int64) int64 {
		if i := o - l.start; i >= 0 && i < int64(len(times)) {
			return times[i]
		}
		return -1
	}
	// The cached batches are gathered first and copied once: most answers
	// are several small batches.
	var parts [][]byte
	size := int64(0)
	var aborted []kmsg.FetchResponseTopicPartitionAbortedTransaction
	at := batchStart(from, l.start, tl.batchRecords, txns)
	records := int64(0)
	for at < l.end && records < maxFetchRecords {
		kind, txi, end := regionAt(at, l.end, tl.batchRecords, txns)
		control := kind == regionControl
		typ := int16(controlAbort)
		if control && !txns[txi].Aborted {
			typ = controlCommit
		}
		key.start = at
		batch, err := cache.get(key, func() ([]byte, error) {
			return encodeBatch(tl, at, end, ts, producerID(txi), kind != regionPlain, control, typ)
		})
		if kind == regionTxn && txns[txi].Aborted && !slices.ContainsFunc(aborted, func(a kmsg.FetchResponseTopicPartitionAbortedTransaction) bool {
			return a.ProducerID == producerID(txi)
		}) {
			a := kmsg.NewFetchResponseTopicPartitionAbortedTransaction()
			a.ProducerID, a.FirstOffset = producerID(txi), txns[txi].Offset
			aborted = append(aborted, a)
		}
		if err != nil {
			return nil, nil, err
		}
		if size+int64(len(batch)) > limit && !(minOne && size == 0) {
			break
		}
		parts = append(parts, batch)
		size += int64(len(batch))
		records += end - at
		at = end
	}
	return slices.Concat(parts...), aborted, nil
}

// batchKey names an encoded batch: its partition and first offset.
type batchKey struct {
	topic     string
	partition int32
	start     int64
}

// batchCache keeps the batches encoded so far: a partition's records never
// change until its offsets or timestamps do, which clears the cache
// (offsetBook.setLog, setTimes; Load starts a new book).
type batchCache struct {
	mu sync.Mutex
	m  map[batchKey][]byte
}

func (bc *batchCache) get(k batchKey, encode func() ([]byte, error)) ([]byte, error) {
	bc.mu.Lock()
	b, ok := bc.m[k]
	bc.mu.Unlock()
	if ok {
		return b, nil
	}
	b, err := encode()
	if err != nil {
		return nil, err
	}
	bc.mu.Lock()
	bc.m[k] = b
	bc.mu.Unlock()
	return b, nil
}

// producerID is the producer of transaction i (non-transactional batches:
// -1).
func producerID(i int) int64 {
	if i < 0 {
		return -1
	}
	return 1000 + int64(i)
}

const (
	regionPlain = iota
	regionTxn
	regionControl
)

// regionAt says what the offset at, a batch start, begins: a plain batch, a
// transaction's batch (txi its transaction) or a marker, and where the
// batch ends.
func regionAt(at, logEnd, batchRecords int64, txns []Transaction) (kind, txi int, end int64) {
	end = min(at+batchRecords, logEnd)
	for i, t := range txns {
		marker := t.Offset + t.Records
		switch {
		case at == marker:
			return regionControl, i, at + 1
		case at >= t.Offset && at < marker:
			return regionTxn, i, min(end, marker)
		case at < t.Offset:
			end = min(end, t.Offset)
		}
	}
	return regionPlain, -1, end
}

// batchStart is the start of the batch holding offset o: batches start at
// the log start, after each marker and at each transaction, every
// batchRecords offsets.
func batchStart(o, logStart, batchRecords int64, txns []Transaction) int64 {
	base := logStart
	for _, t := range txns {
		marker := t.Offset + t.Records
		switch {
		case o >= marker+1 && marker+1 > base:
			base = marker + 1
		case o == marker:
			return marker
		case o >= t.Offset && t.Offset > base:
			base = t.Offset
		}
	}
	return base + (o-base)/batchRecords*batchRecords
}

// encodeBatch encodes offsets [from, to) as one v2 record batch; a control
// batch holds one marker of type typ.
func encodeBatch(tl topicLog, from, to int64, ts func(int64) int64, pid int64, txn, control bool, typ int16) ([]byte, error) {
	var recs []byte
	first, maxTS := int64(-1), int64(-1)
	for o := from; o < to; o++ {
		if t := ts(o); t >= 0 {
			if first < 0 {
				first = t
			}
			maxTS = max(maxTS, t)
		}
	}
	for o := from; o < to; o++ {
		var key, val []byte
		if control {
			key = binary.BigEndian.AppendUint16(binary.BigEndian.AppendUint16(nil, 0), uint16(typ))
			val = binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint16(nil, 0), 0)
		} else {
			val = []byte(fmt.Sprintf("r%d", o))
		}
		delta := int64(0)
		if t := ts(o); t >= 0 && first >= 0 {
			delta = t - first
		}
		recs = appendRecord(recs, delta, o-from, key, val)
	}
	attrs := int16(0)
	if tl.logAppendTime {
		attrs |= 0b1000
		first = maxTS
	}
	if txn {
		attrs |= 0b1_0000
	}
	if control {
		attrs |= 0b10_0000
	}
	if tl.codec != "none" && tl.codec != "" && !control { // a control batch is never compressed
		comp, err := codecs()[tl.codec].compressor()
		if err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		z, _ := comp.Compress(&buf, recs)
		recs = slices.Clone(z)
		attrs |= codecs()[tl.codec].bits
	}
	b := kmsg.RecordBatch{
		FirstOffset: from, PartitionLeaderEpoch: 0, Magic: 2, Attributes: attrs,
		LastOffsetDelta: int32(to - from - 1), FirstTimestamp: first, MaxTimestamp: maxTS,
		ProducerID: pid, ProducerEpoch: -1, FirstSequence: -1, NumRecords: int32(to - from), Records: recs,
	}
	if pid >= 0 {
		b.ProducerEpoch = 0
		b.FirstSequence = 0
	}
	return sealBatch(b), nil
}

// appendRecord appends one v2 record, without headers; a nil key or value
// is null.
func appendRecord(dst []byte, tsDelta, offsetDelta int64, key, value []byte) []byte {
	body := []byte{0} // attributes
	body = binary.AppendVarint(body, tsDelta)
	body = binary.AppendVarint(body, offsetDelta)
	for _, b := range [][]byte{key, value} {
		if b == nil {
			body = binary.AppendVarint(body, -1)
			continue
		}
		body = append(binary.AppendVarint(body, int64(len(b))), b...)
	}
	body = binary.AppendVarint(body, 0) // headers
	return append(binary.AppendVarint(dst, int64(len(body))), body...)
}

// sealBatch encodes b with the length and CRC that kmsg leaves to the
// caller.
func sealBatch(b kmsg.RecordBatch) []byte {
	out := b.AppendTo(nil)
	binary.BigEndian.PutUint32(out[8:], uint32(len(out)-12))
	binary.BigEndian.PutUint32(out[17:], crc32.Checksum(out[21:], crc32.MakeTable(crc32.Castagnoli)))
	return out
}

// parseCodec reads a state file's compression.
func parseCodec(s string) (string, bool) {
	s = strings.ToLower(s)
	if s == "" {
		return "none", true
	}
	_, ok := codecs()[s]
	return s, ok
}

// topicLog is the batch layout a state file's topic gives.
func (t StateTopic) topicLog() topicLog {
	codec, _ := parseCodec(t.Compression)
	tl := topicLog{logAppendTime: strings.EqualFold(t.TimestampType, "LogAppendTime"), codec: codec, batchRecords: t.BatchRecords}
	if tl.batchRecords <= 0 {
		tl.batchRecords = defaultBatchRecords
	}
	tl.txns = slices.Clone(t.Transactions)
	slices.SortFunc(tl.txns, func(a, b Transaction) int {
		return cmp.Or(cmp.Compare(a.Partition, b.Partition), cmp.Compare(a.Offset, b.Offset))
	})
	return tl
}

// validateLayout checks a topic's Fetch keys.
func validateLayout(where string, t StateTopic, p *problems) {
	if _, ok := parseCodec(t.Compression); !ok {
		p.add("%s: unknown compression %q (want none, gzip, snappy, lz4 or zstd)", where, t.Compression)
	}
	if t.TimestampType != "" && !strings.EqualFold(t.TimestampType, "CreateTime") && !strings.EqualFold(t.TimestampType, "LogAppendTime") {
		p.add("%s: unknown timestamp_type %q (want CreateTime or LogAppendTime)", where, t.TimestampType)
	}
	if t.BatchRecords < 0 || t.BatchRecords > maxFetchRecords {
		p.add("%s: batch_records must be 1..%d, got %d", where, maxFetchRecords, t.BatchRecords)
	}
	tl := t.topicLog()
	for i, x := range tl.txns {
		r := t.logRange(x.Partition)
		switch {
		case x.Partition < 0 || x.Partition >= t.Partitions:
			p.add("%s: a transaction names partition %d (the topic has %d)", where, x.Partition, t.Partitions)
		case x.Records < 0:
			p.add("%s: a transaction at %d of partition %d has %d records", where, x.Offset, x.Partition, x.Records)
		case x.Offset < r.start || x.Offset+x.Records >= r.end:
			p.add("%s: the transaction at %d of partition %d (%d records and its marker) is not inside offsets %d to %d", where, x.Offset, x.Partition, x.Records, r.start, r.end)
		case i > 0 && tl.txns[i-1].Partition == x.Partition && tl.txns[i-1].Offset+tl.txns[i-1].Records >= x.Offset:
			p.add("%s: the transactions at %d and %d of partition %d overlap", where, tl.txns[i-1].Offset, x.Offset, x.Partition)
		}
	}
}
