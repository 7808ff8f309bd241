package playground

import (
	"fmt"
	"net"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"
)

func TestCoordinator_DefaultPlacement(t *testing.T) {
	t.Parallel()
	c := startCluster(t, Config{Nodes: 3})
	// "test".hashCode() is 3556498: partition 48 of 50, and 48 % 3 = 0.
	assert.Equal(t, int32(0), c.Coordinator("test"))
	assert.Equal(t, int32(0), defaultPlacement("", 3))

	used := map[int32]bool{}
	for i := range 30 {
		n := c.Coordinator(fmt.Sprintf("app-%d", i))
		require.GreaterOrEqual(t, n, int32(0))
		require.Less(t, n, int32(3))
		used[n] = true
	}
	assert.Len(t, used, 3, "default placement spreads groups over every node")

	c.SetCoordinator("test", 2)
	assert.Equal(t, int32(2), c.Coordinator("test"))
}

func TestFindCoordinator_BatchedPlacement(t *testing.T) {
	t.Parallel()
	c := startCluster(t, Config{Nodes: 3})
	c.SetCoordinator("g-a", 1)
	c.SetCoordinator("g-b", 2)
	c.SetCoordinator("g-c", 0)
	cl := newClient(t, c, nil)
	c.ResetRequests()

	req := kmsg.NewPtrFindCoordinatorRequest()
	req.CoordinatorType = 0
	req.CoordinatorKeys = []string{"g-a", "g-b", "g-c", "hashed"}
	resp, err := req.RequestWith(testCtx(t), cl)
	require.NoError(t, err)

	got := map[string]int32{}
	for _, co := range resp.Coordinators {
		require.Zero(t, co.ErrorCode, co.Key)
		got[co.Key] = co.NodeID
		assert.Equal(t, c.Addrs()[co.NodeID], net.JoinHostPort(co.Host, strconv.Itoa(int(co.Port))))
	}
	assert.Equal(t, map[string]int32{"g-a": 1, "g-b": 2, "g-c": 0, "hashed": c.Coordinator("hashed")}, got)

	var logged []Request
	for _, r := range c.Requests() {
		if r.Key == 10 {
			logged = append(logged, r)
		}
	}
	require.Len(t, logged, 1, "kgo sends one batched v4+ request")
	assert.Equal(t, int16(6), logged[0].Version)
	// kgo de-duplicates the keys through a map, so their order is lost.
	assert.ElementsMatch(t, []string{"g-a", "g-b", "g-c", "hashed"}, logged[0].Groups)
}

func TestFindCoordinator_EveryVersion(t *testing.T) {
	t.Parallel()
	c := startCluster(t, Config{Nodes: 3})
	c.SetCoordinator("g", 2)
	for v := int16(0); v <= 6; v++ {
		t.Run(fmt.Sprintf("v%d", v), func(t *testing.T) {
			raw := dialRaw(t, c.Addrs()[0])
			req := kmsg.NewPtrFindCoordinatorRequest()
			req.Version = v
			req.CoordinatorKey = "g"
			req.CoordinatorKeys = []string{"g"}
			resp := decode[*kmsg.FindCoordinatorResponse](t, raw, req)
			if v < 4 {
				assert.Zero(t, resp.ErrorCode)
				assert.Equal(t, int32(2), resp.NodeID)
				assert.Empty(t, resp.Coordinators)
				return
			}
			require.Len(t, resp.Coordinators, 1)
			assert.Equal(t, "g", resp.Coordinators[0].Key)
			assert.Equal(t, int32(2), resp.Coordinators[0].NodeID)
		})
	}
}

func TestFindCoordinator_Faults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		fault     Fault
		version   int16
		wantCodes []int16 // per successive request for group "g"
		wantMsg   string  // message of the first answer
	}{
		{
			name:      "batched, counts down",
			fault:     Fault{Key: 10, Group: "g", ErrorCode: 15, Times: 2, Node: AnyNode},
			version:   4,
			wantCodes: []int16{15, 15, 0},
			wantMsg:   "The coordinator is not available.",
		},
		{
			name:      "top level, custom message",
			fault:     Fault{Key: 10, Group: "g", ErrorCode: 14, ErrorMessage: ptr("loading"), Times: 1, Node: AnyNode},
			version:   3,
			wantCodes: []int16{14, 0},
			wantMsg:   "loading",
		},
		{
			name:      "other node unaffected",
			fault:     Fault{Key: 10, Group: "g", ErrorCode: 15, Node: 1},
			version:   4,
			wantCodes: []int16{0, 0},
			wantMsg:   "NONE",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := startCluster(t, Config{Nodes: 2})
			c.InjectError(tt.fault)
			raw := dialRaw(t, c.Addrs()[0])
			for i, want := range tt.wantCodes {
				req := kmsg.NewPtrFindCoordinatorRequest()
				req.Version = tt.version
				req.CoordinatorKey = "g"
				req.CoordinatorKeys = []string{"g"}
				resp := decode[*kmsg.FindCoordinatorResponse](t, raw, req)
				code, node, msg := resp.ErrorCode, resp.NodeID, resp.ErrorMessage
				if tt.version >= 4 {
					require.Len(t, resp.Coordinators, 1)
					co := resp.Coordinators[0]
					code, node, msg = co.ErrorCode, co.NodeID, co.ErrorMessage
				}
				assert.Equal(t, want, code, "request %d", i)
				if want != 0 {
					assert.Equal(t, int32(-1), node)
				}
				if i == 0 {
					require.NotNil(t, msg)
					assert.Equal(t, tt.wantMsg, *msg)
				}
			}
		})
	}
}
