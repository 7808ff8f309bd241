package admin

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

func TestBrokerAPIs(t *testing.T) {
	for _, tc := range []struct {
		profile  playground.Profile
		describe int16
		has93    bool
	}{{playground.Kafka44, 1, true}, {playground.Kafka43, 0, false}} {
		t.Run(string(tc.profile), func(t *testing.T) {
			c, cl := testCluster(t, 3, tc.profile)
			c.PutStreamsGroup(playground.StreamsGroup{ID: "g", State: "Stable"})
			c.SetCoordinator("g", 2)
			ctx := testContext(t, 10*time.Second)
			d := cl.DescribeStreamsGroups(ctx, []string{"g"}, false)
			require.NoError(t, d[0].Err)
			c.ResetRequests()
			apis, err := cl.BrokerAPIs(ctx, d[0].Coordinator)
			require.NoError(t, err)
			assert.Equal(t, d[0].Coordinator, apis.Broker)
			got, ok := apis.Max(89)
			assert.True(t, ok)
			assert.Equal(t, tc.describe, got)
			_, ok = apis.Max(93)
			assert.Equal(t, tc.has93, ok)
			assert.Empty(t, c.Requests(), "the handshake's table of the open connection: nothing sent")
			for i := 1; i < len(apis.APIs); i++ {
				assert.Less(t, apis.APIs[i-1].Key, apis.APIs[i].Key)
			}
			assert.Equal(t, "StreamsGroupDescribe", apis.APIs[indexOf(apis.APIs, 89)].Name)
		})
	}
}

func indexOf(apis []kafka.APIVersion, key int16) int {
	for i, a := range apis {
		if a.Key == key {
			return i
		}
	}
	return -1
}

func TestDescribeBrokerConfigs(t *testing.T) {
	c, cl := testCluster(t, 3, playground.Kafka44)
	plugin := "org.apache.kafka.server.streams.InMemoryTopologyDescriptionPlugin"
	ctx := testContext(t, 10*time.Second)
	c.PutStreamsGroup(playground.StreamsGroup{ID: "g", State: "Stable"})
	c.SetCoordinator("g", 1)
	co := cl.DescribeStreamsGroups(ctx, []string{"g"}, false)[0].Coordinator

	got, err := cl.DescribeBrokerConfigs(ctx, co, []string{playground.PluginClassConfig, "no.such"})
	require.NoError(t, err)
	assert.Equal(t, []kafka.BrokerConfig{{Name: playground.PluginClassConfig, Source: "DEFAULT_CONFIG"}}, got, "unset: null")

	c.SetBrokerConfig(playground.PluginClassConfig, &plugin)
	got, err = cl.DescribeBrokerConfigs(ctx, co, []string{playground.PluginClassConfig})
	require.NoError(t, err)
	assert.Equal(t, []kafka.BrokerConfig{{Name: playground.PluginClassConfig, Value: &plugin, Source: "STATIC_BROKER_CONFIG"}}, got)
	for _, r := range c.Requests() {
		if r.Key == 32 {
			assert.Equal(t, int32(1), r.Node, "sent to the broker described")
			assert.EqualValues(t, 4, r.Version)
		}
	}

	msg := "Cluster authorization failed."
	c.InjectError(playground.Fault{Key: 32, ErrorCode: kerr.ClusterAuthorizationFailed.Code, ErrorMessage: &msg, Node: playground.AnyNode})
	_, err = cl.DescribeBrokerConfigs(ctx, co, []string{playground.PluginClassConfig})
	assert.EqualError(t, err, "CLUSTER_AUTHORIZATION_FAILED: Cluster authorization failed.")
	assert.ErrorIs(t, err, kafka.ErrNotAuthorized)
}
