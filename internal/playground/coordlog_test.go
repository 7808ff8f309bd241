package playground

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/coordrecords"
)

const histSeed = `
nodes: 2
topics:
  - {name: in, partitions: 2, end_offsets: [10, 10]}
streams_groups:
  - id: hist-app
    state: Stable
    group_epoch: 4
    assignment_epoch: 4
    topology: {epoch: 1, subtopologies: [{id: "0", source_topics: [in]}]}
    members:
      - member_id: m-a
        member_epoch: 4
        instance_id: app-a-1
        client_id: c-a
        process_id: proc-a
        topology_epoch: 1
        assignment: {active: {"0": [0, 1]}}
        target_assignment: {active: {"0": [0, 1]}}
    committed_offsets:
      - {topic: in, partition: 0, offset: 7}
`

// record is a decoded __consumer_offsets record, as "type member" with
// "tombstone" or the value's key facts.
func describeRecord(t *testing.T, r *kgo.Record) string {
	t.Helper()
	k, err := coordrecords.DecodeKey(r.Key)
	require.NoError(t, err)
	if !coordrecords.IsStreams(k.Type) {
		var ok kmsg.OffsetCommitKey
		require.NoError(t, ok.ReadFrom(r.Key))
		if r.Value == nil {
			return fmt.Sprintf("OffsetCommit %s %s-%d tombstone", ok.Group, ok.Topic, ok.Partition)
		}
		var ov kmsg.OffsetCommitValue
		require.NoError(t, ov.ReadFrom(r.Value))
		return fmt.Sprintf("OffsetCommit %s %s-%d %d", ok.Group, ok.Topic, ok.Partition, ov.Offset)
	}
	name := strings.TrimPrefix(coordrecords.TypeName(k.Type), "StreamsGroup")
	if k.MemberID != "" {
		name += " " + k.MemberID
	}
	v, err := coordrecords.DecodeValue(k.Type, r.Value)
	require.NoError(t, err)
	switch v := v.(type) {
	case nil:
		return name + " tombstone"
	case *coordrecords.GroupMetadata:
		return fmt.Sprintf("%s epoch %d configs %v", name, v.Epoch, v.LastAssignmentConfigs)
	case *coordrecords.MemberMetadata:
		inst := "-"
		if v.InstanceID != nil {
			inst = *v.InstanceID
		}
		return fmt.Sprintf("%s instance %s process %s", name, inst, v.ProcessID)
	case *coordrecords.TargetAssignmentMetadata:
		return fmt.Sprintf("%s epoch %d at %d", name, v.AssignmentEpoch, v.AssignmentTimestamp)
	case *coordrecords.CurrentMemberAssignment:
		return fmt.Sprintf("%s epoch %d previous %d active %v", name, v.MemberEpoch, v.PreviousMemberEpoch, v.ActiveTasks)
	case *coordrecords.TargetAssignmentMember:
		return fmt.Sprintf("%s active %v", name, v.ActiveTasks)
	case *coordrecords.Topology:
		return fmt.Sprintf("%s epoch %d", name, v.Epoch)
	}
	return name
}

// The playground writes a streams group's records to the partition of
// __consumer_offsets Kafka would use, and a consumer reads them back as
// from a broker: the seed, a join, a static member's rejoin, an offset
// commit, a group config change, the group emptied and deleted.
func TestCoordinatorLog_records(t *testing.T) {
	var clock atomic.Int64
	clock.Store(time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC).UnixMilli())
	s, err := ParseState([]byte(histSeed))
	require.NoError(t, err)
	c, err := StartStateWith(Config{Now: func() time.Time { return time.UnixMilli(clock.Load()) }}, s)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	step := func() { clock.Add(1000) }

	g := s.StreamsGroups[0].StreamsGroup
	b := Member{MemberID: "m-b", MemberEpoch: 5, ClientID: "c-b", ProcessID: "proc-b", TopologyEpoch: 1,
		Assignment: Assignment{Active: map[string][]int32{"0": {1}}}, TargetAssignment: Assignment{Active: map[string][]int32{"0": {1}}}}
	a := g.Members[0]
	a.MemberEpoch = 5
	a.Assignment = Assignment{Active: map[string][]int32{"0": {0}}}
	a.TargetAssignment = a.Assignment
	step()
	joined := g
	joined.GroupEpoch, joined.AssignmentEpoch, joined.Members = 5, 5, []Member{a, b}
	c.PutStreamsGroup(joined)
	c.PutStreamsGroup(joined) // a heartbeat: nothing changes, nothing is written

	step()
	rejoined := joined
	a2 := a
	a2.MemberID, a2.ProcessID = "m-a2", "proc-a2"
	rejoined.Members = []Member{a2, b}
	c.PutStreamsGroup(rejoined)

	step()
	c.Commit("hist-app", Committed{Topic: "in", Partition: 1, Offset: 9, LeaderEpoch: -1})

	step()
	one := "1"
	cl := newClient(t, c, nil)
	alter := kmsg.NewPtrIncrementalAlterConfigsRequest()
	res := kmsg.NewIncrementalAlterConfigsRequestResource()
	res.ResourceType, res.ResourceName = kmsg.ConfigResourceTypeGroupConfig, "hist-app"
	res.Configs = []kmsg.IncrementalAlterConfigsRequestResourceConfig{{Name: "streams.num.standby.replicas", Op: kmsg.IncrementalAlterConfigOpSet, Value: &one}}
	alter.Resources = append(alter.Resources, res)
	ar, err := alter.RequestWith(testCtx(t), cl)
	require.NoError(t, err)
	require.Equal(t, int16(0), ar.Resources[0].ErrorCode)

	step()
	empty := rejoined
	empty.State, empty.GroupEpoch, empty.AssignmentEpoch, empty.Members = "Empty", 7, 7, nil
	c.PutStreamsGroup(empty)
	step()
	del := kmsg.NewPtrDeleteGroupsRequest()
	del.Groups = []string{"hist-app"}
	dr, err := del.RequestWith(testCtx(t), cl)
	require.NoError(t, err)
	require.Equal(t, int16(0), dr.Groups[0].ErrorCode)

	p := OffsetsPartition("hist-app")
	assert.Equal(t, c.Coordinator("hist-app"), p%2, "the coordinator leads the group's partition")
	lead, ok := c.PartitionLeader(OffsetsTopic, p)
	require.True(t, ok)
	assert.Equal(t, c.Coordinator("hist-app"), lead)

	consumer, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs()...), kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{OffsetsTopic: {p: kgo.NewOffset().AtStart()}}))
	require.NoError(t, err)
	defer consumer.Close()
	var got []string
	ctx := testCtx(t)
	start := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC).UnixMilli()
	for len(got) < 36 && ctx.Err() == nil {
		fs := consumer.PollFetches(ctx)
		for _, e := range fs.Errors() {
			require.NoError(t, e.Err)
		}
		fs.EachRecord(func(r *kgo.Record) {
			got = append(got, fmt.Sprintf("+%ds %s", (r.Timestamp.UnixMilli()-start)/1000, describeRecord(t, r)))
		})
	}
	at := func(s int) int64 { return start + int64(s)*1000 }
	want := []string{
		// The seed.
		"+0s MemberMetadata m-a instance app-a-1 process proc-a",
		"+0s Topology epoch 1",
		"+0s Metadata epoch 4 configs [{num.standby.replicas 0}]",
		"+0s TargetAssignmentMember m-a active [{0 [0 1] []}]",
		fmt.Sprintf("+0s TargetAssignmentMetadata epoch 4 at %d", at(0)),
		"+0s CurrentMemberAssignment m-a epoch 4 previous 0 active [{0 [0 1] [4 4]}]",
		"+0s OffsetCommit hist-app in-0 7",
		// m-b joins: a new epoch, a new target assignment.
		"+1s MemberMetadata m-b instance - process proc-b",
		"+1s Metadata epoch 5 configs [{num.standby.replicas 0}]",
		"+1s TargetAssignmentMember m-a active [{0 [0] []}]",
		"+1s TargetAssignmentMember m-b active [{0 [1] []}]",
		fmt.Sprintf("+1s TargetAssignmentMetadata epoch 5 at %d", at(1)),
		"+1s CurrentMemberAssignment m-a epoch 5 previous 4 active [{0 [0] [4]}]",
		"+1s CurrentMemberAssignment m-b epoch 5 previous 0 active [{0 [1] [5]}]",
		// The static member comes back as m-a2: no new epoch.
		"+2s CurrentMemberAssignment m-a tombstone",
		"+2s TargetAssignmentMember m-a tombstone",
		"+2s MemberMetadata m-a tombstone",
		"+2s MemberMetadata m-a2 instance app-a-1 process proc-a2",
		"+2s TargetAssignmentMember m-a2 active [{0 [0] []}]",
		"+2s CurrentMemberAssignment m-a2 epoch 5 previous 0 active [{0 [0] [5]}]",
		"+3s OffsetCommit hist-app in-1 9",
		// One standby configured: the group assigns again.
		"+4s Metadata epoch 6 configs [{num.standby.replicas 1}]",
		fmt.Sprintf("+4s TargetAssignmentMetadata epoch 6 at %d", at(4)),
		"+4s CurrentMemberAssignment m-a2 epoch 6 previous 5 active [{0 [0] [5]}]",
		"+4s CurrentMemberAssignment m-b epoch 6 previous 5 active [{0 [1] [5]}]",
		// Everybody leaves.
		"+5s CurrentMemberAssignment m-a2 tombstone",
		"+5s TargetAssignmentMember m-a2 tombstone",
		"+5s MemberMetadata m-a2 tombstone",
		"+5s CurrentMemberAssignment m-b tombstone",
		"+5s TargetAssignmentMember m-b tombstone",
		"+5s MemberMetadata m-b tombstone",
		"+5s Metadata epoch 7 configs [{num.standby.replicas 1}]",
		fmt.Sprintf("+5s TargetAssignmentMetadata epoch 7 at %d", at(5)),
	}
	require.GreaterOrEqual(t, len(got), len(want), strings.Join(got, "\n"))
	assert.Equal(t, want, got[:len(want)], strings.Join(got, "\n"))
	assert.Equal(t, []string{
		"+6s TargetAssignmentMetadata tombstone",
		"+6s Metadata tombstone",
		"+6s Topology tombstone",
	}, got[len(want):], "the deletion's tombstones")
}

// __consumer_offsets is described as Kafka describes it (internal, 50
// partitions, each led by the coordinator of its groups), and ListOffsets
// answers from the coordinator log.
func TestCoordinatorLog_metadataAndOffsets(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	c := startCluster(t, Config{Nodes: 3, Now: func() time.Time { return at }})
	c.PutTopic("in", 1)
	c.CommitBatch("g", []Committed{{Topic: "in", Partition: 0, Offset: 1, LeaderEpoch: -1}, {Topic: "in", Partition: 0, Offset: 2, LeaderEpoch: -1}})
	cl := newClient(t, c, nil)
	md := kmsg.NewPtrMetadataRequest()
	mt := kmsg.NewMetadataRequestTopic()
	mt.Topic = kmsg.StringPtr(OffsetsTopic)
	md.Topics = append(md.Topics, mt)
	mr, err := md.RequestWith(testCtx(t), cl)
	require.NoError(t, err)
	var found *kmsg.MetadataResponseTopic
	for i := range mr.Topics {
		if *mr.Topics[i].Topic == OffsetsTopic {
			found = &mr.Topics[i]
		}
	}
	require.NotNil(t, found)
	assert.True(t, found.IsInternal)
	require.Len(t, found.Partitions, 50)
	p := OffsetsPartition("g")
	assert.Equal(t, c.Coordinator("g"), found.Partitions[p].Leader)

	for _, tc := range []struct {
		ts, offset int64
	}{{-2, 0}, {-1, 2}, {at.UnixMilli(), 0}, {at.UnixMilli() + 1, -1}, {-3, 0}} {
		lo := kmsg.NewPtrListOffsetsRequest()
		lt := kmsg.NewListOffsetsRequestTopic()
		lt.Topic = OffsetsTopic
		lp := kmsg.NewListOffsetsRequestTopicPartition()
		lp.Partition, lp.Timestamp = p, tc.ts
		lt.Partitions = append(lt.Partitions, lp)
		lo.Topics = append(lo.Topics, lt)
		resp := brokerRequest[*kmsg.ListOffsetsResponse](t, cl, found.Partitions[p].Leader, lo)
		rp := resp.Topics[0].Partitions[0]
		require.Equal(t, int16(0), rp.ErrorCode)
		assert.Equal(t, tc.offset, rp.Offset, "timestamp %d", tc.ts)
	}
}

// A partition past CoordinatorLogBytes loses its oldest batches: its log
// start moves, as retention moves it.
func TestCoordinatorLog_bounded(t *testing.T) {
	c := startCluster(t, Config{CoordinatorLogBytes: 1000})
	c.PutTopic("in", 1)
	for i := range 50 {
		c.Commit("g", Committed{Topic: "in", Offset: int64(i), LeaderEpoch: -1})
	}
	c.mu.Lock()
	r := c.coord.rangeOf(OffsetsPartition("g"))
	size := c.coord.parts[OffsetsPartition("g")].bytes
	c.mu.Unlock()
	assert.Equal(t, int64(50), r.end)
	assert.Positive(t, r.start)
	assert.LessOrEqual(t, size, int64(1000))
}

// The group's partition is Kafka's Utils.abs(hashCode) % 50: a negative
// hash is negated, not masked, and Integer.MIN_VALUE is 0.
func TestOffsetsPartition(t *testing.T) {
	for group, want := range map[string]int32{"inventory": 10, "hist-app": kafkaAbs(javaHash("hist-app")) % 50, "polygenelubricants": 0, "a": 47} {
		assert.Equal(t, want, OffsetsPartition(group), group)
	}
	assert.Equal(t, int32(-2147483648), javaHash("polygenelubricants"))
}
