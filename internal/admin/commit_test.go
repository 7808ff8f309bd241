package admin

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/admin/admintest"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

func tp(topic string, p int32) kafka.TopicPartition {
	return kafka.TopicPartition{Topic: topic, Partition: p}
}

// The commit is the Java admin client's: OffsetCommit v9 with names,
// generation -1, an empty member id, leader epoch -1 and empty metadata, to
// each group's coordinator; a coordinator error on every partition is
// retried for that group only.
func TestCommitOffsets(t *testing.T) {
	c, cl := viewsCluster(t)
	c.PutTopic("in", 2)
	for g, node := range map[string]int32{"a": 0, "b": 1, "busy": 2} {
		c.PutStreamsGroup(playground.StreamsGroup{ID: g, State: "Empty"})
		c.SetCoordinator(g, node)
	}
	c.PutStreamsGroup(playground.StreamsGroup{ID: "busy", State: "Stable", Members: []playground.Member{{MemberID: "m", MemberEpoch: 1}}})
	c.InjectError(playground.Fault{Key: 8, Group: "b", ErrorCode: kerr.NotCoordinator.Code, Times: 1, Node: playground.AnyNode})

	got := cl.CommitOffsets(viewsCtx(t), []GroupCommit{
		{Group: "a", Offsets: []OffsetToCommit{{TopicPartition: tp("in", 1), Offset: 7}, {TopicPartition: tp("in", 0), Offset: 3}}},
		{Group: "b", Offsets: []OffsetToCommit{{TopicPartition: tp("in", 0), Offset: 1}}},
		{Group: "busy", Offsets: []OffsetToCommit{{TopicPartition: tp("in", 0), Offset: 1}}},
	})
	require.Len(t, got, 3)
	assert.NoError(t, got[0].Err)
	assert.Equal(t, []PartitionError{{TopicPartition: tp("in", 0)}, {TopicPartition: tp("in", 1)}}, got[0].Partitions)
	assert.EqualValues(t, 0, got[0].Coordinator.ID)
	assert.NoError(t, got[1].Err, "NOT_COORDINATOR on every partition is retried")
	var ke *kafka.Error
	require.ErrorAs(t, got[2].Err, &ke)
	assert.Equal(t, kafka.CodeUnknownMemberID, ke.Code, "a group with members refuses an admin commit")

	assert.Equal(t, []playground.Committed{
		{Topic: "in", Partition: 0, Offset: 3, LeaderEpoch: -1, Metadata: kmsg.StringPtr("")},
		{Topic: "in", Partition: 1, Offset: 7, LeaderEpoch: -1, Metadata: kmsg.StringPtr("")},
	}, c.CommittedOffsets("a"))
	assert.Len(t, c.CommittedOffsets("b"), 1)

	commits := map[string]int{}
	for _, r := range logged(c, 8) {
		assert.EqualValues(t, 9, r.Version, "v9: topic names")
		req := r.Msg.(*kmsg.OffsetCommitRequest)
		assert.EqualValues(t, -1, req.Generation)
		assert.Empty(t, req.MemberID)
		assert.Nil(t, req.InstanceID)
		for _, rt := range req.Topics {
			for _, p := range rt.Partitions {
				assert.EqualValues(t, -1, p.LeaderEpoch)
				assert.Equal(t, kmsg.StringPtr(""), p.Metadata)
			}
		}
		commits[req.Group]++
	}
	assert.Equal(t, map[string]int{"a": 1, "b": 2, "busy": 1}, commits)
	assert.Len(t, logged(c, 10), 2, "one FindCoordinator, and one for the group that moved")
}

// A group's commit fails with its first partition error, else with the
// first partition the broker's answer left out: only what the broker
// answered was committed.
func TestCommitFailure(t *testing.T) {
	sent := []OffsetToCommit{{TopicPartition: tp("in", 1)}, {TopicPartition: tp("in", 0)}, {TopicPartition: tp("out", 0)}}
	ok := []PartitionError{{TopicPartition: tp("in", 0)}, {TopicPartition: tp("in", 1)}, {TopicPartition: tp("out", 0)}}
	assert.NoError(t, commitFailure(sent, ok))

	stale := NewKafkaError(kafka.CodeStaleMemberEpoch, nil)
	failed := slices.Clone(ok)
	failed[2].Err = stale
	assert.Equal(t, stale, commitFailure(sent, failed))

	err := commitFailure(sent, []PartitionError{{TopicPartition: tp("out", 0)}})
	assert.ErrorIs(t, err, kafka.ErrMalformedResponse)
	assert.EqualError(t, err, "malformed response from the broker: OffsetCommit has no answer for in-0")
	assert.Equal(t, stale, commitFailure(sent, failed[2:]), "a partition error comes first")
}

func TestDeleteOffsets(t *testing.T) {
	c, cl := viewsCluster(t)
	c.PutTopic("in", 2)
	c.PutStreamsGroup(playground.StreamsGroup{ID: "g", State: "Empty"})
	c.SetCoordinator("g", 2)
	c.Commit("g", playground.Committed{Topic: "in", Partition: 0, Offset: 4, LeaderEpoch: -1})
	c.Commit("g", playground.Committed{Topic: "in", Partition: 1, Offset: 4, LeaderEpoch: -1})

	got := cl.DeleteOffsets(viewsCtx(t), "g", []kafka.TopicPartition{tp("in", 1), tp("in", 0), tp("in", 1)})
	require.NoError(t, got.Err)
	assert.EqualValues(t, 2, got.Coordinator.ID)
	assert.Equal(t, []PartitionError{{TopicPartition: tp("in", 0)}, {TopicPartition: tp("in", 1)}}, got.Partitions)
	assert.Empty(t, c.CommittedOffsets("g"))
	reqs := logged(c, 47)
	require.Len(t, reqs, 1)
	assert.Len(t, reqs[0].Msg.(*kmsg.OffsetDeleteRequest).Topics[0].Partitions, 2, "a repeated partition is sent once")

	missing := cl.DeleteOffsets(viewsCtx(t), "nope", []kafka.TopicPartition{tp("in", 0)})
	assert.ErrorIs(t, missing.Err, kafka.ErrGroupNotFound)
}

func TestDescribeTopics(t *testing.T) {
	c, cl := viewsCluster(t)
	c.PutTopic("in", 3)
	got, err := cl.DescribeTopics(viewsCtx(t), []string{"nope", "in", "nope"})
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, "nope", got[0].Topic)
	var ke *kafka.Error
	require.ErrorAs(t, got[0].Err, &ke)
	assert.Equal(t, kafka.CodeUnknownTopicOrPartition, ke.Code)
	require.NoError(t, got[1].Err)
	require.Len(t, got[1].Partitions, 3)
	for i, p := range got[1].Partitions {
		leader, _ := c.PartitionLeader("in", int32(i))
		assert.Equal(t, PartitionInfo{Partition: int32(i), Leader: leader}, p)
	}
}

// A broken Metadata answer is a protocol error naming the broker, and a
// connection closed before the answer a lost answer, as for every request
// (Client.failure): --input-topic's Metadata fails like the requests
// before it.
func TestDescribeTopics_brokenAnswers(t *testing.T) {
	c, err := playground.Start(playground.Config{Logf: t.Logf})
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	c.PutTopic("in", 1)

	cl := behindHostile(t, c, admintest.Rule{Key: 3, Action: admintest.TruncateBody})
	_, err = cl.DescribeTopics(testContext(t, 10*time.Second), []string{"in"})
	var pe *kafka.ProtocolError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "Metadata", pe.API)
	assert.NotEmpty(t, pe.Broker)
	assert.Equal(t, "MALFORMED_RESPONSE", kafka.Classify(err).Name)

	// After a first answer, so that the close is no set-up failure.
	cl = behindHostile(t, c, admintest.Rule{Key: 3, Action: admintest.Close, Skip: 1})
	_, err = cl.DescribeTopics(testContext(t, 10*time.Second), []string{"in"})
	require.NoError(t, err)
	_, err = cl.DescribeTopics(testContext(t, 10*time.Second), []string{"in"})
	var le *kafka.LostAnswerError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, "Metadata", le.API)
	assert.ErrorIs(t, err, kafka.ErrUnavailable)
}

// ListOffsets by timestamp answers the first offset at or after it, from
// each partition's leader, one request per leader.
func TestListOffsets_byTimestamp(t *testing.T) {
	c, cl := viewsCluster(t)
	c.PutTopic("in", 3)
	for p := range int32(3) {
		c.SetLogOffsets("in", p, 10, 13)
		c.SetRecordTimestamps("in", p, []int64{100, 200, 300})
	}
	got, err := cl.ListOffsets(viewsCtx(t), []kafka.TopicPartition{tp("in", 0), tp("in", 1), tp("in", 2)}, 150)
	require.NoError(t, err)
	for _, lo := range got {
		assert.Equal(t, int64(11), lo.Offset, lo.TopicPartition)
	}
	got, err = cl.ListOffsets(viewsCtx(t), []kafka.TopicPartition{tp("in", 0)}, 301)
	require.NoError(t, err)
	assert.Equal(t, int64(-1), got[0].Offset, "no record at or after the timestamp")
	assert.Len(t, logged(c, 2), 4, "one request per leader, then one")
}
