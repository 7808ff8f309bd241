package playground

import (
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// startDefault runs the playground's default state under profile.
func startDefault(t *testing.T, profile Profile) *Cluster {
	t.Helper()
	s := DefaultState()
	s.Profile = profile
	c, err := StartState(s)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, c.Close()) })
	return c
}

func describeReq(topology bool, groups ...string) *kmsg.StreamsGroupDescribeRequest {
	req := kmsg.NewPtrStreamsGroupDescribeRequest()
	req.Groups = groups
	req.IncludeTopologyDescription = topology
	return req
}

// wantRow is what a test checks of one described group.
type wantRow struct {
	group    string
	code     int16
	msg      *string
	state    string
	status   int8
	hasDesc  bool
	assignor *string
	members  int
	topology bool
}

func checkRow(t *testing.T, want wantRow, got kmsg.StreamsGroupDescribeResponseGroup) {
	t.Helper()
	assert.Equal(t, want.group, got.Group)
	assert.Equal(t, want.code, got.ErrorCode, "error code of %q", want.group)
	assert.Equal(t, want.msg, got.ErrorMessage)
	assert.Equal(t, want.state, got.State)
	assert.Equal(t, want.status, got.TopologyDescriptionStatus)
	assert.Equal(t, want.hasDesc, got.TopologyDescription != nil, "description present")
	assert.Equal(t, want.assignor, got.AssignorName)
	assert.Len(t, got.Members, want.members)
	assert.Equal(t, want.topology, got.Topology != nil, "topology present")
}

func TestStreamsGroupDescribe(t *testing.T) {
	t.Parallel()
	sticky := ptr("sticky")
	tests := []struct {
		name        string
		profile     Profile
		pin         map[int16]int16 // client MaxVersions overrides
		node        int32
		req         *kmsg.StreamsGroupDescribeRequest
		wantVersion int16
		want        []wantRow
	}{
		{
			name: "v1 with topology, available", profile: Kafka44, node: 1,
			req: describeReq(true, "word-count"), wantVersion: 1,
			want: []wantRow{{group: "word-count", state: "Stable", status: 3, hasDesc: true, assignor: sticky, members: 2, topology: true}},
		},
		{
			name: "v1 without the flag", profile: Kafka44, node: 1,
			req: describeReq(false, "word-count"), wantVersion: 1,
			want: []wantRow{{group: "word-count", state: "Stable", status: 0, assignor: sticky, members: 2, topology: true}},
		},
		{
			name: "v1 not stored and error", profile: Kafka44, node: 2,
			req: describeReq(true, "inventory", "fraud-detector"), wantVersion: 1,
			want: []wantRow{
				{group: "inventory", state: "Stable", status: 1, assignor: sticky, members: 1, topology: true},
				{group: "fraud-detector", state: "Empty", status: 1, assignor: sticky, topology: true},
			},
		},
		{
			name: "v1 error status", profile: Kafka44, node: 0,
			req: describeReq(true, "billing"), wantVersion: 1,
			want: []wantRow{{group: "billing", state: "Stable", status: 2, assignor: sticky, members: 1, topology: true}},
		},
		{
			name: "v0 pinned by the client against 4.4", profile: Kafka44, pin: map[int16]int16{89: 0}, node: 1,
			req: describeReq(true, "word-count"), wantVersion: 0,
			want: []wantRow{{group: "word-count", state: "Stable", members: 2, topology: true}},
		},
		{
			// kgo silently downgrades to the broker's v0 and kmsg drops
			// the v1-only flag; Java would refuse to serialize it.
			name: "4.3 broker answers v0 even when the flag is set", profile: Kafka43, node: 1,
			req: describeReq(true, "word-count"), wantVersion: 0,
			want: []wantRow{{group: "word-count", state: "Stable", members: 2, topology: true}},
		},
		{
			name: "errors per row in request order", profile: Kafka44, node: 0,
			req: describeReq(true, "billing", "missing", "legacy-consumer", "", "word-count"), wantVersion: 1,
			want: []wantRow{
				{group: "billing", state: "Stable", status: 2, assignor: sticky, members: 1, topology: true},
				{group: "missing", code: 69, msg: ptr("Group missing not found.")}, // hashes to node 0
				{group: "legacy-consumer", code: 69, msg: ptr("Group legacy-consumer is not a streams group.")},
				{group: "", code: 24},
				{group: "word-count", code: 16}, // coordinated by node 1
			},
		},
		{
			name: "not coordinator keeps status 0 with the flag", profile: Kafka44, node: 2,
			req: describeReq(true, "word-count"), wantVersion: 1,
			want: []wantRow{{group: "word-count", code: 16}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := startDefault(t, tt.profile)
			cl := newClient(t, c, tt.pin)
			resp := brokerRequest[*kmsg.StreamsGroupDescribeResponse](t, cl, tt.node, tt.req)
			assert.Equal(t, tt.wantVersion, resp.GetVersion())
			require.Len(t, resp.Groups, len(tt.want))
			for i, w := range tt.want {
				checkRow(t, w, resp.Groups[i])
			}

			last := c.Requests()[len(c.Requests())-1]
			assert.Equal(t, Request{Node: tt.node, Key: 89, Version: tt.wantVersion, Groups: tt.req.Groups}, Request{
				Node: last.Node, Key: last.Key, Version: last.Version, Groups: last.Groups,
			})
			require.IsType(t, &kmsg.StreamsGroupDescribeRequest{}, last.Msg)
			assert.Equal(t, tt.wantVersion >= 1 && tt.req.IncludeTopologyDescription,
				last.Msg.(*kmsg.StreamsGroupDescribeRequest).IncludeTopologyDescription)
		})
	}
}

func TestStreamsGroupDescribe_WordCountContent(t *testing.T) {
	t.Parallel()
	c := startDefault(t, Kafka44)
	cl := newClient(t, c, nil)
	req := describeReq(true, "word-count")
	req.IncludeAuthorizedOperations = true
	resp := brokerRequest[*kmsg.StreamsGroupDescribeResponse](t, cl, 1, req)
	require.Len(t, resp.Groups, 1)
	g := resp.Groups[0]

	assert.Equal(t, groupOperations, g.AuthorizedOperations)
	assert.Equal(t, int32(4), g.Epoch)
	require.NotNil(t, g.Topology)
	require.Len(t, g.Topology.Subtopologies, 2)
	assert.Equal(t, []string{"word-count-counts-repartition"}, g.Topology.Subtopologies[0].RepartitionSinkTopics)
	require.Len(t, g.Topology.Subtopologies[1].StateChangelogTopics, 1)
	assert.Equal(t, "word-count-counts-changelog", g.Topology.Subtopologies[1].StateChangelogTopics[0].Topic)
	assert.Equal(t, []kmsg.TopicInfoConfig{{Key: "cleanup.policy", Value: "delete"}, {Key: "retention.ms", Value: "-1"}},
		g.Topology.Subtopologies[1].RepartitionSourceTopics[0].Configs, "configs are sent sorted")

	m := g.Members[0]
	assert.Equal(t, "ZtRGlmMVQ0uBq4fHmkiZ1w", m.MemberID)
	require.NotNil(t, m.UserEndpoint)
	assert.Equal(t, uint16(7070), m.UserEndpoint.Port)
	assert.Equal(t, []kmsg.TaskIDs{{SubtopologyID: "0", Partitions: []int32{0, 1}}, {SubtopologyID: "1", Partitions: []int32{0, 1}}},
		m.Assignment.ActiveTasks)
	assert.Equal(t, []kmsg.TaskIDs{{SubtopologyID: "1", Partitions: []int32{2}}}, m.TargetAssignment.StandbyTasks)

	d := g.TopologyDescription
	require.NotNil(t, d)
	var names [][]string
	for _, s := range d.Subtopologies {
		var ns []string
		for _, n := range s.Nodes {
			ns = append(ns, n.Name)
		}
		names = append(names, ns)
	}
	assert.Equal(t, [][]string{
		{"KSTREAM-FILTER-0000000005", "KSTREAM-FLATMAPVALUES-0000000001", "KSTREAM-KEY-SELECT-0000000002", "KSTREAM-SINK-0000000004", "KSTREAM-SOURCE-0000000000"},
		{"KSTREAM-AGGREGATE-0000000003", "KSTREAM-SINK-0000000008", "KSTREAM-SOURCE-0000000006", "KTABLE-TOSTREAM-0000000007"},
	}, names, "wire order is the stored order (by name, like a real broker)")
	sink := d.Subtopologies[0].Nodes[3]
	assert.Equal(t, int8(3), sink.NodeType)
	require.NotNil(t, sink.SinkTopic)
	assert.Equal(t, "word-count-counts-repartition", *sink.SinkTopic)
	assert.Equal(t, []string{"counts"}, d.Subtopologies[1].Nodes[0].Stores)
	require.Len(t, d.GlobalStores, 1)
	assert.Equal(t, kmsg.TopologyDescriptionNode{
		Name: "KSTREAM-SOURCE-0000000009", NodeType: 1, SourceTopics: []string{"stopwords"},
		Successors: []string{"KTABLE-SOURCE-0000000010"},
	}, d.GlobalStores[0].Source)
	assert.Equal(t, []string{"stopwords-store"}, d.GlobalStores[0].Processor.Stores)
}

func TestStreamsGroupDescribe_FaultsCountDown(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		fault     Fault
		node      int32
		wantCodes []int16
		wantMsg   *string
	}{
		{
			name:      "twice on any node",
			fault:     Fault{Key: 89, Group: "word-count", ErrorCode: 14, Times: 2, Node: AnyNode},
			node:      1,
			wantCodes: []int16{14, 14, 0, 0},
		},
		{
			name:      "forever with a message",
			fault:     Fault{Key: 89, Group: "word-count", ErrorCode: 29, ErrorMessage: ptr("The described group uses topics that the client is not authorized to describe."), Node: AnyNode},
			node:      1,
			wantCodes: []int16{29, 29, 29},
			wantMsg:   ptr("The described group uses topics that the client is not authorized to describe."),
		},
		{
			name:      "another node's fault does not fire",
			fault:     Fault{Key: 89, Group: "word-count", ErrorCode: 15, Node: 0},
			node:      1,
			wantCodes: []int16{0, 0},
		},
		{
			name:      "group-less fault hits every group",
			fault:     Fault{Key: 89, ErrorCode: 30, Times: 1, Node: AnyNode},
			node:      1,
			wantCodes: []int16{30, 0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := startDefault(t, Kafka44)
			c.InjectError(tt.fault)
			cl := newClient(t, c, nil)
			for i, want := range tt.wantCodes {
				resp := brokerRequest[*kmsg.StreamsGroupDescribeResponse](t, cl, tt.node, describeReq(true, "word-count"))
				require.Len(t, resp.Groups, 1)
				g := resp.Groups[0]
				assert.Equal(t, want, g.ErrorCode, "request %d", i)
				if want != 0 {
					assert.Equal(t, tt.wantMsg, g.ErrorMessage)
					assert.Zero(t, g.TopologyDescriptionStatus, "error rows keep status 0")
					assert.Nil(t, g.Topology)
					assert.Empty(t, g.Members)
					continue
				}
				assert.Equal(t, int8(3), g.TopologyDescriptionStatus)
			}
		})
	}
}

func TestStreamsGroupDescribe_CoordinatorMove(t *testing.T) {
	t.Parallel()
	c := startDefault(t, Kafka44)
	cl := newClient(t, c, nil)

	resp := brokerRequest[*kmsg.StreamsGroupDescribeResponse](t, cl, 1, describeReq(false, "word-count"))
	assert.Zero(t, resp.Groups[0].ErrorCode)

	c.SetCoordinator("word-count", 2)
	resp = brokerRequest[*kmsg.StreamsGroupDescribeResponse](t, cl, 1, describeReq(false, "word-count"))
	assert.Equal(t, int16(16), resp.Groups[0].ErrorCode)
	resp = brokerRequest[*kmsg.StreamsGroupDescribeResponse](t, cl, 2, describeReq(false, "word-count"))
	assert.Zero(t, resp.Groups[0].ErrorCode)
}

func TestStreamsGroupDescribe_RawResponses(t *testing.T) {
	t.Parallel()
	c := startDefault(t, Kafka44)
	cl := newClient(t, c, nil)

	// A body too short for the v1 layout: kmsg fails to decode it.
	c.SetRawResponse(89, AnyNode, func(int16) []byte { return []byte{0, 0, 0, 0, 2} }, 1)
	_, err := cl.Broker(1).Request(testCtx(t), describeReq(true, "word-count"))
	require.Error(t, err)

	// Well-formed but inconsistent: AVAILABLE without a description, as a
	// buggy broker might send. The version passed in is the request's.
	var gotVersion atomic.Int32 // written by the broker goroutine
	gotVersion.Store(-1)
	c.SetRawResponse(89, 1, func(v int16) []byte {
		gotVersion.Store(int32(v))
		resp := kmsg.NewPtrStreamsGroupDescribeResponse()
		resp.Version = v
		g := kmsg.NewStreamsGroupDescribeResponseGroup()
		g.Group, g.State, g.TopologyDescriptionStatus = "word-count", "Stable", 3
		resp.Groups = append(resp.Groups, g)
		return resp.AppendTo(nil)
	}, 1)
	resp := brokerRequest[*kmsg.StreamsGroupDescribeResponse](t, cl, 1, describeReq(true, "word-count"))
	assert.Equal(t, int32(1), gotVersion.Load())
	require.Len(t, resp.Groups, 1)
	assert.Equal(t, int8(3), resp.Groups[0].TopologyDescriptionStatus)
	assert.Nil(t, resp.Groups[0].TopologyDescription)

	// Spent: the real answer is back.
	resp = brokerRequest[*kmsg.StreamsGroupDescribeResponse](t, cl, 1, describeReq(true, "word-count"))
	assert.NotNil(t, resp.Groups[0].TopologyDescription)
}

func TestStreamsGroupDescribe_PutStreamsGroup(t *testing.T) {
	t.Parallel()
	c := startCluster(t, Config{})
	g := StreamsGroup{
		ID: "app", State: "NotReady", GroupEpoch: 1,
		Topology: &Topology{Epoch: 3}, // declared but not initialised: null subtopologies
		Members: []Member{{
			MemberID: "m1", InstanceID: ptr("static-1"), RackID: ptr("r1"),
			ClientTags: map[string]string{"b": "2", "a": "1"},
			Assignment: Assignment{Active: map[string][]int32{"10": {0}, "2": {1}, "x": {2}}},
			IsClassic:  true,
		}},
		Description: &Description{
			Subtopologies: []DescriptionSubtopology{{ID: "0", Nodes: []Node{
				{Name: "src", Type: NodeSource, Successors: []string{"dyn"}},
				{Name: "dyn", Type: NodeSink}, // nil topic: a TopicNameExtractor sink
				{Name: "odd", Type: NodeType(7)},
			}}},
		},
	}
	c.PutStreamsGroup(g)
	g.Members[0].MemberID = "mutated after Put"
	cl := newClient(t, c, nil)

	resp := brokerRequest[*kmsg.StreamsGroupDescribeResponse](t, cl, 0, describeReq(true, "app"))
	row := resp.Groups[0]
	require.NotNil(t, row.Topology)
	assert.Nil(t, row.Topology.Subtopologies)
	assert.Equal(t, int32(3), row.Topology.Epoch)
	assert.Nil(t, row.AssignorName, `AssignorName "" is null`)
	m := row.Members[0]
	assert.Equal(t, "m1", m.MemberID, "the cluster keeps its own copy")
	assert.Equal(t, "static-1", *m.InstanceID)
	assert.True(t, m.IsClassic)
	assert.Equal(t, []kmsg.StreamsGroupDescribeResponseGroupMemberClientTag{{Key: "a", Value: "1"}, {Key: "b", Value: "2"}}, m.ClientTags)
	var order []string
	for _, task := range m.Assignment.ActiveTasks {
		order = append(order, task.SubtopologyID)
	}
	assert.Equal(t, []string{"10", "2", "x"}, order, "subtopology ids sort as strings, as on a 4.4 broker")
	assert.Equal(t, int8(3), row.TopologyDescriptionStatus, "a description defaults the status to AVAILABLE")
	nodes := row.TopologyDescription.Subtopologies[0].Nodes
	assert.Nil(t, nodes[1].SinkTopic)
	assert.Equal(t, int8(7), nodes[2].NodeType, "invalid node types are sent verbatim for client tests")

	c.PutStreamsGroup(StreamsGroup{ID: "app", State: "Empty", DescriptionStatus: DescriptionStatus(9)})
	resp = brokerRequest[*kmsg.StreamsGroupDescribeResponse](t, cl, 0, describeReq(true, "app"))
	assert.Equal(t, "Empty", resp.Groups[0].State)
	assert.Equal(t, int8(9), resp.Groups[0].TopologyDescriptionStatus, "unknown statuses are sent verbatim")
	assert.Nil(t, resp.Groups[0].Topology)
}
