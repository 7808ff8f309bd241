package doctor

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// settingsFake is fake with group configs, broker bounds and changelog
// offsets.
type settingsFake struct {
	*fake
	settings  map[string]kafka.GroupConfigs
	bounds    map[string]string
	start     map[kafka.TopicPartition]int64
	end       map[kafka.TopicPartition]int64
	askedKeys []string
}

func (f *settingsFake) DescribeGroupConfigs(_ context.Context, groups []string) []kafka.GroupConfigs {
	var out []kafka.GroupConfigs
	for _, g := range groups {
		gc := f.settings[g]
		gc.Group = g
		out = append(out, gc)
	}
	return out
}

func (f *settingsFake) DescribeBrokerConfigs(ctx context.Context, b kafka.Broker, names []string) ([]kafka.BrokerConfig, error) {
	var out []kafka.BrokerConfig
	var err error
	if names[0] == PluginConfig {
		f.askedKeys = names
		out, err = f.fake.DescribeBrokerConfigs(ctx, b, names)
	}
	for _, n := range names {
		if v, ok := f.bounds[n]; ok {
			out = append(out, kafka.BrokerConfig{Name: n, Value: &v, Source: "DEFAULT_CONFIG"})
		}
	}
	return out, err
}

func (f *settingsFake) ListOffsets(_ context.Context, tps []kafka.TopicPartition, ts int64) ([]admin.ListedOffset, error) {
	m := f.end
	if ts == admin.EarliestTimestamp {
		m = f.start
	}
	var out []admin.ListedOffset
	for _, tp := range tps {
		out = append(out, admin.ListedOffset{TopicPartition: tp, Offset: m[tp]})
	}
	return out, nil
}

// stateful is a Stable group with a stateful sub-topology 1 (two tasks)
// on the given members.
func stateful(members ...kafka.Member) *kafka.StreamsGroup {
	return &kafka.StreamsGroup{State: "Stable", TopologyEpoch: 0, TopologyStatus: topology.Available, Members: members,
		Subtopologies: []kafka.Subtopology{{ID: "1", SourceTopics: []string{"in"}, StateChangelogTopics: []string{"app-counts-changelog", "app-other-changelog"}}}}
}

func member(id, proc, host string, active, standby []int32) kafka.Member {
	tasks := func(ps []int32) []kafka.Tasks {
		if ps == nil {
			return nil
		}
		return []kafka.Tasks{{SubtopologyID: "1", Partitions: ps}}
	}
	a := kafka.Assignment{Active: tasks(active), Standby: tasks(standby)}
	return kafka.Member{MemberID: id, ProcessID: proc, ClientHost: "/" + host, Assignment: a, TargetAssignment: a}
}

func settings(kv ...string) kafka.GroupConfigs {
	var gc kafka.GroupConfigs
	for i := 0; i < len(kv); i += 2 {
		v := kv[i+1]
		gc.Entries = append(gc.Entries, kafka.GroupConfigEntry{Name: kv[i], Value: &v, Source: kafka.SourceGroup})
	}
	return gc
}

// findings lists a check's findings as "severity: message".
func findings(g *Group, checks ...string) []string {
	var out []string
	for _, f := range g.Findings {
		for _, c := range checks {
			if f.Check == c {
				out = append(out, f.Severity.String()+": "+f.Message)
			}
		}
	}
	return out
}

func TestRun_standbys(t *testing.T) {
	plugin := str("x")
	two := []kafka.Member{member("a", "p1", "h1", []int32{0}, []int32{1}), member("b", "p2", "h2", []int32{1}, []int32{0})}
	tests := []struct {
		name     string
		group    *kafka.StreamsGroup
		settings kafka.GroupConfigs
		bounds   map[string]string
		want     []string
	}{
		{name: "covered", group: stateful(two...), settings: settings(overview.ConfigStandbys, "1"),
			want: []string{"ok: all 2 stateful tasks have 1 standby on another process and host"}},
		{name: "none configured names the largest changelog", group: stateful(two...), settings: settings(overview.ConfigStandbys, "0"),
			want: []string{"info: the group has 2 stateful tasks and no standbys configured (streams.num.standby.replicas is 0): a failover restores each task's state from its changelog; the largest changelog is app-other-changelog (1500 records over 2 partitions)"}},
		{name: "too few processes", group: stateful(member("a", "p1", "h1", []int32{0, 1}, nil)), settings: settings(overview.ConfigStandbys, "1"),
			want: []string{"warning: 2 of 2 stateful tasks have fewer than the 1 standby configured: 1_0, 1_1 (only 1 process for 2 copies: the active and 1 standby)"}},
		{name: "not placed: the assignor", group: stateful(member("a", "p1", "h1", []int32{0}, nil), member("b", "p2", "h2", []int32{1}, []int32{0})),
			settings: settings(overview.ConfigStandbys, "1"),
			want:     []string{"warning: 1 of 2 stateful tasks has fewer than the 1 standby configured: 1_1 (the assignor did not place them)"}},
		{name: "co-located by process", group: stateful(member("a", "p1", "h1", []int32{0, 1}, nil), member("b", "p1", "h1", nil, []int32{0, 1}), member("c", "p2", "h2", nil, nil)),
			settings: settings(overview.ConfigStandbys, "1"),
			want: []string{"warning: 2 of 2 stateful tasks have fewer than the 1 standby configured: 1_0, 1_1 (the assignor did not place them)",
				"problem: 2 standbys on the same process as the task's active (or another standby of it), not counted: 1_0 on member b, 1_1 on member b"}},
		{name: "co-located by host", group: stateful(member("a", "p1", "h1", []int32{0}, []int32{1}), member("b", "p2", "h1", []int32{1}, []int32{0})),
			settings: settings(overview.ConfigStandbys, "1"),
			want: []string{"warning: 2 of 2 stateful tasks have fewer than the 1 standby configured: 1_0, 1_1 (only 1 host for 2 copies: standbys on the active's host do not count)",
				"warning: 2 standbys on the same host as the task's active (or another standby of it), not counted: 1_0 on member b (h1), 1_1 on member a (h1)"}},
		{name: "racks", group: stateful(
			withTags(member("a", "p1", "h1", []int32{0, 1}, nil), "zone", "z1"), withTags(member("b", "p2", "h2", nil, nil), "zone", "z1")),
			settings: settings(overview.ConfigStandbys, "1"), bounds: map[string]string{overview.BrokerRackTags: "zone"},
			want: []string{"warning: 2 of 2 stateful tasks have fewer than the 1 standby configured: 1_0, 1_1 (only 1 rack (client tags) for 2 copies)"}},
		{name: "session and heartbeat outside the broker's bounds", group: stateful(two...),
			settings: settings(overview.ConfigStandbys, "3", overview.ConfigSessionTimeout, "5000", overview.ConfigHeartbeatInterval, "70000"),
			bounds:   map[string]string{brokerMinSession: "6000", brokerMaxSession: "60000", brokerMinHeartbeat: "500", brokerMaxHeartbeat: "15000", brokerMaxStandbys: "2"},
			want: []string{
				"warning: the group's streams.session.timeout.ms 5000 is below the broker's group.streams.min.session.timeout.ms 6000",
				"warning: the group's streams.heartbeat.interval.ms 70000 is above the broker's group.streams.max.heartbeat.interval.ms 15000",
				"warning: the group's streams.num.standby.replicas 3 is above the broker's group.streams.max.standby.replicas 2",
				"warning: the group's streams.heartbeat.interval.ms 70000 is not below its streams.session.timeout.ms 5000: a member is expired between two heartbeats",
				"warning: 2 of 2 stateful tasks have fewer than the 3 standbys configured: 1_0, 1_1 (only 2 processes for 4 copies: the active and 3 standbys)"}},
		{name: "warm-ups configured, none placed", group: stateful(two...), settings: settings(overview.ConfigStandbys, "1", overview.ConfigWarmups, "2"),
			want: []string{"ok: all 2 stateful tasks have 1 standby on another process and host",
				`info: streams.num.warmup.replicas is 2 but no task has a warm-up: a 4.4 broker (StreamsGroupDescribe v1, key 93) places none (Apache Kafka 4.4's assignor has no warm-up step; Kafka Streams logs "Warmup replicas are not supported yet")`}},
		{name: "configs unreadable", group: stateful(two...), settings: kafka.GroupConfigs{Err: admin.NewKafkaError(kafka.CodeGroupAuthorizationFailed, nil)},
			want: []string{"warning: cannot read the group's streams configs (standbys, session timeout): GROUP_AUTHORIZATION_FAILED: Not authorized to access group: Group authorization failed."}},
		{name: "stateless group: nothing to judge", group: &kafka.StreamsGroup{State: "Stable", Members: two,
			Subtopologies: []kafka.Subtopology{{ID: "1", SourceTopics: []string{"in"}}}}, settings: settings(overview.ConfigStandbys, "0")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &settingsFake{fake: &fake{groups: map[string]*kafka.StreamsGroup{"app": tc.group}, plugin: plugin},
				settings: map[string]kafka.GroupConfigs{"app": tc.settings}, bounds: tc.bounds,
				start: map[kafka.TopicPartition]int64{{Topic: "app-other-changelog", Partition: 0}: 500},
				end: map[kafka.TopicPartition]int64{{Topic: "app-counts-changelog", Partition: 0}: 10, {Topic: "app-other-changelog", Partition: 0}: 1500,
					{Topic: "app-other-changelog", Partition: 1}: 500}}
			res, err := Run(context.Background(), f, Options{Groups: []string{"app"}})
			require.NoError(t, err)
			g := res.Groups[0]
			require.NoError(t, g.Err)
			assert.Equal(t, tc.want, findings(g, CheckStandbys, CheckSession, CheckWarmups))
			assert.Contains(t, f.askedKeys, brokerMinSession)
			for _, fd := range g.Findings {
				if fd.Severity.Wrong() && (fd.Check == CheckStandbys || fd.Check == CheckSession) {
					assert.NotEmpty(t, fd.Hint, fd.Message)
				}
			}
		})
	}
}

func withTags(m kafka.Member, kv ...string) kafka.Member {
	for i := 0; i < len(kv); i += 2 {
		m.ClientTags = append(m.ClientTags, kafka.ClientTag{Key: kv[i], Value: kv[i+1]})
	}
	return m
}

// A client that cannot read group configs gets the findings it had.
func TestRun_standbysWithoutSettings(t *testing.T) {
	g := diagnoseWith(t, &fake{groups: map[string]*kafka.StreamsGroup{"app": stateful(member("a", "p1", "h1", []int32{0, 1}, nil))}, plugin: str("x")})
	assert.Empty(t, findings(g, CheckStandbys, CheckSession, CheckWarmups))
}
