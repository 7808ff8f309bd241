package history

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
)

// realLog reads a capture of testdata/history/real-4.4.0 (records read
// raw from a real 4.4.0 coordinator's __consumer_offsets) as the log a
// fake client serves. The capture keeps no batch boundaries: the records
// of one batch share its timestamp (the coordinator's clock at the
// write), so a run of one timestamp is taken as one batch. It leaves out
// a few offset commits by choice: no hole of compaction.
func realLog(t *testing.T, name string) []admin.LogRecord {
	t.Helper()
	f, err := os.Open("../../testdata/history/real-4.4.0/" + name)
	require.NoError(t, err)
	defer f.Close()
	var out []admin.LogRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r struct {
			Offset    int64   `json:"offset"`
			Timestamp int64   `json:"timestamp_ms"`
			Key       string  `json:"key"`
			Value     *string `json:"value"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r))
		lr := admin.LogRecord{Offset: r.Offset, Timestamp: r.Timestamp, Batch: r.Offset}
		if n := len(out); n > 0 && out[n-1].Timestamp == r.Timestamp {
			lr.Batch = out[n-1].Batch
		}
		lr.Key, err = base64.StdEncoding.DecodeString(r.Key)
		require.NoError(t, err)
		if r.Value != nil {
			lr.Value, err = base64.StdEncoding.DecodeString(*r.Value)
			require.NoError(t, err)
		}
		out = append(out, lr)
	}
	require.NoError(t, sc.Err())
	return out
}

// steps reads a capture's steps file: each step's wall time.
func steps(t *testing.T, name string) map[string]time.Time {
	t.Helper()
	b, err := os.ReadFile("../../testdata/history/real-4.4.0/" + name)
	require.NoError(t, err)
	var list []struct {
		Step   string `json:"step"`
		TimeMs int64  `json:"time_ms"`
	}
	require.NoError(t, json.Unmarshal(b, &list))
	out := map[string]time.Time{}
	for _, s := range list {
		out[s.Step] = time.UnixMilli(s.TimeMs).UTC()
	}
	return out
}

// The timeline of a real 4.4.0 coordinator's records, the issue's
// lifecycle (testdata/history/real-4.4.0/README.md): one entry per new
// epoch (2 to 10; the description pushes rewrite the metadata without
// one), the right causes and members in order, each within 2 s of the
// step the test recorded (a session's expiry 10 s, the session timeout,
// after the kill or the static member's stop), the tasks that moved, the
// other groups' records and the offset commits left out.
func TestTimeline_real440(t *testing.T) {
	res, err := Run(context.Background(), &fakeClient{recs: realLog(t, "lifecycle.jsonl")}, Options{Group: "hy-app"})
	require.NoError(t, err)
	require.NoError(t, res.Err)
	st := steps(t, "lifecycle.steps.json")
	const session = 10 * time.Second
	const (
		a      = "91f96ba4-b102-4fe7-9748-5e1f6a8db11f"
		b      = "76114945-2a5d-4b39-a2df-835e67d4912f"
		s1, s2 = "865c2957-250c-4b5d-ae29-468f341cb6c8", "dfca2c8a-1a51-4f48-9af2-07100deea8b1"
	)
	type want struct {
		epoch, prev int32
		step        string
		after       time.Duration
		kind        CauseKind
		process     string // the member's, for a member cause
		detail      func(t *testing.T, e Entry)
	}
	tasks := func(ps ...int32) []Task {
		var out []Task
		for _, p := range ps {
			out = append(out, Task{"0", p})
		}
		return out
	}
	moved := func(from, to string, ps ...int32) []ActiveMove {
		var out []ActiveMove
		for _, task := range tasks(ps...) {
			out = append(out, ActiveMove{Task: task, From: from, To: to})
		}
		return out
	}
	wants := []want{
		{2, 0, "a-started", 0, MemberJoined, a, func(t *testing.T, e Entry) {
			assert.Equal(t, moved("", a, 0, 1, 2, 3), e.Moved.Active)
			assert.True(t, e.Converged)
		}},
		{3, 2, "b-started", 0, MemberJoined, b, func(t *testing.T, e Entry) {
			assert.Equal(t, moved(a, b, 2, 3), e.Moved.Active)
			assert.Equal(t, []Placement{{Task{"0", 0}, b}, {Task{"0", 1}, b}, {Task{"0", 2}, a}, {Task{"0", 3}, a}}, e.Moved.StandbysPlaced)
			// a's revocation, then b's tasks: 1.08 s (the README's reading).
			assert.Equal(t, 1083*time.Millisecond, e.ConvergedAfter)
		}},
		{4, 3, "b-stopped", 0, MemberRemoved, b, func(t *testing.T, e Entry) {
			assert.Equal(t, moved(b, a, 2, 3), e.Moved.Active)
			assert.Len(t, e.Moved.StandbysLost, 4)
		}},
		{5, 4, "a-killed", session, MemberRemoved, a, func(t *testing.T, e Entry) {
			assert.Equal(t, moved(a, "", 0, 1, 2, 3), e.Moved.Active)
			assert.False(t, e.Converged, "no member left to converge")
		}},
		{6, 5, "s-started", 0, MemberJoined, s1, func(t *testing.T, e Entry) {
			assert.Equal(t, "hy-static-1", e.Causes[0].Member.InstanceID)
		}},
		{7, 6, "s-restarted", 0, MemberRejoined, s2, func(t *testing.T, e Entry) {
			c := e.Causes[0]
			assert.Equal(t, "a_UENbdPSG6h4YXiHx9GKg", c.PreviousMemberID)
			assert.Equal(t, "pmqWqxnGR32Eq52xUOBK1Q", c.Member.MemberID)
			assert.Equal(t, "hy-static-1", c.Member.InstanceID)
			assert.Equal(t, []string{"endpoint", "process", "client_id"}, c.Changed)
			// A new process id at each start: every task moves.
			assert.Equal(t, moved(s1, s2, 0, 1, 2, 3), e.Moved.Active)
		}},
		{8, 7, "config-changed", 0, ConfigsChanged, "", func(t *testing.T, e Entry) {
			assert.Equal(t, []ConfigChange{{Key: "num.standby.replicas", Old: "1", New: "2", OldSet: true, NewSet: true}}, e.Causes[0].Configs)
			assert.True(t, e.Assigned)
			assert.True(t, e.Moved.Empty(), "one member: no standby to place")
		}},
		{9, 8, "partitions-increased", 0, PartitionsChanged, "", func(t *testing.T, e Entry) {
			assert.Equal(t, moved("", s2, 4, 5), e.Moved.Active)
		}},
		{10, 9, "s-stopped", session, MemberRemoved, s2, func(t *testing.T, e Entry) {
			assert.Equal(t, ReasonSessionExpired, e.Causes[0].Reason)
		}},
	}
	require.Len(t, res.Entries, len(wants))
	for i, w := range wants {
		e := res.Entries[i]
		assert.Equal(t, w.epoch, e.GroupEpoch, "entry %d", i)
		assert.Equal(t, w.prev, e.PreviousEpoch, "entry %d", i)
		at := st[w.step].Add(w.after)
		assert.WithinDuration(t, at, e.Time, 2*time.Second, "epoch %d: %s at %s", w.epoch, w.step, at)
		require.Len(t, e.Causes, 1, "epoch %d: %+v", w.epoch, e.Causes)
		assert.Equal(t, w.kind, e.Causes[0].Kind, "epoch %d", w.epoch)
		if w.process != "" {
			assert.Equal(t, w.process, e.Causes[0].Member.ProcessID, "epoch %d", w.epoch)
		}
		t.Run(string(w.kind), func(t *testing.T) { w.detail(t, e) })
	}
	assert.True(t, res.CompleteFromStart)
	assert.Equal(t, Stats{End: 84, Next: 84, Bytes: res.Stats.Bytes, Records: 83, GroupRecords: 64, Tombstones: 15}, res.Stats)
	assert.Zero(t, res.Epoch, "the group was deleted at the end")
}

// The rich capture: the first epoch assigns nothing (the internal topics
// do not exist yet), the next one, whose only cause in the records is the
// metadata hash, assigns the four tasks with their standbys (F708).
func TestTimeline_real440rich(t *testing.T) {
	res, err := Run(context.Background(), &fakeClient{recs: realLog(t, "rich.jsonl")}, Options{Group: "hr-app"})
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(res.Entries), 3)
	assert.Equal(t, MemberJoined, res.Entries[0].Causes[0].Kind)
	assert.True(t, res.Entries[0].Moved.Empty())
	assert.Equal(t, []CauseKind{PartitionsChanged}, kinds(res.Entries[1]))
	assert.Len(t, res.Entries[1].Moved.Active, 4)
	assert.Equal(t, MemberJoined, res.Entries[2].Causes[0].Kind)
}

func kinds(e Entry) []CauseKind {
	var out []CauseKind
	for _, c := range e.Causes {
		out = append(out, c.Kind)
	}
	return out
}
