//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestLagEdges (issue 19, "Lag must not lie") runs check and overview on one real 4.4.0 broker,
// no application: le-app, a streams group whose one member joined with a topology reading
// le-input (2 partitions) and left, so that it is Empty; its committed offset of partition 0
// is past the log end (110 > 10, as after a truncation or a re-creation; the broker takes the
// commit) and partition 1 is 100 behind; and le-nr, kept NotReady by a member whose topology
// reads a topic that does not exist.
func TestLagEdges(t *testing.T) {
	bin := OurBinary(t)
	start := time.Now()
	defer func() { logf("TestLagEdges total %s", time.Since(start).Round(time.Millisecond)) }()
	ctx := context.Background()
	run := func(t *testing.T, b *Broker, args ...string) ToolResult { return RunOursOn(t, bin, b, args...) }

	b := SharedBroker(t, BrokerOptions{})
	require.NoError(t, createTopic(ctx, b, "le-input", 2))
	produceTo(t, b, "le-input", map[int32]int{0: 10, 1: 100})
	joinAndLeave(t, b, "le-app", "le-input")
	require.NoError(t, b.WaitGroupState(ctx, "le-app", "Empty", 30*time.Second, b.Proc))
	require.EqualValues(t, 0, ooAdminCommit(t, b, "le-app", "le-input", 0, 110), "the broker takes an offset past the log end")
	require.EqualValues(t, 0, ooAdminCommit(t, b, "le-app", "le-input", 1, 0))
	nr := keepNotReadyMember(t, b, "le-nr")
	require.NoError(t, b.WaitGroupState(ctx, "le-nr", "NotReady", 30*time.Second, b.Proc))
	require.NoError(t, nr.err())
	logf("TestLagEdges: groups ready after %s", time.Since(start).Round(time.Millisecond))

	t.Run("committed past the log end", func(t *testing.T) {
		r := run(t, b, "check", "--group", "le-app", "--expect-state", "Empty", "--lag-critical", "50", "-v")
		require.Equal(t, 2, r.ExitCode, "the -100 used to cancel the 100: lag 0, OK")
		assert.True(t, strings.HasPrefix(r.Stdout, "STREAMS CRITICAL - le-app CRITICAL: 1 partition committed past the log end (lag counted as 0): le-input-0 at 110 > 10, lag 100 > 50 | 'le-app lag'=100;;50;0 "), r.Stdout)
		assert.Contains(t, r.Stdout, "\n  le-app: le-input-0 committed 110, past the log end 10 (lag counted as 0)\n")

		r = run(t, b, "overview", "--group", "le-app", "--time-lag=false") // the offset lag's columns
		require.Equal(t, 0, r.ExitCode, r.Stderr)
		assert.Contains(t, r.Stdout, "  Lag:           100 (largest task 0_1: 100)\n  Ahead:         le-input-0 committed 110, past the log end 10 (lag counted as 0)\n")
		assert.Regexp(t, `\n    0_0 +- +- +- +0  ahead: le-input-0\n`, r.Stdout)

		r = run(t, b, "-o", "json", "overview", "--group", "le-app")
		assert.Contains(t, r.Stdout, `"ahead_of_log_end": 100`)
	})

	t.Run("a source topic that does not exist", func(t *testing.T) {
		ov := run(t, b, "-o", "json", "overview", "--group", "le-nr")
		assert.Less(t, ov.Duration, 20*time.Second, "no wait for a topic that will not come")
		r := run(t, b, "check", "--group", "le-nr", "--expect-state", "NotReady")
		assert.Less(t, r.Duration, 20*time.Second, "no wait for a topic that will not come")
		// F311: the broker describes a NotReady group with its sub-topologies, the missing
		// topic among their sources.
		d, err := b.DescribeStreamsGroup(ctx, "le-nr", false)
		require.NoError(t, err)
		require.NotNil(t, d.Topology)
		require.Len(t, d.Topology.Subtopologies, 1)
		assert.Equal(t, []string{"le-nr-missing-input"}, d.Topology.Subtopologies[0].SourceTopics)
		assert.Contains(t, ov.Stdout, `"missing": true`)
		require.Equal(t, 2, r.ExitCode, r.Stdout)
		assert.True(t, strings.HasPrefix(r.Stdout, "STREAMS CRITICAL - le-nr CRITICAL: source topic le-nr-missing-input does not exist | "), r.Stdout)
	})
}

// joinAndLeave makes group a streams group whose topology reads topic: one member joins with
// StreamsGroupHeartbeat and leaves, so the group is Empty and keeps its topology.
func joinAndLeave(t *testing.T, b *Broker, group, topic string) {
	t.Helper()
	// A client of its own: Broker.Client's versions stop before StreamsGroupHeartbeat.
	cl, err := kgo.NewClient(kgo.SeedBrokers(b.Addr), kgo.ClientID(group+"-client"))
	require.NoError(t, err)
	defer cl.Close()
	memberID := newMemberID()
	send := func(ctx context.Context, epoch int32) (*kmsg.StreamsGroupHeartbeatResponse, error) {
		req := kmsg.NewPtrStreamsGroupHeartbeatRequest()
		req.Group, req.MemberID, req.MemberEpoch = group, memberID, epoch
		if epoch == 0 {
			process := group + "-process"
			req.ProcessID = &process
			req.RebalanceTimeoutMillis = 30000
			req.Topology = &kmsg.StreamsGroupHeartbeatRequestTopology{Subtopologies: []kmsg.StreamsGroupHeartbeatRequestTopologySubtopology{
				{SubtopologyID: "0", SourceTopics: []string{topic}},
			}}
			req.ActiveTasks, req.StandbyTasks, req.WarmupTasks = []kmsg.TaskIDs{}, []kmsg.TaskIDs{}, []kmsg.TaskIDs{}
			req.ClientTags = []kmsg.StreamsGroupHeartbeatRequestClientTag{}
			req.TaskOffsets, req.TaskEndOffsets = []kmsg.TaskOffset{}, []kmsg.TaskOffset{}
		}
		kr, err := cl.Broker(1).Request(ctx, req)
		if err != nil {
			return nil, err
		}
		resp := kr.(*kmsg.StreamsGroupHeartbeatResponse)
		if resp.ErrorCode != 0 {
			return nil, fmt.Errorf("StreamsGroupHeartbeat %s: %w", group, kerr.ErrorForCode(resp.ErrorCode))
		}
		return resp, nil
	}
	// The first group of a fresh broker waits for __consumer_offsets: retry, each try bounded.
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	for {
		tctx, tcancel := context.WithTimeout(ctx, 10*time.Second)
		// FindCoordinator makes a fresh broker create __consumer_offsets; until then every
		// group is NOT_COORDINATOR.
		fc := kmsg.NewPtrFindCoordinatorRequest()
		fc.CoordinatorKey, fc.CoordinatorKeys = group, []string{group}
		_, _ = fc.RequestWith(tctx, cl)
		_, err := send(tctx, 0)
		tcancel()
		if err == nil {
			break
		}
		logf("%s: joining: %v", group, err)
		if ctx.Err() != nil {
			t.Fatalf("%s: joining: %v", group, err)
		}
		time.Sleep(500 * time.Millisecond)
	}
	_, err = send(ctx, -1)
	require.NoError(t, err, "%s: leaving", group)
}
