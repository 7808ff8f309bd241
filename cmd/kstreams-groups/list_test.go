package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

const apiListGroups = 16

// listCluster has one streams group per state, spread over three nodes,
// and groups of other types that --list must not show.
func listCluster(t *testing.T) *playground.Cluster {
	c := startCluster(t, 3, playground.Kafka44)
	for i, id := range []string{"wc-app", "em-app", "nr-app", "as-app", "re-app", "a-very-long-application-id-for-widths"} {
		state := []string{"Stable", "Empty", "NotReady", "Assigning", "Reconciling", "Stable"}[i]
		c.PutStreamsGroup(playground.StreamsGroup{ID: id, State: state})
		c.SetCoordinator(id, int32(i%3))
	}
	c.PutGroup("legacy-consumer", "classic", "consumer", "Stable")
	c.PutGroup("kip848-consumer", "consumer", "consumer", "Empty")
	return c
}

func TestList(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		args       []string
		wantStdout string // exact; golden when empty
		wantStderr string // exact: why a listing shows no group
	}{
		{name: "ids sorted, streams groups only", args: []string{"--list"},
			wantStdout: "a-very-long-application-id-for-widths\nas-app\nem-app\nnr-app\nre-app\nwc-app\n"},
		{name: "subcommand", args: []string{"list"},
			wantStdout: "a-very-long-application-id-for-widths\nas-app\nem-app\nnr-app\nre-app\nwc-app\n"},
		{name: "all groups is accepted", args: []string{"--list", "--all-groups"},
			wantStdout: "a-very-long-application-id-for-widths\nas-app\nem-app\nnr-app\nre-app\nwc-app\n"},
		{name: "state without a value", args: []string{"--list", "--state"}},
		{name: "state filter", args: []string{"--list", "--state", "stable,EMPTY"}},
		{name: "state filter with equals", args: []string{"list", "--state=Empty"},
			wantStdout: "GROUP           STATE\nem-app          Empty\n"},
		{name: "NotReady matches", args: []string{"--list", "--state", "NotReady"},
			wantStdout: "GROUP           STATE\nnr-app          NotReady\n"},
		{name: "no group in the state prints the header", args: []string{"--list", "--state", "Dead"},
			wantStdout: "GROUP           STATE\n", wantStderr: "No streams group is in state Dead.\n"},
		{name: "only commas means every state", args: []string{"--list", "--state", ","}},
		{name: "json", args: []string{"list", "-o", "json"}},
		{name: "yaml with a filter", args: []string{"--list", "--state", "notready,reconciling", "-o", "yaml"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			isolate(t)
			c := listCluster(t)
			r := runCLI(t, append([]string{"--bootstrap-server", bootstrap(c)}, tc.args...)...)
			require.Equal(t, 0, r.code, r.stderr)
			assert.Equal(t, tc.wantStderr, r.stderr)
			if tc.wantStdout != "" {
				assert.Equal(t, tc.wantStdout, r.stdout)
			} else {
				golden.Assert(t, []byte(r.stdout))
			}
		})
	}
}

// --list asks every broker once, with the streams type filter and no
// state filter (states are matched here, see admin.ListStreamsGroupsInStates).
func TestList_wire(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := listCluster(t)
	c.ResetRequests()
	r := runCLI(t, "--bootstrap-server", bootstrap(c), "--list", "--state", "NotReady")
	require.Equal(t, 0, r.code, r.stderr)
	nodes := map[int32]int{}
	for _, req := range c.Requests() {
		if req.Key != apiListGroups {
			continue
		}
		nodes[req.Node]++
		lg := req.Msg.(*kmsg.ListGroupsRequest)
		assert.EqualValues(t, 5, req.Version)
		assert.Equal(t, []string{"streams"}, lg.TypesFilter)
		assert.Empty(t, lg.StatesFilter)
	}
	assert.Equal(t, map[int32]int{0: 1, 1: 1, 2: 1}, nodes)
}

func TestList_errors(t *testing.T) {
	t.Parallel()
	const valid = "Valid states are: Empty, NotReady, Stable, Assigning, Reconciling, Dead\n"
	tests := []struct {
		name       string
		args       []string
		wantStderr string
		wantCode   int
	}{
		{name: "invalid state", args: []string{"--list", "--state", "foo"}, wantStderr: "Invalid state list 'foo'. " + valid, wantCode: 2},
		{name: "Kafka's internal spelling is not a state", args: []string{"list", "--state", "not_ready"}, wantStderr: "Invalid state list 'not_ready'. " + valid, wantCode: 2},
		{name: "empty entry", args: []string{"--list", "--state", "Stable,,Empty"}, wantStderr: "Invalid state list 'Stable,,Empty'. " + valid, wantCode: 2},
		{name: "graph output", args: []string{"list", "-o", "dot"}, wantStderr: "-o dot: list prints text, json or yaml, and prometheus with --state; -o dot is printed by describe --topology, overview and render", wantCode: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			isolate(t)
			c := listCluster(t)
			c.ResetRequests()
			r := runCLI(t, append([]string{"--bootstrap-server", bootstrap(c)}, tc.args...)...)
			assert.Equal(t, tc.wantCode, r.code)
			assert.Empty(t, r.stdout)
			assert.Contains(t, r.stderr, tc.wantStderr)
			assert.Empty(t, c.Requests(), "usage errors never reach the cluster")
		})
	}

	t.Run("listing fails", func(t *testing.T) {
		isolate(t)
		c := listCluster(t)
		c.InjectError(playground.Fault{Key: apiListGroups, ErrorCode: 30, Node: playground.AnyNode})
		r := runCLI(t, "--bootstrap-server", bootstrap(c), "--list", "--detailed-exit-codes")
		assert.Equal(t, exitNotAuthorized, r.code, r.stderr)
		assert.Empty(t, r.stdout)
		assert.Contains(t, r.stderr, "GROUP_AUTHORIZATION_FAILED")
	})
}
