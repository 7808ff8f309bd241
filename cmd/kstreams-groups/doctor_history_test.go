package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// flappingCluster is staticSeed's group after n rebalances: a member
// joining (odd) or leaving (even), all at testNow; with the seed's write,
// which history reads as the group's creation, n+1 entries.
func flappingCluster(t *testing.T, n int) *playground.Cluster {
	t.Helper()
	c := staticCluster(t)
	s, err := playground.ParseState([]byte(staticSeed))
	require.NoError(t, err)
	g := s.StreamsGroups[0].StreamsGroup
	base := g.Members
	for i := 1; i <= n; i++ {
		g.GroupEpoch, g.AssignmentEpoch = 4+int32(i), 4+int32(i)
		g.Members = base
		if i%2 == 1 {
			g.Members = append(base[:2:2], playground.Member{MemberID: "m-c" + itoa(i), MemberEpoch: g.GroupEpoch, ClientID: "flapper", ProcessID: "proc-flap", ClientHost: "/10.0.0.9"})
		}
		c.PutStreamsGroup(g)
	}
	return c
}

// doctor names the last rebalance and a storm, from the group's records
// in the playground's __consumer_offsets; a denied read is an unknown.
func TestDoctor_rebalances(t *testing.T) {
	t.Parallel()
	isolate(t)
	infoLines := func(out string) []string {
		var lines []string
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "last rebalance") || strings.Contains(l, "rebalance storm") || strings.Contains(l, "hint: A group that rebalances") {
				lines = append(lines, strings.TrimSpace(l))
			}
		}
		return lines
	}

	t.Run("a storm", func(t *testing.T) {
		bs := bootstrap(flappingCluster(t, 12))
		r := runCLI(t, "--bootstrap-server", bs, "doctor", "--group", "static-app")
		assert.Equal(t, 1, r.code, r.stderr)
		assert.Equal(t, []string{
			"info     last rebalance at 2026-12-01 10:00:00 UTC (epoch 16, 0s ago): member-removed (process proc-flap, host /10.0.0.9)",
			"WARNING  13 rebalances in the last hour, more than 10 (a rebalance storm): process proc-flap, host /10.0.0.9 caused most of them (12)",
			"hint: A group that rebalances this often spends its time moving tasks: find why the member leaves and joins (its log, its restarts, a session timeout shorter than its pauses: kstreams-groups history --group static-app --since 1h lists each rebalance with its causes).",
		}, infoLines(r.stdout))
		r = runCLI(t, "--bootstrap-server", bs, "doctor", "--group", "static-app", "--storm-threshold", "13")
		assert.NotContains(t, r.stdout, "rebalance storm")
	})

	t.Run("a bad threshold", func(t *testing.T) {
		r := runCLI(t, "--bootstrap-server", "127.0.0.1:1", "doctor", "--group", "g", "--storm-threshold", "0")
		assert.Equal(t, 2, r.code)
		assert.Contains(t, r.stderr, `--storm-threshold: want a whole number, 1 or more, got "0"`)
	})

	t.Run("a denied read is unknown, not a failure", func(t *testing.T) {
		c := flappingCluster(t, 1)
		c.InjectError(playground.Fault{Key: 1, Topic: playground.OffsetsTopic, ErrorCode: 29, Node: playground.AnyNode})
		r := runCLI(t, "--bootstrap-server", bootstrap(c), "doctor", "--group", "static-app")
		assert.Empty(t, r.stderr)
		assert.Contains(t, r.stdout, "  info     the group's rebalances are unknown: cannot read __consumer_offsets: TOPIC_AUTHORIZATION_FAILED")
		assert.Contains(t, r.stdout, "hint: The history of a group is read from __consumer_offsets: it needs DESCRIBE and READ on that topic")
		assert.Contains(t, r.stdout, "WARNING  1 static member left the group", "the rest of the diagnosis is there")
	})
}

// The overview's head names the last rebalance and its causes; a history
// that cannot be read is unknown there, and the overview is whole.
func TestOverview_lastRebalance(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := flappingCluster(t, 3)
	r := runCLI(t, "--bootstrap-server", bootstrap(c), "overview", "--group", "static-app")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "\n  Rebalanced:    2026-12-01T10:00:00.000Z, epoch 6 -> 7: member-joined m3\n")

	r = runCLI(t, "--bootstrap-server", bootstrap(c), "-o", "json", "overview", "--group", "static-app")
	require.Equal(t, 0, r.code, r.stderr)
	var doc struct {
		Groups []struct {
			LastRebalance *struct {
				GroupEpoch int32     `json:"group_epoch"`
				Causes     []string  `json:"causes"`
				Error      *struct{} `json:"error"`
			} `json:"last_rebalance"`
		} `json:"groups"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &doc), r.stdout)
	require.NotNil(t, doc.Groups[0].LastRebalance)
	assert.Equal(t, int32(7), doc.Groups[0].LastRebalance.GroupEpoch)
	assert.Equal(t, []string{"member-joined"}, doc.Groups[0].LastRebalance.Causes)
	assert.Nil(t, doc.Groups[0].LastRebalance.Error)

	c.InjectError(playground.Fault{Key: 1, Topic: playground.OffsetsTopic, ErrorCode: 29, Node: playground.AnyNode})
	r = runCLI(t, "--bootstrap-server", bootstrap(c), "overview", "--group", "static-app")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "\n  Rebalanced:    unknown (cannot read __consumer_offsets: TOPIC_AUTHORIZATION_FAILED")
	assert.Contains(t, r.stdout, "Sub-topology 0", "the rest of the overview is there")
}
