package admin

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// ReadLog hands every data record of the time-lag fixture (offsets 5..34,
// batches of 4, a commit marker at 13, an abort marker at 24, aborted
// records kept: read_uncommitted) in offset order, with every codec; the
// log starting at 5 is a gap before the first record, the markers are
// none.
func TestReadLog(t *testing.T) {
	for _, codec := range []string{"none", "gzip", "snappy", "lz4", "zstd"} {
		t.Run(codec, func(t *testing.T) {
			_, cl := timeLagState(t, codec, CreateTime)
			tp := kafka.TopicPartition{Topic: "t", Partition: 0}
			var offsets, gaps []int64
			batches := map[int64]bool{}
			st, err := cl.ReadLog(viewsCtx(t), LogRead{TopicPartition: tp, From: EarliestTimestamp}, func(r LogRecord) error {
				offsets = append(offsets, r.Offset)
				assert.Equal(t, 1000+r.Offset, r.Timestamp)
				batches[r.Batch] = true
				if r.Gap {
					gaps = append(gaps, r.Offset)
				}
				return nil
			})
			require.NoError(t, err)
			var want []int64
			for o := int64(5); o < 35; o++ {
				if o != 13 && o != 24 {
					want = append(want, o)
				}
			}
			assert.Equal(t, want, offsets)
			assert.Equal(t, []int64{5}, gaps)
			assert.Greater(t, len(batches), 4)
			assert.Equal(t, int64(5), st.LogStart)
			assert.Equal(t, int64(35), st.End)
			assert.Equal(t, int64(35), st.Next)
			assert.False(t, st.Budget)
			assert.Positive(t, st.Bytes)

			// Resumed where it stopped: nothing new, no gap.
			n := 0
			st2, err := cl.ReadLog(viewsCtx(t), LogRead{TopicPartition: tp, From: st.Next}, func(LogRecord) error { n++; return nil })
			require.NoError(t, err)
			assert.Zero(t, n)
			assert.Equal(t, int64(35), st2.Next)

			// A budget of one byte: one batch (a broker sends the first
			// whole), then the note that the budget stopped the read.
			offsets = nil
			st3, err := cl.ReadLog(viewsCtx(t), LogRead{TopicPartition: tp, From: 20, MaxBytes: 1}, func(r LogRecord) error {
				offsets = append(offsets, r.Offset)
				return nil
			})
			require.NoError(t, err)
			assert.True(t, st3.Budget)
			assert.NotEmpty(t, offsets)
			assert.Less(t, st3.Next, int64(35))
			assert.Equal(t, int64(20), offsets[0])

			// The callback's error stops the read.
			stop := errors.New("stop")
			_, err = cl.ReadLog(viewsCtx(t), LogRead{TopicPartition: tp, From: 0}, func(LogRecord) error { return stop })
			assert.ErrorIs(t, err, stop)
		})
	}
}

func TestReadLog_unknownPartition(t *testing.T) {
	_, cl := timeLagState(t, "none", CreateTime)
	_, err := cl.ReadLog(viewsCtx(t), LogRead{TopicPartition: kafka.TopicPartition{Topic: "t", Partition: 9}, From: EarliestTimestamp},
		func(LogRecord) error { return nil })
	require.Error(t, err)
}

// testBatch is a record batch (magic 2, uncompressed) at base whose last
// offset delta is lastDelta, holding records at the offset deltas given
// (a compacted batch keeps its last offset and loses records), or a
// control batch.
func testBatch(base int64, lastDelta int32, deltas []int32, control bool) []byte {
	var recs []byte
	for _, d := range deltas {
		var body []byte
		body = append(body, 0)                     // attributes
		body = binary.AppendVarint(body, 0)        // timestamp delta
		body = binary.AppendVarint(body, int64(d)) // offset delta
		body = binary.AppendVarint(body, 1)        // key length
		body = append(body, 'k')                   //
		body = binary.AppendVarint(body, -1)       // a null value
		body = binary.AppendVarint(body, 0)        // headers
		recs = binary.AppendVarint(recs, int64(len(body)))
		recs = append(recs, body...)
	}
	attrs := uint16(0)
	if control {
		attrs = 0b11_0000
	}
	b := binary.BigEndian.AppendUint64(nil, uint64(base))
	b = binary.BigEndian.AppendUint32(b, 0) // length, set below
	b = binary.BigEndian.AppendUint32(b, 0) // leader epoch
	b = append(b, 2)
	b = binary.BigEndian.AppendUint32(b, 0) // crc, set below
	b = binary.BigEndian.AppendUint16(b, attrs)
	b = binary.BigEndian.AppendUint32(b, uint32(lastDelta))
	b = binary.BigEndian.AppendUint64(b, 1000) // first timestamp
	b = binary.BigEndian.AppendUint64(b, 1000) // max timestamp
	b = binary.BigEndian.AppendUint64(b, ^uint64(0))
	b = binary.BigEndian.AppendUint16(b, ^uint16(0))
	b = binary.BigEndian.AppendUint32(b, ^uint32(0))
	b = binary.BigEndian.AppendUint32(b, uint32(len(deltas)))
	b = append(b, recs...)
	binary.BigEndian.PutUint32(b[batchLengthAt:], uint32(len(b)-batchLengthAt-4))
	binary.BigEndian.PutUint32(b[batchCRCAt:], crc32.Checksum(b[batchAttrsAt:], crc32c))
	return b
}

// A compacted log: records missing inside a batch, at its end, between
// batches, and a batch emptied whole are gaps, told with the next record;
// a marker's offset is no gap.
func TestLogWalk_gaps(t *testing.T) {
	var answer []byte
	answer = append(answer, testBatch(0, 2, []int32{0, 1, 2}, false)...) // 0 1 2
	answer = append(answer, testBatch(3, 3, []int32{0, 3}, false)...)    // 3, (4 5) 6
	answer = append(answer, testBatch(7, 2, []int32{0}, false)...)       // 7, (8 9)
	answer = append(answer, testBatch(10, 0, []int32{0}, false)...)      // 10 after a gap
	answer = append(answer, testBatch(11, 0, []int32{0}, true)...)       // a marker
	answer = append(answer, testBatch(12, 1, nil, false)...)             // (12 13): emptied
	answer = append(answer, testBatch(14, 0, []int32{0}, false)...)      // 14 after a gap
	answer = append(answer, testBatch(15, 0, []int32{0}, true)...)       // a marker
	answer = append(answer, testBatch(16, 0, []int32{0}, false)...)      // 16: no gap
	type seen struct {
		offset, batch int64
		gap           bool
	}
	var got []seen
	w := logWalk{tp: kafka.TopicPartition{Topic: "t"}, dec: newBoundedDecompressor(maxDecompressedBatch), fn: func(r LogRecord) error {
		assert.Equal(t, []byte("k"), r.Key)
		assert.Nil(t, r.Value)
		got = append(got, seen{r.Offset, r.Batch, r.Gap})
		return nil
	}}
	next, err := w.answer(answer, 0)
	require.NoError(t, err)
	assert.Equal(t, int64(17), next)
	assert.Equal(t, []seen{{0, 0, false}, {1, 0, false}, {2, 0, false}, {3, 3, false}, {6, 3, true}, {7, 7, false},
		{10, 10, true}, {14, 14, true}, {16, 16, false}}, got)

	// From the middle of a batch: the records before are not handed over,
	// and a batch cut by the answer's end is left to the next Fetch.
	got = nil
	w.expect, w.gap = 4, false
	next, err = w.answer(answer[:len(answer)-5], 4)
	require.NoError(t, err)
	assert.Equal(t, int64(16), next)
	assert.Equal(t, seen{6, 3, true}, got[0])
}

// plainRecords reads every data batch itself and finds what kgo's
// records give (offset, timestamp, key, value), from every position,
// with every codec and timestamp type; the hand-made batches of
// TestLogWalk_gaps (keys, null values) too.
func TestPlainRecordsAgreeWithKgo(t *testing.T) {
	for _, codec := range []string{"none", "gzip", "snappy", "lz4", "zstd"} {
		for _, tsType := range []string{CreateTime, LogAppendTime} {
			t.Run(codec+"/"+tsType, func(t *testing.T) {
				_, cl := timeLagState(t, codec, tsType)
				tis, err := cl.DescribeTopics(viewsCtx(t), []string{"t"})
				require.NoError(t, err)
				p, err := cl.fetchOne(viewsCtx(t), tis[0].Partitions[0].Leader, kafka.TopicPartition{Topic: "t"}, 5, 1<<20)
				require.NoError(t, err)
				require.Zero(t, p.ErrorCode)
				compareBatches(t, p.RecordBatches)
			})
		}
	}
	var hand []byte
	hand = append(hand, testBatch(0, 2, []int32{0, 1, 2}, false)...)
	hand = append(hand, testBatch(3, 3, []int32{0, 3}, false)...)
	compareBatches(t, hand)
}

func compareBatches(t *testing.T, b []byte) {
	t.Helper()
	w := &logWalk{tp: kafka.TopicPartition{Topic: "t"}, dec: newBoundedDecompressor(maxDecompressedBatch)}
	batches := 0
	for len(b) > batchHeaderLen {
		size := int(binary.BigEndian.Uint32(b[batchLengthAt:])) + batchLengthAt + 4
		raw := b[:size]
		b = b[size:]
		attrs := binary.BigEndian.Uint16(raw[batchAttrsAt:])
		if attrs&0b10_0000 != 0 {
			continue
		}
		batches++
		base := int64(binary.BigEndian.Uint64(raw))
		last := base + int64(binary.BigEndian.Uint32(raw[batchLastDeltaAt:]))
		fp, _ := kgo.ProcessFetchPartition(kgo.ProcessFetchPartitionOpts{Offset: base, IsolationLevel: kgo.ReadUncommitted(), Topic: "t"},
			&kmsg.FetchResponseTopicPartition{HighWatermark: -1, LastStableOffset: -1, RecordBatches: raw}, w.dec, nil)
		require.NoError(t, fp.Err)
		for from := base; from <= last+1; from++ {
			got, ok := w.plainRecords(raw, attrs, base, from)
			require.True(t, ok, "batch at %d read plainly", base)
			var want []LogRecord
			for _, r := range fp.Records {
				if r.Offset >= from {
					want = append(want, LogRecord{Offset: r.Offset, Timestamp: r.Timestamp.UnixMilli(), Batch: base, Key: r.Key, Value: r.Value})
				}
			}
			require.Equal(t, len(want), len(got), "batch at %d from %d", base, from)
			for i := range want {
				assert.Equal(t, want[i].Offset, got[i].Offset)
				assert.Equal(t, want[i].Timestamp, got[i].Timestamp, "offset %d", want[i].Offset)
				assert.Equal(t, want[i].Batch, got[i].Batch)
				assert.Equal(t, len(want[i].Key), len(got[i].Key))
				assert.Equal(t, string(want[i].Key), string(got[i].Key))
				assert.Equal(t, want[i].Value == nil, got[i].Value == nil, "offset %d: null value", want[i].Offset)
				assert.Equal(t, string(want[i].Value), string(got[i].Value))
			}
		}
	}
	assert.Positive(t, batches)
}

// A principal without READ on the topic: the Fetch's
// TOPIC_AUTHORIZATION_FAILED ends the read at once, as the Kafka error.
func TestReadLog_notAuthorized(t *testing.T) {
	c, cl := timeLagState(t, "none", CreateTime)
	c.InjectError(playground.Fault{Key: 1, Topic: "t", ErrorCode: kafka.CodeTopicAuthorizationFailed, Node: playground.AnyNode})
	n := 0
	st, err := cl.ReadLog(viewsCtx(t), LogRead{TopicPartition: kafka.TopicPartition{Topic: "t"}, From: EarliestTimestamp},
		func(LogRecord) error { n++; return nil })
	var ke *kafka.Error
	require.ErrorAs(t, err, &ke)
	assert.Equal(t, kafka.CodeTopicAuthorizationFailed, ke.Code)
	assert.Zero(t, n)
	assert.Equal(t, 1, st.Fetches, "not retried")
}

// A leader that moved (NOT_LEADER_OR_FOLLOWER once) is found again and
// the read goes on; one that keeps answering it ends the read after a
// few attempts.
func TestReadLog_leaderMoved(t *testing.T) {
	c, cl := timeLagState(t, "none", CreateTime)
	const notLeader = 6
	c.InjectError(playground.Fault{Key: 1, Topic: "t", ErrorCode: notLeader, Times: 1, Node: playground.AnyNode})
	n := 0
	st, err := cl.ReadLog(viewsCtx(t), LogRead{TopicPartition: kafka.TopicPartition{Topic: "t"}, From: EarliestTimestamp},
		func(LogRecord) error { n++; return nil })
	require.NoError(t, err)
	assert.Equal(t, 28, n)
	assert.Equal(t, int64(35), st.Next)

	c.InjectError(playground.Fault{Key: 1, Topic: "t", ErrorCode: notLeader, Node: playground.AnyNode})
	st, err = cl.ReadLog(viewsCtx(t), LogRead{TopicPartition: kafka.TopicPartition{Topic: "t"}, From: EarliestTimestamp},
		func(LogRecord) error { return nil })
	var ke *kafka.Error
	require.ErrorAs(t, err, &ke)
	assert.Equal(t, int16(notLeader), ke.Code)
	assert.Equal(t, logReadAttempts, st.Fetches)
}

// An error stops the read after the batches already handed over (a
// broken batch stops it before any of its records): Next is past them, so that a read resumed there does not hand
// them over twice.
func TestReadLog_stopResumes(t *testing.T) {
	_, cl := timeLagState(t, "none", CreateTime)
	tp := kafka.TopicPartition{Topic: "t"}
	stop := errors.New("stop")
	var seen []int64
	st, err := cl.ReadLog(viewsCtx(t), LogRead{TopicPartition: tp, From: EarliestTimestamp}, func(r LogRecord) error {
		if r.Offset >= 16 && r.Offset == r.Batch { // at a batch's start, as a broken batch stops it
			return stop
		}
		seen = append(seen, r.Offset)
		return nil
	})
	require.ErrorIs(t, err, stop)
	_, err = cl.ReadLog(viewsCtx(t), LogRead{TopicPartition: tp, From: st.Next}, func(r LogRecord) error {
		seen = append(seen, r.Offset)
		return nil
	})
	require.NoError(t, err)
	sorted := slices.Clone(seen)
	slices.Sort(sorted)
	assert.Len(t, slices.Compact(sorted), len(seen), "no record twice: %v", seen)
	assert.Equal(t, int64(34), seen[len(seen)-1])
}

// A batch whose CRC does not match its bytes (a broker's or a disk's
// corruption) ends the read as malformed, with the offset, read plainly
// or not: its records are not handed over as if they were the log's.
func TestLogWalk_crcMismatch(t *testing.T) {
	good := testBatch(0, 0, []int32{0}, false)
	bad := testBatch(1, 1, []int32{0, 1}, false)
	bad[len(bad)-3] ^= 0xff // inside the last record's key
	var handed []int64
	w := logWalk{tp: kafka.TopicPartition{Topic: "t"}, dec: newBoundedDecompressor(maxDecompressedBatch), fn: func(r LogRecord) error {
		handed = append(handed, r.Offset)
		return nil
	}}
	next, err := w.answer(append(good, bad...), 0)
	var me *kafka.MalformedError
	require.ErrorAs(t, err, &me)
	assert.Contains(t, err.Error(), "offset 1")
	assert.Contains(t, err.Error(), "CRC")
	assert.Equal(t, int64(1), next, "the good batch is read")
	assert.Equal(t, []int64{0}, handed)
}
