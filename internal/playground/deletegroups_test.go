package playground

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kmsg"
)

func TestDeleteGroups_PerVersion(t *testing.T) {
	t.Parallel()
	type result struct {
		code    int16
		msg     *string
		deleted bool
	}
	tests := []struct {
		name  string
		group string
		fault *Fault
		node  int32 // where the request goes; the group lives on node 0
		// want per version, v0..v3
		want func(version int16) result
	}{
		{
			name: "empty streams group is deleted", group: "s-empty",
			want: func(int16) result { return result{deleted: true} },
		},
		{
			name: "stable streams group is not empty", group: "s-stable",
			want: func(int16) result { return result{code: 68} },
		},
		{
			name: "dead streams group is not empty either", group: "s-dead",
			want: func(int16) result { return result{code: 68} },
		},
		{
			name: "empty classic group is deleted", group: "c-empty",
			want: func(int16) result { return result{deleted: true} },
		},
		{
			name: "dead classic group is not found", group: "c-dead",
			want: func(int16) result { return result{code: 69} },
		},
		{
			name: "unknown group", group: "nope",
			want: func(int16) result { return result{code: 69} },
		},
		{
			name: "not the coordinator", group: "s-empty", node: 1,
			want: func(int16) result { return result{code: 16} },
		},
		{
			name: "plugin failure: 134 with message at v3, -1 below", group: "s-empty",
			fault: &Fault{Key: 42, Group: "s-empty", ErrorCode: 134, ErrorMessage: ptr(DeletionFailedMessage), Node: AnyNode},
			want: func(v int16) result {
				if v >= 3 {
					return result{code: 134, msg: ptr(DeletionFailedMessage)}
				}
				return result{code: -1}
			},
		},
		{
			name: "other faults keep their code; the message needs v3", group: "s-empty",
			fault: &Fault{Key: 42, Group: "s-empty", ErrorCode: 30, ErrorMessage: ptr("denied"), Node: 0},
			want: func(v int16) result {
				if v >= 3 {
					return result{code: 30, msg: ptr("denied")}
				}
				return result{code: 30}
			},
		},
	}
	for _, tt := range tests {
		for v := int16(0); v <= 3; v++ {
			t.Run(fmt.Sprintf("%s/v%d", tt.name, v), func(t *testing.T) {
				t.Parallel()
				c := startCluster(t, Config{Nodes: 2})
				c.PutStreamsGroup(StreamsGroup{ID: "s-empty", State: "Empty"})
				c.PutStreamsGroup(StreamsGroup{ID: "s-stable", State: "Stable", Members: []Member{{MemberID: "m"}}})
				c.PutStreamsGroup(StreamsGroup{ID: "s-dead", State: "Dead"})
				c.PutGroup("c-empty", "classic", "consumer", "Empty")
				c.PutGroup("c-dead", "classic", "consumer", "Dead")
				for _, id := range []string{"s-empty", "s-stable", "s-dead", "c-empty", "c-dead", "nope"} {
					c.SetCoordinator(id, 0)
				}
				if tt.fault != nil {
					c.InjectError(*tt.fault)
				}
				cl := newClient(t, c, map[int16]int16{42: v})
				req := kmsg.NewPtrDeleteGroupsRequest()
				req.Groups = []string{tt.group}
				resp := brokerRequest[*kmsg.DeleteGroupsResponse](t, cl, tt.node, req)
				require.Equal(t, v, resp.GetVersion())
				require.Len(t, resp.Groups, 1)

				want := tt.want(v)
				assert.Equal(t, tt.group, resp.Groups[0].Group)
				assert.Equal(t, want.code, resp.Groups[0].ErrorCode)
				assert.Equal(t, want.msg, resp.Groups[0].ErrorMessage)
				existed := tt.group != "nope"
				assert.Equal(t, existed && !want.deleted, c.HasGroup(tt.group))
			})
		}
	}
}

func TestDeleteGroups_BatchDeduplicatesAndCountsFaultsDown(t *testing.T) {
	t.Parallel()
	c := startCluster(t, Config{})
	for _, id := range []string{"a", "b", "c"} {
		c.PutStreamsGroup(StreamsGroup{ID: id, State: "Empty", Description: &Description{}})
	}
	c.InjectError(Fault{Key: 42, Group: "b", ErrorCode: 134, ErrorMessage: ptr(DeletionFailedMessage), Times: 1, Node: AnyNode})
	cl := newClient(t, c, nil)

	req := kmsg.NewPtrDeleteGroupsRequest()
	req.Groups = []string{"a", "b", "a", "c"}
	resp := brokerRequest[*kmsg.DeleteGroupsResponse](t, cl, 0, req)
	var got []string
	for _, g := range resp.Groups {
		got = append(got, fmt.Sprintf("%s=%d", g.Group, g.ErrorCode))
	}
	assert.Equal(t, []string{"a=0", "b=134", "c=0"}, got)
	assert.Equal(t, []string{"a", "b", "a", "c"}, c.Requests()[len(c.Requests())-1].Groups)
	assert.True(t, c.HasGroup("b"), "a failed deletion keeps the group")
	d := brokerRequest[*kmsg.StreamsGroupDescribeResponse](t, cl, 0, describeReq(true, "b"))
	assert.Equal(t, int8(StatusNotStored), d.Groups[0].TopologyDescriptionStatus, "the failed delete left the UNCERTAIN barrier")

	// The plugin recovered: the retry deletes it.
	req.Groups = []string{"b"}
	resp = brokerRequest[*kmsg.DeleteGroupsResponse](t, cl, 0, req)
	assert.Zero(t, resp.Groups[0].ErrorCode)
	assert.False(t, c.HasGroup("b"))
}

func TestDeleteGroups_Kafka43CapsAtV2(t *testing.T) {
	t.Parallel()
	c := startCluster(t, Config{Profile: Kafka43})
	c.PutStreamsGroup(StreamsGroup{ID: "g", State: "Empty"})
	cl := newClient(t, c, nil)
	// kadm goes through kgo's DeleteGroups sharder, FindCoordinator included.
	resps, err := kadm.NewClient(cl).DeleteGroups(testCtx(t), "g")
	require.NoError(t, err)
	require.NoError(t, resps["g"].Err)
	assert.False(t, c.HasGroup("g"))
	for _, r := range c.Requests() {
		if r.Key == 42 {
			assert.Equal(t, int16(2), r.Version)
		}
	}
}
