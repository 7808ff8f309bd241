//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestHistoryRecordsRich (issue 34) has a real Kafka Streams 4.4.0 application write the
// streams-group records with every part of their schemas filled in, for the decoder tests: a
// topology with a copartition group (a stream-table join), a repartition topic and changelog
// topics with topic configs (e2e.HistoryApp topology=rich), and members with a rack and a
// client tag, one standby each. Two instances join, both leave, the group is deleted. With
// E2E_CAPTURE=1 the records go to testdata/history/real-4.4.0/rich.jsonl.
func TestHistoryRecordsRich(t *testing.T) {
	const group, left, right, output = "hr-app", "hr-left", "hr-right", "hr-output"
	start := time.Now()
	defer func() { logf("TestHistoryRecordsRich total %s", time.Since(start).Round(time.Millisecond)) }()
	ctx := context.Background()
	b := SharedBroker(t, BrokerOptions{})
	require.NoError(t, createTopic(ctx, b, left, 2))
	require.NoError(t, createTopic(ctx, b, right, 2))
	require.NoError(t, createTopic(ctx, b, output, 1))
	alterGroupConfigs(t, b, group, map[string]string{"streams.num.standby.replicas": "1"})

	var steps []histStep
	mark := func(step string, at time.Time, note string) {
		steps = append(steps, histStep{Step: step, TimeMs: at.UnixMilli(), Note: note})
		logf("TestHistoryRecordsRich: step %s at %s %s", step, at.UTC().Format("15:04:05.000"), note)
	}
	io := []string{"topology=rich", "input=" + left, "input2=" + right, "output=" + output}
	r1 := startHistoryApp(t, b, group, "a", append(io, "rack=rack-a", "client-tag=zone:z1")...)
	mark("a-started", waitHist(t, b, group, "a member", func(g *kmsg.StreamsGroupDescribeResponseGroup) string { return wantMembers(g, 1) }), "rack-a, zone=z1")
	waitHistStable(t, b, group, 1, 4)
	r2 := startHistoryApp(t, b, group, "b", append(io, "rack=rack-b", "client-tag=zone:z2")...)
	mark("b-started", waitHist(t, b, group, "a second member", func(g *kmsg.StreamsGroupDescribeResponseGroup) string { return wantMembers(g, 2) }), "rack-b, zone=z2")
	waitHistStable(t, b, group, 2, 4)
	at := time.Now()
	require.NoError(t, r2.Stop(20*time.Second))
	require.NoError(t, r1.Stop(20*time.Second))
	mark("both-stopped", at, "SIGTERM to b then a (LEAVE_GROUP)")
	require.NoError(t, b.WaitGroupState(ctx, group, "Empty", 30*time.Second, b.Proc))
	at = time.Now()
	deleteGroup(t, b, group)
	mark("group-deleted", at, "DeleteGroups")

	recs, _, err := ReadOffsetsPartition(ctx, b, group)
	require.NoError(t, err)
	var kept []RawRecord
	for _, r := range recs {
		if r.KeyGroup() == group && IsStreamsRecordType(r.KeyType()) {
			kept = append(kept, r)
		}
	}
	for _, line := range summarizeRecords(kept) {
		logf("TestHistoryRecordsRich:   %s", line)
	}
	// What the decoder tests rely on this capture for, checked on the raw bytes.
	has := func(typ int16, s string) bool {
		for _, r := range kept {
			if r.KeyType() == typ && bytes.Contains(r.Value, []byte(s)) {
				return true
			}
		}
		return false
	}
	for _, s := range []string{group + "-rich-by-value-repartition", group + "-rich-counts-changelog", group + "-rich-right-changelog", "cleanup.policy"} {
		assert.True(t, has(RecStreamsGroupTopology, s), "topology record without %q", s)
	}
	for _, s := range []string{"rack-a", "rack-b", "zone", "z1", "z2"} {
		assert.True(t, has(RecStreamsGroupMemberMetadata, s), "member metadata without %q", s)
	}
	if os.Getenv("E2E_CAPTURE") == "1" {
		writeHistoryCapture(t, "rich", kept, steps)
	}
}
