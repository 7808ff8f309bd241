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

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/kstreams-groups/kstreams-groups/internal/format/picture"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

type graph struct {
	clusters []graphCluster
	topics   []string // sorted; id "t<i>"
	stores   []string // sorted; id "s<i>"
	edges    []graphEdge
	// notes annotate the drawing (the overview's task counts and lag);
	// nil draws the plain topology.
	notes *graphNotes
}

type graphCluster struct {
	id, label string
	global    bool
	nodes     []graphNode
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
}

type graphNote struct {
	label string
	// color is a border (clusters) or fill (topics) color, "" for the
	// default; width a border width, 0 for the default.
	color string
	width float64
}

type graphNode struct {
	id   string
	node *topology.Node
}

type edgeKind int

const (
	flowEdge  edgeKind = iota // node --> successor
	readEdge                  // topic --> source
	writeEdge                 // sink --> topic
	storeEdge                 // processor --- store
)

type graphEdge struct {
	from, to string
	kind     edgeKind
}

func buildGraph(d *topology.Description) *graph {
	g := &graph{}
	var topics, stores []string
	type owned struct {
		cluster int
		node    *topology.Node
	}
	var all []owned
	addCluster := func(label string, global bool, sub string, nodes []*topology.Node) {
		ci := len(g.clusters)
		c := graphCluster{id: "c" + strconv.Itoa(ci), label: label, global: global, sub: sub}
		for ni, n := range nodes {
			c.nodes = append(c.nodes, graphNode{id: c.id + "n" + strconv.Itoa(ni), node: n})
			all = append(all, owned{ci, n})
			topics = append(topics, n.Topics...)
			if n.Topic != nil {
				topics = append(topics, *n.Topic)
			}
			stores = append(stores, n.Stores...)
		}
		g.clusters = append(g.clusters, c)
	}
	for _, s := range d.Subtopologies {
		addCluster("Sub-topology: "+s.ID, false, s.ID, s.Nodes)
	}
	for i, gs := range d.GlobalStores {
		addCluster("Sub-topology: "+strconv.Itoa(len(d.Subtopologies)+i)+" for global store", true, "", []*topology.Node{gs.Source, gs.Processor})
	}
	g.topics, g.stores = SortedSet(topics), SortedSet(stores)
	topicID := func(t string) string { return "t" + strconv.Itoa(slices.Index(g.topics, t)) }
	storeID := func(s string) string { return "s" + strconv.Itoa(slices.Index(g.stores, s)) }

	for _, c := range g.clusters {
		// Successors are resolved within the node's own cluster, as Kafka
		// resolves predecessors.
		byName := map[string]string{}
		for _, n := range c.nodes {
			if _, dup := byName[n.node.Name]; !dup {
				byName[n.node.Name] = n.id
			}
		}
		for _, n := range c.nodes {
			for _, t := range SortedSet(n.node.Topics) {
				g.edges = append(g.edges, graphEdge{topicID(t), n.id, readEdge})
			}
			for _, s := range SortedSet(n.node.Successors) {
				if to, ok := byName[s]; ok {
					g.edges = append(g.edges, graphEdge{n.id, to, flowEdge})
				}
			}
			for _, s := range SortedSet(n.node.Stores) {
				g.edges = append(g.edges, graphEdge{n.id, storeID(s), storeEdge})
			}
			if n.node.Kind == topology.Sink && n.node.Topic != nil {
				g.edges = append(g.edges, graphEdge{n.id, topicID(*n.node.Topic), writeEdge})
			}
		}
	}
	return g
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
		var dot bytes.Buffer
		if err := TopologyDot(&dot, name, d); err != nil {
			return err
		}
		return RenderPicture(w, o, dot.Bytes())
	}
	return fmt.Errorf("format %q does not draw a topology", o)
}

// RenderPicture lays out a dot document and writes it as -o svg or png.
func RenderPicture(w io.Writer, o Output, dot []byte) error {
	f := picture.SVG
	if o == PNG {
		f = picture.PNG
	}
	return picture.Render(context.Background(), dot, f, w)
}

// direction is the drawing's rank direction: LR, or TB with topDown notes.
func (g *graph) direction() string {
	if g.notes != nil && g.notes.topDown {
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
