package admin

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// timeLagState: topic t, partition 0 holds offsets 5..34 (timestamps
// 1000+offset), a committed transaction of 3 records at 10 (marker 13) and
// an aborted one of 4 at 20 (marker 24); partition 1 is empty; topic u has
// 3 partitions on other leaders.
func timeLagState(t *testing.T, codec, tsType string) (*playground.Cluster, *Client) {
	t.Helper()
	var ts []string
	for o := 5; o < 35; o++ {
		ts = append(ts, fmt.Sprint(1000+o))
	}
	s, err := playground.ParseState(fmt.Appendf(nil, `nodes: 3
topics:
  - name: t
    partitions: 2
    start_offsets: [5, 0]
    end_offsets: [35, 0]
    timestamps: [[%s], []]
    compression: %s
    timestamp_type: %s
    batch_records: 4
    transactions:
      - {partition: 0, offset: 10, records: 3}
      - {partition: 0, offset: 20, records: 4, aborted: true}
  - name: u
    partitions: 3
    end_offsets: [3, 3, 3]
    timestamps: [[7, 8, 9], [7, 8, 9], []]
`, strings.Join(ts, ","), codec, tsType))
	require.NoError(t, err)
	c, err := playground.StartState(s)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	cl, err := New(Config{Bootstrap: c.Addrs()})
	require.NoError(t, err)
	t.Cleanup(cl.Close)
	return c, cl
}

func TestFetchFirstRecords(t *testing.T) {
	tp := func(topic string, p int32) kafka.TopicPartition {
		return kafka.TopicPartition{Topic: topic, Partition: p}
	}
	for _, codec := range []string{"none", "gzip", "snappy", "lz4", "zstd"} {
		for _, tsType := range []string{CreateTime, LogAppendTime} {
			t.Run(codec+"/"+tsType, func(t *testing.T) {
				c, cl := timeLagState(t, codec, tsType)
				qs := []FirstRecordQuery{
					{TopicPartition: tp("t", 0), From: 5, End: 35, Count: true},  // everything
					{TopicPartition: tp("t", 0), From: 20, End: 35, Count: true}, // aborted, marker, then 25
					{TopicPartition: tp("t", 0), From: 24, End: 25, Count: true}, // only the abort marker
					{TopicPartition: tp("t", 0), From: 13, End: 14, Count: true}, // only the commit marker
					{TopicPartition: tp("t", 0), From: 35, End: 35, Count: true}, // caught up
					{TopicPartition: tp("t", 0), From: 11, End: 35},              // time only
					{TopicPartition: tp("u", 0), From: 1, End: 3, Count: true},
					{TopicPartition: tp("u", 1), From: 0, End: 3},
					{TopicPartition: tp("u", 2), From: 0, End: 3, Count: true}, // records without timestamps
				}
				got, stats, err := cl.FetchFirstRecords(viewsCtx(t), qs)
				require.NoError(t, err)
				require.Len(t, got, len(qs))
				for _, g := range got {
					require.NoError(t, g.Err, g.TopicPartition)
				}
				type row struct {
					found     bool
					offset    int64
					records   int64
					counted   bool
					timestamp int64
				}
				rows := make([]row, len(got))
				for i, g := range got {
					rows[i] = row{g.Found, g.Offset, g.Records, g.Counted, g.Timestamp}
				}
				// LogAppendTime: a record's time is its batch's largest
				// (batches of 4 from the log start, cut at transactions).
				ts := func(create, appendT int64) int64 {
					if tsType == LogAppendTime {
						return appendT
					}
					return create
				}
				assert.Equal(t, []row{
					{true, 5, 24, true, ts(1005, 1008)},
					{true, 25, 10, true, ts(1025, 1028)},
					{false, -1, 0, true, -1},
					{false, -1, 0, true, -1},
					{false, -1, 0, true, -1},
					{true, 11, 0, false, ts(1011, 1012)},
					{true, 1, 2, true, 8},
					{true, 0, 0, false, 7},
					{true, 0, 3, true, -1},
				}, rows)
				assert.Equal(t, tsType, got[0].TimestampType)
				// One Fetch per leader: t-0, u-0, u-1 and u-2 are led by
				// the three nodes.
				assert.Equal(t, 1, stats.Rounds)
				leaders := map[int32]bool{}
				for _, r := range logged(c, 1) {
					leaders[r.Node] = true
				}
				assert.Equal(t, len(leaders), stats.Requests)
				assert.Len(t, logged(c, 1), stats.Requests)
			})
		}
	}
}

func TestTimeLag(t *testing.T) {
	now := time.UnixMilli(10_000)
	d, ok := TimeLag(now, 7_500)
	assert.True(t, ok)
	assert.Equal(t, 2500*time.Millisecond, d)
	d, ok = TimeLag(now, 12_000) // a producer clock ahead of ours
	assert.True(t, ok)
	assert.Zero(t, d)
	_, ok = TimeLag(now, -1)
	assert.False(t, ok)
}

// The batch headers read a partition as decoding every record does: the
// same first record, count and next position for every position and end,
// whole answers and answers cut inside a batch, every codec.
func TestTakeHeadersAgreesWithRecords(t *testing.T) {
	for _, codec := range []string{"none", "gzip", "snappy", "lz4", "zstd"} {
		for _, tsType := range []string{CreateTime, LogAppendTime} {
			t.Run(codec+"/"+tsType, func(t *testing.T) {
				_, cl := timeLagState(t, codec, tsType)
				tis, err := cl.DescribeTopics(viewsCtx(t), []string{"t"})
				require.NoError(t, err)
				leader := tis[0].Partitions[0].Leader
				req := kmsg.NewPtrFetchRequest()
				req.ReplicaID, req.MaxBytes, req.IsolationLevel, req.SessionEpoch = -1, 1<<20, 1, -1
				rt := kmsg.NewFetchRequestTopic()
				rt.Topic = "t"
				rp := kmsg.NewFetchRequestTopicPartition()
				rp.FetchOffset, rp.PartitionMaxBytes, rp.CurrentLeaderEpoch, rp.LastFetchedEpoch, rp.LogStartOffset = 5, 1<<20, -1, -1, -1
				rt.Partitions = append(rt.Partitions, rp)
				req.Topics = append(req.Topics, rt)
				kr, err := cl.cl.Broker(int(leader)).Request(viewsCtx(t), fetchV12{req})
				require.NoError(t, err)
				whole := kr.(*kmsg.FetchResponse).Topics[0].Partitions[0]
				require.NotEmpty(t, whole.RecordBatches)
				require.NotEmpty(t, whole.AbortedTransactions)
				// The markers: a commit at 13, an abort at 24.
				markers := map[int64]bool{}
				for b := whole.RecordBatches; len(b) > batchHeaderLen; {
					size := int(binary.BigEndian.Uint32(b[batchLengthAt:])) + batchLengthAt + 4
					if binary.BigEndian.Uint16(b[batchAttrsAt:])&0b10_0000 != 0 {
						markers[int64(binary.BigEndian.Uint64(b))] = isAbortMarker(b[batchHeaderLen:size])
					}
					b = b[size:]
				}
				require.Equal(t, map[int64]bool{13: false, 24: true}, markers)
				dec := newBoundedDecompressor(maxDecompressedBatch)
				var scratch []byte // reused by every read, as in a Fetch round
				n := len(whole.RecordBatches)
				for _, cut := range []int{n, n - 1, n / 2, n / 3, 30} {
					p := whole
					p.RecordBatches = whole.RecordBatches[:cut]
					for from := int64(5); from <= 35; from++ {
						for end := from + 1; end <= 35; end++ {
							for _, count := range []bool{true, false} {
								q := FirstRecordQuery{TopicPartition: kafka.TopicPartition{Topic: "t"}, From: from, End: end, Count: count}
								mk := func() *partRead {
									return &partRead{q: q, pos: from, maxBytes: fetchPartitionBytes, out: FirstRecord{Timestamp: -1, Offset: -1}}
								}
								byHeaders, byRecords := mk(), mk()
								byHeaders.take(&p, dec, &scratch)
								next, failed := byRecords.takeRecords(&p, dec)
								require.False(t, failed)
								if typ, ok := batchTimestampType(p.RecordBatches); ok {
									byRecords.out.TimestampType = cmp.Or(byRecords.out.TimestampType, typ)
								}
								byRecords.advance(&p, next)
								what := fmt.Sprintf("cut %d/%d, [%d, %d), count %v", cut, n, from, end, count)
								if !count && byRecords.out.Found {
									// Only the first record is asked: the
									// headers stop reading after it.
									byRecords.out.Records, byHeaders.out.Records = 0, 0
								}
								require.Equal(t, byRecords.out, byHeaders.out, what)
								if count || !byRecords.out.Found {
									require.Equal(t, byRecords.pos, byHeaders.pos, what)
								}
								require.Equal(t, byRecords.done, byHeaders.done, what)
							}
						}
					}
				}
			})
		}
	}
}

// batchRecords reads every data batch itself (no fallback to kgo's
// decoding), and finds what kgo's records give: the first record's
// offset, timestamp and its type, and the count, from every position.
func TestBatchRecordsAgreesWithKgo(t *testing.T) {
	for _, codec := range []string{"none", "gzip", "snappy", "lz4", "zstd"} {
		for _, tsType := range []string{CreateTime, LogAppendTime} {
			t.Run(codec+"/"+tsType, func(t *testing.T) {
				_, cl := timeLagState(t, codec, tsType)
				tis, err := cl.DescribeTopics(viewsCtx(t), []string{"t"})
				require.NoError(t, err)
				req := kmsg.NewPtrFetchRequest()
				req.ReplicaID, req.MaxBytes, req.IsolationLevel, req.SessionEpoch = -1, 1<<20, 0, -1
				rt := kmsg.NewFetchRequestTopic()
				rt.Topic = "t"
				rp := kmsg.NewFetchRequestTopicPartition()
				rp.FetchOffset, rp.PartitionMaxBytes, rp.CurrentLeaderEpoch, rp.LastFetchedEpoch, rp.LogStartOffset = 5, 1<<20, -1, -1, -1
				rt.Partitions = append(rt.Partitions, rp)
				req.Topics = append(req.Topics, rt)
				kr, err := cl.cl.Broker(int(tis[0].Partitions[0].Leader)).Request(viewsCtx(t), fetchV12{req})
				require.NoError(t, err)
				whole := kr.(*kmsg.FetchResponse).Topics[0].Partitions[0]
				dec := newBoundedDecompressor(maxDecompressedBatch)
				var scratch []byte // reused by every read, as in a Fetch round
				batches := 0
				for b := whole.RecordBatches; len(b) > batchHeaderLen; {
					size := int(binary.BigEndian.Uint32(b[batchLengthAt:])) + batchLengthAt + 4
					raw := b[:size]
					b = b[size:]
					attrs := binary.BigEndian.Uint16(raw[batchAttrsAt:])
					if attrs&0b10_0000 != 0 {
						continue // a marker
					}
					batches++
					base := int64(binary.BigEndian.Uint64(raw))
					last := base + int64(binary.BigEndian.Uint32(raw[batchLastDeltaAt:]))
					fp, _ := kgo.ProcessFetchPartition(kgo.ProcessFetchPartitionOpts{Offset: base, IsolationLevel: kgo.ReadUncommitted(), Topic: "t"},
						&kmsg.FetchResponseTopicPartition{HighWatermark: whole.HighWatermark, LastStableOffset: whole.LastStableOffset, RecordBatches: raw}, dec, nil)
					require.NoError(t, fp.Err)
					for from := base; from <= last+1; from++ {
						for _, end := range []int64{from, last, last + 1, 100} {
							r := &partRead{q: FirstRecordQuery{TopicPartition: kafka.TopicPartition{Topic: "t"}, From: from, End: end, Count: true}, pos: from}
							zero := FirstRecord{Timestamp: -1, Offset: -1}
							got, ok := r.batchRecords(zero, from, raw, attrs, dec, &scratch)
							require.True(t, ok, "batch at %d read plainly", base)
							assert.Equal(t, r.records(zero, from, fp.Records), got, "batch at %d from %d to %d", base, from, end)
						}
					}
				}
				assert.Greater(t, batches, 2)
			})
		}
	}
}

// A record stamped in the future at the committed offset (W4 of issue 30):
// its time is no time, and the read goes on to the next record whose time
// is plausible, in the same batch or a later one, counted or not; 2^63-1
// is such a time too. Without a later plausible time, the time is -1.
func TestFetchFirstRecords_future(t *testing.T) {
	now := time.UnixMilli(1_796_119_200_000) // 2026-12-01T10:00Z
	latest := now.Add(time.Minute).UnixMilli()
	old := now.Add(-240 * time.Hour).UnixMilli()
	for _, tc := range []struct {
		name   string
		first  int64
		batch  int
		codec  string
		rest   int64 // the 99 records after the first
		wantTS int64
	}{
		{"in the first batch", now.Add(240 * time.Hour).UnixMilli(), 10, "none", old, old},
		{"in a later batch", now.Add(240 * time.Hour).UnixMilli(), 1, "none", old, old},
		{"compressed", now.Add(240 * time.Hour).UnixMilli(), 10, "gzip", old, old},
		{"2^63-1", math.MaxInt64, 10, "none", old, old},
		{"2^63-1 alone", math.MaxInt64, 1, "lz4", math.MaxInt64, -1},
		{"every record ahead", now.Add(time.Hour).UnixMilli(), 7, "none", now.Add(time.Hour).UnixMilli(), -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := []string{fmt.Sprint(tc.first)}
			for range 99 {
				ts = append(ts, fmt.Sprint(tc.rest))
			}
			s, err := playground.ParseState(fmt.Appendf(nil, "topics:\n  - {name: f, partitions: 1, end_offsets: [100], timestamps: [[%s]], batch_records: %d, compression: %s}\n",
				strings.Join(ts, ","), tc.batch, tc.codec))
			require.NoError(t, err)
			c, err := playground.StartState(s)
			require.NoError(t, err)
			t.Cleanup(func() { _ = c.Close() })
			cl, err := New(Config{Bootstrap: c.Addrs()})
			require.NoError(t, err)
			t.Cleanup(cl.Close)

			tp := kafka.TopicPartition{Topic: "f"}
			for _, count := range []bool{false, true} {
				got, _, err := cl.FetchFirstRecords(testContext(t, 10*time.Second), []FirstRecordQuery{{TopicPartition: tp, From: 0, End: 100, Count: count, Latest: latest}})
				require.NoError(t, err)
				require.Len(t, got, 1)
				fr := got[0]
				require.NoError(t, fr.Err)
				assert.True(t, fr.Found)
				assert.Equal(t, int64(0), fr.Offset, "the first record is still the first")
				assert.Equal(t, tc.wantTS, fr.Timestamp, "count %v", count)
				assert.Equal(t, tc.first, fr.FutureTimestamp)
				if tc.wantTS >= 0 {
					assert.Equal(t, int64(1), fr.Future, "the one ahead")
				} else {
					assert.Equal(t, int64(100), fr.Future, "all of them, up to the end")
				}
				if count {
					assert.True(t, fr.Counted)
					assert.Equal(t, int64(100), fr.Records)
				}
			}

			// Without Latest, the first record's time is the time, as
			// before (inventory's reads).
			got, _, err := cl.FetchFirstRecords(testContext(t, 10*time.Second), []FirstRecordQuery{{TopicPartition: tp, From: 0, End: 100}})
			require.NoError(t, err)
			assert.Equal(t, tc.first, got[0].Timestamp)
			assert.Zero(t, got[0].Future)
		})
	}
}
