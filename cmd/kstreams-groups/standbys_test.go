package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/format/promtest"
	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// standbyCluster is the playground seeded with seed/standbys.yaml: one
// group per standby coverage case.
func standbyCluster(t *testing.T) *playground.Cluster {
	return seededCluster(t, "../../internal/playground/seed/standbys.yaml")
}

// Every coverage case of the seed, as overview shows it.
func TestStandbys_overview(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := standbyCluster(t)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"full, with restoration progress", []string{"--group", "sb-full"}},
		{"too few processes", []string{"--group", "sb-few"}},
		{"co-located by process", []string{"--group", "sb-process"}},
		{"co-located by host", []string{"--group", "sb-host"}},
		{"warm-ups in progress", []string{"--group", "sb-warmup"}},
		{"racks", []string{"--group", "sb-racks"}},
		{"none configured", []string{"--group", "sb-none"}},
		{"json", []string{"--group", "sb-full", "--group", "sb-process", "-o", "json"}},
		{"yaml", []string{"--group", "sb-warmup", "-o", "yaml"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLI(t, append([]string{"--bootstrap-server", bootstrap(c), "overview"}, tc.args...)...)
			require.Equal(t, 0, r.code, r.stderr)
			assert.Empty(t, r.stderr)
			golden.Assert(t, stableOverview(c, r.stdout))
		})
	}
}

// The document's figures for each case.
func TestStandbys_document(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := standbyCluster(t)
	r := runCLI(t, "--bootstrap-server", bootstrap(c), "overview", "--all-groups", "-o", "json")
	require.Equal(t, 0, r.code, r.stderr)
	var doc format.OverviewDoc
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &doc))
	type figures struct {
		configured                       int64
		stateful, without, short, colocs int
		reasons                          []string
	}
	got := map[string]figures{}
	for _, g := range doc.Groups {
		require.Nil(t, g.Error, g.Group)
		cov := g.StandbyCoverage
		require.NotNil(t, cov, g.Group)
		require.NotNil(t, cov.ConfiguredStandbys, g.Group)
		f := figures{configured: *cov.ConfiguredStandbys, stateful: cov.StatefulTasks, without: cov.TasksWithoutStandby, short: cov.TasksShort, colocs: cov.ColocatedStandbys}
		for _, task := range cov.Tasks {
			f.reasons = append(f.reasons, task.Reason)
		}
		got[g.Group] = f
	}
	assert.Equal(t, map[string]figures{
		"sb-full":    {configured: 1, stateful: 2, reasons: []string{"", ""}},
		"sb-few":     {configured: 1, stateful: 2, without: 2, short: 2, reasons: []string{"processes", "processes"}},
		"sb-process": {configured: 1, stateful: 2, without: 2, short: 2, colocs: 2, reasons: []string{"assignor", "assignor"}},
		"sb-host":    {configured: 1, stateful: 2, without: 2, short: 2, colocs: 2, reasons: []string{"hosts", "hosts"}},
		"sb-warmup":  {configured: 1, stateful: 2, without: 2, short: 2, reasons: []string{"warmups", "warmups"}},
		"sb-racks":   {configured: 1, stateful: 2, without: 2, short: 2, reasons: []string{"racks", "racks"}},
		"sb-none":    {configured: 0, stateful: 2, without: 2, reasons: []string{"", ""}},
		"sb-session": {configured: 1, stateful: 2, reasons: []string{"", ""}},
	}, got)
}

func TestStandbys_check(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := standbyCluster(t)
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"full coverage is OK", []string{"--group", "sb-full", "--min-standbys", "1", "--require-configured-standbys"}, 0},
		{"too few processes is a warning", []string{"--group", "sb-few", "--min-standbys", "1"}, 1},
		{"too few processes, critical", []string{"--group", "sb-few", "--min-standbys", "1", "--standbys-critical"}, 2},
		{"above the full coverage is a warning", []string{"--group", "sb-full", "--min-standbys", "2"}, 1},
		{"co-located standbys do not count", []string{"--group", "sb-host", "--require-configured-standbys", "-v"}, 1},
		{"none configured meets the configured number", []string{"--group", "sb-none", "--require-configured-standbys"}, 0},
		{"min-standbys 0 is always met", []string{"--group", "sb-none", "--min-standbys", "0"}, 0},
		{"several groups", []string{"--group", "sb-full", "--group", "sb-warmup", "--group", "sb-process", "--min-standbys", "1"}, 1},
		{"json", []string{"--group", "sb-few", "--min-standbys", "1", "-o", "json"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLI(t, append([]string{"--bootstrap-server", bootstrap(c), "check"}, tc.args...)...)
			assert.Equal(t, tc.code, r.code, r.stdout+r.stderr)
			golden.Assert(t, stableOverview(c, r.stdout))
		})
	}
	t.Run("the configured number cannot be read: UNKNOWN", func(t *testing.T) {
		u := standbyCluster(t)
		msg := "Not authorized."
		u.InjectError(playground.Fault{Key: 32, ErrorCode: 30, ErrorMessage: &msg, Node: playground.AnyNode})
		r := runCLI(t, "--bootstrap-server", bootstrap(u), "check", "--group", "sb-full", "--require-configured-standbys")
		assert.Equal(t, 3, r.code, r.stdout)
		assert.Contains(t, r.stdout, "STREAMS UNKNOWN - sb-full UNKNOWN: --require-configured-standbys cannot be checked: ")
		r = runCLI(t, "--bootstrap-server", bootstrap(u), "check", "--group", "sb-full", "--min-standbys", "1")
		assert.Equal(t, 0, r.code, "--min-standbys needs no group config: %s", r.stdout)
	})
	t.Run("--standbys-critical needs --min-standbys", func(t *testing.T) {
		r := runCLI(t, "--bootstrap-server", bootstrap(c), "check", "--group", "sb-full", "--standbys-critical")
		assert.Equal(t, 3, r.code)
		assert.Equal(t, "STREAMS UNKNOWN - --standbys-critical needs --min-standbys N\n", r.stdout)
	})
	t.Run("a bad count", func(t *testing.T) {
		r := runCLI(t, "--bootstrap-server", bootstrap(c), "check", "--group", "sb-full", "--min-standbys", "-1")
		assert.Equal(t, 3, r.code)
		assert.Contains(t, r.stdout, "--min-standbys: want a whole number, 0 or more")
	})
}

func TestStandbys_doctor(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := standbyCluster(t)
	for _, g := range []string{"sb-full", "sb-few", "sb-process", "sb-host", "sb-warmup", "sb-racks", "sb-none", "sb-session"} {
		t.Run(g, func(t *testing.T) {
			r := runCLI(t, "--bootstrap-server", bootstrap(c), "doctor", "--group", g)
			golden.Assert(t, stableOverview(c, r.stdout))
		})
	}
}

func TestStandbys_prometheus(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := standbyCluster(t)
	r := runCLI(t, "--bootstrap-server", bootstrap(c), "overview", "--all-groups", "-o", "prometheus")
	require.Equal(t, 0, r.code, r.stderr)
	fams := promtest.Parse(t, r.stdout)
	assert.InDelta(t, 1, promtest.Value(t, fams, "kstreams_group_standbys_configured", "group", "sb-few"), 0)
	assert.InDelta(t, 2, promtest.Value(t, fams, "kstreams_group_tasks_without_standby", "group", "sb-host"), 0)
	assert.InDelta(t, 2, promtest.Value(t, fams, "kstreams_group_standbys_colocated", "group", "sb-process"), 0)
	var lines []string
	for _, l := range strings.Split(r.stdout, "\n") {
		if strings.Contains(l, "standby") || strings.Contains(l, "stateful") {
			lines = append(lines, l)
		}
	}
	golden.Assert(t, []byte(strings.Join(lines, "\n")+"\n"))
}

// --watch names the standby changes: one instance of sb-full stops, and
// check --min-standbys 1 goes from OK to WARNING with each task's standbys
// 1 -> 0.
func TestStandbys_watch(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := standbyCluster(t)
	var full playground.StreamsGroup
	for _, g := range playgroundSeed(t).StreamsGroups {
		if g.ID == "sb-full" {
			full = g.StreamsGroup
		}
	}
	require.Equal(t, "sb-full", full.ID)
	clk := newFakeClock(func(n int) {
		if n != 1 {
			return
		}
		g := full
		a := g.Members[0]
		a.Assignment = playground.Assignment{Active: map[string][]int32{"0": {0, 1}}}
		a.TargetAssignment = a.Assignment
		g.Members = []playground.Member{a}
		c.PutStreamsGroup(g)
	})
	r := runCLIWith(t, deps{clock: clk}, "--bootstrap-server", bootstrap(c), "check", "--group", "sb-full", "--min-standbys", "1", "--watch", "--count", "2")
	assert.Equal(t, 1, r.code, r.stdout)
	assert.Contains(t, r.stdout, "sample 1\nSTREAMS OK - sb-full: ")
	assert.Contains(t, r.stdout, "sample 2\nchanged: sb-full: check OK -> WARNING\nchanged: sb-full: member full-b left (no client id)\n"+
		"changed: sb-full: task 0_1 moved from full-b to full-a\nchanged: sb-full: task 0_0 standbys 1 -> 0\nchanged: sb-full: task 0_1 standbys 1 -> 0\n")
}

// playgroundSeed reads the standby seed.
func playgroundSeed(t *testing.T) *playground.State {
	t.Helper()
	data, err := os.ReadFile("../../internal/playground/seed/standbys.yaml")
	require.NoError(t, err)
	s, err := playground.ParseState(data)
	require.NoError(t, err)
	return s
}
