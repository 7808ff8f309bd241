//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// invDoc is the part of our inventory document the test reads.
type invDoc struct {
	Groups []struct {
		Group    string `json:"group"`
		State    string `json:"state"`
		Findings []struct {
			Kind    string `json:"kind"`
			Topic   string `json:"topic"`
			Want    string `json:"want"`
			Have    string `json:"have"`
			Message string `json:"message"`
		} `json:"findings"`
	} `json:"groups"`
	Orphans []struct {
		Topic       string `json:"topic"`
		Application string `json:"application"`
		Reason      string `json:"reason"`
	} `json:"orphans"`
	NotOrphans []struct {
		Topic  string `json:"topic"`
		Reason string `json:"reason"`
	} `json:"not_orphans"`
	LeftoverGroupConfigs []struct {
		Group   string            `json:"group"`
		Configs map[string]string `json:"configs"`
	} `json:"leftover_group_configs"`
	Unread  []string `json:"unread"`
	Cleanup *struct {
		Topics []struct {
			Topic   string `json:"topic"`
			Outcome string `json:"outcome"`
			Reason  string `json:"reason"`
		} `json:"topics"`
		Configs []struct {
			Topic   string `json:"topic"`
			Outcome string `json:"outcome"`
		} `json:"configs"`
	} `json:"cleanup"`
}

// TestInventory (issue 24): inventory on one 4.4.0 broker. An application deleted with `delete`
// but not its internal topics leaves orphans that a cleanup deletes, exactly them; a redeploy
// with a renamed store (the group deleted first: 4.4.0 refuses a changed topology) leaves the
// old changelog orphaned and not the new one; a consumer group's committed offsets keep a
// topic named like a changelog; a repartition topic created beforehand with the wrong
// partition count makes the group NOT_READY, and the inventory names it with both counts.
func TestInventory(t *testing.T) {
	bin := OurBinary(t)
	start := time.Now()
	defer func() { logf("TestInventory total %s", time.Since(start).Round(time.Millisecond)) }()
	ctx := context.Background()
	b := StartBroker(t, BrokerOptions{})

	// inv-bad's repartition topic exists with 2 partitions; its input wc-input has 1.
	require.NoError(t, createTopic(ctx, b, "inv-bad-word-counts-repartition", 2))
	// A topic named like a changelog of a deleted application, read by a consumer group.
	require.NoError(t, createTopic(ctx, b, "legacy-store-changelog", 1))
	produceTo(t, b, "legacy-store-changelog", map[int32]int{0: 3})
	adm := kadm.NewClient(b.Client())
	offs := kadm.Offsets{}
	offs.Add(kadm.Offset{Topic: "legacy-store-changelog", Partition: 0, At: 2, LeaderEpoch: -1})
	resp, err := adm.CommitOffsets(ctx, "legacy-reader", offs)
	require.NoError(t, err)
	require.NoError(t, resp.Error())

	gone := StartApp(t, b, AppOptions{AppID: "inv-gone", Topology: "wordcount"})
	up := StartApp(t, b, AppOptions{AppID: "inv-up", Topology: "diff-base"})
	bad := StartApp(t, b, AppOptions{AppID: "inv-bad", Topology: "wordcount"})
	for _, a := range []*App{gone, up} {
		require.NoError(t, a.WaitGroupState(ctx, b, "Stable", 90*time.Second), "%s\n%s", a.AppID, logTail(a.Proc.LogPath, 3000))
	}
	produceTo(t, b, "wc-input", map[int32]int{0: 5})
	produceTo(t, b, "df-input", map[int32]int{0: 5})
	require.NoError(t, bad.WaitGroupState(ctx, b, "NotReady", 60*time.Second), logTail(bad.Proc.LogPath, 3000))

	inventory := func(t *testing.T, args ...string) (ToolResult, invDoc) {
		t.Helper()
		r := RunOursOn(t, bin, b, append([]string{"inventory", "-o", "json"}, args...)...)
		var d invDoc
		require.NoError(t, json.Unmarshal([]byte(r.Stdout), &d), "stdout: %s\nstderr: %s", r.Stdout, r.Stderr)
		return r, d
	}
	orphans := func(d invDoc) map[string]string {
		out := map[string]string{}
		for _, o := range d.Orphans {
			out[o.Topic] = o.Reason
		}
		return out
	}

	t.Run("wrong partition count: NOT_READY, topic and both counts named", func(t *testing.T) {
		r, d := inventory(t, "--group", "inv-bad")
		require.Equal(t, 0, r.ExitCode, r.Stderr)
		require.Len(t, d.Groups, 1)
		assert.Equal(t, "NotReady", d.Groups[0].State)
		var msgs []string
		for _, f := range d.Groups[0].Findings {
			msgs = append(msgs, f.Message)
		}
		assert.Contains(t, msgs, "inv-bad-word-counts-repartition has 2 partitions, expected 1")
		txt := RunOursOn(t, bin, b, "inventory", "--group", "inv-bad")
		assert.Contains(t, txt.Stdout, "! inv-bad-word-counts-repartition has 2 partitions, expected 1")
		logf("inventory --group inv-bad:\n%s", txt.Stdout)
	})

	t.Run("a consumer group's offsets keep a topic named like a changelog", func(t *testing.T) {
		_, d := inventory(t, "--orphans")
		assert.NotContains(t, orphans(d), "legacy-store-changelog")
		found := false
		for _, k := range d.NotOrphans {
			if k.Topic == "legacy-store-changelog" {
				found = true
				assert.Equal(t, "group legacy-reader has committed offsets on it", k.Reason)
			}
		}
		assert.True(t, found, "kept with its reason: %+v", d.NotOrphans)
		assert.NotContains(t, orphans(d), "inv-gone-word-counts-changelog", "live: not an orphan")
	})

	t.Run("deleted application: its topics are orphans, a cleanup deletes exactly them", func(t *testing.T) {
		// Its records processed and committed by both sub-topologies, so
		// that its changelog holds them: a commit of the repartition
		// topic's offsets follows the flush of the counts' changelog (a
		// commit of wc-input alone does not: the counting sub-topology may
		// not have run yet).
		for i := 0; ; i++ {
			got, err := committedOffsets(ctx, b, "inv-gone", func(tp string) bool {
				return tp == "wc-input" || tp == "inv-gone-word-counts-repartition"
			})
			counted := int64(0)
			for tp, o := range got {
				if strings.HasPrefix(tp, "inv-gone-word-counts-repartition-") {
					counted += o
				}
			}
			if err == nil && got["wc-input-0"] >= 5 && counted > 0 {
				break
			}
			require.Less(t, i, 150, "inv-gone did not commit wc-input and its repartition topic: %v %v", got, err)
			time.Sleep(200 * time.Millisecond)
		}
		// A group config, which DeleteGroups leaves behind (F402).
		r := RunOursOn(t, bin, b, "config", "--group", "inv-gone", "--set", "streams.num.standby.replicas=1", "--execute")
		require.Equal(t, 0, r.ExitCode, r.Stderr)
		require.NoError(t, gone.Stop())
		require.NoError(t, b.WaitGroupState(ctx, "inv-gone", "Empty", 30*time.Second, b.Proc))
		r = RunOursOn(t, bin, b, "delete", "--group", "inv-gone")
		require.Equal(t, 0, r.ExitCode, r.Stderr)
		_, d := inventory(t, "--orphans")
		assert.Empty(t, d.Unread, "a 4.4.0 broker lists group config resources (ListConfigResources v1)")
		require.Len(t, d.LeftoverGroupConfigs, 1, "%+v", d.LeftoverGroupConfigs)
		assert.Equal(t, "inv-gone", d.LeftoverGroupConfigs[0].Group)
		assert.Equal(t, map[string]string{"streams.num.standby.replicas": "1"}, d.LeftoverGroupConfigs[0].Configs)
		o := orphans(d)
		// The name fits three application ids; none is a streams group.
		assert.Equal(t, "no streams group named inv, inv-gone or inv-gone-word exists", o["inv-gone-word-counts-changelog"])
		assert.Equal(t, "no streams group named inv, inv-gone or inv-gone-word exists", o["inv-gone-word-counts-repartition"])

		// The dry run (the default) deletes nothing; with the default --min-age the records'
		// age is unknown (CreateTime).
		r, d = inventory(t, "--orphans", "--group", "inv-gone", "--delete")
		require.Len(t, d.Orphans, 2, "--group limits the orphans to the application's names")
		assert.Equal(t, 1, r.ExitCode, "not everything asked could be done: %s", r.Stderr)
		for _, c := range d.Cleanup.Topics {
			if c.Topic == "inv-gone-word-counts-changelog" {
				// Kafka Streams creates its internal topics with CreateTime: the
				// records carry the input's time, not when they were written.
				assert.Equal(t, "skipped", c.Outcome)
				assert.Contains(t, c.Reason, "its age is unknown")
				assert.Contains(t, c.Reason, "CreateTime")
			}
		}
		before := topicNames(t, b)
		r, d = inventory(t, "--orphans", "--group", "inv-gone", "--delete", "--execute", "--min-age", "0", "--configs")
		require.Equal(t, 0, r.ExitCode, r.Stderr)
		require.Len(t, d.Cleanup.Configs, 1)
		assert.Equal(t, "deleted", d.Cleanup.Configs[0].Outcome)
		var deleted []string
		for _, c := range d.Cleanup.Topics {
			assert.Equal(t, "deleted", c.Outcome, c.Topic)
			deleted = append(deleted, c.Topic)
		}
		assert.ElementsMatch(t, []string{"inv-gone-word-counts-changelog", "inv-gone-word-counts-repartition"}, deleted)
		// The broker completes a deletion after answering DeleteTopics.
		var after []string
		for range 50 {
			if after = topicNames(t, b); !slices.Contains(after, "inv-gone-word-counts-changelog") {
				break
			}
			time.Sleep(200 * time.Millisecond)
		}
		for _, tp := range before {
			if !strings.HasPrefix(tp, "inv-gone-") {
				assert.Contains(t, after, tp, "only the orphans are deleted")
			}
		}
		assert.NotContains(t, after, "inv-gone-word-counts-changelog")
		_, d = inventory(t, "--orphans")
		assert.Empty(t, d.LeftoverGroupConfigs, "the configs are gone")
	})

	t.Run("redeploy with a renamed store: the old changelog is an orphan, the new one is not", func(t *testing.T) {
		require.NoError(t, up.Stop())
		require.NoError(t, b.WaitGroupState(ctx, "inv-up", "Empty", 30*time.Second, b.Proc))
		r := RunOursOn(t, bin, b, "delete", "--group", "inv-up")
		require.Equal(t, 0, r.ExitCode, r.Stderr)
		named := StartApp(t, b, AppOptions{AppID: "inv-up", Topology: "diff-named"})
		require.NoError(t, named.WaitGroupState(ctx, b, "Stable", 90*time.Second), logTail(named.Proc.LogPath, 3000))
		_, d := inventory(t)
		o := orphans(d)
		assert.Equal(t, "the live streams group inv-up does not declare it", o["inv-up-"+dfStore+"-changelog"])
		assert.NotContains(t, o, "inv-up-df-counts-changelog")
		txt := RunOursOn(t, bin, b, "inventory", "--orphans")
		logf("inventory --orphans:\n%s", txt.Stdout)
	})

	// Issue 30, W1: --group inv-a used to apply the keep rules to inv-a only, and deleted the
	// topics of the live applications inv-a-b (a streams group: its old, undeclared changelog)
	// and inv-a-c (a Kafka Streams application on the classic protocol: a consumer group).
	t.Run("--group A beside live applications A-b: only A's orphans are deleted", func(t *testing.T) {
		ab := StartApp(t, b, AppOptions{AppID: "inv-a-b", Topology: "wordcount"})
		require.NoError(t, ab.WaitGroupState(ctx, b, "Stable", 90*time.Second), logTail(ab.Proc.LogPath, 3000))
		stop := joinClassic(t, b, "inv-a-c", "wc-input")
		defer stop()
		for _, tp := range []string{"inv-a-b-old-store-changelog", "inv-a-c-store-changelog", "inv-a-store-changelog"} {
			require.NoError(t, createTopic(ctx, b, tp, 1))
		}
		// inv-a's two orphans, written now with a 2020 event time (issue 30, W8): one keeps the
		// producer's time (CreateTime), one the broker's (LogAppendTime).
		lat := "LogAppendTime"
		_, err := adm.CreateTopic(ctx, 1, 1, map[string]*string{"message.timestamp.type": &lat}, "inv-a-lat-store-changelog")
		require.NoError(t, err)
		event2020 := time.Date(2020, 3, 1, 0, 0, 0, 0, time.UTC)
		for _, tp := range []string{"inv-a-b-old-store-changelog", "inv-a-c-store-changelog", "inv-a-store-changelog", "inv-a-lat-store-changelog"} {
			produceAt(t, b, tp, event2020, 2)
		}
		produceTo(t, b, "wc-input", map[int32]int{0: 2})
		var theirs []string
		for _, tp := range topicNames(t, b) {
			if strings.HasPrefix(tp, "inv-a-b-") || strings.HasPrefix(tp, "inv-a-c-") {
				theirs = append(theirs, tp)
			}
		}
		require.Contains(t, theirs, "inv-a-b-word-counts-changelog", "the live application's own topics")
		mine := []string{"inv-a-lat-store-changelog", "inv-a-store-changelog"}
		r, d := inventory(t, "--group", "inv-a", "--orphans", "--delete")
		assert.Equal(t, 1, r.ExitCode, "the default --min-age keeps both: %s", r.Stderr)
		assert.ElementsMatch(t, mine, slices.Collect(maps.Keys(orphans(d))))
		reasons := map[string]string{}
		for _, c := range d.Cleanup.Topics {
			reasons[c.Topic] = c.Outcome + ": " + c.Reason
		}
		assert.Contains(t, reasons["inv-a-store-changelog"], "skipped: its age is unknown", "a 2020 CreateTime says nothing of when it was written")
		assert.Contains(t, reasons["inv-a-lat-store-changelog"], "skipped: its newest record (appended "+time.Now().UTC().Format("2006-01-02"),
			"the broker's append time, not the 2020 event time")
		assert.Contains(t, reasons["inv-a-lat-store-changelog"], "is younger than --min-age 24h0m0s")

		r, d = inventory(t, "--group", "inv-a", "--orphans", "--delete", "--execute", "--min-age", "0")
		require.Equal(t, 0, r.ExitCode, r.Stderr)
		assert.ElementsMatch(t, mine, slices.Collect(maps.Keys(orphans(d))))
		var after []string
		for range 50 {
			if after = topicNames(t, b); !slices.Contains(after, "inv-a-store-changelog") && !slices.Contains(after, "inv-a-lat-store-changelog") {
				break
			}
			time.Sleep(200 * time.Millisecond)
		}
		assert.NotContains(t, after, "inv-a-store-changelog", "inv-a's orphans are deleted")
		assert.NotContains(t, after, "inv-a-lat-store-changelog")
		for _, tp := range theirs {
			assert.Contains(t, after, tp, "a live application's topic is kept")
		}
		logf("inventory --group inv-a --orphans --delete --execute: %s", r.Stdout)
	})
}

// produceAt writes n records to partition 0 of topic, each with the CreateTime at.
func produceAt(t *testing.T, b *Broker, topic string, at time.Time, n int) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(b.Addr), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	require.NoError(t, err)
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for i := range n {
		r := &kgo.Record{Topic: topic, Partition: 0, Timestamp: at, Value: fmt.Appendf(nil, "v%d", i)}
		require.NoError(t, cl.ProduceSync(ctx, r).FirstErr())
	}
}

// joinClassic joins a franz-go consumer to group on topic with the classic protocol, as a Kafka
// Streams application on the classic protocol does, and returns a stop func once it is assigned.
func joinClassic(t *testing.T, b *Broker, group, topic string) func() {
	t.Helper()
	assigned := make(chan struct{}, 1)
	cl, err := kgo.NewClient(kgo.SeedBrokers(b.Addr), kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic),
		kgo.OnPartitionsAssigned(func(context.Context, *kgo.Client, map[string][]int32) {
			select {
			case assigned <- struct{}{}:
			default:
			}
		}))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			cl.PollFetches(ctx)
		}
	}()
	stop := func() {
		cancel()
		<-done
		cl.Close()
	}
	select {
	case <-assigned:
	case <-time.After(30 * time.Second):
		stop()
		t.Fatalf("consumer group %s: no assignment after 30s", group)
	}
	return stop
}

// topicNames lists the cluster's topics.
func topicNames(t *testing.T, b *Broker) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	ts, err := kadm.NewClient(b.Client()).ListTopics(ctx)
	require.NoError(t, err)
	return ts.Names()
}
