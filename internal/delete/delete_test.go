package delete

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// fakeClient answers from tables and records what was asked.
type fakeClient struct {
	listed    []admin.ListedGroup
	listErr   error
	described map[string]admin.DescribedGroup
	deleteErr map[string]error
	version   int16
	topicErr  map[string]error

	describeCalls [][]string
	deleteCalls   [][]string
	topicCalls    [][]string

	// configs are the groups' configs (configs_test.go).
	configs     map[string][]kafka.GroupConfigEntry
	configsErr  map[string]error
	alterErr    map[string]error
	configCalls [][]string
	// configDeadline is the deadline of the last configs read.
	configDeadline time.Time
	alterCalls     [][]admin.GroupConfigAlter
}

func (f *fakeClient) ListStreamsGroups(context.Context) ([]admin.ListedGroup, error) {
	return f.listed, f.listErr
}

func (f *fakeClient) DescribeStreamsGroups(_ context.Context, groups []string, includeTopology bool) []admin.DescribedGroup {
	f.describeCalls = append(f.describeCalls, groups)
	var out []admin.DescribedGroup
	for _, g := range groups {
		d, ok := f.described[g]
		if !ok {
			d = admin.DescribedGroup{Group: g, Streams: &kafka.StreamsGroup{}}
		}
		out = append(out, d)
	}
	return out
}

func (f *fakeClient) DeleteGroups(_ context.Context, groups []string) []admin.DeletedGroup {
	f.deleteCalls = append(f.deleteCalls, groups)
	var out []admin.DeletedGroup
	for _, g := range groups {
		out = append(out, admin.DeletedGroup{Group: g, Coordinator: kafka.Broker{ID: 1, Host: "h", Port: 9092}, Version: f.version, Err: f.deleteErr[g]})
	}
	return out
}

func (f *fakeClient) DeleteTopics(_ context.Context, topics []string) []admin.DeletedTopic {
	f.topicCalls = append(f.topicCalls, topics)
	var out []admin.DeletedTopic
	for _, t := range topics {
		out = append(out, admin.DeletedTopic{Topic: t, Err: f.topicErr[t]})
	}
	return out
}

func listed() []admin.ListedGroup {
	return []admin.ListedGroup{
		{Group: "a", State: "Empty"}, {Group: "b", State: "Empty"}, {Group: "busy", State: "Stable"},
		{Group: "dead", State: "Dead"}, {Group: "stateless", State: ""}, {Group: "fail", State: "Empty"},
	}
}

// outcome summarises a Group for table assertions.
type outcome struct {
	deleted bool
	code    int16 // Kafka code of Err, 0 for none, -2 for a non-Kafka error
	msg     string
	stage   Stage
}

func outcomeOf(g *Group) outcome {
	o := outcome{deleted: g.Deleted, stage: g.Stage}
	var ke *kafka.Error
	switch {
	case errors.As(g.Err, &ke):
		o.code, o.msg = ke.Code, ke.Message
	case g.Err != nil:
		o.code, o.msg = -2, g.Err.Error()
	}
	return o
}

func TestRun(t *testing.T) {
	deletionFailed := admin.NewClientKafkaError(134, "Topology description plugin failed to delete the topology.")
	tests := []struct {
		name        string
		opts        Options
		deleteErr   map[string]error
		want        map[string]outcome
		wantOrder   []string
		wantDeleted [][]string // DeleteGroups calls
	}{
		{
			name:        "pre-checks refuse missing, dead and non-empty groups; the rest is sent once, in order",
			opts:        Options{Groups: []string{"busy", "b", "nope", "a", "dead", "b"}},
			wantOrder:   []string{"busy", "b", "nope", "a", "dead"},
			wantDeleted: [][]string{{"b", "a"}},
			want: map[string]outcome{
				"busy": {code: 68, msg: "Streams group 'busy' is not EMPTY.", stage: StagePreCheck},
				"b":    {deleted: true},
				"nope": {code: 69, msg: "Group 'nope' does not exist or is not a streams group.", stage: StagePreCheck},
				"a":    {deleted: true},
				"dead": {code: 69, msg: "Streams group 'dead' group state is DEAD.", stage: StagePreCheck},
			},
		},
		{
			name:        "a group listed without a state is not refused, like the Java tool",
			opts:        Options{Groups: []string{"stateless"}},
			wantOrder:   []string{"stateless"},
			wantDeleted: [][]string{{"stateless"}},
			want:        map[string]outcome{"stateless": {deleted: true}},
		},
		{
			name:        "broker refusals are kept per group",
			opts:        Options{Groups: []string{"fail", "a"}},
			deleteErr:   map[string]error{"fail": deletionFailed},
			wantOrder:   []string{"fail", "a"},
			wantDeleted: [][]string{{"fail", "a"}},
			want: map[string]outcome{
				"fail": {code: 134, msg: "Topology description plugin failed to delete the topology.", stage: StageDeleteGroups},
				"a":    {deleted: true},
			},
		},
		{
			name:        "all groups: every listed streams group, in listing order",
			opts:        Options{AllGroups: true},
			wantOrder:   []string{"a", "b", "busy", "dead", "stateless", "fail"},
			wantDeleted: [][]string{{"a", "b", "stateless", "fail"}},
			want: map[string]outcome{
				"a": {deleted: true}, "b": {deleted: true}, "stateless": {deleted: true}, "fail": {deleted: true},
				"busy": {code: 68, msg: "Streams group 'busy' is not EMPTY.", stage: StagePreCheck},
				"dead": {code: 69, msg: "Streams group 'dead' group state is DEAD.", stage: StagePreCheck},
			},
		},
		{
			name:      "dry run sends nothing",
			opts:      Options{Groups: []string{"a", "busy"}, DryRun: true},
			wantOrder: []string{"a", "busy"},
			want: map[string]outcome{
				"a":    {},
				"busy": {code: 68, msg: "Streams group 'busy' is not EMPTY.", stage: StagePreCheck},
			},
		},
		{
			name:      "nothing passes: nothing is sent",
			opts:      Options{Groups: []string{"nope"}},
			wantOrder: []string{"nope"},
			want:      map[string]outcome{"nope": {code: 69, msg: "Group 'nope' does not exist or is not a streams group.", stage: StagePreCheck}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeClient{listed: listed(), deleteErr: tc.deleteErr, version: 3}
			res, err := Run(t.Context(), f, tc.opts)
			require.NoError(t, err)
			assert.Equal(t, tc.opts.DryRun, res.DryRun)
			var order []string
			got := map[string]outcome{}
			for _, g := range res.Groups {
				order = append(order, g.Group)
				got[g.Group] = outcomeOf(g)
				assert.Nil(t, g.InternalTopics)
			}
			assert.Equal(t, tc.wantOrder, order)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.wantDeleted, f.deleteCalls)
			assert.Empty(t, f.describeCalls)
			assert.Empty(t, f.topicCalls)
		})
	}
}

func TestOptions_Validate(t *testing.T) {
	assert.EqualError(t, Options{}.Validate(), "Option [delete] takes one of these options: [all-groups], [group]")
	assert.EqualError(t, Options{DryRun: true, DeleteInternalTopics: true}.Validate(), "Option [delete] takes one of these options: [all-groups], [group]")
	assert.NoError(t, Options{Groups: []string{"a"}}.Validate())
	assert.NoError(t, Options{AllGroups: true}.Validate())
	assert.EqualError(t, Options{AllGroups: true, TopicSpecific: true}.Validate(), "Kafka Streams does not support topic-specific offset deletion from a streams group.")
	assert.EqualError(t, Options{TopicSpecific: true}.Validate(), "Option [delete] takes one of these options: [all-groups], [group]", "the Java order: the groups first")
}

func TestRun_errors(t *testing.T) {
	f := &fakeClient{listErr: admin.NewKafkaError(31, nil)}
	_, err := Run(t.Context(), f, Options{Groups: []string{"a"}})
	assert.ErrorIs(t, err, kafka.ErrNotAuthorized)
	assert.Empty(t, f.deleteCalls, "nothing is deleted when the pre-check cannot run")
}

func wireGroup(id string, subs ...kafka.Subtopology) admin.DescribedGroup {
	return admin.DescribedGroup{Group: id, Streams: &kafka.StreamsGroup{Subtopologies: subs}}
}

func wireSub(sources, repartition, changelogs []string) kafka.Subtopology {
	return kafka.Subtopology{SourceTopics: sources, RepartitionSourceTopics: repartition, StateChangelogTopics: changelogs}
}

func TestRun_internalTopics(t *testing.T) {
	f := &fakeClient{
		listed: listed(),
		described: map[string]admin.DescribedGroup{
			"a":    wireGroup("a", wireSub([]string{"in"}, nil, []string{"a-s-changelog", "other-changelog"}), wireSub(nil, []string{"a-r-repartition"}, nil)),
			"b":    {Group: "b", Err: admin.NewKafkaError(15, nil)},
			"fail": wireGroup("fail", wireSub([]string{"in"}, nil, []string{"fail-s-changelog"})),
		},
		deleteErr: map[string]error{"fail": admin.NewKafkaError(134, nil)},
		topicErr:  map[string]error{"a-r-repartition": admin.NewKafkaError(29, nil)},
		version:   3,
	}
	res, err := Run(t.Context(), f, Options{Groups: []string{"a", "b", "fail", "busy", "stateless"}, DeleteInternalTopics: true})
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"a", "b", "fail", "stateless"}}, f.describeCalls, "described before the delete, pre-check failures left out")
	assert.Equal(t, [][]string{{"a-s-changelog", "a-r-repartition"}}, f.topicCalls, "topics only for deleted groups")

	byID := map[string]*Group{}
	for _, g := range res.Groups {
		byID[g.Group] = g
	}
	a := byID["a"].InternalTopics
	require.NotNil(t, a)
	assert.Equal(t, []string{"a-s-changelog", "a-r-repartition"}, a.Inferred)
	assert.Equal(t, []string{"other-changelog"}, a.NotInferred)
	assert.Equal(t, []string{"a-s-changelog"}, a.Deleted)
	require.Len(t, a.Failed, 1)
	assert.Equal(t, "a-r-repartition", a.Failed[0].Topic)
	assert.ErrorIs(t, a.FirstErr(), kafka.ErrNotAuthorized)

	b := byID["b"].InternalTopics
	require.NotNil(t, b)
	assert.ErrorIs(t, b.FirstErr(), kafka.ErrUnavailable)
	assert.True(t, byID["b"].Deleted, "like the Java tool, the group is deleted even if its topics are unknown")

	assert.Equal(t, []string{"fail-s-changelog"}, byID["fail"].InternalTopics.Inferred)
	assert.Empty(t, byID["fail"].InternalTopics.Deleted)
	assert.Nil(t, byID["busy"].InternalTopics)
	assert.NotNil(t, byID["stateless"].InternalTopics, "no topology: known to have no internal topics")
	assert.Empty(t, byID["stateless"].InternalTopics.Inferred)
	assert.Nil(t, (*InternalTopics)(nil).FirstErr())
}

func TestMayBePluginFailure(t *testing.T) {
	unknown := admin.NewKafkaError(-1, nil)
	tests := []struct {
		name string
		g    Group
		want bool
	}{
		{"v2 unknown server error", Group{Err: unknown, Stage: StageDeleteGroups, DeleteGroupsVersion: 2}, true},
		{"v3 unknown server error is what it says", Group{Err: unknown, Stage: StageDeleteGroups, DeleteGroupsVersion: 3}, false},
		{"v2 other error", Group{Err: admin.NewKafkaError(68, nil), Stage: StageDeleteGroups, DeleteGroupsVersion: 2}, false},
		{"deleted", Group{Deleted: true, DeleteGroupsVersion: 2}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.g.MayBePluginFailure())
		})
	}
}

func TestInfer(t *testing.T) {
	tests := []struct {
		name            string
		appID           string
		subs            []kafka.Subtopology
		wantInferred    []string
		wantNotInferred []string
	}{
		{
			name:  "repartition and changelog topics in subtopology order",
			appID: "wc",
			subs: []kafka.Subtopology{
				{SourceTopics: []string{"in"}, StateChangelogTopics: []string{"wc-a-changelog"}},
				{RepartitionSourceTopics: []string{"wc-b-repartition"}, StateChangelogTopics: []string{"wc-c-changelog"}},
			},
			wantInferred: []string{"wc-a-changelog", "wc-b-repartition", "wc-c-changelog"},
		},
		{
			name:  "a source topic is never internal, even with an internal name",
			appID: "wc",
			subs: []kafka.Subtopology{
				{SourceTopics: []string{"wc-t-changelog"}},
				{StateChangelogTopics: []string{"wc-t-changelog"}},
			},
		},
		{
			name:  "foreign-key join topics and subscription suffixes",
			appID: "fk",
			subs: []kafka.Subtopology{{
				RepartitionSourceTopics: []string{
					"fk-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic",
					"fk-KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-0000000012-topic",
					"fk-x-subscription-registration-topic",
					"fk-x-subscription-response-topic",
				},
			}},
			wantInferred: []string{
				"fk-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic",
				"fk-KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-0000000012-topic",
				"fk-x-subscription-registration-topic",
				"fk-x-subscription-response-topic",
			},
		},
		{
			name:  "names that break the rules are reported, not inferred",
			appID: "app",
			subs: []kafka.Subtopology{{
				RepartitionSourceTopics: []string{"other-x-repartition", "app-x-topic", "app-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-x-topic", "apps-x-changelog"},
				StateChangelogTopics:    []string{"app-x-repartition", "app-changelog"},
			}},
			// "app-changelog" passes, as in the Java tool: the prefix's dash
			// also starts the suffix.
			wantInferred:    []string{"app-x-repartition", "app-changelog"},
			wantNotInferred: []string{"other-x-repartition", "app-x-topic", "app-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-x-topic", "apps-x-changelog"},
		},
		{
			name:  "a topic named twice is listed once",
			appID: "a",
			subs: []kafka.Subtopology{
				{RepartitionSourceTopics: []string{"a-r-repartition"}},
				{RepartitionSourceTopics: []string{"a-r-repartition"}, StateChangelogTopics: []string{"odd", "odd"}},
			},
			wantInferred:    []string{"a-r-repartition"},
			wantNotInferred: []string{"odd"},
		},
		{name: "no topology", appID: "a"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			inferred, notInferred := Infer(tc.appID, tc.subs)
			assert.Equal(t, tc.wantInferred, inferred)
			assert.Equal(t, tc.wantNotInferred, notInferred)
		})
	}
}

func TestResult_Failures(t *testing.T) {
	refused := admin.NewKafkaError(kafka.CodeGroupDeletionFailed, nil)
	topicErr := admin.NewKafkaError(kafka.CodeTopicAuthorizationFailed, nil)
	res := &Result{Groups: []*Group{
		{Group: "a", Deleted: true},
		{Group: "b", Err: refused},
		{Group: "c", Deleted: true, InternalTopics: &InternalTopics{Inferred: []string{"c-x-changelog"}, Failed: []TopicFailure{{Topic: "c-x-changelog", Err: topicErr}}}},
	}}
	assert.Equal(t, []kafka.Failure{{Group: "b", Err: refused}, {Group: "c", Err: topicErr}}, res.Failures())
	assert.Equal(t, "c", res.Group("c").Group)
	assert.Nil(t, res.Group("nope"))
}

// --delete-internal-topic (not in the Java tool, whose 4.4 docs promise
// it): only the named topics are deleted, each with its own group, and a
// name that is not an inferred internal topic of a group to delete refuses
// the whole command before anything is deleted.
func TestRun_namedInternalTopics(t *testing.T) {
	described := map[string]admin.DescribedGroup{
		"a":    wireGroup("a", wireSub([]string{"in"}, nil, []string{"a-s-changelog", "other-changelog"}), wireSub(nil, []string{"a-r-repartition"}, nil)),
		"fail": wireGroup("fail", wireSub([]string{"in"}, nil, []string{"fail-s-changelog"})),
	}
	f := &fakeClient{listed: listed(), described: described, version: 3}
	res, err := Run(t.Context(), f, Options{Groups: []string{"a", "fail"}, InternalTopics: []string{"a-r-repartition", "fail-s-changelog", "a-r-repartition"}})
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"a-r-repartition"}, {"fail-s-changelog"}}, f.topicCalls, "each group deletes its own named topics")
	assert.Equal(t, []string{"a-r-repartition"}, res.Groups[0].InternalTopics.Inferred)
	assert.Empty(t, res.Groups[0].InternalTopics.NotInferred, "only --delete-all-internal-topics reports topics it leaves alone")

	for _, named := range [][]string{{"in"}, {"other-changelog"}, {"a-r-repartition", "busy-x-changelog"}} {
		f = &fakeClient{listed: listed(), described: described, version: 3}
		_, err = Run(t.Context(), f, Options{Groups: []string{"a", "busy"}, InternalTopics: named})
		var re *kafka.RefusedError
		require.ErrorAs(t, err, &re, "%v", named)
		assert.Equal(t, kafka.RefusedNotInternal, re.Reason)
		assert.Equal(t, named[len(named)-1:], re.Topics, "a topic of a group that fails the pre-check is refused too")
		assert.Empty(t, f.deleteCalls, "nothing is deleted")
		assert.Empty(t, f.topicCalls)
	}

	f = &fakeClient{listed: listed(), described: described, version: 3}
	_, err = Run(t.Context(), f, Options{Groups: []string{"a"}, DeleteInternalTopics: true, InternalTopics: []string{"in"}})
	require.NoError(t, err, "--delete-all-internal-topics takes priority, as in the Java tool")
	assert.Equal(t, [][]string{{"a-s-changelog", "a-r-repartition"}}, f.topicCalls)
}
