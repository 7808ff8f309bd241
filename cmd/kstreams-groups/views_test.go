package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

const (
	apiListOffsets = 2
	apiOffsetFetch = 9
	apiDescribe    = 89
)

// viewsCluster is a 3-node 4.4 cluster shaped like the real word-count run
// of e2e/FINDINGS.md: wc-app (Stable, two members, lag on some
// partitions), em-app (Empty, with committed offsets), nr-app (NotReady,
// one member without tasks) and a classic group.
func viewsCluster(t *testing.T) *playground.Cluster {
	c := startCluster(t, 3, playground.Kafka44)
	c.PutTopic("wc-input", 3)
	c.PutTopic("wc-app-word-counts-repartition", 3)
	for p := range int32(3) {
		c.SetLogOffsets("wc-input", p, 0, 10)
		c.SetLogOffsets("wc-app-word-counts-repartition", p, 0, 36)
	}
	topo := &playground.Topology{Epoch: 0, Subtopologies: []playground.Subtopology{
		{ID: "0", SourceTopics: []string{"wc-input"}, RepartitionSinkTopics: []string{"wc-app-word-counts-repartition"}},
		{ID: "1", RepartitionSourceTopics: []playground.TopicInfo{{Name: "wc-app-word-counts-repartition", Partitions: 3}},
			StateChangelogTopics: []playground.TopicInfo{{Name: "wc-app-word-counts-changelog"}}},
	}}
	member := func(id, process string, active map[string][]int32) playground.Member {
		return playground.Member{MemberID: id, MemberEpoch: 4, ClientHost: "/127.0.0.1", ProcessID: process,
			ClientID:   "wc-app-" + process + "-StreamThread-1-consumer",
			Assignment: playground.Assignment{Active: active}, TargetAssignment: playground.Assignment{Active: active}}
	}
	c.PutStreamsGroup(playground.StreamsGroup{ID: "wc-app", State: "Stable", GroupEpoch: 4, AssignmentEpoch: 4, AssignorName: "sticky", Topology: topo,
		Members: []playground.Member{
			member("vPbwZTubTDaDJlXTssyIRQ", "fee6828d-0ff7-453a-b911-4f061471ef78", map[string][]int32{"0": {1}, "1": {0, 2}}),
			member("m_84aSGGQcS8bjuT9Z606g", "b1050f1a-df59-4475-b31f-ffd2fd5e1164", map[string][]int32{"0": {0, 2}, "1": {1}}),
		}})
	c.SetCoordinator("wc-app", 1)
	for p, off := range []int64{10, 7, 10} {
		c.Commit("wc-app", playground.Committed{Topic: "wc-input", Partition: int32(p), Offset: off, LeaderEpoch: 0})
	}
	c.Commit("wc-app", playground.Committed{Topic: "wc-app-word-counts-repartition", Partition: 0, Offset: 36, LeaderEpoch: -1})

	c.PutStreamsGroup(playground.StreamsGroup{ID: "em-app", State: "Empty", GroupEpoch: 4, AssignmentEpoch: 4, AssignorName: "sticky", Topology: topo})
	c.SetCoordinator("em-app", 2)
	c.Commit("em-app", playground.Committed{Topic: "wc-input", Partition: 0, Offset: 10, LeaderEpoch: 0})

	c.PutStreamsGroup(playground.StreamsGroup{ID: "nr-app", State: "NotReady", GroupEpoch: 1, AssignorName: "sticky",
		Topology: &playground.Topology{Epoch: 0},
		Members:  []playground.Member{{MemberID: "nr-member", MemberEpoch: 1, ProcessID: "nr-process", ClientID: "nr-client"}}})
	c.SetCoordinator("nr-app", 0)
	c.PutGroup("legacy-consumer", "classic", "consumer", "Stable")
	return c
}

// viewCoordinators hides the random port of the coordinator cell and its
// padding, which depends on the port's length.
var viewCoordinators = regexp.MustCompile(`127\.0\.0\.1:\d+ \((\d+)\) *`)

// viewPorts hides the random ports of documents.
var viewPorts = regexp.MustCompile(`("port": |port: )\d+`)

func stable(s string) []byte {
	s = viewCoordinators.ReplaceAllString(s, "127.0.0.1:<port> ($1)<pad> ")
	return []byte(viewPorts.ReplaceAllString(s, "${1}PORT"))
}

func TestDescribeViews(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		args       []string
		wantStderr string // substring; "" means empty
		wantCode   int
		wantDetail int
	}{
		{name: "offsets is the default", args: []string{"--describe", "--group", "wc-app"}},
		{name: "offsets verbose", args: []string{"--describe", "--offsets", "--verbose", "--group", "wc-app"}},
		{name: "offsets of every group", args: []string{"--describe", "--all-groups"}, wantStderr: "Streams group 'em-app' has no members: the offsets view shows only the partitions of members' active tasks"},
		{name: "members", args: []string{"--describe", "--members", "--group", "wc-app", "--group", "nr-app"}},
		{name: "members verbose", args: []string{"--describe", "--members", "--verbose", "--all-groups"}, wantStderr: "Streams group 'em-app' has no members: the members view has nothing to show."},
		{name: "state", args: []string{"--describe", "--state", "--all-groups"}},
		{name: "state verbose", args: []string{"--describe", "--state", "--verbose", "--group", "em-app", "--group", "wc-app"}},
		{name: "an empty group prints nothing for members and offsets", args: []string{"--describe", "--members", "--group", "em-app"}, wantStderr: "Streams group 'em-app' has no members: the members view has nothing to show."},
		{name: "a missing group fails alone", args: []string{"--describe", "--state", "--group", "nope", "--group", "wc-app"},
			wantStderr: "Error: streams group 'nope': GROUP_ID_NOT_FOUND: Group nope not found.\n", wantCode: 1, wantDetail: 5},
		{name: "not a streams group", args: []string{"--describe", "--group", "legacy-consumer"},
			wantStderr: "Error: streams group 'legacy-consumer': GROUP_ID_NOT_FOUND: Group legacy-consumer is not a streams group.\n", wantCode: 1, wantDetail: 5},
		{name: "offsets json", args: []string{"describe", "--all-groups", "-o", "json"}, wantStderr: "Streams group 'em-app' has no members: the offsets view shows only the partitions of members' active tasks"},
		{name: "offsets yaml", args: []string{"describe", "--offsets", "--group", "wc-app", "-o", "yaml"}},
		{name: "members json", args: []string{"describe", "--members", "--group", "wc-app", "--group", "nope", "-o", "json"},
			wantStderr: "Error: streams group 'nope'", wantCode: 1, wantDetail: 5},
		{name: "members yaml", args: []string{"describe", "--members", "--all-groups", "-o", "yaml"}, wantStderr: "Streams group 'em-app' has no members: the members view has nothing to show."},
		{name: "state json", args: []string{"describe", "--state", "--all-groups", "-o", "json"}},
		{name: "state yaml", args: []string{"describe", "--state", "--group", "nr-app", "-o", "yaml"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			isolate(t)
			c := viewsCluster(t)
			for _, detailed := range []bool{false, true} {
				r := runMode(t, c, detailed, tc.wantCode, tc.wantDetail, tc.wantStderr, tc.args...)
				golden.Assert(t, stable(r.stdout))
			}
		})
	}
}

// The subcommand form runs the same code and prints the same bytes.
func TestDescribeViews_subcommandForm(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := viewsCluster(t)
	for _, view := range [][]string{{}, {"--offsets"}, {"--members"}, {"--state"}} {
		for _, verbose := range [][]string{{}, {"--verbose"}} {
			flags := append(append([]string{"--all-groups"}, view...), verbose...)
			kafka := runCLI(t, append([]string{"--bootstrap-server", bootstrap(c), "--describe"}, flags...)...)
			sub := runCLI(t, append([]string{"describe", "--bootstrap-server", bootstrap(c)}, flags...)...)
			assert.Equal(t, kafka, sub, "%v", flags)
			assert.Equal(t, 0, kafka.code)
		}
	}
}

// The offsets view reads committed offsets with one OffsetFetch v9 per
// coordinator for all groups, and log offsets with ListOffsets at the
// partition leaders; other views send neither.
func TestDescribeViews_offsetsWire(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := viewsCluster(t)
	c.ResetRequests()
	r := runCLI(t, "--bootstrap-server", bootstrap(c), "--describe", "--all-groups")
	require.Equal(t, 0, r.code, r.stderr)

	var fetches, lists int
	for _, req := range c.Requests() {
		switch req.Key {
		case apiOffsetFetch:
			fetches++
			assert.EqualValues(t, 9, req.Version)
			assert.EqualValues(t, 1, req.Node, "wc-app's coordinator")
			var gs []string
			for _, g := range req.Msg.(*kmsg.OffsetFetchRequest).Groups {
				gs = append(gs, g.Group)
			}
			assert.Equal(t, []string{"wc-app"}, gs, "groups without rows (Empty, no active tasks) are not fetched")
		case apiListOffsets:
			lists++
			for _, rt := range req.Msg.(*kmsg.ListOffsetsRequest).Topics {
				for _, rp := range rt.Partitions {
					leader, _ := c.PartitionLeader(rt.Topic, rp.Partition)
					assert.Equal(t, leader, req.Node, "%s-%d", rt.Topic, rp.Partition)
				}
			}
		case apiDescribe:
			assert.False(t, req.Msg.(*kmsg.StreamsGroupDescribeRequest).IncludeTopologyDescription)
		}
	}
	assert.Equal(t, 1, fetches)
	assert.LessOrEqual(t, lists, 2*3, "earliest and latest, at most one request per leader each")
	assert.GreaterOrEqual(t, lists, 2)

	for _, view := range []string{"--state", "--members"} {
		c.ResetRequests()
		r := runCLI(t, "--bootstrap-server", bootstrap(c), "--describe", view, "--all-groups")
		require.Equal(t, 0, r.code)
		for _, req := range c.Requests() {
			assert.NotContains(t, []int16{apiOffsetFetch, apiListOffsets}, req.Key, view)
		}
	}
}

func TestDescribeViews_offsetErrors(t *testing.T) {
	t.Parallel()
	t.Run("OffsetFetch refused", func(t *testing.T) {
		isolate(t)
		c := viewsCluster(t)
		c.InjectError(playground.Fault{Key: apiOffsetFetch, Group: "wc-app", ErrorCode: 30, Node: playground.AnyNode})
		r := runCLI(t, "--bootstrap-server", bootstrap(c), "--describe", "--group", "wc-app", "--detailed-exit-codes")
		assert.Equal(t, exitNotAuthorized, r.code)
		assert.Empty(t, r.stdout)
		assert.Equal(t, "Error: streams group 'wc-app': GROUP_AUTHORIZATION_FAILED: Not authorized to access group: Group authorization failed.\n", r.stderr)
	})
	t.Run("a source topic is gone", func(t *testing.T) {
		isolate(t)
		c := viewsCluster(t)
		c.PutTopic("wc-input", 1) // partitions 1 and 2 no longer exist
		r := runCLI(t, "--bootstrap-server", bootstrap(c), "--timeout", "3000", "--describe", "--group", "wc-app")
		assert.Equal(t, 1, r.code)
		assert.Empty(t, r.stdout)
		assert.Contains(t, r.stderr, "Error: streams group 'wc-app': ")
	})
}

// Kafka's validation rules for the views, with Kafka's messages (the
// real 4.4.0 tool's, e2e/FINDINGS.md), exit 2 and nothing sent.
func TestDescribeViews_usageErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"members with list", []string{"--list", "--members"}, "Option(s) [members] are unavailable given other options on the command line\n"},
		{"offsets with list", []string{"--list", "--offsets"}, "Option(s) [offsets] are unavailable given other options on the command line\n"},
		{"verbose with list", []string{"--list", "--verbose"}, "Option(s) [verbose] are unavailable given other options on the command line\n"},
		{"members without describe", []string{"--members", "--group", "x"}, "Option(s) [members] are unavailable given other options on the command line\n"},
		{"verbose without describe", []string{"--verbose", "--group", "x"}, "Option(s) [verbose] are unavailable given other options on the command line\n"},
		{"state with delete", []string{"--delete", "--state", "--group", "x"}, "Option(s) [state] are unavailable given other options on the command line\n"},
		{"members and state", []string{"--describe", "--members", "--state", "--group", "x"}, "Option [describe] takes at most one of these options: [members], [offsets], [state], [topology]\n"},
		{"members and offsets", []string{"--describe", "--members", "--offsets", "--group", "x"}, "Option [describe] takes at most one of these options: [members], [offsets], [state], [topology]\n"},
		{"offsets and state", []string{"--describe", "--offsets", "--state", "--all-groups"}, "Option [describe] takes at most one of these options: [members], [offsets], [state], [topology]\n"},
		{"describe state with a value", []string{"--describe", "--state", "Stable", "--group", "x"}, "Option [describe] does not take a value for [state]\n"},
		{"describe state with an equals value", []string{"--describe", "--state=Stable", "--group", "x"}, "Option [describe] does not take a value for [state]\n"},
		{"describe without group", []string{"--describe", "--members"}, "Option [describe] takes one of these options: [all-groups], [group]\n"},
		{"list with group", []string{"--list", "--describe", "--group", "x"}, "Option \"[group]\" can't be used with option \"[list]\"\n"},
		{"list and describe", []string{"--list", "--describe", "--all-groups"}, "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, or --delete-offsets.\n"},
		{"group and all groups", []string{"--describe", "--state", "--group", "x", "--all-groups"}, "Option \"[group]\" can't be used with option \"[all-groups]\"\n"},
		{"subcommand: two views", []string{"describe", "--members", "--state", "--group", "x"}, "Option [describe] takes at most one of these options: [members], [offsets], [state], [topology]\n"},
		{"subcommand: state with a value", []string{"describe", "--state=Stable", "--group", "x"}, "Option [describe] does not take a value for [state]\n"},
		{"subcommand: no group", []string{"describe", "--offsets"}, "Option [describe] takes one of these options: [all-groups], [group]\n"},
		{"subcommand: graph output", []string{"describe", "--members", "--group", "x", "-o", "mermaid"}, "-o mermaid: describe prints text, json or yaml, and dot, mermaid, svg or png with --topology; -o mermaid is printed by describe --topology, overview and render\n"},
		{"list subcommand takes no group", []string{"list", "--group", "x"}, "unknown flag: --group"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			isolate(t)
			c := startCluster(t, 1, playground.Kafka44)
			c.ResetRequests()
			r := runCLI(t, append([]string{"--bootstrap-server", bootstrap(c)}, tc.args...)...)
			assert.Equal(t, 2, r.code)
			assert.Empty(t, r.stdout)
			assert.True(t, strings.HasPrefix(r.stderr, tc.want), "stderr: %q", r.stderr)
			assert.Empty(t, c.Requests(), "usage errors never reach the cluster")
		})
	}
}

// With 1,000 streams groups over 3 nodes, --describe --all-groups --state
// sends one StreamsGroupDescribe per coordinator node, not one per group.
func TestDescribeViews_allGroupsBatched(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := manyGroups(t, 1000)
	c.ResetRequests()
	r := runCLI(t, "--bootstrap-server", bootstrap(c), "--describe", "--all-groups", "--state")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, 1000, strings.Count(r.stdout, "GROUP "), "one table per group")

	perKey := map[int16]int{}
	described := map[int32]int{}
	for _, req := range c.Requests() {
		perKey[req.Key]++
		if req.Key == apiDescribe {
			described[req.Node] += len(req.Groups)
		}
	}
	assert.Equal(t, 3, perKey[apiDescribe], "one StreamsGroupDescribe per node")
	assert.Equal(t, 3, perKey[apiListGroups], "one ListGroups per node")
	assert.Equal(t, 1, perKey[10], "one batched FindCoordinator")
	assert.Len(t, described, 3)
	total := 0
	for _, n := range described {
		total += n
	}
	assert.Equal(t, 1000, total)
}

// manyGroups is a 3-node cluster with n Stable streams groups, placed on
// nodes by Kafka's hash of the id.
func manyGroups(tb testing.TB, n int) *playground.Cluster {
	c, err := playground.Start(playground.Config{Nodes: 3})
	require.NoError(tb, err)
	tb.Cleanup(func() { _ = c.Close() })
	for i := range n {
		c.PutStreamsGroup(playground.StreamsGroup{ID: fmt.Sprintf("app-%04d", i), State: "Stable", GroupEpoch: 3, AssignmentEpoch: 3, AssignorName: "sticky",
			Members: []playground.Member{{MemberID: "m", ProcessID: "p", ClientID: "c"}}})
	}
	return c
}

// BenchmarkDescribeAllGroupsState times --describe --all-groups --state
// over 1,000 groups on 3 test-broker nodes, the whole CLI path in-process.
func BenchmarkDescribeAllGroupsState(b *testing.B) {
	b.Setenv("XDG_CONFIG_HOME", b.TempDir())
	b.Setenv("HOME", b.TempDir())
	c := manyGroups(b, 1000)
	args := []string{"--bootstrap-server", bootstrap(c), "--describe", "--all-groups", "--state"}
	b.ResetTimer()
	for b.Loop() {
		var out, errOut strings.Builder
		if code := testRun(b, args, IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}, deps{}); code != 0 {
			b.Fatalf("exit %d: %s", code, errOut.String())
		}
	}
}
