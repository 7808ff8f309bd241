package upgrade

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// fromRecord is a description of the KIP-1071 topology the broker keeps
// for a group, for a group whose description is not stored (a 4.4 broker
// without the description plugin, or a push not done yet): the broker's
// verdict compares that topology and nothing else, and it names every
// source, repartition and changelog topic. Per sub-topology: a source
// reading its source and repartition source topics, a processor keeping
// the stores of its changelogs (<group>-<store>-changelog) and a sink per
// repartition sink topic. It has no node names: diff pairs its nodes with
// NEW's by their topics, and a store whose keeper it cannot pair shows as
// dropped and new (both start empty, as a renamed one does).
func fromRecord(group string, subs []kafka.Subtopology) *topology.Description {
	d := &topology.Description{Subtopologies: []*topology.Subtopology{}, GlobalStores: []*topology.GlobalStore{}}
	for _, s := range subs {
		src := &topology.Node{Name: "source-" + s.ID, Kind: topology.Source, Topics: slices.Concat(s.SourceTopics, s.RepartitionSourceTopics)}
		proc := &topology.Node{Name: "stores-" + s.ID, Kind: topology.Processor}
		for _, cl := range s.StateChangelogTopics {
			proc.Stores = append(proc.Stores, strings.TrimSuffix(strings.TrimPrefix(cl, group+"-"), "-changelog"))
		}
		src.Successors = []string{proc.Name}
		nodes := []*topology.Node{src, proc}
		for i, t := range s.RepartitionSinkTopics {
			sink := &topology.Node{Name: fmt.Sprintf("sink-%s-%d", s.ID, i), Kind: topology.Sink, Topic: &t}
			proc.Successors = append(proc.Successors, sink.Name)
			nodes = append(nodes, sink)
		}
		topology.LinkPredecessors(nodes)
		d.Subtopologies = append(d.Subtopologies, &topology.Subtopology{ID: s.ID, Nodes: nodes})
	}
	return d
}
