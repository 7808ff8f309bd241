package coordrecords

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func str(s string) *string { return &s }

// javaRecords are the records of testdata/java-encoded.jsonl, written by
// Kafka 4.4.0's own generated classes (testdata/javagen), as the codec
// must read them.
var javaRecords = map[string]struct {
	key   Key
	value Value
}{
	"metadata-defaults": {Key{Type: TypeStreamsGroupMetadata, GroupID: "app"},
		&GroupMetadata{Epoch: 3, MetadataHash: -1234567890123, ValidatedTopologyEpoch: -1, StoredDescriptionTopologyEpoch: -1, FailedDescriptionTopologyEpoch: -1}},
	"metadata-tagged": {Key{Type: TypeStreamsGroupMetadata, GroupID: "app"},
		&GroupMetadata{Epoch: 7, MetadataHash: 42, ValidatedTopologyEpoch: 0,
			LastAssignmentConfigs:          []KeyValue{{"num.standby.replicas", "1"}, {"num.warmup.replicas", "2"}},
			StoredDescriptionTopologyEpoch: -2, FailedDescriptionTopologyEpoch: 5}},
	"metadata-empty-configs": {Key{Type: TypeStreamsGroupMetadata, GroupID: "app"},
		&GroupMetadata{Epoch: 1, ValidatedTopologyEpoch: -1, StoredDescriptionTopologyEpoch: -1, FailedDescriptionTopologyEpoch: -1}},
	"metadata-tombstone": {Key{Type: TypeStreamsGroupMetadata, GroupID: "app"}, nil},
	"member-static": {Key{Type: TypeStreamsGroupMemberMetadata, GroupID: "app", MemberID: "m-1"},
		&MemberMetadata{InstanceID: str("inst-a"), RackID: str("rack1"), ClientID: "app-client-StreamThread-1", ClientHost: "/10.0.0.1",
			RebalanceTimeoutMs: 300000, TopologyEpoch: 0, ProcessID: "p-1", UserEndpoint: &Endpoint{Host: "h1", Port: 65535},
			ClientTags: []KeyValue{{"zone", "a"}}}},
	"member-dynamic": {Key{Type: TypeStreamsGroupMemberMetadata, GroupID: "app", MemberID: "m-2"},
		// Kafka's classes default a nullable string without a default to "".
		&MemberMetadata{InstanceID: str(""), RackID: str(""), ClientID: "c", ClientHost: "/127.0.0.1", RebalanceTimeoutMs: -1, TopologyEpoch: 1, ProcessID: "p-2", ClientTags: []KeyValue{}}},
	"member-tombstone": {Key{Type: TypeStreamsGroupMemberMetadata, GroupID: "app", MemberID: "m-2"}, nil},
	"target-metadata": {Key{Type: TypeStreamsGroupTargetAssignmentMetadata, GroupID: "app"},
		&TargetAssignmentMetadata{AssignmentEpoch: 7, AssignmentTimestamp: 1765000000123}},
	"target-metadata-no-time":   {Key{Type: TypeStreamsGroupTargetAssignmentMetadata, GroupID: "app"}, &TargetAssignmentMetadata{AssignmentEpoch: 2}},
	"target-metadata-tombstone": {Key{Type: TypeStreamsGroupTargetAssignmentMetadata, GroupID: "app"}, nil},
	"target-member": {Key{Type: TypeStreamsGroupTargetAssignmentMember, GroupID: "app", MemberID: "m-1"},
		&TargetAssignmentMember{ActiveTasks: []TaskIDs{{SubtopologyID: "0", Partitions: []int32{0, 2}}},
			StandbyTasks: []TaskIDs{{SubtopologyID: "1", Partitions: []int32{1}}}, WarmupTasks: []TaskIDs{}}},
	"target-member-tombstone": {Key{Type: TypeStreamsGroupTargetAssignmentMember, GroupID: "app", MemberID: "m-1"}, nil},
	"current-assignment": {Key{Type: TypeStreamsGroupCurrentMemberAssignment, GroupID: "app", MemberID: "m-1"},
		&CurrentMemberAssignment{MemberEpoch: 7, PreviousMemberEpoch: 6, State: MemberUnrevokedTasks,
			ActiveTasks:                   []TaskIDs{{SubtopologyID: "0", Partitions: []int32{0, 2}, AssignmentEpochs: []int32{5, 7}}},
			StandbyTasks:                  []TaskIDs{{SubtopologyID: "0", Partitions: []int32{1}}},
			WarmupTasks:                   []TaskIDs{{SubtopologyID: "1", Partitions: []int32{3}}},
			ActiveTasksPendingRevocation:  []TaskIDs{{SubtopologyID: "0", Partitions: []int32{4}}},
			StandbyTasksPendingRevocation: []TaskIDs{}, WarmupTasksPendingRevocation: []TaskIDs{}}},
	"current-assignment-tombstone": {Key{Type: TypeStreamsGroupCurrentMemberAssignment, GroupID: "app", MemberID: "m-1"}, nil},
	"topology": {Key{Type: TypeStreamsGroupTopology, GroupID: "app"}, &Topology{Epoch: 0, Subtopologies: []Subtopology{
		{SubtopologyID: "0", SourceTopics: []string{"input"}, SourceTopicRegex: []string{}, RepartitionSinkTopics: []string{"app-rep-repartition"},
			StateChangelogTopics:    []TopicInfo{{Name: "app-store-changelog", TopicConfigs: []KeyValue{{"cleanup.policy", "compact"}}}},
			RepartitionSourceTopics: []TopicInfo{}, CopartitionGroups: []CopartitionGroup{}},
		{SubtopologyID: "1", SourceTopics: []string{}, SourceTopicRegex: []string{"in-.*"}, RepartitionSinkTopics: []string{},
			StateChangelogTopics:    []TopicInfo{},
			RepartitionSourceTopics: []TopicInfo{{Name: "app-rep-repartition", Partitions: 4, ReplicationFactor: 3, TopicConfigs: []KeyValue{}}},
			CopartitionGroups:       []CopartitionGroup{{SourceTopics: []int16{}, SourceTopicRegex: []int16{0}, RepartitionSourceTopics: []int16{0}}}},
	}}},
	"topology-tombstone": {Key{Type: TypeStreamsGroupTopology, GroupID: "app"}, nil},
}

type javaLine struct {
	Name  string  `json:"name"`
	Key   string  `json:"key"`
	Value *string `json:"value"`
}

func readJavaLines(t *testing.T) []javaLine { return readJavaLinesTB(t) }

func readJavaLinesTB(t testing.TB) []javaLine {
	t.Helper()
	f, err := os.Open("testdata/java-encoded.jsonl")
	require.NoError(t, err)
	defer f.Close()
	var out []javaLine
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l javaLine
		require.NoError(t, json.Unmarshal(sc.Bytes(), &l))
		out = append(out, l)
	}
	require.NoError(t, sc.Err())
	return out
}

func unhex(t *testing.T, s *string) []byte {
	t.Helper()
	if s == nil {
		return nil
	}
	b, err := hex.DecodeString(*s)
	require.NoError(t, err)
	if b == nil {
		b = []byte{}
	}
	return b
}

// TestJavaEncoded decodes what Kafka's own classes wrote and encodes it
// back byte for byte: every record type, its tagged fields set and not,
// nulls and tombstones.
func TestJavaEncoded(t *testing.T) {
	lines := readJavaLines(t)
	require.Len(t, lines, len(javaRecords))
	for _, l := range lines {
		t.Run(l.Name, func(t *testing.T) {
			want, ok := javaRecords[l.Name]
			require.True(t, ok)
			key, value := unhex(t, &l.Key), unhex(t, l.Value)
			k, err := DecodeKey(key)
			require.NoError(t, err)
			assert.Equal(t, want.key, k)
			v, err := DecodeValue(k.Type, value)
			require.NoError(t, err)
			assert.Equal(t, want.value, v)
			assert.Equal(t, key, EncodeKey(want.key))
			assert.Equal(t, value, EncodeValue(want.value))
			g, ok := GroupOf(key)
			assert.True(t, ok)
			assert.Equal(t, "app", string(g))
		})
	}
}

func TestDecodeKey_otherTypes(t *testing.T) {
	for _, tc := range []struct {
		name    string
		key     []byte
		want    Key
		unknown bool
	}{
		{"offset commit", []byte{0, 1, 0, 1, 'g', 0, 1, 't', 0, 0, 0, 0}, Key{Type: TypeOffsetCommit}, false},
		{"classic group", []byte{0, 2, 0, 1, 'g'}, Key{Type: TypeGroupMetadata}, false},
		{"consumer group metadata", []byte{0, 3, 0, 1, 'g'}, Key{Type: 3}, false},
		{"share group", []byte{0, 10, 0, 1, 'g'}, Key{Type: 10}, false},
		{"removed partition metadata (18)", []byte{0, 18, 0, 1, 'g'}, Key{Type: 18}, true},
		{"newer type", []byte{0, 24, 0, 1, 'g'}, Key{Type: 24}, true},
		{"negative type", []byte{0xff, 0xff}, Key{Type: -1}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k, err := DecodeKey(tc.key)
			assert.Equal(t, tc.want, k)
			if tc.unknown {
				assert.True(t, Skippable(err), "%v", err)
				var ut *UnknownTypeError
				assert.ErrorAs(t, err, &ut)
			} else {
				assert.NoError(t, err)
			}
			_, ok := GroupOf(tc.key)
			assert.False(t, ok)
		})
	}
}

func TestDecodeValue_newerVersion(t *testing.T) {
	for _, typ := range []int16{TypeStreamsGroupMetadata, TypeStreamsGroupMemberMetadata, TypeStreamsGroupTargetAssignmentMetadata,
		TypeStreamsGroupTargetAssignmentMember, TypeStreamsGroupCurrentMemberAssignment, TypeStreamsGroupTopology} {
		// A version 1 value whose body this codec cannot know.
		v, err := DecodeValue(typ, []byte{0, 1, 0xde, 0xad})
		assert.Nil(t, v)
		var uv *UnknownVersionError
		require.ErrorAs(t, err, &uv)
		assert.Equal(t, UnknownVersionError{Type: typ, Version: 1}, *uv)
		assert.True(t, Skippable(err))
	}
}

func TestDecode_malformed(t *testing.T) {
	good := EncodeValue(&MemberMetadata{InstanceID: str("i"), ClientID: "c", ClientHost: "h", ProcessID: "p", UserEndpoint: &Endpoint{"h", 1}})
	for _, tc := range []struct {
		name  string
		typ   int16
		value []byte
	}{
		{"empty value", TypeStreamsGroupMetadata, []byte{}},
		{"negative version", TypeStreamsGroupMetadata, []byte{0xff, 0xff, 0, 0, 0, 1}},
		{"cut", TypeStreamsGroupMemberMetadata, good[:len(good)-3]},
		{"array longer than the record", TypeStreamsGroupTargetAssignmentMember, []byte{0, 0, 0x7f}},
		{"null in a non-nullable string", TypeStreamsGroupMemberMetadata, []byte{0, 0, 0, 0, 0}},
		{"tags out of order", TypeStreamsGroupTargetAssignmentMetadata, []byte{0, 0, 0, 0, 0, 1, 2, 1, 0, 0, 1, 0}},
		{"broken tag", TypeStreamsGroupMetadata, []byte{0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 2, 1, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := DecodeValue(tc.typ, tc.value)
			assert.Nil(t, v)
			var me *MalformedError
			require.ErrorAs(t, err, &me, "%v", err)
			assert.False(t, Skippable(err))
		})
	}
	_, err := DecodeKey([]byte{0, 19, 0, 3, 'a'})
	var me *MalformedError
	assert.ErrorAs(t, err, &me)
	_, err = DecodeKey([]byte{0})
	assert.ErrorAs(t, err, &me)
}

func TestDecodeValue_unknownTagsSkipped(t *testing.T) {
	// A target assignment metadata with tag 0 and a tag 9 a newer
	// coordinator might add: the known one read, the other skipped.
	b := []byte{0, 0, 0, 0, 0, 4, 2, 0, 8, 0, 0, 0, 0, 0, 0, 0, 9, 9, 3, 1, 2, 3}
	v, err := DecodeValue(TypeStreamsGroupTargetAssignmentMetadata, b)
	require.NoError(t, err)
	assert.Equal(t, &TargetAssignmentMetadata{AssignmentEpoch: 4, AssignmentTimestamp: 9}, v)
}

func TestRoundTrip_playgroundShapes(t *testing.T) {
	for _, v := range []Value{
		&GroupMetadata{Epoch: 1 << 30, MetadataHash: 1, ValidatedTopologyEpoch: 2, LastAssignmentConfigs: []KeyValue{{"a", ""}},
			StoredDescriptionTopologyEpoch: -1, FailedDescriptionTopologyEpoch: -1},
		&CurrentMemberAssignment{MemberEpoch: 2, State: MemberStable, ActiveTasks: []TaskIDs{{SubtopologyID: "s", Partitions: []int32{}}},
			StandbyTasks: []TaskIDs{}, WarmupTasks: []TaskIDs{}, ActiveTasksPendingRevocation: []TaskIDs{},
			StandbyTasksPendingRevocation: []TaskIDs{}, WarmupTasksPendingRevocation: []TaskIDs{}},
		&MemberMetadata{ClientID: "é", ClientHost: "", ProcessID: "", ClientTags: []KeyValue{}},
		&MemberMetadata{InstanceID: nil, RackID: str(""), ClientTags: []KeyValue{}},
	} {
		got, err := DecodeValue(v.RecordType(), EncodeValue(v))
		require.NoError(t, err)
		assert.Equal(t, v, got)
	}
	assert.Nil(t, EncodeValue(nil))
}
