package playground

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// upTopology is the measured application's KIP-1071 topology
// (shared/reference/upgrade-migration.md): sub-topology 0 reads up-in and
// writes the repartition topic, 1 reads it and keeps the store.
type brokerRequester = *kgo.Client

func upTopology(store, repartition string, sources ...string) *kmsg.StreamsGroupHeartbeatRequestTopology {
	t := kmsg.NewStreamsGroupHeartbeatRequestTopology()
	s0 := kmsg.NewStreamsGroupHeartbeatRequestTopologySubtopology()
	s0.SubtopologyID = "0"
	s0.SourceTopics = sources
	s0.RepartitionSinkTopics = []string{"up-app-" + repartition + "-repartition"}
	s1 := kmsg.NewStreamsGroupHeartbeatRequestTopologySubtopology()
	s1.SubtopologyID = "1"
	rp := kmsg.NewTopicInfo()
	rp.Topic = "up-app-" + repartition + "-repartition"
	rp.Configs = []kmsg.TopicInfoConfig{{Key: "cleanup.policy", Value: "delete"}}
	s1.RepartitionSourceTopics = []kmsg.TopicInfo{rp}
	cl := kmsg.NewTopicInfo()
	cl.Topic = "up-app-" + store + "-changelog"
	s1.StateChangelogTopics = []kmsg.TopicInfo{cl}
	t.Subtopologies = []kmsg.StreamsGroupHeartbeatRequestTopologySubtopology{s0, s1}
	return &t
}

func heartbeat(t *testing.T, cl brokerRequester, member string, epoch int32, topo *kmsg.StreamsGroupHeartbeatRequestTopology) *kmsg.StreamsGroupHeartbeatResponse {
	t.Helper()
	req := kmsg.NewPtrStreamsGroupHeartbeatRequest()
	req.Group, req.MemberID, req.MemberEpoch, req.Topology = "up-app", member, epoch, topo
	if epoch == 0 {
		req.RebalanceTimeoutMillis = 300000
	}
	return brokerRequest[*kmsg.StreamsGroupHeartbeatResponse](t, cl, 0, req)
}

func hbAdminCommit(t *testing.T, cl brokerRequester, group string, offsets map[string][]int64) *kmsg.OffsetCommitResponse {
	t.Helper()
	req := kmsg.NewPtrOffsetCommitRequest()
	req.Group, req.Generation = group, -1
	for topicName, offs := range offsets {
		rt := kmsg.NewOffsetCommitRequestTopic()
		rt.Topic, rt.TopicID = topicName, topicID(topicName)
		for p, o := range offs {
			rp := kmsg.NewOffsetCommitRequestTopicPartition()
			rp.Partition, rp.Offset = int32(p), o
			rt.Partitions = append(rt.Partitions, rp)
		}
		req.Topics = append(req.Topics, rt)
	}
	return brokerRequest[*kmsg.OffsetCommitResponse](t, cl, 0, req)
}

func hbCommitCodes(resp *kmsg.OffsetCommitResponse) []int16 {
	var out []int16
	for _, rt := range resp.Topics {
		for _, p := range rt.Partitions {
			out = append(out, p.ErrorCode)
		}
	}
	return out
}

func deleteGroup(t *testing.T, cl brokerRequester, group string) int16 {
	t.Helper()
	req := kmsg.NewPtrDeleteGroupsRequest()
	req.Groups = []string{group}
	return brokerRequest[*kmsg.DeleteGroupsResponse](t, cl, 0, req).Groups[0].ErrorCode
}

func listed(t *testing.T, cl brokerRequester, group string) *kmsg.ListGroupsResponseGroup {
	t.Helper()
	resp := brokerRequest[*kmsg.ListGroupsResponse](t, cl, 0, kmsg.NewPtrListGroupsRequest())
	for _, g := range resp.Groups {
		if g.Group == group {
			return &g
		}
	}
	return nil
}

func upCluster(t *testing.T) (*Cluster, brokerRequester) {
	c := startCluster(t, Config{})
	c.PutTopic("up-in", 3)
	c.PutTopic("up-in-b", 3)
	return c, newClient(t, c, nil)
}

// TestStreamsGroupHeartbeat_MigrationAsOn440 walks the measured procedure:
// the refusal of a changed topology for the existing (even Empty) group,
// an admin commit that does not lift it, the delete, the commit that
// creates a simple classic group, and the join that converts it.
func TestStreamsGroupHeartbeat_MigrationAsOn440(t *testing.T) {
	t.Parallel()
	c, cl := upCluster(t)
	v1 := upTopology("counts", "by-key", "up-in")

	r := heartbeat(t, cl, "m1", 0, v1)
	require.Zero(t, r.ErrorCode)
	assert.Equal(t, int32(1), r.MemberEpoch)
	assert.Len(t, r.ActiveTasks, 2, "both sub-topologies assigned")
	g := listed(t, cl, "up-app")
	require.NotNil(t, g)
	assert.Equal(t, []string{"streams", "Stable"}, []string{g.GroupType, g.GroupState})
	assert.True(t, c.HasTopic("up-app-by-key-repartition"), "internal topics created")
	assert.True(t, c.HasTopic("up-app-counts-changelog"))

	assert.Equal(t, []int16{kerr.UnknownMemberID.Code}, hbCommitCodes(hbAdminCommit(t, cl, "up-app", map[string][]int64{"up-in": {4}})),
		"an admin commit to a group with members")
	assert.Equal(t, kerr.NonEmptyGroup.Code, deleteGroup(t, cl, "up-app"))

	c.Commit("up-app", Committed{Topic: "up-in", Partition: 0, Offset: 4, LeaderEpoch: -1})
	r = heartbeat(t, cl, "m1", -1, nil)
	require.Zero(t, r.ErrorCode)
	assert.Equal(t, int32(-1), r.MemberEpoch)
	assert.Equal(t, "Empty", listed(t, cl, "up-app").GroupState)

	refusals := map[string]*kmsg.StreamsGroupHeartbeatRequestTopology{
		"store renamed":       upTopology("counts-v2", "by-key", "up-in"),
		"repartition renamed": upTopology("counts", "by-key-v2", "up-in"),
		"source added":        upTopology("counts", "by-key", "up-in", "up-in-b"),
	}
	for name, topo := range refusals {
		r = heartbeat(t, cl, "m2", 0, topo)
		assert.Equal(t, kerr.InvalidRequest.Code, r.ErrorCode, name)
		assert.Equal(t, ptr("Topology updates are not supported yet."), r.ErrorMessage, name)
	}
	// Another epoch with the same topics is refused too; a lower one is
	// stale and runs the stored topology.
	higher := upTopology("counts", "by-key", "up-in")
	higher.Epoch = 1
	assert.Equal(t, kerr.InvalidRequest.Code, heartbeat(t, cl, "m2", 0, higher).ErrorCode)
	// Fact 2: committing to the Empty streams group keeps its topology.
	assert.Equal(t, []int16{0, 0, 0}, hbCommitCodes(hbAdminCommit(t, cl, "up-app", map[string][]int64{"up-in": {4, 4, 4}})))
	assert.Equal(t, kerr.InvalidRequest.Code, heartbeat(t, cl, "m2", 0, refusals["store renamed"]).ErrorCode)

	// Fact 3 and 4: delete, commit to the absent id, join with v2.
	assert.Zero(t, deleteGroup(t, cl, "up-app"))
	assert.Empty(t, c.CommittedOffsets("up-app"), "the delete removed every offset")
	assert.True(t, c.HasTopic("up-app-counts-changelog"), "internal topics survive the delete")
	assert.Equal(t, []int16{0, 0, 0, 0, 0, 0}, hbCommitCodes(hbAdminCommit(t, cl, "up-app",
		map[string][]int64{"up-in": {4, 4, 4}, "up-app-by-key-repartition": {3, 3, 6}})))
	g = listed(t, cl, "up-app")
	require.NotNil(t, g)
	assert.Equal(t, []string{"classic", "", "Empty"}, []string{g.GroupType, g.ProtocolType, g.GroupState}, "a simple classic group")

	r = heartbeat(t, cl, "m2", 0, refusals["store renamed"])
	require.Zero(t, r.ErrorCode, "the first heartbeat converts the classic group")
	g = listed(t, cl, "up-app")
	assert.Equal(t, []string{"streams", "Stable"}, []string{g.GroupType, g.GroupState})
	assert.Len(t, c.CommittedOffsets("up-app"), 6, "the conversion keeps the offsets")
	assert.True(t, c.HasTopic("up-app-counts-v2-changelog"))
}

func TestStreamsGroupHeartbeat_AcceptsWhatTheBrokerDoesNotCompare(t *testing.T) {
	t.Parallel()
	_, cl := upCluster(t)
	require.Zero(t, heartbeat(t, cl, "m1", 0, upTopology("counts", "by-key", "up-in")).ErrorCode)
	// A processor renamed or a sink changed is not in the KIP-1071
	// topology: the same topics, in another order, are accepted.
	same := upTopology("counts", "by-key", "up-in")
	same.Subtopologies[0], same.Subtopologies[1] = same.Subtopologies[1], same.Subtopologies[0]
	r := heartbeat(t, cl, "m2", 0, same)
	require.Zero(t, r.ErrorCode)
	assert.Equal(t, int32(2), r.MemberEpoch)

	// A regular heartbeat returns the member's tasks; an unknown member
	// or an epoch ahead of it is refused.
	r = heartbeat(t, cl, "m2", 2, nil)
	assert.Zero(t, r.ErrorCode)
	assert.Equal(t, kerr.UnknownMemberID.Code, heartbeat(t, cl, "nobody", 2, nil).ErrorCode)
	assert.Equal(t, kerr.FencedMemberEpoch.Code, heartbeat(t, cl, "m2", 9, nil).ErrorCode)
	r = heartbeat(t, cl, "m3", 0, nil)
	assert.Equal(t, kerr.InvalidRequest.Code, r.ErrorCode, "a join without a topology")
	assert.Equal(t, ptr("Topology must be non-null when (re-)joining."), r.ErrorMessage)
	r = heartbeat(t, cl, "m2", 2, upTopology("counts", "by-key", "up-in"))
	assert.Equal(t, ptr("Topology can only be provided when (re-)joining."), r.ErrorMessage)
}

func TestStreamsGroupHeartbeat_OtherGroupsAndFaults(t *testing.T) {
	t.Parallel()
	c, cl := upCluster(t)
	c.PutGroup("up-app", "consumer", "consumer", "Stable")
	r := heartbeat(t, cl, "m1", 0, upTopology("counts", "by-key", "up-in"))
	assert.Equal(t, kerr.GroupIDNotFound.Code, r.ErrorCode)
	assert.Equal(t, ptr("Group up-app is not a streams group."), r.ErrorMessage)

	c.RemoveGroup("up-app")
	c.InjectError(Fault{Key: 88, Group: "up-app", ErrorCode: kerr.CoordinatorNotAvailable.Code, Times: 1})
	r = heartbeat(t, cl, "m1", 0, upTopology("counts", "by-key", "up-in"))
	assert.Equal(t, kerr.CoordinatorNotAvailable.Code, r.ErrorCode)
	assert.False(t, c.HasGroup("up-app"), "a fault changes nothing")

	// A source topic that does not exist leaves the group NotReady.
	r = heartbeat(t, cl, "m1", 0, upTopology("counts", "by-key", "missing"))
	require.Zero(t, r.ErrorCode)
	assert.Equal(t, "NotReady", listed(t, cl, "up-app").GroupState)
	assert.Empty(t, r.ActiveTasks)
}

func TestDescribeGroups_classicOnly(t *testing.T) {
	t.Parallel()
	c, cl := upCluster(t)
	c.PutStreamsGroup(StreamsGroup{ID: "s", State: "Empty"})
	c.PutGroup("legacy", "classic", "consumer", "Stable")
	require.Equal(t, []int16{0}, hbCommitCodes(hbAdminCommit(t, cl, "simple", map[string][]int64{"up-in": {4}})))
	for _, v := range []int16{5, 6} {
		req := kmsg.NewPtrDescribeGroupsRequest()
		req.Groups = []string{"simple", "legacy", "s", "nope"}
		resp, err := newClient(t, c, map[int16]int16{15: v}).Broker(0).Request(testCtx(t), req)
		require.NoError(t, err)
		var got []string
		for _, g := range resp.(*kmsg.DescribeGroupsResponse).Groups {
			msg := ""
			if g.ErrorMessage != nil {
				msg = *g.ErrorMessage
			}
			got = append(got, fmt.Sprintf("%s|%s|%s|%d|%s", g.Group, g.State, g.ProtocolType, g.ErrorCode, msg))
		}
		if v < 6 {
			assert.Equal(t, []string{"simple|Empty||0|", "legacy|Stable|consumer|0|", "s|Dead||0|", "nope|Dead||0|"}, got)
			continue
		}
		assert.Equal(t, []string{"simple|Empty||0|", "legacy|Stable|consumer|0|",
			"s|Dead||69|Group s is not a classic group.", "nope|Dead||69|Group nope not found."}, got)
	}
}

func TestStreamsGroupHeartbeat_staleEpochRunsTheStoredTopology(t *testing.T) {
	t.Parallel()
	c, cl := upCluster(t)
	c.PutStreamsGroup(StreamsGroup{ID: "up-app", State: "Empty", Topology: &Topology{Epoch: 2, Subtopologies: []Subtopology{{ID: "0", SourceTopics: []string{"up-in"}}}}})
	r := heartbeat(t, cl, "m1", 0, upTopology("counts-v2", "by-key", "up-in"))
	require.Zero(t, r.ErrorCode, "a member below the stored epoch is not compared")
	assert.Len(t, r.ActiveTasks, 1, "it runs the stored topology")
}
