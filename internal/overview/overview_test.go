package overview

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// fake answers from memory and records the requests.
type fake struct {
	groups    map[string]*kafka.StreamsGroup
	committed map[string][]admin.CommittedOffset
	fetchErr  map[string]error
	start     map[kafka.TopicPartition]int64
	end       map[kafka.TopicPartition]int64
	listErr   error
	// calls counts the requests by name; listed is every ListOffsets
	// request's partitions.
	calls  map[string]int
	listed [][]kafka.TopicPartition
	// described is includeTopology of every describe.
	described []bool
}

func (f *fake) count(name string) {
	if f.calls == nil {
		f.calls = map[string]int{}
	}
	f.calls[name]++
}

func (f *fake) DescribeStreamsGroups(_ context.Context, groups []string, includeTopology bool) []admin.DescribedGroup {
	f.count("describe")
	f.described = append(f.described, includeTopology)
	out := make([]admin.DescribedGroup, len(groups))
	for i, g := range groups {
		out[i] = admin.DescribedGroup{Group: g, Coordinator: kafka.Broker{ID: 1, Host: "b1", Port: 9092}, Streams: f.groups[g]}
		if f.groups[g] == nil {
			out[i].Err = admin.NewKafkaError(kafka.CodeGroupIDNotFound, nil)
		}
	}
	return out
}

func (f *fake) ListStreamsGroups(context.Context) ([]admin.ListedGroup, error) {
	f.count("list")
	return []admin.ListedGroup{{Group: "app"}}, nil
}

func (f *fake) FetchCommittedOffsets(_ context.Context, groups []string) []admin.GroupOffsets {
	f.count("fetch")
	out := make([]admin.GroupOffsets, len(groups))
	for i, g := range groups {
		out[i] = admin.GroupOffsets{Group: g, Offsets: f.committed[g], Err: f.fetchErr[g]}
	}
	return out
}

func (f *fake) ListOffsets(_ context.Context, tps []kafka.TopicPartition, ts int64) ([]admin.ListedOffset, error) {
	f.count("listOffsets")
	f.listed = append(f.listed, tps)
	if f.listErr != nil {
		return nil, f.listErr
	}
	var out []admin.ListedOffset
	for _, tp := range tps {
		m := f.end
		if ts == admin.EarliestTimestamp {
			m = f.start
		}
		off, ok := m[tp]
		lo := admin.ListedOffset{TopicPartition: tp, Offset: off, Leader: 100 + tp.Partition} // the time lag's Fetch goes there
		if !ok {
			lo.Offset, lo.Leader, lo.Err = -1, -1, admin.NewKafkaError(kafka.CodeUnknownTopicOrPartition, nil)
		}
		out = append(out, lo)
	}
	return out, nil
}

func tp(t string, p int32) kafka.TopicPartition { return kafka.TopicPartition{Topic: t, Partition: p} }

func tasks(sub string, ps ...int32) []kafka.Tasks {
	return []kafka.Tasks{{SubtopologyID: sub, Partitions: ps}}
}

func str(s string) *string { return &s }

// app is a word count: 0 reads in (2 partitions) and writes the
// repartition topic rep, 1 reads rep into the store counts. m-a runs 0_0,
// 1_0 and stands by for 1_1; m-b runs 0_1 and 1_1, and 1_1 moves to m-a,
// which warms it up.
func app(status topology.Status) *fake {
	g := &kafka.StreamsGroup{
		State: "Reconciling", GroupEpoch: 5, AssignmentEpoch: 5, TopologyEpoch: 1, TopologyStatus: status,
		Subtopologies: []kafka.Subtopology{
			{ID: "1", RepartitionSourceTopics: []string{"app-rep-repartition"}, StateChangelogTopics: []string{"app-counts-changelog"}},
			{ID: "0", SourceTopics: []string{"in"}, RepartitionSinkTopics: []string{"app-rep-repartition"}},
		},
		Members: []kafka.Member{
			{MemberID: "m-a", ProcessID: "p-a", ClientID: "c-a", ClientHost: "/10.0.0.1", UserEndpoint: &kafka.Endpoint{Host: "a", Port: 7070},
				Assignment:       kafka.Assignment{Active: append(tasks("0", 0), tasks("1", 0)...), Standby: tasks("1", 1)},
				TargetAssignment: kafka.Assignment{Active: append(tasks("0", 0), tasks("1", 0, 1)...)}},
			{MemberID: "m-b", ProcessID: "p-b", ClientID: "c-b", ClientHost: "/10.0.0.2",
				Assignment:       kafka.Assignment{Active: append(tasks("0", 1), tasks("1", 1)...)},
				TargetAssignment: kafka.Assignment{Active: tasks("0", 1), Standby: tasks("1", 1)}},
		},
	}
	if status == topology.Available {
		g.Topology = &topology.Description{Subtopologies: []*topology.Subtopology{
			{ID: "0", Nodes: []*topology.Node{
				{Name: "src", Kind: topology.Source, Topics: []string{"in"}, Successors: []string{"sink"}},
				{Name: "sink", Kind: topology.Sink, Topic: str("app-rep-repartition")},
			}},
			{ID: "1", Nodes: []*topology.Node{
				{Name: "src2", Kind: topology.Source, Topics: []string{"app-rep-repartition"}, Successors: []string{"count"}},
				{Name: "count", Kind: topology.Processor, Stores: []string{"counts", "unlogged"}, Successors: []string{"out"}},
				{Name: "out", Kind: topology.Sink, Topic: str("out")},
				{Name: "dyn", Kind: topology.Sink},
			}},
		}}
	}
	return &fake{
		groups: map[string]*kafka.StreamsGroup{"app": g},
		committed: map[string][]admin.CommittedOffset{"app": {
			{TopicPartition: tp("in", 0), Offset: 90},
			{TopicPartition: tp("app-rep-repartition", 0), Offset: 50},
			{TopicPartition: tp("app-rep-repartition", 1), Offset: 7, Err: errors.New("partition error: skipped")},
		}},
		start: map[kafka.TopicPartition]int64{tp("in", 0): 0, tp("in", 1): 10, tp("app-rep-repartition", 0): 0, tp("app-rep-repartition", 1): 20},
		end:   map[kafka.TopicPartition]int64{tp("in", 0): 100, tp("in", 1): 40, tp("app-rep-repartition", 0): 50, tp("app-rep-repartition", 1): 25},
	}
}

func TestRun_join(t *testing.T) {
	f := app(topology.Available)
	res, err := Run(context.Background(), f, Options{Groups: []string{"app"}})
	require.NoError(t, err)
	require.Len(t, res.Groups, 1)
	g := res.Groups[0]
	require.NoError(t, g.Err)
	assert.Empty(t, res.Failures())
	assert.Equal(t, map[string]int{"describe": 1, "fetch": 1, "listOffsets": 2}, f.calls, "one describe, one fetch, earliest and latest")

	require.Len(t, g.Subtopologies, 2)
	s0, s1 := g.Subtopologies[0], g.Subtopologies[1]
	assert.Equal(t, "0", s0.ID, "subtopologies in id order")
	assert.Equal(t, []Source{{Topic: "in", Lag: 10 + 30}}, s0.Sources)
	assert.Equal(t, []string{"app-rep-repartition"}, s0.RepartitionSinks)
	assert.Empty(t, s0.Sinks, "the repartition sink is not a user sink")
	assert.Equal(t, []Source{{Topic: "app-rep-repartition", Repartition: true, Lag: 0 + 5}}, s1.Sources)
	assert.Equal(t, []string{"out"}, s1.Sinks)
	assert.True(t, s1.DynamicSink)
	assert.Equal(t, []Store{{Name: "counts", Changelog: "app-counts-changelog"}, {Name: "unlogged"}}, s1.Stores)
	assert.Len(t, s1.Nodes, 4)

	// Tasks: holders by member index (m-a is 0, m-b is 1).
	require.Len(t, s0.Tasks, 2)
	t00, t01 := s0.Tasks[0], s0.Tasks[1]
	assert.Equal(t, "0_0", t00.String())
	assert.Equal(t, []int{0}, t00.Active)
	assert.False(t, t00.Moving())
	assert.Equal(t, int64(10), t00.Lag, "100 - committed 90")
	assert.Equal(t, []int{1}, t01.Active)
	assert.Equal(t, int64(30), t01.Lag, "uncommitted: 40 - log start 10")
	require.Len(t, t01.Offsets, 1)
	assert.Nil(t, t01.Offsets[0].Committed)
	assert.Equal(t, int64(10), t01.Offsets[0].LogStart)

	t11 := s1.Tasks[1]
	assert.Equal(t, []int{1}, t11.Active)
	assert.Equal(t, []int{0}, t11.Standby)
	assert.Equal(t, []int{0}, t11.TargetActive)
	assert.Equal(t, []int{1}, t11.TargetStandby)
	assert.True(t, t11.Moving())
	assert.Equal(t, int64(5), t11.Lag, "a committed offset answered with an error is skipped: 25 - 20")
	require.Len(t, t11.Offsets, 1)
	assert.True(t, t11.Offsets[0].Repartition)

	assert.Equal(t, int64(45), g.Lag)
	assert.Equal(t, t01, g.Largest)
	assert.Equal(t, int64(40), s0.Lag)
	assert.Equal(t, int64(30), s0.MaxTaskLag)
	assert.Equal(t, topology.Available, g.DescriptionStatus)
}

// Without a stored description the topology gives topics, stores and
// tasks; the status is shown, not failed.
func TestRun_notStored(t *testing.T) {
	for _, status := range []topology.Status{topology.NotStored, topology.Error} {
		f := app(status)
		res, err := Run(context.Background(), f, Options{Groups: []string{"app"}})
		require.NoError(t, err)
		g := res.Groups[0]
		require.NoError(t, g.Err)
		assert.Empty(t, res.Failures(), "%s is not a failure", status)
		assert.Equal(t, status, g.DescriptionStatus)
		s1 := g.Subtopologies[1]
		assert.Nil(t, s1.Nodes)
		assert.Empty(t, s1.Sinks, "user sinks are known only from the description")
		assert.Equal(t, []Store{{Name: "counts", Changelog: "app-counts-changelog"}}, s1.Stores, "the store is named from its changelog")
		assert.Equal(t, int64(45), g.Lag)
	}
}

// WithoutDescription asks StreamsGroupDescribe without the description
// (v0 answers it); the join and the lag are the same.
func TestRun_withoutDescription(t *testing.T) {
	f := app(topology.NotRequested)
	res, err := Run(context.Background(), f, Options{Groups: []string{"app"}, WithoutDescription: true})
	require.NoError(t, err)
	assert.Equal(t, []bool{false}, f.described)
	g := res.Groups[0]
	require.NoError(t, g.Err)
	assert.Equal(t, topology.NotRequested, g.DescriptionStatus)
	assert.Equal(t, int64(45), g.Lag)

	f = app(topology.Available)
	_, err = Run(context.Background(), f, Options{Groups: []string{"app"}})
	require.NoError(t, err)
	assert.Equal(t, []bool{true}, f.described, "the overview asks for the description")
}

// A description without a KIP-1071 topology gives the topics too.
func TestRun_descriptionOnly(t *testing.T) {
	f := app(topology.Available)
	f.groups["app"].Subtopologies = nil
	for i := range f.groups["app"].Members {
		f.groups["app"].Members[i].Assignment, f.groups["app"].Members[i].TargetAssignment = kafka.Assignment{}, kafka.Assignment{}
	}
	res, err := Run(context.Background(), f, Options{Groups: []string{"app"}})
	require.NoError(t, err)
	g := res.Groups[0]
	require.NoError(t, g.Err)
	require.Len(t, g.Subtopologies, 2)
	assert.Equal(t, []Source{{Topic: "in", Lag: 10}}, g.Subtopologies[0].Sources, "the committed partition becomes a task")
	assert.Equal(t, []string{"app-rep-repartition"}, g.Subtopologies[0].RepartitionSinks)
	assert.Equal(t, []Source{{Topic: "app-rep-repartition", Repartition: true, Lag: 0}}, g.Subtopologies[1].Sources)
}

func TestRun_storeView(t *testing.T) {
	f := app(topology.Available)
	res, err := Run(context.Background(), f, Options{Groups: []string{"app"}, StoreGiven: true, Store: "counts"})
	require.NoError(t, err)
	v := res.Groups[0].Store
	require.NotNil(t, v)
	assert.Equal(t, "counts", res.Store)
	assert.Equal(t, StoreView{Name: "counts", Subtopology: "1", Changelog: "app-counts-changelog", Tasks: res.Groups[0].Subtopologies[1].Tasks}, *v)

	res, err = Run(context.Background(), app(topology.Available), Options{Groups: []string{"app"}, StoreGiven: true, Store: "nope"})
	require.NoError(t, err)
	var nf *StoreNotFoundError
	require.ErrorAs(t, res.Groups[0].Err, &nf)
	assert.Equal(t, "no state store nope (its stores are counts, unlogged)", nf.Error())
	assert.Len(t, res.Failures(), 1)

	f = app(topology.Available)
	f.groups["app"].Topology.GlobalStores = []*topology.GlobalStore{{ID: 2,
		Source:    &topology.Node{Name: "gs", Kind: topology.Source, Topics: []string{"g"}},
		Processor: &topology.Node{Name: "gp", Kind: topology.Processor, Stores: []string{"global"}}}}
	res, err = Run(context.Background(), f, Options{Groups: []string{"app"}, StoreGiven: true, Store: "global"})
	require.NoError(t, err)
	assert.EqualError(t, res.Groups[0].Err, "store global is a global store: every instance holds all of it")
}

func TestRun_errors(t *testing.T) {
	t.Run("missing group fails alone", func(t *testing.T) {
		res, err := Run(context.Background(), app(topology.Available), Options{Groups: []string{"nope", "app"}})
		require.NoError(t, err)
		require.Len(t, res.Failures(), 1)
		assert.Equal(t, "nope", res.Failures()[0].Group)
		assert.NoError(t, res.Groups[1].Err)
	})
	t.Run("offsets fetch error", func(t *testing.T) {
		f := app(topology.Available)
		f.fetchErr = map[string]error{"app": admin.NewKafkaError(kafka.CodeGroupAuthorizationFailed, nil)}
		res, err := Run(context.Background(), f, Options{Groups: []string{"app"}})
		require.NoError(t, err)
		assert.ErrorIs(t, res.Groups[0].Err, kafka.ErrNotAuthorized)
	})
	t.Run("list offsets error", func(t *testing.T) {
		f := app(topology.Available)
		f.listErr = &kafka.UnavailableError{Op: "ListOffsets", Err: context.DeadlineExceeded}
		res, err := Run(context.Background(), f, Options{Groups: []string{"app"}})
		require.NoError(t, err)
		assert.ErrorIs(t, res.Groups[0].Err, kafka.ErrUnavailable)
	})
	t.Run("a task of an unknown subtopology", func(t *testing.T) {
		f := app(topology.Available)
		f.groups["app"].Members[0].Assignment.Standby = tasks("9", 0)
		res, err := Run(context.Background(), f, Options{Groups: []string{"app"}})
		require.NoError(t, err)
		assert.EqualError(t, res.Groups[0].Err, "malformed response from the broker: Subtopology 9 not found in group description!")
	})
	t.Run("a partition the topic lacks is left out", func(t *testing.T) {
		f := app(topology.Available)
		delete(f.start, tp("in", 1))
		delete(f.end, tp("in", 1))
		res, err := Run(context.Background(), f, Options{Groups: []string{"app"}})
		require.NoError(t, err)
		require.NoError(t, res.Groups[0].Err)
		t01 := res.Groups[0].Subtopologies[0].Tasks[1]
		assert.Empty(t, t01.Offsets)
		assert.Zero(t, t01.Lag)
	})
}

// An Empty group has no members and so no assigned tasks: its committed
// partitions stand for the tasks.
func TestRun_emptyGroup(t *testing.T) {
	f := app(topology.NotStored)
	f.groups["app"].State, f.groups["app"].Members = "Empty", nil
	res, err := Run(context.Background(), f, Options{Groups: []string{"app"}})
	require.NoError(t, err)
	g := res.Groups[0]
	require.NoError(t, g.Err)
	require.Len(t, g.Subtopologies[0].Tasks, 1)
	assert.Equal(t, "0_0", g.Subtopologies[0].Tasks[0].String())
	assert.Empty(t, g.Subtopologies[0].Tasks[0].Active)
	assert.Equal(t, int64(10), g.Lag)
	assert.Equal(t, "1_0", g.Subtopologies[1].Tasks[0].String())
}

func TestRun_allGroupsAndNothing(t *testing.T) {
	f := app(topology.Available)
	res, err := Run(context.Background(), f, Options{AllGroups: true})
	require.NoError(t, err)
	require.Len(t, res.Groups, 1)
	assert.Equal(t, "app", res.Groups[0].Group)
	assert.Equal(t, 1, f.calls["list"])
}

func TestOptions_Validate(t *testing.T) {
	assert.EqualError(t, Options{}.Validate(), "overview needs --group (repeatable) or --all-groups")
	assert.EqualError(t, Options{Groups: []string{"g"}, StoreGiven: true, Store: " "}.Validate(), "--store needs the name of a state store")
	assert.NoError(t, Options{AllGroups: true, StoreGiven: true, Store: "s"}.Validate())
}

// Lag never lies: a committed offset past the log end is no negative lag
// that hides another task's, sums stop at MaxInt64 instead of wrapping, and
// a source topic that does not exist is named, not counted as 0.
func TestRun_lagAtTheEdges(t *testing.T) {
	group := func(topics ...string) *kafka.StreamsGroup {
		return &kafka.StreamsGroup{State: "Stable", Subtopologies: []kafka.Subtopology{{ID: "0", SourceTopics: topics}},
			Members: []kafka.Member{{MemberID: "m", Assignment: kafka.Assignment{Active: tasks("0", 0, 1)}, TargetAssignment: kafka.Assignment{Active: tasks("0", 0, 1)}}}}
	}
	run := func(t *testing.T, f *fake) *Group {
		t.Helper()
		res, err := Run(context.Background(), f, Options{Groups: []string{"app"}})
		require.NoError(t, err)
		require.NoError(t, res.Groups[0].Err)
		return res.Groups[0]
	}
	t.Run("committed past the log end", func(t *testing.T) {
		// in-0 was truncated: committed 10010, log end 10. in-1 is 10,000
		// behind. Before, the -10,000 cancelled it out: lag 0.
		f := &fake{groups: map[string]*kafka.StreamsGroup{"app": group("in")},
			committed: map[string][]admin.CommittedOffset{"app": {{TopicPartition: tp("in", 0), Offset: 10_010}, {TopicPartition: tp("in", 1), Offset: 0}}},
			start:     map[kafka.TopicPartition]int64{tp("in", 0): 0, tp("in", 1): 0},
			end:       map[kafka.TopicPartition]int64{tp("in", 0): 10, tp("in", 1): 10_000}}
		g := run(t, f)
		st := g.Subtopologies[0]
		assert.Equal(t, int64(10_000), g.Lag)
		assert.Equal(t, int64(10_000), st.Lag)
		assert.Equal(t, int64(10_000), st.Sources[0].Lag)
		assert.Equal(t, int64(0), st.Tasks[0].Lag)
		assert.Equal(t, "0_1", g.Largest.String())
		ahead := g.AheadPartitions()
		require.Len(t, ahead, 1)
		assert.Equal(t, tp("in", 0), ahead[0].TopicPartition)
		assert.Equal(t, int64(0), ahead[0].Lag)
		assert.Equal(t, int64(10_000), ahead[0].Ahead)
		assert.Equal(t, int64(10), ahead[0].LogEnd)
		assert.Equal(t, int64(10_010), *ahead[0].Committed)
		assert.Empty(t, g.MissingTopics())
	})
	t.Run("sums saturate", func(t *testing.T) {
		// Two partitions 2^63-1 behind: before, the group lag was -2.
		f := &fake{groups: map[string]*kafka.StreamsGroup{"app": group("a", "b")},
			committed: map[string][]admin.CommittedOffset{"app": {{TopicPartition: tp("a", 0), Offset: 0}, {TopicPartition: tp("b", 1), Offset: 0}}},
			start:     map[kafka.TopicPartition]int64{tp("a", 0): 0, tp("a", 1): 0, tp("b", 0): 0, tp("b", 1): 0},
			end:       map[kafka.TopicPartition]int64{tp("a", 0): math.MaxInt64, tp("a", 1): 0, tp("b", 0): 0, tp("b", 1): math.MaxInt64}}
		g := run(t, f)
		st := g.Subtopologies[0]
		assert.Equal(t, int64(math.MaxInt64), g.Lag)
		assert.Equal(t, int64(math.MaxInt64), st.Lag)
		assert.Equal(t, int64(math.MaxInt64), st.Tasks[0].Lag)
		assert.Equal(t, int64(math.MaxInt64), st.Tasks[1].Lag)

		// Two partitions of one task.
		f.end[tp("a", 1)], f.committed["app"] = math.MaxInt64, nil
		g = run(t, f)
		assert.Equal(t, int64(math.MaxInt64), g.Subtopologies[0].Tasks[1].Lag)
		assert.Equal(t, int64(math.MaxInt64), g.Subtopologies[0].Sources[1].Lag)
		assert.Equal(t, int64(math.MaxInt64), g.Lag)
	})
	t.Run("a source topic that does not exist", func(t *testing.T) {
		f := &fake{groups: map[string]*kafka.StreamsGroup{"app": group("gone", "in")},
			start: map[kafka.TopicPartition]int64{tp("in", 0): 0, tp("in", 1): 0},
			end:   map[kafka.TopicPartition]int64{tp("in", 0): 5, tp("in", 1): 5}}
		g := run(t, f)
		assert.Equal(t, []string{"gone"}, g.MissingTopics())
		assert.Equal(t, []Source{{Topic: "gone", Missing: true}, {Topic: "in", Lag: 10}}, g.Subtopologies[0].Sources)
		assert.Equal(t, int64(10), g.Lag)

		// An Empty group with nothing committed has no task; the topic is
		// still asked about.
		f.groups["app"].State, f.groups["app"].Members = "Empty", nil
		g = run(t, f)
		assert.Equal(t, []string{"gone"}, g.MissingTopics())
		assert.Contains(t, f.listed[len(f.listed)-1], tp("gone", 0))
	})
}

func TestAddLag(t *testing.T) {
	for _, tc := range []struct{ sum, lag, want int64 }{
		{0, 0, 0},
		{5, 7, 12},
		{5, -7, 5},
		{5, math.MinInt64, 5},
		{math.MaxInt64, 1, math.MaxInt64},
		{math.MaxInt64 - 1, 1, math.MaxInt64},
		{math.MaxInt64, math.MaxInt64, math.MaxInt64},
		{1, math.MaxInt64, math.MaxInt64},
	} {
		assert.Equal(t, tc.want, AddLag(tc.sum, tc.lag), "AddLag(%d, %d)", tc.sum, tc.lag)
	}
}

func TestLagFrom(t *testing.T) {
	for _, tc := range []struct{ end, from, lag, ahead int64 }{
		{100, 90, 10, 0},
		{100, 100, 0, 0},
		{10, 10_010, 0, 10_000},
		{math.MaxInt64, 0, math.MaxInt64, 0},
		{math.MaxInt64, -1, math.MaxInt64, 0},
		{-1, math.MaxInt64, 0, math.MaxInt64},
		{-5, -10, 5, 0},
	} {
		lag, ahead := lagFrom(tc.end, tc.from)
		assert.Equal(t, [2]int64{tc.lag, tc.ahead}, [2]int64{lag, ahead}, "lagFrom(%d, %d)", tc.end, tc.from)
	}
}
