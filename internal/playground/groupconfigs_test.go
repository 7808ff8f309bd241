package playground

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

func describeGroupConfigs(names []string, groups ...string) *kmsg.DescribeConfigsRequest {
	req := kmsg.NewPtrDescribeConfigsRequest()
	req.IncludeSynonyms = true
	for _, g := range groups {
		res := kmsg.NewDescribeConfigsRequestResource()
		res.ResourceType, res.ResourceName, res.ConfigNames = kmsg.ConfigResourceTypeGroupConfig, g, names
		req.Resources = append(req.Resources, res)
	}
	return req
}

type synonym struct {
	name, value string
	source      kmsg.ConfigSource
}

func synonyms(e kmsg.DescribeConfigsResponseResourceConfig) []synonym {
	var out []synonym
	for _, s := range e.ConfigSynonyms {
		out = append(out, synonym{s.Name, *s.Value, s.Source})
	}
	return out
}

// The answers of a real 4.4.0 broker (FINDINGS F400, F401): every key that
// is not internal for any group, an internal one only when set; the value
// from the group, else the broker's static config, else the default.
func TestDescribeGroupConfigs(t *testing.T) {
	t.Parallel()
	c := startCluster(t, Config{Nodes: 2})
	one, tags := "1", "zone"
	c.SetBrokerConfig("group.streams.session.timeout.ms", strPtr("50000"))
	c.SetGroupConfig("g1", "streams.num.standby.replicas", &one)
	c.SetGroupConfig("g1", "streams.num.warmup.replicas", &one)
	c.SetGroupConfig("g1", "streams.rack.aware.assignment.tags", &tags)
	cl := newClient(t, c, nil)

	resp := brokerRequest[*kmsg.DescribeConfigsResponse](t, cl, 1, describeGroupConfigs(nil, "g1", "never-seen"))
	require.Len(t, resp.Resources, 2)
	byName := func(r kmsg.DescribeConfigsResponseResource) map[string]kmsg.DescribeConfigsResponseResourceConfig {
		out := map[string]kmsg.DescribeConfigsResponseResourceConfig{}
		for _, e := range r.Configs {
			out[e.Name] = e
		}
		return out
	}
	g1, never := byName(resp.Resources[0]), byName(resp.Resources[1])
	assert.Equal(t, int16(0), resp.Resources[0].ErrorCode)
	assert.Len(t, never, 21, "every key that is not internal, as 4.4.0 answers")
	assert.Len(t, g1, 22, "and the internal one the group sets")
	assert.NotContains(t, never, "streams.num.warmup.replicas")
	assert.NotContains(t, never, "streams.acceptable.recovery.lag")

	e := g1["streams.num.standby.replicas"]
	assert.Equal(t, "1", *e.Value)
	assert.Equal(t, kmsg.ConfigSourceGroupConfig, e.Source)
	assert.Equal(t, kmsg.ConfigTypeInt, e.ConfigType)
	assert.False(t, e.ReadOnly)
	assert.Equal(t, []synonym{{"streams.num.standby.replicas", "1", kmsg.ConfigSourceGroupConfig}, {"group.streams.num.standby.replicas", "0", kmsg.ConfigSourceDefaultConfig}}, synonyms(e))
	assert.Equal(t, []synonym{{"streams.num.warmup.replicas", "1", kmsg.ConfigSourceGroupConfig}, {"group.streams.num.warmup.replicas", "2", kmsg.ConfigSourceDefaultConfig}}, synonyms(g1["streams.num.warmup.replicas"]))

	e = never["streams.session.timeout.ms"]
	assert.Equal(t, "50000", *e.Value)
	assert.Equal(t, kmsg.ConfigSourceStaticBrokerConfig, e.Source)
	assert.Equal(t, []synonym{{"group.streams.session.timeout.ms", "50000", kmsg.ConfigSourceStaticBrokerConfig}, {"group.streams.session.timeout.ms", "45000", kmsg.ConfigSourceDefaultConfig}}, synonyms(e))
	assert.Equal(t, []synonym{{"group.streams.assignors", "sticky", kmsg.ConfigSourceDefaultConfig}}, synonyms(never["streams.assignor.name"]))
	assert.Equal(t, []synonym{{"share.auto.offset.reset", "latest", kmsg.ConfigSourceDefaultConfig}}, synonyms(never["share.auto.offset.reset"]), "no broker synonym: the key itself")

	resp = brokerRequest[*kmsg.DescribeConfigsResponse](t, cl, 0, describeGroupConfigs([]string{"streams.num.warmup.replicas", "no.such", "streams.acceptable.recovery.lag"}, "g1", ""))
	require.Len(t, resp.Resources, 2)
	got := byName(resp.Resources[0])
	assert.Len(t, got, 1, "unknown names and unset internal ones are left out")
	assert.Contains(t, got, "streams.num.warmup.replicas")
	assert.Equal(t, kerr.InvalidRequest.Code, resp.Resources[1].ErrorCode)
	assert.Equal(t, "Group name must not be empty", *resp.Resources[1].ErrorMessage)

	req := describeGroupConfigs([]string{"streams.num.standby.replicas"}, "g1")
	req.IncludeSynonyms = false
	resp = brokerRequest[*kmsg.DescribeConfigsResponse](t, cl, 0, req)
	assert.Empty(t, resp.Resources[0].Configs[0].ConfigSynonyms)
	assert.Equal(t, "1", *resp.Resources[0].Configs[0].Value)
}

// The state file seeds group configs; unknown keys are refused.
func TestGroupConfigs_state(t *testing.T) {
	t.Parallel()
	s, err := ParseState([]byte("group_configs:\n  app:\n    streams.num.standby.replicas: \"2\"\n"))
	require.NoError(t, err)
	c, err := StartState(s)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	assert.Equal(t, map[string]string{"streams.num.standby.replicas": "2"}, c.GroupConfigs("app"))

	_, err = ParseState([]byte("group_configs:\n  app:\n    group.streams.num.standby.replicas: \"2\"\n  \"\": {}\n"))
	assert.ErrorContains(t, err, `group_configs (app): unknown group config "group.streams.num.standby.replicas"`)
	assert.ErrorContains(t, err, "group_configs: a group id is empty")
}
