package playground

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"
)

func TestApiVersions_ProfilesAsSeenByKgo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		profile     Profile
		table       *kversion.Versions
		want        map[int16]int16 // key -> max; -1 = absent
		wantApiVers []int16         // ApiVersions versions each connection sends
	}{
		{
			name: "kafka 4.4", profile: Kafka44, table: kversion.V4_4_0(),
			want:        map[int16]int16{89: 1, 42: 3, 88: 1, 93: 0, 18: 5, 16: 5, 10: 6},
			wantApiVers: []int16{5},
		},
		{
			name: "kafka 4.3", profile: Kafka43, table: kversion.V4_3_0(),
			want: map[int16]int16{89: 0, 42: 2, 88: 0, 93: -1, 18: 4, 16: 5, 10: 6},
			// kgo asks v5 first; the UNSUPPORTED_VERSION fallback names v4.
			wantApiVers: []int16{5, 4},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := startCluster(t, Config{Nodes: 3, Profile: tt.profile})
			cl := newClient(t, c, nil)
			versions, err := kadm.NewClient(cl).ApiVersions(testCtx(t))
			require.NoError(t, err)
			require.Len(t, versions, 3)

			for _, bv := range versions.Sorted() {
				require.NoError(t, bv.Err)
				for key, wantMax := range tt.want {
					_, max, ok := bv.KeyVersions(key)
					if wantMax < 0 {
						assert.False(t, ok, "node %d key %d should be absent", bv.NodeID, key)
						continue
					}
					assert.True(t, ok, "node %d key %d", bv.NodeID, key)
					assert.Equal(t, wantMax, max, "node %d key %d max", bv.NodeID, key)
				}
				// The whole table is franz-go's for the release.
				got := map[int16]int16{}
				bv.EachKeySorted(func(k, min, max int16) {
					assert.Zero(t, min)
					got[k] = max
				})
				want := map[int16]int16{}
				tt.table.EachMaxKeyVersion(func(k, v int16) { want[k] = v })
				assert.Equal(t, want, got)
			}

			var sent []int16
			for _, r := range c.Requests() {
				if r.Key == 18 && r.Node == 0 {
					sent = append(sent, r.Version)
				}
			}
			require.NotEmpty(t, sent)
			assert.Equal(t, tt.wantApiVers, sent[:len(tt.wantApiVers)])
		})
	}
}

func TestApiVersions_EveryVersion(t *testing.T) {
	t.Parallel()
	for _, p := range Profiles() {
		c := startCluster(t, Config{Profile: p})
		maxV := c.maxVers[18]
		for v := int16(0); v <= maxV; v++ {
			t.Run(fmt.Sprintf("%s/v%d", p, v), func(t *testing.T) {
				raw := dialRaw(t, c.Addrs()[0])
				req := kmsg.NewPtrApiVersionsRequest()
				req.Version = v
				req.ClientSoftwareName, req.ClientSoftwareVersion = "kafkatest", "1.0.0"
				resp := decode[*kmsg.ApiVersionsResponse](t, raw, req)
				require.Zero(t, resp.ErrorCode)
				max89 := int16(-1)
				for _, k := range resp.ApiKeys {
					if k.ApiKey == 89 {
						max89 = k.MaxVersion
					}
				}
				assert.Equal(t, map[Profile]int16{Kafka44: 1, Kafka43: 0}[p], max89)
				if v >= 3 {
					assert.NotEmpty(t, resp.SupportedFeatures, "KIP-584 features are tagged fields from v3")
					assert.Equal(t, int64(finalizedFeaturesEpoch), resp.FinalizedFeaturesEpoch)
				}
			})
		}
	}
}

func TestApiVersions_UnsupportedVersionFallback(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		profile Profile
		version int16
		wantMax int16
	}{
		{"4.4 asked v9", Kafka44, 9, 5},
		{"4.3 asked v5", Kafka43, 5, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := startCluster(t, Config{Profile: tt.profile})
			raw := dialRaw(t, c.Addrs()[0])
			req := kmsg.NewPtrApiVersionsRequest()
			req.Version = tt.version
			req.ClientSoftwareName, req.ClientSoftwareVersion = "kafkatest", "1.0.0"
			// roundTrip strips no tag byte for key 18: the response
			// header of ApiVersions is v0 even for flexible requests.
			body := raw.roundTrip(req)

			// The body is the v0 layout: error code, int32-counted keys.
			require.Equal(t, int16(35), int16(binary.BigEndian.Uint16(body)))
			resp := kmsg.NewPtrApiVersionsResponse()
			resp.Version = 0
			require.NoError(t, resp.ReadFrom(body))
			assert.Equal(t, []kmsg.ApiVersionsResponseApiKey{{ApiKey: 18, MinVersion: 0, MaxVersion: tt.wantMax}}, resp.ApiKeys)

			// The connection stays usable, as the client retries on it.
			req.Version = tt.wantMax
			ok := decode[*kmsg.ApiVersionsResponse](t, raw, req)
			assert.Zero(t, ok.ErrorCode)
		})
	}
}

func TestApiVersions_RequestValidation(t *testing.T) {
	t.Parallel()
	c := startCluster(t, Config{Nodes: 2})
	tests := []struct {
		name      string
		node      int
		version   int16
		software  string
		clusterID *string
		nodeID    int32
		wantCode  int16
	}{
		{"v3 bad software name", 0, 3, "-bad name-", nil, -1, 42},
		{"v5 matching cluster and node", 1, 5, "kgo", ptr(DefaultClusterID), 1, 0},
		{"v5 wrong node", 1, 5, "kgo", ptr(DefaultClusterID), 0, 129},
		{"v5 wrong cluster", 0, 5, "kgo", ptr("other"), 0, 129},
		{"v5 cluster id without node id", 0, 5, "kgo", ptr(DefaultClusterID), -1, 42},
		{"v4 ignores v5 fields", 0, 4, "kgo", nil, -1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := dialRaw(t, c.Addrs()[tt.node])
			req := kmsg.NewPtrApiVersionsRequest()
			req.Version = tt.version
			req.ClientSoftwareName, req.ClientSoftwareVersion = tt.software, "1.0.0"
			req.ClusterID, req.NodeID = tt.clusterID, tt.nodeID
			resp := decode[*kmsg.ApiVersionsResponse](t, raw, req)
			assert.Equal(t, tt.wantCode, resp.ErrorCode)
		})
	}
}

// TestApiVersions_Unsupported: a state's unsupported_apis are left out of
// the ApiVersions answer and a request under one of them closes the
// connection, as on a broker that does not offer it.
func TestApiVersions_Unsupported(t *testing.T) {
	t.Parallel()
	s, err := ParseState([]byte("unsupported_apis: [32]\n"))
	require.NoError(t, err)
	c := startCluster(t, Config{})
	require.NoError(t, c.Load(s))

	r := dialRaw(t, c.Addrs()[0])
	av := kmsg.NewPtrApiVersionsRequest()
	av.SetVersion(3)
	av.ClientSoftwareName, av.ClientSoftwareVersion = "test", "1"
	resp := decode[*kmsg.ApiVersionsResponse](t, r, av)
	require.Zero(t, resp.ErrorCode)
	keys := map[int16]bool{}
	for _, k := range resp.ApiKeys {
		keys[k.ApiKey] = true
	}
	assert.False(t, keys[32], "DescribeConfigs is left out")
	assert.True(t, keys[42], "DeleteGroups stays")

	dc := kmsg.NewPtrDescribeConfigsRequest()
	dc.SetVersion(4)
	r.send(dc)
	r.requireClosed()

	// Load replaces the set: a state without the key offers it again.
	require.NoError(t, c.Load(&State{}))
	r = dialRaw(t, c.Addrs()[0])
	resp = decode[*kmsg.ApiVersionsResponse](t, r, av)
	assert.Contains(t, fmt.Sprint(resp.ApiKeys), "{32 ")
}

func TestApiVersions_UnsupportedRefused(t *testing.T) {
	t.Parallel()
	_, err := ParseState([]byte("unsupported_apis: [18, 999]\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unsupported_apis[0]: ApiVersions (18) cannot be left out")
	assert.Contains(t, err.Error(), "unsupported_apis[1]: unknown API key 999")
}
