package inventory_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/inventory"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// now is the tests' clock: records are written relative to it.
var now = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func start(t *testing.T, nodes int) (*playground.Cluster, *admin.Client) {
	t.Helper()
	c, err := playground.Start(playground.Config{Nodes: nodes})
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	cl, err := admin.New(admin.Config{Bootstrap: c.Addrs()})
	require.NoError(t, err)
	t.Cleanup(cl.Close)
	return c, cl
}

// records gives partition p of topic n records, the newest at newest.
func records(c *playground.Cluster, topic string, p int32, n int64, newest time.Time) {
	c.SetLogOffsets(topic, p, 0, n)
	ts := make([]int64, n)
	for i := range ts {
		ts[i] = newest.Add(-time.Duration(n-1-int64(i)) * time.Second).UnixMilli()
	}
	c.SetRecordTimestamps(topic, p, ts)
}

// wordCount is a streams group "wc" reading "in" (2 partitions): a
// repartition topic and a compacted changelog, as Kafka Streams declares
// them.
func wordCount(id, state string) playground.StreamsGroup {
	return playground.StreamsGroup{ID: id, State: state, Topology: &playground.Topology{Epoch: 1, Subtopologies: []playground.Subtopology{
		{ID: "0", SourceTopics: []string{"in"}, RepartitionSinkTopics: []string{id + "-counts-repartition"}},
		{ID: "1", RepartitionSourceTopics: []playground.TopicInfo{{Name: id + "-counts-repartition", Configs: map[string]string{"cleanup.policy": "delete"}}},
			StateChangelogTopics: []playground.TopicInfo{{Name: id + "-counts-changelog", ReplicationFactor: 3, Configs: map[string]string{"cleanup.policy": "compact"}}}},
	}}}
}

func run(t *testing.T, cl *admin.Client, opts inventory.Options) *inventory.Result {
	t.Helper()
	opts.Now = func() time.Time { return now }
	require.NoError(t, opts.Validate())
	r, err := inventory.Run(context.Background(), cl, opts)
	require.NoError(t, err)
	return r
}

func findings(g *inventory.Group) []string {
	var out []string
	for _, f := range g.Findings {
		out = append(out, f.Message())
	}
	return out
}

func TestInventory_findings(t *testing.T) {
	healthy := func(c *playground.Cluster) {
		c.PutTopicSpec(playground.TopicSpec{Name: "in", Partitions: 2})
		c.PutTopicSpec(playground.TopicSpec{Name: "wc-counts-repartition", Partitions: 2, Configs: map[string]string{"cleanup.policy": "delete"}})
		c.PutTopicSpec(playground.TopicSpec{Name: "wc-counts-changelog", Partitions: 2, ReplicationFactor: 3, Configs: map[string]string{"cleanup.policy": "compact"}})
	}
	for _, tc := range []struct {
		name  string
		state string
		edit  func(c *playground.Cluster)
		want  []string
	}{
		{"healthy", "Stable", func(*playground.Cluster) {}, nil},
		{"missing", "NotReady", func(c *playground.Cluster) { c.RemoveTopic("wc-counts-changelog") },
			[]string{"wc-counts-changelog is missing"}},
		{"wrong partition count", "NotReady", func(c *playground.Cluster) {
			c.PutTopicSpec(playground.TopicSpec{Name: "wc-counts-repartition", Partitions: 3, Configs: map[string]string{"cleanup.policy": "delete"}})
		}, []string{"wc-counts-repartition has 3 partitions, expected 2"}},
		{"wrong replication factor", "Stable", func(c *playground.Cluster) {
			c.PutTopicSpec(playground.TopicSpec{Name: "wc-counts-changelog", Partitions: 2, ReplicationFactor: 1, Configs: map[string]string{"cleanup.policy": "compact"}})
		}, []string{"wc-counts-changelog has replication factor 1, the application asks for 3"}},
		{"wrong cleanup policy", "Stable", func(c *playground.Cluster) {
			c.PutTopicSpec(playground.TopicSpec{Name: "wc-counts-changelog", Partitions: 2, ReplicationFactor: 3})
		}, []string{"wc-counts-changelog has cleanup.policy=delete, the application asks for compact"}},
		{"missing source", "NotReady", func(c *playground.Cluster) { c.RemoveTopic("in") },
			[]string{"source topic in is missing"}},
		{"not ready, nothing wrong", "NotReady", func(*playground.Cluster) {}, []string{"the group is NOT_READY, but every declared topic matches the cluster: the members may not have declared the current topology yet"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, cl := start(t, 3)
			healthy(c)
			c.PutStreamsGroup(wordCount("wc", tc.state))
			tc.edit(c)
			r := run(t, cl, inventory.Options{})
			require.Len(t, r.Groups, 1)
			g := r.Groups[0]
			assert.True(t, g.Live)
			assert.Equal(t, tc.state, g.State)
			assert.Equal(t, tc.want, findings(g))
			assert.Empty(t, r.Orphans)
		})
	}
}

func TestInventory_sizesAndNewestRecord(t *testing.T) {
	c, cl := start(t, 3)
	c.PutTopicSpec(playground.TopicSpec{Name: "in", Partitions: 2})
	c.PutTopicSpec(playground.TopicSpec{Name: "wc-counts-repartition", Partitions: 2, Configs: map[string]string{"cleanup.policy": "delete"}})
	c.PutTopicSpec(playground.TopicSpec{Name: "wc-counts-changelog", Partitions: 2, ReplicationFactor: 3, Configs: map[string]string{"cleanup.policy": "compact"}, Bytes: []int64{1000, 24}})
	c.PutStreamsGroup(wordCount("wc", "Stable"))
	records(c, "wc-counts-changelog", 0, 5, now.Add(-time.Hour))
	records(c, "wc-counts-changelog", 1, 3, now.Add(-2*time.Hour))
	r := run(t, cl, inventory.Options{})
	require.Len(t, r.Groups, 1)
	var cl0, rep inventory.Topic
	for _, tp := range r.Groups[0].Topics {
		switch tp.Name {
		case "wc-counts-changelog":
			cl0 = tp
		case "wc-counts-repartition":
			rep = tp
		}
	}
	assert.Equal(t, int64(3*1024), cl0.Usage.Bytes, "summed over the 3 replicas")
	assert.Equal(t, int64(1024), cl0.Usage.CopyBytes)
	assert.Equal(t, int16(3), cl0.Usage.Copies)
	require.NotNil(t, cl0.Usage.Newest)
	assert.Equal(t, now.Add(-time.Hour), *cl0.Usage.Newest, "the newest of the partitions' newest records")
	assert.True(t, rep.Usage.Empty)
	assert.Equal(t, int64(3*1024), r.Groups[0].Bytes())
}

var logAppendTime = map[string]string{"message.timestamp.type": "LogAppendTime"}

// orphanCluster has a live group "wc", whose old store "wc-old-changelog"
// it no longer declares, and the topics of a deleted application "gone".
func orphanCluster(t *testing.T) (*playground.Cluster, *admin.Client) {
	c, cl := start(t, 1)
	c.PutTopicSpec(playground.TopicSpec{Name: "in", Partitions: 2})
	c.PutTopicSpec(playground.TopicSpec{Name: "wc-counts-repartition", Partitions: 2, Configs: map[string]string{"cleanup.policy": "delete"}})
	c.PutTopicSpec(playground.TopicSpec{Name: "wc-counts-changelog", Partitions: 2, ReplicationFactor: 1, Configs: map[string]string{"cleanup.policy": "compact"}})
	c.PutStreamsGroup(wordCount("wc", "Stable"))
	for _, n := range []string{"wc-old-changelog", "gone-store-changelog", "gone-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition", "gone-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000007-topic", "plain-topic"} {
		// LogAppendTime: the record times are when the broker wrote them,
		// so the age is known (a CreateTime topic's is not).
		c.PutTopicSpec(playground.TopicSpec{Name: n, Partitions: 1, Bytes: []int64{100}, Configs: logAppendTime})
		records(c, n, 0, 2, now.Add(-48*time.Hour))
	}
	return c, cl
}

func orphanNames(r *inventory.Result) map[string]string {
	out := map[string]string{}
	for _, o := range r.Orphans {
		out[o.Topic] = o.Application + ": " + o.Reason
	}
	return out
}

func TestInventory_orphans(t *testing.T) {
	c, cl := orphanCluster(t)
	r := run(t, cl, inventory.Options{})
	assert.Equal(t, map[string]string{
		"wc-old-changelog":     "wc: the live streams group wc does not declare it",
		"gone-store-changelog": "gone: no streams group gone exists",
		"gone-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition":      "gone: no streams group gone exists",
		"gone-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000007-topic": "gone: no streams group gone exists",
	}, pickKeys(orphanNames(r), "wc-old-changelog", "gone-store-changelog", "gone-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000007-topic"))
	assert.Contains(t, orphanNames(r), "gone-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition")
	assert.NotContains(t, orphanNames(r), "plain-topic", "not named as an internal topic")
	assert.Equal(t, int64(4*100), r.OrphanedBytes())
	_ = c

	only := run(t, cl, inventory.Options{Groups: []string{"gone"}, Orphans: true})
	assert.Empty(t, only.Groups, "--orphans shows no groups")
	for _, o := range only.Orphans {
		assert.Equal(t, "gone", o.Application, "--group limits the orphans to the application's names")
	}
	assert.Len(t, only.Orphans, 3)
}

func pickKeys(m map[string]string, keys ...string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = v
	}
	for k := range out {
		keep := false
		for _, want := range keys {
			keep = keep || k == want
		}
		if !keep && k != "gone-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition" {
			delete(out, k)
		}
	}
	return out
}

func TestInventory_neverAnOrphan(t *testing.T) {
	for _, tc := range []struct {
		name, topic string
		edit        func(c *playground.Cluster)
		reason      string
	}{
		{"committed offsets of a consumer group", "gone-store-changelog", func(c *playground.Cluster) {
			c.PutGroup("reader", "consumer", "consumer", "Empty")
			c.Commit("reader", playground.Committed{Topic: "gone-store-changelog", Partition: 0, Offset: 1, LeaderEpoch: -1})
		}, "group reader has committed offsets on it"},
		{"committed offsets of a classic group", "gone-store-changelog", func(c *playground.Cluster) {
			c.PutGroup("old-reader", "classic", "consumer", "Empty")
			c.Commit("old-reader", playground.Committed{Topic: "gone-store-changelog", Partition: 0, Offset: 1, LeaderEpoch: -1})
		}, "group old-reader has committed offsets on it"},
		{"committed offsets of a streams group", "gone-store-changelog", func(c *playground.Cluster) {
			c.Commit("wc", playground.Committed{Topic: "gone-store-changelog", Partition: 0, Offset: 1, LeaderEpoch: -1})
		}, "group wc has committed offsets on it"},
		{"read by a live application", "gone-store-changelog", func(c *playground.Cluster) {
			g := wordCount("wc", "Stable")
			g.Topology.Subtopologies[0].SourceTopics = append(g.Topology.Subtopologies[0].SourceTopics, "gone-store-changelog")
			c.PutStreamsGroup(g)
		}, "the live streams group wc reads it"},
		{"written by a live application", "gone-store-changelog", func(c *playground.Cluster) {
			g := wordCount("wc", "Stable")
			g.Topology.Subtopologies[0].RepartitionSinkTopics = append(g.Topology.Subtopologies[0].RepartitionSinkTopics, "gone-store-changelog")
			c.PutStreamsGroup(g)
		}, "the live streams group wc writes it"},
		{"a classic-protocol application", "gone-store-changelog", func(c *playground.Cluster) {
			c.PutGroup("gone", "classic", "consumer", "Stable")
		}, "a classic group gone exists: a Kafka Streams application on the classic protocol is a consumer group named after its application id"},
		{"a streams group without a topology yet", "gone-store-changelog", func(c *playground.Cluster) {
			c.PutStreamsGroup(playground.StreamsGroup{ID: "gone", State: "Empty"})
		}, "the streams group gone has no topology yet"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, cl := orphanCluster(t)
			tc.edit(c)
			r := run(t, cl, inventory.Options{})
			assert.NotContains(t, orphanNames(r), tc.topic)
			assert.Contains(t, r.Kept, inventory.Kept{Topic: tc.topic, Reason: tc.reason})
		})
	}
}

func outcomes(r *inventory.Result) map[string]string {
	out := map[string]string{}
	for _, o := range r.Deletion.Topics {
		out[o.Topic] = o.Outcome
		if o.Reason != "" {
			out[o.Topic] += ": " + o.Reason
		}
	}
	return out
}

func TestInventory_cleanup(t *testing.T) {
	t.Run("dry run deletes nothing", func(t *testing.T) {
		c, cl := orphanCluster(t)
		r := run(t, cl, inventory.Options{Orphans: true, Delete: true, MinAge: 24 * time.Hour})
		assert.Equal(t, inventory.WouldDelete, outcomes(r)["gone-store-changelog"])
		assert.Len(t, r.Deletion.Topics, 4)
		assert.Empty(t, r.Failures())
		assert.True(t, c.HasTopic("gone-store-changelog"))
	})
	t.Run("execute deletes exactly the orphans", func(t *testing.T) {
		c, cl := orphanCluster(t)
		r := run(t, cl, inventory.Options{Orphans: true, Delete: true, Execute: true, MinAge: 24 * time.Hour})
		assert.Empty(t, r.Failures())
		assert.ElementsMatch(t, []string{"in", "wc-counts-changelog", "wc-counts-repartition", "plain-topic"}, c.Topics())
	})
	t.Run("too young", func(t *testing.T) {
		c, cl := orphanCluster(t)
		records(c, "gone-store-changelog", 0, 2, now.Add(-time.Hour))
		r := run(t, cl, inventory.Options{Orphans: true, Delete: true, Execute: true, MinAge: 24 * time.Hour})
		assert.Equal(t, "skipped: its newest record (appended 2026-12-01T11:00:00Z) is younger than --min-age 24h0m0s", outcomes(r)["gone-store-changelog"])
		assert.True(t, c.HasTopic("gone-store-changelog"))
		require.Len(t, r.Failures(), 1, "not everything asked was done")
	})
	t.Run("gains committed offsets between listing and delete", func(t *testing.T) {
		c, cl := orphanCluster(t)
		opts := inventory.Options{Orphans: true, Delete: true, Execute: true, MinAge: 24 * time.Hour, BeforeRecheck: func() {
			c.PutGroup("late", "consumer", "consumer", "Stable")
			c.Commit("late", playground.Committed{Topic: "gone-store-changelog", Partition: 0, Offset: 1, LeaderEpoch: -1})
		}}
		r := run(t, cl, opts)
		assert.Equal(t, "skipped: it is no longer an orphan: group late has committed offsets on it", outcomes(r)["gone-store-changelog"])
		assert.True(t, c.HasTopic("gone-store-changelog"))
		assert.False(t, c.HasTopic("wc-old-changelog"), "the others are deleted")
		require.Len(t, r.Failures(), 1)
	})
	t.Run("group comes back between listing and delete", func(t *testing.T) {
		c, cl := orphanCluster(t)
		opts := inventory.Options{Orphans: true, Delete: true, Execute: true, MinAge: 0, BeforeRecheck: func() {
			g := wordCount("wc", "Stable")
			g.Topology.Subtopologies[1].StateChangelogTopics = append(g.Topology.Subtopologies[1].StateChangelogTopics, playground.TopicInfo{Name: "wc-old-changelog"})
			c.PutStreamsGroup(g)
		}}
		r := run(t, cl, opts)
		assert.Equal(t, "skipped: it is no longer an orphan: the live streams group wc declares it", outcomes(r)["wc-old-changelog"])
		assert.True(t, c.HasTopic("wc-old-changelog"))
	})
}

func TestInventory_leftoverGroupConfigs(t *testing.T) {
	standby := "1"
	setup := func(t *testing.T) (*playground.Cluster, *admin.Client) {
		c, cl := orphanCluster(t)
		c.SetGroupConfig("gone", "streams.num.standby.replicas", &standby)
		c.SetGroupConfig("wc", "streams.num.standby.replicas", &standby) // wc exists: not left over
		return c, cl
	}
	t.Run("listed", func(t *testing.T) {
		_, cl := setup(t)
		r := run(t, cl, inventory.Options{Orphans: true})
		assert.Equal(t, []inventory.LeftoverConfig{{Group: "gone", Configs: []kafka.ConfigEntry{{Key: "streams.num.standby.replicas", Value: "1"}}}}, r.LeftoverConfigs)
	})
	t.Run("dry run keeps them", func(t *testing.T) {
		c, cl := setup(t)
		r := run(t, cl, inventory.Options{Orphans: true, Delete: true, Configs: true, MinAge: 0})
		require.Len(t, r.Deletion.Configs, 1)
		assert.Equal(t, inventory.WouldDelete, r.Deletion.Configs[0].Outcome)
		_, cl2 := c, cl
		again := run(t, cl2, inventory.Options{Orphans: true})
		assert.Len(t, again.LeftoverConfigs, 1)
	})
	t.Run("execute deletes them", func(t *testing.T) {
		_, cl := setup(t)
		r := run(t, cl, inventory.Options{Orphans: true, Delete: true, Execute: true, Configs: true, MinAge: 0})
		require.Len(t, r.Deletion.Configs, 1)
		assert.Equal(t, inventory.Deleted, r.Deletion.Configs[0].Outcome)
		assert.Empty(t, r.Failures())
		assert.Empty(t, run(t, cl, inventory.Options{Orphans: true}).LeftoverConfigs)
	})
	t.Run("the group comes back before the delete", func(t *testing.T) {
		c, cl := setup(t)
		r := run(t, cl, inventory.Options{Orphans: true, Delete: true, Execute: true, Configs: true, MinAge: 0,
			BeforeRecheck: func() { c.PutGroup("gone", "consumer", "consumer", "Stable") }})
		require.Len(t, r.Deletion.Configs, 1)
		assert.Equal(t, "skipped: the group gone exists again", r.Deletion.Configs[0].Outcome+": "+r.Deletion.Configs[0].Reason)
		assert.Len(t, r.Failures(), 1+3, "the configs and the three orphans named after gone, now kept by the group")
	})
	t.Run("without --configs nothing is deleted", func(t *testing.T) {
		_, cl := setup(t)
		r := run(t, cl, inventory.Options{Orphans: true, Delete: true, Execute: true, MinAge: 0})
		assert.Empty(t, r.Deletion.Configs)
		assert.Len(t, run(t, cl, inventory.Options{Orphans: true}).LeftoverConfigs, 1)
	})
}

func TestInventory_shareGroupOffsets(t *testing.T) {
	c, cl := orphanCluster(t)
	c.PutGroup("sharer", "share", "share", "Stable")
	c.Commit("sharer", playground.Committed{Topic: "gone-store-changelog", Partition: 0, Offset: 1, LeaderEpoch: -1})
	r := run(t, cl, inventory.Options{})
	assert.NotContains(t, orphanNames(r), "gone-store-changelog")
	assert.Contains(t, r.Kept, inventory.Kept{Topic: "gone-store-changelog", Reason: "group sharer has committed offsets on it"})
	assert.Empty(t, r.Unread, "a share group's offsets are read")
}

// TestInventory_groupPrefixKeepsOthers (issue 30, W1): --group A with a
// shorter id than a live application "A-b" must not delete A-b's topics:
// the never-an-orphan rules and the live-group check run over every id a
// name fits, whatever --group says, at the listing and at the re-check.
func TestInventory_groupPrefixKeepsOthers(t *testing.T) {
	for _, tc := range []struct {
		name, group, topic string
		edit               func(c *playground.Cluster)
		reason             string
	}{
		{"a Stable consumer group", "orders", "orders-enrich-store-changelog", func(c *playground.Cluster) {
			c.PutGroup("orders-enrich", "consumer", "consumer", "Stable")
		}, "a consumer group orders-enrich exists: a Kafka Streams application on the classic protocol is a consumer group named after its application id"},
		{"a Stable classic group", "a", "a-b-store-changelog", func(c *playground.Cluster) {
			c.PutGroup("a-b", "classic", "consumer", "Stable")
		}, "a classic group a-b exists: a Kafka Streams application on the classic protocol is a consumer group named after its application id"},
		{"a streams group that could not be described", "c", "c-d-store-changelog", func(c *playground.Cluster) {
			c.PutStreamsGroup(wordCount("c-d", "Stable"))
			msg := "injected"
			c.InjectError(playground.Fault{Key: 89, Group: "c-d", ErrorCode: kerr.GroupAuthorizationFailed.Code, ErrorMessage: &msg, Node: playground.AnyNode})
		}, "the streams group c-d could not be described"},
		{"a NotReady streams group without a topology", "e", "e-f-store-changelog", func(c *playground.Cluster) {
			c.PutStreamsGroup(playground.StreamsGroup{ID: "e-f", State: "NotReady", Topology: &playground.Topology{Epoch: 1}})
		}, "the streams group e-f has no topology yet"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, cl := orphanCluster(t)
			c.PutTopicSpec(playground.TopicSpec{Name: tc.topic, Partitions: 1, Bytes: []int64{100}})
			records(c, tc.topic, 0, 2, now.Add(-48*time.Hour))
			tc.edit(c)
			r := run(t, cl, inventory.Options{Groups: []string{tc.group}, Orphans: true, Delete: true, Execute: true, MinAge: 0})
			assert.NotContains(t, orphanNames(r), tc.topic)
			assert.Contains(t, r.Kept, inventory.Kept{Topic: tc.topic, Reason: tc.reason})
			assert.True(t, c.HasTopic(tc.topic), "another application's topic is kept")
		})
		t.Run(tc.name+", appearing before the re-check", func(t *testing.T) {
			c, cl := orphanCluster(t)
			c.PutTopicSpec(playground.TopicSpec{Name: tc.topic, Partitions: 1, Bytes: []int64{100}})
			records(c, tc.topic, 0, 2, now.Add(-48*time.Hour))
			r := run(t, cl, inventory.Options{Groups: []string{tc.group}, Orphans: true, Delete: true, Execute: true, MinAge: 0,
				BeforeRecheck: func() { tc.edit(c) }})
			require.Contains(t, orphanNames(r), tc.topic, "an orphan at the listing")
			assert.Equal(t, "skipped: it is no longer an orphan: "+tc.reason, outcomes(r)[tc.topic])
			assert.True(t, c.HasTopic(tc.topic))
		})
	}
	t.Run("a live streams group's undeclared topic is its own, not --group's", func(t *testing.T) {
		c, cl := orphanCluster(t)
		c.PutStreamsGroup(wordCount("gone-x", "Stable"))
		c.PutTopicSpec(playground.TopicSpec{Name: "gone-x-old-changelog", Partitions: 1})
		r := run(t, cl, inventory.Options{Groups: []string{"gone"}, Orphans: true})
		assert.NotContains(t, orphanNames(r), "gone-x-old-changelog", "gone-x's orphan, not gone's")
		assert.Contains(t, orphanNames(r), "gone-store-changelog")
		all := run(t, cl, inventory.Options{Orphans: true})
		assert.Equal(t, "gone-x: the live streams group gone-x does not declare it", orphanNames(all)["gone-x-old-changelog"])
	})
}

// configLister answers ListConfigResources with err.
type configLister struct {
	*admin.Client
	err error
}

func (c configLister) ListGroupConfigResources(context.Context) ([]string, error) { return nil, c.err }

// TestInventory_incomplete (issue 30, W7): what could not be read is a
// failure, with its cause (a timeout classifies as unavailable); a broker
// too old to list group configs is a note, not a failure.
func TestInventory_incomplete(t *testing.T) {
	_, cl := orphanCluster(t)
	timedOut := fmt.Errorf("ListConfigResources: timed out: %w", context.DeadlineExceeded)
	r, err := inventory.Run(context.Background(), configLister{cl, timedOut}, inventory.Options{Now: func() time.Time { return now }})
	require.NoError(t, err)
	require.Len(t, r.Failures(), 1)
	f := r.Failures()[0].Err
	assert.Equal(t, "could not read the groups with dynamic configs (ListConfigResources): ListConfigResources: timed out: context deadline exceeded", f.Error())
	assert.Equal(t, kafka.Unavailable, kafka.Classify(f).Category)

	old := fmt.Errorf("ListConfigResources v1: %w", kafka.ErrBrokerTooOld)
	r, err = inventory.Run(context.Background(), configLister{cl, old}, inventory.Options{Now: func() time.Time { return now }})
	require.NoError(t, err)
	assert.Empty(t, r.Failures())
	assert.Empty(t, r.Unread)
	require.Len(t, r.Notes, 1)
	assert.Contains(t, r.Notes[0], "the broker cannot list the groups with dynamic configs")
}

// TestInventory_minAge (issue 30, W8): a topic's age is when its data was
// written, which only a LogAppendTime batch tells; a record's CreateTime
// is its producer's (Kafka Streams: the input's event time), so a topic
// whose newest record carries one has an unknown age and is kept, unless
// --min-age 0 says to delete regardless of age.
func TestInventory_minAge(t *testing.T) {
	event2020 := time.Date(2020, 3, 1, 0, 0, 0, 0, time.UTC)
	future := now.Add(10 * 24 * time.Hour)
	for _, tc := range []struct {
		name    string
		configs map[string]string
		newest  time.Time
		minAge  time.Duration
		want    string
	}{
		{"written 60 s ago with a 2020 event time (CreateTime)", nil, event2020, 24 * time.Hour,
			"skipped: its age is unknown: the newest record of 1 partitions carries its producer's time (message.timestamp.type=CreateTime), not when it was written; --min-age 0 deletes it regardless of age"},
		{"appended 60 s ago (LogAppendTime)", logAppendTime, now.Add(-time.Minute), 24 * time.Hour,
			"skipped: its newest record (appended 2026-12-01T11:59:00Z) is younger than --min-age 24h0m0s"},
		{"appended two days ago (LogAppendTime)", logAppendTime, now.Add(-48 * time.Hour), 24 * time.Hour, inventory.Deleted},
		{"stamped in the future (CreateTime)", nil, future, 24 * time.Hour,
			"skipped: its age is unknown: the newest record of 1 partitions carries its producer's time (message.timestamp.type=CreateTime), not when it was written; --min-age 0 deletes it regardless of age"},
		{"stamped in the future, --min-age 0", nil, future, 0, inventory.Deleted},
		{"a 2020 event time, --min-age 0", nil, event2020, 0, inventory.Deleted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, cl := start(t, 1)
			c.PutTopicSpec(playground.TopicSpec{Name: "old-store-changelog", Partitions: 1, Configs: tc.configs})
			records(c, "old-store-changelog", 0, 3, tc.newest)
			r := run(t, cl, inventory.Options{Orphans: true, Delete: true, Execute: true, MinAge: tc.minAge})
			assert.Equal(t, tc.want, outcomes(r)["old-store-changelog"])
			assert.Equal(t, tc.want != inventory.Deleted, c.HasTopic("old-store-changelog"))
		})
	}
	t.Run("an age that cannot be read protects the topic", func(t *testing.T) {
		c, cl := start(t, 1)
		c.PutTopicSpec(playground.TopicSpec{Name: "old-store-changelog", Partitions: 1, Configs: logAppendTime})
		c.SetLogOffsets("old-store-changelog", 0, 0, 3) // records without a timestamp
		r := run(t, cl, inventory.Options{Orphans: true, Delete: true, Execute: true, MinAge: time.Hour})
		assert.Equal(t, "skipped: the newest record of 1 partitions could not be read, so its age is unknown", outcomes(r)["old-store-changelog"])
		assert.True(t, c.HasTopic("old-store-changelog"))
	})
}
