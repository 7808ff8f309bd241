// Package topologytest builds topology models and their wire form for tests:
// a compact constructor syntax, Kafka's formatter-test fixtures and
// generated large topologies. Its single job is test data; production code
// never imports it.
package topologytest

import (
	"fmt"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// Src is a source node.
func Src(name string, topics []string, succ ...string) *topology.Node {
	return &topology.Node{Name: name, Kind: topology.Source, Topics: orEmpty(topics), Successors: orEmpty(succ), Predecessors: []string{}}
}

// Proc is a processor node.
func Proc(name string, stores []string, succ ...string) *topology.Node {
	return &topology.Node{Name: name, Kind: topology.Processor, Stores: orEmpty(stores), Successors: orEmpty(succ), Predecessors: []string{}}
}

// Sink is a sink node; an empty topic means a dynamic sink.
func Sink(name, topic string) *topology.Node {
	n := &topology.Node{Name: name, Kind: topology.Sink, Successors: []string{}, Predecessors: []string{}}
	if topic != "" {
		n.Topic = &topic
	}
	return n
}

// Sub is a subtopology whose predecessors are rebuilt from successors.
func Sub(id string, nodes ...*topology.Node) *topology.Subtopology {
	topology.LinkPredecessors(nodes)
	return &topology.Subtopology{ID: id, Nodes: nodes}
}

// Desc builds a description; global stores are given as source, processor
// pairs and numbered after the subtopologies.
func Desc(subs []*topology.Subtopology, globals ...[2]*topology.Node) *topology.Description {
	d := &topology.Description{Subtopologies: orEmptySubs(subs), GlobalStores: []*topology.GlobalStore{}}
	for i, g := range globals {
		topology.LinkPredecessors([]*topology.Node{g[0], g[1]})
		d.GlobalStores = append(d.GlobalStores, &topology.GlobalStore{ID: len(d.Subtopologies) + i, Source: g[0], Processor: g[1]})
	}
	return d
}

// WordCount is the description a Kafka Streams word count with a repartition
// step and a global store pushes.
func WordCount() *topology.Description {
	return Desc([]*topology.Subtopology{
		Sub("0",
			Src("KSTREAM-SOURCE-0000000000", []string{"words-input"}, "KSTREAM-FLATMAPVALUES-0000000001"),
			Proc("KSTREAM-FLATMAPVALUES-0000000001", nil, "KSTREAM-KEY-SELECT-0000000002"),
			Proc("KSTREAM-KEY-SELECT-0000000002", nil, "counts-repartition-filter"),
			Proc("counts-repartition-filter", nil, "counts-repartition-sink"),
			Sink("counts-repartition-sink", "word-count-counts-repartition"),
		),
		Sub("1",
			Src("counts-repartition-source", []string{"word-count-counts-repartition"}, "KSTREAM-AGGREGATE-0000000003"),
			Proc("KSTREAM-AGGREGATE-0000000003", []string{"counts"}, "KTABLE-TOSTREAM-0000000007"),
			Proc("KTABLE-TOSTREAM-0000000007", nil, "KSTREAM-SINK-0000000008"),
			Sink("KSTREAM-SINK-0000000008", "words-output"),
		),
	}, [2]*topology.Node{
		Src("KSTREAM-SOURCE-0000000009", []string{"stopwords"}, "KTABLE-SOURCE-0000000010"),
		Proc("KTABLE-SOURCE-0000000010", []string{"stopwords-store"}),
	})
}

// Large builds a description of about n nodes: chains of 10 nodes per
// subtopology (source, 8 processors with a store each, sink), plus a global
// store per 100 subtopologies.
func Large(n int) *topology.Description {
	var subs []*topology.Subtopology
	var globals [][2]*topology.Node
	for s := 0; s*10 < n; s++ {
		nodes := make([]*topology.Node, 0, 10)
		name := func(i int) string { return fmt.Sprintf("KSTREAM-NODE-%04d-%010d", s, i) }
		nodes = append(nodes, Src(name(0), []string{fmt.Sprintf("topic-%d-b", s), fmt.Sprintf("topic-%d-a", s)}, name(1)))
		for i := 1; i <= 8; i++ {
			nodes = append(nodes, Proc(name(i), []string{fmt.Sprintf("store-%d-%d", s, i)}, name(i+1)))
		}
		nodes = append(nodes, Sink(name(9), fmt.Sprintf("out-%d", s)))
		subs = append(subs, Sub(fmt.Sprint(s), nodes...))
		if s%100 == 99 {
			globals = append(globals, [2]*topology.Node{
				Src(fmt.Sprintf("global-src-%d", s), []string{fmt.Sprintf("global-%d", s)}, fmt.Sprintf("global-proc-%d", s)),
				Proc(fmt.Sprintf("global-proc-%d", s), []string{fmt.Sprintf("global-store-%d", s)}),
			})
		}
	}
	return Desc(subs, globals...)
}

// Generated builds a description of subs sub-topologies shaped as a
// Kafka Streams DSL application names them: source, filter, mapValues,
// aggregate with its store, toStream, sink, every name from one counter
// that starts at first (so first 1 is an operator added upstream: every
// generated name shifts). Every sub-topology has the same node families,
// so only its topics and stores tell it from another; sinkPrefix names
// the sink topics (<sinkPrefix>-<n>). 1,000 sub-topologies are about
// 0.8 MB of text.
func Generated(subs, first int, sinkPrefix string) *topology.Description {
	k := first
	next := func(prefix string) string {
		k++
		return fmt.Sprintf("%s%010d", prefix, k-1)
	}
	out := make([]*topology.Subtopology, 0, subs)
	for s := range subs {
		src, filter, mapValues, agg := next("KSTREAM-SOURCE-"), next("KSTREAM-FILTER-"), next("KSTREAM-MAPVALUES-"), next("KSTREAM-AGGREGATE-")
		store := next("KSTREAM-AGGREGATE-STATE-STORE-")
		toStream, sink := next("KTABLE-TOSTREAM-"), next("KSTREAM-SINK-")
		out = append(out, Sub(fmt.Sprint(s),
			Src(src, []string{fmt.Sprintf("input-%d", s)}, filter),
			Proc(filter, nil, mapValues),
			Proc(mapValues, nil, agg),
			Proc(agg, []string{store}, toStream),
			Proc(toStream, nil, sink),
			Sink(sink, fmt.Sprintf("%s-%d", sinkPrefix, s)),
		))
	}
	return Desc(out)
}

// ToWire converts a model back to the StreamsGroupDescribe v1 wire struct,
// dropping predecessors as Kafka does.
func ToWire(d *topology.Description) *kmsg.StreamsGroupDescribeResponseGroupTopologyDescription {
	w := &kmsg.StreamsGroupDescribeResponseGroupTopologyDescription{}
	for _, s := range d.Subtopologies {
		ws := kmsg.TopologyDescriptionSubtopology{SubtopologyID: s.ID}
		for _, n := range s.Nodes {
			ws.Nodes = append(ws.Nodes, nodeToWire(n))
		}
		w.Subtopologies = append(w.Subtopologies, ws)
	}
	for _, g := range d.GlobalStores {
		w.GlobalStores = append(w.GlobalStores, kmsg.TopologyDescriptionGlobalStore{Source: nodeToWire(g.Source), Processor: nodeToWire(g.Processor)})
	}
	return w
}

func nodeToWire(n *topology.Node) kmsg.TopologyDescriptionNode {
	return kmsg.TopologyDescriptionNode{
		Name: n.Name, NodeType: int8(n.Kind), SourceTopics: n.Topics, SinkTopic: n.Topic,
		Stores: n.Stores, Successors: n.Successors,
	}
}

func orEmpty(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

func orEmptySubs(xs []*topology.Subtopology) []*topology.Subtopology {
	if xs == nil {
		return []*topology.Subtopology{}
	}
	return xs
}

// NodeCount is the number of nodes of d, global-store nodes included, for
// benchmark figures.
func NodeCount(d *topology.Description) int {
	n := 2 * len(d.GlobalStores)
	for _, s := range d.Subtopologies {
		n += len(s.Nodes)
	}
	return n
}

// Application builds a description of about subs sub-topologies mixing the
// shapes a real application has, for the diff benchmarks: DSL chains whose
// repartition topic the next sub-topology reads, joins with two stores and
// a fan-out into branches, Processor API sub-topologies with chosen names
// (some with a pattern source or a dynamic sink), one wide sub-topology
// (a source with hundreds of branches) per 500, and a global store per 4.
// changed gives the NEW side of an upgrade: an operator added upstream
// (every generated name shifts), every 10th sub-topology removed, one added
// after every 13th, the ids renumbered in that order (sub-topologies move),
// every 7th Processor API sub-topology renamed throughout (its nodes and
// the repartition topic it writes), every 11th DSL repartition topic and
// every 17th store renamed, every 9th sink writing another topic, every
// 5th global store replaced. 18,000 sub-topologies are about 20 MB of text.
func Application(subs int, changed bool) *topology.Description {
	g := &appGen{changed: changed}
	if changed {
		g.k = 1
	}
	var out []*topology.Subtopology
	var globals [][2]*topology.Node
	for s := range subs {
		if !(changed && s%10 == 9) {
			out = append(out, g.sub(s))
		}
		if changed && s%13 == 12 {
			out = append(out, g.sub(subs+s)) // a sub-topology only NEW has
		}
		if s%4 == 3 {
			gs := s
			if changed && s%20 == 19 {
				gs = subs + s // replaced
			}
			globals = append(globals, [2]*topology.Node{
				Src(fmt.Sprintf("global-source-%d", gs), []string{fmt.Sprintf("global-topic-%d", gs)}, fmt.Sprintf("global-processor-%d", gs)),
				Proc(fmt.Sprintf("global-processor-%d", gs), []string{fmt.Sprintf("global-store-%d", gs)}),
			})
		}
	}
	for i, s := range out {
		s.ID = fmt.Sprint(i)
	}
	return Desc(out, globals...)
}

// appGen numbers the generated names of Application from one counter, as
// a StreamsBuilder does.
type appGen struct {
	k       int
	changed bool
}

func (g *appGen) next(prefix string) string {
	g.k++
	return fmt.Sprintf("%s%010d", prefix, g.k-1)
}

// renamed is name with a suffix on the NEW side when every-th of i.
func (g *appGen) renamed(name string, i, every int) string {
	if g.changed && i%every == every-1 {
		return name + "-v2"
	}
	return name
}

func (g *appGen) sub(s int) *topology.Subtopology {
	switch {
	case s%500 == 250:
		return g.wide(s)
	case s%3 == 0:
		return g.chain(s)
	case s%3 == 1:
		return g.join(s)
	}
	return g.processorAPI(s)
}

// chain is source, filter, selectKey and a repartition sink the next
// sub-topology reads: a DSL groupBy.
func (g *appGen) chain(s int) *topology.Subtopology {
	src, filter, sel := g.next("KSTREAM-SOURCE-"), g.next("KSTREAM-FILTER-"), g.next("KSTREAM-KEY-SELECT-")
	op := g.renamed(fmt.Sprintf("by-key-%d", s), s, 11)
	in := fmt.Sprintf("orders-%d", s)
	if s > 0 && (s-1)%3 == 0 {
		in = fmt.Sprintf("by-key-%d-repartition", s-1)
	}
	return Sub("",
		Src(src, []string{in}, filter),
		Proc(filter, nil, sel),
		Proc(sel, nil, op+"-repartition-filter"),
		Proc(op+"-repartition-filter", nil, op+"-repartition-sink"),
		Sink(op+"-repartition-sink", op+"-repartition"),
	)
}

// join reads the previous chain's repartition topic and a table, joins
// them with two stores and branches into three sinks.
func (g *appGen) join(s int) *topology.Subtopology {
	op := g.renamed(fmt.Sprintf("by-key-%d", s-1), s-1, 11)
	left, right := op+"-repartition-source", g.next("KTABLE-SOURCE-")
	store := g.renamed(fmt.Sprintf("table-%d-store", s), s, 17)
	agg, aggStore := g.next("KSTREAM-AGGREGATE-"), g.next("KSTREAM-AGGREGATE-STATE-STORE-")
	joinP, branch := g.next("KSTREAM-LEFTJOIN-"), g.next("KSTREAM-BRANCH-")
	nodes := []*topology.Node{
		Src(left, []string{op + "-repartition"}, agg),
		Src(right+"-source", []string{fmt.Sprintf("table-%d", s)}, right),
		Proc(right, []string{store}, joinP),
		Proc(agg, []string{aggStore}, joinP),
		Proc(joinP, []string{store, aggStore}, branch),
	}
	var outs []string
	for b := range 3 {
		child, sink := g.next("KSTREAM-BRANCHCHILD-"), g.next("KSTREAM-SINK-")
		topic := fmt.Sprintf("result-%d-%d", s, b)
		if g.changed && s%9 == 1 && b == 0 {
			topic += "-v2"
		}
		outs = append(outs, child)
		nodes = append(nodes, Proc(child, nil, sink), Sink(sink, topic))
	}
	nodes = append(nodes, Proc(branch, nil, outs...))
	return Sub("", nodes...)
}

// processorAPI is a sub-topology whose every name the user chose; it
// writes a topic another application reads as a repartition topic.
func (g *appGen) processorAPI(s int) *topology.Subtopology {
	name := func(what string) string { return g.renamed(fmt.Sprintf("%s-%d", what, s), s, 7) }
	src := Src(fmt.Sprintf("events-source-%d", s), []string{fmt.Sprintf("events-%d", s)}, name("validate"))
	if s%50 == 2 {
		src.Topics, src.Pattern = []string{}, fmt.Sprintf("events-%d-.*", s)
	}
	sink := Sink(name("audit-sink"), name("audit")+"-repartition")
	if s%50 == 5 {
		sink = Sink(name("audit-sink"), "")
		sink.Extractor = "com.example.AuditTopics"
	}
	return Sub("",
		src,
		Proc(name("validate"), nil, name("enrich")),
		Proc(name("enrich"), []string{g.renamed(fmt.Sprintf("profiles-%d", s), s, 17)}, name("dedupe")),
		Proc(name("dedupe"), []string{fmt.Sprintf("seen-%d", s)}, sink.Name),
		sink,
	)
}

// wide is a source with 300 branches, each a filter and a sink.
func (g *appGen) wide(s int) *topology.Subtopology {
	src := g.next("KSTREAM-SOURCE-")
	nodes := []*topology.Node{nil}
	var children []string
	for b := range 300 {
		f, sink := g.next("KSTREAM-FILTER-"), g.next("KSTREAM-SINK-")
		children = append(children, f)
		nodes = append(nodes, Proc(f, nil, sink), Sink(sink, fmt.Sprintf("fanout-%d-%d", s, b)))
	}
	nodes[0] = Src(src, []string{fmt.Sprintf("firehose-%d", s)}, children...)
	return Sub("", nodes...)
}
