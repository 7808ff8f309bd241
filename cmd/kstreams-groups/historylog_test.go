package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/coordrecords"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// historyTarget is the group whose history the large log is read for.
const historyTarget = "bench-app"

// historyLog is a playground whose __consumer_offsets partition of
// historyTarget holds size bytes or more: 1,000 groups' records (the
// target and 999 others on the same partition), offset commits mostly,
// with the target's rebalances (a member joining, then leaving) spread
// among them, one write every 100 ms of the playground's clock.
func historyLog(tb testing.TB, size int64, rebalances int) *playground.Cluster {
	tb.Helper()
	var clock atomic.Int64
	clock.Store(testNow.Add(-24 * time.Hour).UnixMilli())
	c, err := playground.Start(playground.Config{Nodes: 1, NoRequestLog: true, CoordinatorLogBytes: 2 * size,
		Now: func() time.Time { return time.UnixMilli(clock.Add(100)) }})
	require.NoError(tb, err)
	tb.Cleanup(func() { _ = c.Close() })
	c.PutTopic("events", 64)
	p := playground.OffsetsPartition(historyTarget)
	groups := []string{historyTarget}
	for i := 0; len(groups) < 1000; i++ {
		if g := fmt.Sprintf("app-%05d", i); playground.OffsetsPartition(g) == p {
			groups = append(groups, g)
		}
	}
	target := benchGroup(2, 1)
	c.PutStreamsGroup(target)
	commits := make([]playground.Committed, 32)
	step, epoch := 0, int32(1)
	for i := 0; c.OffsetsPartitionBytes(p) < size; i++ {
		for j := range commits {
			commits[j] = playground.Committed{Topic: "events", Partition: int32(j), Offset: int64(i*100 + j), LeaderEpoch: 0}
		}
		c.CommitBatch(groups[i%len(groups)], commits)
		if step < rebalances && c.OffsetsPartitionBytes(p) >= size*int64(step+1)/int64(rebalances+1) {
			step++
			epoch++
			c.PutStreamsGroup(benchGroup(2+step%2, epoch))
		}
	}
	return c
}

// benchGroup is historyTarget with n members at epoch, its eight tasks
// spread over them.
func benchGroup(n int, epoch int32) playground.StreamsGroup {
	g := playground.StreamsGroup{ID: historyTarget, State: "Stable", GroupEpoch: epoch, AssignmentEpoch: epoch, AssignorName: "sticky",
		Topology: &playground.Topology{Epoch: 1, Subtopologies: []playground.Subtopology{{ID: "0", SourceTopics: []string{"events"}}}}}
	for m := range n {
		a := playground.Assignment{Active: map[string][]int32{"0": {}}}
		for t := int32(m); t < 8; t += int32(n) {
			a.Active["0"] = append(a.Active["0"], t)
		}
		g.Members = append(g.Members, playground.Member{MemberID: fmt.Sprintf("member-%d", m), MemberEpoch: epoch, ClientID: fmt.Sprintf("bench-app-%d-StreamThread-1-consumer", m),
			ClientHost: fmt.Sprintf("/10.0.0.%d", m+1), TopologyEpoch: 1, ProcessID: fmt.Sprintf("process-%d", m), Assignment: a, TargetAssignment: a})
	}
	return g
}

// The sibling's log reader reads the playground's __consumer_offsets as it
// reads Kafka's: every record, in order, the target's among them.
func TestHistoryLog_readBack(t *testing.T) {
	t.Parallel()
	c := historyLog(t, 1<<20, 3)
	cl, err := admin.New(admin.Config{Bootstrap: c.Addrs()})
	require.NoError(t, err)
	defer cl.Close()
	tp := kafka.TopicPartition{Topic: playground.OffsetsTopic, Partition: playground.OffsetsPartition(historyTarget)}
	var records, target, metadata int
	last := int64(-1)
	st, err := cl.ReadLog(context.Background(), admin.LogRead{TopicPartition: tp, From: admin.EarliestTimestamp}, func(r admin.LogRecord) error {
		require.Equal(t, last+1, r.Offset)
		last = r.Offset
		records++
		if g, ok := coordrecords.GroupOf(r.Key); ok && string(g) == historyTarget {
			target++
			if k, _ := coordrecords.DecodeKey(r.Key); k.Type == coordrecords.TypeStreamsGroupMetadata {
				metadata++
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Equal(t, st.End, int64(records))
	require.Greater(t, records, 10_000)
	require.Equal(t, 4, metadata, "the target's creation and its 3 rebalances")
	require.Greater(t, target, 20)
}

// history finds the target's rebalances among the other groups' records:
// its creation and each rebalance, with its cause.
func TestHistoryLog_history(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := historyLog(t, 1<<20, 3)
	r := runCLI(t, "--bootstrap-server", bootstrap(c), "history", "--group", historyTarget, "-o", "json")
	require.Equal(t, 0, r.code, r.stderr)
	var doc struct {
		Entries []struct {
			GroupEpoch int32 `json:"group_epoch"`
			Causes     []struct {
				Kind string `json:"cause"`
			} `json:"causes"`
		} `json:"entries"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &doc), r.stdout)
	var got []string
	for _, e := range doc.Entries {
		var kinds []string
		for _, c := range e.Causes {
			kinds = append(kinds, c.Kind)
		}
		got = append(got, fmt.Sprintf("%d %v", e.GroupEpoch, kinds))
	}
	require.Equal(t, []string{"1 [member-joined member-joined]", "2 [member-joined]", "3 [member-removed]", "4 [member-joined]"}, got, r.stdout)
}
