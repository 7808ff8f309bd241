package overview

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// reader is the fake with records: first answers by partition, and the
// queries it was asked.
type reader struct {
	*fake
	first   map[kafka.TopicPartition]admin.FirstRecord
	queries []admin.FirstRecordQuery
}

func (r *reader) FetchFirstRecords(_ context.Context, qs []admin.FirstRecordQuery) ([]admin.FirstRecord, admin.FetchStats, error) {
	r.queries = append(r.queries, qs...)
	out := make([]admin.FirstRecord, len(qs))
	for i, q := range qs {
		out[i] = r.first[q.TopicPartition]
		out[i].TopicPartition = q.TopicPartition
	}
	return out, admin.FetchStats{Requests: 2, Rounds: 1}, nil
}

func TestTimeLag(t *testing.T) {
	now := time.UnixMilli(1_790_000_000_000)
	// in-0: committed 90 of 100, first record 4m12s old, 7 records (3
	// offsets are markers or aborted); in-1: never committed, log 10..40,
	// too far to count? no: 30 offsets, counted 30; rep-0: caught up
	// (committed 50 = end); rep-1: a producer clock ahead of ours.
	r := &reader{fake: app(topology.Available), first: map[kafka.TopicPartition]admin.FirstRecord{
		tp("in", 0):                  {Found: true, Offset: 90, Timestamp: now.Add(-252 * time.Second).UnixMilli(), TimestampType: admin.CreateTime, Records: 7, Counted: true},
		tp("in", 1):                  {Found: true, Offset: 10, Timestamp: now.Add(-time.Hour).UnixMilli(), TimestampType: admin.LogAppendTime, Records: 30, Counted: true},
		tp("app-rep-repartition", 1): {Found: true, Offset: 20, Timestamp: now.Add(time.Minute).UnixMilli(), TimestampType: admin.CreateTime},
	}}
	r.first[tp("app-rep-repartition", 0)] = admin.FirstRecord{Counted: true}
	res, err := Run(t.Context(), r, Options{Groups: []string{"app"}, TimeLag: true, Now: func() time.Time { return now }})
	require.NoError(t, err)
	g := res.Groups[0]
	require.NoError(t, g.Err)
	assert.Equal(t, 2, res.Fetches)
	// Latest: a record stamped after now plus the allowance is no time.
	latest := now.Add(ClockSkewAllowance).UnixMilli()
	// From: the committed offset, else the log start; Count when the
	// gap is at most the bound; the leader, the node that answered
	// ListOffsets.
	assert.ElementsMatch(t, []admin.FirstRecordQuery{
		{TopicPartition: tp("in", 0), From: 90, End: 100, Count: true, Leader: 100, LeaderKnown: true, Latest: latest},
		{TopicPartition: tp("in", 1), From: 10, End: 40, Count: true, Leader: 101, LeaderKnown: true, Latest: latest},
		{TopicPartition: tp("app-rep-repartition", 0), From: 50, End: 50, Count: true, Leader: 100, LeaderKnown: true, Latest: latest},
		{TopicPartition: tp("app-rep-repartition", 1), From: 20, End: 25, Count: true, Leader: 101, LeaderKnown: true, Latest: latest},
	}, r.queries)

	byTask := map[string]*Task{}
	for _, st := range g.Subtopologies {
		for _, task := range st.Tasks {
			byTask[task.String()] = task
		}
	}
	assert.Equal(t, 252*time.Second, byTask["0_0"].Time.Lag)
	assert.Equal(t, int64(7), byTask["0_0"].Time.Records)
	assert.True(t, byTask["0_0"].Time.Exact)
	assert.Equal(t, time.Hour, byTask["0_1"].Time.Lag)
	assert.Equal(t, admin.LogAppendTime, byTask["0_1"].Offsets[0].Time.TimestampType)
	assert.Equal(t, time.Duration(0), byTask["1_0"].Time.Lag)
	assert.True(t, byTask["1_0"].Time.Known)
	// Never negative; not counted: the offset lag as an upper bound.
	assert.Equal(t, time.Duration(0), byTask["1_1"].Time.Lag)
	assert.Equal(t, int64(5), byTask["1_1"].Time.Records)
	assert.False(t, byTask["1_1"].Time.Exact)
	// The largest, never a sum.
	assert.Equal(t, time.Hour, g.Subtopologies[0].Time.Lag)
	assert.Equal(t, time.Duration(0), g.Subtopologies[1].Time.Lag)
	assert.Equal(t, time.Hour, g.Time.Lag)
	assert.True(t, g.Time.Known)
	assert.Equal(t, int64(7+30+0+5), g.Time.Records)
	assert.False(t, g.Time.Exact)
}

func TestTimeLag_unknown(t *testing.T) {
	now := time.UnixMilli(1_790_000_000_000)
	boom := errors.New("boom")
	r := &reader{fake: app(topology.Available), first: map[kafka.TopicPartition]admin.FirstRecord{
		tp("in", 0):                  {Found: true, Offset: 90, Timestamp: -1}, // no timestamp
		tp("in", 1):                  {Pending: true},                          // an open transaction
		tp("app-rep-repartition", 0): {Counted: true},
		tp("app-rep-repartition", 1): {Err: boom},
	}}
	res, err := Run(t.Context(), r, Options{Groups: []string{"app"}, TimeLag: true, Now: func() time.Time { return now }})
	require.NoError(t, err)
	g := res.Groups[0]
	require.NoError(t, g.Err, "a record that cannot be read leaves the offsets")
	assert.False(t, g.Time.Known)
	for _, st := range g.Subtopologies {
		for _, task := range st.Tasks {
			if task.String() == "1_0" {
				assert.True(t, task.Time.Known)
				continue
			}
			assert.False(t, task.Time.Known, task.String())
		}
	}
	assert.ErrorIs(t, g.Subtopologies[1].Tasks[1].Offsets[0].Time.Err, boom)

	// Without the option, or with a client that cannot read records:
	// nothing measured, no Fetch.
	res, err = Run(t.Context(), r, Options{Groups: []string{"app"}})
	require.NoError(t, err)
	assert.False(t, res.Groups[0].Time.Measured)
	res, err = Run(t.Context(), app(topology.Available), Options{Groups: []string{"app"}, TimeLag: true})
	require.NoError(t, err)
	assert.False(t, res.Groups[0].Time.Measured)
	assert.Zero(t, res.Fetches)
}
