package main

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/admin/admintest"
	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

const (
	keyDeleteGroups = 42
	keyDeleteTopics = 20
	keyListGroups   = 16
)

// emptyGroup is a streams group whose members all left: the only state in
// which Kafka deletes a streams group.
func emptyGroup(id string) playground.StreamsGroup {
	g := streamsGroup(id, nil)
	g.State = "Empty"
	return g
}

// deleteCluster is a 3-node cluster with groups for every delete outcome,
// coordinators spread over the nodes:
//   - orders-app (node 0), billing-app (node 1), audit-app (node 1): Empty;
//   - fail-app (node 2): Empty, but the broker's topology description
//     plugin fails to delete its description (GROUP_DELETION_FAILED);
//   - busy-app (node 0): Stable;
//   - legacy-consumer: a classic group.
func deleteCluster(t *testing.T, profile playground.Profile) *playground.Cluster {
	t.Helper()
	c := startCluster(t, 3, profile)
	for id, node := range map[string]int32{"orders-app": 0, "billing-app": 1, "audit-app": 1, "fail-app": 2} {
		c.PutStreamsGroup(emptyGroup(id))
		c.SetCoordinator(id, node)
	}
	busy := streamsGroup("busy-app", nil)
	c.PutStreamsGroup(busy)
	c.SetCoordinator("busy-app", 0)
	c.PutGroup("legacy-consumer", "classic", "consumer", "Stable")
	msg := playground.DeletionFailedMessage
	c.InjectError(playground.Fault{Key: keyDeleteGroups, Group: "fail-app", ErrorCode: kerr.GroupDeletionFailed.Code, ErrorMessage: &msg, Node: playground.AnyNode})
	c.ResetRequests()
	return c
}

// deleteRequests returns the groups of each DeleteGroups request, by node.
func deleteRequests(c *playground.Cluster) map[int32][][]string {
	out := map[int32][][]string{}
	for _, r := range c.Requests() {
		if r.Key == keyDeleteGroups {
			out[r.Node] = append(out[r.Node], r.Groups)
		}
	}
	return out
}

func TestDelete(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		profile      playground.Profile
		args         []string
		wantStdout   string // exact; golden when wantGolden
		wantGolden   bool
		wantStderr   string // substring; "" means stderr must be empty
		wantCode     int
		wantDetailed int
		wantGone     []string // groups that must no longer exist
		wantKept     []string // groups that must still exist
		wantNoDelete bool     // no DeleteGroups may be sent
	}{
		{
			name:       "one group",
			args:       []string{"--delete", "--group", "orders-app"},
			wantStdout: "Deletion of requested streams groups ('orders-app') was successful.\n",
			wantGone:   []string{"orders-app"},
		},
		{
			name:       "subcommand form prints the same",
			args:       []string{"delete", "--group", "orders-app"},
			wantStdout: "Deletion of requested streams groups ('orders-app') was successful.\n",
			wantGone:   []string{"orders-app"},
		},
		{
			name:       "several groups on several coordinators in request order",
			args:       []string{"--delete", "--group", "billing-app", "--group", "orders-app", "--group", "audit-app"},
			wantStdout: "Deletion of requested streams groups ('billing-app', 'orders-app', 'audit-app') was successful.\n",
			wantGone:   []string{"billing-app", "orders-app", "audit-app"},
		},
		{
			name: "plugin failure shows the broker's message and keeps the group",
			args: []string{"--delete", "--group", "fail-app"},
			wantStdout: "\nError: Deletion of some streams groups failed:\n" +
				"* Group 'fail-app' could not be deleted due to: GROUP_DELETION_FAILED: Topology description plugin failed to delete the topology.\n",
			wantCode:     1,
			wantDetailed: 9,
			wantKept:     []string{"fail-app"},
		},
		{
			name: "not empty is refused by the pre-check and never sent",
			args: []string{"--delete", "--group", "busy-app"},
			wantStdout: "\nError: Deletion of some streams groups failed:\n" +
				"* Group 'busy-app' could not be deleted due to: NON_EMPTY_GROUP: Streams group 'busy-app' is not EMPTY.\n",
			wantCode:     1,
			wantDetailed: 9,
			wantKept:     []string{"busy-app"},
			wantNoDelete: true,
		},
		{
			name: "missing group is refused by the pre-check and never sent",
			args: []string{"delete", "--group", "no-such-group"},
			wantStdout: "\nError: Deletion of some streams groups failed:\n" +
				"* Group 'no-such-group' could not be deleted due to: GROUP_ID_NOT_FOUND: Group 'no-such-group' does not exist or is not a streams group.\n",
			wantCode:     1,
			wantDetailed: 5,
			wantNoDelete: true,
		},
		{
			name: "a classic group is not a streams group",
			args: []string{"--delete", "--group", "legacy-consumer"},
			wantStdout: "\nError: Deletion of some streams groups failed:\n" +
				"* Group 'legacy-consumer' could not be deleted due to: GROUP_ID_NOT_FOUND: Group 'legacy-consumer' does not exist or is not a streams group.\n",
			wantCode:     1,
			wantDetailed: 5,
			wantKept:     []string{"legacy-consumer"},
			wantNoDelete: true,
		},
		{
			name:         "mixed failures in request order then the deleted groups",
			args:         []string{"--delete", "--group", "orders-app", "--group", "fail-app", "--group", "no-such-group", "--group", "busy-app", "--group", "billing-app"},
			wantGolden:   true,
			wantCode:     1,
			wantDetailed: 9,
			wantGone:     []string{"orders-app", "billing-app"},
			wantKept:     []string{"fail-app", "busy-app"},
		},
		{
			name:         "the first failed group in request order decides the detailed code",
			args:         []string{"--delete", "--group", "no-such-group", "--group", "fail-app"},
			wantGolden:   true,
			wantCode:     1,
			wantDetailed: 5,
			wantKept:     []string{"fail-app"},
		},
		{
			name:       "a repeated group is deleted and reported once",
			args:       []string{"--delete", "--group", "orders-app", "--group", "orders-app"},
			wantStdout: "Deletion of requested streams groups ('orders-app') was successful.\n",
			wantGone:   []string{"orders-app"},
		},
		{
			name:         "all groups are the streams groups sorted by id",
			args:         []string{"--delete", "--all-groups"},
			wantGolden:   true,
			wantCode:     1,
			wantDetailed: 9,
			wantGone:     []string{"audit-app", "billing-app", "orders-app"},
			wantKept:     []string{"busy-app", "fail-app", "legacy-consumer"},
		},
		{
			name:         "dry run sends no DeleteGroups",
			args:         []string{"--delete", "--dry-run", "--group", "orders-app", "--group", "busy-app", "--group", "fail-app"},
			wantGolden:   true,
			wantCode:     1,
			wantDetailed: 9,
			wantKept:     []string{"orders-app", "busy-app", "fail-app"},
			wantNoDelete: true,
		},
		{
			name:         "dry run where every group passes exits 0",
			args:         []string{"delete", "--dry-run", "--group", "orders-app", "--group", "billing-app"},
			wantStdout:   "Dry run: nothing was deleted. These streams groups passed the pre-checks and would be deleted: 'orders-app', 'billing-app'.\n",
			wantKept:     []string{"orders-app", "billing-app"},
			wantNoDelete: true,
		},
		{
			name:         "json document",
			args:         []string{"delete", "--group", "orders-app", "--group", "fail-app", "--group", "busy-app", "-o", "json"},
			wantGolden:   true,
			wantStderr:   "Error: streams group 'fail-app' could not be deleted: GROUP_DELETION_FAILED: Topology description plugin failed to delete the topology.\n",
			wantCode:     1,
			wantDetailed: 9,
			wantGone:     []string{"orders-app"},
		},
		{
			name:         "yaml document of a dry run",
			args:         []string{"--delete", "--dry-run", "--group", "orders-app", "--group", "no-such-group", "--output", "yaml"},
			wantGolden:   true,
			wantStderr:   "Error: streams group 'no-such-group' could not be deleted: GROUP_ID_NOT_FOUND",
			wantCode:     1,
			wantDetailed: 5,
			wantNoDelete: true,
		},
		{
			name:    "Kafka 4.3 broker gives UNKNOWN_SERVER_ERROR with a hint",
			profile: playground.Kafka43,
			args:    []string{"--delete", "--group", "fail-app", "--group", "orders-app"},
			wantStdout: "\nError: Deletion of some streams groups failed:\n" +
				"* Group 'fail-app' could not be deleted due to: UNKNOWN_SERVER_ERROR: The server experienced an unexpected error when processing the request.\n" +
				"\nThese streams groups were deleted successfully: 'orders-app'.\n",
			wantStderr:   "hint: broker 2 answered DeleteGroups v2, which cannot report GROUP_DELETION_FAILED: the UNKNOWN_SERVER_ERROR for group 'fail-app' may mean that the broker's topology description plugin failed to delete the group's topology\n",
			wantCode:     1,
			wantDetailed: 1,
			wantGone:     []string{"orders-app"},
			wantKept:     []string{"fail-app"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			isolate(t)
			for _, detailed := range []bool{false, true} {
				// A fresh cluster per run: the first run deletes groups.
				profile := tc.profile
				if profile == "" {
					profile = playground.Kafka44
				}
				c := deleteCluster(t, profile)
				r := runMode(t, c, detailed, tc.wantCode, tc.wantDetailed, tc.wantStderr, tc.args...)
				if tc.wantGolden {
					golden.Assert(t, []byte(randomPorts.ReplaceAllString(r.stdout, "${1}PORT")))
				} else {
					assert.Equal(t, tc.wantStdout, r.stdout)
				}
				for _, g := range tc.wantGone {
					assert.False(t, c.HasGroup(g), "group %s must be deleted", g)
				}
				for _, g := range tc.wantKept {
					assert.True(t, c.HasGroup(g), "group %s must still exist", g)
				}
				if tc.wantNoDelete {
					assert.Empty(t, deleteRequests(c), "no DeleteGroups may be sent")
				}
			}
		})
	}
}

// Groups that pass the pre-checks go to their coordinators in one
// DeleteGroups per node, at v3. When a coordinator answers NOT_COORDINATOR
// only its groups are sent again; every group is reported once, with its
// true outcome (no GROUP_ID_NOT_FOUND for a group deleted by the first
// request, as kgo's per-shard retry would report).
func TestDelete_retriesOnlyCoordinatorErrors(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := deleteCluster(t, playground.Kafka44)
	// Node 1 answers NOT_COORDINATOR once for each of its two groups.
	c.InjectError(playground.Fault{Key: keyDeleteGroups, ErrorCode: kerr.NotCoordinator.Code, Times: 2, Node: 1})

	r := runCLI(t, "--bootstrap-server", bootstrap(c), "--delete",
		"--group", "orders-app", "--group", "billing-app", "--group", "fail-app", "--group", "audit-app", "--detailed-exit-codes")
	assert.Equal(t, 9, r.code, r.stderr)
	assert.Equal(t, "\nError: Deletion of some streams groups failed:\n"+
		"* Group 'fail-app' could not be deleted due to: GROUP_DELETION_FAILED: Topology description plugin failed to delete the topology.\n"+
		"\nThese streams groups were deleted successfully: 'orders-app', 'billing-app', 'audit-app'.\n", r.stdout)
	assert.Empty(t, r.stderr)

	assert.Equal(t, map[int32][][]string{
		0: {{"orders-app"}},
		1: {{"billing-app", "audit-app"}, {"billing-app", "audit-app"}},
		2: {{"fail-app"}},
	}, deleteRequests(c))
	for _, req := range c.Requests() {
		if req.Key == keyDeleteGroups {
			assert.EqualValues(t, 3, req.Version, "DeleteGroups v3 carries the per-group ErrorMessage")
		}
	}
	for _, g := range []string{"orders-app", "billing-app", "audit-app"} {
		assert.False(t, c.HasGroup(g), g)
	}
	assert.True(t, c.HasGroup("fail-app"))
}

// A DeleteGroups whose answer is lost may still have deleted the group; the
// resend then finds it gone, and the group is reported as deleted once.
func TestDelete_lostAnswer(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := deleteCluster(t, playground.Kafka44)
	// The broker deletes the group, then the connection closes before its
	// answer (a broken answer body is a protocol error instead, reported
	// at once).
	h := admintest.Start(t, c, admintest.Rule{Key: keyDeleteGroups, Action: admintest.Lose, Times: 1})

	r := runCLI(t, "--bootstrap-server", h.Bootstrap(), "--delete", "--group", "orders-app")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "Deletion of requested streams groups ('orders-app') was successful.\n", r.stdout)
	assert.Equal(t, map[int32][][]string{0: {{"orders-app"}, {"orders-app"}}}, deleteRequests(c))
}

// A coordinator that never becomes available ends with --timeout, reported
// for the group with the last error.
func TestDelete_timeout(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := deleteCluster(t, playground.Kafka44)
	c.InjectError(playground.Fault{Key: keyDeleteGroups, Group: "orders-app", ErrorCode: kerr.CoordinatorLoadInProgress.Code, Node: playground.AnyNode})

	r := runCLI(t, "--bootstrap-server", bootstrap(c), "--delete", "--group", "orders-app", "--group", "billing-app", "--timeout", "800", "--detailed-exit-codes")
	assert.Equal(t, 7, r.code, r.stderr)
	// A retry may be under way at the deadline: the timeout then names its
	// step (finding the coordinator again, or the request), before the
	// last error.
	assert.Regexp(t, `\* Group 'orders-app' could not be deleted due to: DeleteGroups: timed out (waiting for 127\.0\.0\.1:\d+ to answer (FindCoordinator|DeleteGroups) v\d+ )?\(last error: COORDINATOR_LOAD_IN_PROGRESS`, r.stdout)
	assert.Contains(t, r.stdout, "\nThese streams groups were deleted successfully: 'billing-app'.\n")
	assert.True(t, c.HasGroup("orders-app"))
	assert.False(t, c.HasGroup("billing-app"))
}

// A dead group fails the pre-check with Kafka's message.
func TestDelete_deadGroup(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := deleteCluster(t, playground.Kafka44)
	dead := emptyGroup("dead-app")
	dead.State = "Dead"
	c.PutStreamsGroup(dead)

	r := runCLI(t, "--bootstrap-server", bootstrap(c), "--delete", "--group", "dead-app", "--detailed-exit-codes")
	assert.Equal(t, 5, r.code, r.stderr)
	assert.Equal(t, "\nError: Deletion of some streams groups failed:\n"+
		"* Group 'dead-app' could not be deleted due to: GROUP_ID_NOT_FOUND: Streams group 'dead-app' group state is DEAD.\n", r.stdout)
	assert.Empty(t, deleteRequests(c))
}

// When the pre-check's ListGroups fails nothing is deleted and the command
// fails as a whole.
func TestDelete_listGroupsFails(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := deleteCluster(t, playground.Kafka44)
	c.InjectError(playground.Fault{Key: keyListGroups, ErrorCode: kerr.ClusterAuthorizationFailed.Code, Node: playground.AnyNode})

	r := runCLI(t, "--bootstrap-server", bootstrap(c), "--delete", "--group", "orders-app", "--detailed-exit-codes")
	assert.Equal(t, 6, r.code, r.stderr)
	assert.Empty(t, r.stdout)
	assert.Contains(t, r.stderr, "Error: CLUSTER_AUTHORIZATION_FAILED")
	assert.Empty(t, deleteRequests(c))
	assert.True(t, c.HasGroup("orders-app"))
}

func TestDelete_usage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		args       []string
		wantStderr string
	}{
		{"no group", []string{"delete"}, "Option [delete] takes one of these options: [all-groups], [group]"},
		{"group and all groups", []string{"delete", "--group", "g", "--all-groups"}, `Option "[group]" can't be used with option "[all-groups]"`},
		{"kafka form without a group", []string{"--delete"}, "Option [delete] takes one of these options: [all-groups], [group]"},
		{"a topology format", []string{"delete", "--group", "g", "-o", "dot"}, "-o dot: delete prints text, json or yaml; -o dot is printed by describe --topology, overview and render"},
		{"an argument", []string{"delete", "g"}, `unexpected argument "g"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			isolate(t)
			r := runCLI(t, append([]string{"--bootstrap-server", closedPort(t)}, tc.args...)...)
			assert.Equal(t, 2, r.code)
			assert.Empty(t, r.stdout)
			assert.Contains(t, r.stderr, tc.wantStderr)
		})
	}
}

// internalTopicsGroup is an Empty streams group whose declared topology
// names repartition and changelog topics: the ones Kafka's rules infer as
// internal, a changelog that is also a source topic (a source table's
// changelog is its input topic), and one that does not follow the naming
// rules.
func internalTopicsGroup(c *playground.Cluster) {
	g := emptyGroup("wc-app")
	g.Topology = &playground.Topology{Epoch: 1, Subtopologies: []playground.Subtopology{
		{
			ID:                    "0",
			SourceTopics:          []string{"wc-input", "wc-app-users-changelog"},
			RepartitionSinkTopics: []string{"wc-app-counts-repartition"},
			StateChangelogTopics:  []playground.TopicInfo{{Name: "wc-app-users-changelog"}},
		},
		{
			ID:                      "1",
			SourceTopics:            []string{},
			RepartitionSourceTopics: []playground.TopicInfo{{Name: "wc-app-counts-repartition", Partitions: 3}},
			StateChangelogTopics: []playground.TopicInfo{
				{Name: "wc-app-counts-changelog"},
				{Name: "legacy-counts-changelog"},
				{Name: "wc-app-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000007-topic"},
			},
		},
	}}
	c.PutStreamsGroup(g)
	c.SetCoordinator("wc-app", 1)
	for _, tp := range []string{"wc-input", "wc-app-users-changelog", "wc-app-counts-repartition", "wc-app-counts-changelog",
		"legacy-counts-changelog", "wc-app-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000007-topic"} {
		c.PutTopic(tp, 3)
	}
}

func TestDelete_internalTopics(t *testing.T) {
	t.Parallel()
	inferred := []string{"wc-app-counts-repartition", "wc-app-counts-changelog", "wc-app-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000007-topic"}
	kept := []string{"legacy-counts-changelog", "wc-app-users-changelog", "wc-input"}
	tests := []struct {
		name         string
		args         []string
		setup        func(c *playground.Cluster)
		wantCode     int
		wantDetailed int
		wantStderr   string
		wantDeleted  []string // topics that must be gone afterwards
		wantTopics   []string // topics that must exist afterwards
		wantSent     []string // topics sent in DeleteTopics
	}{
		{
			name:        "inferred topics are deleted after the group and others are left alone",
			args:        []string{"--delete", "--delete-all-internal-topics", "--group", "wc-app", "--group", "orders-app"},
			wantDeleted: inferred,
			wantTopics:  kept,
			wantSent:    inferred,
		},
		{
			name:       "dry run names the topics and deletes nothing",
			args:       []string{"delete", "--dry-run", "--delete-all-internal-topics", "--group", "wc-app"},
			wantTopics: append(slices.Clone(inferred), kept...),
		},
		{
			name: "a topic that cannot be deleted is reported and fails the command",
			args: []string{"--delete", "--delete-all-internal-topics", "--group", "wc-app"},
			setup: func(c *playground.Cluster) {
				c.InjectError(playground.Fault{Key: keyDeleteTopics, Group: "wc-app-counts-changelog", ErrorCode: kerr.TopicAuthorizationFailed.Code, Node: playground.AnyNode})
			},
			wantCode:     1,
			wantDetailed: 6,
			wantDeleted:  []string{"wc-app-counts-repartition", "wc-app-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000007-topic"},
			wantTopics:   append([]string{"wc-app-counts-changelog"}, kept...),
			wantSent:     inferred,
		},
		{
			name: "no topic is deleted for a group that was not deleted",
			args: []string{"--delete", "--delete-all-internal-topics", "--group", "wc-app"},
			setup: func(c *playground.Cluster) {
				msg := playground.DeletionFailedMessage
				c.InjectError(playground.Fault{Key: keyDeleteGroups, Group: "wc-app", ErrorCode: kerr.GroupDeletionFailed.Code, ErrorMessage: &msg, Node: playground.AnyNode})
			},
			wantCode:     1,
			wantDetailed: 9,
			wantTopics:   append(slices.Clone(inferred), kept...),
		},
		{
			name:        "json document",
			args:        []string{"delete", "--delete-all-internal-topics", "--group", "wc-app", "-o", "json"},
			wantDeleted: inferred,
			wantTopics:  kept,
			wantSent:    inferred,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			isolate(t)
			for _, detailed := range []bool{false, true} {
				c := deleteCluster(t, playground.Kafka44)
				internalTopicsGroup(c)
				if tc.setup != nil {
					tc.setup(c)
				}
				c.ResetRequests()
				r := runMode(t, c, detailed, tc.wantCode, tc.wantDetailed, tc.wantStderr, tc.args...)
				golden.Assert(t, []byte(randomPorts.ReplaceAllString(r.stdout, "${1}PORT")))
				var sent []string
				for _, req := range c.Requests() {
					if req.Key == keyDeleteTopics {
						for _, tp := range req.Msg.(*kmsg.DeleteTopicsRequest).Topics {
							sent = append(sent, *tp.Topic)
						}
					}
				}
				for _, tp := range tc.wantDeleted {
					assert.False(t, c.HasTopic(tp), "topic %s must be deleted", tp)
				}
				for _, tp := range tc.wantTopics {
					assert.True(t, c.HasTopic(tp), "topic %s must still exist", tp)
				}
				assert.Equal(t, tc.wantSent, sent, "topics sent in DeleteTopics")
			}
		})
	}
}
