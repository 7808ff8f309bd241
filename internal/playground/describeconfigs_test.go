package playground

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

func describeBroker(name string, configs ...string) *kmsg.DescribeConfigsRequest {
	req := kmsg.NewPtrDescribeConfigsRequest()
	res := kmsg.NewDescribeConfigsRequestResource()
	res.ResourceType, res.ResourceName, res.ConfigNames = kmsg.ConfigResourceTypeBroker, name, configs
	req.Resources = append(req.Resources, res)
	return req
}

func TestDescribeConfigs(t *testing.T) {
	t.Parallel()
	plugin := "org.apache.kafka.server.streams.InMemoryTopologyDescriptionPlugin"
	tests := []struct {
		name    string
		profile Profile
		state   map[string]*string
		req     *kmsg.DescribeConfigsRequest
		node    int32
		code    int16
		msg     string
		want    map[string]*string
		source  kmsg.ConfigSource
	}{
		{name: "4.4 without a plugin: known, null, default", profile: Kafka44, req: describeBroker("1", PluginClassConfig), node: 1,
			want: map[string]*string{PluginClassConfig: nil}, source: kmsg.ConfigSourceDefaultConfig},
		{name: "4.4 with a plugin: static", profile: Kafka44, state: map[string]*string{PluginClassConfig: &plugin}, req: describeBroker("1", PluginClassConfig), node: 1,
			want: map[string]*string{PluginClassConfig: &plugin}, source: kmsg.ConfigSourceStaticBrokerConfig},
		{name: "the empty name is the cluster default", profile: Kafka44, state: map[string]*string{PluginClassConfig: &plugin}, req: describeBroker("", PluginClassConfig), node: 0,
			want: map[string]*string{PluginClassConfig: &plugin}, source: kmsg.ConfigSourceStaticBrokerConfig},
		{name: "4.3 does not know the config", profile: Kafka43, state: map[string]*string{PluginClassConfig: &plugin}, req: describeBroker("0", PluginClassConfig), node: 0,
			want: map[string]*string{}},
		{name: "unknown names are left out", profile: Kafka44, req: describeBroker("0", "no.such.config"), node: 0, want: map[string]*string{}},
		{name: "another broker's id", profile: Kafka44, req: describeBroker("2", PluginClassConfig), node: 0,
			code: kerr.InvalidRequest.Code, msg: "Unexpected broker id, expected 0 or empty string, but received 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := startCluster(t, Config{Nodes: 3, Profile: tc.profile})
			for k, v := range tc.state {
				c.SetBrokerConfig(k, v)
			}
			cl := newClient(t, c, nil)
			resp := brokerRequest[*kmsg.DescribeConfigsResponse](t, cl, tc.node, tc.req)
			require.Len(t, resp.Resources, 1)
			r := resp.Resources[0]
			assert.Equal(t, tc.code, r.ErrorCode)
			if tc.msg != "" {
				require.NotNil(t, r.ErrorMessage)
				assert.Equal(t, tc.msg, *r.ErrorMessage)
				return
			}
			got := map[string]*string{}
			for _, e := range r.Configs {
				got[e.Name] = e.Value
				assert.Equal(t, tc.source, e.Source, e.Name)
				assert.Equal(t, kmsg.ConfigTypeClass, e.ConfigType, e.Name)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// A state file sets broker configs; a fault of key 32 spoils the answer.
func TestDescribeConfigs_state(t *testing.T) {
	t.Parallel()
	s, err := ParseState([]byte(`
broker_configs:
  group.streams.topology.description.plugin.class: e2e.FailingTopologyPlugin
  log.retention.hours: "168"
faults:
  - {key: 32, error_code: 31, error_message: "Cluster authorization failed.", times: 1}
`))
	require.NoError(t, err)
	c, err := StartState(s)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	cl := newClient(t, c, nil)

	resp := brokerRequest[*kmsg.DescribeConfigsResponse](t, cl, 0, describeBroker("0"))
	require.Len(t, resp.Resources, 1)
	assert.Equal(t, kerr.ClusterAuthorizationFailed.Code, resp.Resources[0].ErrorCode)
	assert.Equal(t, "Cluster authorization failed.", *resp.Resources[0].ErrorMessage)

	resp = brokerRequest[*kmsg.DescribeConfigsResponse](t, cl, 0, describeBroker("0"))
	require.Zero(t, resp.Resources[0].ErrorCode)
	var names []string
	for _, e := range resp.Resources[0].Configs {
		names = append(names, e.Name+"="+*e.Value)
	}
	assert.Equal(t, []string{PluginClassConfig + "=e2e.FailingTopologyPlugin", "log.retention.hours=168"}, names, "null names: every config, sorted")

	_, err = ParseState([]byte("broker_configs: {\"\": x}\n"))
	assert.ErrorContains(t, err, "broker_configs: a config name is empty")
	_, err = ParseState([]byte("faults: [{key: 32, error_code: 31}]\n"))
	assert.NoError(t, err, "32 may be faulted")
}
