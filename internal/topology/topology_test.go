package topology

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"
)

func wnode(name string, typ int8, succ ...string) kmsg.TopologyDescriptionNode {
	return kmsg.TopologyDescriptionNode{Name: name, NodeType: typ, Successors: succ}
}

func TestFromWire_keepsOrderAndRebuildsPredecessors(t *testing.T) {
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
	d, err := FromWire(w)
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
	assert.Equal(t, 7, d.NodeCount())
}

func TestFromWire_predecessorsStayInsideTheirSubtopology(t *testing.T) {
	w := &kmsg.StreamsGroupDescribeResponseGroupTopologyDescription{
		Subtopologies: []kmsg.TopologyDescriptionSubtopology{
			{SubtopologyID: "0", Nodes: []kmsg.TopologyDescriptionNode{wnode("a", 1, "shared")}},
			{SubtopologyID: "1", Nodes: []kmsg.TopologyDescriptionNode{wnode("shared", 2)}},
		},
	}
	d, err := FromWire(w)
	require.NoError(t, err)
	assert.Empty(t, d.Subtopologies[1].Nodes[0].Predecessors)
}

func TestFromWire_dynamicSinkAndPatternSource(t *testing.T) {
	w := &kmsg.StreamsGroupDescribeResponseGroupTopologyDescription{
		Subtopologies: []kmsg.TopologyDescriptionSubtopology{{SubtopologyID: "0", Nodes: []kmsg.TopologyDescriptionNode{
			wnode("src", 1, "sink"), wnode("sink", 3),
		}}},
	}
	d, err := FromWire(w)
	require.NoError(t, err)
	assert.Equal(t, []string{}, d.Subtopologies[0].Nodes[0].Topics)
	assert.Nil(t, d.Subtopologies[0].Nodes[1].Topic)
}

func TestFromWire_errors(t *testing.T) {
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
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := FromWire(&tt.w)
			assert.Nil(t, d)
			assert.EqualError(t, err, tt.wantErr)
		})
	}
}

func TestParseStatus(t *testing.T) {
	for b, want := range map[int8]string{0: "NOT_REQUESTED", 1: "NOT_STORED", 2: "ERROR", 3: "AVAILABLE"} {
		s, err := ParseStatus(b)
		require.NoError(t, err)
		assert.Equal(t, want, s.String())
		var back Status
		require.NoError(t, back.UnmarshalText([]byte(want)))
		assert.Equal(t, s, back)
	}
	for _, b := range []int8{4, -1, 127} {
		_, err := ParseStatus(b)
		assert.ErrorContains(t, err, "Unknown topology description status")
	}
}

func TestKindText(t *testing.T) {
	for _, k := range []Kind{Source, Processor, Sink} {
		b, err := k.MarshalText()
		require.NoError(t, err)
		var back Kind
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, k, back)
	}
	var k Kind
	assert.Error(t, k.UnmarshalText([]byte("widget")))
}
