package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/playground"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// wireLog is the test broker's request log as API names, and the number
// of connections the requests came on.
func wireLog(c *playground.Cluster) (names []string, conns int) {
	seen := map[int]bool{}
	for _, r := range c.Requests() {
		names = append(names, kmsg.NameForKey(r.Key))
		seen[r.Conn] = true
	}
	return names, len(seen)
}

// A single-group --describe --topology costs ApiVersions (franz-go's
// handshake), FindCoordinator and the describe, on one connection, when
// the bootstrap broker coordinates the group: the version check reads the
// handshake's table, and the describe goes over the bootstrap connection
// with no Metadata round trip. Before, it took 6 requests over 2
// connections (7 over 3 on a 3-node cluster). e2e/FINDINGS.md F146.
func TestRoundTrips_describeTopology(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		nodes     int
		seeds     []int // the nodes given as bootstrap servers
		coord     int32
		wantNames []string // exact, when the path is deterministic
		maxReqs   int
		wantConns int // exact; 0 means at most 2
	}{
		{name: "one broker", nodes: 1, seeds: []int{0}, coord: 0,
			wantNames: []string{"ApiVersions", "FindCoordinator", "StreamsGroupDescribe"}, maxReqs: 3, wantConns: 1},
		{name: "the bootstrap broker is the coordinator", nodes: 3, seeds: []int{1}, coord: 1,
			wantNames: []string{"ApiVersions", "FindCoordinator", "StreamsGroupDescribe"}, maxReqs: 3, wantConns: 1},
		{name: "another bootstrap broker is the coordinator", nodes: 3, seeds: []int{0, 1, 2}, coord: 2, maxReqs: 4},
		// franz-go reaches a broker that is no bootstrap server by its node
		// id, which a Metadata request resolves.
		{name: "the coordinator is no bootstrap server", nodes: 3, seeds: []int{0}, coord: 2,
			wantNames: []string{"ApiVersions", "FindCoordinator", "Metadata", "ApiVersions", "StreamsGroupDescribe"}, maxReqs: 5, wantConns: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			isolate(t)
			c := startCluster(t, tc.nodes, playground.Kafka44)
			c.PutStreamsGroup(streamsGroup("word-count", tt.WordCount()))
			c.SetCoordinator("word-count", tc.coord)
			var seeds []string
			for _, i := range tc.seeds {
				seeds = append(seeds, c.Addrs()[i])
			}
			c.ResetRequests()
			r := runCLI(t, "--bootstrap-server", strings.Join(seeds, ","), "--describe", "--topology", "--group", "word-count")
			require.Equal(t, exitOK, r.code, r.stderr)
			assert.Equal(t, wordCountText, r.stdout)
			names, conns := wireLog(c)
			t.Logf("%d requests over %d connections: %v", len(names), conns, names)
			if tc.wantNames != nil {
				assert.Equal(t, tc.wantNames, names)
			}
			assert.LessOrEqual(t, len(names), tc.maxReqs)
			if tc.wantConns > 0 {
				assert.Equal(t, tc.wantConns, conns)
			} else {
				assert.LessOrEqual(t, conns, 2)
			}
			assert.Equal(t, conns, count(names, "ApiVersions"), "one ApiVersions per connection: franz-go's handshake, none of our own")
			for _, r := range c.Requests() {
				if r.Key == keyStreamsGroupDescribe {
					assert.Equal(t, tc.coord, r.Node, "the describe reaches the coordinator")
				}
			}
		})
	}
}

// The version check still refuses a broker too old for --topology before
// anything is sent to it, from the handshake's table alone.
func TestRoundTrips_brokerTooOld(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := startCluster(t, 1, playground.Kafka43)
	c.PutStreamsGroup(streamsGroup("word-count", tt.WordCount()))
	c.ResetRequests()
	r := runCLI(t, "--bootstrap-server", bootstrap(c), "--describe", "--topology", "--group", "word-count", "--detailed-exit-codes")
	assert.Equal(t, exitTooOld, r.code, r.stderr)
	names, conns := wireLog(c)
	assert.Equal(t, []string{"ApiVersions", "FindCoordinator"}, names)
	assert.Equal(t, 1, conns)
}

// The other group requests share the path: --describe --offsets (with its
// OffsetFetch version check) and --delete reach a bootstrap coordinator
// over the bootstrap connection.
func TestRoundTrips_offsetsAndDelete(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := startCluster(t, 1, playground.Kafka44)
	c.PutStreamsGroup(streamsGroup("word-count", tt.WordCount()))
	c.ResetRequests()
	r := runCLI(t, "--bootstrap-server", bootstrap(c), "--describe", "--offsets", "--group", "word-count")
	require.Equal(t, exitOK, r.code, r.stderr)
	names, conns := wireLog(c)
	t.Logf("--offsets: %v over %d connections", names, conns)
	assert.Equal(t, conns, count(names, "ApiVersions"))

	c.PutStreamsGroup(emptyGroup("gone"))
	c.ResetRequests()
	r = runCLI(t, "--bootstrap-server", bootstrap(c), "--delete", "--group", "gone")
	require.Equal(t, exitOK, r.code, r.stderr)
	names, conns = wireLog(c)
	t.Logf("--delete: %v over %d connections", names, conns)
	assert.Equal(t, conns, count(names, "ApiVersions"))
}

func count(names []string, name string) int {
	n := 0
	for _, s := range names {
		if s == name {
			n++
		}
	}
	return n
}
