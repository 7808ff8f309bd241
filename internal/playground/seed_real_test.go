package playground

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// realWire is e2e/testdata/real/wire: franz-go decodes of what real
// Apache Kafka brokers answered (written by the e2e TestGroundTruth).
var realWire = filepath.Join("..", "..", "e2e", "testdata", "real", "wire")

// TestRealSeeds keeps seed/real in step with the real brokers it copies:
// every group that has a StreamsGroupDescribe decode has that row's state,
// status and topology description, the description byte for byte as it is
// encoded on the wire (subtopologies and nodes in the broker's order), and
// each profile advertises what the real broker did for the KIP-1331 keys.
func TestRealSeeds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		seed    string
		profile Profile
		rows    map[string]string // group -> wire decode
	}{
		{"kafka-4.4.0-inmemory.yaml", Kafka44, map[string]string{
			"wc-app": "describe-wc-app.json", "gs-app": "describe-gs-app.json",
			"ds-app": "describe-ds-app.json", "ns-app": "describe-ns-app.json",
		}},
		{"kafka-4.4.0-failing-plugin.yaml", Kafka44, map[string]string{"fail-app": "describe-fail-app-empty.json"}},
		{"kafka-4.4.0-no-plugin.yaml", Kafka44, map[string]string{"np-app": "describe-np-app-no-plugin.json"}},
		{"kafka-4.4.0-views.yaml", Kafka44, nil},
		{"kafka-4.3.1.yaml", Kafka43, nil},
	}
	for _, tt := range tests {
		t.Run(tt.seed, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(filepath.Join("seed", "real", tt.seed))
			require.NoError(t, err)
			s, err := ParseState(data)
			require.NoError(t, err)
			assert.Equal(t, tt.profile, s.Profile)
			groups := map[string]StreamsGroup{}
			for _, g := range s.StreamsGroups {
				groups[g.ID] = g.StreamsGroup
			}
			for id, file := range tt.rows {
				var row kmsg.StreamsGroupDescribeResponseGroup
				readWire(t, file, &row)
				g, ok := groups[id]
				require.True(t, ok, "%s: no streams group %s", tt.seed, id)
				e := g.entry()
				assert.Equal(t, row.State, g.State, "%s state", id)
				assert.Equal(t, row.TopologyDescriptionStatus, int8(e.status), "%s status", id)
				assert.Equal(t, encodeDescription(row.TopologyDescription), encodeDescription(e.description), "%s description", id)
			}
		})
	}
}

// TestProfilesMatchRealBrokers compares each profile's KIP-1331 keys with
// the ApiVersions the real 4.4.0 and 4.3.1 brokers answered.
func TestProfilesMatchRealBrokers(t *testing.T) {
	t.Parallel()
	var v44 map[string]int16
	readWire(t, "apiversions-4.4.0-streams-keys.json", &v44)
	var v43 struct {
		K42, K88, K89 int16
		K93Present    bool
	}
	var raw map[string]json.RawMessage
	readWire(t, "apiversions-4.3.1-streams-keys.json", &raw)
	for k, dst := range map[string]any{"42": &v43.K42, "88": &v43.K88, "89": &v43.K89, "93_present": &v43.K93Present} {
		require.NoError(t, json.Unmarshal(raw[k], dst), k)
	}

	max := func(p Profile, key int16) (int16, bool) {
		vs, err := p.versions()
		require.NoError(t, err)
		return vs.LookupMaxKeyVersion(key)
	}
	for k, want := range v44 {
		var key int16
		require.NoError(t, json.Unmarshal([]byte(k), &key))
		got, ok := max(Kafka44, key)
		assert.True(t, ok, "4.4 key %d", key)
		assert.Equal(t, want, got, "4.4 key %d", key)
	}
	for key, want := range map[int16]int16{42: v43.K42, 88: v43.K88, 89: v43.K89} {
		got, ok := max(Kafka43, key)
		assert.True(t, ok, "4.3 key %d", key)
		assert.Equal(t, want, got, "4.3 key %d", key)
	}
	_, ok := max(Kafka43, 93)
	assert.Equal(t, v43.K93Present, ok, "4.3 key 93")
}

func readWire(t *testing.T, file string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(realWire, file))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, v), file)
}

// encodeDescription is a description as a v1 response carries it, so nil
// and empty lists compare as the wire sees them.
func encodeDescription(d *kmsg.StreamsGroupDescribeResponseGroupTopologyDescription) []byte {
	resp := kmsg.NewPtrStreamsGroupDescribeResponse()
	resp.Version = 1
	row := kmsg.NewStreamsGroupDescribeResponseGroup()
	row.TopologyDescription = d
	resp.Groups = append(resp.Groups, row)
	return resp.AppendTo(nil)
}
