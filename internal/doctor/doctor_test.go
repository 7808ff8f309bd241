package doctor

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

var coordinator = kafka.Broker{ID: 1, Host: "b1", Port: 9092}

// fake is one coordinator and its groups.
type fake struct {
	groups    map[string]*kafka.StreamsGroup
	groupErr  map[string]error
	old       bool // a 4.3 broker: StreamsGroupDescribe v0, no key 93
	plugin    *string
	configErr error
	apiErr    error
	described []bool
	listErr   error
}

func (f *fake) DescribeStreamsGroups(_ context.Context, groups []string, includeTopology bool) []admin.DescribedGroup {
	f.described = append(f.described, includeTopology)
	out := make([]admin.DescribedGroup, len(groups))
	for i, g := range groups {
		d := admin.DescribedGroup{Group: g, Coordinator: coordinator}
		switch {
		case f.groupErr[g] != nil:
			d.Err = f.groupErr[g]
		case includeTopology && f.old:
			d.Err = &kafka.BrokerTooOldError{NodeID: 1, API: "StreamsGroupDescribe", Need: 1, Have: 0, Feature: "topology descriptions"}
		case f.groups[g] == nil:
			d.Err = admin.NewKafkaError(kafka.CodeGroupIDNotFound, str("Group "+g+" not found."))
		default:
			s := *f.groups[g]
			if !includeTopology {
				s.TopologyStatus = topology.NotRequested
			}
			d.Streams = &s
		}
		out[i] = d
	}
	return out
}

// ListStreamsGroups lists the groups of the fake, sorted, or fails with
// listErr.
func (f *fake) ListStreamsGroups(context.Context) ([]admin.ListedGroup, error) {
	if f.listErr != nil {
		return nil, f.listErr
	}
	var out []admin.ListedGroup
	for _, id := range slices.Sorted(maps.Keys(f.groups)) {
		out = append(out, admin.ListedGroup{Group: id, State: f.groups[id].State})
	}
	return out, nil
}

func (f *fake) BrokerAPIs(context.Context, kafka.Broker) (*kafka.BrokerAPIs, error) {
	if f.apiErr != nil {
		return nil, f.apiErr
	}
	apis := &kafka.BrokerAPIs{Broker: coordinator, APIs: []kafka.APIVersion{{Key: 89, Max: 1}, {Key: 93, Max: 0}}}
	if f.old {
		apis.APIs = apis.APIs[:1]
		apis.APIs[0].Max = 0
	}
	return apis, nil
}

func (f *fake) DescribeBrokerConfigs(_ context.Context, _ kafka.Broker, names []string) ([]kafka.BrokerConfig, error) {
	if f.old {
		panic("a broker without KIP-1331 is not asked about the plugin")
	}
	if f.configErr != nil {
		return nil, f.configErr
	}
	return []kafka.BrokerConfig{{Name: names[0], Value: f.plugin, Source: "STATIC_BROKER_CONFIG"}}, nil
}

func str(s string) *string { return &s }

func healthy() *kafka.StreamsGroup {
	return &kafka.StreamsGroup{State: "Stable", GroupEpoch: 3, AssignmentEpoch: 3, TopologyEpoch: 2, TopologyStatus: topology.Available,
		Members: []kafka.Member{{MemberID: "m-a", TopologyEpoch: 2}, {MemberID: "m-b", TopologyEpoch: 2}}}
}

func diagnoseWith(t *testing.T, f *fake) *Group {
	t.Helper()
	res, err := Run(context.Background(), f, Options{Groups: []string{"app"}})
	require.NoError(t, err)
	require.Len(t, res.Groups, 1)
	return res.Groups[0]
}

// wrong lists the findings that are wrong as "check severity: message".
func wrong(g *Group) []string {
	var out []string
	for _, f := range g.Findings {
		if f.Severity.Wrong() {
			out = append(out, f.Check+" "+f.Severity.String()+": "+f.Message)
		}
	}
	return out
}

func TestRun_causes(t *testing.T) {
	plugin := str("org.apache.kafka.server.streams.InMemoryTopologyDescriptionPlugin")
	with := func(change func(s *kafka.StreamsGroup)) map[string]*kafka.StreamsGroup {
		s := healthy()
		if change != nil {
			change(s)
		}
		return map[string]*kafka.StreamsGroup{"app": s}
	}
	tests := []struct {
		name string
		f    *fake
		want []string // the wrong findings, in order
	}{
		{name: "healthy", f: &fake{groups: with(nil), plugin: plugin}},
		{name: "no plugin", f: &fake{groups: with(func(s *kafka.StreamsGroup) { s.TopologyStatus = topology.NotStored })},
			want: []string{
				"plugin problem: no topology description plugin is configured on coordinator 1 (group.streams.topology.description.plugin.class is not set): the broker stores no description, so every group's is NOT_STORED",
				"description problem: the topology description is NOT_STORED because no plugin is configured to store it"}},
		{name: "plugin unreadable", f: &fake{groups: with(func(s *kafka.StreamsGroup) { s.TopologyStatus = topology.NotStored }),
			configErr: admin.NewKafkaError(31, str("Cluster authorization failed."))},
			want: []string{
				"plugin warning: cannot tell whether a topology description plugin is configured: cannot read group.streams.topology.description.plugin.class of coordinator 1: CLUSTER_AUTHORIZATION_FAILED: Cluster authorization failed.",
				"description warning: the topology description is NOT_STORED, and whether a plugin is configured is unknown: if one is, the clients have topology.description.push.enabled=false, or the push has not happened yet"}},
		{name: "push disabled", f: &fake{groups: with(func(s *kafka.StreamsGroup) { s.TopologyStatus = topology.NotStored }), plugin: plugin},
			want: []string{"description warning: the topology description is NOT_STORED although everything else is healthy: the clients have topology.description.push.enabled=false, or the push has not happened yet (it follows the first heartbeats, within seconds)"}},
		{name: "plugin error", f: &fake{groups: with(func(s *kafka.StreamsGroup) { s.TopologyStatus = topology.Error }), plugin: plugin},
			want: []string{"description problem: the topology description is ERROR: the broker's plugin failed to fetch it"}},
		{name: "4.3 broker", f: &fake{groups: with(nil), old: true},
			want: []string{"broker problem: coordinator 1 speaks StreamsGroupDescribe up to v0 only, and not the topology update API (key 93): it is older than Apache Kafka 4.4 and stores no topology description (KIP-1331)"}},
		{name: "rolling upgrade", f: &fake{groups: with(func(s *kafka.StreamsGroup) {
			s.TopologyStatus, s.TopologyEpoch = topology.NotStored, 3
			s.Members[1].TopologyEpoch = 3
		}), plugin: plugin},
			want: []string{
				"topology-epoch warning: the group's topology epoch is 3 but 1 of 2 members run another one: m-a (epoch 2) (a rolling upgrade is in progress)",
				"description warning: the topology description is NOT_STORED: members run another topology epoch than the group's (a rolling upgrade)"}},
		{name: "classic members", f: &fake{groups: with(func(s *kafka.StreamsGroup) { s.Members[0].IsClassic = true }), plugin: plugin},
			want: []string{"protocol warning: 1 of 2 members still use the classic protocol: m-a"}},
		{name: "no members", f: &fake{groups: with(func(s *kafka.StreamsGroup) { s.State, s.Members, s.TopologyStatus = "Empty", nil, topology.NotStored }), plugin: plugin},
			want: []string{
				"members problem: the group has no members (Empty): nobody runs the application, so nobody can push a topology description",
				"description problem: the topology description is NOT_STORED: no member is running to push it"}},
		{name: "not ready", f: &fake{groups: with(func(s *kafka.StreamsGroup) { s.State = "NotReady" }), plugin: plugin},
			want: []string{"state problem: the group is NotReady: the broker could not set up its topology (a source topic is missing, or an internal topic is missing or has the wrong number of partitions)"}},
		{name: "missing", f: &fake{plugin: plugin},
			want: []string{"group problem: there is no streams group app: GROUP_ID_NOT_FOUND: Group app not found."}},
		{name: "ApiVersions unreadable", f: &fake{groups: with(nil), plugin: plugin, apiErr: errors.New("boom")},
			want: []string{"broker warning: cannot read the ApiVersions of coordinator 1 (b1:9092): boom"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := diagnoseWith(t, tc.f)
			require.NoError(t, g.Err)
			assert.Equal(t, tc.want, wrong(g))
			for _, f := range g.Findings {
				if f.Severity == Problem || f.Check == CheckPlugin && f.Severity.Wrong() {
					if !strings.HasPrefix(f.Message, "the topology description is NOT_STORED") && f.Check != CheckDescription {
						assert.NotEmpty(t, f.Hint, "%s: a problem says what to do", f.Message)
					}
				}
			}
		})
	}
}

// An Empty group may be an application whose members the broker refuses
// (another topology than the one it keeps for the group): they never join,
// so the group shows nothing of them, and its description stays AVAILABLE
// from the last run (e2e TestDiff, FINDINGS F341). The members problem
// names that cause, with the client's log line and the diff to run.
func TestRun_emptyNamesTheRefusedTopology(t *testing.T) {
	plugin := str("org.apache.kafka.server.streams.InMemoryTopologyDescriptionPlugin")
	for _, status := range []topology.Status{topology.Available, topology.NotStored} {
		s := healthy()
		s.State, s.Members, s.TopologyStatus = "Empty", nil, status
		g := diagnoseWith(t, &fake{groups: map[string]*kafka.StreamsGroup{"app": s}, plugin: plugin})
		i := slices.IndexFunc(g.Findings, func(f Finding) bool { return f.Check == CheckMembers })
		require.GreaterOrEqual(t, i, 0)
		f := g.Findings[i]
		assert.Equal(t, Problem, f.Severity)
		assert.Contains(t, f.Hint, `logs "StreamsGroupHeartbeatRequest failed due to INVALID_REQUEST: Topology updates are not supported yet."`)
		assert.Contains(t, f.Hint, "kstreams-groups diff group:app <the build's topology>")
		assert.Contains(t, f.Hint, "kstreams-groups upgrade plan --group app <the build's topology>")
		assert.True(t, strings.HasPrefix(f.Hint, "Start the application"), f.Hint)
	}
	// A group with members has no such hint.
	g := diagnoseWith(t, &fake{groups: map[string]*kafka.StreamsGroup{"app": healthy()}, plugin: plugin})
	for _, f := range g.Findings {
		assert.NotContains(t, f.Hint, RefusedLine)
	}
}

func TestRun_details(t *testing.T) {
	f := &fake{groups: map[string]*kafka.StreamsGroup{"app": healthy()}, old: true}
	res, err := Run(context.Background(), f, Options{Groups: []string{"app"}})
	require.NoError(t, err)
	assert.Equal(t, []bool{true, false}, f.described, "a 4.3 coordinator is asked again without the description")
	assert.True(t, res.Wrong())
	assert.NotNil(t, res.Groups[0].Streams)

	f = &fake{groups: map[string]*kafka.StreamsGroup{"app": healthy()}, plugin: str("x"),
		groupErr: map[string]error{"down": &kafka.UnavailableError{Op: "StreamsGroupDescribe", Err: context.DeadlineExceeded}}}
	res, err = Run(context.Background(), f, Options{Groups: []string{"down", "app"}})
	require.NoError(t, err)
	assert.Error(t, res.Groups[0].Err)
	assert.Empty(t, res.Groups[0].Findings)
	assert.Len(t, res.Failures(), 1)
	assert.False(t, res.Wrong(), "the described group is healthy; the other could not be diagnosed")
	var oks []string
	for _, fd := range res.Groups[1].Findings {
		oks = append(oks, fd.Check+" "+fd.Severity.String()+": "+fd.Message)
	}
	assert.Equal(t, []string{
		"broker ok: coordinator 1 speaks StreamsGroupDescribe up to v1 and StreamsGroupTopologyDescriptionUpdate (key 93) up to v0: Apache Kafka 4.4 or newer",
		"plugin ok: topology description plugin x is configured on coordinator 1 (STATIC_BROKER_CONFIG)",
		"state ok: the group is Stable",
		"members ok: 2 members, all on the streams protocol",
		"topology-epoch ok: every member runs the group's topology epoch 2",
		"description ok: the topology description is AVAILABLE",
	}, oks)
	assert.EqualError(t, Options{}.Validate(), "doctor needs --group (repeatable) or --all-groups")
	assert.NoError(t, Options{AllGroups: true}.Validate())
}

// --all-groups diagnoses every streams group the cluster lists, in id
// order; a failed listing fails the run, and no group is no finding.
func TestRun_allGroups(t *testing.T) {
	f := &fake{groups: map[string]*kafka.StreamsGroup{"b": healthy(), "a": healthy()}, plugin: str("x")}
	res, err := Run(context.Background(), f, Options{AllGroups: true, Groups: []string{"ignored"}})
	require.NoError(t, err)
	var ids []string
	for _, g := range res.Groups {
		ids = append(ids, g.Group)
	}
	assert.Equal(t, []string{"a", "b"}, ids)
	assert.False(t, res.Wrong())

	_, err = Run(context.Background(), &fake{listErr: errors.New("listing failed")}, Options{AllGroups: true})
	require.EqualError(t, err, "listing failed")

	res, err = Run(context.Background(), &fake{groups: map[string]*kafka.StreamsGroup{}}, Options{AllGroups: true})
	require.NoError(t, err)
	assert.Empty(t, res.Groups)
	assert.False(t, res.Wrong())
}
