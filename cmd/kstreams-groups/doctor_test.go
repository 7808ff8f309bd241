package main

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// wrongLines are the WARNING and PROBLEM lines of doctor's text.
func wrongLines(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "  WARNING ") || strings.HasPrefix(l, "  PROBLEM ") {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	return lines
}

var ports = regexp.MustCompile(`127\.0\.0\.1:\d+`)

// doctor on each cause, against the playground.
func TestDoctor_causes(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := healthCluster(t)
	bs := bootstrap(c)
	tests := []struct {
		name  string
		group string
		code  int
		want  []string
	}{
		{"healthy", "steady", 0, nil},
		{"push disabled or not yet pushed", "quiet", 1, []string{"WARNING  the topology description is NOT_STORED although everything else is healthy: the clients have topology.description.push.enabled=false, or the push has not happened yet (it follows the first heartbeats, within seconds)"}},
		{"rolling upgrade", "upgrading", 1, []string{
			"WARNING  the group's topology epoch is 2 but 1 of 2 members run another one: m-old (epoch 1) (a rolling upgrade is in progress)",
			"WARNING  the topology description is NOT_STORED: members run another topology epoch than the group's (a rolling upgrade)"}},
		{"classic members and a failing plugin", "mixed", 1, []string{
			"WARNING  1 of 2 members still use the classic protocol: m-k",
			"PROBLEM  the topology description is ERROR: the broker's plugin failed to fetch it"}},
		{"no members", "stopped", 1, []string{
			"PROBLEM  the group has no members (Empty): nobody runs the application, so nobody can push a topology description",
			"PROBLEM  the topology description is NOT_STORED: no member is running to push it"}},
		{"missing group", "nope", 1, []string{"PROBLEM  there is no streams group nope: GROUP_ID_NOT_FOUND: Group nope not found."}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLI(t, "--bootstrap-server", bs, "doctor", "--group", tc.group)
			assert.Equal(t, tc.code, r.code, r.stderr)
			assert.Empty(t, r.stderr)
			assert.Equal(t, tc.want, wrongLines(r.stdout), r.stdout)
			golden.Assert(t, []byte(ports.ReplaceAllString(r.stdout, "127.0.0.1:PORT")))
		})
	}

	t.Run("the hint under each problem", func(t *testing.T) {
		r := runCLI(t, "--bootstrap-server", bs, "doctor", "--group", "mixed")
		assert.Regexp(t, `PROBLEM  the topology description is ERROR: the broker's plugin failed to fetch it\n           hint: See the log of broker 0 \(127\.0\.0\.1:\d+\): it logs "Topology description plugin getTopology failed for group mixed\." with the plugin's exception\.\n`, r.stdout)
		assert.True(t, strings.HasSuffix(r.stdout, "1 problem, 1 warning.\n"), r.stdout)
	})

	t.Run("an Empty group names a refused topology", func(t *testing.T) {
		// The members of a build whose topology the broker refuses never join
		// (FINDINGS F341): the hint says which client log line tells so.
		r := runCLI(t, "--bootstrap-server", bs, "doctor", "--group", "stopped")
		assert.Contains(t, r.stdout, "PROBLEM  the group has no members (Empty): nobody runs the application, so nobody can push a topology description\n"+
			"           hint: Start the application: a description is pushed by the members when they join. If it runs and still has no member, the broker may refuse it: ")
		assert.Contains(t, r.stdout, `it logs "StreamsGroupHeartbeatRequest failed due to INVALID_REQUEST: Topology updates are not supported yet.". Check with kstreams-groups diff group:stopped <the build's topology>;`)
	})

	t.Run("no plugin configured", func(t *testing.T) {
		np := healthCluster(t)
		np.SetBrokerConfig(playground.PluginClassConfig, nil)
		r := runCLI(t, "--bootstrap-server", bootstrap(np), "doctor", "--group", "quiet")
		assert.Equal(t, 1, r.code)
		assert.Equal(t, []string{
			"PROBLEM  no topology description plugin is configured on coordinator 0 (group.streams.topology.description.plugin.class is not set): the broker stores no description, so every group's is NOT_STORED",
			"PROBLEM  the topology description is NOT_STORED because no plugin is configured to store it"}, wrongLines(r.stdout))
		assert.Contains(t, r.stdout, "hint: Set group.streams.topology.description.plugin.class in every broker's configuration")
	})

	t.Run("the plugin config cannot be read", func(t *testing.T) {
		np := healthCluster(t)
		msg := "Cluster authorization failed."
		np.InjectError(playground.Fault{Key: 32, ErrorCode: 31, ErrorMessage: &msg, Node: playground.AnyNode})
		r := runCLI(t, "--bootstrap-server", bootstrap(np), "doctor", "--group", "quiet")
		assert.Equal(t, 1, r.code)
		assert.Equal(t, []string{
			"WARNING  cannot tell whether a topology description plugin is configured: cannot read group.streams.topology.description.plugin.class of coordinator 0: CLUSTER_AUTHORIZATION_FAILED: Cluster authorization failed.",
			"WARNING  the topology description is NOT_STORED, and whether a plugin is configured is unknown: if one is, the clients have topology.description.push.enabled=false, or the push has not happened yet",
			"WARNING  cannot read the group's streams configs (standbys, session timeout): CLUSTER_AUTHORIZATION_FAILED: Cluster authorization failed."}, wrongLines(r.stdout))
	})

	t.Run("a 4.3 broker", func(t *testing.T) {
		old := startCluster(t, 1, playground.Kafka43)
		g := streamsGroup("app", nil)
		g.Members = []playground.Member{{MemberID: "m", TopologyEpoch: 1}}
		old.PutStreamsGroup(g)
		r := runCLI(t, "--bootstrap-server", bootstrap(old), "doctor", "--group", "app")
		assert.Equal(t, 1, r.code, r.stderr)
		assert.Equal(t, []string{"PROBLEM  coordinator 0 speaks StreamsGroupDescribe up to v0 only, and not the topology update API (key 93): it is older than Apache Kafka 4.4 and stores no topology description (KIP-1331)"}, wrongLines(r.stdout))
		assert.Contains(t, r.stdout, "description NOT_REQUESTED")
		for _, req := range old.Requests() {
			if dc, ok := req.Msg.(*kmsg.DescribeConfigsRequest); ok {
				for _, res := range dc.Resources {
					assert.NotContains(t, res.ConfigNames, playground.PluginClassConfig, "a 4.3 broker is not asked about the plugin")
				}
			}
		}
	})

	t.Run("unreachable", func(t *testing.T) {
		r := runCLI(t, "--bootstrap-server", closedPort(t), "--timeout", "300", "doctor", "--group", "steady")
		assert.Equal(t, 3, r.code)
		assert.Empty(t, r.stdout)
		assert.Contains(t, r.stderr, "Error: streams group 'steady': ")
	})

	t.Run("json", func(t *testing.T) {
		r := runCLI(t, "--bootstrap-server", bs, "-o", "json", "doctor", "--group", "quiet", "--group", "nope")
		assert.Equal(t, 1, r.code)
		var doc struct {
			Wrong  bool `json:"wrong"`
			Groups []struct {
				Group    string `json:"group"`
				State    string `json:"state"`
				Findings []struct {
					Check, Severity, Message, Hint string
				} `json:"findings"`
			} `json:"groups"`
		}
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &doc), r.stdout)
		assert.True(t, doc.Wrong)
		require.Len(t, doc.Groups, 2)
		assert.Equal(t, "Stable", doc.Groups[0].State)
		fs := doc.Groups[0].Findings
		last := fs[slices.IndexFunc(fs, func(f struct{ Check, Severity, Message, Hint string }) bool { return f.Check == "description" })]
		assert.Equal(t, "warning", last.Severity)
		assert.NotEmpty(t, last.Hint)
		assert.Equal(t, "", doc.Groups[1].State, "a missing group has no state")
		golden.Assert(t, stableOverview(c, r.stdout))
	})

	t.Run("usage", func(t *testing.T) {
		r := runCLI(t, "--bootstrap-server", bs, "doctor")
		assert.Equal(t, 2, r.code)
		assert.Equal(t, "doctor needs --group (repeatable) or --all-groups\nRun 'kstreams-groups doctor --help' for usage.\n", r.stderr)
		r = runCLI(t, "--bootstrap-server", bs, "doctor", "--all-groups", "--group", "g")
		assert.Equal(t, 2, r.code)
		assert.Equal(t, "Option \"[group]\" can't be used with option \"[all-groups]\"\nRun 'kstreams-groups doctor --help' for usage.\n", r.stderr)
	})
}

// The README's table of doctor's exit codes is doctorExitStatuses.
func TestREADMEDoctorExitCodes(t *testing.T) {
	t.Parallel()
	var want [][]string
	for _, s := range doctorExitStatuses {
		want = append(want, []string{itoa(s.Code), s.Meaning})
	}
	assert.Equal(t, want, readmeTable(t, "doctor-exit-codes"))
}
