package upgrade_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	"github.com/kstreams-groups/kstreams-groups/internal/topoparse"
	"github.com/kstreams-groups/kstreams-groups/internal/upgrade"
)

// The application of the measurements (the upgrade-migration notes):
// up-app reads up-in (3 partitions), groups by key through
// up-app-by-key-repartition and counts into the store counts. v2 renames
// the store, v3 adds a peek (accepted), v4 renames the repartition topic,
// v5 reads up-in-b too.

const app = "up-app"

func read(t *testing.T, name string) *topology.Description {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	d, err := topoparse.ParseString(string(data))
	require.NoError(t, err)
	return d
}

// stored is v1 as the broker stores it: internal topics prefixed.
func stored(t *testing.T) *topology.Description {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "v1.txt"))
	require.NoError(t, err)
	s := strings.NewReplacer("(topic: by-key-repartition)", "(topic: up-app-by-key-repartition)",
		"(topics: [by-key-repartition])", "(topics: [up-app-by-key-repartition])").Replace(string(data))
	d, err := topoparse.ParseString(s)
	require.NoError(t, err)
	return d
}

func tp(topic string, p int32) kafka.TopicPartition {
	return kafka.TopicPartition{Topic: topic, Partition: p}
}

// fake is a cluster holding up-app after v1 processed 12 records: up-in
// committed 4/4/4 at its end, the repartition topic 3/3/6 at its end, the
// changelog 3 records a partition.
type fake struct {
	group      *kafka.StreamsGroup
	describeEr error
	offsets    []admin.CommittedOffset
	offsetsErr error
	partitions map[string]int32
	starts     map[kafka.TopicPartition]int64
	ends       map[kafka.TopicPartition]int64
	listErr    error
	// asked are the topics DescribeTopics was asked for.
	asked []string
}

func newFake(t *testing.T) *fake {
	g := &kafka.StreamsGroup{State: "Empty", TopologyStatus: topology.Available, Topology: stored(t), Subtopologies: []kafka.Subtopology{
		{ID: "0", SourceTopics: []string{"up-in"}, RepartitionSinkTopics: []string{"up-app-by-key-repartition"}},
		{ID: "1", RepartitionSourceTopics: []string{"up-app-by-key-repartition"}, StateChangelogTopics: []string{"up-app-counts-changelog"}},
	}}
	f := &fake{group: g, partitions: map[string]int32{"up-in": 3, "up-app-by-key-repartition": 3, "up-app-counts-changelog": 3},
		starts: map[kafka.TopicPartition]int64{}, ends: map[kafka.TopicPartition]int64{}}
	for p, o := range []int64{4, 4, 4} {
		f.offsets = append(f.offsets, admin.CommittedOffset{TopicPartition: tp("up-in", int32(p)), Offset: o})
		f.ends[tp("up-in", int32(p))] = o
	}
	for p, o := range []int64{3, 3, 6} {
		f.offsets = append(f.offsets, admin.CommittedOffset{TopicPartition: tp("up-app-by-key-repartition", int32(p)), Offset: o})
		f.ends[tp("up-app-by-key-repartition", int32(p))] = o
	}
	for p, o := range []int64{3, 3, 3} {
		f.ends[tp("up-app-counts-changelog", int32(p))] = o
	}
	return f
}

func (f *fake) DescribeStreamsGroups(_ context.Context, groups []string, includeTopology bool) []admin.DescribedGroup {
	out := make([]admin.DescribedGroup, len(groups))
	for i, g := range groups {
		out[i] = admin.DescribedGroup{Group: g, Streams: f.group, Err: f.describeEr}
		if g != app || f.group == nil {
			out[i] = admin.DescribedGroup{Group: g, Err: admin.NewKafkaError(kafka.CodeGroupIDNotFound, nil)}
		}
	}
	return out
}

func (f *fake) FetchCommittedOffsets(_ context.Context, groups []string) []admin.GroupOffsets {
	return []admin.GroupOffsets{{Group: groups[0], Offsets: f.offsets, Err: f.offsetsErr}}
}

func (f *fake) DescribeTopics(_ context.Context, topics []string) ([]admin.TopicInfo, error) {
	f.asked = append(f.asked, topics...)
	var out []admin.TopicInfo
	for _, t := range topics {
		info := admin.TopicInfo{Topic: t}
		n, ok := f.partitions[t]
		if !ok {
			info.Err = admin.NewKafkaError(kafka.CodeUnknownTopicOrPartition, nil)
		}
		for p := range n {
			info.Partitions = append(info.Partitions, admin.PartitionInfo{Partition: p})
		}
		out = append(out, info)
	}
	return out, nil
}

func (f *fake) ListOffsets(_ context.Context, tps []kafka.TopicPartition, ts int64) ([]admin.ListedOffset, error) {
	if f.listErr != nil {
		return nil, f.listErr
	}
	var out []admin.ListedOffset
	for _, x := range tps {
		o := f.starts[x]
		if ts == admin.LatestTimestamp {
			o = f.ends[x]
		}
		out = append(out, admin.ListedOffset{TopicPartition: x, Offset: o})
	}
	return out, nil
}

func plan(t *testing.T, f *fake, newFile string) *upgrade.Result {
	t.Helper()
	opts := upgrade.Options{Group: app, New: newFile}
	require.NoError(t, opts.Validate())
	src := upgrade.Sources{Client: f, Read: func(file string) (*topology.Description, error) {
		if file == "missing.txt" {
			return nil, errors.New("no such file")
		}
		return read(t, file), nil
	}}
	res, err := upgrade.Run(context.Background(), src, opts)
	require.NoError(t, err)
	return res
}

func carried(topic string, p int32, o int64, kind upgrade.OffsetKind, inNew bool) upgrade.Offset {
	return upgrade.Offset{Group: app, TopicPartition: tp(topic, p), Offset: o, Kind: kind, InNew: inNew}
}

func TestPlan_acceptedAsIs(t *testing.T) {
	f := newFake(t)
	p := plan(t, f, "v3.txt").Plan
	require.NotNil(t, p)
	assert.Equal(t, upgrade.AcceptedAsIs, p.Verdict)
	assert.Empty(t, p.Refused)
	assert.Empty(t, p.Blockers)
	assert.Empty(t, p.Repartitions)
	assert.Empty(t, f.asked, "nothing to look up when nothing is migrated")
	assert.Equal(t, []upgrade.Store{{Name: "counts", NewName: "counts", Fate: upgrade.StoreKept, Subtopology: "1",
		Changelog: "up-app-counts-changelog", NewChangelog: "up-app-counts-changelog", ChangelogRecords: -1}}, p.Stores)
}

func TestPlan_storeRenamed(t *testing.T) {
	f := newFake(t)
	res := plan(t, f, "v2.txt")
	require.NoError(t, res.Err)
	p := res.Plan
	assert.Equal(t, upgrade.MigrationNeeded, p.Verdict)
	assert.Equal(t, upgrade.MigrationNeeded, res.Outcome())
	assert.Equal(t, []upgrade.Refusal{{Subtopology: "1", Subject: "changelog topics", Old: "counts-changelog", New: "counts-v2-changelog"}}, p.Refused)
	assert.Equal(t, []upgrade.Offset{
		carried("up-app-by-key-repartition", 0, 3, upgrade.RepartitionOffset, true),
		carried("up-app-by-key-repartition", 1, 3, upgrade.RepartitionOffset, true),
		carried("up-app-by-key-repartition", 2, 6, upgrade.RepartitionOffset, true),
		carried("up-in", 0, 4, upgrade.InputOffset, true),
		carried("up-in", 1, 4, upgrade.InputOffset, true),
		carried("up-in", 2, 4, upgrade.InputOffset, true),
	}, p.Offsets)
	assert.Equal(t, []upgrade.Store{
		{Name: "counts", NewName: "counts-v2", Fate: upgrade.StoreRenamed, Subtopology: "1",
			Changelog: "up-app-counts-changelog", NewChangelog: "up-app-counts-v2-changelog", ChangelogRecords: 9},
	}, p.Stores)
	assert.True(t, p.Stores[0].StartsEmpty())
	assert.Empty(t, p.Repartitions)
	assert.Empty(t, p.Blockers)
	assert.Equal(t, upgrade.LeftBehind{Topics: []string{"up-app-counts-changelog"}}, p.LeftBehind)
	assert.Equal(t, []string{"up-app-counts-changelog"}, f.asked)
	for _, c := range p.Preconditions {
		assert.True(t, c.Holds, "%s: %s", c.Kind, c.Detail)
	}
}

func TestPlan_repartitionRenamed(t *testing.T) {
	for _, tc := range []struct {
		name     string
		end2     int64
		verdict  upgrade.Verdict
		inFlight int64
	}{
		{"drained", 6, upgrade.MigrationNeeded, 0},
		{"undrained", 10, upgrade.Blocked, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			f.ends[tp("up-app-by-key-repartition", 2)] = tc.end2
			p := plan(t, f, "v4.txt").Plan
			assert.Equal(t, tc.verdict, p.Verdict)
			require.Len(t, p.Repartitions, 1)
			r := p.Repartitions[0]
			assert.Equal(t, upgrade.Repartition{Topic: "up-app-by-key-repartition", NewTopic: "up-app-by-key-v2-repartition", Fate: upgrade.RepartitionRenamed,
				Known: true, Partitions: []upgrade.InFlight{
					{Partition: 0, Committed: 3, Start: 0, End: 3},
					{Partition: 1, Committed: 3, Start: 0, End: 3},
					{Partition: 2, Committed: 6, Start: 0, End: tc.end2},
				}}, r)
			assert.Equal(t, tc.inFlight, r.InFlight())
			assert.Equal(t, tc.inFlight == 0, r.Drained())
			assert.Equal(t, upgrade.StoreKept, p.Stores[0].Fate, "the store and its changelog are kept")
			assert.Equal(t, upgrade.LeftBehind{Topics: []string{"up-app-by-key-repartition"}, Offsets: []kafka.TopicPartition{
				tp("up-app-by-key-repartition", 0), tp("up-app-by-key-repartition", 1), tp("up-app-by-key-repartition", 2)}}, p.LeftBehind)
			if tc.verdict == upgrade.Blocked {
				require.Len(t, p.Blockers, 1)
				assert.Equal(t, upgrade.BlockerUndrained, p.Blockers[0].Kind)
				assert.Equal(t, "up-app-by-key-repartition", p.Blockers[0].Subject)
				assert.Contains(t, p.Blockers[0].Detail, "4 records in flight")
			}
		})
	}
}

func TestPlan_repartitionEndUnknown(t *testing.T) {
	f := newFake(t)
	f.listErr = errors.New("unavailable")
	p := plan(t, f, "v4.txt").Plan
	assert.Equal(t, upgrade.Blocked, p.Verdict)
	require.Len(t, p.Blockers, 1)
	assert.Equal(t, upgrade.BlockerUnknownEnd, p.Blockers[0].Kind)
	assert.False(t, p.Repartitions[0].Drained())
}

func TestPlan_groupNotEmpty(t *testing.T) {
	f := newFake(t)
	f.group.State = "Stable"
	f.group.Members = []kafka.Member{{MemberID: "m1"}}
	p := plan(t, f, "v2.txt").Plan
	assert.Equal(t, upgrade.Blocked, p.Verdict)
	var kinds []upgrade.BlockerKind
	for _, b := range p.Blockers {
		kinds = append(kinds, b.Kind)
	}
	assert.Equal(t, []upgrade.BlockerKind{upgrade.BlockerNotEmpty, upgrade.BlockerMembers}, kinds)
	assert.Equal(t, []upgrade.Precondition{
		{Kind: upgrade.GroupEmpty, Holds: false, Detail: "state Stable"},
		{Kind: upgrade.NoMembers, Holds: false, Detail: "1 member"},
		{Kind: upgrade.NewReadable, Holds: true, Detail: "2 sub-topologies"},
	}, p.Preconditions)
}

func TestPlan_sourceAdded(t *testing.T) {
	f := newFake(t)
	p := plan(t, f, "v5.txt").Plan
	assert.Equal(t, upgrade.MigrationNeeded, p.Verdict)
	assert.Equal(t, []upgrade.NewSource{{Topic: "up-in-b", Subtopology: "0"}}, p.NewSources)
	assert.Equal(t, upgrade.StoreKept, p.Stores[0].Fate)
	assert.Empty(t, p.LeftBehind.Topics)
	assert.Empty(t, p.LeftBehind.Offsets)
}

func TestPlan_failures(t *testing.T) {
	t.Run("NEW unreadable", func(t *testing.T) {
		res := plan(t, newFake(t), "missing.txt")
		var ne *upgrade.NewError
		require.ErrorAs(t, res.Err, &ne)
		assert.Nil(t, res.Plan)
		assert.Len(t, res.Failures(), 1)
	})
	t.Run("no such group", func(t *testing.T) {
		f := newFake(t)
		f.group = nil
		res := plan(t, f, "v2.txt")
		code := kafka.Classify(res.Err).Code
		require.NotNil(t, code)
		assert.Equal(t, kafka.CodeGroupIDNotFound, *code)
	})
	t.Run("description not stored, no topology", func(t *testing.T) {
		f := newFake(t)
		f.group.TopologyStatus, f.group.Topology, f.group.Subtopologies = topology.NotStored, nil, nil
		var se *kafka.StatusError
		require.ErrorAs(t, plan(t, f, "v2.txt").Err, &se)
	})
	t.Run("offsets unreadable", func(t *testing.T) {
		f := newFake(t)
		f.offsetsErr = admin.NewKafkaError(kafka.CodeCoordinatorNotAvailable, nil)
		res := plan(t, f, "v2.txt")
		assert.Error(t, res.Err)
		assert.Nil(t, res.Plan)
	})
}

func TestOptions_Validate(t *testing.T) {
	assert.ErrorContains(t, upgrade.Options{New: "x"}.Validate(), "--group")
	assert.ErrorContains(t, upgrade.Options{Group: "g"}.Validate(), "NEW")
	assert.NoError(t, upgrade.Options{Group: "g", New: "-"}.Validate())
}

// A group whose description is not stored (no plugin on the broker) is
// planned from the topology the broker keeps: the verdict and the plan
// are the same.
func TestPlan_descriptionNotStored(t *testing.T) {
	for _, tc := range []struct {
		new     string
		verdict upgrade.Verdict
		check   func(t *testing.T, p *upgrade.Plan)
	}{
		{"v3.txt", upgrade.AcceptedAsIs, func(t *testing.T, p *upgrade.Plan) {
			assert.Equal(t, upgrade.StoreKept, p.Stores[0].Fate)
		}},
		{"v2.txt", upgrade.MigrationNeeded, func(t *testing.T, p *upgrade.Plan) {
			// diff pairs the store's keeper with NEW's by its topics.
			assert.Equal(t, []upgrade.Store{{Name: "counts", NewName: "counts-v2", Fate: upgrade.StoreRenamed, Subtopology: "1",
				Changelog: "up-app-counts-changelog", NewChangelog: "up-app-counts-v2-changelog", ChangelogRecords: 9}}, p.Stores)
		}},
		{"v4.txt", upgrade.MigrationNeeded, func(t *testing.T, p *upgrade.Plan) {
			require.Len(t, p.Repartitions, 1)
			assert.Equal(t, "up-app-by-key-repartition", p.Repartitions[0].Topic)
			assert.True(t, p.Repartitions[0].Drained())
			assert.Equal(t, upgrade.StoreKept, p.Stores[0].Fate)
		}},
		{"v5.txt", upgrade.MigrationNeeded, func(t *testing.T, p *upgrade.Plan) {
			assert.Equal(t, []upgrade.NewSource{{Topic: "up-in-b", Subtopology: "0"}}, p.NewSources)
		}},
	} {
		t.Run(tc.new, func(t *testing.T) {
			f := newFake(t)
			f.group.TopologyStatus, f.group.Topology = topology.NotStored, nil
			res := plan(t, f, tc.new)
			require.NoError(t, res.Err)
			assert.Equal(t, tc.verdict, res.Plan.Verdict)
			assert.Equal(t, topology.NotStored, res.Plan.DescriptionStatus)
			tc.check(t, res.Plan)
		})
	}
}
