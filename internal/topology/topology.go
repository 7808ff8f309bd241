// Package topology is the model of a KIP-1331 topology description: the
// subtopologies, nodes and global stores a Kafka Streams application pushed to
// the broker, with predecessors rebuilt from successors. Its single job is to
// turn the StreamsGroupDescribe v1 wire structs into that model and to reject
// malformed ones; it never prints and never re-sorts what the broker sent.
package topology

import (
	"errors"
	"fmt"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// Kind is the type of a topology node, numbered as on the wire.
type Kind int8

// Wire node types (StreamsGroupDescribeResponse TopologyDescriptionNode.NodeType).
const (
	Source    Kind = 1
	Processor Kind = 2
	Sink      Kind = 3
)

// String returns the lower-case kind name used in JSON and YAML.
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

// MarshalText makes Kind render as its name in JSON and YAML.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText parses a kind name.
func (k *Kind) UnmarshalText(b []byte) error {
	switch string(b) {
	case "source":
		*k = Source
	case "processor":
		*k = Processor
	case "sink":
		*k = Sink
	default:
		return fmt.Errorf("unknown node type %q (want source, processor or sink)", b)
	}
	return nil
}

// Node is one processor-graph node. Topics, Stores, Successors and
// Predecessors are sets on the Java side; they are kept here in wire order and
// sorted only by formatters that need a stable rendering.
type Node struct {
	Name string `json:"name" yaml:"name"`
	Kind Kind   `json:"type" yaml:"type"`
	// Topics are a source's topics; empty for a pattern-subscribed source.
	Topics []string `json:"topics,omitempty" yaml:"topics,omitempty"`
	// Pattern is a pattern-subscribed source's regex. The broker does not
	// carry it (such a source has no topics on the wire); only a
	// Topology#describe() text does.
	Pattern string `json:"topic_pattern,omitempty" yaml:"topic_pattern,omitempty"`
	// Topic is a sink's topic; nil for a dynamic (TopicNameExtractor) sink.
	Topic *string `json:"topic,omitempty" yaml:"topic,omitempty"`
	// Extractor is a dynamic sink's TopicNameExtractor class, known only
	// from a Topology#describe() text.
	Extractor    string   `json:"topic_extractor,omitempty" yaml:"topic_extractor,omitempty"`
	Stores       []string `json:"stores,omitempty" yaml:"stores,omitempty"`
	Successors   []string `json:"successors" yaml:"successors"`
	Predecessors []string `json:"predecessors" yaml:"predecessors"`
}

// Subtopology is one sub-graph that generates tasks, with its nodes in the
// order the broker sent them.
type Subtopology struct {
	ID    string  `json:"id" yaml:"id"`
	Nodes []*Node `json:"nodes" yaml:"nodes"`
}

// GlobalStore is a global state store: exactly one source feeding one
// processor. ID is its number in Kafka's rendering, counted from the number
// of subtopologies.
type GlobalStore struct {
	ID        int   `json:"id" yaml:"id"`
	Source    *Node `json:"source" yaml:"source"`
	Processor *Node `json:"processor" yaml:"processor"`
}

// Description is a whole topology description.
type Description struct {
	Subtopologies []*Subtopology `json:"subtopologies" yaml:"subtopologies"`
	GlobalStores  []*GlobalStore `json:"global_stores" yaml:"global_stores"`
}

// NodeCount is the number of nodes, global-store nodes included.
func (d *Description) NodeCount() int {
	n := 2 * len(d.GlobalStores)
	for _, s := range d.Subtopologies {
		n += len(s.Nodes)
	}
	return n
}

// FromWire converts a StreamsGroupDescribe v1 TopologyDescription. It fails,
// with the message Kafka's admin client uses, on an unknown node type or a
// global store that is not a source plus a processor.
func FromWire(w *kmsg.StreamsGroupDescribeResponseGroupTopologyDescription) (*Description, error) {
	d := &Description{
		Subtopologies: make([]*Subtopology, 0, len(w.Subtopologies)),
		GlobalStores:  make([]*GlobalStore, 0, len(w.GlobalStores)),
	}
	for i := range w.Subtopologies {
		ws := &w.Subtopologies[i]
		s := &Subtopology{ID: ws.SubtopologyID, Nodes: make([]*Node, 0, len(ws.Nodes))}
		for j := range ws.Nodes {
			n, err := nodeFromWire(&ws.Nodes[j])
			if err != nil {
				return nil, err
			}
			s.Nodes = append(s.Nodes, n)
		}
		LinkPredecessors(s.Nodes)
		d.Subtopologies = append(d.Subtopologies, s)
	}
	for i := range w.GlobalStores {
		wg := &w.GlobalStores[i]
		src, err := nodeFromWire(&wg.Source)
		if err != nil {
			return nil, err
		}
		proc, err := nodeFromWire(&wg.Processor)
		if err != nil {
			return nil, err
		}
		if src.Kind != Source || proc.Kind != Processor {
			return nil, errors.New("Global store must be composed of a source and a processor node.")
		}
		LinkPredecessors([]*Node{src, proc})
		d.GlobalStores = append(d.GlobalStores, &GlobalStore{
			ID:        len(w.Subtopologies) + i,
			Source:    src,
			Processor: proc,
		})
	}
	return d, nil
}

func nodeFromWire(w *kmsg.TopologyDescriptionNode) (*Node, error) {
	n := &Node{Name: w.Name, Kind: Kind(w.NodeType), Successors: nonNil(w.Successors), Predecessors: []string{}}
	switch n.Kind {
	case Source:
		n.Topics = nonNil(w.SourceTopics)
	case Processor:
		n.Stores = nonNil(w.Stores)
	case Sink:
		if w.SinkTopic != nil {
			t := *w.SinkTopic
			n.Topic = &t
		}
	default:
		return nil, fmt.Errorf("Unknown topology node type: %d", w.NodeType)
	}
	return n, nil
}

// LinkPredecessors rebuilds every node's predecessors by inverting the
// successor lists among nodes, as Kafka's admin client does (the wire carries
// successors only). Names are matched as Kafka matches them: a successor that
// names no node in the slice adds nothing, and nodes sharing a name share
// their predecessors.
func LinkPredecessors(nodes []*Node) {
	preds := make(map[string][]string, len(nodes))
	for _, n := range nodes {
		for _, s := range n.Successors {
			if !contains(preds[s], n.Name) {
				preds[s] = append(preds[s], n.Name)
			}
		}
	}
	for _, n := range nodes {
		n.Predecessors = append([]string{}, preds[n.Name]...)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return append([]string(nil), xs...)
}
