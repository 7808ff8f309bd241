//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/stretchr/testify/require"
)

// The kstreams-groups upgrade verbs as the scenarios call them (issue 33): `upgrade plan`,
// `upgrade apply` and `upgrade verify`. Their exit codes and JSON fields are in this file only.

// The exit codes of `upgrade plan` that a CI step reads.
const (
	upPlanAccepted  = 0 // nothing to migrate: the broker accepts NEW as is
	upPlanMigration = 1 // migration possible
	upPlanBlocked   = 3 // migration blocked, each blocker named
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
}

// plan runs `upgrade plan --group G NEW -o json` and checks its exit code against want.
func (s *upScenario) plan(version string, wantExit int) (upPlanDoc, upRun) {
	s.t.Helper()
	r := s.ours("upgrade", "plan", "--group", s.app, s.text(version), "-o", "json")
	require.Equal(s.t, wantExit, r.ExitCode, "upgrade plan %s\nstdout: %s\nstderr: %s", version, r.Stdout, r.Stderr)
	var doc upPlanDoc
	require.NoError(s.t, json.Unmarshal([]byte(r.Stdout), &doc), "upgrade plan -o json: %s", r.Stdout)
	text := s.ours("upgrade", "plan", "--group", s.app, s.text(version))
	require.Equal(s.t, wantExit, text.ExitCode, "text: %s", text.Stderr)
	logf("%s: upgrade plan %s:\n%s", s.app, version, text.Stdout)
	return doc, text
}

// exportFile is where the scenario's apply exports the offsets.
func (s *upScenario) exportFile() string { return filepath.Join(s.dir, "export.csv") }

// apply runs `upgrade apply --group G NEW --execute --export FILE` with extra flags.
func (s *upScenario) apply(version string, extra ...string) upRun {
	s.t.Helper()
	args := append([]string{"upgrade", "apply", "--group", s.app, s.text(version), "--execute", "--export", s.exportFile()}, extra...)
	r := s.ours(args...)
	logf("%s: upgrade apply %s: exit %d\nstdout:\n%s\nstderr:\n%s", s.app, version, r.ExitCode, r.Stdout, r.Stderr)
	return r
}

// verify runs `upgrade verify --group G NEW --wait D`.
func (s *upScenario) verify(version string, wait time.Duration) upRun {
	s.t.Helper()
	r := s.ours("upgrade", "verify", "--group", s.app, s.text(version), "--wait", wait.String())
	logf("%s: upgrade verify %s: exit %d\nstdout:\n%s\nstderr:\n%s", s.app, version, r.ExitCode, r.Stdout, r.Stderr)
	return r
}

// exported reads the export file: the reset-offsets CSV form, one topic,partition,offset line
// per offset (a leading group column when there is one), as "topic-partition" -> offset.
func (s *upScenario) exported() map[string]int64 {
	s.t.Helper()
	data, err := os.ReadFile(s.exportFile())
	require.NoError(s.t, err)
	out := map[string]int64{}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Split(strings.TrimSpace(line), ",")
		if len(f) < 3 {
			continue
		}
		f = f[len(f)-3:]
		var off int64
		_, err := fmt.Sscan(f[2], &off)
		require.NoError(s.t, err, "export line %q", line)
		out[f[0]+"-"+f[1]] = off
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
