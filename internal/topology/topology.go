// Package topology is the model of a KIP-1331 topology description: the
// subtopologies, nodes and global stores a Kafka Streams application pushed to
// the broker, with predecessors rebuilt from successors. Its single job is to
// hold that model and rebuild predecessors; it never prints and never
// re-sorts what the broker sent (internal/admin converts the wire structs).
package topology

import (
	"fmt"
	"slices"
)

// Kind is the type of a topology node, numbered as on the wire.
type Kind int8

// Wire node types (StreamsGroupDescribeResponse TopologyDescriptionNode.NodeType).
const (
	Source    Kind = 1
	Processor Kind = 2
	Sink      Kind = 3
)

// String returns the lower-case kind name that documents use.
func (k Kind) String() string {
	switch k {
	case Source:
		return "source"
	case Processor:
		return "processor"
	case Sink:
		return "sink"
	}
	return fmt.Sprintf("unknown(%d)", int8(k))
}

// ParseKind parses a kind name as String writes it.
func ParseKind(name string) (Kind, error) {
	for _, k := range []Kind{Source, Processor, Sink} {
		if name == k.String() {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown node type %q (want source, processor or sink)", name)
}

// Node is one processor-graph node. Topics, Stores, Successors and
// Predecessors are sets on the Java side; they are kept here in wire order and
// sorted only by formatters that need a stable rendering.
type Node struct {
	Name string
	Kind Kind
	// Topics are a source's topics; empty for a pattern-subscribed source.
	Topics []string
	// Pattern is a pattern-subscribed source's regex. The broker does not
	// carry it (such a source has no topics on the wire); only a
	// Topology#describe() text does.
	Pattern string
	// Topic is a sink's topic; nil for a dynamic (TopicNameExtractor) sink.
	Topic *string
	// Extractor is a dynamic sink's TopicNameExtractor class, known only
	// from a Topology#describe() text.
	Extractor    string
	Stores       []string
	Successors   []string
	Predecessors []string
}

// Subtopology is one sub-graph that generates tasks, with its nodes in the
// order the broker sent them.
type Subtopology struct {
	ID    string
	Nodes []*Node
}

// GlobalStore is a global state store: exactly one source feeding one
// processor. ID is its number in Kafka's rendering, counted from the number
// of subtopologies.
type GlobalStore struct {
	ID        int
	Source    *Node
	Processor *Node
}

// Description is a whole topology description.
type Description struct {
	Subtopologies []*Subtopology
	GlobalStores  []*GlobalStore
	// StoresAsGiven tells that a processor's stores are listed in the
	// order to show: the order a text or document read back gives them
	// (Kafka Streams' Topology#describe() prints a HashSet's order), so
	// that it comes back byte for byte. Otherwise (the broker's) they are
	// shown sorted, as Kafka's tool sorts them.
	StoresAsGiven bool
}

// LinkPredecessors rebuilds every node's predecessors by inverting the
// successor lists among nodes, as Kafka's admin client does (the wire carries
// successors only). Names are matched as Kafka matches them: a successor that
// names no node in the slice adds nothing, and nodes sharing a name share
// their predecessors. Each list keeps the first-seen order with every name
// once. Time and memory are linear in the number of successor entries,
// whatever a node's fan-in.
func LinkPredecessors(nodes []*Node) {
	preds := make(map[string][]string, len(nodes))
	for _, n := range nodes {
		for _, s := range n.Successors {
			ps := preds[s]
			if len(ps) > 0 && ps[len(ps)-1] == n.Name {
				continue // the same node listing s twice
			}
			preds[s] = append(ps, n.Name)
		}
	}
	for s, ps := range preds {
		preds[s] = slices.Clip(dedupe(ps))
	}
	for _, n := range nodes {
		if ps := preds[n.Name]; ps != nil {
			n.Predecessors = ps
		} else {
			n.Predecessors = []string{}
		}
	}
}

// dedupe drops later repeats of a name, in place: by scanning for short
// lists, with a set for long ones.
func dedupe(xs []string) []string {
	if len(xs) < 2 {
		return xs
	}
	out := xs[:0]
	if len(xs) <= 16 {
		for _, x := range xs {
			if !slices.Contains(out, x) {
				out = append(out, x)
			}
		}
		return out
	}
	seen := make(map[string]struct{}, len(xs))
	for _, x := range xs {
		if _, dup := seen[x]; !dup {
			seen[x] = struct{}{}
			out = append(out, x)
		}
	}
	return out
}
