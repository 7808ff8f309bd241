//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/stretchr/testify/require"
)

// The kstreams-groups upgrade verbs as the scenarios call them (issue 33): `upgrade plan`,
// `upgrade apply` and `upgrade verify`. Their exit codes and JSON fields are in this file only.

// The exit codes of the upgrade verbs (cmd/kstreams-groups/upgrade*.go).
const (
	upPlanAccepted  = 0 // nothing to migrate: the broker accepts NEW as is
	upPlanMigration = 1 // migration possible
	upPlanBlocked   = 3 // migration blocked, each blocker named

	upApplyDone        = 0 // the group is an Empty classic group holding exactly the export
	upApplyRefused     = 1 // a precondition does not hold; nothing changed
	upApplyInterrupted = 3 // stopped part-way (or the id taken): the state left is named
	upApplyNothing     = 4 // the broker accepts NEW as is

	upVerifyOK     = 0 // a Stable streams group on NEW's topology, no offset moved backwards
	upVerifyFailed = 3 // another topology, an offset moved backwards, another kind of group
)

// upRun is one run of ours: stdout, stderr, exit code.
type upRun = ToolResult

// ours runs kstreams-groups against the scenario's broker and logs the call, its exit code and
// its time.
func (s *upScenario) ours(args ...string) upRun {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	r := RunOurs(ctx, s.bin, append([]string{"--bootstrap-server", s.b.Addr}, args...)...)
	logf("%s: kstreams-groups %s: exit %d in %s", s.app, strings.Join(args, " "), r.ExitCode, r.Duration.Round(time.Millisecond))
	return r
}

// upPlanDoc is the part of `upgrade plan -o json` the scenarios read.
type upPlanDoc struct {
	Verdict string `json:"verdict"`
	Offsets []struct {
		Topic     string `json:"topic"`
		Partition int32  `json:"partition"`
		Offset    int64  `json:"offset"`
		Kind      string `json:"kind"`
	} `json:"offsets"`
	Stores []struct {
		Name             string `json:"name"`
		NewName          string `json:"new_name"`
		Fate             string `json:"fate"`
		StartsEmpty      bool   `json:"starts_empty"`
		ChangelogRecords *int64 `json:"changelog_records"`
	} `json:"stores"`
	Repartitions []struct {
		Topic    string `json:"topic"`
		NewTopic string `json:"new_topic"`
		Fate     string `json:"fate"`
		Drained  *bool  `json:"drained"`
		InFlight int64  `json:"in_flight"`
	} `json:"repartitions"`
	NewSources []struct {
		Topic string `json:"topic"`
	} `json:"new_sources"`
	Blockers []struct {
		Kind    string `json:"kind"`
		Subject string `json:"subject"`
	} `json:"blockers"`
}

// offsets is the plan's offsets as "topic-partition" -> offset.
func (d upPlanDoc) offsets() map[string]int64 {
	m := map[string]int64{}
	for _, o := range d.Offsets {
		m[fmt.Sprintf("%s-%d", o.Topic, o.Partition)] = o.Offset
	}
	return m
}

// plan runs `upgrade plan --group G NEW`, in text (logged) and -o json, and checks both exit
// codes against want.
func (s *upScenario) plan(version string, wantExit int) (upPlanDoc, upRun) {
	s.t.Helper()
	text := s.ours("upgrade", "plan", "--group", s.app, s.text(version))
	logf("%s: upgrade plan %s:\n%s%s", s.app, version, text.Stdout, text.Stderr)
	require.Equal(s.t, wantExit, text.ExitCode, "upgrade plan %s\nstdout: %s\nstderr: %s", version, text.Stdout, text.Stderr)
	r := s.ours("upgrade", "plan", "--group", s.app, s.text(version), "-o", "json")
	require.Equal(s.t, wantExit, r.ExitCode, "upgrade plan %s -o json\nstdout: %s\nstderr: %s", version, r.Stdout, r.Stderr)
	var doc upPlanDoc
	require.NoError(s.t, json.Unmarshal([]byte(r.Stdout), &doc), "upgrade plan -o json: %s", r.Stdout)
	return doc, text
}

// upApplyDoc is the part of `upgrade apply -o json` the scenarios read.
type upApplyDoc struct {
	Outcome  string   `json:"outcome"`
	Refusals []string `json:"refusals"`
	Steps    []struct {
		Step    string `json:"step"`
		Done    bool   `json:"done"`
		Earlier bool   `json:"earlier"`
	} `json:"steps"`
	Stopped string `json:"stopped"`
}

// done is the steps done, in order.
func (d upApplyDoc) done() []string {
	var out []string
	for _, st := range d.Steps {
		if st.Done {
			out = append(out, st.Step)
		}
	}
	return out
}

// earlier is the steps a resume found done by an earlier run, in order.
func (d upApplyDoc) earlier() []string {
	var out []string
	for _, st := range d.Steps {
		if st.Earlier {
			out = append(out, st.Step)
		}
	}
	return out
}

// upVerifyDoc is the part of `upgrade verify -o json` the scenarios read.
type upVerifyDoc struct {
	Outcome     string `json:"outcome"`
	Type        string `json:"type"`
	State       string `json:"state"`
	Reason      string `json:"reason"`
	OldTopology bool   `json:"old_topology"`
	Checked     int    `json:"checked"`
	Backwards   []struct {
		Topic     string `json:"topic"`
		Partition int32  `json:"partition"`
		Exported  int64  `json:"exported"`
		Committed *int64 `json:"committed"`
	} `json:"backwards"`
	StaleOffsets []struct {
		Topic     string `json:"topic"`
		Partition int32  `json:"partition"`
	} `json:"stale_offsets"`
	OldTopics []string `json:"old_topics"`
	Asks      int      `json:"asks"`
}

// exportFile is where the scenario's apply exports the offsets.
func (s *upScenario) exportFile() string { return filepath.Join(s.dir, "export.csv") }

// apply runs `upgrade apply --group G NEW --execute --export FILE -o json` with extra flags
// and checks its exit code against want.
func (s *upScenario) apply(version string, wantExit int, extra ...string) upApplyDoc {
	s.t.Helper()
	args := append([]string{"upgrade", "apply", "--group", s.app, s.text(version), "--execute", "--export", s.exportFile(), "-o", "json"}, extra...)
	r := s.ours(args...)
	require.Equal(s.t, wantExit, r.ExitCode, "upgrade apply %s\nstdout: %s\nstderr: %s", version, r.Stdout, r.Stderr)
	var doc upApplyDoc
	require.NoError(s.t, json.Unmarshal([]byte(r.Stdout), &doc), "upgrade apply -o json: %s", r.Stdout)
	logf("%s: upgrade apply %s: %s, steps done %v, refusals %q, stopped %q", s.app, version, doc.Outcome, doc.done(), doc.Refusals, doc.Stopped)
	return doc
}

// resume runs `upgrade apply --resume FILE -o json` and checks its exit code against want.
func (s *upScenario) resume(wantExit int) upApplyDoc {
	s.t.Helper()
	r := s.ours("upgrade", "apply", "--resume", s.exportFile(), "-o", "json")
	require.Equal(s.t, wantExit, r.ExitCode, "upgrade apply --resume\nstdout: %s\nstderr: %s", r.Stdout, r.Stderr)
	var doc upApplyDoc
	require.NoError(s.t, json.Unmarshal([]byte(r.Stdout), &doc), "upgrade apply --resume -o json: %s", r.Stdout)
	logf("%s: upgrade apply --resume: %s, steps done %v, stopped %q", s.app, doc.Outcome, doc.done(), doc.Stopped)
	return doc
}

// deleteByHand deletes the group after a finished apply: the cluster is then as an apply that
// stopped right after its delete step leaves it (the group and its offsets gone, the offsets
// only in the export file), which `apply --resume` reads from the cluster.
func (s *upScenario) deleteByHand() {
	s.t.Helper()
	resp, err := s.b.DeleteGroupsRaw(context.Background(), 3, s.app)
	require.NoError(s.t, err)
	require.Equal(s.t, int16(0), resp.Groups[0].ErrorCode)
	require.Empty(s.t, s.committed())
}

// verify runs `upgrade verify --group G NEW --export FILE --wait D -o json`.
func (s *upScenario) verify(version string, wait time.Duration) (upVerifyDoc, upRun) {
	s.t.Helper()
	r := s.ours("upgrade", "verify", "--group", s.app, s.text(version), "--export", s.exportFile(), "--wait", wait.String(), "-o", "json")
	var doc upVerifyDoc
	require.NoError(s.t, json.Unmarshal([]byte(r.Stdout), &doc), "upgrade verify -o json: exit %d\nstdout: %s\nstderr: %s", r.ExitCode, r.Stdout, r.Stderr)
	var back []string
	for _, o := range doc.Backwards {
		got := "none"
		if o.Committed != nil {
			got = strconv.FormatInt(*o.Committed, 10)
		}
		back = append(back, fmt.Sprintf("%s-%d exported %d committed %s", o.Topic, o.Partition, o.Exported, got))
	}
	logf("%s: upgrade verify %s: exit %d, %s after %d asks (%s, %s): %s; backwards %v", s.app, version, r.ExitCode, doc.Outcome, doc.Asks, doc.Type, doc.State, doc.Reason, back)
	return doc, r
}

// exported reads the export file: the reset-offsets CSV form, one group,topic,partition,offset
// line per offset (quoted as Kafka's tool quotes: a value over 24 characters, among others), as
// "topic-partition" -> offset.
func (s *upScenario) exported() map[string]int64 {
	s.t.Helper()
	data, err := os.ReadFile(s.exportFile())
	require.NoError(s.t, err)
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	require.NoError(s.t, err, "%s", data)
	out := map[string]int64{}
	for _, f := range rows {
		require.Len(s.t, f, 4, "export line %q", f)
		require.Equal(s.t, s.app, f[0])
		off, err := strconv.ParseInt(f[3], 10, 64)
		require.NoError(s.t, err, "export line %q", f)
		out[f[1]+"-"+f[2]] = off
	}
	return out
}

// streamsGroup is the group's state and changelog topics as StreamsGroupDescribe gives them;
// ok is false when the broker says it is not a streams group (or there is none).
func (s *upScenario) streamsGroup() (state string, changelogs []string, members int, ok bool) {
	s.t.Helper()
	g, err := s.b.DescribeStreamsGroup(context.Background(), s.app, false)
	require.NoError(s.t, err)
	if g.ErrorCode != 0 {
		return "", nil, 0, false
	}
	if g.Topology != nil {
		for _, st := range g.Topology.Subtopologies {
			for _, c := range st.StateChangelogTopics {
				changelogs = append(changelogs, c.Topic)
			}
		}
	}
	return g.State, changelogs, len(g.Members), true
}
