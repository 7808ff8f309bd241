package resetoffsets

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// fakeClient answers from tables; the playground-backed CLI tests cover
// the wire, these the failure paths.
type fakeClient struct {
	states    map[string]string
	committed map[string][]admin.CommittedOffset
	fetchErr  map[string]error
	logs      map[kafka.TopicPartition][2]int64
	listErr   error
	partErr   map[kafka.TopicPartition]error
	commitErr map[string]error
	commits   []admin.GroupCommit
	deleted   [][]string
}

func (f *fakeClient) ListStreamsGroups(context.Context) ([]admin.ListedGroup, error) {
	return []admin.ListedGroup{{Group: "a"}, {Group: "b"}}, nil
}

func (f *fakeClient) DescribeStreamsGroups(_ context.Context, groups []string, _ bool) []admin.DescribedGroup {
	var out []admin.DescribedGroup
	for _, g := range groups {
		st, ok := f.states[g]
		if !ok {
			out = append(out, admin.DescribedGroup{Group: g, Err: admin.NewKafkaError(kafka.CodeGroupIDNotFound, nil)})
			continue
		}
		out = append(out, admin.DescribedGroup{Group: g, Streams: &kafka.StreamsGroup{State: st, Subtopologies: []kafka.Subtopology{
			{ID: "0", SourceTopics: []string{"in"}, StateChangelogTopics: []string{g + "-s-changelog"}}}}})
	}
	return out
}

func (f *fakeClient) FetchCommittedOffsets(_ context.Context, groups []string) []admin.GroupOffsets {
	var out []admin.GroupOffsets
	for _, g := range groups {
		out = append(out, admin.GroupOffsets{Group: g, Offsets: f.committed[g], Err: f.fetchErr[g]})
	}
	return out
}

func (f *fakeClient) DescribeTopics(context.Context, []string) ([]admin.TopicInfo, error) {
	return []admin.TopicInfo{{Topic: "in", Partitions: []admin.PartitionInfo{{Partition: 0, Leader: 1}, {Partition: 1, Leader: -1}}}}, nil
}

func (f *fakeClient) ListOffsets(_ context.Context, tps []kafka.TopicPartition, ts int64) ([]admin.ListedOffset, error) {
	if f.listErr != nil {
		return nil, f.listErr
	}
	var out []admin.ListedOffset
	for _, tp := range tps {
		lo := admin.ListedOffset{TopicPartition: tp, Offset: f.logs[tp][0], Err: f.partErr[tp]}
		if ts == admin.LatestTimestamp {
			lo.Offset = f.logs[tp][1]
		}
		out = append(out, lo)
	}
	return out, nil
}

func (f *fakeClient) CommitOffsets(_ context.Context, commits []admin.GroupCommit) []admin.CommitResult {
	f.commits = append(f.commits, commits...)
	var out []admin.CommitResult
	for _, c := range commits {
		out = append(out, admin.CommitResult{Group: c.Group, Err: f.commitErr[c.Group]})
	}
	return out
}

func (f *fakeClient) DeleteTopics(_ context.Context, topics []string) []admin.DeletedTopic {
	f.deleted = append(f.deleted, topics)
	var out []admin.DeletedTopic
	for _, t := range topics {
		out = append(out, admin.DeletedTopic{Topic: t})
	}
	return out
}

var in0 = kafka.TopicPartition{Topic: "in", Partition: 0}

func fake() *fakeClient {
	return &fakeClient{
		states:    map[string]string{"a": "Empty", "b": "Empty", "busy": "Reconciling", "dead": "Dead"},
		committed: map[string][]admin.CommittedOffset{"a": {{TopicPartition: in0, Offset: 5}}, "b": {{TopicPartition: in0, Offset: 6}, {TopicPartition: kafka.TopicPartition{Topic: "in", Partition: 1}, Offset: -1}}},
		logs:      map[kafka.TopicPartition][2]int64{in0: {2, 9}},
	}
}

func TestRun_failurePaths(t *testing.T) {
	ctx := t.Context()
	f := fake()
	f.fetchErr = map[string]error{"b": admin.NewKafkaError(kafka.CodeGroupAuthorizationFailed, nil)}
	res, err := Run(ctx, f, Request{Groups: []string{"a", "b", "busy", "dead"}, AllInputTopics: true, Scenario: ToEarliest, Execute: true})
	require.NoError(t, err)
	require.Len(t, res.Groups, 4)
	assert.NoError(t, res.Groups[0].Err)
	assert.True(t, res.Groups[0].Committed)
	assert.ErrorIs(t, res.Groups[1].Err, kafka.ErrNotAuthorized, "a group whose offsets cannot be fetched")
	assert.True(t, res.Groups[1].Described, "it keeps its place in the table")
	assert.ErrorIs(t, res.Groups[2].Err, kafka.ErrGroupActive)
	assert.Equal(t, "Reconciling", res.Groups[2].State)
	assert.ErrorIs(t, res.Groups[3].Err, kafka.ErrGroupNotFound, "a Dead group is refused")
	assert.False(t, res.Groups[3].Described)
	assert.Len(t, f.commits, 1)
	assert.Len(t, res.Failures(), 3)

	f = fake()
	f.partErr = map[kafka.TopicPartition]error{in0: admin.NewKafkaError(6, nil)}
	res, err = Run(ctx, f, Request{Groups: []string{"a"}, AllInputTopics: true, Scenario: ToLatest, Execute: true})
	require.NoError(t, err)
	assert.EqualError(t, res.Groups[0].Err, "ListOffsets of in-0: NOT_LEADER_FOR_PARTITION: This server is not the leader for that topic-partition.")
	assert.Empty(t, f.commits, "a group without a plan is not committed")

	f = fake()
	f.listErr = &kafka.UnavailableError{Op: "ListOffsets", Err: errors.New("down")}
	_, err = Run(ctx, f, Request{Groups: []string{"a"}, AllInputTopics: true, Scenario: ToLatest})
	assert.ErrorIs(t, err, kafka.ErrUnavailable)

	f = fake()
	f.commitErr = map[string]error{"a": admin.NewKafkaError(kafka.CodeGroupAuthorizationFailed, nil), "b": admin.NewKafkaError(kafka.CodeIllegalGeneration, nil)}
	res, err = Run(ctx, f, Request{Groups: []string{"a", "b"}, AllInputTopics: true, Scenario: ToCurrent, Execute: true, DeleteAllInternalTopics: true})
	require.NoError(t, err)
	assert.ErrorIs(t, res.Groups[0].Err, kafka.ErrNotAuthorized)
	assert.ErrorIs(t, res.Groups[1].Err, kafka.ErrGroupActive, "a member answer to an admin commit")
	assert.Empty(t, f.deleted, "no internal topic of a group that was not committed is deleted")

	_, err = Run(ctx, fake(), Request{Groups: []string{"a"}, InputTopics: []InputTopic{{Topic: "in"}}, Scenario: ToLatest})
	assert.EqualError(t, err, `LEADER_NOT_AVAILABLE: The partitions "in-1" have no leader`)

	_, err = Run(ctx, fake(), Request{Groups: []string{"a"}, InputTopics: []InputTopic{{Topic: "in", Partitions: []int32{0}}}, Scenario: ShiftBy, Offset: 1})
	assert.NoError(t, err)

	res, err = Run(ctx, fake(), Request{AllGroups: true, AllInputTopics: true, Scenario: ShiftBy, Offset: 100})
	require.NoError(t, err)
	assert.Equal(t, []Partition{{TopicPartition: in0, Current: ptr(6), New: 9, LogStart: 2, LogEnd: 9, Requested: 106, Clamp: ClampedToLogEnd}}, res.Groups[1].Partitions,
		"a partition answered with -1 is not committed")

	res, err = Run(ctx, fake(), Request{Groups: []string{"a", "b"}, AllInputTopics: true, Scenario: ToEarliest, Execute: true, DeleteInternalTopics: []string{"b-s-changelog"}})
	require.NoError(t, err)
	assert.Nil(t, res.Groups[0].InternalTopics)
	assert.Equal(t, []string{"b-s-changelog"}, res.Groups[1].InternalTopics.Deleted, "a named topic is deleted with its own group")
}

func ptr(n int64) *int64 { return &n }

// A time before the epoch searches from 0, never with a negative timestamp
// (ListOffsets reads -1, -2, -3 as latest, earliest, max-timestamp), and a
// duration far in the future stays in the future.
func TestTargetTime_neverNegative(t *testing.T) {
	for _, v := range []string{"1969-12-31T23:59:59.999", "1969-12-31T23:59:59.998", "1969-12-31T23:59:59.997", "1969-12-31T23:59:59.000", "0001-01-01T00:00:00.000"} {
		r, err := Options{Groups: []string{"g"}, AllInputTopics: true, ToDatetime: &v, DryRun: true}.Prepare(nil)
		require.NoError(t, err, v)
		ts, ok := targetTime(r)
		assert.True(t, ok)
		assert.Equal(t, int64(0), ts, v)
	}
	now := func() time.Time { return time.UnixMilli(1000) }
	for d, want := range map[int64]int64{math.MinInt64: math.MaxInt64, -math.MaxInt64: math.MaxInt64, math.MaxInt64: 0, 2000: 0, 400: 600} {
		ts, _ := targetTime(Request{Scenario: ByDuration, Duration: d, Now: now})
		assert.Equal(t, want, ts, "duration %d", d)
	}
}

func TestSaturatingAdd(t *testing.T) {
	for _, tc := range []struct{ a, b, want int64 }{
		{12, math.MaxInt64, math.MaxInt64},
		{7, math.MaxInt64 - 10, math.MaxInt64 - 3},
		{12, math.MaxInt64 - 10, math.MaxInt64},
		{-1, math.MinInt64, math.MinInt64},
		{0, math.MinInt64, math.MinInt64},
		{5, -3, 2},
		{math.MaxInt64, -1, math.MaxInt64 - 1},
	} {
		assert.Equal(t, tc.want, saturatingAdd(tc.a, tc.b), "%d + %d", tc.a, tc.b)
	}
}
