package format

// The graph views of a topology (-o dot, -o mermaid) share one layout,
// computed here: one cluster per subtopology and per global store (numbered
// as in the text view), processor-graph nodes inside their cluster, topics
// and state stores as nodes of their own outside the clusters. A topic read
// by one subtopology and written by another (a repartition topic) is one
// node, so the whole application reads as one graph. Ids are generated from
// positions (c0n1, t3, s2) and never from names, so no name needs quoting in
// an id; names appear only in escaped labels. Everything is ordered by wire
// order (clusters, nodes) or Java string order (topics, stores, edges).
//
// The layout costs time and memory linear in the topology: topics and
// stores find their ids in a map, ids are written from their numbers, and
// the edges are walked when they are written, never stored.

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

type graph struct {
	clusters []graphCluster
	topics   []string // sorted; id "t<i>"
	stores   []string // sorted; id "s<i>"
	topicIDs map[string]int
	storeIDs map[string]int
}

type graphCluster struct {
	label  string
	global bool
	nodes  []*topology.Node
}

type edgeKind int

const (
	flowEdge  edgeKind = iota // node --> successor
	readEdge                  // topic --> source
	writeEdge                 // sink --> topic
	storeEdge                 // processor --- store
)

// vertex is a graph node: a processor-graph node (cluster c, node i), a
// topic or a store (index i).
type vertex struct {
	kind byte // 'n', 't' or 's'
	c, i int
}

func buildGraph(d *topology.Description) *graph {
	g := &graph{}
	var topics, stores []string
	addCluster := func(label string, global bool, nodes []*topology.Node) {
		for _, n := range nodes {
			topics = append(topics, n.Topics...)
			if n.Topic != nil {
				topics = append(topics, *n.Topic)
			}
			stores = append(stores, n.Stores...)
		}
		g.clusters = append(g.clusters, graphCluster{label: label, global: global, nodes: nodes})
	}
	for _, s := range d.Subtopologies {
		addCluster("Sub-topology: "+s.ID, false, s.Nodes)
	}
	for i, gs := range d.GlobalStores {
		addCluster("Sub-topology: "+strconv.Itoa(len(d.Subtopologies)+i)+" for global store", true, []*topology.Node{gs.Source, gs.Processor})
	}
	g.topics, g.stores = SortedSet(topics), SortedSet(stores)
	g.topicIDs, g.storeIDs = positions(g.topics), positions(g.stores)
	return g
}

// positions maps each name to its index in sorted.
func positions(sorted []string) map[string]int {
	m := make(map[string]int, len(sorted))
	for i, x := range sorted {
		m[x] = i
	}
	return m
}

// eachEdge calls f for every edge, by cluster and node in wire order, a
// node's edges in Java order: topics read, successors, stores, the topic
// written. Successors are resolved within the node's own cluster, as Kafka
// resolves predecessors. It stops at the first error f returns.
func (g *graph) eachEdge(f func(from, to vertex, kind edgeKind) error) error {
	for ci, c := range g.clusters {
		byName := make(map[string]int, len(c.nodes))
		for ni, n := range c.nodes {
			if _, dup := byName[n.Name]; !dup {
				byName[n.Name] = ni
			}
		}
		for ni, n := range c.nodes {
			self := vertex{'n', ci, ni}
			for _, t := range SortedSet(n.Topics) {
				if err := f(vertex{'t', 0, g.topicIDs[t]}, self, readEdge); err != nil {
					return err
				}
			}
			for _, s := range SortedSet(n.Successors) {
				if to, ok := byName[s]; ok {
					if err := f(self, vertex{'n', ci, to}, flowEdge); err != nil {
						return err
					}
				}
			}
			for _, s := range SortedSet(n.Stores) {
				if err := f(self, vertex{'s', 0, g.storeIDs[s]}, storeEdge); err != nil {
					return err
				}
			}
			if n.Kind == topology.Sink && n.Topic != nil {
				if err := f(self, vertex{'t', 0, g.topicIDs[*n.Topic]}, writeEdge); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// graphWriter writes a graph's text: ids from their numbers, quoted
// labels without building them.
type graphWriter struct {
	*bufio.Writer
	num []byte
}

func newGraphWriter(w io.Writer) *graphWriter {
	return &graphWriter{Writer: bufio.NewWriterSize(w, 64<<10)}
}

func (w *graphWriter) int(i int) {
	w.num = strconv.AppendInt(w.num[:0], int64(i), 10)
	w.Write(w.num)
}

// clusterID writes "c<i>".
func (w *graphWriter) clusterID(c int) {
	w.WriteByte('c')
	w.int(c)
}

// id writes a vertex's id: c<cluster>n<node>, t<topic> or s<store>.
func (w *graphWriter) id(v vertex) {
	if v.kind == 'n' {
		w.clusterID(v.c)
		w.WriteByte('n')
	} else {
		w.WriteByte(v.kind)
	}
	w.int(v.i)
}

// failed reports the writer's error, if a write failed (a closed stdout):
// the graph writers check it per cluster and per edge to stop early.
func (w *graphWriter) failed() error {
	_, err := w.Write(nil)
	return err
}

// nodeLabel is the text shown for a processor-graph node.
func nodeLabel(n *topology.Node) string {
	switch {
	case n.Kind == topology.Source && n.Pattern != "":
		return n.Name + "\n(pattern: " + n.Pattern + ")"
	case n.Kind == topology.Sink && n.Topic == nil && n.Extractor != "":
		return n.Name + "\n(extractor: " + n.Extractor + ")"
	case n.Kind == topology.Sink && n.Topic == nil:
		return n.Name + "\n(dynamic topic)"
	}
	return n.Name
}

// TopologyGraph draws d in a graph format (dot or mermaid); name titles a
// dot graph.
func TopologyGraph(w io.Writer, o Output, name string, d *topology.Description) error {
	switch o {
	case Dot:
		return TopologyDot(w, name, d)
	case Mermaid:
		return TopologyMermaid(w, d)
	}
	return fmt.Errorf("format %q does not draw a topology", o)
}
