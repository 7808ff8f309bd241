package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// randomPorts matches the test broker's port numbers in documents.
var randomPorts = regexp.MustCompile(`("port": |port: )\d+`)

const (
	keyFindCoordinator      = 10
	keyStreamsGroupDescribe = 89
)

// describeCluster is a 3-node 4.4 cluster holding one group per outcome,
// with coordinators spread over the nodes.
func describeCluster(t *testing.T) *playground.Cluster {
	c := startCluster(t, 3, playground.Kafka44)
	c.PutStreamsGroup(streamsGroup("word-count", tt.WordCount()))
	c.SetCoordinator("word-count", 1)
	c.PutStreamsGroup(streamsGroup("inventory", nil))
	c.SetCoordinator("inventory", 2)
	errGroup := streamsGroup("billing", nil)
	errGroup.DescriptionStatus = playground.StatusError
	c.PutStreamsGroup(errGroup)
	c.SetCoordinator("billing", 0)
	c.PutGroup("legacy-consumer", "classic", "consumer", "Stable")
	return c
}

// wordCountText is what kafka-streams-groups.sh 4.4.0 prints for
// topologytest.WordCount (TopologyDescriptionFormatter's rules, written out
// here so that the formatter is not its own oracle): nodes in wire order,
// sets sorted, the global store numbered after the subtopologies, and the
// extra line feed of Kafka's println.
const wordCountText = `Topologies:
   Sub-topology: 0
    Source: KSTREAM-SOURCE-0000000000 (topics: [words-input])
      --> KSTREAM-FLATMAPVALUES-0000000001
    Processor: KSTREAM-FLATMAPVALUES-0000000001 (stores: [])
      --> KSTREAM-KEY-SELECT-0000000002
      <-- KSTREAM-SOURCE-0000000000
    Processor: KSTREAM-KEY-SELECT-0000000002 (stores: [])
      --> counts-repartition-filter
      <-- KSTREAM-FLATMAPVALUES-0000000001
    Processor: counts-repartition-filter (stores: [])
      --> counts-repartition-sink
      <-- KSTREAM-KEY-SELECT-0000000002
    Sink: counts-repartition-sink (topic: word-count-counts-repartition)
      <-- counts-repartition-filter

   Sub-topology: 1
    Source: counts-repartition-source (topics: [word-count-counts-repartition])
      --> KSTREAM-AGGREGATE-0000000003
    Processor: KSTREAM-AGGREGATE-0000000003 (stores: [counts])
      --> KTABLE-TOSTREAM-0000000007
      <-- counts-repartition-source
    Processor: KTABLE-TOSTREAM-0000000007 (stores: [])
      --> KSTREAM-SINK-0000000008
      <-- KSTREAM-AGGREGATE-0000000003
    Sink: KSTREAM-SINK-0000000008 (topic: words-output)
      <-- KTABLE-TOSTREAM-0000000007

   Sub-topology: 2 for global store (will not generate tasks)
    Source: KSTREAM-SOURCE-0000000009 (topics: [stopwords])
      --> KTABLE-SOURCE-0000000010
    Processor: KTABLE-SOURCE-0000000010 (stores: [stopwords-store])
      --> none
      <-- KSTREAM-SOURCE-0000000009


`

func TestDescribeTopology(t *testing.T) {
	t.Parallel()
	wordCount := wordCountText
	tests := []struct {
		name         string
		args         []string
		wantStdout   string // exact; golden when empty and wantGolden
		wantGolden   bool
		wantStderr   string // substring; "" means stderr must be empty
		wantCode     int
		wantDetailed int
	}{
		{
			name:       "available prints exactly Kafka's text",
			args:       []string{"--describe", "--topology", "--group", "word-count"},
			wantStdout: wordCount,
		},
		{
			name:       "subcommand form prints the same",
			args:       []string{"describe", "--topology", "--group", "word-count"},
			wantStdout: wordCount,
		},
		{
			name:         "not stored",
			args:         []string{"--describe", "--topology", "--group", "inventory"},
			wantStdout:   "\nError: No topology description is stored for streams group 'inventory'.\n",
			wantCode:     1,
			wantDetailed: 3,
		},
		{
			name:         "error",
			args:         []string{"--describe", "--topology", "--group", "billing"},
			wantStdout:   "\nError: The broker failed to fetch the topology description for streams group 'billing'. See the broker logs for details.\n",
			wantCode:     1,
			wantDetailed: 4,
		},
		{
			name:         "missing group",
			args:         []string{"--describe", "--topology", "--group", "nope"},
			wantStderr:   "Error: streams group 'nope': GROUP_ID_NOT_FOUND: Group nope not found.\n",
			wantCode:     1,
			wantDetailed: 5,
		},
		{
			name:         "not a streams group",
			args:         []string{"--describe", "--topology", "--group", "legacy-consumer"},
			wantStderr:   "Error: streams group 'legacy-consumer': GROUP_ID_NOT_FOUND: Group legacy-consumer is not a streams group.\n",
			wantCode:     1,
			wantDetailed: 5,
		},
		{
			name:         "several groups in request order with the first failure's code",
			args:         []string{"--describe", "--topology", "--group", "inventory", "--group", "word-count", "--group", "nope", "--group", "billing"},
			wantGolden:   true,
			wantStderr:   "Error: streams group 'nope': GROUP_ID_NOT_FOUND: Group nope not found.\n",
			wantCode:     1,
			wantDetailed: 3,
		},
		{
			name:         "several groups where a missing one comes first",
			args:         []string{"describe", "--topology", "--group", "nope", "--group", "word-count"},
			wantGolden:   true,
			wantStderr:   "Error: streams group 'nope': GROUP_ID_NOT_FOUND",
			wantCode:     1,
			wantDetailed: 5,
		},
		{
			name:         "all groups are streams groups only, sorted",
			args:         []string{"--describe", "--topology", "--all-groups"},
			wantGolden:   true,
			wantCode:     1,
			wantDetailed: 4,
		},
		{
			name:         "json document",
			args:         []string{"describe", "--topology", "--group", "word-count", "--group", "inventory", "--group", "nope", "-o", "json"},
			wantGolden:   true,
			wantStderr:   "Error: streams group 'nope': GROUP_ID_NOT_FOUND: Group nope not found.\n",
			wantCode:     1,
			wantDetailed: 3,
		},
		{
			name:         "yaml document",
			args:         []string{"--describe", "--topology", "--group", "word-count", "--group", "billing", "--output", "yaml"},
			wantGolden:   true,
			wantCode:     1,
			wantDetailed: 4,
		},
		{
			name:       "a repeated group is printed for each occurrence",
			args:       []string{"--describe", "--topology", "--group", "word-count", "--group", "word-count"},
			wantGolden: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			isolate(t)
			c := describeCluster(t)
			for _, detailed := range []bool{false, true} {
				r := runMode(t, c, detailed, tc.wantCode, tc.wantDetailed, tc.wantStderr, tc.args...)
				if tc.wantGolden {
					golden.Assert(t, []byte(randomPorts.ReplaceAllString(r.stdout, "${1}PORT")))
				} else {
					assert.Equal(t, tc.wantStdout, r.stdout)
				}
			}
		})
	}
}

// Each describe goes to the group's coordinator: one FindCoordinator for all
// groups, then one StreamsGroupDescribe v1 per coordinator node, with
// IncludeTopologyDescription set.
func TestDescribeTopology_routesToCoordinators(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := describeCluster(t)
	c.PutStreamsGroup(streamsGroup("word-count-2", tt.WordCount()))
	c.SetCoordinator("word-count-2", 1)
	c.ResetRequests()

	r := runCLI(t, "--bootstrap-server", bootstrap(c), "--describe", "--topology",
		"--group", "word-count", "--group", "inventory", "--group", "word-count-2", "--group", "billing")
	require.Equal(t, 1, r.code, r.stderr)

	var finds, describes int
	perNode := map[int32][]string{}
	for _, req := range c.Requests() {
		switch req.Key {
		case keyFindCoordinator:
			finds++
			assert.ElementsMatch(t, []string{"word-count", "inventory", "word-count-2", "billing"}, req.Groups)
		case keyStreamsGroupDescribe:
			describes++
			assert.EqualValues(t, 1, req.Version)
			assert.True(t, req.Msg.(*kmsg.StreamsGroupDescribeRequest).IncludeTopologyDescription)
			perNode[req.Node] = append(perNode[req.Node], req.Groups...)
		}
	}
	assert.Equal(t, 1, finds, "one batched FindCoordinator")
	assert.Equal(t, 3, describes, "one StreamsGroupDescribe per coordinator node")
	assert.Equal(t, map[int32][]string{0: {"billing"}, 1: {"word-count", "word-count-2"}, 2: {"inventory"}}, perNode)
}

// A group whose coordinator moved after FindCoordinator answered is retried
// at its new coordinator; the other groups are not asked again.
func TestDescribeTopology_coordinatorMove(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := describeCluster(t)
	// The first FindCoordinator still names node 1 for word-count, which
	// has moved to node 2 and so answers NOT_COORDINATOR.
	c.SetCoordinator("word-count", 2)
	stale := kmsg.NewPtrFindCoordinatorResponse()
	for _, g := range []string{"word-count", "inventory"} {
		co := kmsg.NewFindCoordinatorResponseCoordinator()
		co.Key, co.NodeID, co.Host = g, 1, "127.0.0.1"
		stale.Coordinators = append(stale.Coordinators, co)
	}
	c.SetRawResponse(keyFindCoordinator, playground.AnyNode, func(v int16) []byte {
		stale.SetVersion(v)
		port := portOf(t, c.Addrs()[1])
		for i := range stale.Coordinators {
			stale.Coordinators[i].Port = port
		}
		return stale.AppendTo(nil)
	}, 1)
	c.SetCoordinator("inventory", 1)
	c.ResetRequests()

	r := runCLI(t, "--bootstrap-server", bootstrap(c), "--describe", "--topology", "--group", "word-count", "--group", "inventory")
	assert.Equal(t, 1, r.code)
	assert.Empty(t, r.stderr)
	golden.Assert(t, []byte(r.stdout))

	// FindCoordinator may go to any node, and kgo orders its keys as it
	// likes, so neither is asserted.
	type call struct {
		api    string
		node   int32
		groups string
	}
	var trail []call
	for _, req := range c.Requests() {
		if req.Key == keyFindCoordinator || req.Key == keyStreamsGroupDescribe {
			cl := call{api: requestName(req.Key), node: req.Node, groups: strings.Join(req.Groups, ",")}
			if req.Key == keyFindCoordinator {
				cl.node = -1
				cl.groups = strings.Join(slices.Sorted(slices.Values(req.Groups)), ",")
			}
			trail = append(trail, cl)
		}
	}
	assert.Equal(t, []call{
		{"FindCoordinator", -1, "inventory,word-count"},
		{"StreamsGroupDescribe", 1, "word-count,inventory"},
		{"FindCoordinator", -1, "word-count"}, // only the moved group is looked up again
		{"StreamsGroupDescribe", 2, "word-count"},
	}, trail)
}

func TestDescribeTopology_retriesCoordinatorErrors(t *testing.T) {
	t.Parallel()
	for _, code := range []int16{kerr.NotCoordinator.Code, kerr.CoordinatorNotAvailable.Code, kerr.CoordinatorLoadInProgress.Code} {
		t.Run(kerr.ErrorForCode(code).Error(), func(t *testing.T) {
			isolate(t)
			c := describeCluster(t)
			c.InjectError(playground.Fault{Key: keyStreamsGroupDescribe, Group: "word-count", ErrorCode: code, Times: 2, Node: playground.AnyNode})
			r := runCLI(t, "--bootstrap-server", bootstrap(c), "--describe", "--topology", "--group", "word-count")
			assert.Equal(t, 0, r.code, r.stderr)
			assert.True(t, strings.HasPrefix(r.stdout, "Topologies:\n"))
		})
	}
}

func TestDescribeTopology_coordinatorErrorsUntilTimeout(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := describeCluster(t)
	c.InjectError(playground.Fault{Key: keyStreamsGroupDescribe, Group: "word-count", ErrorCode: kerr.CoordinatorLoadInProgress.Code, Node: playground.AnyNode})
	for _, detailed := range []bool{false, true} {
		args := []string{"--bootstrap-server", bootstrap(c), "--timeout", "700", "--describe", "--topology", "--group", "word-count", "--group", "inventory"}
		want := 1
		if detailed {
			args, want = append(args, "--detailed-exit-codes"), 7
		}
		r := runCLI(t, args...)
		assert.Equal(t, want, r.code)
		assert.Equal(t, "Error: streams group 'word-count': StreamsGroupDescribe: timed out (last error: COORDINATOR_LOAD_IN_PROGRESS: The coordinator is loading and hence can't process requests.) (--timeout 700 ms)\n", r.stderr)
		assert.Equal(t, "Streams group 'inventory':\n\nError: No topology description is stored for streams group 'inventory'.\n", r.stdout, "the other group is still described")
	}
}

func TestDescribeTopology_brokerTooOld(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := startCluster(t, 2, playground.Kafka43)
	c.PutStreamsGroup(streamsGroup("word-count", tt.WordCount()))
	c.ResetRequests()
	for _, detailed := range []bool{false, true} {
		args := []string{"--bootstrap-server", bootstrap(c), "--describe", "--topology", "--group", "word-count"}
		want := 1
		if detailed {
			args, want = append(args, "--detailed-exit-codes"), 8
		}
		r := runCLI(t, args...)
		assert.Equal(t, want, r.code)
		assert.Empty(t, r.stdout)
		assert.Equal(t, "Error: streams group 'word-count': topology descriptions: broker "+itoa(int(c.Coordinator("word-count")))+
			" supports only v0 of StreamsGroupDescribe, v1 is needed (Apache Kafka 4.4 or newer)\n", r.stderr)
	}
	for _, req := range c.Requests() {
		assert.NotEqualValues(t, keyStreamsGroupDescribe, req.Key, "no downgraded describe may be sent")
	}
}

func TestDescribeTopology_malformedResponses(t *testing.T) {
	t.Parallel()
	sink := "out"
	tests := []struct {
		name    string
		group   func() playground.StreamsGroup
		raw     func() kmsg.StreamsGroupDescribeResponseGroup // served instead of the broker's answer
		wantErr string
	}{
		{
			name: "unknown node type",
			group: func() playground.StreamsGroup {
				g := streamsGroup("g", nil)
				g.Description = &playground.Description{Subtopologies: []playground.DescriptionSubtopology{{ID: "0", Nodes: []playground.Node{{Name: "x", Type: 9}}}}}
				return g
			},
			wantErr: "Error: streams group 'g': malformed response from the broker: Unknown topology node type: 9\n",
		},
		{
			name: "global store that is not a source and a processor",
			group: func() playground.StreamsGroup {
				g := streamsGroup("g", nil)
				g.Description = &playground.Description{GlobalStores: []playground.GlobalStore{{
					Source:    playground.Node{Name: "s", Type: playground.NodeSource},
					Processor: playground.Node{Name: "k", Type: playground.NodeSink, SinkTopic: &sink},
				}}}
				return g
			},
			wantErr: "Error: streams group 'g': malformed response from the broker: Global store must be composed of a source and a processor node.\n",
		},
		{
			name: "available without a description",
			group: func() playground.StreamsGroup {
				g := streamsGroup("g", nil)
				g.DescriptionStatus = playground.StatusAvailable
				return g
			},
			wantErr: "Error: streams group 'g': malformed response from the broker: Topology description is missing despite status AVAILABLE\n",
		},
		{
			name: "unknown status byte",
			group: func() playground.StreamsGroup {
				g := streamsGroup("g", nil)
				g.DescriptionStatus = 7
				return g
			},
			wantErr: "Error: streams group 'g': malformed response from the broker: Unknown topology description status 7\n",
		},
		{
			name:  "not requested although requested",
			group: func() playground.StreamsGroup { return streamsGroup("g", nil) },
			raw: func() kmsg.StreamsGroupDescribeResponseGroup {
				row := kmsg.NewStreamsGroupDescribeResponseGroup()
				row.Group, row.State = "g", "Stable"
				return row // status 0 NOT_REQUESTED
			},
			wantErr: "Error: streams group 'g': malformed response from the broker: the broker answered NOT_REQUESTED although the topology description was requested\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			isolate(t)
			c := startCluster(t, 1, playground.Kafka44)
			c.PutStreamsGroup(tc.group())
			if tc.raw != nil {
				c.SetRawResponse(keyStreamsGroupDescribe, playground.AnyNode, func(v int16) []byte {
					resp := kmsg.NewPtrStreamsGroupDescribeResponse()
					resp.SetVersion(v)
					resp.Groups = append(resp.Groups, tc.raw())
					return resp.AppendTo(nil)
				}, 0)
			}
			r := runCLI(t, "--bootstrap-server", bootstrap(c), "--describe", "--topology", "--group", "g", "--detailed-exit-codes")
			assert.Equal(t, 1, r.code)
			assert.Empty(t, r.stdout)
			assert.Equal(t, tc.wantErr, r.stderr)
		})
	}
}

// Bytes that do not decode are a broken answer, not a broken connection:
// no retry can fix the broker that sends them, so the group fails at once,
// after one request, as a malformed response (exit 1). Until issue 13 they
// were retried until --timeout (e2e/FINDINGS.md F143).
func TestDescribeTopology_undecodableResponse(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := describeCluster(t)
	c.SetRawResponse(keyStreamsGroupDescribe, playground.AnyNode, func(int16) []byte { return []byte{0, 0, 0, 0, 5, 0xff} }, 0)
	c.ResetRequests()
	r := runCLI(t, "--bootstrap-server", bootstrap(c), "--timeout", "10000", "--describe", "--topology", "--group", "word-count", "--detailed-exit-codes")
	assert.Equal(t, 1, r.code)
	assert.Empty(t, r.stdout)
	assert.Regexp(t, `^Error: streams group 'word-count': invalid response from broker 127\.0\.0\.1:\d+ to StreamsGroupDescribe: the answer ends before its message does\n$`, r.stderr)
	sent := 0
	for _, req := range c.Requests() {
		if req.Key == keyStreamsGroupDescribe {
			sent++
		}
	}
	assert.Equal(t, 1, sent, "not asked again")
}

func TestDescribeTopology_unreachableCluster(t *testing.T) {
	t.Parallel()
	isolate(t)
	addr := closedPort(t)
	for _, detailed := range []bool{false, true} {
		args := []string{"--bootstrap-server", addr, "--describe", "--topology", "--group", "g"}
		want := 1
		if detailed {
			args, want = append(args, "--detailed-exit-codes"), 7
		}
		r := runCLI(t, args...)
		assert.Equal(t, want, r.code)
		assert.Empty(t, r.stdout)
		assert.Equal(t, "Error: streams group 'g': no bootstrap server could be reached: "+addr+" (connection refused); check the host and port of --bootstrap-server and that the broker is running\n", r.stderr)
	}
}

func TestDescribeTopology_bootstrapSources(t *testing.T) {
	t.Parallel()
	t.Run("environment", func(t *testing.T) {
		isolate(t)
		c := describeCluster(t)
		setenv(t, "KSTREAMS_GROUPS_BOOTSTRAP_SERVER", bootstrap(c))
		r := runCLI(t, "describe", "--topology", "--group", "word-count")
		assert.Equal(t, 0, r.code, r.stderr)
	})
	t.Run("config file", func(t *testing.T) {
		isolate(t)
		c := describeCluster(t)
		dir := filepath.Join(testEnv(t).get("XDG_CONFIG_HOME"), "kstreams-groups")
		require.NoError(t, os.MkdirAll(dir, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "config.yaml"), []byte("bootstrap-server: "+bootstrap(c)+"\ndetailed-exit-codes: true\n"), 0o600))
		r := runCLI(t, "describe", "--topology", "--group", "inventory")
		assert.Equal(t, 3, r.code, "detailed exit codes from the config file; stderr: %s", r.stderr)
	})
	t.Run("explicit config file", func(t *testing.T) {
		isolate(t)
		c := describeCluster(t)
		f := filepath.Join(t.TempDir(), "kg.yaml")
		require.NoError(t, os.WriteFile(f, []byte("bootstrap-server: "+bootstrap(c)+"\n"), 0o600))
		r := runCLI(t, "--config", f, "--describe", "--topology", "--group", "word-count")
		assert.Equal(t, 0, r.code, r.stderr)
	})
	t.Run("flag beats environment beats file", func(t *testing.T) {
		isolate(t)
		c := describeCluster(t)
		f := filepath.Join(t.TempDir(), "kg.yaml")
		require.NoError(t, os.WriteFile(f, []byte("bootstrap-server: "+closedPort(t)+"\n"), 0o600))
		setenv(t, "KSTREAMS_GROUPS_BOOTSTRAP_SERVER", bootstrap(c))
		r := runCLI(t, "--config", f, "--timeout", "3000", "--describe", "--topology", "--group", "word-count")
		assert.Equal(t, 0, r.code, "environment beats file; stderr: %s", r.stderr)
		r = runCLI(t, "--config", f, "--bootstrap-server", closedPort(t), "--timeout", "300", "--describe", "--topology", "--group", "word-count")
		assert.Equal(t, 1, r.code, "flag beats environment")
	})
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		args       []string
		env        map[string]string
		config     string
		wantStderr string
	}{
		{name: "missing bootstrap server", args: []string{"--describe", "--topology", "--group", "g"}, wantStderr: "Missing required argument \"[bootstrap-server]\"\n"},
		{name: "topology without describe", args: []string{"--bootstrap-server", "x:1", "--topology", "--group", "g"}, wantStderr: "Option(s) [topology] are unavailable given other options on the command line\n"},
		{name: "no action", args: []string{"--bootstrap-server", "x:1", "--group", "g"}, wantStderr: "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, or --delete-offsets.\n"},
		{name: "describe without group", args: []string{"--bootstrap-server", "x:1", "--describe", "--topology"}, wantStderr: "Option [describe] takes one of these options: [all-groups], [group]\n"},
		{name: "subcommand without group", args: []string{"describe", "--bootstrap-server", "x:1", "--topology"}, wantStderr: "Option [describe] takes one of these options: [all-groups], [group]\n"},
		{name: "group and all groups", args: []string{"--bootstrap-server", "x:1", "--describe", "--topology", "--group", "g", "--all-groups"}, wantStderr: "Option \"[group]\" can't be used with option \"[all-groups]\"\n"},
		{name: "members without describe", args: []string{"--bootstrap-server", "x:1", "--list", "--members"}, wantStderr: "Option(s) [members] are unavailable given other options on the command line\n"},
		{name: "state without list or describe", args: []string{"--bootstrap-server", "x:1", "--delete", "--group", "g", "--state"}, wantStderr: "Option(s) [state] are unavailable given other options on the command line\n"},
		{name: "topology with list", args: []string{"--bootstrap-server", "x:1", "--list", "--topology"}, wantStderr: "Option(s) [topology] are unavailable given other options on the command line\n"},
		{name: "topology with members", args: []string{"--bootstrap-server", "x:1", "--describe", "--topology", "--members", "--group", "g"}, wantStderr: "Option [describe] takes at most one of these options: [members], [offsets], [state], [topology]\n"},
		{name: "describe state with a value", args: []string{"--bootstrap-server", "x:1", "--describe", "--group", "g", "--state", "Stable"}, wantStderr: "Option [describe] does not take a value for [state]\n"},
		{name: "delete without group", args: []string{"--bootstrap-server", "x:1", "--delete"}, wantStderr: "Option [delete] takes one of these options: [all-groups], [group]\n"},
		{name: "internal topics without delete", args: []string{"--bootstrap-server", "x:1", "--describe", "--group", "g", "--delete-all-internal-topics"}, wantStderr: "Option [delete-all-internal-topics] takes one of these options: [delete], [reset-offsets]\n"},
		{name: "two actions", args: []string{"--bootstrap-server", "x:1", "--describe", "--delete", "--group", "g"}, wantStderr: "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, or --delete-offsets.\n"},
		{name: "group with list", args: []string{"--bootstrap-server", "x:1", "--list", "--group", "g"}, wantStderr: "Option \"[group]\" can't be used with option \"[list]\"\n"},
		{name: "unknown output format", args: []string{"--bootstrap-server", "x:1", "--describe", "--topology", "--group", "g", "-o", "xml"}, wantStderr: "unknown output format \"xml\" (want text, json, yaml, dot, mermaid, svg, png, prometheus)\n"},
		{name: "unknown flag", args: []string{"--bootstrap-server", "x:1", "--frivolous-nonsense"}, wantStderr: "unknown flag: --frivolous-nonsense\n"},
		{name: "stray argument", args: []string{"--bootstrap-server", "x:1", "--describe", "oops"}, wantStderr: "unexpected argument \"oops\"\n"},
		{name: "bad timeout", args: []string{"--bootstrap-server", "x:1", "--timeout", "0", "--describe", "--topology", "--group", "g"}, wantStderr: "invalid timeout 0: want a positive number of milliseconds or a duration such as 10s, 500ms or 1m\n"},
		{name: "timeout from environment not a number", args: []string{"--bootstrap-server", "x:1", "--describe", "--topology", "--group", "g"}, env: map[string]string{"KSTREAMS_GROUPS_TIMEOUT": "soon"}, wantStderr: "invalid timeout soon"},
		{name: "unknown config key", args: []string{"--describe", "--topology", "--group", "g"}, config: "bootstrap-servers: x:1\n", wantStderr: "line 1: unknown key \"bootstrap-servers\""},
		{name: "config file not yaml", args: []string{"--describe", "--topology", "--group", "g"}, config: "bootstrap-server: [\n", wantStderr: "config file "},
		{name: "missing explicit config file", args: []string{"--config", "/nonexistent/kg.yaml", "--describe", "--topology", "--group", "g"}, wantStderr: "cannot read config file: open /nonexistent/kg.yaml"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			isolate(t)
			for k, v := range tc.env {
				setenv(t, k, v)
			}
			args := tc.args
			if tc.config != "" {
				f := filepath.Join(t.TempDir(), "kg.yaml")
				require.NoError(t, os.WriteFile(f, []byte(tc.config), 0o600))
				args = append([]string{"--config", f}, args...)
			}
			r := runCLI(t, args...)
			assert.Equal(t, 2, r.code)
			assert.Empty(t, r.stdout)
			assert.Contains(t, r.stderr, tc.wantStderr)
			assert.Regexp(t, `Run 'kstreams-groups( describe)? --help' for usage.\n$`, r.stderr)
		})
	}
}

func TestHelpExitsZero(t *testing.T) {
	t.Parallel()
	isolate(t)
	for _, args := range [][]string{{"--help"}, {"describe", "--help"}, {"-h"}} {
		r := runCLI(t, args...)
		assert.Equal(t, 0, r.code)
		assert.Contains(t, r.stdout, "Exit status:")
		assert.Empty(t, r.stderr)
	}
	r := runCLI(t)
	assert.Equal(t, 2, r.code, "no arguments is a usage error")
}

func requestName(key int16) string {
	switch key {
	case keyFindCoordinator:
		return "FindCoordinator"
	case keyStreamsGroupDescribe:
		return "StreamsGroupDescribe"
	}
	return itoa(int(key))
}

func TestJoinStateArg(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want []string }{
		{[]string{"--list", "--state", "Stable"}, []string{"--list", "--state=Stable"}},
		{[]string{"--list", "--state", "--group", "g"}, []string{"--list", "--state=\x00", "--group", "g"}},
		{[]string{"--list", "--state"}, []string{"--list", "--state=\x00"}},
		{[]string{"--list", "--state", "--"}, []string{"--list", "--state=\x00", "--"}},
		{[]string{"--", "--state", "x"}, []string{"--", "--state", "x"}},
		{[]string{"--state=Empty,Stable"}, []string{"--state=Empty,Stable"}},
		{[]string{"--state=", "x"}, []string{"--state=", "x"}},
		{[]string{"__complete", "--list", "--state"}, []string{"__complete", "--list", "--state"}},
		{[]string{"__complete", "--list", "--state", ""}, []string{"__complete", "--list", "--state="}},
		{[]string{"__complete", "--list", "--state", "--group", ""}, []string{"__complete", "--list", "--state=\x00", "--group", ""}},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, joinOptionalArgs(tc.in))
	}
}
