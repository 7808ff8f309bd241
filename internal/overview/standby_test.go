package overview

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// member is a member on process proc at host with the given tasks of
// sub-topology "1" (stateful) by kind.
type tm struct {
	id, proc, host, endpoint string
	tags                     []kafka.ClientTag
	active, standby, warmup  []int32
	targetStandby            []int32
	offsets, ends            []kafka.TaskOffset
}

func coverageGroup(t *testing.T, standbys string, members ...tm) *Group {
	return coverageGroupTags(t, standbys, nil, members...)
}

func coverageGroupTags(t *testing.T, standbys string, rackTags []string, members ...tm) *Group {
	t.Helper()
	var ms []kafka.Member
	for _, m := range members {
		km := kafka.Member{MemberID: m.id, ProcessID: m.proc, ClientHost: "/" + m.host, ClientTags: m.tags, TaskOffsets: m.offsets, TaskEndOffsets: m.ends}
		if m.endpoint != "" {
			km.UserEndpoint = &kafka.Endpoint{Host: m.endpoint, Port: 8080}
		}
		tasks := func(ps []int32) []kafka.Tasks {
			if ps == nil {
				return nil
			}
			return []kafka.Tasks{{SubtopologyID: "1", Partitions: ps}}
		}
		km.Assignment = kafka.Assignment{Active: tasks(m.active), Standby: tasks(m.standby), Warmup: tasks(m.warmup)}
		ts := m.targetStandby
		if ts == nil {
			ts = m.standby
		}
		km.TargetAssignment = kafka.Assignment{Active: tasks(m.active), Standby: tasks(ts)}
		ms = append(ms, km)
	}
	g := build(admin.DescribedGroup{Group: "app", Streams: &kafka.StreamsGroup{State: "Stable", Members: ms, Subtopologies: []kafka.Subtopology{
		{ID: "0", SourceTopics: []string{"in"}},
		{ID: "1", RepartitionSourceTopics: []string{"app-r-repartition"}, StateChangelogTopics: []string{"app-counts-changelog"}},
	}}})
	require.NoError(t, g.Err)
	var s *Settings
	if standbys != "" {
		s = &Settings{Values: map[string]Setting{ConfigStandbys: {Value: standbys, Source: "group"}, ConfigAcceptableRecoveryLag: {Value: "100", Source: "default"}}, RackTags: rackTags}
	}
	g.Settings = s
	g.Coverage = computeCoverage(g, s)
	return g
}

func TestCoverage(t *testing.T) {
	t.Run("full: one standby per task on another host", func(t *testing.T) {
		g := coverageGroup(t, "1",
			tm{id: "a", proc: "p1", host: "10.0.0.1", active: []int32{0}, standby: []int32{1}},
			tm{id: "b", proc: "p2", host: "10.0.0.2", active: []int32{1}, standby: []int32{0}})
		c := g.Coverage
		assert.True(t, c.ConfiguredKnown)
		assert.EqualValues(t, 1, c.Configured)
		require.Len(t, c.Tasks, 2, "only the stateful sub-topology's tasks")
		for _, tc := range c.Tasks {
			assert.Equal(t, 1, tc.Counted, tc.Task.String())
			assert.Empty(t, tc.Reason)
		}
		assert.Empty(t, c.Short())
		assert.Equal(t, 0, c.WithoutStandby())
		assert.Equal(t, 0, c.Colocated())
		n, ok := c.MinCounted()
		assert.True(t, ok)
		assert.Equal(t, 1, n)
	})
	t.Run("missing: too few processes", func(t *testing.T) {
		g := coverageGroup(t, "1", tm{id: "a", proc: "p1", host: "h1", active: []int32{0, 1}})
		c := g.Coverage
		require.Len(t, c.Short(), 2)
		assert.Equal(t, ReasonProcesses, c.Tasks[0].Reason)
		assert.Equal(t, "only 1 process for 2 copies: the active and 1 standby", c.ReasonText(c.Tasks[0].Reason))
		assert.Equal(t, 2, c.WithoutStandby())
	})
	t.Run("missing: two threads of one process count once", func(t *testing.T) {
		g := coverageGroup(t, "1",
			tm{id: "a", proc: "p1", host: "h1", active: []int32{0}},
			tm{id: "b", proc: "p1", host: "h1", active: []int32{1}})
		assert.Equal(t, ReasonProcesses, g.Coverage.Tasks[0].Reason)
		assert.Equal(t, 1, g.Coverage.Processes)
	})
	t.Run("co-located by process", func(t *testing.T) {
		g := coverageGroup(t, "1",
			tm{id: "a", proc: "p1", host: "h1", active: []int32{0}},
			tm{id: "b", proc: "p1", host: "h1", standby: []int32{0}},
			tm{id: "c", proc: "p2", host: "h2", active: []int32{1}, standby: []int32{}})
		tc := g.Coverage.Tasks[0]
		require.Equal(t, "1_0", tc.Task.String())
		assert.Equal(t, []StandbyCopy{{Member: 1, Colocated: SameProcess}}, tc.Standbys)
		assert.Equal(t, 0, tc.Counted)
		assert.Equal(t, 1, g.Coverage.Colocated())
		assert.Equal(t, ReasonAssignor, tc.Reason, "two processes on two hosts could hold both copies")
	})
	t.Run("co-located by host: client host", func(t *testing.T) {
		g := coverageGroup(t, "1",
			tm{id: "a", proc: "p1", host: "h1", active: []int32{0}, standby: []int32{1}},
			tm{id: "b", proc: "p2", host: "h1", active: []int32{1}, standby: []int32{0}})
		for _, tc := range g.Coverage.Tasks {
			assert.Equal(t, SameHost, tc.Standbys[0].Colocated)
			assert.Equal(t, ReasonHosts, tc.Reason)
		}
		assert.Equal(t, "only 1 host for 2 copies: standbys on the active's host do not count", g.Coverage.ReasonText(ReasonHosts))
	})
	t.Run("application.server host decides over the client host", func(t *testing.T) {
		g := coverageGroup(t, "1",
			tm{id: "a", proc: "p1", host: "127.0.0.1", endpoint: "app-a", active: []int32{0}, standby: []int32{1}},
			tm{id: "b", proc: "p2", host: "127.0.0.1", endpoint: "app-b", active: []int32{1}, standby: []int32{0}})
		assert.Empty(t, g.Coverage.Short())
		g = coverageGroup(t, "1",
			tm{id: "a", proc: "p1", host: "10.0.0.1", endpoint: "Node1", active: []int32{0}},
			tm{id: "b", proc: "p2", host: "10.0.0.2", endpoint: "node1", standby: []int32{0}})
		assert.Equal(t, SameHost, g.Coverage.Tasks[0].Standbys[0].Colocated, "host names compare without case")
	})
	t.Run("warm-ups in progress", func(t *testing.T) {
		g := coverageGroup(t, "1",
			tm{id: "a", proc: "p1", host: "h1", active: []int32{0}, targetStandby: []int32{}},
			tm{id: "b", proc: "p2", host: "h2", warmup: []int32{0}, targetStandby: []int32{0}})
		tc := g.Coverage.Tasks[0]
		assert.Equal(t, ReasonWarmups, tc.Reason)
		assert.Equal(t, "warm-ups still running: the standby is being placed", g.Coverage.ReasonText(tc.Reason))
	})
	t.Run("racks: client tags on fewer racks than copies", func(t *testing.T) {
		zone := []kafka.ClientTag{{Key: "zone", Value: "a"}, {Key: "host", Value: "x"}}
		zone2 := []kafka.ClientTag{{Key: "zone", Value: "a"}, {Key: "host", Value: "y"}}
		g := coverageGroupTags(t, "1", []string{"zone"},
			tm{id: "a", proc: "p1", host: "h1", tags: zone, active: []int32{0}},
			tm{id: "b", proc: "p2", host: "h2", tags: zone2})
		assert.Equal(t, ReasonRacks, g.Coverage.Tasks[0].Reason)
		assert.Equal(t, 1, g.Coverage.Racks)
		g = coverageGroup(t, "1",
			tm{id: "a", proc: "p1", host: "h1", tags: zone, active: []int32{0}},
			tm{id: "b", proc: "p2", host: "h2", tags: zone2})
		assert.Equal(t, ReasonAssignor, g.Coverage.Tasks[0].Reason, "tags the broker does not use for rack awareness are no racks")
		assert.Equal(t, 0, g.Coverage.Racks)
	})
	t.Run("two standbys on one host count once", func(t *testing.T) {
		g := coverageGroup(t, "2",
			tm{id: "a", proc: "p1", host: "h1", active: []int32{0}},
			tm{id: "b", proc: "p2", host: "h2", standby: []int32{0}},
			tm{id: "c", proc: "p3", host: "h2", standby: []int32{0}},
			tm{id: "d", proc: "p4", host: "h3"})
		tc := g.Coverage.Tasks[0]
		assert.Equal(t, []StandbyCopy{{Member: 1}, {Member: 2, Colocated: SameStandbyHost}}, tc.Standbys)
		assert.Equal(t, 1, tc.Counted)
		assert.Equal(t, ReasonAssignor, tc.Reason)
	})
	t.Run("configured count unknown: no reason, no short task", func(t *testing.T) {
		g := coverageGroup(t, "", tm{id: "a", proc: "p1", host: "h1", active: []int32{0}})
		assert.False(t, g.Coverage.ConfiguredKnown)
		assert.Empty(t, g.Coverage.Short())
		assert.Empty(t, g.Coverage.Tasks[0].Reason)
		assert.Equal(t, 1, g.Coverage.WithoutStandby())
	})
	t.Run("no standbys configured", func(t *testing.T) {
		g := coverageGroup(t, "0", tm{id: "a", proc: "p1", host: "h1", active: []int32{0}})
		assert.Empty(t, g.Coverage.Short())
	})
}

func TestRestorationProgress(t *testing.T) {
	t.Run("not reported", func(t *testing.T) {
		g := coverageGroup(t, "1",
			tm{id: "a", proc: "p1", host: "h1", active: []int32{0}},
			tm{id: "b", proc: "p2", host: "h2", standby: []int32{0}})
		c := g.Coverage
		assert.False(t, c.ProgressReported)
		for _, cp := range c.Tasks[0].Copies {
			assert.False(t, cp.Reported)
			assert.Zero(t, cp.Lag)
		}
	})
	t.Run("reported: restoring active, standby behind, warm-up catching up", func(t *testing.T) {
		to := func(p int32, off int64) kafka.TaskOffset {
			return kafka.TaskOffset{SubtopologyID: "1", Partition: p, Offset: off}
		}
		g := coverageGroup(t, "1",
			tm{id: "a", proc: "p1", host: "h1", active: []int32{0, 1}, offsets: []kafka.TaskOffset{to(0, 900), to(1, latestOffset)}, ends: []kafka.TaskOffset{to(0, 1000), to(1, 500)}},
			tm{id: "b", proc: "p2", host: "h2", standby: []int32{0}, warmup: []int32{1}, offsets: []kafka.TaskOffset{to(0, 960), to(1, 100)}},
			tm{id: "c", proc: "p3", host: "h3", standby: []int32{1}})
		c := g.Coverage
		assert.True(t, c.ProgressReported)
		require.Len(t, c.Tasks, 2)
		assert.Equal(t, []CopyProgress{
			{Member: 0, Kind: CopyActive, Reported: true, Offset: 900, End: 1000, Lag: 100, Within: true, WithinKnown: true},
			{Member: 1, Kind: CopyStandby, Reported: true, Offset: 960, End: 1000, Lag: 40, Within: true, WithinKnown: true},
		}, c.Tasks[0].Copies)
		assert.Equal(t, []CopyProgress{
			{Member: 0, Kind: CopyActive, Reported: true, Offset: latestOffset, End: 500, Lag: 0, Within: true, WithinKnown: true},
			{Member: 2, Kind: CopyStandby},
			{Member: 1, Kind: CopyWarmup, Reported: true, Offset: 100, End: 500, Lag: 400, Within: false, WithinKnown: true},
		}, c.Tasks[1].Copies, "a copy whose member reported nothing is unknown, not 0")
	})
}

// A setting that is not a whole number is not a count: the configured
// number is unknown rather than misread.
func TestSettingsInt(t *testing.T) {
	s := &Settings{Values: map[string]Setting{"a": {Value: " 3 "}, "b": {Value: "1abc"}, "c": {Value: ""}}}
	n, ok := s.Int("a")
	assert.True(t, ok)
	assert.EqualValues(t, 3, n)
	for _, k := range []string{"b", "c", "missing"} {
		_, ok := s.Int(k)
		assert.False(t, ok, k)
	}
	var none *Settings
	_, ok = none.Int("a")
	assert.False(t, ok, "nil settings: not read")
}
