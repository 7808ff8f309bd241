package web_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/check"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/list"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
	"github.com/kstreams-groups/kstreams-groups/internal/serve/snapshot"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	"github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// swapSource is a snapshot.Source whose snapshots a test replaces, as the
// collector publishes a new cycle.
type swapSource struct {
	p atomic.Pointer[[]*snapshot.Cluster]
}

func newSource(cs ...*snapshot.Cluster) *swapSource {
	s := &swapSource{}
	s.set(cs...)
	return s
}

func (s *swapSource) set(cs ...*snapshot.Cluster) { s.p.Store(&cs) }

func (s *swapSource) Clusters() []*snapshot.Cluster { return *s.p.Load() }

// hostile is a name that would run script if any page put it into markup
// (in text, in a double- or single-quoted attribute, or in a URL).
const hostile = `x"><img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>'onmouseover='window.__pwned=1`

// now is the clock of the time lag of every test snapshot.
var now = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// checkOptions are what the collector checks: every group, its
// description, and the time lag.
func checkOptions() check.Options {
	return check.Options{AllGroups: true, RequireTopology: true, TimeLag: true, Now: func() time.Time { return now }}
}

// startPlayground serves the playground's default cluster plus a group
// whose id, topic and node names are hostile.
func startPlayground(t testing.TB) *playground.Cluster {
	t.Helper()
	return startState(t, withHostile(t, playground.DefaultState()))
}

func startState(t testing.TB, st *playground.State) *playground.Cluster {
	t.Helper()
	// Loaded at now: the default seed's record ages count back from the
	// clock the snapshots' time lag reads.
	c, err := playground.StartStateWith(playground.Config{Now: func() time.Time { return now }}, st)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// withHostile adds to st a copy of its word-count group whose id, topics,
// node names, store and client ids are markup.
func withHostile(t testing.TB, st *playground.State) *playground.State {
	t.Helper()
	var wc playground.StateStreamsGroup
	for _, g := range st.StreamsGroups {
		if g.ID == "word-count" {
			wc = g
		}
	}
	require.Equal(t, "word-count", wc.ID)
	evil := wc
	evil.ID, evil.CommittedOffsets = hostile, nil
	evil.Topology = &playground.Topology{Subtopologies: []playground.Subtopology{{ID: "0", SourceTopics: []string{"words-input", hostile}}}}
	sink := hostile + "-out"
	evil.Description = &playground.Description{Subtopologies: []playground.DescriptionSubtopology{{ID: "0", Nodes: []playground.Node{
		{Name: hostile, Type: playground.NodeSource, SourceTopics: []string{"words-input", hostile}, Successors: []string{"<svg onload=window.__pwned=1>"}},
		{Name: "<svg onload=window.__pwned=1>", Type: playground.NodeProcessor, Stores: []string{`"><script>window.__pwned=1</script>`}, Successors: []string{"sink"}},
		{Name: "sink", Type: playground.NodeSink, SinkTopic: &sink},
	}}}}
	for i := range evil.Members {
		m := evil.Members[i]
		m.ClientID = "<b onclick=window.__pwned=1>client</b>"
		m.Assignment = playground.Assignment{Active: map[string][]int32{"0": {int32(i)}}}
		m.TargetAssignment = m.Assignment
		evil.Members[i] = m
	}
	st.StreamsGroups = append(st.StreamsGroups, evil)
	return st
}

// collect reads a cluster as serve's collector does (list --state, then
// check with the description and the time lag) into a snapshot.
func collect(t testing.TB, name string, pg *playground.Cluster) *snapshot.Cluster {
	t.Helper()
	cl, err := admin.New(admin.Config{Bootstrap: pg.Addrs()})
	require.NoError(t, err)
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	ls, err := list.Run(ctx, cl, list.Options{WithState: true})
	require.NoError(t, err)
	ck, err := check.Run(ctx, cl, checkOptions())
	require.NoError(t, err)
	c := &snapshot.Cluster{Name: name, Taken: now, LastSuccess: now, CycleSeconds: time.Since(start).Seconds(), Check: ck, List: ls,
		History: map[string][]snapshot.Sample{}, Events: map[string][]snapshot.Event{}}
	for _, g := range ck.Groups {
		for i := range 12 {
			c.History[g.ID()] = append(c.History[g.ID()], snapshot.Sample{Time: now.Add(time.Duration(i-11) * 5 * time.Minute),
				Lag: g.Lag * int64(i+1) / 12, TimeLagSeconds: float64(i * 7), HasTimeLag: true})
		}
		c.Events[g.ID()] = []snapshot.Event{
			{Time: now.Add(-30 * time.Minute), Text: "rebalance: group epoch 4 -> 5", Causes: []string{"member-joined m-b: process p-b, host /10.0.0.2, client c-b", "configs-changed num.standby.replicas 0 -> 1 <img src=x onerror=window.__pwned=1>"}},
			{Time: now.Add(-20 * time.Minute), Text: "member m2 joined"}, {Time: now.Add(-10 * time.Minute), Text: "state Reconciling -> Stable"}}
	}
	return c
}

// withState is c with group's state replaced, as a later cycle would
// publish it (the snapshots are immutable: everything changed is copied).
func withState(c *snapshot.Cluster, group, state string) *snapshot.Cluster {
	n := *c
	ck := *c.Check
	ck.Groups = nil
	for _, g := range c.Check.Groups {
		if g.ID() == group {
			ov := *g.Overview
			ov.State = state
			g = check.Evaluate(&ov, c.Check.Options)
		}
		ck.Groups = append(ck.Groups, g)
	}
	n.Check = &ck
	ls := *c.List
	ls.Groups = nil
	for _, g := range c.List.Groups {
		if g.Group == group {
			g.State = state
		}
		ls.Groups = append(ls.Groups, g)
	}
	n.List = &ls
	return &n
}

// syntheticCluster is a cluster of n groups made without a broker, for
// the measurements: groups of a few sub-topologies each, lags spread.
func syntheticCluster(name string, n int) *snapshot.Cluster {
	ck := &check.Result{Status: check.OK, Options: checkOptions()}
	ls := &list.Result{WithState: true}
	for i := range n {
		g := syntheticGroup(fmt.Sprintf("app-%03d", i), topologytest.Generated(3, 1, "out"), int64(i*37%1000))
		if i%7 == 3 {
			g.State = string(kafka.StateReconciling)
		}
		cg := check.Evaluate(g, ck.Options)
		ck.Groups = append(ck.Groups, cg)
		ck.Status = check.Worst(ck.Status, cg.Status)
		ls.Groups = append(ls.Groups, list.Group{Group: g.Group, State: g.State})
	}
	return &snapshot.Cluster{Name: name, Taken: now, LastSuccess: now, Check: ck, List: ls}
}

// syntheticGroup is a Stable group of two members running desc, four
// partitions per sub-topology, lag spread over its tasks.
func syntheticGroup(id string, desc *topology.Description, lag int64) *overview.Group {
	g := &overview.Group{Group: id, State: string(kafka.StateStable), GroupEpoch: 3, AssignmentEpoch: 3, DescriptionStatus: topology.Available,
		Coordinator: &kafka.Broker{ID: 0, Host: "127.0.0.1", Port: 9092},
		Members: []kafka.Member{{MemberID: "member-a", ProcessID: "p1", ClientID: id + "-1", ClientHost: "/10.0.0.1"},
			{MemberID: "member-b", ProcessID: "p2", ClientID: id + "-2", ClientHost: "/10.0.0.2"}},
		GlobalStores: desc.GlobalStores, Time: overview.TimeLag{Measured: true, Known: true, Lag: time.Duration(lag) * time.Second}}
	for si, st := range desc.Subtopologies {
		s := &overview.Subtopology{ID: st.ID, Nodes: st.Nodes}
		for _, n := range st.Nodes {
			for _, tp := range n.Topics {
				s.Sources = append(s.Sources, overview.Source{Topic: tp})
			}
			for _, store := range n.Stores {
				s.Stores = append(s.Stores, overview.Store{Name: store, Changelog: id + "-" + store + "-changelog"})
			}
			if n.Topic != nil {
				s.Sinks = append(s.Sinks, *n.Topic)
			}
		}
		for p := range int32(4) {
			t := &overview.Task{TaskID: overview.TaskID{Subtopology: st.ID, Partition: p}, Active: []int{int(p) % 2}, TargetActive: []int{int(p) % 2},
				Standby: []int{1 - int(p)%2}, TargetStandby: []int{1 - int(p)%2}}
			t.Lag = lag * int64(si+1) * int64(p+1) / 10
			s.Tasks = append(s.Tasks, t)
			s.Lag = overview.AddLag(s.Lag, t.Lag)
			s.MaxTaskLag = max(s.MaxTaskLag, t.Lag)
			if g.Largest == nil || t.Lag > g.Largest.Lag {
				g.Largest = t
			}
		}
		g.Lag = overview.AddLag(g.Lag, s.Lag)
		g.Subtopologies = append(g.Subtopologies, s)
	}
	g.Time.Records, g.Time.Exact = g.Lag, true
	g.Coverage = syntheticCoverage(g)
	return g
}

// syntheticCoverage is the coverage overview computes for g with one
// standby configured: a standby counts when its process is not its
// active's.
func syntheticCoverage(g *overview.Group) *overview.Coverage {
	c := &overview.Coverage{Configured: 1, ConfiguredKnown: true, Processes: 2, Hosts: 2}
	for _, s := range g.Subtopologies {
		if !s.Stateful() {
			continue
		}
		for _, t := range s.Tasks {
			tc := &overview.TaskCoverage{Task: t}
			for _, sb := range t.Standby {
				tc.Standbys = append(tc.Standbys, overview.StandbyCopy{Member: sb})
				if g.Members[sb].ProcessID != g.Members[t.Active[0]].ProcessID {
					tc.Counted++
				}
			}
			c.Tasks = append(c.Tasks, tc)
		}
	}
	return c
}
