//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// histDoc is the part of `history -o json` the e2e test reads (internal/format's
// GroupHistoryDoc).
type histDoc struct {
	Group   string `json:"group"`
	Entries []struct {
		Time          string `json:"time"`
		GroupEpoch    int32  `json:"group_epoch"`
		PreviousEpoch int32  `json:"previous_epoch"`
		Causes        []struct {
			Cause  string `json:"cause"`
			Member *struct {
				MemberID   string  `json:"member_id"`
				ProcessID  string  `json:"process_id"`
				InstanceID *string `json:"instance_id"`
			} `json:"member"`
			PreviousMemberID string `json:"previous_member_id"`
			Reason           string `json:"reason"`
			Configs          []struct {
				Key string  `json:"key"`
				Old *string `json:"old"`
				New *string `json:"new"`
			} `json:"configs"`
		} `json:"causes"`
		Moved *struct {
			Active []struct {
				Task string  `json:"task"`
				From *string `json:"from"`
				To   *string `json:"to"`
			} `json:"active"`
			StandbysPlaced []histPlacement `json:"standbys_placed"`
			StandbysLost   []histPlacement `json:"standbys_lost"`
			WarmupsStarted []histPlacement `json:"warmups_started"`
		} `json:"moved"`
	} `json:"entries"`
}

type histPlacement struct {
	Task    string `json:"task"`
	Process string `json:"process"`
}

// histWant is one rebalance the lifecycle must show: the step that caused it, how long after
// the step's recorded time the coordinator writes it, its causes (kinds, any order; extra
// lists kinds it may also carry) and the member they name (a key of the members map).
type histWant struct {
	step   string
	delay  time.Duration
	causes []string
	extra  []string
	member string
	moved  func(t *testing.T, active map[string][2]string, placed, lost []histPlacement)
}

// checkHistoryJSON runs `history --group hy-app -o json` after the lifecycle's last step
// (partitions increased) and checks it lists exactly one entry per step, in order, with the
// causes, members and config keys of that step, each within 2 s of the step's recorded time
// (the bound), and the tasks that moved.
func checkHistoryJSON(t *testing.T, b *Broker, steps []histStep, members map[string]histMember) {
	doc := runHistoryJSON(t, b)

	proc := func(name string) string { return members[name].ProcessID }
	tasks := func(ids ...int) []string {
		out := make([]string, len(ids))
		for i, p := range ids {
			out[i] = fmt.Sprintf("0_%d", p)
		}
		return out
	}
	session := 10 * time.Second // group.streams.session.timeout.ms of the harness broker
	want := []histWant{
		{step: "a-started", causes: []string{"member-joined"}, member: "a",
			moved: func(t *testing.T, active map[string][2]string, placed, lost []histPlacement) {
				assert.Equal(t, movesOf(tasks(0, 1, 2, 3), "", proc("a")), active)
			}},
		{step: "b-started", causes: []string{"member-joined"}, member: "b",
			moved: func(t *testing.T, active map[string][2]string, placed, lost []histPlacement) {
				// Two of a's four tasks go to b; each task gets a standby on the other process.
				assert.Len(t, active, 2)
				for task, m := range active {
					assert.Equal(t, [2]string{proc("a"), proc("b")}, m, task)
				}
				assert.Len(t, placed, 4)
				assert.Empty(t, lost)
			}},
		{step: "b-stopped", causes: []string{"member-removed"}, member: "b",
			moved: func(t *testing.T, active map[string][2]string, placed, lost []histPlacement) {
				assert.Len(t, active, 2)
				for task, m := range active {
					assert.Equal(t, [2]string{proc("b"), proc("a")}, m, task)
				}
				assert.Len(t, lost, 4, "every standby is lost with one process left")
			}},
		{step: "a-killed", delay: session, causes: []string{"member-removed"}, member: "a",
			moved: func(t *testing.T, active map[string][2]string, placed, lost []histPlacement) {
				assert.Equal(t, movesOf(tasks(0, 1, 2, 3), proc("a"), ""), active)
			}},
		{step: "s-started", causes: []string{"member-joined"}, member: "s",
			moved: func(t *testing.T, active map[string][2]string, placed, lost []histPlacement) {
				assert.Equal(t, movesOf(tasks(0, 1, 2, 3), "", proc("s")), active)
			}},
		// The rejoined member's metadata differs from the one it replaces (a new process id:
		// an in-memory store keeps none in the state directory, F705), so member-changed may
		// come with it; member-joined may not.
		{step: "s-restarted", causes: []string{"member-rejoined"}, extra: []string{"member-changed"}, member: "s2",
			moved: func(t *testing.T, active map[string][2]string, placed, lost []histPlacement) {
				for task, m := range active {
					assert.Equal(t, proc("s2"), m[1], task)
				}
			}},
		{step: "config-changed", causes: []string{"configs-changed"},
			moved: func(t *testing.T, active map[string][2]string, placed, lost []histPlacement) {
				assert.Empty(t, active, "one member: a second standby has nowhere to go")
				assert.Empty(t, placed)
			}},
		{step: "partitions-increased", causes: []string{"partitions-changed"},
			moved: func(t *testing.T, active map[string][2]string, placed, lost []histPlacement) {
				assert.Equal(t, movesOf(tasks(4, 5), "", proc("s2")), active)
			}},
	}
	at := map[string]time.Time{}
	for _, s := range steps {
		at[s.Step] = time.UnixMilli(s.TimeMs)
	}

	var got []string
	for _, e := range doc.Entries {
		var kinds []string
		for _, c := range e.Causes {
			kinds = append(kinds, c.Cause)
		}
		got = append(got, fmt.Sprintf("%s epoch %d->%d %v", e.Time, e.PreviousEpoch, e.GroupEpoch, kinds))
	}
	logf("TestHistory: history lists:\n  %s", strings.Join(got, "\n  "))
	require.Len(t, doc.Entries, len(want), "one entry per step and nothing else:\n%s", strings.Join(got, "\n"))

	// The text a person reads: the same entries, one heading each, the causes by name.
	r := RunOursOn(t, OurBinary(t), b, "history", "--group", histGroup)
	require.Equal(t, 0, r.ExitCode, r.Stderr)
	logf("TestHistory: history (text):\n%s", r.Stdout)
	assert.Len(t, historyHeading.FindAllString(r.Stdout, -1), len(want), r.Stdout)
	for _, c := range []string{"member-joined", "member-removed", "member-rejoined", "configs-changed", "partitions-changed"} {
		assert.Contains(t, r.Stdout, "  "+c+" ", r.Stdout)
	}

	prev := int32(0)
	for i, w := range want {
		e := doc.Entries[i]
		t.Run(fmt.Sprintf("%d %s", i+1, w.step), func(t *testing.T) {
			assert.Greater(t, e.GroupEpoch, prev, "epochs rise")
			assert.Equal(t, prev, e.PreviousEpoch)
			when, err := time.Parse(time.RFC3339Nano, e.Time)
			require.NoError(t, err)
			expect := at[w.step].Add(w.delay)
			assert.WithinDuration(t, expect, when, 2*time.Second, "entry %s, step %s at %s + %s", e.Time, w.step, at[w.step].UTC().Format(time.RFC3339Nano), w.delay)
			logf("TestHistory: %s: entry %s after the step's time + %s", w.step, when.Sub(expect).Round(time.Millisecond), w.delay)

			var kinds []string
			for _, c := range e.Causes {
				kinds = append(kinds, c.Cause)
				assert.True(t, slices.Contains(w.causes, c.Cause) || slices.Contains(w.extra, c.Cause), "unexpected cause %s", c.Cause)
				if w.member != "" {
					m := members[w.member]
					if assert.NotNil(t, c.Member, "%s names no member", c.Cause) {
						assert.Equal(t, m.MemberID, c.Member.MemberID, c.Cause)
						assert.Equal(t, m.ProcessID, c.Member.ProcessID, c.Cause)
						if m.InstanceID != "" && assert.NotNil(t, c.Member.InstanceID) {
							assert.Equal(t, m.InstanceID, *c.Member.InstanceID)
						}
					}
				}
				if c.Cause == "member-rejoined" {
					assert.Equal(t, members["s"].MemberID, c.PreviousMemberID, "the static member's former member id")
				}
				if c.Cause == "configs-changed" && assert.Len(t, c.Configs, 1) {
					k := c.Configs[0]
					// The record names the broker's key without the streams. prefix (F701).
					assert.True(t, strings.HasSuffix(k.Key, "num.standby.replicas"), k.Key)
					if assert.NotNil(t, k.Old) && assert.NotNil(t, k.New) {
						assert.Equal(t, "1", *k.Old)
						assert.Equal(t, "2", *k.New)
					}
				}
			}
			for _, c := range w.causes {
				assert.Contains(t, kinds, c)
			}
			if assert.NotNil(t, e.Moved, "the target assignment of each epoch is in the log") {
				active := map[string][2]string{}
				for _, m := range e.Moved.Active {
					active[m.Task] = [2]string{deref(m.From), deref(m.To)}
				}
				w.moved(t, active, e.Moved.StandbysPlaced, e.Moved.StandbysLost)
				assert.Empty(t, e.Moved.WarmupsStarted, "a 4.4.0 broker assigns no warm-up here (F707)")
			}
		})
		prev = e.GroupEpoch
	}
}

// runHistoryJSON runs `history --group hy-app -o json` and decodes its document.
func runHistoryJSON(t *testing.T, b *Broker) histDoc {
	t.Helper()
	r := RunOursOn(t, OurBinary(t), b, "history", "--group", histGroup, "-o", "json")
	require.Equal(t, 0, r.ExitCode, "stderr: %s\nstdout: %s", r.Stderr, r.Stdout)
	var doc histDoc
	require.NoError(t, json.Unmarshal([]byte(r.Stdout), &doc), r.Stdout)
	assert.Equal(t, histGroup, doc.Group)
	return doc
}

// checkStaticExpiry checks the entry after the lifecycle's last one: the static member that
// closed with REMAIN_IN_GROUP (its current assignment at epoch -2) and whose session then
// expired, which the records do tell (F705), unlike a dynamic member's expiry (F704).
func checkStaticExpiry(t *testing.T, b *Broker, stopped time.Time, members map[string]histMember) {
	doc := runHistoryJSON(t, b)
	require.Len(t, doc.Entries, 9, "the eight steps' entries and the expiry")
	e := doc.Entries[8]
	when, err := time.Parse(time.RFC3339Nano, e.Time)
	require.NoError(t, err)
	assert.WithinDuration(t, stopped.Add(10*time.Second), when, 2*time.Second)
	require.Len(t, e.Causes, 1)
	c := e.Causes[0]
	assert.Equal(t, "member-removed", c.Cause)
	assert.Equal(t, "session-expired", c.Reason)
	if assert.NotNil(t, c.Member) {
		assert.Equal(t, members["s2"].MemberID, c.Member.MemberID)
	}
}

// historyHeading is the first line of one entry of history's text.
var historyHeading = regexp.MustCompile(`(?m)^\S+  epoch \d+ -> \d+`)

// movesOf is tasks each moving from one process to another ("" for none).
func movesOf(tasks []string, from, to string) map[string][2]string {
	out := map[string][2]string{}
	sort.Strings(tasks)
	for _, t := range tasks {
		out[t] = [2]string{from, to}
	}
	return out
}

// checkLastRebalance: overview's head and doctor's rebalances finding, read from the same
// records on a real broker, name the last entry of history (its epoch and causes: the
// partitions increased).
func checkLastRebalance(t *testing.T, b *Broker) {
	doc := runHistoryJSON(t, b)
	require.NotEmpty(t, doc.Entries)
	last := doc.Entries[len(doc.Entries)-1]
	var causes []string
	for _, c := range last.Causes {
		if !slices.Contains(causes, c.Cause) {
			causes = append(causes, c.Cause)
		}
	}

	r := RunOursOn(t, OurBinary(t), b, "overview", "--group", histGroup, "--time-lag=false", "-o", "json")
	require.Equal(t, 0, r.ExitCode, r.Stderr)
	var ov struct {
		Groups []struct {
			LastRebalance *struct {
				GroupEpoch int32    `json:"group_epoch"`
				Causes     []string `json:"causes"`
				Error      any      `json:"error"`
			} `json:"last_rebalance"`
		} `json:"groups"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.Stdout), &ov), r.Stdout)
	require.Len(t, ov.Groups, 1)
	lr := ov.Groups[0].LastRebalance
	if assert.NotNil(t, lr, "overview reads the last rebalance") {
		assert.Nil(t, lr.Error)
		assert.Equal(t, last.GroupEpoch, lr.GroupEpoch)
		assert.Equal(t, causes, lr.Causes)
	}
	text := RunOursOn(t, OurBinary(t), b, "overview", "--group", histGroup, "--time-lag=false")
	require.Equal(t, 0, text.ExitCode, text.Stderr)
	assert.Contains(t, text.Stdout, "Rebalanced:", text.Stdout)

	d := RunOursOn(t, OurBinary(t), b, "doctor", "--group", histGroup, "-o", "json")
	var dd struct {
		Groups []struct {
			Findings []struct {
				Check    string `json:"check"`
				Message  string `json:"message"`
				Severity string `json:"severity"`
			} `json:"findings"`
		} `json:"groups"`
	}
	require.NoError(t, json.Unmarshal([]byte(d.Stdout), &dd), "stderr: %s\nstdout: %s", d.Stderr, d.Stdout)
	require.Len(t, dd.Groups, 1)
	var found bool
	for _, f := range dd.Groups[0].Findings {
		if f.Check == "rebalances" {
			found = true
			logf("TestHistory: doctor: %s: %s", f.Severity, f.Message)
			assert.Contains(t, f.Message, fmt.Sprintf("epoch %d", last.GroupEpoch), "doctor names the last rebalance")
			for _, c := range causes {
				assert.Contains(t, f.Message, c, "doctor names the last rebalance's causes")
			}
		}
	}
	assert.True(t, found, "doctor has a rebalances finding: %s", d.Stdout)
}
