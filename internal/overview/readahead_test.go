package overview

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// aheadReader is a reader whose log starts' ListOffsets answers only once
// a Fetch is out (or after a few seconds): a time lag read after the log
// starts would find it waiting.
type aheadReader struct {
	*reader
	mu       sync.Mutex
	fetches  [][]admin.FirstRecordQuery
	fetched  chan struct{}
	once     sync.Once
	overlaps bool
}

func (r *aheadReader) FetchFirstRecords(ctx context.Context, qs []admin.FirstRecordQuery) ([]admin.FirstRecord, admin.FetchStats, error) {
	r.mu.Lock()
	r.fetches = append(r.fetches, qs)
	r.mu.Unlock()
	r.once.Do(func() { close(r.fetched) })
	out := make([]admin.FirstRecord, len(qs))
	for i, q := range qs {
		out[i] = r.first[q.TopicPartition]
		out[i].TopicPartition = q.TopicPartition
		if q.From < r.start[q.TopicPartition] {
			out[i] = admin.FirstRecord{TopicPartition: q.TopicPartition, Err: admin.NewKafkaError(1, nil)} // OFFSET_OUT_OF_RANGE
		}
	}
	return out, admin.FetchStats{Requests: 2, Rounds: 1}, nil
}

func (r *aheadReader) ListOffsets(ctx context.Context, tps []kafka.TopicPartition, ts int64) ([]admin.ListedOffset, error) {
	if ts == admin.EarliestTimestamp {
		select {
		case <-r.fetched:
			r.overlaps = true
		case <-time.After(2 * time.Second):
		}
	}
	return r.fake.ListOffsets(ctx, tps, ts)
}

// With every partition committed, the time lag's Fetch goes out while the
// log starts are asked (one round trip less), from the committed offsets
// to the log ends; a partition whose committed offset turned out to be
// below its log start is read again from there. With a partition never
// committed, the Fetch waits for the log starts: one Fetch, not two.
func TestTimeLag_readAhead(t *testing.T) {
	now := time.UnixMilli(1_790_000_000_000)
	first := map[kafka.TopicPartition]admin.FirstRecord{
		tp("in", 0):                  {Found: true, Offset: 90, Timestamp: now.Add(-time.Minute).UnixMilli(), Records: 10, Counted: true},
		tp("in", 1):                  {Found: true, Offset: 15, Timestamp: now.Add(-time.Hour).UnixMilli(), Records: 25, Counted: true},
		tp("app-rep-repartition", 0): {Counted: true},
		tp("app-rep-repartition", 1): {Found: true, Offset: 22, Timestamp: now.Add(-time.Second).UnixMilli(), Records: 3, Counted: true},
	}
	committed := func(in1 int64) []admin.CommittedOffset {
		return []admin.CommittedOffset{
			{TopicPartition: tp("in", 0), Offset: 90}, {TopicPartition: tp("in", 1), Offset: in1},
			{TopicPartition: tp("app-rep-repartition", 0), Offset: 50}, {TopicPartition: tp("app-rep-repartition", 1), Offset: 22},
		}
	}
	for _, tc := range []struct {
		name     string
		in1      int64 // in-1's committed offset (log 10..40); -1: never committed
		overlaps bool
		fetches  []map[kafka.TopicPartition]int64 // each Fetch's partitions and From
		in1Lag   time.Duration
	}{
		{"every partition committed", 15, true, []map[kafka.TopicPartition]int64{
			{tp("in", 0): 90, tp("in", 1): 15, tp("app-rep-repartition", 0): 50, tp("app-rep-repartition", 1): 22},
		}, time.Hour},
		{"a committed offset below the log start", 5, true, []map[kafka.TopicPartition]int64{
			{tp("in", 0): 90, tp("in", 1): 5, tp("app-rep-repartition", 0): 50, tp("app-rep-repartition", 1): 22},
			{tp("in", 1): 10},
		}, time.Hour},
		{"a partition never committed", -1, false, []map[kafka.TopicPartition]int64{
			{tp("in", 0): 90, tp("in", 1): 10, tp("app-rep-repartition", 0): 50, tp("app-rep-repartition", 1): 22},
		}, time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := app(topology.Available)
			f.committed["app"] = committed(tc.in1)
			if tc.in1 < 0 {
				f.committed["app"] = append(f.committed["app"][:1], f.committed["app"][2:]...)
			}
			r := &aheadReader{reader: &reader{fake: f, first: first}, fetched: make(chan struct{})}
			res, err := Run(t.Context(), r, Options{Groups: []string{"app"}, TimeLag: true, Now: func() time.Time { return now }})
			require.NoError(t, err)
			g := res.Groups[0]
			require.NoError(t, g.Err)
			assert.Equal(t, tc.overlaps, r.overlaps, "the Fetch was out while the log starts were asked")
			var got []map[kafka.TopicPartition]int64
			for _, qs := range r.fetches {
				m := map[kafka.TopicPartition]int64{}
				for _, q := range qs {
					m[q.TopicPartition] = q.From
				}
				got = append(got, m)
			}
			assert.Equal(t, tc.fetches, got)
			assert.Equal(t, 2*len(tc.fetches), res.Fetches, "the requests of every Fetch")
			assert.Equal(t, tc.in1Lag, g.Subtopologies[0].Tasks[1].Time.Lag)
			assert.Equal(t, time.Hour, g.Time.Lag)
			assert.Equal(t, int64(10+25+0+3), g.Time.Records)
			assert.True(t, g.Time.Exact)
		})
	}
}
