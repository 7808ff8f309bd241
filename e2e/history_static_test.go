//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestHistoryStaticSameMetadata (issue 34, FINDINGS F710): a static member as static
// membership is meant to be used, restarted within its session with the same metadata: a
// persistent store (Kafka Streams keeps the process id in the state directory) and the same
// application.server. The 4.4.0 coordinator then swaps the member id without a new group
// epoch, so the rejoin is no rebalance; history must still never call it a join. With
// E2E_CAPTURE=1 the records go to testdata/history/real-4.4.0/static-same.jsonl.
func TestHistoryStaticSameMetadata(t *testing.T) {
	const group, input, output = "hz-app", "hz-input", "hz-output"
	ctx := context.Background()
	b := SharedBroker(t, BrokerOptions{})
	require.NoError(t, createTopic(ctx, b, input, 2))
	require.NoError(t, createTopic(ctx, b, output, 1))
	port, err := FreePort()
	require.NoError(t, err)
	args := []string{"input=" + input, "output=" + output, "store=persistent", "instance-id=hz-static",
		fmt.Sprintf("application-server=hz-s.test:%d", port)}

	var steps []histStep
	mark := func(step string, at time.Time, note string) {
		steps = append(steps, histStep{Step: step, TimeMs: at.UnixMilli(), Note: note})
		logf("TestHistoryStaticSameMetadata: step %s at %s %s", step, at.UTC().Format("15:04:05.000"), note)
	}
	s := startHistoryApp(t, b, group, "s", args...)
	mark("s-started", waitHist(t, b, group, "the static member", func(g *kmsg.StreamsGroupDescribeResponseGroup) string { return wantMembers(g, 1) }),
		"static member (group.instance.id hz-static-1), persistent store")
	first := waitHistStable(t, b, group, 1, 2)
	stopped := time.Now()
	require.NoError(t, s.Stop(20*time.Second)) // REMAIN_IN_GROUP
	startHistoryApp(t, b, group, "s", args...)
	seen := waitHist(t, b, group, "the rejoin", func(g *kmsg.StreamsGroupDescribeResponseGroup) string {
		if msg := wantMembers(g, 1); msg != "" {
			return msg
		}
		if g.Members[0].MemberID == first.Members[0].MemberID {
			return "still the first member id"
		}
		return ""
	})
	mark("s-restarted", seen, "restarted within its session: same instance id, process id and endpoint; new member id")
	require.Less(t, seen.Sub(stopped), 9*time.Second, "the static member took longer than its 10 s session to restart")
	again := waitHistStable(t, b, group, 1, 2)

	// What the broker did: the same process, a new member id, and no new group epoch (F710).
	assert.Equal(t, first.Members[0].ProcessID, again.Members[0].ProcessID, "a persistent store keeps the process id")
	assert.Equal(t, first.Epoch, again.Epoch, "the rejoin with the same metadata is no new group epoch")

	recs, _, err := ReadOffsetsPartition(ctx, b, group)
	require.NoError(t, err)
	var kept []RawRecord
	for _, r := range recs {
		if r.KeyGroup() == group && IsStreamsRecordType(r.KeyType()) {
			kept = append(kept, r)
		}
	}
	for _, line := range summarizeRecords(kept) {
		logf("TestHistoryStaticSameMetadata:   %s", line)
	}

	t.Run("history never calls the rejoin a join", func(t *testing.T) {
		r := RunOursOn(t, OurBinary(t), b, "history", "--group", group, "-o", "json")
		require.Equal(t, 0, r.ExitCode, r.Stderr)
		var doc histDoc
		require.NoError(t, json.Unmarshal([]byte(r.Stdout), &doc), r.Stdout)
		require.NotEmpty(t, doc.Entries)
		assert.Equal(t, first.Members[0].MemberID, doc.Entries[0].Causes[0].Member.MemberID, "the first entry is the first join")
		for _, e := range doc.Entries {
			for _, c := range e.Causes {
				logf("TestHistoryStaticSameMetadata: history: epoch %d->%d %s", e.PreviousEpoch, e.GroupEpoch, c.Cause)
				if c.Member != nil && c.Member.MemberID == again.Members[0].MemberID {
					assert.NotEqual(t, "member-joined", c.Cause, "the static member's new member id")
				}
			}
		}
	})
	if os.Getenv("E2E_CAPTURE") == "1" {
		writeHistoryCapture(t, "static-same", kept, steps)
	}
}
