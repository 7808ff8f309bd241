package describe

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
)

// The topology tests' fake answers no offsets.

func (f *fakeClient) FetchCommittedOffsets(_ context.Context, groups []string) []admin.GroupOffsets {
	out := make([]admin.GroupOffsets, len(groups))
	for i, g := range groups {
		out[i] = admin.GroupOffsets{Group: g}
	}
	return out
}

func (f *fakeClient) ListOffsets(context.Context, []admin.TopicPartition, int64) ([]admin.ListedOffset, error) {
	return nil, nil
}

func tasks(sub string, ps ...int32) kmsg.TaskIDs {
	return kmsg.TaskIDs{SubtopologyID: sub, Partitions: ps}
}

func wireMember(id string, active ...kmsg.TaskIDs) kmsg.StreamsGroupDescribeResponseGroupMember {
	m := kmsg.NewStreamsGroupDescribeResponseGroupMember()
	m.MemberID, m.MemberEpoch, m.ProcessID, m.ClientID = id, 7, "p-"+id, "c-"+id
	m.Assignment.ActiveTasks = active
	m.TargetAssignment.ActiveTasks = active
	return m
}

func TestBuildMembers(t *testing.T) {
	instance := "i-1"
	b := wireMember("b", tasks("10", 2, 0), tasks("2", 1), tasks("10", 1))
	b.InstanceID = &instance
	b.IsClassic = true
	b.ClientTags = []kmsg.StreamsGroupDescribeResponseGroupMemberClientTag{{Key: "zone", Value: "z1"}, {Key: "az", Value: "a"}}
	b.UserEndpoint = &kmsg.StreamsGroupDescribeResponseGroupMemberUserEndpoint{Host: "h", Port: 7070}
	b.Assignment.StandbyTasks = []kmsg.TaskIDs{tasks("x", 0), tasks("1", 0)}
	a := wireMember("a")

	got := buildMembers([]kmsg.StreamsGroupDescribeResponseGroupMember{b, a})
	require.Len(t, got, 2)
	assert.Equal(t, "a", got[0].MemberID, "sorted by member id")
	assert.Equal(t, "streams", got[0].Protocol())
	assert.Empty(t, got[0].Assignment.Active)
	m := got[1]
	assert.Equal(t, "classic", m.Protocol())
	assert.Equal(t, []Tasks{{"2", []int32{1}}, {"10", []int32{0, 1, 2}}}, m.Assignment.Active, "numeric subtopology order, repeated subtopology merged")
	assert.Equal(t, []Tasks{{"1", []int32{0}}, {"x", []int32{0}}}, m.Assignment.Standby, "numeric ids before others")
	assert.Equal(t, []ClientTag{{"az", "a"}, {"zone", "z1"}}, m.ClientTags)
	assert.Equal(t, &Endpoint{Host: "h", Port: 7070}, m.UserEndpoint)
	assert.Equal(t, "i-1", *m.InstanceID)
	instance = "changed"
	assert.Equal(t, "i-1", *m.InstanceID, "the model owns its copy")
}

func TestCompareSubtopologyIDs(t *testing.T) {
	ids := []string{"b", "10", "2", "a", "01", "1"}
	slices.SortFunc(ids, CompareSubtopologyIDs)
	assert.Equal(t, []string{"01", "1", "2", "10", "a", "b"}, ids)
}

// viewsFake serves describe rows, committed offsets and log offsets.
type viewsFake struct {
	rows      map[string]*kmsg.StreamsGroupDescribeResponseGroup
	committed map[string][]admin.CommittedOffset
	fetchErr  map[string]error
	logs      map[admin.TopicPartition][2]int64 // earliest, latest
	listErr   error

	fetched [][]string
	listed  [][]admin.TopicPartition
}

func (f *viewsFake) DescribeStreamsGroups(_ context.Context, groups []string, _ bool) []admin.DescribedGroup {
	out := make([]admin.DescribedGroup, len(groups))
	for i, g := range groups {
		out[i] = admin.DescribedGroup{Group: g, Coordinator: admin.Broker{ID: 1, Host: "h", Port: 9092}, Row: f.rows[g]}
		if f.rows[g] == nil {
			out[i].Err = admin.NewKafkaError(69, nil)
		}
	}
	return out
}

func (f *viewsFake) ListStreamsGroups(context.Context) ([]admin.ListedGroup, error) {
	var out []admin.ListedGroup
	for g := range f.rows {
		out = append(out, admin.ListedGroup{Group: g})
	}
	return out, nil
}

func (f *viewsFake) FetchCommittedOffsets(_ context.Context, groups []string) []admin.GroupOffsets {
	f.fetched = append(f.fetched, groups)
	out := make([]admin.GroupOffsets, len(groups))
	for i, g := range groups {
		out[i] = admin.GroupOffsets{Group: g, Offsets: f.committed[g], Err: f.fetchErr[g]}
	}
	return out
}

func (f *viewsFake) ListOffsets(_ context.Context, tps []admin.TopicPartition, ts int64) ([]admin.ListedOffset, error) {
	f.listed = append(f.listed, tps)
	if f.listErr != nil {
		return nil, f.listErr
	}
	var out []admin.ListedOffset
	for _, tp := range tps {
		l, ok := f.logs[tp]
		lo := admin.ListedOffset{TopicPartition: tp, Offset: l[1]}
		if ts == admin.EarliestTimestamp {
			lo.Offset = l[0]
		}
		if !ok {
			lo.Err = admin.NewKafkaError(3, nil)
		}
		out = append(out, lo)
	}
	return out, nil
}

// wordCountRow is a word-count group: subtopology 0 reads "in",
// subtopology 1 the repartition topic "rep" (listed only as a repartition
// source, as a real 4.4 broker sends it).
func wordCountRow(id, state string, members ...kmsg.StreamsGroupDescribeResponseGroupMember) *kmsg.StreamsGroupDescribeResponseGroup {
	r := kmsg.NewStreamsGroupDescribeResponseGroup()
	r.Group, r.State, r.Epoch, r.AssignmentEpoch = id, state, 4, 4
	topo := kmsg.NewStreamsGroupDescribeResponseGroupTopology()
	s0 := kmsg.NewStreamsGroupDescribeResponseGroupTopologySubtopology()
	s0.SubtopologyID, s0.SourceTopics, s0.RepartitionSinkTopics = "0", []string{"in"}, []string{"rep"}
	s1 := kmsg.NewStreamsGroupDescribeResponseGroupTopologySubtopology()
	s1.SubtopologyID = "1"
	s1.RepartitionSourceTopics = []kmsg.TopicInfo{{Topic: "rep"}}
	s1.StateChangelogTopics = []kmsg.TopicInfo{{Topic: "counts-changelog"}}
	topo.Subtopologies = []kmsg.StreamsGroupDescribeResponseGroupTopologySubtopology{s0, s1}
	r.Topology = &topo
	r.Members = members
	return &r
}

func i64(v int64) *int64 { return &v }
func i32(v int32) *int32 { return &v }

func TestRun_offsets(t *testing.T) {
	tp := func(topic string, p int32) admin.TopicPartition {
		return admin.TopicPartition{Topic: topic, Partition: p}
	}
	newFake := func() *viewsFake {
		return &viewsFake{
			rows: map[string]*kmsg.StreamsGroupDescribeResponseGroup{
				"wc":    wordCountRow("wc", "Stable", wireMember("m2", tasks("1", 0)), wireMember("m1", tasks("0", 1, 0))),
				"empty": wordCountRow("empty", "Empty"),
				"other": wordCountRow("other", "Stable", wireMember("m", tasks("0", 0))),
				"bad":   wordCountRow("bad", "Stable", wireMember("m", tasks("7", 0))),
			},
			committed: map[string][]admin.CommittedOffset{
				"wc": {
					{TopicPartition: tp("in", 0), Offset: 8, LeaderEpoch: 2},
					{TopicPartition: tp("rep", 0), Offset: 30, LeaderEpoch: -1},
					{TopicPartition: tp("in", 1), Offset: 99, LeaderEpoch: 0, Err: admin.NewKafkaError(88, nil)},
					{TopicPartition: tp("elsewhere", 0), Offset: 1},
				},
			},
			logs: map[admin.TopicPartition][2]int64{tp("in", 0): {0, 10}, tp("in", 1): {5, 12}, tp("rep", 0): {0, 30}},
		}
	}

	t.Run("rows, lag and batching", func(t *testing.T) {
		f := newFake()
		res, err := Run(context.Background(), f, Options{Groups: []string{"wc", "empty", "other", "bad", "gone"}})
		require.NoError(t, err)
		require.Len(t, res.Groups, 5)
		assert.Equal(t, ViewOffsets, res.View)
		wc := res.Groups[0]
		require.NoError(t, wc.Err)
		assert.Equal(t, []PartitionOffset{
			{Topic: "in", Partition: 0, CurrentOffset: i64(8), LeaderEpoch: i32(2), LogStartOffset: 0, LogEndOffset: 10, Lag: 2},
			// a committed offset answered with an error counts as none: end - start
			{Topic: "in", Partition: 1, LogStartOffset: 5, LogEndOffset: 12, Lag: 7},
			{Topic: "rep", Partition: 0, CurrentOffset: i64(30), LogStartOffset: 0, LogEndOffset: 30, Lag: 0},
		}, wc.Offsets)
		assert.Nil(t, res.Groups[1].Offsets, "an Empty group has no rows")
		assert.False(t, res.Groups[1].HasRows())
		require.NoError(t, res.Groups[2].Err)
		assert.Len(t, res.Groups[2].Offsets, 1)
		assert.EqualError(t, res.Groups[3].Err, "malformed response from the broker: Subtopology 7 not found in group description!")
		assert.ErrorIs(t, res.Groups[4].Err, admin.ErrGroupNotFound)

		assert.Equal(t, [][]string{{"wc", "other"}}, f.fetched, "one OffsetFetch round for every group with rows")
		require.Len(t, f.listed, 2, "earliest and latest")
		assert.ElementsMatch(t, []admin.TopicPartition{tp("in", 0), tp("in", 1), tp("rep", 0), tp("in", 0)}, f.listed[0])
	})
	t.Run("OffsetFetch error fails only its group", func(t *testing.T) {
		f := newFake()
		f.fetchErr = map[string]error{"other": admin.NewKafkaError(30, nil)}
		res, err := Run(context.Background(), f, Options{Groups: []string{"wc", "other"}, Offsets: true})
		require.NoError(t, err)
		assert.NoError(t, res.Groups[0].Err)
		assert.ErrorIs(t, res.Groups[1].Err, admin.ErrNotAuthorized)
	})
	t.Run("a partition without offsets fails its group", func(t *testing.T) {
		f := newFake()
		delete(f.logs, tp("rep", 0))
		res, err := Run(context.Background(), f, Options{Groups: []string{"wc", "other"}})
		require.NoError(t, err)
		assert.EqualError(t, res.Groups[0].Err, "UNKNOWN_TOPIC_OR_PARTITION: This server does not host this topic-partition.")
		assert.Nil(t, res.Groups[0].Offsets)
		assert.NoError(t, res.Groups[1].Err)
	})
	t.Run("ListOffsets failure fails every group", func(t *testing.T) {
		f := newFake()
		f.listErr = errors.New("boom")
		res, err := Run(context.Background(), f, Options{Groups: []string{"wc", "other"}})
		require.NoError(t, err)
		assert.EqualError(t, res.Groups[0].Err, "boom")
		assert.EqualError(t, res.Groups[1].Err, "boom")
	})
	t.Run("other views fetch no offsets", func(t *testing.T) {
		for _, opts := range []Options{{Members: true}, {State: true}, {Topology: true}} {
			f := newFake()
			opts.Groups = []string{"wc"}
			res, err := Run(context.Background(), f, opts)
			require.NoError(t, err)
			assert.Empty(t, f.fetched)
			assert.Empty(t, f.listed)
			assert.Nil(t, res.Groups[0].Offsets)
			assert.Len(t, res.Groups[0].Members, 2)
		}
	})
}

func TestOptions(t *testing.T) {
	tests := []struct {
		opts     Options
		wantView View
		wantErr  string
	}{
		{opts: Options{Groups: []string{"g"}}, wantView: ViewOffsets},
		{opts: Options{Groups: []string{"g"}, Offsets: true, Verbose: true}, wantView: ViewOffsets},
		{opts: Options{Groups: []string{"g"}, Members: true}, wantView: ViewMembers},
		{opts: Options{AllGroups: true, State: true}, wantView: ViewState},
		{opts: Options{AllGroups: true, Topology: true}, wantView: ViewTopology},
		{opts: Options{Groups: []string{"g"}, Members: true, Offsets: true}, wantErr: "Option [describe] takes at most one of these options: [members], [offsets], [state], [topology]"},
		{opts: Options{Groups: []string{"g"}, State: true, Topology: true}, wantErr: "Option [describe] takes at most one of these options: [members], [offsets], [state], [topology]"},
	}
	for _, tc := range tests {
		err := tc.opts.Validate()
		if tc.wantErr != "" {
			assert.EqualError(t, err, tc.wantErr)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, tc.wantView, tc.opts.View())
	}
}

func TestBuildSubtopologies(t *testing.T) {
	r := wordCountRow("g", "Stable")
	got := buildSubtopologies(r.Topology)
	assert.Equal(t, []Subtopology{
		{ID: "0", SourceTopics: []string{"in"}, RepartitionSourceTopics: []string{}, RepartitionSinkTopics: []string{"rep"}, StateChangelogTopics: []string{}},
		{ID: "1", SourceTopics: []string{}, RepartitionSourceTopics: []string{"rep"}, RepartitionSinkTopics: []string{}, StateChangelogTopics: []string{"counts-changelog"}},
	}, got)
	assert.Nil(t, buildSubtopologies(nil))
	assert.Nil(t, buildSubtopologies(&kmsg.StreamsGroupDescribeResponseGroupTopology{Epoch: 1}), "not initialised")
}
