package admin

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// viewsCluster is a 3-node 4.4 test broker and a client for it.
func viewsCluster(t *testing.T) (*playground.Cluster, *Client) {
	t.Helper()
	c, err := playground.Start(playground.Config{Nodes: 3, Logf: t.Logf})
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	cl, err := New(Config{Bootstrap: c.Addrs()})
	require.NoError(t, err)
	t.Cleanup(cl.Close)
	return c, cl
}

func viewsCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// logged returns the requests with key, in arrival order.
func logged(c *playground.Cluster, key int16) []playground.Request {
	var out []playground.Request
	for _, r := range c.Requests() {
		if r.Key == key {
			out = append(out, r)
		}
	}
	return out
}

func TestFetchCommittedOffsets(t *testing.T) {
	c, cl := viewsCluster(t)
	c.PutTopic("in", 2)
	for i, g := range []string{"a", "b", "c"} {
		c.PutStreamsGroup(playground.StreamsGroup{ID: g, State: "Stable"})
		c.SetCoordinator(g, int32(i%2)) // a and c on node 0, b on node 1
	}
	c.Commit("a", playground.Committed{Topic: "in", Partition: 1, Offset: 12, LeaderEpoch: 0})
	c.Commit("a", playground.Committed{Topic: "in", Partition: 0, Offset: 10, LeaderEpoch: -1})
	c.Commit("b", playground.Committed{Topic: "in", Partition: 0, Offset: 3, LeaderEpoch: 1})
	// node 1 answers b once with NOT_COORDINATOR: only b is asked again.
	c.InjectError(playground.Fault{Key: 9, Group: "b", ErrorCode: kerr.NotCoordinator.Code, Times: 1, Node: playground.AnyNode})

	got := cl.FetchCommittedOffsets(viewsCtx(t), []string{"c", "a", "b", "a"})
	require.Len(t, got, 4)
	assert.Equal(t, []string{"c", "a", "b", "a"}, []string{got[0].Group, got[1].Group, got[2].Group, got[3].Group})
	for _, g := range got {
		require.NoError(t, g.Err, g.Group)
	}
	assert.Empty(t, got[0].Offsets)
	assert.Equal(t, []CommittedOffset{
		{TopicPartition: kafka.TopicPartition{Topic: "in", Partition: 0}, Offset: 10, LeaderEpoch: -1},
		{TopicPartition: kafka.TopicPartition{Topic: "in", Partition: 1}, Offset: 12, LeaderEpoch: 0},
	}, got[1].Offsets, "sorted by partition")
	assert.Equal(t, []CommittedOffset{{TopicPartition: kafka.TopicPartition{Topic: "in", Partition: 0}, Offset: 3, LeaderEpoch: 1}}, got[2].Offsets)
	assert.EqualValues(t, 1, got[2].Coordinator.ID)

	var batches [][]string
	for _, r := range logged(c, 9) {
		assert.EqualValues(t, 9, r.Version, "v9: topic names, no topic ids")
		req := r.Msg.(*kmsg.OffsetFetchRequest)
		var gs []string
		for _, g := range req.Groups {
			assert.Nil(t, g.MemberID, "an admin fetch")
			assert.EqualValues(t, -1, g.MemberEpoch)
			assert.Nil(t, g.Topics, "all topics")
			gs = append(gs, g.Group)
		}
		batches = append(batches, gs)
	}
	assert.ElementsMatch(t, [][]string{{"c", "a"}, {"b"}, {"b"}}, batches, "one request per coordinator, then b's retry")
}

func TestFetchCommittedOffsets_groupError(t *testing.T) {
	c, cl := viewsCluster(t)
	c.PutStreamsGroup(playground.StreamsGroup{ID: "a", State: "Stable"})
	c.InjectError(playground.Fault{Key: 9, Group: "a", ErrorCode: kerr.GroupAuthorizationFailed.Code, Node: playground.AnyNode})
	got := cl.FetchCommittedOffsets(viewsCtx(t), []string{"a"})
	require.Len(t, got, 1)
	assert.ErrorIs(t, got[0].Err, kafka.ErrNotAuthorized)
}

func TestListOffsets(t *testing.T) {
	c, cl := viewsCluster(t)
	c.PutTopic("in", 3)
	c.PutTopic("other", 1)
	for p := range int32(3) {
		c.SetLogOffsets("in", p, int64(p), 100+int64(p))
	}
	c.SetLogOffsets("other", 0, 7, 9)
	tps := []kafka.TopicPartition{{Topic: "other", Partition: 0}, {Topic: "in", Partition: 2}, {Topic: "in", Partition: 0}, {Topic: "in", Partition: 1}, {Topic: "in", Partition: 0}, {Topic: "missing", Partition: 0}}

	c.ResetRequests()
	latest, err := cl.ListOffsets(viewsCtx(t), tps, LatestTimestamp)
	require.NoError(t, err)
	require.Len(t, latest, 5, "one entry per distinct partition")
	want := []kafka.TopicPartition{{Topic: "in", Partition: 0}, {Topic: "in", Partition: 1}, {Topic: "in", Partition: 2}, {Topic: "missing", Partition: 0}, {Topic: "other", Partition: 0}}
	for i, lo := range latest {
		assert.Equal(t, want[i], lo.TopicPartition)
	}
	assert.Equal(t, []int64{100, 101, 102}, []int64{latest[0].Offset, latest[1].Offset, latest[2].Offset})
	assert.Equal(t, int64(9), latest[4].Offset)
	assert.Error(t, latest[3].Err, "a topic the cluster does not have")
	for _, lo := range []ListedOffset{latest[0], latest[1], latest[2], latest[4]} {
		assert.NoError(t, lo.Err)
	}

	// Each ListOffsets went to the leader of all its partitions.
	sent := logged(c, 2)
	require.NotEmpty(t, sent)
	nodes := map[int32]bool{}
	for _, r := range sent {
		assert.False(t, nodes[r.Node], "one request per leader")
		nodes[r.Node] = true
		req := r.Msg.(*kmsg.ListOffsetsRequest)
		assert.EqualValues(t, 0, req.IsolationLevel, "READ_UNCOMMITTED, as the Java admin client")
		for _, rt := range req.Topics {
			for _, rp := range rt.Partitions {
				leader, ok := c.PartitionLeader(rt.Topic, rp.Partition)
				require.True(t, ok)
				assert.Equal(t, leader, r.Node)
				assert.Equal(t, LatestTimestamp, rp.Timestamp)
			}
		}
	}

	earliest, err := cl.ListOffsets(viewsCtx(t), tps[:4], EarliestTimestamp)
	require.NoError(t, err)
	assert.Equal(t, []int64{0, 1, 2, 7}, []int64{earliest[0].Offset, earliest[1].Offset, earliest[2].Offset, earliest[3].Offset})

	none, err := cl.ListOffsets(viewsCtx(t), nil, LatestTimestamp)
	require.NoError(t, err)
	assert.Empty(t, none)
}

func TestListStreamsGroupsInStates(t *testing.T) {
	c, cl := viewsCluster(t)
	for i, s := range []string{"Stable", "NotReady", "Empty", "Assigning"} {
		id := "g-" + s
		c.PutStreamsGroup(playground.StreamsGroup{ID: id, State: s})
		c.SetCoordinator(id, int32(i%3))
	}
	c.PutGroup("classic", "classic", "consumer", "Empty")
	ctx := viewsCtx(t)

	ids := func(gs []ListedGroup) []string {
		var out []string
		for _, g := range gs {
			out = append(out, g.Group)
		}
		return out
	}
	all, err := cl.ListStreamsGroupsInStates(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"g-Assigning", "g-Empty", "g-NotReady", "g-Stable"}, ids(all))

	some, err := cl.ListStreamsGroupsInStates(ctx, []string{"NotReady", "Empty"})
	require.NoError(t, err)
	assert.Equal(t, []string{"g-Empty", "g-NotReady"}, ids(some))

	// The quirk that makes filtering client-side necessary: the broker's
	// own StatesFilter spells NotReady "not_ready".
	listed, err := kadm.NewClient(cl.cl).ListGroupsByType(ctx, []string{"streams"}, "NotReady")
	require.NoError(t, err)
	assert.Empty(t, listed.Groups())
}

// Committed leaves out what the Java admin client skips: a partition
// answered with an error, and one without an offset.
func TestGroupOffsets_Committed(t *testing.T) {
	tp := func(p int32) kafka.TopicPartition { return kafka.TopicPartition{Topic: "in", Partition: p} }
	g := GroupOffsets{Group: "g", Offsets: []CommittedOffset{
		{TopicPartition: tp(0), Offset: 5, LeaderEpoch: 2},
		{TopicPartition: tp(1), Offset: -1, LeaderEpoch: -1},
		{TopicPartition: tp(2), Offset: 7, Err: NewKafkaError(kerr.UnstableOffsetCommit.Code, nil)},
		{TopicPartition: tp(3), Offset: 0, LeaderEpoch: -1},
	}}
	assert.Equal(t, map[kafka.TopicPartition]CommittedOffset{
		tp(0): {TopicPartition: tp(0), Offset: 5, LeaderEpoch: 2},
		tp(3): {TopicPartition: tp(3), Offset: 0, LeaderEpoch: -1},
	}, g.Committed())
}

// RequestedGroups are the groups given, or with all every streams group's
// id in the listing's order; a listing that fails is the error.
func TestRequestedGroups(t *testing.T) {
	c, cl := viewsCluster(t)
	for _, id := range []string{"b", "a"} {
		c.PutStreamsGroup(playground.StreamsGroup{ID: id, State: "Empty"})
	}
	ctx := viewsCtx(t)
	got, err := RequestedGroups(ctx, cl, []string{"x", "x"}, false)
	require.NoError(t, err)
	assert.Equal(t, []string{"x", "x"}, got, "as given, repeats included")
	got, err = RequestedGroups(ctx, cl, []string{"x"}, true)
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, got)

	c.InjectError(playground.Fault{Key: 16, ErrorCode: kerr.ClusterAuthorizationFailed.Code, Times: 0, Node: playground.AnyNode})
	_, err = RequestedGroups(ctx, cl, nil, true)
	require.Error(t, err)
}

// TestForgetTopicMetadata: kgo keeps the partition metadata of the topics
// ListOffsets asked for; ForgetTopicMetadata lets go of it (serve, between
// its cycles), so the next ListOffsets asks for it again, and answers the
// same.
func TestForgetTopicMetadata(t *testing.T) {
	c, cl := viewsCluster(t)
	c.PutTopic("in", 3)
	for p := range int32(3) {
		c.SetLogOffsets("in", p, 0, 10+int64(p))
	}
	tps := []kafka.TopicPartition{{Topic: "in", Partition: 0}, {Topic: "in", Partition: 1}, {Topic: "in", Partition: 2}}
	first, err := cl.ListOffsets(viewsCtx(t), tps, LatestTimestamp)
	require.NoError(t, err)

	c.ResetRequests()
	again, err := cl.ListOffsets(viewsCtx(t), tps, LatestTimestamp)
	require.NoError(t, err)
	assert.Equal(t, first, again)
	assert.Empty(t, logged(c, 3), "within MetadataMinAge the metadata is kgo's")

	cl.ForgetTopicMetadata()
	c.ResetRequests()
	after, err := cl.ListOffsets(viewsCtx(t), tps, LatestTimestamp)
	require.NoError(t, err)
	assert.Equal(t, first, after)
	assert.NotEmpty(t, logged(c, 3), "forgotten: asked again")
	cl.ForgetTopicMetadata()
	cl.ForgetTopicMetadata() // nothing to forget: nothing happens
}

// The describe's offsets view loads the topics' metadata once, then sends
// its two ListOffsets together: they find it in kgo's cache and send no
// Metadata of their own (two without LoadTopics: neither sees the other's
// answer in time). A topic the cluster lacks is still each ListOffsets'
// error, as without LoadTopics.
func TestLoadTopics(t *testing.T) {
	c, cl := viewsCluster(t)
	c.PutTopic("in", 3)
	c.PutTopic("other", 1)
	for p := range int32(3) {
		c.SetLogOffsets("in", p, int64(p), 100+int64(p))
	}
	c.SetLogOffsets("other", 0, 7, 9)
	ctx := viewsCtx(t)
	both := func(tps []kafka.TopicPartition) (earliest, latest []ListedOffset) {
		var errE, errL error
		var wg sync.WaitGroup
		wg.Go(func() { earliest, errE = cl.ListOffsets(ctx, tps, EarliestTimestamp) })
		wg.Go(func() { latest, errL = cl.ListOffsets(ctx, tps, LatestTimestamp) })
		wg.Wait()
		require.NoError(t, errE)
		require.NoError(t, errL)
		return earliest, latest
	}

	tps := []kafka.TopicPartition{{Topic: "in", Partition: 0}, {Topic: "in", Partition: 1}, {Topic: "in", Partition: 2}, {Topic: "other", Partition: 0}}
	c.ResetRequests()
	cl.LoadTopics(ctx, []string{"in", "other"})
	require.Len(t, logged(c, 3), 1, "LoadTopics' Metadata")
	earliest, latest := both(tps)
	assert.Len(t, logged(c, 3), 1, "no Metadata of the ListOffsets' own")
	assert.Len(t, logged(c, 2), 6, "two ListOffsets per leader")
	for i, want := range [][2]int64{{0, 100}, {1, 101}, {2, 102}, {7, 9}} {
		require.NoError(t, earliest[i].Err)
		require.NoError(t, latest[i].Err)
		assert.Equal(t, want, [2]int64{earliest[i].Offset, latest[i].Offset})
	}

	// A missing topic: as without LoadTopics, each ListOffsets asks again
	// and reports it.
	cl.LoadTopics(ctx, []string{"missing"})
	earliest, latest = both([]kafka.TopicPartition{{Topic: "missing", Partition: 0}})
	assert.Error(t, earliest[0].Err, "a topic the cluster does not have")
	assert.Error(t, latest[0].Err, "a topic the cluster does not have")

	// LoadTopics' topics are forgotten with ListOffsets' ones.
	c.PutTopic("solo", 1)
	cl.LoadTopics(ctx, []string{"solo"})
	c.ResetRequests()
	cl.LoadTopics(ctx, []string{"solo"})
	assert.Empty(t, logged(c, 3), "within MetadataMinAge the metadata is kgo's")
	cl.ForgetTopicMetadata()
	cl.LoadTopics(ctx, []string{"solo"})
	assert.Len(t, logged(c, 3), 1, "forgotten: asked again")
	c.ResetRequests()
	cl.LoadTopics(ctx, nil)
	assert.Empty(t, c.Requests(), "no topics: no request")
}
