package playground

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// commitCluster is two nodes with topic t (2 partitions) and the groups an
// admin commit meets: Empty and Stable streams groups, a Stable classic
// group; all coordinated by node 1.
func commitCluster(t *testing.T) *Cluster {
	c := startCluster(t, Config{Nodes: 2})
	c.PutTopic("t", 2)
	c.PutStreamsGroup(StreamsGroup{ID: "empty", State: "Empty",
		Topology: &Topology{Subtopologies: []Subtopology{{ID: "0", SourceTopics: []string{"t"}}}}})
	c.PutStreamsGroup(StreamsGroup{ID: "busy", State: "Stable", Members: []Member{{MemberID: "m1", MemberEpoch: 5}},
		Topology: &Topology{Subtopologies: []Subtopology{{ID: "0", SourceTopics: []string{"t"},
			RepartitionSourceTopics: []TopicInfo{{Name: "busy-x-repartition"}}}}}})
	c.PutGroup("classic", "classic", "consumer", "Stable")
	for _, g := range []string{"empty", "busy", "classic", "new"} {
		c.SetCoordinator(g, 1)
	}
	return c
}

func adminCommit(group string, offsets map[int32]int64, topic string) *kmsg.OffsetCommitRequest {
	req := kmsg.NewPtrOffsetCommitRequest()
	req.Group, req.Generation, req.MemberID = group, -1, ""
	rt := kmsg.NewOffsetCommitRequestTopic()
	rt.Topic = topic
	for _, p := range []int32{0, 1} {
		if o, ok := offsets[p]; ok {
			rp := kmsg.NewOffsetCommitRequestTopicPartition()
			rp.Partition, rp.Offset, rp.LeaderEpoch, rp.Metadata = p, o, -1, kmsg.StringPtr("")
			rt.Partitions = append(rt.Partitions, rp)
		}
	}
	req.Topics = append(req.Topics, rt)
	return req
}

func commitCodes(t *testing.T, c *Cluster, node int, req *kmsg.OffsetCommitRequest) []int16 {
	t.Helper()
	cl := newClient(t, c, map[int16]int16{8: 9})
	kr, err := cl.Broker(node).Request(testCtx(t), req)
	require.NoError(t, err)
	resp := kr.(*kmsg.OffsetCommitResponse)
	var out []int16
	for _, rt := range resp.Topics {
		for _, p := range rt.Partitions {
			out = append(out, p.ErrorCode)
		}
	}
	return out
}

func TestOffsetCommit(t *testing.T) {
	tests := []struct {
		name      string
		node      int
		req       *kmsg.OffsetCommitRequest
		wantCodes []int16
		wantKept  bool // nothing committed
	}{
		{"an Empty streams group takes an admin commit", 1, adminCommit("empty", map[int32]int64{0: 3, 1: 4}, "t"), []int16{0, 0}, false},
		{"a streams group with members refuses it", 1, adminCommit("busy", map[int32]int64{0: 3}, "t"), []int16{kerr.UnknownMemberID.Code}, true},
		{"a Stable classic group refuses it", 1, adminCommit("classic", map[int32]int64{0: 3}, "t"), []int16{kerr.UnknownMemberID.Code}, true},
		{"only the coordinator answers", 0, adminCommit("empty", map[int32]int64{0: 3}, "t"), []int16{kerr.NotCoordinator.Code}, true},
		{"unknown topic", 1, adminCommit("empty", map[int32]int64{0: 3}, "nope"), []int16{kerr.UnknownTopicOrPartition.Code}, true},
		{"empty group id", 1, adminCommit("", map[int32]int64{0: 3}, "t"), []int16{kerr.InvalidGroupID.Code}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := commitCluster(t)
			assert.Equal(t, tc.wantCodes, commitCodes(t, c, tc.node, tc.req))
			got := c.CommittedOffsets(tc.req.Group)
			if tc.wantKept {
				assert.Empty(t, got)
				return
			}
			assert.Equal(t, []Committed{
				{Topic: "t", Partition: 0, Offset: 3, LeaderEpoch: -1, Metadata: kmsg.StringPtr("")},
				{Topic: "t", Partition: 1, Offset: 4, LeaderEpoch: -1, Metadata: kmsg.StringPtr("")},
			}, got)
		})
	}
}

func TestOffsetCommit_memberCommitAndUnknownGroup(t *testing.T) {
	c := commitCluster(t)
	req := adminCommit("busy", map[int32]int64{0: 9}, "t")
	req.MemberID, req.Generation = "m1", 4
	assert.Equal(t, []int16{kerr.StaleMemberEpoch.Code}, commitCodes(t, c, 1, req))
	req.Generation = 5
	assert.Equal(t, []int16{0}, commitCodes(t, c, 1, req), "the member at its epoch")

	require.False(t, c.HasGroup("new"))
	assert.Equal(t, []int16{0}, commitCodes(t, c, 1, adminCommit("new", map[int32]int64{1: 2}, "t")))
	assert.True(t, c.HasGroup("new"), "a commit outside any group creates a classic group, as Kafka does")
	assert.Len(t, c.CommittedOffsets("new"), 1)
}

func TestOffsetCommit_faultAndTopicIDs(t *testing.T) {
	c := commitCluster(t)
	c.InjectError(Fault{Key: 8, Group: "empty", ErrorCode: kerr.UnknownMemberID.Code, Times: 1, Node: AnyNode})
	assert.Equal(t, []int16{kerr.UnknownMemberID.Code}, commitCodes(t, c, 1, adminCommit("empty", map[int32]int64{0: 1}, "t")))
	assert.Empty(t, c.CommittedOffsets("empty"), "a faulted commit commits nothing")

	cl := newClient(t, c, map[int16]int16{8: 10})
	req := adminCommit("empty", map[int32]int64{1: 7}, "")
	req.Topics[0].TopicID = topicID("t")
	kr, err := cl.Broker(1).Request(testCtx(t), req)
	require.NoError(t, err)
	resp := kr.(*kmsg.OffsetCommitResponse)
	require.EqualValues(t, 10, resp.Version)
	assert.Zero(t, resp.Topics[0].Partitions[0].ErrorCode)
	got := c.CommittedOffsets("empty")
	require.Len(t, got, 1)
	assert.Equal(t, "t", got[0].Topic, "v10 names the topic by id")
}

func deleteOffsets(t *testing.T, c *Cluster, node int, group string, topics map[string][]int32) *kmsg.OffsetDeleteResponse {
	t.Helper()
	cl := newClient(t, c, nil)
	req := kmsg.NewPtrOffsetDeleteRequest()
	req.Group = group
	for _, name := range []string{"t", "busy-x-repartition", "other"} {
		ps, ok := topics[name]
		if !ok {
			continue
		}
		rt := kmsg.NewOffsetDeleteRequestTopic()
		rt.Topic = name
		for _, p := range ps {
			rt.Partitions = append(rt.Partitions, kmsg.OffsetDeleteRequestTopicPartition{Partition: p})
		}
		req.Topics = append(req.Topics, rt)
	}
	kr, err := cl.Broker(node).Request(testCtx(t), req)
	require.NoError(t, err)
	return kr.(*kmsg.OffsetDeleteResponse)
}

func TestOffsetDelete(t *testing.T) {
	c := commitCluster(t)
	c.PutTopic("busy-x-repartition", 1)
	c.PutTopic("other", 1)
	for _, g := range []string{"empty", "busy"} {
		c.Commit(g, Committed{Topic: "t", Partition: 0, Offset: 5, LeaderEpoch: -1})
		c.Commit(g, Committed{Topic: "other", Partition: 0, Offset: 1, LeaderEpoch: -1})
	}

	resp := deleteOffsets(t, c, 1, "empty", map[string][]int32{"t": {0, 1}})
	assert.Zero(t, resp.ErrorCode)
	require.Len(t, resp.Topics, 1)
	assert.Equal(t, []kmsg.OffsetDeleteResponseTopicPartition{{Partition: 0}, {Partition: 1}}, resp.Topics[0].Partitions,
		"a partition without an offset succeeds too")
	assert.Equal(t, []Committed{{Topic: "other", Partition: 0, Offset: 1, LeaderEpoch: -1}}, c.CommittedOffsets("empty"))

	resp = deleteOffsets(t, c, 1, "busy", map[string][]int32{"t": {0}, "busy-x-repartition": {0}, "other": {0}})
	require.Len(t, resp.Topics, 3)
	assert.Equal(t, kerr.GroupSubscribedToTopic.Code, resp.Topics[0].Partitions[0].ErrorCode, "a source topic")
	assert.Equal(t, kerr.GroupSubscribedToTopic.Code, resp.Topics[1].Partitions[0].ErrorCode, "a repartition source topic")
	assert.Zero(t, resp.Topics[2].Partitions[0].ErrorCode, "a topic outside the topology")
	assert.Equal(t, []Committed{{Topic: "t", Partition: 0, Offset: 5, LeaderEpoch: -1}}, c.CommittedOffsets("busy"))

	assert.Equal(t, kerr.GroupSubscribedToTopic.Code, deleteOffsets(t, c, 1, "classic", map[string][]int32{"t": {0}}).Topics[0].Partitions[0].ErrorCode)
	assert.Equal(t, kerr.GroupIDNotFound.Code, deleteOffsets(t, c, 1, "new", map[string][]int32{"t": {0}}).ErrorCode)
	assert.Equal(t, kerr.NotCoordinator.Code, deleteOffsets(t, c, 0, "empty", map[string][]int32{"t": {0}}).ErrorCode)
	c.InjectError(Fault{Key: 47, Group: "empty", ErrorCode: kerr.GroupAuthorizationFailed.Code, Node: AnyNode})
	assert.Equal(t, kerr.GroupAuthorizationFailed.Code, deleteOffsets(t, c, 1, "empty", map[string][]int32{"other": {0}}).ErrorCode)
	assert.Len(t, c.CommittedOffsets("empty"), 1, "a faulted delete deletes nothing")
}

// A topic the cluster does not have, and a partition its topic does not
// have (-1 included), answer UNKNOWN_TOPIC_OR_PARTITION as 4.4.0 does
// (F304, F510), listed first as Kafka's OffsetDeleteResponse.Builder.merge
// lists them; the valid partitions of the same request are deleted.
func TestOffsetDelete_unknownTopicOrPartition(t *testing.T) {
	c := commitCluster(t)
	c.PutTopic("other", 1)
	c.Commit("empty", Committed{Topic: "t", Partition: 0, Offset: 5, LeaderEpoch: -1})
	c.Commit("empty", Committed{Topic: "other", Partition: 0, Offset: 1, LeaderEpoch: -1})
	req := kmsg.NewPtrOffsetDeleteRequest()
	req.Group = "empty"
	for _, rt := range []struct {
		name string
		ps   []int32
	}{{"t", []int32{-1, 0, 2}}, {"nope", []int32{0}}, {"other", []int32{0}}, {"", []int32{0}}} {
		topic := kmsg.NewOffsetDeleteRequestTopic()
		topic.Topic = rt.name
		for _, p := range rt.ps {
			topic.Partitions = append(topic.Partitions, kmsg.OffsetDeleteRequestTopicPartition{Partition: p})
		}
		req.Topics = append(req.Topics, topic)
	}
	kr, err := newClient(t, c, nil).Broker(1).Request(testCtx(t), req)
	require.NoError(t, err)
	resp := kr.(*kmsg.OffsetDeleteResponse)
	assert.Zero(t, resp.ErrorCode)
	unknown := kerr.UnknownTopicOrPartition.Code
	type row struct {
		topic     string
		partition int32
		code      int16
	}
	var got []row
	for _, rt := range resp.Topics {
		for _, p := range rt.Partitions {
			got = append(got, row{rt.Topic, p.Partition, p.ErrorCode})
		}
	}
	assert.Equal(t, []row{
		{"t", -1, unknown}, {"t", 2, unknown}, {"t", 0, 0},
		{"nope", 0, unknown},
		{"", 0, unknown},
		{"other", 0, 0},
	}, got)
	assert.Empty(t, c.CommittedOffsets("empty"), "the valid partitions are deleted")

	req.Group = "new"
	kr, err = newClient(t, c, nil).Broker(1).Request(testCtx(t), req)
	require.NoError(t, err)
	resp = kr.(*kmsg.OffsetDeleteResponse)
	assert.Equal(t, kerr.GroupIDNotFound.Code, resp.ErrorCode, "a group error replaces every partition's answer")
	assert.Empty(t, resp.Topics)
}

func TestListOffsets_byTimestamp(t *testing.T) {
	s, err := ParseState([]byte(`
topics:
  - name: t
    partitions: 3
    start_offsets: [10, 0, 0]
    end_offsets: [14, 2, 0]
    timestamps: [[1000, 2000, 2000, 4000], [5000], []]
`))
	require.NoError(t, err)
	c, err := StartState(s)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	cl := newClient(t, c, nil)
	list := func(p int32, ts int64) (int64, int64) {
		req := kmsg.NewPtrListOffsetsRequest()
		req.ReplicaID = -1
		rt := kmsg.NewListOffsetsRequestTopic()
		rt.Topic = "t"
		rp := kmsg.NewListOffsetsRequestTopicPartition()
		rp.Partition, rp.Timestamp = p, ts
		rt.Partitions = append(rt.Partitions, rp)
		req.Topics = append(req.Topics, rt)
		kr, err := cl.Broker(0).Request(testCtx(t), req)
		require.NoError(t, err)
		got := kr.(*kmsg.ListOffsetsResponse).Topics[0].Partitions[0]
		require.Zero(t, got.ErrorCode)
		return got.Offset, got.Timestamp
	}
	for _, tc := range []struct {
		p             int32
		ts            int64
		offset, stamp int64
		what          string
	}{
		{0, 0, 10, 1000, "before every record: the first"},
		{0, 1500, 11, 2000, "the first record at or after T"},
		{0, 2000, 11, 2000, "equal counts"},
		{0, 3000, 13, 4000, ""},
		{0, 4001, -1, -1, "after every record: no offset"},
		{1, 5000, 0, 5000, "the second record has no timestamp"},
		{1, 5001, -1, -1, ""},
		{2, 0, -1, -1, "an empty partition"},
		{0, -3, 13, 4000, "MAX_TIMESTAMP"},
	} {
		offset, stamp := list(tc.p, tc.ts)
		assert.Equal(t, []int64{tc.offset, tc.stamp}, []int64{offset, stamp}, "p%d at %d: %s", tc.p, tc.ts, tc.what)
	}

	_, err = ParseState([]byte(`
topics:
  - {name: t, partitions: 2, start_offsets: [0, 0], end_offsets: [1, 0], timestamps: [[1, 2], [-1]]}
  - {name: u, partitions: 2, timestamps: [[]]}
`))
	require.Error(t, err)
	for _, want := range []string{
		"topics[0] (t): timestamps[0] has 2 records, but partition 0 holds 1 (offsets 0 to 1)",
		"topics[0] (t): timestamps[1] has 1 records, but partition 1 holds 0",
		"topics[0] (t): timestamps[1][0] is negative (-1)",
		"topics[1] (u): timestamps has 1 entries, want one list per partition (2)",
	} {
		assert.Contains(t, err.Error(), want)
	}
}
