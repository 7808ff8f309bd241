package diff

import (
	"cmp"
	"slices"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// Input is one side of a comparison.
type Input struct {
	Description *topology.Description
	// ApplicationID is the prefix of the side's internal topic names: a
	// group's id, or what --application-id says for a file; "" strips
	// nothing.
	ApplicationID string
	// Subtopologies is a group's KIP-1071 topology (the internal topics the
	// coordinator knows by name); nil for a file.
	Subtopologies []kafka.Subtopology
}

// side is an Input after normalisation.
type side struct {
	desc *topology.Description
	// changelogs are the changelog topics the coordinator lists for the
	// group (without the prefix); nil when the side is a file, where they
	// can only be derived from the stores.
	changelogs map[string]bool
	// repartition are the repartition topics the coordinator lists.
	repartition map[string]bool
	// record is the group's stored KIP-1071 topology as the coordinator
	// compares it (broker.go); nil for a file or a group listing none.
	record map[string]brokerSubtopology
}

// normalize copies in with what differs between a stored description and a
// Topology#describe() text taken out:
//   - internal topic names lose the "<application.id>-" prefix: a topic the
//     coordinator lists as internal, or one with the shape of an internal
//     topic (isInternalName), so a user topic that happens to start with
//     the application id keeps its name on both sides;
//   - nodes are sorted by name (the broker's order; describe() sorts by
//     subtree size), sub-topologies by id, and global stores by source
//     topics and stores, numbered after the sub-topologies as the CLI does
//     (describe() numbers them in the order they were added);
//   - predecessors are rebuilt from successors.
func normalize(in Input, stop *stopper) *side {
	known := map[string]bool{}
	for _, s := range in.Subtopologies {
		for _, t := range slices.Concat(s.RepartitionSourceTopics, s.RepartitionSinkTopics, s.StateChangelogTopics) {
			known[t] = true
		}
	}
	strip := func(t string) string {
		if in.ApplicationID == "" {
			return t
		}
		if rest, ok := strings.CutPrefix(t, in.ApplicationID+"-"); ok && (known[t] || isInternalName(rest)) {
			return rest
		}
		return t
	}
	out := &side{desc: &topology.Description{Subtopologies: []*topology.Subtopology{}, GlobalStores: []*topology.GlobalStore{}}}
	if in.Subtopologies != nil {
		out.changelogs, out.repartition = map[string]bool{}, map[string]bool{}
		for _, s := range in.Subtopologies {
			for _, t := range s.StateChangelogTopics {
				out.changelogs[strip(t)] = true
			}
			for _, t := range slices.Concat(s.RepartitionSourceTopics, s.RepartitionSinkTopics) {
				out.repartition[strip(t)] = true
			}
		}
		out.record = recordOf(in.Subtopologies, strip)
	}
	d := in.Description
	if d == nil {
		return out
	}
	for _, s := range d.Subtopologies {
		ns := &topology.Subtopology{ID: s.ID, Nodes: make([]*topology.Node, 0, len(s.Nodes))}
		for _, n := range s.Nodes {
			stop.tick()
			ns.Nodes = append(ns.Nodes, copyNode(n, strip))
		}
		slices.SortStableFunc(ns.Nodes, func(a, b *topology.Node) int { return strings.Compare(a.Name, b.Name) })
		topology.LinkPredecessors(ns.Nodes)
		out.desc.Subtopologies = append(out.desc.Subtopologies, ns)
	}
	slices.SortStableFunc(out.desc.Subtopologies, func(a, b *topology.Subtopology) int { return kafka.CompareSubtopologyIDs(a.ID, b.ID) })
	for _, g := range d.GlobalStores {
		ng := &topology.GlobalStore{Source: copyNode(g.Source, strip), Processor: copyNode(g.Processor, strip)}
		topology.LinkPredecessors([]*topology.Node{ng.Source, ng.Processor})
		out.desc.GlobalStores = append(out.desc.GlobalStores, ng)
	}
	slices.SortStableFunc(out.desc.GlobalStores, func(a, b *topology.GlobalStore) int {
		return cmp.Or(strings.Compare(globalTopics(a), globalTopics(b)), strings.Compare(globalStores(a), globalStores(b)))
	})
	for i, g := range out.desc.GlobalStores {
		g.ID = len(out.desc.Subtopologies) + i
	}
	return out
}

// copyNode is a deep copy of n with its topics renamed by strip and its
// sets sorted and de-duplicated.
func copyNode(n *topology.Node, strip func(string) string) *topology.Node {
	c := &topology.Node{Name: n.Name, Kind: n.Kind, Pattern: n.Pattern, Extractor: n.Extractor,
		Stores: set(n.Stores), Successors: set(n.Successors), Predecessors: []string{}}
	c.Topics = make([]string, 0, len(n.Topics))
	for _, t := range n.Topics {
		c.Topics = append(c.Topics, strip(t))
	}
	c.Topics = set(c.Topics)
	if n.Topic != nil {
		t := strip(*n.Topic)
		c.Topic = &t
	}
	return c
}

// set returns xs sorted and de-duplicated, never nil.
func set(xs []string) []string {
	out := slices.Clone(xs)
	slices.Sort(out)
	return append([]string{}, slices.Compact(out)...)
}

// globalTopics and globalStores identify a global store: by what it reads
// and what it keeps, never by its number.
func globalTopics(g *topology.GlobalStore) string {
	return strings.Join(g.Source.Topics, ",") + "|" + g.Source.Pattern
}

func globalStores(g *topology.GlobalStore) string { return strings.Join(g.Processor.Stores, ",") }
