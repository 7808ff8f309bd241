package playground

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// startMixed is a cluster with one group of each kind per node.
func startMixed(t *testing.T) *Cluster {
	t.Helper()
	c := startCluster(t, Config{Nodes: 3})
	put := func(id string, node int32, typ, proto, state string) {
		if typ == "streams" {
			c.PutStreamsGroup(StreamsGroup{ID: id, State: state})
		} else {
			c.PutGroup(id, typ, proto, state)
		}
		c.SetCoordinator(id, node)
	}
	put("s-stable", 0, "streams", "", "Stable")
	put("s-notready", 1, "streams", "", "NotReady")
	put("s-empty", 2, "streams", "", "Empty")
	put("c-stable", 0, "classic", "consumer", "Stable")
	put("k-empty", 1, "consumer", "consumer", "Empty")
	put("sh-stable", 2, "share", "share", "Stable")
	return c
}

func TestListGroups_Filters(t *testing.T) {
	t.Parallel()
	c := startMixed(t)
	tests := []struct {
		name    string
		version int16
		states  []string
		types   []string
		want    map[string]int32 // group -> node that listed it
	}{
		{
			name: "v5 streams type", version: 5, types: []string{"streams"},
			want: map[string]int32{"s-stable": 0, "s-notready": 1, "s-empty": 2},
		},
		{
			name: "v5 type is case-insensitive", version: 5, types: []string{" Streams "},
			want: map[string]int32{"s-stable": 0, "s-notready": 1, "s-empty": 2},
		},
		{
			name: "v5 unknown type matches nothing", version: 5, types: []string{"bogus"},
			want: map[string]int32{},
		},
		{
			name: "v5 states and types", version: 5, states: []string{"stable"}, types: []string{"streams", "share"},
			want: map[string]int32{"s-stable": 0, "sh-stable": 2},
		},
		{
			name: "v4 NotReady matches nothing (broker quirk)", version: 4, states: []string{"NotReady"},
			want: map[string]int32{},
		},
		{
			name: "v4 not_ready matches", version: 4, states: []string{"not_ready"},
			want: map[string]int32{"s-notready": 1},
		},
		{
			name: "v4 states are lower-cased and trimmed", version: 4, states: []string{" EMPTY"},
			want: map[string]int32{"s-empty": 2, "k-empty": 1},
		},
		{
			name: "v3 cannot filter", version: 3, states: []string{"Stable"}, types: []string{"streams"},
			want: map[string]int32{"s-stable": 0, "s-notready": 1, "s-empty": 2, "c-stable": 0, "k-empty": 1, "sh-stable": 2},
		},
		{
			name: "v0", version: 0,
			want: map[string]int32{"s-stable": 0, "s-notready": 1, "s-empty": 2, "c-stable": 0, "k-empty": 1, "sh-stable": 2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cl := newClient(t, c, map[int16]int16{16: tt.version})
			got := map[string]int32{}
			for node := range int32(3) {
				req := kmsg.NewPtrListGroupsRequest()
				req.StatesFilter, req.TypesFilter = tt.states, tt.types
				resp := brokerRequest[*kmsg.ListGroupsResponse](t, cl, node, req)
				require.Equal(t, tt.version, resp.GetVersion())
				require.Zero(t, resp.ErrorCode)
				for _, g := range resp.Groups {
					got[g.Group] = node
					if g.Group[0] == 's' && g.Group[1] == '-' {
						assert.Equal(t, "streams", g.ProtocolType)
					}
					if tt.version >= 5 {
						assert.NotEmpty(t, g.GroupType)
					}
				}
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestListGroups_Kadm(t *testing.T) {
	t.Parallel()
	c := startMixed(t)
	cl := newClient(t, c, nil)
	listed, err := kadm.NewClient(cl).ListGroupsByType(testCtx(t), []string{"streams"})
	require.NoError(t, err)
	got := map[string][2]string{}
	for _, g := range listed.Sorted() {
		got[g.Group] = [2]string{g.GroupType, g.State}
		assert.Equal(t, c.Coordinator(g.Group), g.Coordinator)
	}
	assert.Equal(t, map[string][2]string{
		"s-empty":    {"streams", "Empty"},
		"s-notready": {"streams", "NotReady"},
		"s-stable":   {"streams", "Stable"},
	}, got)
}

func TestListGroups_Fault(t *testing.T) {
	t.Parallel()
	c := startMixed(t)
	c.InjectError(Fault{Key: 16, ErrorCode: 14, Times: 1, Node: 1})
	c.InjectError(Fault{Key: 16, Group: "s-notready", ErrorCode: 15, Node: AnyNode}) // per-group faults do not apply
	cl := newClient(t, c, nil)

	resp := brokerRequest[*kmsg.ListGroupsResponse](t, cl, 1, kmsg.NewPtrListGroupsRequest())
	assert.Equal(t, int16(14), resp.ErrorCode)
	assert.Empty(t, resp.Groups)

	resp = brokerRequest[*kmsg.ListGroupsResponse](t, cl, 1, kmsg.NewPtrListGroupsRequest())
	assert.Zero(t, resp.ErrorCode)
	assert.Len(t, resp.Groups, 2)
}
