package admin

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

func wireRow(status int8, d *kmsg.StreamsGroupDescribeResponseGroupTopologyDescription) *kmsg.StreamsGroupDescribeResponseGroup {
	r := kmsg.NewStreamsGroupDescribeResponseGroup()
	r.Group, r.State, r.Epoch, r.AssignmentEpoch = "g", "Stable", 5, 4
	r.Topology = &kmsg.StreamsGroupDescribeResponseGroupTopology{Epoch: 2}
	r.TopologyDescriptionStatus, r.TopologyDescription = status, d
	assignor := "sticky"
	r.AssignorName = &assignor
	return &r
}

func TestStreamsGroupFromWire(t *testing.T) {
	tests := []struct {
		name       string
		row        *kmsg.StreamsGroupDescribeResponseGroup
		topo       bool
		wantStatus topology.Status
		wantTopo   bool
		wantErr    string
	}{
		{name: "available", row: wireRow(3, tt.ToWire(tt.WordCount())), topo: true, wantStatus: topology.Available, wantTopo: true},
		{name: "not stored", row: wireRow(1, nil), topo: true, wantStatus: topology.NotStored},
		{name: "error", row: wireRow(2, nil), topo: true, wantStatus: topology.Error},
		{name: "not requested and not asked", row: wireRow(0, nil), topo: false, wantStatus: topology.NotRequested},
		{name: "not requested although asked", row: wireRow(0, nil), topo: true, wantErr: "malformed response from the broker: the broker answered NOT_REQUESTED although the topology description was requested"},
		{name: "unknown status", row: wireRow(9, nil), topo: true, wantErr: "malformed response from the broker: Unknown topology description status 9"},
		{name: "available without description", row: wireRow(3, nil), topo: true, wantErr: "malformed response from the broker: Topology description is missing despite status AVAILABLE"},
		{
			name: "bad node type",
			row: wireRow(3, &kmsg.StreamsGroupDescribeResponseGroupTopologyDescription{
				Subtopologies: []kmsg.TopologyDescriptionSubtopology{{SubtopologyID: "0", Nodes: []kmsg.TopologyDescriptionNode{{Name: "n", NodeType: 4}}}},
			}),
			topo:    true,
			wantErr: "malformed response from the broker: Unknown topology node type: 4",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := streamsGroupFromWire(tc.row, tc.topo)
			if tc.wantErr != "" {
				assert.EqualError(t, err, tc.wantErr)
				assert.ErrorIs(t, err, kafka.ErrMalformedResponse)
				assert.Nil(t, g)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.wantStatus, g.TopologyStatus)
			assert.Equal(t, tc.wantTopo, g.Topology != nil)
			assert.Equal(t, "Stable", g.State)
			assert.EqualValues(t, 5, g.GroupEpoch)
			assert.EqualValues(t, 4, g.AssignmentEpoch)
			assert.EqualValues(t, 2, g.TopologyEpoch)
			assert.Equal(t, "sticky", *g.AssignorName)
		})
	}
	t.Run("no topology", func(t *testing.T) {
		r := wireRow(1, nil)
		r.Topology = nil
		g, err := streamsGroupFromWire(r, true)
		require.NoError(t, err)
		assert.EqualValues(t, -1, g.TopologyEpoch, "-1 when the coordinator holds no topology")
		assert.Nil(t, g.Subtopologies)
	})
}

func wireTasks(sub string, ps ...int32) kmsg.TaskIDs {
	return kmsg.TaskIDs{SubtopologyID: sub, Partitions: ps}
}

func wireMember(id string, active ...kmsg.TaskIDs) kmsg.StreamsGroupDescribeResponseGroupMember {
	m := kmsg.NewStreamsGroupDescribeResponseGroupMember()
	m.MemberID, m.MemberEpoch, m.ProcessID, m.ClientID = id, 7, "p-"+id, "c-"+id
	m.Assignment.ActiveTasks = active
	m.TargetAssignment.ActiveTasks = active
	return m
}

func TestMembersFromWire(t *testing.T) {
	instance := "i-1"
	b := wireMember("b", wireTasks("10", 2, 0), wireTasks("2", 1), wireTasks("10", 1))
	b.InstanceID = &instance
	b.IsClassic = true
	b.ClientTags = []kmsg.StreamsGroupDescribeResponseGroupMemberClientTag{{Key: "zone", Value: "z1"}, {Key: "az", Value: "a"}}
	b.UserEndpoint = &kmsg.StreamsGroupDescribeResponseGroupMemberUserEndpoint{Host: "h", Port: 7070}
	b.Assignment.StandbyTasks = []kmsg.TaskIDs{wireTasks("x", 0), wireTasks("1", 0)}
	a := wireMember("a")

	got := membersFromWire([]kmsg.StreamsGroupDescribeResponseGroupMember{b, a})
	require.Len(t, got, 2)
	assert.Equal(t, "a", got[0].MemberID, "sorted by member id")
	assert.Equal(t, "streams", got[0].Protocol())
	assert.Empty(t, got[0].Assignment.Active)
	m := got[1]
	assert.Equal(t, "classic", m.Protocol())
	assert.Equal(t, []kafka.Tasks{{SubtopologyID: "10", Partitions: []int32{2, 0}}, {SubtopologyID: "2", Partitions: []int32{1}}, {SubtopologyID: "10", Partitions: []int32{1}}}, m.Assignment.Active,
		"the broker's order, as the Java tool prints it: never re-sorted or merged")
	assert.Equal(t, []kafka.Tasks{{SubtopologyID: "x", Partitions: []int32{0}}, {SubtopologyID: "1", Partitions: []int32{0}}}, m.Assignment.Standby, "the broker's order")
	assert.Equal(t, []kafka.ClientTag{{Key: "az", Value: "a"}, {Key: "zone", Value: "z1"}}, m.ClientTags)
	assert.Equal(t, &kafka.Endpoint{Host: "h", Port: 7070}, m.UserEndpoint)
	assert.Equal(t, "i-1", *m.InstanceID)
	instance = "changed"
	assert.Equal(t, "i-1", *m.InstanceID, "the model owns its copy")
}

func TestSubtopologiesFromWire(t *testing.T) {
	topo := kmsg.NewStreamsGroupDescribeResponseGroupTopology()
	s0 := kmsg.NewStreamsGroupDescribeResponseGroupTopologySubtopology()
	s0.SubtopologyID, s0.SourceTopics, s0.RepartitionSinkTopics = "0", []string{"in", "a-in"}, []string{"rep"}
	s1 := kmsg.NewStreamsGroupDescribeResponseGroupTopologySubtopology()
	s1.SubtopologyID = "1"
	s1.RepartitionSourceTopics = []kmsg.TopicInfo{{Topic: "rep", NumPartitions: 4, ReplicationFactor: 3, Configs: []kmsg.TopicInfoConfig{{Key: "cleanup.policy", Value: "delete"}}}}
	s1.StateChangelogTopics = []kmsg.TopicInfo{{Topic: "z-changelog"}, {Topic: "counts-changelog"}}
	topo.Subtopologies = []kmsg.StreamsGroupDescribeResponseGroupTopologySubtopology{s0, s1}
	assert.Equal(t, []kafka.Subtopology{
		{ID: "0", SourceTopics: []string{"in", "a-in"}, RepartitionSourceTopics: []string{}, RepartitionSinkTopics: []string{"rep"}, StateChangelogTopics: []string{}},
		{ID: "1", SourceTopics: []string{}, RepartitionSourceTopics: []string{"rep"}, RepartitionSinkTopics: []string{}, StateChangelogTopics: []string{"z-changelog", "counts-changelog"},
			Declared: []kafka.DeclaredTopic{{Name: "z-changelog", Kind: "changelog"}, {Name: "counts-changelog", Kind: "changelog"},
				{Name: "rep", Kind: "repartition", Partitions: 4, ReplicationFactor: 3, Configs: []kafka.ConfigEntry{{Key: "cleanup.policy", Value: "delete"}}}}},
	}, subtopologiesFromWire(&topo), "wire order kept")
	assert.Nil(t, subtopologiesFromWire(nil))
	assert.Nil(t, subtopologiesFromWire(&kmsg.StreamsGroupDescribeResponseGroupTopology{Epoch: 1}), "not initialised")
}

func wnode(name string, typ int8, succ ...string) kmsg.TopologyDescriptionNode {
	return kmsg.TopologyDescriptionNode{Name: name, NodeType: typ, Successors: succ}
}

func TestDescriptionFromWire_keepsOrderAndRebuildsPredecessors(t *testing.T) {
	sink := "out"
	w := &kmsg.StreamsGroupDescribeResponseGroupTopologyDescription{
		Subtopologies: []kmsg.TopologyDescriptionSubtopology{
			{SubtopologyID: "1", Nodes: []kmsg.TopologyDescriptionNode{
				{Name: "z-src", NodeType: 1, SourceTopics: []string{"b", "a"}, Successors: []string{"m-proc", "a-proc"}},
				{Name: "m-proc", NodeType: 2, Stores: []string{"s"}, Successors: []string{"sink"}},
				{Name: "a-proc", NodeType: 2, Successors: []string{"sink", "elsewhere"}},
				{Name: "sink", NodeType: 3, SinkTopic: &sink},
			}},
			{SubtopologyID: "0", Nodes: []kmsg.TopologyDescriptionNode{wnode("only", 1)}},
		},
		GlobalStores: []kmsg.TopologyDescriptionGlobalStore{{
			Source:    wnode("g-src", 1, "g-proc"),
			Processor: kmsg.TopologyDescriptionNode{Name: "g-proc", NodeType: 2, Stores: []string{"gs"}},
		}},
	}
	d, err := descriptionFromWire(w)
	require.NoError(t, err)

	require.Len(t, d.Subtopologies, 2)
	assert.Equal(t, "1", d.Subtopologies[0].ID, "subtopologies keep wire order")
	assert.Equal(t, "0", d.Subtopologies[1].ID)
	var names []string
	for _, n := range d.Subtopologies[0].Nodes {
		names = append(names, n.Name)
	}
	assert.Equal(t, []string{"z-src", "m-proc", "a-proc", "sink"}, names, "nodes keep wire order")

	nodes := d.Subtopologies[0].Nodes
	assert.Equal(t, []string{}, nodes[0].Predecessors)
	assert.Equal(t, []string{"z-src"}, nodes[1].Predecessors)
	assert.Equal(t, []string{"z-src"}, nodes[2].Predecessors)
	assert.ElementsMatch(t, []string{"m-proc", "a-proc"}, nodes[3].Predecessors)
	assert.Equal(t, []string{"sink", "elsewhere"}, nodes[2].Successors, "a successor outside the subtopology stays")
	assert.Equal(t, "out", *nodes[3].Topic)

	require.Len(t, d.GlobalStores, 1)
	g := d.GlobalStores[0]
	assert.Equal(t, 2, g.ID, "global stores are numbered from the subtopology count")
	assert.Equal(t, []string{"g-src"}, g.Processor.Predecessors)
}

func TestDescriptionFromWire_predecessorsStayInsideTheirSubtopology(t *testing.T) {
	w := &kmsg.StreamsGroupDescribeResponseGroupTopologyDescription{
		Subtopologies: []kmsg.TopologyDescriptionSubtopology{
			{SubtopologyID: "0", Nodes: []kmsg.TopologyDescriptionNode{wnode("a", 1, "shared")}},
			{SubtopologyID: "1", Nodes: []kmsg.TopologyDescriptionNode{wnode("shared", 2)}},
		},
	}
	d, err := descriptionFromWire(w)
	require.NoError(t, err)
	assert.Empty(t, d.Subtopologies[1].Nodes[0].Predecessors)
}

func TestDescriptionFromWire_dynamicSinkAndPatternSource(t *testing.T) {
	w := &kmsg.StreamsGroupDescribeResponseGroupTopologyDescription{
		Subtopologies: []kmsg.TopologyDescriptionSubtopology{{SubtopologyID: "0", Nodes: []kmsg.TopologyDescriptionNode{
			wnode("src", 1, "sink"), wnode("sink", 3),
		}}},
	}
	d, err := descriptionFromWire(w)
	require.NoError(t, err)
	assert.Equal(t, []string{}, d.Subtopologies[0].Nodes[0].Topics)
	assert.Nil(t, d.Subtopologies[0].Nodes[1].Topic)
}

func TestDescriptionFromWire_errors(t *testing.T) {
	tests := []struct {
		name    string
		w       kmsg.StreamsGroupDescribeResponseGroupTopologyDescription
		wantErr string
	}{
		{
			name: "unknown node type in a subtopology",
			w: kmsg.StreamsGroupDescribeResponseGroupTopologyDescription{Subtopologies: []kmsg.TopologyDescriptionSubtopology{
				{SubtopologyID: "0", Nodes: []kmsg.TopologyDescriptionNode{wnode("x", 7)}},
			}},
			wantErr: "Unknown topology node type: 7",
		},
		{
			name: "node type zero",
			w: kmsg.StreamsGroupDescribeResponseGroupTopologyDescription{Subtopologies: []kmsg.TopologyDescriptionSubtopology{
				{SubtopologyID: "0", Nodes: []kmsg.TopologyDescriptionNode{wnode("x", 0)}},
			}},
			wantErr: "Unknown topology node type: 0",
		},
		{
			name: "global store with a sink",
			w: kmsg.StreamsGroupDescribeResponseGroupTopologyDescription{GlobalStores: []kmsg.TopologyDescriptionGlobalStore{
				{Source: wnode("s", 1), Processor: wnode("k", 3)},
			}},
			wantErr: "Global store must be composed of a source and a processor node.",
		},
		{
			name: "global store swapped",
			w: kmsg.StreamsGroupDescribeResponseGroupTopologyDescription{GlobalStores: []kmsg.TopologyDescriptionGlobalStore{
				{Source: wnode("p", 2), Processor: wnode("s", 1)},
			}},
			wantErr: "Global store must be composed of a source and a processor node.",
		},
		{
			name: "global store with unknown type",
			w: kmsg.StreamsGroupDescribeResponseGroupTopologyDescription{GlobalStores: []kmsg.TopologyDescriptionGlobalStore{
				{Source: wnode("s", 1), Processor: wnode("p", -1)},
			}},
			wantErr: "Unknown topology node type: -1",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := descriptionFromWire(&tc.w)
			assert.Nil(t, d)
			assert.EqualError(t, err, tc.wantErr)
		})
	}
}

func TestDescriptionFromWire_roundTrip(t *testing.T) {
	// dump spells out what the wire carries, so nil and empty lists compare
	// equal.
	dump := func(d *topology.Description) []string {
		var out []string
		node := func(where string, n *topology.Node) {
			topic := "<nil>"
			if n.Topic != nil {
				topic = *n.Topic
			}
			out = append(out, fmt.Sprintf("%s %s %v topics=%v stores=%v topic=%s succ=%v pred=%v", where, n.Name, n.Kind, n.Topics, n.Stores, topic, n.Successors, n.Predecessors))
		}
		for _, s := range d.Subtopologies {
			for _, n := range s.Nodes {
				node("sub "+s.ID, n)
			}
		}
		for _, g := range d.GlobalStores {
			node(fmt.Sprint("global ", g.ID), g.Source)
			node(fmt.Sprint("global ", g.ID), g.Processor)
		}
		return out
	}
	want := tt.WordCount()
	d, err := descriptionFromWire(tt.ToWire(want))
	require.NoError(t, err)
	assert.Equal(t, dump(want), dump(d))
	assert.Len(t, dump(d), 2*len(want.GlobalStores)+len(want.Subtopologies[0].Nodes)+len(want.Subtopologies[1].Nodes))
}

// TestMembersFromWireTags pins the client tags: sorted by key, a key given
// twice keeping its first value, none an empty list.
func TestMembersFromWireTags(t *testing.T) {
	m := wireMember("m")
	m.ClientTags = []kmsg.StreamsGroupDescribeResponseGroupMemberClientTag{{Key: "zone", Value: "z1"}, {Key: "az", Value: "a"}, {Key: "zone", Value: "z2"}, {Key: "az", Value: "b"}}
	got := membersFromWire([]kmsg.StreamsGroupDescribeResponseGroupMember{m, wireMember("n")})
	assert.Equal(t, []kafka.ClientTag{{Key: "az", Value: "a"}, {Key: "zone", Value: "z1"}}, got[0].ClientTags)
	assert.Equal(t, []kafka.ClientTag{}, got[1].ClientTags)
}
