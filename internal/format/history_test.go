package format_test

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/history"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// historyResult is a night of word-count: a second instance joins, a
// standby config change, a static member restarted with a new process id,
// an input topic's partitions increased, and the first instance killed.
func historyResult() *history.Result {
	t0 := time.Date(2026, 12, 6, 3, 12, 0, 0, time.UTC)
	a := &history.Member{MemberID: "bB0jg0ZCRqWwv3HfJ2dQlw", ProcessID: "5b2f6a41-0c1e-4bd4-9f0a-8f5c5e0a1b11", Host: "/10.0.0.11", ClientID: "word-count-5b2f6a41-StreamThread-1"}
	b := &history.Member{MemberID: "Yc8m1TnbQv2lBm0s6r9hVg", ProcessID: "e0c1b2a3-7d4e-4f5a-8b6c-1d2e3f4a5b6c", Host: "/10.0.0.12", ClientID: "word-count-e0c1b2a3-StreamThread-1", InstanceID: "word-count-2"}
	b2 := *b
	b2.MemberID, b2.ProcessID = "pX6u0xEwRZ2H3qKp9dVmTg", "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d"
	t := func(s string, p int32) history.Task { return history.Task{Subtopology: s, Partition: p} }
	return &history.Result{
		Group: "word-count", Partition: kafka.TopicPartition{Topic: "__consumer_offsets", Partition: 1},
		CompleteFrom: t0.Add(-time.Hour), FirstEpoch: 3, Epoch: 8,
		Stats: history.Stats{LogStart: 0, End: 48213, Next: 48213, Bytes: 5_312_004, Records: 48213, GroupRecords: 212, Tombstones: 9},
		Entries: []history.Entry{
			{Time: t0, Offset: 40112, GroupEpoch: 4, PreviousEpoch: 3, Members: 2, Causes: []history.Cause{{Kind: history.MemberJoined, Member: b}},
				Assigned: true, Moved: history.Moves{Active: []history.ActiveMove{{Task: t("0", 1), From: a.ProcessID, To: b.ProcessID}, {Task: t("1", 1), From: a.ProcessID, To: b.ProcessID}}},
				Converged: true, ConvergedAfter: 2140 * time.Millisecond},
			{Time: t0.Add(20 * time.Minute), Offset: 41007, GroupEpoch: 5, PreviousEpoch: 4, Members: 2,
				Causes:   []history.Cause{{Kind: history.ConfigsChanged, Configs: []history.ConfigChange{{Key: "num.standby.replicas", Old: "0", New: "1", OldSet: true, NewSet: true}}}},
				Assigned: true, Moved: history.Moves{StandbysPlaced: []history.Placement{{Task: t("1", 0), Process: b.ProcessID}, {Task: t("1", 1), Process: a.ProcessID}}},
				Converged: true, ConvergedAfter: 380 * time.Millisecond},
			{Time: t0.Add(41 * time.Minute), Offset: 44290, GroupEpoch: 6, PreviousEpoch: 5, Members: 2,
				Causes:   []history.Cause{{Kind: history.MemberRejoined, Member: &b2, PreviousMemberID: b.MemberID}},
				Assigned: true, Moved: history.Moves{Active: []history.ActiveMove{{Task: t("0", 1), From: b.ProcessID, To: b2.ProcessID}, {Task: t("1", 1), From: b.ProcessID, To: b2.ProcessID}},
					StandbysPlaced: []history.Placement{{Task: t("1", 0), Process: b2.ProcessID}}, StandbysLost: []history.Placement{{Task: t("1", 0), Process: b.ProcessID}}},
				Converged: true, ConvergedAfter: 1100 * time.Millisecond},
			{Time: t0.Add(55 * time.Minute), Offset: 46001, GroupEpoch: 7, PreviousEpoch: 6, Members: 2, Causes: []history.Cause{{Kind: history.PartitionsChanged}},
				Assigned: true, Moved: history.Moves{Active: []history.ActiveMove{{Task: t("0", 2), To: a.ProcessID}}, WarmupsStarted: []history.Placement{{Task: t("1", 2), Process: b2.ProcessID}}}},
			{Time: t0.Add(58 * time.Minute), Offset: 46540, GroupEpoch: 8, PreviousEpoch: 7, Members: 1, Causes: []history.Cause{{Kind: history.MemberRemoved, Member: a}},
				Assigned: true, Moved: history.Moves{Active: []history.ActiveMove{{Task: t("0", 0), From: a.ProcessID, To: b2.ProcessID}, {Task: t("0", 2), From: a.ProcessID, To: b2.ProcessID}}}},
		},
	}
}

func TestHistoryText(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, format.HistoryText(&b, historyResult(), format.NewStyles(false)))
	golden.Assert(t, b.Bytes())
}

func TestHistoryDoc(t *testing.T) {
	for _, o := range []format.Output{format.JSON, format.YAML} {
		var b bytes.Buffer
		require.NoError(t, format.Encode(&b, o, format.NewGroupHistoryDoc(historyResult())))
		golden.AssertFile(t, golden.Path(t)+"."+string(o), b.Bytes())
	}
}

// The log's strings are escaped; an empty timeline, the budget and the
// records skipped are said.
func TestHistoryText_edges(t *testing.T) {
	res := &history.Result{Group: "g\x1b[31m", Partition: kafka.TopicPartition{Topic: "__consumer_offsets", Partition: 3},
		CompleteFrom: time.Date(2026, 12, 6, 3, 0, 0, 0, time.UTC), CompleteFromStart: true,
		Stats: history.Stats{Next: 10, End: 99, Budget: true, UnknownTypes: 2, NewerVersions: 1, Malformed: 1}}
	var b bytes.Buffer
	require.NoError(t, format.HistoryText(&b, res, format.NewStyles(false)))
	out := b.String()
	assert.NotContains(t, out, "\x1b")
	assert.Contains(t, out, "complete from 2026-12-06T03:00:00.000Z, the log's first record")
	assert.Contains(t, out, `No record of group g^[[31m in the records read: it is not a streams group`)
	res.Stats.GroupRecords = 3
	b.Reset()
	require.NoError(t, format.HistoryText(&b, res, format.NewStyles(false)))
	assert.Contains(t, b.String(), "No rebalance of the group in the records read.")
	assert.Contains(t, out, "Note: the byte budget (--max-bytes) stopped the read at offset 10 of 99")
	assert.Contains(t, out, "Note: 2 records of a type this tool does not know")
	assert.Contains(t, out, "Note: 1 records of the group with a newer value version skipped")
	assert.Contains(t, out, "Note: 1 records of the group could not be decoded")

	res.Entries = []history.Entry{{Time: res.CompleteFrom, GroupEpoch: 2, PreviousEpoch: 1, Members: 1,
		Causes: []history.Cause{{Kind: history.MemberChanged, Member: &history.Member{MemberID: "m\n1", ProcessID: "p\x07", Host: "h", ClientID: "c"}, Changed: []string{"rack"}}}}}
	b.Reset()
	require.NoError(t, format.HistoryText(&b, res, format.NewStyles(false)))
	assert.NotContains(t, b.String(), "\x07")
	assert.Contains(t, b.String(), `m\n1 (rack): process p^G, host h, client c`)
	assert.Contains(t, b.String(), "the target assignment of this epoch is not in the records read")
	assert.Contains(t, b.String(), "converging")

	// Not located: nothing on stdout (the error line says why).
	b.Reset()
	require.NoError(t, format.HistoryText(&b, &history.Result{Group: "g", Err: errors.New("x")}, format.NewStyles(false)))
	assert.Empty(t, b.String())
}

func TestHistoryHint(t *testing.T) {
	denied := &kafka.Error{Code: kafka.CodeTopicAuthorizationFailed, Name: "TOPIC_AUTHORIZATION_FAILED"}
	assert.Equal(t, " (history needs the DESCRIBE and READ ACLs on topic __consumer_offsets)", format.HistoryHint(denied))
	assert.Contains(t, format.HistoryHint(&kafka.Error{Code: kafka.CodeUnknownTopicOrPartition}), "the cluster shows no topic __consumer_offsets")
	assert.Empty(t, format.HistoryHint(&kafka.Error{Code: kafka.CodeGroupAuthorizationFailed}))
	assert.Empty(t, format.HistoryHint(errors.New("other")))
}
