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
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

type graph struct {
	clusters []graphCluster
	topics   []string // sorted; id "t<i>"
	stores   []string // sorted; id "s<i>"
	// topicIDs and storeIDs are the ids of each node's topics and stores
	// in the order eachEdge meets them: the sorted topics of each node,
	// then the topic it writes; its sorted stores.
	topicIDs, storeIDs []int32
	// notes annotate the drawing (the overview's task counts and lag);
	// nil draws the plain topology.
	notes *graphNotes
	// pictured is set for a picture (svg, png), which has a legend
	// (graph_legend.go).
	pictured bool
}

type graphCluster struct {
	label  string
	global bool
	nodes  []*topology.Node
	// sub is the subtopology id of a non-global cluster.
	sub string
}

// graphNotes are the overview's additions to a topology drawing: a title,
// a second label line and a border color per subtopology, and a second
// label line and a fill per topic.
type graphNotes struct {
	title string
	// topDown draws top to bottom instead of left to right.
	topDown  bool
	clusters map[string]graphNote // by subtopology id
	topics   map[string]graphNote // by topic name
	// lagColors are the lagColor classes the borders and fills show
	// (a topic's fill by its border color), for the legend.
	lagColors map[string]bool
}

type graphNote struct {
	label string
	// color is a border (clusters) or fill (topics) color, "" for the
	// default; width a border width, 0 for the default.
	color string
	width float64
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

// occurrence is a topic or store named by a node, at its place in the
// order eachEdge meets them.
type occurrence struct {
	name string
	slot int
}

func buildGraph(d *topology.Description) *graph {
	g := &graph{}
	for _, s := range d.Subtopologies {
		g.clusters = append(g.clusters, graphCluster{label: "Sub-topology: " + s.ID, nodes: s.Nodes, sub: s.ID})
	}
	for i, gs := range d.GlobalStores {
		g.clusters = append(g.clusters, graphCluster{label: "Sub-topology: " + strconv.Itoa(len(d.Subtopologies)+i) + " for global store", global: true,
			nodes: []*topology.Node{gs.Source, gs.Processor}})
	}
	nt, ns := 0, 0
	for _, c := range g.clusters {
		for _, n := range c.nodes {
			nt += len(n.Topics)
			if n.Topic != nil {
				nt++
			}
			ns += len(n.Stores)
		}
	}
	topics, stores := make([]occurrence, 0, nt), make([]occurrence, 0, ns)
	for _, c := range g.clusters {
		for _, n := range c.nodes {
			for _, t := range SortedSet(n.Topics) {
				topics = append(topics, occurrence{t, len(topics)})
			}
			if n.Topic != nil {
				topics = append(topics, occurrence{*n.Topic, len(topics)})
			}
			for _, s := range SortedSet(n.Stores) {
				stores = append(stores, occurrence{s, len(stores)})
			}
		}
	}
	g.topics, g.topicIDs = numbered(topics)
	g.stores, g.storeIDs = numbered(stores)
	return g
}

// entries are the indexes of the cluster's nodes that no node of the
// cluster names as a successor (its sources, as a rule), or the first
// node if every node has a predecessor: the nodes its title stands above.
func (c graphCluster) entries() []int {
	followed := map[string]bool{}
	for _, n := range c.nodes {
		for _, s := range n.Successors {
			if s != n.Name {
				followed[s] = true
			}
		}
	}
	var entries []int
	for ni, n := range c.nodes {
		if !followed[n.Name] {
			entries = append(entries, ni)
		}
	}
	if len(entries) == 0 && len(c.nodes) > 0 {
		entries = []int{0}
	}
	return entries
}

// numbered sorts the occurrences by name (as SortedSet does) and gives the
// distinct names in order and each occurrence's index among them: one sort
// instead of a lookup per edge.
func numbered(occ []occurrence) (names []string, ids []int32) {
	slices.SortFunc(occ, func(a, b occurrence) int { return javaOrder(a.name, b.name) })
	ids = make([]int32, len(occ))
	for i, o := range occ {
		if i == 0 || o.name != occ[i-1].name {
			names = append(names, o.name)
		}
		ids[o.slot] = int32(len(names) - 1)
	}
	return slices.Clip(names), ids
}

// eachEdge calls f for every edge, by cluster and node in wire order, a
// node's edges in Java order: topics read, successors, stores, the topic
// written. Successors are resolved within the node's own cluster, as Kafka
// resolves predecessors. It stops at the first error f returns.
func (g *graph) eachEdge(f func(from, to vertex, kind edgeKind) error) error {
	w := edgeWalk{g: g, f: f, byName: map[string]int{}}
	for ci, c := range g.clusters {
		clear(w.byName)
		for ni, n := range c.nodes {
			if _, dup := w.byName[n.Name]; !dup {
				w.byName[n.Name] = ni
			}
		}
		for ni, n := range c.nodes {
			if err := w.node(vertex{'n', ci, ni}, n); err != nil {
				return err
			}
		}
	}
	return nil
}

// edgeWalk is eachEdge's state: the next slots of topicIDs and storeIDs
// and the current cluster's nodes by name.
type edgeWalk struct {
	g      *graph
	f      func(from, to vertex, kind edgeKind) error
	ti, si int
	byName map[string]int
}

// node calls f for the edges of one node, self.
func (w *edgeWalk) node(self vertex, n *topology.Node) error {
	g, f := w.g, w.f
	for range SortedSet(n.Topics) {
		if err := f(vertex{'t', 0, int(g.topicIDs[w.ti])}, self, readEdge); err != nil {
			return err
		}
		w.ti++
	}
	for _, s := range SortedSet(n.Successors) {
		if to, ok := w.byName[s]; ok {
			if err := f(self, vertex{'n', self.c, to}, flowEdge); err != nil {
				return err
			}
		}
	}
	for range SortedSet(n.Stores) {
		if err := f(self, vertex{'s', 0, int(g.storeIDs[w.si])}, storeEdge); err != nil {
			return err
		}
		w.si++
	}
	if n.Topic == nil {
		return nil
	}
	topic := vertex{'t', 0, int(g.topicIDs[w.ti])}
	w.ti++
	if n.Kind == topology.Sink {
		return f(self, topic, writeEdge)
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

// titleID writes the id of cluster c's title: c<i>title.
func (w *graphWriter) titleID(c int) {
	w.clusterID(c)
	w.WriteString("title")
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

// TopologyGraph draws d in a graph format (dot, mermaid, svg or png); name
// titles a dot graph.
func TopologyGraph(w io.Writer, o Output, name string, d *topology.Description) error {
	switch o {
	case Dot:
		return TopologyDot(w, name, d)
	case Mermaid:
		return TopologyMermaid(w, d)
	case SVG, PNG:
		return drawPicture(context.Background(), w, o, name, buildGraph(d))
	}
	return fmt.Errorf("format %q does not draw a topology", o)
}

// direction is the drawing's rank direction: TB with topDown notes (the
// overview), else the one that reads better for the drawing's shape
// (graph_shape.go).
func (g *graph) direction() string {
	if g.notes != nil && g.notes.topDown || g.notes == nil && g.topDownReadsBetter() {
		return "TB"
	}
	return "LR"
}

// clusterNote and topicNote are the annotations of a cluster or topic
// (zero without notes).
func (g *graph) clusterNote(c graphCluster) graphNote {
	if g.notes == nil || c.global {
		return graphNote{}
	}
	return g.notes.clusters[c.sub]
}

func (g *graph) topicNote(t string) graphNote {
	if g.notes == nil {
		return graphNote{}
	}
	return g.notes.topics[t]
}

// withNote appends a note as a second label line.
func withNote(label, note string) string {
	if note == "" {
		return label
	}
	return label + "\n" + note
}
