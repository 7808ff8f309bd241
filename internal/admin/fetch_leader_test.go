package admin

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// ListOffsets tells each partition's leader; FetchFirstRecords given the
// leaders sends no Metadata, one Fetch per leader. A leader that is not
// (any more) one answers NOT_LEADER_OR_FOLLOWER for its partitions, the
// same as a Metadata answer that went stale.
func TestFetchFirstRecords_knownLeaders(t *testing.T) {
	c, cl := timeLagState(t, "zstd", CreateTime)
	tps := []kafka.TopicPartition{{Topic: "t", Partition: 0}, {Topic: "u", Partition: 0}, {Topic: "u", Partition: 1}, {Topic: "u", Partition: 2}}
	ends, err := cl.ListOffsets(viewsCtx(t), tps, LatestTimestamp)
	require.NoError(t, err)
	var qs []FirstRecordQuery
	leaders := map[int32]bool{}
	for _, lo := range ends {
		require.NoError(t, lo.Err)
		require.GreaterOrEqual(t, lo.Leader, int32(0))
		leaders[lo.Leader] = true
		qs = append(qs, FirstRecordQuery{TopicPartition: lo.TopicPartition, From: lo.Offset - 1, End: lo.Offset, Count: true, Leader: lo.Leader, LeaderKnown: true})
	}
	require.Len(t, leaders, 3, "the partitions are spread over the three nodes")
	c.ResetRequests()
	got, stats, err := cl.FetchFirstRecords(viewsCtx(t), qs)
	require.NoError(t, err)
	for _, g := range got {
		require.NoError(t, g.Err, g.TopicPartition)
		assert.True(t, g.Found, g.TopicPartition)
		assert.Equal(t, int64(1), g.Records, g.TopicPartition)
	}
	assert.Empty(t, logged(c, 3), "no Metadata")
	assert.Len(t, logged(c, 1), 3)
	assert.Equal(t, 3, stats.Requests)

	// A wrong leader: the partition's error, the others read.
	qs[0].Leader = (qs[0].Leader + 1) % 3
	got, _, err = cl.FetchFirstRecords(viewsCtx(t), qs)
	require.NoError(t, err)
	var ke *kafka.Error
	require.ErrorAs(t, got[0].Err, &ke)
	assert.Equal(t, int16(6), ke.Code) // NOT_LEADER_OR_FOLLOWER
	for _, g := range got[1:] {
		require.NoError(t, g.Err, g.TopicPartition)
	}
}
