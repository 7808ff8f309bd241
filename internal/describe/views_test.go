package describe

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// The topology tests' fake answers no offsets.

func (f *fakeClient) FetchCommittedOffsets(_ context.Context, groups []string) []admin.GroupOffsets {
	out := make([]admin.GroupOffsets, len(groups))
	for i, g := range groups {
		out[i] = admin.GroupOffsets{Group: g}
	}
	return out
}

func (f *fakeClient) ListOffsets(context.Context, []kafka.TopicPartition, int64) ([]admin.ListedOffset, error) {
	return nil, nil
}

func (f *fakeClient) LoadTopics(context.Context, []string) {}

func tasks(sub string, ps ...int32) kafka.Tasks {
	return kafka.Tasks{SubtopologyID: sub, Partitions: ps}
}

func member(id string, active ...kafka.Tasks) kafka.Member {
	return kafka.Member{MemberID: id, MemberEpoch: 7, ProcessID: "p-" + id, ClientID: "c-" + id,
		Assignment: kafka.Assignment{Active: active}, TargetAssignment: kafka.Assignment{Active: active}}
}

// viewsFake serves describe rows, committed offsets and log offsets.
type viewsFake struct {
	rows      map[string]*kafka.StreamsGroup
	committed map[string][]admin.CommittedOffset
	fetchErr  map[string]error
	logs      map[kafka.TopicPartition][2]int64 // earliest, latest
	listErr   error

	mu      sync.Mutex // the offsets view's requests run concurrently
	fetched [][]string
	listed  [][]kafka.TopicPartition
}

func (f *viewsFake) DescribeStreamsGroups(_ context.Context, groups []string, _ bool) []admin.DescribedGroup {
	out := make([]admin.DescribedGroup, len(groups))
	for i, g := range groups {
		out[i] = admin.DescribedGroup{Group: g, Coordinator: kafka.Broker{ID: 1, Host: "h", Port: 9092}, Streams: f.rows[g]}
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
	f.mu.Lock()
	f.fetched = append(f.fetched, groups)
	f.mu.Unlock()
	out := make([]admin.GroupOffsets, len(groups))
	for i, g := range groups {
		out[i] = admin.GroupOffsets{Group: g, Offsets: f.committed[g], Err: f.fetchErr[g]}
	}
	return out
}

func (f *viewsFake) ListOffsets(_ context.Context, tps []kafka.TopicPartition, ts int64) ([]admin.ListedOffset, error) {
	f.mu.Lock()
	f.listed = append(f.listed, tps)
	f.mu.Unlock()
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

func (f *viewsFake) LoadTopics(context.Context, []string) {}

// wordCountRow is a word-count group: subtopology 0 reads "in",
// subtopology 1 the repartition topic "rep" (listed only as a repartition
// source, as a real 4.4 broker sends it).
func wordCountRow(state string, members ...kafka.Member) *kafka.StreamsGroup {
	return &kafka.StreamsGroup{State: state, GroupEpoch: 4, AssignmentEpoch: 4, Members: members,
		Subtopologies: []kafka.Subtopology{
			{ID: "0", SourceTopics: []string{"in"}, RepartitionSinkTopics: []string{"rep"}},
			{ID: "1", RepartitionSourceTopics: []string{"rep"}, StateChangelogTopics: []string{"counts-changelog"}},
		}}
}

func i64(v int64) *int64 { return &v }
func i32(v int32) *int32 { return &v }

func TestRun_offsets(t *testing.T) {
	tp := func(topic string, p int32) kafka.TopicPartition {
		return kafka.TopicPartition{Topic: topic, Partition: p}
	}
	newFake := func() *viewsFake {
		return &viewsFake{
			rows: map[string]*kafka.StreamsGroup{
				"wc":    wordCountRow("Stable", member("m2", tasks("1", 0)), member("m1", tasks("0", 1, 0))),
				"empty": wordCountRow("Empty"),
				"other": wordCountRow("Stable", member("m", tasks("0", 0))),
				"bad":   wordCountRow("Stable", member("m", tasks("7", 0))),
			},
			committed: map[string][]admin.CommittedOffset{
				"wc": {
					{TopicPartition: tp("in", 0), Offset: 8, LeaderEpoch: 2},
					{TopicPartition: tp("rep", 0), Offset: 30, LeaderEpoch: -1},
					{TopicPartition: tp("in", 1), Offset: 99, LeaderEpoch: 0, Err: admin.NewKafkaError(88, nil)},
					{TopicPartition: tp("elsewhere", 0), Offset: 1},
				},
			},
			logs: map[kafka.TopicPartition][2]int64{tp("in", 0): {0, 10}, tp("in", 1): {5, 12}, tp("rep", 0): {0, 30}},
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
		assert.ErrorIs(t, res.Groups[4].Err, kafka.ErrGroupNotFound)

		assert.Equal(t, [][]string{{"wc", "other"}}, f.fetched, "one OffsetFetch round for every group with rows")
		require.Len(t, f.listed, 2, "earliest and latest")
		assert.ElementsMatch(t, []kafka.TopicPartition{tp("in", 0), tp("in", 1), tp("rep", 0), tp("in", 0)}, f.listed[0])
	})
	t.Run("OffsetFetch error fails only its group", func(t *testing.T) {
		f := newFake()
		f.fetchErr = map[string]error{"other": admin.NewKafkaError(30, nil)}
		res, err := Run(context.Background(), f, Options{Groups: []string{"wc", "other"}, Offsets: true})
		require.NoError(t, err)
		assert.NoError(t, res.Groups[0].Err)
		assert.ErrorIs(t, res.Groups[1].Err, kafka.ErrNotAuthorized)
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

// overlapFake answers each of the offsets view's three requests (the
// OffsetFetch and the two ListOffsets) only once the other two are out too
// (or after a few seconds): sent one after the other, each would wait.
type overlapFake struct {
	*viewsFake
	out     map[string]chan struct{} // closed when the request is out
	mu      sync.Mutex
	waited  []string // requests that had to wait for the others
	loaded  []string // LoadTopics' topics
	early   bool     // LoadTopics came before any ListOffsets
	listing bool
}

func newOverlapFake(f *viewsFake) *overlapFake {
	return &overlapFake{viewsFake: f, out: map[string]chan struct{}{
		"OffsetFetch": make(chan struct{}), "earliest": make(chan struct{}), "latest": make(chan struct{}),
	}}
}

// sent closes name's channel and waits for the others.
func (o *overlapFake) sent(name string) {
	close(o.out[name])
	deadline := time.After(3 * time.Second)
	for other, ch := range o.out {
		if other == name {
			continue
		}
		select {
		case <-ch:
		case <-deadline:
			o.mu.Lock()
			o.waited = append(o.waited, name)
			o.mu.Unlock()
			return
		}
	}
}

func (o *overlapFake) FetchCommittedOffsets(ctx context.Context, groups []string) []admin.GroupOffsets {
	o.sent("OffsetFetch")
	return o.viewsFake.FetchCommittedOffsets(ctx, groups)
}

func (o *overlapFake) ListOffsets(ctx context.Context, tps []kafka.TopicPartition, ts int64) ([]admin.ListedOffset, error) {
	o.mu.Lock()
	o.listing = true
	o.mu.Unlock()
	name := "latest"
	if ts == admin.EarliestTimestamp {
		name = "earliest"
	}
	o.sent(name)
	return o.viewsFake.ListOffsets(ctx, tps, ts)
}

func (o *overlapFake) LoadTopics(_ context.Context, topics []string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.loaded = append(o.loaded, topics...)
	o.early = !o.listing
}

// The OffsetFetch, the log starts' and the log ends' ListOffsets go out
// together, after one load of the topics' metadata: in series they took
// four round trips after the describe (issue 32).
func TestRun_offsetsOverlap(t *testing.T) {
	tp := func(topic string, p int32) kafka.TopicPartition {
		return kafka.TopicPartition{Topic: topic, Partition: p}
	}
	o := newOverlapFake(&viewsFake{
		rows: map[string]*kafka.StreamsGroup{
			"wc":    wordCountRow("Stable", member("m1", tasks("0", 0), tasks("1", 0))),
			"other": wordCountRow("Stable", member("m", tasks("0", 1))),
		},
		committed: map[string][]admin.CommittedOffset{"wc": {{TopicPartition: tp("in", 0), Offset: 8, LeaderEpoch: -1}}},
		logs:      map[kafka.TopicPartition][2]int64{tp("in", 0): {0, 10}, tp("in", 1): {2, 5}, tp("rep", 0): {3, 30}},
	})
	res, err := Run(t.Context(), o, Options{Groups: []string{"wc", "other"}})
	require.NoError(t, err)
	assert.Empty(t, o.waited, "requests that waited for another to be answered")
	assert.Equal(t, []string{"in", "rep"}, o.loaded, "one metadata load of every topic")
	assert.True(t, o.early, "the metadata was loaded before the ListOffsets")
	assert.Equal(t, [][]string{{"wc", "other"}}, o.fetched)
	require.NoError(t, res.Groups[0].Err)
	assert.Equal(t, []PartitionOffset{
		{Topic: "in", Partition: 0, CurrentOffset: i64(8), LogStartOffset: 0, LogEndOffset: 10, Lag: 2},
		{Topic: "rep", Partition: 0, LogStartOffset: 3, LogEndOffset: 30, Lag: 27},
	}, res.Groups[0].Offsets)
	require.NoError(t, res.Groups[1].Err)
	assert.Equal(t, []PartitionOffset{{Topic: "in", Partition: 1, LogStartOffset: 2, LogEndOffset: 5, Lag: 3}}, res.Groups[1].Offsets)
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
		{opts: Options{State: true, Topology: true}, wantErr: "Option [describe] takes one of these options: [all-groups], [group]"},
		{opts: Options{Groups: []string{"g"}, State: true, StateValue: ptr("Stable")}, wantErr: "Option [describe] does not take a value for [state]"},
		{opts: Options{Groups: []string{"g"}, State: true, StateValue: ptr("Stable"), Members: true}, wantErr: "Option [describe] takes at most one of these options: [members], [offsets], [state], [topology]"},
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

func ptr[T any](v T) *T { return &v }
