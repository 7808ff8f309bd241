package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	"github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// BenchmarkUpgradePlan is issue 33's bound: `upgrade plan --group G NEW`
// within 2x the wall time of `diff group:G NEW` against the same group.
// The group is a stopped application (topologytest.Application: DSL
// chains, joins, Processor API sub-topologies, global stores) as a broker
// stores it, internal topics prefixed, with its KIP-1071 topology, every
// topic of 3 partitions and every source partition committed at its end;
// NEW is its changed build (stores, repartition topics renamed: the broker
// refuses it), as Topology#describe() prints it. Each iteration runs both,
// one after the other, so that both meet the same load; the playground
// serves in this process. Reported: the wall milliseconds of each and
// their ratio (plan over diff).
func BenchmarkUpgradePlan(b *testing.B) {
	for _, subs := range []int{1800, 18000} {
		b.Run(fmt.Sprintf("application of %d sub-topologies", subs), func(b *testing.B) {
			setenv(b, "XDG_CONFIG_HOME", b.TempDir())
			setenv(b, "HOME", b.TempDir())
			c, err := playground.StartStateWith(testPlayground, upgradeBenchState("bench-app", topologytest.Application(subs, false)))
			if err != nil {
				b.Fatal(err)
			}
			defer func() { _ = c.Close() }()
			var text bytes.Buffer
			if err := format.Topology(&text, topologytest.Application(subs, true)); err != nil {
				b.Fatal(err)
			}
			newFile := filepath.Join(b.TempDir(), "new.txt")
			if err := os.WriteFile(newFile, text.Bytes(), 0o600); err != nil {
				b.Fatal(err)
			}
			once := func(args []string, want ...int) time.Duration {
				var errOut strings.Builder
				w0 := time.Now()
				code := testRun(b, append([]string{"--bootstrap-server", bootstrap(c)}, args...), IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: &errOut}, deps{})
				if !slices.Contains(want, code) {
					b.Fatalf("%v: exit %d: %s", args, code, errOut.String())
				}
				return time.Since(w0)
			}
			var diffW, planW time.Duration
			n := 0
			for b.Loop() {
				diffW += once([]string{"diff", "group:bench-app", newFile}, diffFailing)
				planW += once([]string{"upgrade", "plan", "--group", "bench-app", newFile}, upgradeMigration, upgradeBlocked)
				n++
			}
			b.StopTimer()
			per := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(n) }
			b.ReportMetric(per(diffW), "diff-ms/op")
			b.ReportMetric(per(planW), "plan-ms/op")
			b.ReportMetric(float64(planW)/float64(diffW), "plan/diff")
			b.ReportMetric(float64(text.Len())/1e6, "MB-new")
		})
	}
}

// upgradeBenchState is a playground holding group id as a stopped
// application whose stored description is d: internal topics (the names
// ending in -repartition) take the id's prefix as a broker stores them,
// the KIP-1071 topology lists each sub-topology's topics and changelogs
// (<id>-<store>-changelog), every topic has 3 partitions of 100 records
// and the group committed every source partition at its end.
func upgradeBenchState(id string, d *topology.Description) *playground.State {
	prefix := func(t string) string {
		if strings.HasSuffix(t, "-repartition") || strings.HasSuffix(t, "-topic") {
			return id + "-" + t
		}
		return t
	}
	s := &playground.State{}
	topics := map[string]bool{}
	addTopic := func(t string) {
		if !topics[t] {
			topics[t] = true
			s.Topics = append(s.Topics, playground.StateTopic{Name: t, Partitions: 3, EndOffsets: []int64{100, 100, 100}})
		}
	}
	g := playground.StateStreamsGroup{StreamsGroup: playground.StreamsGroup{ID: id, State: "Empty", GroupEpoch: 3, AssignmentEpoch: 3,
		AssignorName: "sticky", Topology: &playground.Topology{Epoch: 1, Subtopologies: []playground.Subtopology{}}}}
	for _, sub := range d.Subtopologies {
		rec := playground.Subtopology{ID: sub.ID, SourceTopics: []string{}, RepartitionSinkTopics: []string{},
			StateChangelogTopics: []playground.TopicInfo{}, RepartitionSourceTopics: []playground.TopicInfo{}}
		for _, n := range sub.Nodes {
			for i, t := range n.Topics {
				n.Topics[i] = prefix(t)
				addTopic(n.Topics[i])
				if n.Topics[i] != t {
					rec.RepartitionSourceTopics = append(rec.RepartitionSourceTopics, playground.TopicInfo{Name: n.Topics[i]})
				} else {
					rec.SourceTopics = append(rec.SourceTopics, t)
				}
				for p := range int32(3) {
					g.CommittedOffsets = append(g.CommittedOffsets, playground.StateCommitted{Topic: n.Topics[i], Partition: p, Offset: 100})
				}
			}
			if n.Topic != nil {
				t := prefix(*n.Topic)
				if t != *n.Topic {
					rec.RepartitionSinkTopics = append(rec.RepartitionSinkTopics, t)
				}
				n.Topic = &t
				addTopic(t)
			}
			for _, st := range n.Stores {
				cl := id + "-" + st + "-changelog"
				if !slices.ContainsFunc(rec.StateChangelogTopics, func(ti playground.TopicInfo) bool { return ti.Name == cl }) {
					rec.StateChangelogTopics = append(rec.StateChangelogTopics, playground.TopicInfo{Name: cl})
					addTopic(cl)
				}
			}
		}
		g.Topology.Subtopologies = append(g.Topology.Subtopologies, rec)
	}
	for _, gs := range d.GlobalStores {
		for _, t := range gs.Source.Topics {
			addTopic(t)
		}
	}
	g.Description = toState(d)
	s.StreamsGroups = append(s.StreamsGroups, g)
	return s
}
