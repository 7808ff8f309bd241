package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// upgradeCluster serves testdata/upgrade.yaml: up-app stopped and drained,
// up-busy running (one member), up-undrained stopped with 4 records in
// flight in its repartition topic. NEW is one of the measured versions
// (internal/upgrade/testdata): v2 renames the store, v3 adds a peek, v4
// renames the repartition topic, v5 reads up-in-b too.
func upgradeCluster(t *testing.T) *playground.Cluster {
	t.Helper()
	return seededCluster(t, "testdata/upgrade.yaml")
}

func upgradeNew(v string) string { return "../../internal/upgrade/testdata/" + v + ".txt" }

func TestUpgradePlan(t *testing.T) {
	t.Parallel()
	c := upgradeCluster(t)
	for _, tc := range []struct {
		name, group, new string
		code             int
		contains         []string
	}{
		{"accepted as is", "up-app", "v3", upgradeNothing, []string{"Verdict: accepted as is", "counts (sub-topology 1): kept, state continues"}},
		{"migration with kept stores", "up-app", "v4", upgradeMigration, []string{"Verdict: migration needed",
			"up-app-by-key-repartition -> up-app-by-key-v2-repartition: renamed, drained", "counts (sub-topology 1): kept, state continues"}},
		{"renamed store", "up-app", "v2", upgradeMigration, []string{"counts -> counts-v2 (sub-topology 1): renamed, state STARTS EMPTY",
			"the state in up-app-counts-changelog (9 records) is not carried", "topic up-app-counts-changelog"}},
		{"undrained repartition topic", "up-undrained", "v4", upgradeBlocked, []string{"Verdict: blocked", "NOT drained: 4 records in flight",
			"partition 2: committed 6, end 10: 4 in flight", "repartition-not-drained up-undrained-by-key-repartition: 4 records in flight"}},
		{"group not Empty", "up-busy", "v2", upgradeBlocked, []string{"Verdict: blocked", "NOT MET group-empty: state Stable",
			"group-not-empty up-busy", "group-has-members up-busy: 1 member"}},
		{"new source topic", "up-app", "v5", upgradeMigration, []string{"New source topics", "up-in-b (sub-topology 0)"}},
		{"description not stored", "up-nodesc", "v2", upgradeMigration, []string{"topology description is NOT_STORED",
			"counts -> counts-v2 (sub-topology 1): renamed, state STARTS EMPTY", "(9 records) is not carried"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := runCLI(t, "--bootstrap-server", bootstrap(c), "upgrade", "plan", "--group", tc.group, upgradeNew(tc.new))
			assert.Equal(t, tc.code, r.code, r.stderr)
			assert.Empty(t, r.stderr)
			for _, s := range tc.contains {
				assert.Contains(t, r.stdout, s)
			}
			golden.Assert(t, []byte(r.stdout))

			// The same plan as a document, the same exit.
			j := runCLI(t, "--bootstrap-server", bootstrap(c), "upgrade", "plan", "--group", tc.group, upgradeNew(tc.new), "-o", "json")
			assert.Equal(t, tc.code, j.code, j.stderr)
			golden.AssertFile(t, strings.TrimSuffix(golden.Path(t), ".golden")+".json", []byte(j.stdout))
			y := runCLI(t, "--bootstrap-server", bootstrap(c), "upgrade", "plan", "--group", tc.group, upgradeNew(tc.new), "-o", "yaml")
			var fromJSON, fromYAML map[string]any
			require.NoError(t, json.Unmarshal([]byte(j.stdout), &fromJSON))
			require.NoError(t, yaml.Unmarshal([]byte(y.stdout), &fromYAML))
			assert.Equal(t, fromJSON["verdict"], fromYAML["verdict"])
			assert.Equal(t, len(fromJSON["offsets"].([]any)), len(fromYAML["offsets"].([]any)))
		})
	}
}

// The document names each part of the plan a script reads: the offsets
// to carry with their kind, the store's fate and the lost records, the
// blockers by kind.
func TestUpgradePlan_document(t *testing.T) {
	t.Parallel()
	c := upgradeCluster(t)
	r := runCLI(t, "--bootstrap-server", bootstrap(c), "upgrade", "plan", "--group", "up-app", upgradeNew("v2"), "-o", "json")
	require.Equal(t, upgradeMigration, r.code, r.stderr)
	var doc struct {
		Verdict string `json:"verdict"`
		Offsets []struct {
			Topic     string `json:"topic"`
			Partition int32  `json:"partition"`
			Offset    int64  `json:"offset"`
			Kind      string `json:"kind"`
		} `json:"offsets"`
		Stores []struct {
			Fate             string `json:"fate"`
			StartsEmpty      bool   `json:"starts_empty"`
			ChangelogRecords *int64 `json:"changelog_records"`
		} `json:"stores"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &doc))
	assert.Equal(t, "migration", doc.Verdict)
	require.Len(t, doc.Offsets, 6)
	assert.Equal(t, "up-app-by-key-repartition", doc.Offsets[2].Topic)
	assert.Equal(t, int64(6), doc.Offsets[2].Offset)
	assert.Equal(t, "repartition", doc.Offsets[2].Kind)
	require.Len(t, doc.Stores, 1)
	assert.Equal(t, "renamed", doc.Stores[0].Fate)
	assert.True(t, doc.Stores[0].StartsEmpty)
	require.NotNil(t, doc.Stores[0].ChangelogRecords)
	assert.Equal(t, int64(9), *doc.Stores[0].ChangelogRecords)
}

func TestUpgradePlan_failures(t *testing.T) {
	t.Parallel()
	c := upgradeCluster(t)
	for _, tc := range []struct {
		name   string
		args   []string
		stderr string
	}{
		{"no such group", []string{"--group", "nope", upgradeNew("v2")}, "streams group 'nope': "},
		{"NEW unreadable", []string{"--group", "up-app", "missing.txt"}, "NEW missing.txt: cannot read the topology description"},
		{"NEW not a description", []string{"--group", "up-app", "testdata/upgrade.yaml"}, "NEW testdata/upgrade.yaml: "},
		{"no NEW", []string{"--group", "up-app"}, "upgrade plan takes one argument, NEW"},
		{"no group", []string{upgradeNew("v2")}, "--group"},
		{"two groups", []string{"--group", "a", "--group", "b", upgradeNew("v2")}, "one --group"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := runCLI(t, append([]string{"--bootstrap-server", bootstrap(c), "upgrade", "plan"}, tc.args...)...)
			assert.Equal(t, upgradeUnreadable, r.code)
			assert.Empty(t, r.stdout)
			assert.Contains(t, r.stderr, tc.stderr)
		})
	}
	r := runCLI(t, "--bootstrap-server", bootstrap(c), "upgrade")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, "upgrade needs a subcommand: 'apply', 'plan' or 'verify'")
}

// docs/exit-status.md lists upgrade plan's own codes as the code has them.
func TestREADMEUpgradePlanExitCodes(t *testing.T) {
	t.Parallel()
	var want [][]string
	for _, s := range upgradePlanExitStatuses {
		want = append(want, []string{itoa(s.Code), s.Meaning})
	}
	assert.Equal(t, want, readmeTable(t, "upgrade-plan-exit-codes"))
}

// diff says where the broker refuses NEW, and names the plan to run.
func TestDiff_refusedPointsToUpgradePlan(t *testing.T) {
	t.Parallel()
	c := upgradeCluster(t)
	r := runCLI(t, "--bootstrap-server", bootstrap(c), "diff", "group:up-app", upgradeNew("v2"))
	assert.Equal(t, diffFailing, r.code, r.stderr)
	assert.Contains(t, r.stdout, "kstreams-groups upgrade plan --group up-app "+upgradeNew("v2")+" says what that carries")
	r = runCLI(t, "--bootstrap-server", bootstrap(c), "diff", "group:up-app", upgradeNew("v3"))
	assert.NotContains(t, r.stdout, "upgrade plan", "NEW accepted: nothing to plan")
}
