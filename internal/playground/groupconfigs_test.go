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

func alterGroupConfig(validateOnly bool, group string, kv ...string) *kmsg.IncrementalAlterConfigsRequest {
	req := kmsg.NewPtrIncrementalAlterConfigsRequest()
	req.ValidateOnly = validateOnly
	res := kmsg.NewIncrementalAlterConfigsRequestResource()
	res.ResourceType, res.ResourceName = kmsg.ConfigResourceTypeGroupConfig, group
	for i := 0; i+1 < len(kv); i += 2 {
		e := kmsg.NewIncrementalAlterConfigsRequestResourceConfig()
		e.Name, e.Value = kv[i], strPtr(kv[i+1])
		if kv[i+1] == "<delete>" {
			e.Op, e.Value = kmsg.IncrementalAlterConfigOpDelete, nil
		}
		res.Configs = append(res.Configs, e)
	}
	req.Resources = append(req.Resources, res)
	return req
}

// The refusals of a real 4.4.0 broker, word for word (FINDINGS F403),
// under the e2e harness's server.properties.
func TestIncrementalAlterGroupConfigs(t *testing.T) {
	t.Parallel()
	broker := map[string]string{
		"group.streams.min.session.timeout.ms": "6000", "group.streams.session.timeout.ms": "10000",
		"group.streams.min.heartbeat.interval.ms": "500", "group.streams.heartbeat.interval.ms": "1000",
	}
	tests := []struct {
		name  string
		group string
		kv    []string
		code  int16
		msg   string
	}{
		{name: "over the broker's maximum standbys", group: "g", kv: []string{"streams.num.standby.replicas", "5"},
			code: kerr.InvalidConfig.Code, msg: "streams.num.standby.replicas must be less than or equal to 2"},
		{name: "at the maximum", group: "g", kv: []string{"streams.num.standby.replicas", "2"}},
		{name: "unknown key", group: "g", kv: []string{"foo.bar", "5"}, code: kerr.InvalidConfig.Code, msg: "Unknown group config name: foo.bar"},
		{name: "the broker's name", group: "g", kv: []string{"group.streams.num.standby.replicas", "1"},
			code: kerr.InvalidConfig.Code, msg: "Unknown group config name: group.streams.num.standby.replicas"},
		{name: "not a number", group: "g", kv: []string{"streams.num.standby.replicas", "abc"},
			code: kerr.InvalidConfig.Code, msg: "Invalid value abc for configuration streams.num.standby.replicas: Not a number of type INT"},
		{name: "negative", group: "g", kv: []string{"streams.num.standby.replicas", "-1"},
			code: kerr.InvalidConfig.Code, msg: "Invalid value -1 for configuration streams.num.standby.replicas: Value must be at least 0"},
		{name: "session below the broker's range", group: "g", kv: []string{"streams.session.timeout.ms", "100"},
			code: kerr.InvalidConfig.Code, msg: "streams.session.timeout.ms must be in the range 6000 to 60000 inclusive."},
		{name: "heartbeat above session", group: "g", kv: []string{"streams.heartbeat.interval.ms", "10000", "streams.session.timeout.ms", "9000"},
			code: kerr.InvalidConfig.Code, msg: "streams.session.timeout.ms must be greater than streams.heartbeat.interval.ms"},
		{name: "heartbeat 500 in the harness's range", group: "g", kv: []string{"streams.heartbeat.interval.ms", "500"}},
		{name: "warm-ups over 20", group: "g", kv: []string{"streams.num.warmup.replicas", "50"},
			code: kerr.InvalidConfig.Code, msg: "streams.num.warmup.replicas must be less than or equal to 20"},
		{name: "an unregistered assignor", group: "g", kv: []string{"streams.assignor.name", "nope"},
			code: kerr.InvalidConfig.Code, msg: "streams.assignor.name 'nope' is not a registered task assignor. Registered assignors are: [sticky]."},
		{name: "task offset interval 0", group: "g", kv: []string{"streams.task.offset.interval.ms", "0"},
			code: kerr.InvalidConfig.Code, msg: "Invalid value 0 for configuration streams.task.offset.interval.ms: Value must be at least 1"},
		{name: "only the first problem", group: "g", kv: []string{"streams.num.standby.replicas", "9", "streams.num.warmup.replicas", "99"},
			code: kerr.InvalidConfig.Code, msg: "streams.num.standby.replicas must be less than or equal to 2"},
		{name: "the empty group", group: "", kv: []string{"streams.num.standby.replicas", "1"},
			code: kerr.InvalidRequest.Code, msg: "Default group resources are not allowed."},
		{name: "deleting a key that is not set", group: "g", kv: []string{"streams.num.warmup.replicas", "<delete>"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := startCluster(t, Config{})
			for k, v := range broker {
				c.SetBrokerConfig(k, &v)
			}
			cl := newClient(t, c, nil)
			for _, validateOnly := range []bool{true, false} {
				resp := brokerRequest[*kmsg.IncrementalAlterConfigsResponse](t, cl, 0, alterGroupConfig(validateOnly, tc.group, tc.kv...))
				require.Len(t, resp.Resources, 1)
				r := resp.Resources[0]
				assert.Equal(t, tc.code, r.ErrorCode, "validateOnly %v", validateOnly)
				if tc.msg != "" {
					require.NotNil(t, r.ErrorMessage)
					assert.Equal(t, tc.msg, *r.ErrorMessage)
					assert.Empty(t, c.GroupConfigs(tc.group), "nothing changed")
				}
				if validateOnly {
					assert.Empty(t, c.GroupConfigs(tc.group), "validateOnly changes nothing")
				}
			}
		})
	}
}

func TestIncrementalAlterGroupConfigs_applies(t *testing.T) {
	t.Parallel()
	c := startCluster(t, Config{Nodes: 3})
	cl := newClient(t, c, nil)
	resp := brokerRequest[*kmsg.IncrementalAlterConfigsResponse](t, cl, 2, alterGroupConfig(false, "g", "streams.num.standby.replicas", "1", "streams.num.warmup.replicas", "1"))
	assert.Equal(t, int16(0), resp.Resources[0].ErrorCode)
	assert.Equal(t, map[string]string{"streams.num.standby.replicas": "1", "streams.num.warmup.replicas": "1"}, c.GroupConfigs("g"))
	resp = brokerRequest[*kmsg.IncrementalAlterConfigsResponse](t, cl, 0, alterGroupConfig(false, "g", "streams.num.warmup.replicas", "<delete>"))
	assert.Equal(t, int16(0), resp.Resources[0].ErrorCode)
	assert.Equal(t, map[string]string{"streams.num.standby.replicas": "1"}, c.GroupConfigs("g"))

	// Deleting the group leaves its configs (FINDINGS F402).
	c.PutStreamsGroup(StreamsGroup{ID: "g", State: "Empty"})
	dg := kmsg.NewPtrDeleteGroupsRequest()
	dg.Groups = []string{"g"}
	_ = brokerRequest[*kmsg.DeleteGroupsResponse](t, cl, c.Coordinator("g"), dg)
	assert.Equal(t, map[string]string{"streams.num.standby.replicas": "1"}, c.GroupConfigs("g"))

	msg := "Group authorization failed."
	c.InjectError(Fault{Key: 44, ErrorCode: kerr.GroupAuthorizationFailed.Code, ErrorMessage: &msg, Node: AnyNode})
	resp = brokerRequest[*kmsg.IncrementalAlterConfigsResponse](t, cl, 0, alterGroupConfig(false, "g", "streams.num.standby.replicas", "2"))
	assert.Equal(t, kerr.GroupAuthorizationFailed.Code, resp.Resources[0].ErrorCode)
	assert.Equal(t, "1", c.GroupConfigs("g")["streams.num.standby.replicas"])
}
