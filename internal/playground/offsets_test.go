package playground

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// offsetsCluster is one node holding group g with two committed offsets
// and topic t with three partitions.
func offsetsCluster(t *testing.T) *Cluster {
	c := startCluster(t, Config{})
	c.PutTopic("t", 3)
	c.SetLogOffsets("t", 0, 5, 100)
	c.SetLogOffsets("t", 2, 0, 7)
	c.PutStreamsGroup(StreamsGroup{ID: "g", State: "Stable", Members: []Member{{MemberID: "m1", MemberEpoch: 4}}})
	c.Commit("g", Committed{Topic: "t", Partition: 0, Offset: 90, LeaderEpoch: 3})
	c.Commit("g", Committed{Topic: "t", Partition: 2, Offset: 7, LeaderEpoch: -1})
	return c
}

func fetchGroup(group string, memberID *string, epoch int32, topics []kmsg.OffsetFetchRequestGroupTopic) kmsg.OffsetFetchRequestGroup {
	g := kmsg.NewOffsetFetchRequestGroup()
	g.Group, g.MemberID, g.MemberEpoch, g.Topics = group, memberID, epoch, topics
	return g
}

func TestOffsetFetch(t *testing.T) {
	c := offsetsCluster(t)
	cl := newClient(t, c, map[int16]int16{9: 9})
	member, stranger := "m1", "nobody"
	req := kmsg.NewPtrOffsetFetchRequest()
	req.Groups = []kmsg.OffsetFetchRequestGroup{
		fetchGroup("g", nil, -1, nil),
		fetchGroup("missing", nil, -1, nil),
		fetchGroup("g", &member, 3, nil),
		fetchGroup("g", &stranger, -1, nil),
		fetchGroup("g", nil, -1, []kmsg.OffsetFetchRequestGroupTopic{{Topic: "t", Partitions: []int32{1, 2}}}),
	}
	kr, err := cl.Broker(0).Request(testCtx(t), req)
	require.NoError(t, err)
	resp := kr.(*kmsg.OffsetFetchResponse)
	require.EqualValues(t, 9, resp.Version)
	require.Len(t, resp.Groups, 5)

	all := resp.Groups[0]
	assert.Zero(t, all.ErrorCode)
	require.Len(t, all.Topics, 1)
	assert.Equal(t, "t", all.Topics[0].Topic)
	got := all.Topics[0].Partitions
	require.Len(t, got, 2)
	assert.Equal(t, []int64{90, 7}, []int64{got[0].Offset, got[1].Offset})
	assert.Equal(t, []int32{3, -1}, []int32{got[0].LeaderEpoch, got[1].LeaderEpoch})

	assert.Zero(t, resp.Groups[1].ErrorCode, "a group without offsets is not an error")
	assert.Empty(t, resp.Groups[1].Topics)
	assert.Equal(t, kerr.StaleMemberEpoch.Code, resp.Groups[2].ErrorCode)
	assert.Equal(t, kerr.UnknownMemberID.Code, resp.Groups[3].ErrorCode)

	some := resp.Groups[4].Topics[0].Partitions
	require.Len(t, some, 2)
	assert.Equal(t, int64(-1), some[0].Offset, "no commit: offset -1")
	assert.Equal(t, int32(-1), some[0].LeaderEpoch)
	assert.Equal(t, int64(7), some[1].Offset)
}

func TestOffsetFetch_v10NamesTopicsByID(t *testing.T) {
	c := offsetsCluster(t)
	cl := newClient(t, c, map[int16]int16{9: 10})
	req := kmsg.NewPtrOffsetFetchRequest()
	req.Groups = []kmsg.OffsetFetchRequestGroup{fetchGroup("g", nil, -1, nil)}
	kr, err := cl.Broker(0).Request(testCtx(t), req)
	require.NoError(t, err)
	resp := kr.(*kmsg.OffsetFetchResponse)
	require.EqualValues(t, 10, resp.Version)
	require.Len(t, resp.Groups[0].Topics, 1)
	assert.Equal(t, topicID("t"), resp.Groups[0].Topics[0].TopicID)
	assert.Empty(t, resp.Groups[0].Topics[0].Topic)
}

func TestOffsetFetch_v7SingleGroup(t *testing.T) {
	c := offsetsCluster(t)
	cl := newClient(t, c, map[int16]int16{9: 7})
	req := kmsg.NewPtrOffsetFetchRequest()
	req.Group = "g"
	kr, err := cl.Broker(0).Request(testCtx(t), req)
	require.NoError(t, err)
	resp := kr.(*kmsg.OffsetFetchResponse)
	require.EqualValues(t, 7, resp.Version)
	require.Len(t, resp.Topics, 1)
	assert.Len(t, resp.Topics[0].Partitions, 2)
}

func TestOffsetFetch_coordinatorAndFaults(t *testing.T) {
	c := startCluster(t, Config{Nodes: 2})
	c.PutStreamsGroup(StreamsGroup{ID: "g", State: "Empty"})
	c.SetCoordinator("g", 1)
	c.InjectError(Fault{Key: 9, Group: "g", ErrorCode: kerr.GroupAuthorizationFailed.Code, Times: 1, Node: AnyNode})
	cl := newClient(t, c, map[int16]int16{9: 9})
	ask := func(node int) int16 {
		req := kmsg.NewPtrOffsetFetchRequest()
		req.Groups = []kmsg.OffsetFetchRequestGroup{fetchGroup("g", nil, -1, nil)}
		kr, err := cl.Broker(node).Request(testCtx(t), req)
		require.NoError(t, err)
		return kr.(*kmsg.OffsetFetchResponse).Groups[0].ErrorCode
	}
	assert.Equal(t, kerr.GroupAuthorizationFailed.Code, ask(1), "the fault fires first")
	assert.Equal(t, kerr.NotCoordinator.Code, ask(0))
	assert.Zero(t, ask(1))
}

func TestListOffsets(t *testing.T) {
	c := startCluster(t, Config{Nodes: 3})
	c.PutTopic("t", 3)
	c.SetLogOffsets("t", 1, 4, 40)
	cl := newClient(t, c, nil)
	leader, ok := c.PartitionLeader("t", 1)
	require.True(t, ok)

	list := func(node int32, ts int64, topic string, p int32) kmsg.ListOffsetsResponseTopicPartition {
		req := kmsg.NewPtrListOffsetsRequest()
		req.ReplicaID = -1
		rt := kmsg.NewListOffsetsRequestTopic()
		rt.Topic = topic
		rp := kmsg.NewListOffsetsRequestTopicPartition()
		rp.Partition, rp.Timestamp = p, ts
		rt.Partitions = append(rt.Partitions, rp)
		req.Topics = append(req.Topics, rt)
		kr, err := cl.Broker(int(node)).Request(testCtx(t), req)
		require.NoError(t, err)
		return kr.(*kmsg.ListOffsetsResponse).Topics[0].Partitions[0]
	}
	tests := []struct {
		name       string
		node       int32
		ts         int64
		topic      string
		partition  int32
		wantOffset int64
		wantCode   int16
	}{
		{name: "earliest", node: leader, ts: -2, topic: "t", partition: 1, wantOffset: 4},
		{name: "latest", node: leader, ts: -1, topic: "t", partition: 1, wantOffset: 40},
		{name: "max timestamp", node: leader, ts: -3, topic: "t", partition: 1, wantOffset: 39},
		{name: "a real timestamp finds nothing", node: leader, ts: 1_700_000_000_000, topic: "t", partition: 1, wantOffset: -1},
		{name: "not the leader", node: (leader + 1) % 3, ts: -1, topic: "t", partition: 1, wantOffset: -1, wantCode: kerr.NotLeaderForPartition.Code},
		{name: "unknown topic", node: 0, ts: -1, topic: "nope", partition: 0, wantOffset: -1, wantCode: kerr.UnknownTopicOrPartition.Code},
		{name: "partition out of range", node: leader, ts: -1, topic: "t", partition: 3, wantOffset: -1, wantCode: kerr.UnknownTopicOrPartition.Code},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := list(tc.node, tc.ts, tc.topic, tc.partition)
			assert.Equal(t, tc.wantCode, p.ErrorCode)
			assert.Equal(t, tc.wantOffset, p.Offset)
		})
	}
	t.Run("an empty partition is 0..0", func(t *testing.T) {
		l0, _ := c.PartitionLeader("t", 0)
		assert.Equal(t, int64(0), list(l0, -1, "t", 0).Offset)
	})
}

func TestParseState_offsets(t *testing.T) {
	good := `
topics:
  - {name: t, partitions: 2, start_offsets: [0, 3], end_offsets: [10, 3]}
streams_groups:
  - id: g
    state: Empty
    committed_offsets:
      - {topic: t, partition: 0, offset: 8, leader_epoch: 2}
      - {topic: t, partition: 1, offset: 3}
`
	s, err := ParseState([]byte(good))
	require.NoError(t, err)
	c, err := StartState(s)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	got := c.CommittedOffsets("g")
	require.Len(t, got, 2)
	assert.Equal(t, Committed{Topic: "t", Partition: 0, Offset: 8, LeaderEpoch: 2}, got[0])
	assert.Equal(t, int32(-1), got[1].LeaderEpoch, "an omitted leader_epoch is none")
	c.mu.Lock()
	assert.Equal(t, logRange{start: 3, end: 3}, c.offsets.log("t", 1))
	assert.Equal(t, logRange{start: 0, end: 10}, c.offsets.log("t", 0))
	c.mu.Unlock()

	bad := `
topics:
  - {name: t, partitions: 2, start_offsets: [5], end_offsets: [1, -1]}
streams_groups:
  - id: g
    state: Empty
    committed_offsets:
      - {topic: u, partition: 0, offset: 1}
      - {topic: t, partition: 2, offset: 1}
      - {topic: t, partition: 0, offset: -4}
      - {topic: t, partition: 0, offset: 1}
faults:
  - {key: 9, error_code: 30}
`
	_, err = ParseState([]byte(bad))
	require.Error(t, err)
	for _, want := range []string{
		"topics[0] (t): start_offsets has 1 entries, want one per partition (2)",
		"topics[0] (t): end_offsets[1] is negative (-1)",
		"topics[0] (t): partition 0 starts at 5, after its end 1",
		`committed_offsets[0]: topic "u" is not in topics`,
		"committed_offsets[1]: partition 2 out of range (t has 2)",
		"committed_offsets[2]: offset must not be negative, got -4",
		"committed_offsets[3]: duplicate offset for t-0",
	} {
		assert.Contains(t, err.Error(), want)
	}
	assert.NotContains(t, err.Error(), "faults[0]", "OffsetFetch can be faulted")
}

// produced_over spreads a partition's records evenly over the span before
// the cluster's clock, the last at it, so the seed's ages do not depend on
// the day it is loaded; a bad span is an error naming the topic.
func TestParseState_producedOver(t *testing.T) {
	start := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	s, err := ParseState([]byte(`
topics:
  - {name: t, partitions: 3, start_offsets: [10, 0, 0], end_offsets: [15, 1, 0], produced_over: 1h}
`))
	require.NoError(t, err)
	c, err := StartStateWith(Config{Now: func() time.Time { return start }}, s)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	at := func(d time.Duration) int64 { return start.Add(-d).UnixMilli() }
	c.mu.Lock()
	assert.Equal(t, []int64{at(time.Hour), at(45 * time.Minute), at(30 * time.Minute), at(15 * time.Minute), at(0)}, c.offsets.partitionTimes("t", 0))
	assert.Equal(t, []int64{at(time.Hour)}, c.offsets.partitionTimes("t", 1), "a single record is the whole span old")
	assert.Empty(t, c.offsets.partitionTimes("t", 2), "an empty partition has no records")
	off, ts := c.offsets.byTimestamp("t", 0, at(20*time.Minute))
	c.mu.Unlock()
	assert.Equal(t, int64(13), off, "ListOffsets by timestamp finds them")
	assert.Equal(t, at(15*time.Minute), ts)

	for _, bad := range []string{
		`{name: t, partitions: 1, produced_over: soon}`,
		`{name: t, partitions: 1, produced_over: -1h}`,
		`{name: t, partitions: 1, end_offsets: [1], produced_over: 1h, timestamps: [[1]]}`,
	} {
		_, err := ParseState([]byte("topics:\n  - " + bad + "\n"))
		require.Error(t, err, bad)
		assert.Contains(t, err.Error(), "topics[0] (t): ", bad)
		assert.Contains(t, err.Error(), "produced_over", bad)
	}
}
