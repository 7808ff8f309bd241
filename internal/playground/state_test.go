package playground

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"
	"go.yaml.in/yaml/v3"
)

func TestParseState_Errors(t *testing.T) {
	t.Parallel()
	const group = "streams_groups:\n  - id: g\n    state: Stable\n"
	tests := []struct {
		name    string
		yaml    string
		wantErr []string
	}{
		{name: "empty file", yaml: "", wantErr: []string{"state file is empty"}},
		{name: "two documents", yaml: "nodes: 1\n---\nnodes: 2\n", wantErr: []string{"more than one YAML document"}},
		{name: "not yaml", yaml: "nodes: [1\n", wantErr: []string{"state file: yaml:"}},
		{name: "unknown top-level key", yaml: "nodes: 1\nbrokers: 3\n", wantErr: []string{`line 2: unknown key "brokers" in the top level`}},
		{
			name:    "unknown nested key",
			yaml:    group + "    description:\n      subtopologies:\n        - id: \"0\"\n          nodes:\n            - name: a\n              type: source\n              topic: x\n",
			wantErr: []string{`line 10: unknown key "topic" in a node`},
		},
		{
			name:    "unknown node type",
			yaml:    group + "    description:\n      subtopologies:\n        - id: \"0\"\n          nodes:\n            - name: a\n              type: sauce\n",
			wantErr: []string{`line 9: unknown node type "sauce" (want source, processor or sink)`},
		},
		{name: "bad status", yaml: group + "    description_status: stored\n", wantErr: []string{`line 4: unknown description_status "stored"`}},
		{name: "not_requested is not a stored status", yaml: group + "    description_status: not_requested\n", wantErr: []string{`unknown description_status "not_requested"`}},
		{name: "unknown profile", yaml: "profile: 4.2\n", wantErr: []string{`line 1: unknown profile "4.2"`}},
		{name: "wrong type", yaml: "nodes: three\n", wantErr: []string{"line 1: cannot unmarshal !!str `three` into int"}},
		{name: "duplicate key", yaml: "nodes: 1\nnodes: 2\n", wantErr: []string{`mapping key "nodes" already defined`}},
		{name: "several errors at once", yaml: "nodes: 1\nbrokers: 3\nprofile: 9\n", wantErr: []string{`unknown key "brokers"`, `unknown profile "9"`}},
		{name: "too many nodes", yaml: "nodes: 100\n", wantErr: []string{"nodes: must be 1..64, got 100"}},
		{name: "coordinator out of range", yaml: "nodes: 3\n" + group + "    coordinator: 3\n", wantErr: []string{"streams_groups[0] (g): coordinator 3 out of range (nodes are 0..2)"}},
		{name: "bad group state", yaml: "streams_groups:\n  - id: g\n    state: Running\n", wantErr: []string{`streams_groups[0] (g): state "Running" is not a streams group state`}},
		{name: "missing id", yaml: "streams_groups:\n  - state: Stable\n", wantErr: []string{"streams_groups[0]: id is required"}},
		{
			name:    "duplicate group ids across sections",
			yaml:    group + "groups:\n  - {id: g, type: classic, state: Stable}\n",
			wantErr: []string{`groups[0]: duplicate group id "g"`},
		},
		{name: "streams type under groups", yaml: "groups:\n  - {id: x, type: streams, state: Stable}\n", wantErr: []string{"groups[0] (x): streams groups go under streams_groups"}},
		{name: "unknown group type", yaml: "groups:\n  - {id: x, type: kafka, state: Stable}\n", wantErr: []string{`groups[0] (x): unknown type "kafka"`}},
		{name: "available without description", yaml: group + "    description_status: available\n", wantErr: []string{"description_status available needs a description"}},
		{
			name:    "description with not_stored",
			yaml:    group + "    description_status: not_stored\n    description: {subtopologies: []}\n",
			wantErr: []string{"description is only sent with description_status available, not not_stored"},
		},
		{
			name: "unknown successor and misplaced fields",
			yaml: group + "    description:\n      subtopologies:\n        - id: \"0\"\n          nodes:\n" +
				"            - {name: a, type: source, successors: [b]}\n" +
				"            - {name: c, type: sink, stores: [s], successors: [a]}\n",
			wantErr: []string{
				`description.subtopologies[0].nodes[0] (a): successor "b" is not a node of this subtopology`,
				`nodes[1] (c): stores is only for processor nodes`,
				`nodes[1] (c): a sink has no successors`,
			},
		},
		{
			name: "global store of the wrong shape",
			yaml: group + "    description:\n      global_stores:\n" +
				"        - source: {name: s, type: processor}\n          processor: {name: p, type: sink}\n",
			wantErr: []string{
				"global_stores[0].source: a global store's source must have type source, not processor",
				"global_stores[0].processor: a global store's processor must have type processor, not sink",
			},
		},
		{name: "duplicate member", yaml: group + "    members: [{member_id: m}, {member_id: m}]\n", wantErr: []string{`members[1]: duplicate member_id "m"`}},
		{name: "bad topic", yaml: "topics: [{name: t, partitions: 0}, {name: t, partitions: 1}]\n", wantErr: []string{"topics[0] (t): partitions must be at least 1", `topics[1]: duplicate topic "t"`}},
		{name: "bad fault", yaml: "faults: [{key: 3, error_code: 1, node: 4}]\n", wantErr: []string{"faults[0]: key 3 cannot be faulted", "faults[0]: node 4 out of range"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := ParseState([]byte(tt.yaml))
			require.Error(t, err)
			assert.Nil(t, s)
			for _, want := range tt.wantErr {
				assert.Contains(t, err.Error(), want)
			}
		})
	}
}

func TestParseState_DefaultsAndJSON(t *testing.T) {
	t.Parallel()
	s, err := ParseState([]byte(`{"streams_groups": [{"id": "g", "state": "Empty"}], "groups": [{"id": "s", "type": "share", "state": "Empty"}, {"id": "c", "type": "consumer", "state": "Stable"}]}`))
	require.NoError(t, err)
	assert.Equal(t, 1, s.Nodes)
	assert.Equal(t, Kafka44, s.Profile)
	assert.Equal(t, "share", s.Groups[0].ProtocolType)
	assert.Equal(t, "consumer", s.Groups[1].ProtocolType)

	for _, spelled := range []string{"4.3", "\"4.3\"", "4.3.1", "v4.3"} {
		s, err := ParseState([]byte("profile: " + spelled + "\n"))
		require.NoError(t, err, spelled)
		assert.Equal(t, Kafka43, s.Profile, spelled)
	}
}

func TestDefaultState(t *testing.T) {
	t.Parallel()
	s := DefaultState()
	assert.Equal(t, 3, s.Nodes)
	assert.Equal(t, Kafka44, s.Profile)

	c, err := StartState(s)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, c.Close()) })

	coordinators := map[int32]bool{}
	want := map[string]int8{"word-count": 3, "inventory": 1, "billing": 2, "fraud-detector": 1, "page-views": 3}
	cl := newClient(t, c, nil)
	for id, status := range want {
		node := c.Coordinator(id)
		coordinators[node] = true
		resp := brokerRequest[*kmsg.StreamsGroupDescribeResponse](t, cl, node, describeReq(true, id))
		require.Len(t, resp.Groups, 1)
		assert.Zero(t, resp.Groups[0].ErrorCode, id)
		assert.Equal(t, status, resp.Groups[0].TopologyDescriptionStatus, id)
	}
	assert.Len(t, coordinators, 3, "coordinators are spread over the nodes")
	assert.True(t, c.HasGroup("legacy-consumer"))

	// Every topic the topologies name is registered, so offsets work later.
	for _, g := range s.StreamsGroups {
		for _, st := range g.Topology.Subtopologies {
			for _, name := range st.SourceTopics {
				_, ok := c.PartitionLeader(name, 0)
				assert.True(t, ok, "%s: topic %s", g.ID, name)
			}
		}
	}

	// The state survives a YAML round trip.
	out, err := yaml.Marshal(s)
	require.NoError(t, err)
	again, err := ParseState(out)
	require.NoError(t, err)
	out2, err := yaml.Marshal(again)
	require.NoError(t, err)
	assert.Equal(t, string(out), string(out2))
}

func TestLoad(t *testing.T) {
	t.Parallel()
	c := startCluster(t, Config{Nodes: 2})
	c.PutStreamsGroup(StreamsGroup{ID: "old", State: "Empty"})
	c.InjectError(Fault{Key: 89, ErrorCode: 15, Node: AnyNode})

	tests := []struct {
		name    string
		state   *State
		wantErr string
	}{
		{"node count mismatch", &State{Nodes: 3}, "state is for 3 nodes, the cluster has 2"},
		{"profile mismatch", &State{Profile: Kafka43}, "state is for profile 4.3, the cluster runs 4.4"},
		{"cluster id mismatch", &State{ClusterID: "other"}, `state is for cluster id "other"`},
		{"invalid", &State{StreamsGroups: []StateStreamsGroup{{StreamsGroup: StreamsGroup{ID: "x", State: "Bogus"}}}}, `state "Bogus"`},
		{"coordinator beyond this cluster", &State{Groups: []StateGroup{{ID: "x", Type: "classic", State: "Empty", Coordinator: ptr(int32(2))}}}, "coordinator 2 out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.ErrorContains(t, c.Load(tt.state), tt.wantErr)
			assert.True(t, c.HasGroup("old"), "a failed Load changes nothing")
		})
	}

	// A Go-built state with Nodes 0 takes the cluster's node count.
	require.NoError(t, c.Load(&State{
		StreamsGroups: []StateStreamsGroup{{StreamsGroup: StreamsGroup{ID: "new", State: "Stable"}, Coordinator: ptr(int32(1))}},
		Faults:        []StateFault{{Key: 42, Group: "new", ErrorCode: 134, Times: 1}},
	}))
	assert.False(t, c.HasGroup("old"), "Load replaces the groups")
	assert.Equal(t, int32(1), c.Coordinator("new"))
	c.mu.Lock()
	faults := c.faults
	c.mu.Unlock()
	require.Len(t, faults, 1, "Load replaces the faults")
	assert.Equal(t, AnyNode, faults[0].Node, "a state fault without node fires anywhere")
}

// TestStateDoc keeps STATE.md in step with the schema: every key the
// decoder accepts must be documented.
func TestStateDoc(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("STATE.md")
	require.NoError(t, err)
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(typ reflect.Type) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || seen[typ] {
			return
		}
		seen[typ] = true
		for i := range typ.NumField() {
			f := typ.Field(i)
			tag := strings.Split(f.Tag.Get("yaml"), ",")
			if len(tag) > 1 && tag[1] == "inline" {
				walk(f.Type)
				continue
			}
			if tag[0] == "" || tag[0] == "-" {
				continue
			}
			assert.Contains(t, string(doc), "`"+tag[0]+"`", "STATE.md should document %s.%s", typ.Name(), f.Name)
			walk(f.Type)
		}
	}
	walk(reflect.TypeFor[State]())
}

// TestStateDocExample keeps the example in STATE.md valid.
func TestStateDocExample(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("STATE.md")
	require.NoError(t, err)
	_, rest, ok := strings.Cut(string(doc), "```yaml\n")
	require.True(t, ok)
	example, _, ok := strings.Cut(rest, "```")
	require.True(t, ok)
	s, err := ParseState([]byte(example))
	require.NoError(t, err)
	c, err := StartState(s)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, c.Close()) })
	assert.Len(t, c.nodes, 2)
	assert.Equal(t, int32(1), c.Coordinator("order-app"))
	assert.Equal(t, map[string]string{"streams.num.standby.replicas": "1"}, c.GroupConfigs("order-app"))
}

// Every built-in seed parses, and its text is the file's.
func TestBuiltinSeeds(t *testing.T) {
	assert.Equal(t, []string{"default", "offsets", "standbys", "timelag"}, BuiltinSeedNames())
	for _, name := range BuiltinSeedNames() {
		data, ok := BuiltinSeed(name)
		require.True(t, ok, name)
		file, err := os.ReadFile("seed/" + name + ".yaml")
		require.NoError(t, err)
		assert.Equal(t, string(file), string(data), name)
		_, err = ParseState(data)
		assert.NoError(t, err, name)
	}
	_, ok := BuiltinSeed("real/kafka-4.4.0-views")
	assert.False(t, ok)
	_, ok = BuiltinSeed("nope")
	assert.False(t, ok)
}

// W16 of issue 30: a JSON key over YAML's 1,024-character limit is named
// as such, at its own line and column, not with YAML's line of the
// mapping that holds it.
func TestParseState_JSONLongKey(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("k", 1100)
	for _, tc := range []struct {
		name, json, want string
	}{
		{"group config key", "{\n  \"nodes\": 1,\n  \"group_configs\": {\n    \"g\": {\"" + long + "\": \"1\"}\n  }\n}\n",
			`state file: line 4, column 11: the JSON key "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk…" is 1102 characters long with its quotes: a state file is read as YAML, which takes keys of at most 1024`},
		{"group id on one line", `{"nodes": 1, "group_configs": {"` + long + `": {"a": "b"}}}`,
			`state file: line 1, column 32: the JSON key "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk…" is 1102 characters long`},
		{"in a list", "{\"streams_groups\": [{\"id\": \"g\", \"state\": \"Stable\"},\n {\"" + long + "\": 1}]}",
			`state file: line 2, column 3: the JSON key`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseState([]byte(tc.json))
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), tc.want), err.Error())
		})
	}
	// At the limit (1,022 characters and the quotes) the key is read.
	_, err := ParseState([]byte(`{"group_configs": {"` + strings.Repeat("k", 1022) + `": {}}}`))
	require.NoError(t, err)
	// Not JSON, or JSON without a long key: YAML's own message.
	_, err = ParseState([]byte("{\"nodes\": [1,}\n"))
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "JSON key")
}
