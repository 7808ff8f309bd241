package doctor

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/kstreams-groups/kstreams-groups/internal/history"
)

func TestRebalanceFindings(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	a := &history.Member{MemberID: "m1", ProcessID: "p-a", Host: "/10.0.0.1"}
	b := &history.Member{MemberID: "m2", ProcessID: "p-b", Host: "/10.0.0.2"}
	static := func(id, process string) *history.Member {
		return &history.Member{MemberID: id + "-" + process, ProcessID: process, InstanceID: id}
	}
	entry := func(ago time.Duration, epoch int32, cs ...history.Cause) history.Entry {
		return history.Entry{Time: now.Add(-ago), GroupEpoch: epoch, PreviousEpoch: epoch - 1, Causes: cs}
	}
	// flapping is n rebalances in the last hour, a joining and leaving
	// (each twice as often as b).
	flapping := func(n int) []history.Entry {
		var out []history.Entry
		for i := range n {
			m := a
			if i%3 == 2 {
				m = b
			}
			kind := history.MemberJoined
			if i%2 == 1 {
				kind = history.MemberRemoved
			}
			out = append(out, entry(time.Duration(n-i)*time.Minute, int32(10+i), history.Cause{Kind: kind, Member: m}))
		}
		return out
	}
	tests := []struct {
		name  string
		res   *history.Result
		storm int
		want  []string
	}{
		{name: "no rebalance", res: &history.Result{CompleteFrom: now.Add(-3 * time.Hour)},
			want: []string{"ok: no rebalance since 2026-12-01 07:00:00 UTC (the oldest record of the group's history that __consumer_offsets still holds)"}},
		{name: "the last one and its causes", res: &history.Result{Entries: []history.Entry{
			entry(2*time.Hour, 5, history.Cause{Kind: history.MemberJoined, Member: a}),
			entry(90*time.Second, 6, history.Cause{Kind: history.MemberRemoved, Member: b, Reason: history.ReasonSessionExpired},
				history.Cause{Kind: history.ConfigsChanged, Configs: []history.ConfigChange{{Key: "num.standby.replicas", Old: "0", New: "1", OldSet: true, NewSet: true}}}),
		}},
			want: []string{"info: last rebalance at 2026-12-01 09:58:30 UTC (epoch 6, 1m30s ago): member-removed (process p-b, host /10.0.0.2, session-expired); configs-changed (num.standby.replicas 0 -> 1)"}},
		{name: "a storm names who caused most", res: &history.Result{Entries: flapping(12)},
			want: []string{"info: last rebalance at 2026-12-01 09:59:00 UTC (epoch 21, 1m0s ago): member-removed (process p-b, host /10.0.0.2)",
				"warning: 12 rebalances in the last hour, more than 10 (a rebalance storm): process p-a, host /10.0.0.1 caused most of them (8)"}},
		{name: "at the threshold: no storm", res: &history.Result{Entries: flapping(10)},
			want: []string{"info: last rebalance at 2026-12-01 09:59:00 UTC (epoch 19, 1m0s ago): member-removed (process p-a, host /10.0.0.1)"}},
		{name: "a lower threshold", res: &history.Result{Entries: flapping(4)}, storm: 3,
			want: []string{"info: last rebalance at 2026-12-01 09:59:00 UTC (epoch 13, 1m0s ago): member-removed (process p-a, host /10.0.0.1)",
				"warning: 4 rebalances in the last hour, more than 3 (a rebalance storm): process p-a, host /10.0.0.1 caused most of them (3)"}},
		{name: "older rebalances are no storm", res: &history.Result{Entries: hoursBefore(flapping(12), 2)},
			want: []string{"info: last rebalance at 2026-12-01 07:59:00 UTC (epoch 21, 2h1m0s ago): member-removed (process p-b, host /10.0.0.2)"}},
		{name: "a static member with a new process at every rejoin", res: &history.Result{Entries: []history.Entry{
			entry(50*time.Minute, 5, history.Cause{Kind: history.MemberJoined, Member: static("app-1", "p1")}),
			entry(40*time.Minute, 6, history.Cause{Kind: history.MemberRejoined, Member: static("app-1", "p2")}),
			entry(30*time.Minute, 7, history.Cause{Kind: history.MemberRejoined, Member: static("app-1", "p3")}),
			entry(20*time.Minute, 8, history.Cause{Kind: history.MemberRejoined, Member: static("app-2", "q1")}),
			entry(10*time.Minute, 9, history.Cause{Kind: history.MemberRejoined, Member: static("app-2", "q1")}),
		}},
			want: []string{"info: last rebalance at 2026-12-01 09:50:00 UTC (epoch 9, 10m0s ago): member-rejoined (instance app-2, process q1)",
				"warning: 1 static member came back with a new process id at every rejoin: the assignor places tasks by process, so they lose their placement each time: app-1 (2 rejoins)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := &Group{Group: "app"}
			rebalanceFindings(g, tc.res, Options{Now: func() time.Time { return now }, StormThreshold: tc.storm})
			assert.Equal(t, tc.want, findings(g, CheckRebalances, CheckStatic))
			for _, f := range g.Findings {
				if f.Severity.Wrong() {
					assert.NotEmpty(t, f.Hint, f.Message)
				}
			}
		})
	}
}

// hoursBefore is entries moved n hours back.
func hoursBefore(entries []history.Entry, n int) []history.Entry {
	for i := range entries {
		entries[i].Time = entries[i].Time.Add(-time.Duration(n) * time.Hour)
	}
	return entries
}
