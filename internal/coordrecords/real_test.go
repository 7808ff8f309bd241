package coordrecords

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// realRecord is one line of testdata/history/real-4.4.0/*.jsonl: a record
// read raw from __consumer_offsets after a real Kafka Streams 4.4.0
// application ran on a real 4.4.0 broker (how: that directory's README).
type realRecord struct {
	Offset    int64   `json:"offset"`
	Timestamp int64   `json:"timestamp_ms"`
	Key       string  `json:"key"`
	Value     *string `json:"value"`
}

func readReal(t *testing.T, name string) []realRecord {
	t.Helper()
	f, err := os.Open("../../testdata/history/real-4.4.0/" + name)
	require.NoError(t, err)
	defer f.Close()
	var out []realRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r realRecord
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r))
		out = append(out, r)
	}
	require.NoError(t, sc.Err())
	return out
}

func b64(t *testing.T, s *string) []byte {
	t.Helper()
	if s == nil {
		return nil
	}
	b, err := base64.StdEncoding.DecodeString(*s)
	require.NoError(t, err)
	return b
}

// Every streams-group record a real 4.4.0 coordinator wrote decodes and
// encodes back byte for byte; the counts by group, type and tombstone
// are those of the capture's independent decoder (*.decoded.txt); the offset commits are other known
// types, skipped unread.
func TestRealRecords(t *testing.T) {
	for _, tc := range []struct {
		file string
		want map[string]int // "group type values/tombstones"
	}{
		{"lifecycle.jsonl", map[string]int{
			"hy-app 17 values": 13, "hy-app 17 tombstones": 1,
			"hy-app 19 values": 5, "hy-app 19 tombstones": 4,
			"hy-app 20 values": 9, "hy-app 20 tombstones": 1,
			"hy-app 21 values": 7, "hy-app 21 tombstones": 4,
			"hy-app 22 values": 14, "hy-app 22 tombstones": 4,
			"hy-app 23 values": 1, "hy-app 23 tombstones": 1,
			"hy-other 17 values": 2, "hy-other 19 values": 1, "hy-other 20 values": 2,
			"hy-other 21 values": 1, "hy-other 22 values": 1, "hy-other 23 values": 1,
			"hy-other 19 tombstones": 1, "hy-other 21 tombstones": 1, "hy-other 22 tombstones": 1,
			"other types": 3 + 4 + 1,
		}},
		{"rich.jsonl", map[string]int{
			"hr-app 17 values": 9, "hr-app 17 tombstones": 1,
			"hr-app 19 values": 2, "hr-app 19 tombstones": 2,
			// rich.decoded.txt's counts (36 records); the README's table
			// says one more of 20, 21 and 22.
			"hr-app 20 values": 4, "hr-app 20 tombstones": 1,
			"hr-app 21 values": 4, "hr-app 21 tombstones": 2,
			"hr-app 22 values": 7, "hr-app 22 tombstones": 2,
			"hr-app 23 values": 1, "hr-app 23 tombstones": 1,
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			got := map[string]int{}
			for _, r := range readReal(t, tc.file) {
				key, value := b64(t, &r.Key), b64(t, r.Value)
				k, err := DecodeKey(key)
				require.NoError(t, err, "offset %d", r.Offset)
				if !IsStreams(k.Type) {
					got["other types"]++
					continue
				}
				v, err := DecodeValue(k.Type, value)
				require.NoError(t, err, "offset %d", r.Offset)
				kind := "values"
				if v == nil {
					kind = "tombstones"
				}
				got[fmt.Sprintf("%s %d %s", k.GroupID, k.Type, kind)]++
				assert.Equal(t, key, EncodeKey(k), "offset %d: the key encoded back", r.Offset)
				assert.Equal(t, value, EncodeValue(v), "offset %d: the value encoded back", r.Offset)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// What the capture's independent decoder (e2e/tooling/decode_offsets.py,
// lifecycle.decoded.txt) read, field for field, for one record of each
// type.
func TestRealRecords_fields(t *testing.T) {
	recs := readReal(t, "lifecycle.jsonl")
	at := func(offset int64) (Key, Value) {
		for _, r := range recs {
			if r.Offset == offset {
				k, err := DecodeKey(b64(t, &r.Key))
				require.NoError(t, err)
				v, err := DecodeValue(k.Type, b64(t, r.Value))
				require.NoError(t, err)
				return k, v
			}
		}
		t.Fatalf("no record at %d", offset)
		return Key{}, nil
	}
	k, v := at(2)
	assert.Equal(t, Key{Type: TypeStreamsGroupMetadata, GroupID: "hy-app"}, k)
	assert.Equal(t, &GroupMetadata{Epoch: 2, MetadataHash: -4376415860353089548, ValidatedTopologyEpoch: 0,
		LastAssignmentConfigs: []KeyValue{{"num.standby.replicas", "1"}}, StoredDescriptionTopologyEpoch: -1, FailedDescriptionTopologyEpoch: -1}, v)
	_, v = at(18)
	assert.Equal(t, int32(-2), v.(*GroupMetadata).StoredDescriptionTopologyEpoch)

	_, v = at(46)
	m := v.(*MemberMetadata)
	assert.Equal(t, "hy-static-1", *m.InstanceID)
	assert.Nil(t, m.RackID)
	assert.Equal(t, int32(300000), m.RebalanceTimeoutMs)
	assert.Equal(t, "/127.0.0.1", m.ClientHost)
	assert.Equal(t, "hy-app-865c2957-250c-4b5d-ae29-468f341cb6c8-StreamThread-1-consumer", m.ClientID)
	require.NotNil(t, m.UserEndpoint)
	assert.Equal(t, "hy-s.test", m.UserEndpoint.Host)

	_, v = at(31)
	c := v.(*CurrentMemberAssignment)
	assert.Equal(t, int32(2), c.MemberEpoch)
	assert.Equal(t, MemberUnrevokedTasks, c.State)
	assert.Equal(t, []TaskIDs{{SubtopologyID: "0", Partitions: []int32{0, 1}, AssignmentEpochs: []int32{2, 2}}}, c.ActiveTasks)
	assert.Equal(t, []TaskIDs{{SubtopologyID: "0", Partitions: []int32{2, 3}, AssignmentEpochs: []int32{2, 2}}}, c.ActiveTasksPendingRevocation)

	_, v = at(27)
	assert.Equal(t, &TargetAssignmentMember{ActiveTasks: []TaskIDs{{SubtopologyID: "0", Partitions: []int32{2, 3}}},
		StandbyTasks: []TaskIDs{{SubtopologyID: "0", Partitions: []int32{0, 1}}}, WarmupTasks: []TaskIDs{}}, v)

	_, v = at(28)
	assert.Equal(t, &TargetAssignmentMetadata{AssignmentEpoch: 3, AssignmentTimestamp: 1796554641595}, v)
	_, v = at(45)
	assert.Equal(t, &TargetAssignmentMetadata{AssignmentEpoch: 5}, v)

	_, v = at(1)
	topo := v.(*Topology)
	require.Len(t, topo.Subtopologies, 1)
	assert.Equal(t, []string{"hy-input"}, topo.Subtopologies[0].SourceTopics)
	assert.Equal(t, []TopicInfo{{Name: "hy-input", Partitions: 0, ReplicationFactor: -1,
		TopicConfigs: []KeyValue{{"cleanup.policy", "compact"}, {"message.timestamp.type", "CreateTime"}}}}, topo.Subtopologies[0].StateChangelogTopics)

	// The rich topology: repartition topics and a copartition group.
	var rich *Topology
	for _, r := range readReal(t, "rich.jsonl") {
		if k, _ := DecodeKey(b64(t, &r.Key)); k.Type == TypeStreamsGroupTopology && r.Value != nil {
			v, err := DecodeValue(k.Type, b64(t, r.Value))
			require.NoError(t, err)
			rich = v.(*Topology)
		}
	}
	require.NotNil(t, rich)
	require.Len(t, rich.Subtopologies, 2)
	assert.Equal(t, []string{"hr-app-rich-by-value-repartition"}, rich.Subtopologies[0].RepartitionSinkTopics)
	assert.Equal(t, []CopartitionGroup{{SourceTopics: []int16{0, 1}, SourceTopicRegex: []int16{}, RepartitionSourceTopics: []int16{}}}, rich.Subtopologies[0].CopartitionGroups)
	assert.Equal(t, "hr-app-rich-by-value-repartition", rich.Subtopologies[1].RepartitionSourceTopics[0].Name)
}
