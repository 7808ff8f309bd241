package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/format/promtest"
	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// healthState is testdata/health.yaml: a group per condition of check and
// per cause of doctor.
func healthState(t *testing.T) *playground.State {
	t.Helper()
	data, err := os.ReadFile("testdata/health.yaml")
	require.NoError(t, err)
	s, err := playground.ParseState(data)
	require.NoError(t, err)
	return s
}

// healthCluster serves healthState.
func healthCluster(t *testing.T) *playground.Cluster {
	t.Helper()
	c, err := playground.StartStateWith(testPlayground, healthState(t))
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// Every condition of check, OK, WARNING and CRITICAL, against the
// playground: the whole stdout (status line and perfdata bytes) is the
// golden file, the exit code the plugin state, the same with
// --detailed-exit-codes.
func TestCheck_conditions(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := healthCluster(t)
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"state, Stable is OK", []string{"--group", "steady"}, 0},
		{"state, Reconciling is a warning", []string{"--group", "moving"}, 1},
		{"state, expected states", []string{"--group", "moving", "--expect-state", "stable,Reconciling"}, 0},
		{"state, Empty is a warning", []string{"--group", "stopped"}, 1},
		{"state, Empty with min-members is critical", []string{"--group", "stopped", "--min-members", "1"}, 2},
		{"state, Empty expected", []string{"--group", "stopped", "--expect-state", "Empty"}, 0},
		{"state, Dead is critical", []string{"--group", "dead", "--expect-state", "Stable,Reconciling"}, 2},
		{"min-members, equal is OK", []string{"--group", "steady", "--min-members", "2"}, 0},
		{"min-members, fewer is critical", []string{"--group", "steady", "--min-members", "3"}, 2},
		{"lag, equal to the warning is OK", []string{"--group", "steady", "--lag-warning", "40", "--lag-critical", "100"}, 0},
		{"lag, above the warning", []string{"--group", "steady", "--lag-warning", "39", "--lag-critical", "100"}, 1},
		{"lag, equal to the critical is a warning", []string{"--group", "steady", "--lag-warning", "10", "--lag-critical", "40"}, 1},
		{"lag, above the critical", []string{"--group", "steady", "--lag-warning", "10", "--lag-critical", "39"}, 2},
		{"task lag, equal is OK", []string{"--group", "steady", "--task-lag-warning", "30", "--task-lag-critical", "30"}, 0},
		{"task lag, above the warning", []string{"--group", "steady", "--task-lag-warning", "29"}, 1},
		{"task lag, above the critical", []string{"--group", "steady", "--task-lag-warning", "5", "--task-lag-critical", "29"}, 2},
		{"topology, AVAILABLE is OK", []string{"--group", "steady", "--require-topology"}, 0},
		{"topology, NOT_STORED is critical", []string{"--group", "moving", "--expect-state", "Reconciling", "--require-topology"}, 2},
		{"moving, equal is OK", []string{"--group", "moving", "--expect-state", "Reconciling", "--max-moving-tasks", "1"}, 0},
		{"moving, above is a warning", []string{"--group", "moving", "--expect-state", "Reconciling", "--max-moving-tasks", "0"}, 1},
		{"missing group is critical", []string{"--group", "nope"}, 2},
		{"not a streams group is critical", []string{"--group", "legacy"}, 2},
		{"several groups, the worst, verbose", []string{"--group", "steady", "--group", "moving", "--group", "nope", "--lag-warning", "30", "-v"}, 2},
		{"all groups verbose", []string{"--all-groups", "--verbose"}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var first string
			for _, detailed := range []bool{false, true} {
				r := runMode(t, c, detailed, tc.code, tc.code, "", append([]string{"check"}, tc.args...)...)
				status := []string{"OK", "WARNING", "CRITICAL", "UNKNOWN"}[tc.code]
				assert.True(t, strings.HasPrefix(r.stdout, "STREAMS "+status+" - "), r.stdout)
				if first == "" {
					first = r.stdout
				}
				assert.Equal(t, first, r.stdout, "--detailed-exit-codes changes nothing")
			}
			golden.Assert(t, []byte(first))
		})
	}
}

// The status line and perfdata bytes of two cases, spelled out.
func TestCheck_bytes(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := healthCluster(t)
	r := runCLI(t, "--bootstrap-server", bootstrap(c), "check", "--group", "steady", "--lag-warning", "39", "--lag-critical", "100", "--min-members", "2", "--max-moving-tasks", "0")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "STREAMS WARNING - steady WARNING: lag 40 > 39 | 'steady lag'=40;39;100;0 'steady max_task_lag'=30;;;0 'steady members'=2;;2:;0 'steady moving_tasks'=0;0;;0 'steady group_epoch'=5 'steady target_assignment_epoch'=5 'steady topology_epoch'=1 'steady time_lag'=U;;;0\n", r.stdout)
	assert.Empty(t, r.stderr)

	// Without the time lag: no time_lag (the records hold no timestamps
	// here, so it is U by default).
	r = runCLI(t, "--bootstrap-server", bootstrap(c), "check", "--group", "steady", "--time-lag=false")
	assert.Equal(t, 0, r.code)
	assert.Equal(t, "STREAMS OK - steady: Stable, 2 members, lag 40, largest task lag 30 (0_2), 0 tasks moving | 'steady lag'=40;;;0 'steady max_task_lag'=30;;;0 'steady members'=2;;;0 'steady moving_tasks'=0;;;0 'steady group_epoch'=5 'steady target_assignment_epoch'=5 'steady topology_epoch'=1\n", r.stdout)
}

// UNKNOWN (3): usage errors, with a status line on stdout, an unreachable
// cluster, and a broker too old for --require-topology. A 4.3 broker is
// fine for the other conditions.
func TestCheck_unknown(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := healthCluster(t)
	bs := bootstrap(c)
	for _, tc := range []struct {
		name, stdout, stderr string
		args                 []string
	}{
		{"no group", "STREAMS UNKNOWN - check needs --group (repeatable) or --all-groups\n", "check needs --group (repeatable) or --all-groups\n", []string{"--bootstrap-server", bs, "check"}},
		{"unknown flag", "STREAMS UNKNOWN - unknown flag: --lag; did you mean --lag-critical or --lag-warning?\n", "unknown flag: --lag; did you mean --lag-critical or --lag-warning?\n", []string{"--bootstrap-server", bs, "check", "--all-groups", "--lag", "3"}},
		{"bad threshold", "STREAMS UNKNOWN - --lag-critical: want a whole number, 0 or more, got \"-1\"\n", "", []string{"--bootstrap-server", bs, "check", "--all-groups", "--lag-critical", "-1"}},
		{"warning above critical", "STREAMS UNKNOWN - --lag-warning 9 is above --lag-critical 5: the warning threshold must not exceed the critical one\n", "", []string{"--bootstrap-server", bs, "check", "--all-groups", "--lag-warning", "9", "--lag-critical", "5"}},
		{"bad state", "STREAMS UNKNOWN - --expect-state: unknown state \"Running\" (want a comma-separated list of Empty, NotReady, Stable, Assigning, Reconciling, Dead)\n", "", []string{"--bootstrap-server", bs, "check", "--all-groups", "--expect-state", "Running"}},
		{"group and all groups", "STREAMS UNKNOWN - Option \"[group]\" can't be used with option \"[all-groups]\"\n", "", []string{"--bootstrap-server", bs, "check", "--all-groups", "--group", "g"}},
		{"no bootstrap server", "STREAMS UNKNOWN - Missing required argument \"[bootstrap-server]\"\n", "", []string{"check", "--all-groups"}},
		{"bad timeout", "STREAMS UNKNOWN - invalid timeout 0: want a positive number of milliseconds or a duration such as 10s, 500ms or 1m\n", "", []string{"--bootstrap-server", bs, "--timeout", "0", "check", "--all-groups"}},
		{"a drawing", "STREAMS UNKNOWN - -o dot: check prints text, json, yaml or prometheus; -o dot is printed by describe --topology, overview and render\n", "", []string{"--bootstrap-server", bs, "-o", "dot", "check", "--all-groups"}},
		{"watch in json", "{\n  \"status\": \"UNKNOWN\",\n  \"exit_code\": 3,\n  \"groups\": [],\n  \"error\": {\n    \"name\": \"ERROR\",\n    \"message\": \"--watch prints text, not -o json\"\n  }\n}\n", "", []string{"--bootstrap-server", bs, "-o", "json", "check", "--all-groups", "--watch"}},
		{"interval without watch", "STREAMS UNKNOWN - --interval needs --watch\n", "", []string{"--bootstrap-server", bs, "check", "--all-groups", "--interval", "1s"}},
		{"unexpected argument", "STREAMS UNKNOWN - unexpected argument \"steady\"\n", "", []string{"--bootstrap-server", bs, "check", "steady"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, detailed := range []string{"--detailed-exit-codes=false", "--detailed-exit-codes"} {
				r := runCLI(t, append([]string{detailed}, tc.args...)...)
				assert.Equal(t, 3, r.code, r.stderr)
				assert.Equal(t, tc.stdout, r.stdout)
				if tc.stderr != "" {
					assert.Equal(t, tc.stderr+"Run 'kstreams-groups check --help' for usage.\n", r.stderr)
				}
			}
		})
	}
	t.Run("in the -o format", func(t *testing.T) {
		r := runCLI(t, "--bootstrap-server", bs, "-o", "prometheus", "check", "--all-groups", "--lag-critical", "-1")
		assert.Equal(t, 3, r.code)
		fams := promtest.Parse(t, r.stdout)
		assert.EqualValues(t, 3, promtest.Value(t, fams, "kstreams_check_status"), "a textfile collector reads UNKNOWN, not a status line")
		assert.Equal(t, "--lag-critical: want a whole number, 0 or more, got \"-1\"\nRun 'kstreams-groups check --help' for usage.\n", r.stderr)
		r = runCLI(t, "--bootstrap-server", bs, "-o", "json", "check")
		assert.Equal(t, 3, r.code)
		var doc struct {
			Status string `json:"status"`
			Error  struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &doc), r.stdout)
		assert.Equal(t, "UNKNOWN", doc.Status)
		assert.Equal(t, "check needs --group (repeatable) or --all-groups", doc.Error.Message)
		r = runCLI(t, "--bootstrap-server", bs, "-o", "xml", "check", "--all-groups")
		assert.Equal(t, 3, r.code)
		assert.True(t, strings.HasPrefix(r.stdout, "STREAMS UNKNOWN - unknown output format"), "an unknown -o: the status line")
	})
	t.Run("other verbs keep exit 2", func(t *testing.T) {
		r := runCLI(t, "--bootstrap-server", bs, "overview", "--lag", "3")
		assert.Equal(t, 2, r.code)
		assert.Empty(t, r.stdout)
	})
	t.Run("unreachable cluster", func(t *testing.T) {
		for _, args := range [][]string{{"--group", "steady"}, {"--all-groups"}} {
			r := runCLI(t, append([]string{"--bootstrap-server", closedPort(t), "check"}, args...)...)
			assert.Equal(t, 3, r.code, args)
			assert.Regexp(t, `^STREAMS UNKNOWN - `, r.stdout, args)
			assert.Contains(t, r.stdout, "no bootstrap server could be reached", args)
			assert.Equal(t, 1, strings.Count(r.stdout, "\n"), "one line")
		}
	})
	t.Run("a 4.3 broker", func(t *testing.T) {
		old := startCluster(t, 1, playground.Kafka43)
		old.PutStreamsGroup(streamsGroup("app", nil))
		r := runCLI(t, "--bootstrap-server", bootstrap(old), "check", "--group", "app", "--min-members", "0")
		assert.Equal(t, 0, r.code, r.stdout)
		assert.True(t, strings.HasPrefix(r.stdout, "STREAMS OK - app: Stable, 0 members"), r.stdout)
		r = runCLI(t, "--bootstrap-server", bootstrap(old), "check", "--group", "app", "--require-topology")
		assert.Equal(t, 3, r.code)
		assert.Equal(t, "STREAMS UNKNOWN - app UNKNOWN: --require-topology cannot be checked: topology descriptions: broker 0 supports only v0 of StreamsGroupDescribe, v1 is needed (Apache Kafka 4.4 or newer)\n", r.stdout)
	})
}

func TestCheck_documents(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := healthCluster(t)
	r := runCLI(t, "--bootstrap-server", bootstrap(c), "-o", "json", "check", "--group", "steady", "--group", "nope", "--lag-warning", "30")
	assert.Equal(t, 2, r.code, "-o json exits as the check")
	var doc struct {
		Status   string `json:"status"`
		ExitCode int    `json:"exit_code"`
		Groups   []struct {
			Group    string `json:"group"`
			Status   string `json:"status"`
			Lag      *int64 `json:"lag"`
			Problems []struct {
				Condition string `json:"condition"`
			} `json:"problems"`
			Error *struct {
				Name string `json:"name"`
			} `json:"error"`
		} `json:"groups"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &doc), r.stdout)
	assert.Equal(t, "CRITICAL", doc.Status)
	assert.Equal(t, 2, doc.ExitCode)
	require.Len(t, doc.Groups, 2)
	assert.Equal(t, "WARNING", doc.Groups[0].Status)
	assert.EqualValues(t, 40, *doc.Groups[0].Lag)
	assert.Equal(t, "lag-warning", doc.Groups[0].Problems[0].Condition)
	assert.Equal(t, "GROUP_ID_NOT_FOUND", doc.Groups[1].Error.Name)
	golden.Assert(t, stableOverview(c, r.stdout))

	r = runCLI(t, "--bootstrap-server", bootstrap(c), "-o", "yaml", "check", "--group", "steady")
	assert.Equal(t, 0, r.code)
	assert.Contains(t, r.stdout, "status: OK\n")
}

// -o prometheus for check, overview and list --state, read back with the
// Prometheus parser; the other commands refuse it.
func TestPrometheusOutput(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := healthCluster(t)
	bs := bootstrap(c)

	r := runCLI(t, "--bootstrap-server", bs, "-o", "prometheus", "check", "--all-groups", "--lag-critical", "30")
	assert.Equal(t, 2, r.code)
	assert.Empty(t, r.stderr)
	fams := promtest.Parse(t, r.stdout)
	assert.EqualValues(t, 2, promtest.Value(t, fams, "kstreams_check_status"))
	assert.EqualValues(t, 2, promtest.Value(t, fams, "kstreams_check_group_status", "group", "steady"))
	assert.EqualValues(t, 1, promtest.Value(t, fams, "kstreams_check_group_status", "group", "moving"))
	assert.EqualValues(t, 40, promtest.Value(t, fams, "kstreams_group_lag", "group", "steady"))
	assert.EqualValues(t, 1, promtest.Value(t, fams, "kstreams_group_state", "group", "stopped", "state", "Empty"))
	goldenAs(t, "check", r.stdout)

	r = runCLI(t, "--bootstrap-server", bs, "-o", "prometheus", "overview", "--group", "steady", "--group", "moving", "--group", "nope")
	assert.Equal(t, 1, r.code, "a missing group fails the overview")
	assert.Contains(t, r.stderr, "Error: streams group 'nope': GROUP_ID_NOT_FOUND")
	fams = promtest.Parse(t, r.stdout)
	assert.EqualValues(t, 0, promtest.Value(t, fams, "kstreams_group_up", "group", "nope"))
	assert.EqualValues(t, 1, promtest.Value(t, fams, "kstreams_group_topology_description_status", "group", "steady", "status", "AVAILABLE"))
	assert.EqualValues(t, 1, promtest.Value(t, fams, "kstreams_group_topology_description_status", "group", "moving", "status", "NOT_STORED"))
	assert.EqualValues(t, 30, promtest.Value(t, fams, "kstreams_task_lag", "group", "steady", "subtopology", "0", "partition", "2"))
	assert.EqualValues(t, 40, promtest.Value(t, fams, "kstreams_subtopology_lag", "group", "steady", "subtopology", "0"))
	assert.EqualValues(t, 1, promtest.Value(t, fams, "kstreams_group_moving_tasks", "group", "moving"))
	assert.EqualValues(t, 2, promtest.Value(t, fams, "kstreams_group_members", "group", "moving"))
	assert.EqualValues(t, 8, promtest.Value(t, fams, "kstreams_group_epoch", "group", "moving"))
	assert.EqualValues(t, 0, promtest.Value(t, fams, "kstreams_group_topology_epoch", "group", "moving"))
	goldenAs(t, "overview", r.stdout)

	r = runCLI(t, "--bootstrap-server", bs, "-o", "prometheus", "list", "--state")
	assert.Equal(t, 0, r.code, r.stderr)
	fams = promtest.Parse(t, r.stdout)
	assert.EqualValues(t, 1, promtest.Value(t, fams, "kstreams_group_state", "group", "moving", "state", "Reconciling"))
	assert.False(t, promtest.Has(fams, "kstreams_group_state", "group", "legacy", "state", "Stable"), "a classic group is no streams group")

	r = runCLI(t, "--bootstrap-server", bs, "-o", "prometheus", "--list", "--state", "Empty")
	assert.Equal(t, 0, r.code, r.stderr)
	fams = promtest.Parse(t, r.stdout)
	assert.Len(t, fams["kstreams_group_state"].GetMetric(), 6, "one group, six states")

	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"list"}, "-o prometheus: list prints text, json or yaml, and prometheus with --state; -o prometheus is printed by list --state, overview, check and inventory"},
		{[]string{"--describe", "--group", "steady"}, "-o prometheus: describe prints text, json or yaml, and dot, mermaid, svg or png with --topology; -o prometheus is printed by list --state, overview, check and inventory"},
		{[]string{"describe", "--members", "--group", "steady"}, "-o prometheus: describe prints text, json or yaml, and dot, mermaid, svg or png with --topology; -o prometheus is printed by list --state, overview, check and inventory"},
		{[]string{"delete", "--group", "stopped"}, "-o prometheus: delete prints text, json or yaml; -o prometheus is printed by list --state, overview, check and inventory"},
		{[]string{"doctor", "--group", "steady"}, "-o prometheus: doctor prints text, json or yaml; -o prometheus is printed by list --state, overview, check and inventory"},
		{[]string{"diff", "group:steady", "group:steady"}, "-o prometheus: diff prints text, json or yaml; -o prometheus is printed by list --state, overview, check and inventory"},
		{[]string{"render", "testdata/health.yaml"}, "-o prometheus: render prints text, json, yaml, dot, mermaid, svg or png; -o prometheus is printed by list --state, overview, check and inventory"},
		{[]string{"version"}, "-o prometheus: version prints text, json or yaml; -o prometheus is printed by list --state, overview, check and inventory"},
	} {
		r := runCLI(t, append([]string{"--bootstrap-server", bs, "-o", "prometheus"}, tc.args...)...)
		assert.Equal(t, 2, r.code, "%v: %s", tc.args, r.stderr)
		assert.Empty(t, r.stdout, tc.args)
		assert.Contains(t, r.stderr, tc.msg+"\n", tc.args)
	}
	assert.True(t, c.HasGroup("stopped"), "the refused delete deleted nothing")
}

// goldenAs compares got with the golden file name under the test's own.
func goldenAs(t *testing.T, name, got string) {
	t.Helper()
	golden.AssertFile(t, strings.TrimSuffix(golden.Path(t), ".golden")+"/"+name+".golden", []byte(got))
}

// The README's table of check's exit codes is checkExitStatuses.
func TestREADMECheckExitCodes(t *testing.T) {
	t.Parallel()
	var want [][]string
	for _, s := range checkExitStatuses {
		want = append(want, []string{itoa(s.Code), s.Meaning})
	}
	assert.Equal(t, want, readmeTable(t, "check-exit-codes"))
	assert.Contains(t, (&verb{own: checkExits}).exitHelp(), "Exit status:\n  0  "+checkExitStatuses[0].Meaning)
}
