package diff

import (
	"slices"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// The group coordinator of Kafka 4.4.0 keeps, for a streams group, the
// topology its first member sent (StreamsGroupHeartbeat's Topology: per
// sub-topology id, the source topics, the source topic regex, the
// repartition sink topics, the changelog and repartition source topics
// with their partitions and configs, and the copartition groups; no
// processor, sink or store name). A member that joins later with a
// topology that is not equal to it, field by field, is answered
// INVALID_REQUEST "Topology updates are not supported yet." even when the
// group is Empty, until the group is deleted (GroupMetadataManager.
// maybeUpdateTopology; FINDINGS F340). So a change that only renames
// processors or adds a stateless step is accepted, and any change to those
// topics is refused.

// brokerSubtopology is what the coordinator compares of one sub-topology,
// internal topics without the application id prefix, each list sorted.
type brokerSubtopology struct {
	sources, repartitionSources, repartitionSinks, changelogs []string
}

// brokerFields names the compared fields, in the order findings list them.
var brokerFields = []struct {
	subject string
	of      func(brokerSubtopology) []string
}{
	{"source topics", func(s brokerSubtopology) []string { return s.sources }},
	{"repartition source topics", func(s brokerSubtopology) []string { return s.repartitionSources }},
	{"repartition sink topics", func(s brokerSubtopology) []string { return s.repartitionSinks }},
	{"changelog topics", func(s brokerSubtopology) []string { return s.changelogs }},
}

// recordOf is a group's stored KIP-1071 topology as the coordinator
// compares it; nil when the group lists no sub-topology.
func recordOf(subs []kafka.Subtopology, strip func(string) string) map[string]brokerSubtopology {
	if len(subs) == 0 {
		return nil
	}
	stripped := func(ts []string) []string {
		out := make([]string, 0, len(ts))
		for _, t := range ts {
			out = append(out, strip(t))
		}
		return set(out)
	}
	rec := map[string]brokerSubtopology{}
	for _, s := range subs {
		rec[s.ID] = brokerSubtopology{sources: stripped(s.SourceTopics), repartitionSources: stripped(s.RepartitionSourceTopics),
			repartitionSinks: stripped(s.RepartitionSinkTopics), changelogs: stripped(s.StateChangelogTopics)}
	}
	return rec
}

// deriveRecord is the topology a side's application would send, derived
// from its description as Kafka Streams derives it (StreamThread.
// initBrokerTopology): a source topic with the shape of a repartition
// topic is a repartition source, a sink writing one a repartition sink,
// every store has the changelog <store>-changelog, and global stores are
// not part of it. A description cannot say that a store's logging is off
// or that a source table reuses its topic as changelog: a store that the
// group (ref, when not nil) keeps without a changelog is taken as kept the
// same way.
func deriveRecord(d *topology.Description, ref *side) map[string]brokerSubtopology {
	r := recordDeriver{ref: ref}
	if ref != nil && ref.record != nil {
		_, r.refStores = storesOf(ref.desc)
	}
	rec := map[string]brokerSubtopology{}
	for _, s := range d.Subtopologies {
		var b brokerSubtopology
		for _, n := range s.Nodes {
			r.topics(&b, n)
			r.changelogs(&b, n)
		}
		b.sources, b.repartitionSources, b.repartitionSinks, b.changelogs = set(b.sources), set(b.repartitionSources), set(b.repartitionSinks), set(b.changelogs)
		rec[s.ID] = b
	}
	return rec
}

// recordDeriver holds what deriveRecord's steps share: the group side of
// reference and the stores it keeps.
type recordDeriver struct {
	ref       *side
	refStores map[string]*topology.Node
}

func (r recordDeriver) internal(t string) bool {
	return isRepartition(t) || r.ref != nil && r.ref.repartition[t]
}

// topics adds the topics a node reads or writes to its sub-topology's
// record: a source's as sources or repartition sources, a sink's
// repartition topic as a repartition sink.
func (r recordDeriver) topics(b *brokerSubtopology, n *topology.Node) {
	switch n.Kind {
	case topology.Source:
		for _, t := range n.Topics {
			if r.internal(t) {
				b.repartitionSources = append(b.repartitionSources, t)
			} else {
				b.sources = append(b.sources, t)
			}
		}
	case topology.Sink:
		if n.Topic != nil && r.internal(*n.Topic) {
			b.repartitionSinks = append(b.repartitionSinks, *n.Topic)
		}
	}
}

// changelogs adds the changelogs of a node's stores, but for a store the
// group of reference keeps without one.
func (r recordDeriver) changelogs(b *brokerSubtopology, n *topology.Node) {
	for _, st := range n.Stores {
		cl := changelogOf(st)
		if r.refStores[st] != nil && !r.ref.changelogs[cl] {
			continue
		}
		b.changelogs = append(b.changelogs, cl)
	}
}

// broker decides whether the coordinator of OLD's group accepts NEW's
// topology for it, when OLD is a group: a TopologyRefused finding for each
// sub-topology and field that differs.
func (x *comparer) broker() {
	if x.old.changelogs == nil {
		return // OLD is a file: no group keeps a topology
	}
	x.c.BrokerChecked = true
	oldRec := x.old.record
	if oldRec == nil {
		oldRec = deriveRecord(x.old.desc, nil)
	}
	newRec := x.new.record
	if newRec == nil {
		newRec = deriveRecord(x.new.desc, x.old)
	}
	var ids []string
	for id := range oldRec {
		ids = append(ids, id)
	}
	for id := range newRec {
		if _, ok := oldRec[id]; !ok {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, kafka.CompareSubtopologyIDs)
	for _, id := range ids {
		o, inOld := oldRec[id]
		n, inNew := newRec[id]
		switch {
		case !inNew:
			x.add(Finding{Kind: TopologyRefused, Subject: "sub-topology", OldSubtopology: id, Old: id})
			continue
		case !inOld:
			x.add(Finding{Kind: TopologyRefused, Subject: "sub-topology", NewSubtopology: id, New: id})
			continue
		}
		for _, f := range brokerFields {
			if a, b := f.of(o), f.of(n); !slices.Equal(a, b) {
				x.add(Finding{Kind: TopologyRefused, Subject: f.subject, OldSubtopology: id, NewSubtopology: id,
					Old: strings.Join(a, ", "), New: strings.Join(b, ", ")})
			}
		}
	}
}

// Refused tells whether the broker refuses NEW's topology for OLD's group.
func (c *Comparison) Refused() bool {
	return slices.ContainsFunc(c.Findings, func(f Finding) bool { return f.Kind == TopologyRefused })
}
