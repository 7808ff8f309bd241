package format

// The JSON and YAML document of --describe --topology. Field names are the
// schema documented in docs/schema.md; json and yaml tags are kept identical by
// TestSchemaTags. Sets (topics, stores, successors, predecessors) are sorted
// as in the text view; subtopologies and nodes keep the broker's order.

import (
	"errors"

	"github.com/kstreams-groups/kstreams-groups/internal/describe"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// DescribeDoc is the top-level describe document.
type DescribeDoc struct {
	Groups []GroupDoc `json:"groups" yaml:"groups"`
}

// GroupDoc is one described group.
type GroupDoc struct {
	Group       string     `json:"group" yaml:"group"`
	Coordinator *BrokerDoc `json:"coordinator,omitempty" yaml:"coordinator,omitempty"`
	State       string     `json:"state,omitempty" yaml:"state,omitempty"`
	// The epochs are pointers so that a group that could not be described
	// holds its error and nothing else, not zeroed epochs beside it.
	GroupEpoch                *int32       `json:"group_epoch,omitempty" yaml:"group_epoch,omitempty"`
	AssignmentEpoch           *int32       `json:"assignment_epoch,omitempty" yaml:"assignment_epoch,omitempty"`
	TopologyEpoch             *int32       `json:"topology_epoch,omitempty" yaml:"topology_epoch,omitempty"`
	AssignorName              *string      `json:"assignor_name,omitempty" yaml:"assignor_name,omitempty"`
	TopologyDescriptionStatus string       `json:"topology_description_status,omitempty" yaml:"topology_description_status,omitempty"`
	TopologyDescription       *TopologyDoc `json:"topology_description,omitempty" yaml:"topology_description,omitempty"`
	// MemberCount, Members and Offsets belong to the state, members and
	// offsets views (state.go); the topology view leaves them out.
	MemberCount *int         `json:"member_count,omitempty" yaml:"member_count,omitempty"`
	Members     *[]MemberDoc `json:"members,omitempty" yaml:"members,omitempty"`
	Offsets     *[]OffsetDoc `json:"offsets,omitempty" yaml:"offsets,omitempty"`
	Error       *ErrorDoc    `json:"error,omitempty" yaml:"error,omitempty"`
}

// BrokerDoc is a broker, for example a group's coordinator.
type BrokerDoc struct {
	ID   int32  `json:"id" yaml:"id"`
	Host string `json:"host" yaml:"host"`
	Port int32  `json:"port" yaml:"port"`
}

// NewBrokerDoc converts a broker for documents; nil stays nil.
func NewBrokerDoc(b *kafka.Broker) *BrokerDoc {
	if b == nil {
		return nil
	}
	return &BrokerDoc{ID: b.ID, Host: b.Host, Port: b.Port}
}

// ErrorDoc is a per-group error.
type ErrorDoc struct {
	// Code is Kafka's error code, when Kafka answered one.
	Code *int16 `json:"code,omitempty" yaml:"code,omitempty"`
	// Name is Kafka's error name (GROUP_ID_NOT_FOUND) or a kind of ours
	// (kafka.Class.Name): UNAVAILABLE, BROKER_TOO_OLD, MALFORMED_RESPONSE,
	// AUTHENTICATION_FAILED, TLS_FAILED, ERROR.
	Name    string `json:"name" yaml:"name"`
	Message string `json:"message" yaml:"message"`
}

// NewErrorDoc is err in documents, named by kafka.Classify, the
// classification the exit code uses too; nil for a nil err.
func NewErrorDoc(err error) *ErrorDoc {
	if err == nil {
		return nil
	}
	c := kafka.Classify(err)
	msg := c.Message
	var ke *kafka.Error
	if errors.As(err, &ke) {
		msg = ke.Message
	}
	return &ErrorDoc{Code: c.Code, Name: c.Name, Message: msg}
}

// mapAll is f of each of xs; never nil, so that an empty list is [] in
// documents, not null.
func mapAll[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

// NewDescribeDoc builds the document of a describe result.
func NewDescribeDoc(res *describe.Result) DescribeDoc {
	doc := DescribeDoc{Groups: make([]GroupDoc, 0, len(res.Groups))}
	for _, g := range res.Groups {
		d := GroupDoc{Group: g.Group, Coordinator: NewBrokerDoc(g.Coordinator)}
		if g.Err != nil {
			d.Error = NewErrorDoc(g.Err)
		} else {
			d.State, d.GroupEpoch, d.AssignmentEpoch, d.TopologyEpoch, d.AssignorName = g.State, &g.GroupEpoch, &g.AssignmentEpoch, &g.TopologyEpoch, g.AssignorName
			d.TopologyDescriptionStatus = g.TopologyStatus.String()
			d.TopologyDescription = NewTopologyDoc(g.Topology)
			addViewFields(&d, g, res.View)
		}
		doc.Groups = append(doc.Groups, d)
	}
	return doc
}

// TopologyDoc is a topology description in documents. One made by
// NewTopologyDoc holds the model instead of its fields, and Encode writes
// it straight from the model (encode.go); one read back (TopologyInput)
// holds the fields.
type TopologyDoc struct {
	Subtopologies []SubtopologyDoc `json:"subtopologies" yaml:"subtopologies"`
	GlobalStores  []GlobalStoreDoc `json:"global_stores" yaml:"global_stores"`

	model *topology.Description `json:"-" yaml:"-"`
	// marker stands for the model in the library's output (Encode).
	marker string `json:"-" yaml:"-"`
}

// SubtopologyDoc is one subtopology; nodes keep the broker's order.
type SubtopologyDoc struct {
	ID    string    `json:"id" yaml:"id"`
	Nodes []NodeDoc `json:"nodes" yaml:"nodes"`
}

// GlobalStoreDoc is a global store, numbered as in the text view.
type GlobalStoreDoc struct {
	ID        int     `json:"id" yaml:"id"`
	Source    NodeDoc `json:"source" yaml:"source"`
	Processor NodeDoc `json:"processor" yaml:"processor"`
}

// NodeDoc is one node. Each kind has its own fields: topics (sources; []
// for a pattern source), stores (processors), topic (sinks; null for a
// dynamic sink). Sets are sorted, but the stores of a description read
// back, which keep the order it gave (Stores).
type NodeDoc struct {
	Name         string    `json:"name" yaml:"name"`
	Type         string    `json:"type" yaml:"type"`
	Topics       *[]string `json:"topics,omitempty" yaml:"topics,omitempty"`
	TopicPattern string    `json:"topic_pattern,omitempty" yaml:"topic_pattern,omitempty"`
	Stores       *[]string `json:"stores,omitempty" yaml:"stores,omitempty"`
	Topic        **string  `json:"topic,omitempty" yaml:"topic,omitempty"`
	// TopicExtractor is a dynamic sink's TopicNameExtractor class, known
	// only when rendering a Topology#describe() text.
	TopicExtractor string   `json:"topic_extractor,omitempty" yaml:"topic_extractor,omitempty"`
	Successors     []string `json:"successors" yaml:"successors"`
	Predecessors   []string `json:"predecessors" yaml:"predecessors"`
}

// NewTopologyDoc is the document of a model, for Encode; nil stays nil.
func NewTopologyDoc(d *topology.Description) *TopologyDoc {
	if d == nil {
		return nil
	}
	return &TopologyDoc{model: d}
}

func newNodeDoc(n *topology.Node) NodeDoc { return nodeDoc(n, false) }

// nodeDoc is n's document, its stores as Stores shows them.
func nodeDoc(n *topology.Node, storesAsGiven bool) NodeDoc {
	d := NodeDoc{Name: n.Name, Type: n.Kind.String(), Successors: sortedCopy(n.Successors), Predecessors: sortedCopy(n.Predecessors)}
	switch n.Kind {
	case topology.Source:
		t := sortedCopy(n.Topics)
		d.Topics, d.TopicPattern = &t, n.Pattern
	case topology.Processor:
		st := append([]string{}, Stores(n.Stores, storesAsGiven)...)
		d.Stores = &st
	case topology.Sink:
		t := n.Topic
		d.Topic, d.TopicExtractor = &t, n.Extractor
	}
	return d
}

func newGlobalStoreDoc(g *topology.GlobalStore) GlobalStoreDoc {
	return GlobalStoreDoc{ID: g.ID, Source: newNodeDoc(g.Source), Processor: newNodeDoc(g.Processor)}
}

func sortedCopy(xs []string) []string {
	return append([]string{}, SortedSet(xs)...)
}

// TopologyInput is what a kstreams-groups JSON or YAML document holding a
// topology may be, for reading one back (render): a describe document
// (groups), a bare topology description as render -o json|yaml writes it,
// or one group's topology_description. It is made of the document types
// above, so the schema is defined once.
type TopologyInput struct {
	DescribeDoc         `json:",inline" yaml:",inline"`
	TopologyDoc         `json:",inline" yaml:",inline"`
	TopologyDescription *TopologyDoc `json:"topology_description" yaml:"topology_description"`
}
