package diff

import (
	"fmt"
	"strings"
)

// Severity says what a finding does to a running application when the new
// topology is deployed over it.
type Severity int

// The severities, least severe first.
const (
	// Info: nothing is lost (a stateless processor added or removed).
	Info Severity = iota
	// Warning: nothing is lost yet, but the change needs a look or the
	// comparison could not be complete.
	Warning
	// Breaking: state or records in flight are abandoned.
	Breaking
)

var severityNames = []string{"info", "warning", "breaking"}

// String is the severity as documents and --fail-on spell it.
func (s Severity) String() string {
	if s >= 0 && int(s) < len(severityNames) {
		return severityNames[s]
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// ParseSeverity reads a severity as String writes it.
func ParseSeverity(s string) (Severity, error) {
	for i, n := range severityNames {
		if strings.EqualFold(s, n) {
			return Severity(i), nil
		}
	}
	return 0, fmt.Errorf("want breaking, warning or info, got %q", s)
}

// Kind is what a finding is about; its name is stable (documents carry it).
type Kind string

// The findings, in the order they are listed within a severity.
const (
	TopologyRefused       Kind = "topology-refused"
	StoreRenamed          Kind = "store-renamed"
	StoreRemoved          Kind = "store-removed"
	ChangelogRenamed      Kind = "changelog-renamed"
	ChangelogRemoved      Kind = "changelog-removed"
	RepartitionRenamed    Kind = "repartition-renamed"
	RepartitionRemoved    Kind = "repartition-removed"
	SourceRemoved         Kind = "source-removed"
	SubtopologyRenumbered Kind = "subtopology-renumbered"
	GlobalStoreChanged    Kind = "global-store-changed"
	GlobalStoreRemoved    Kind = "global-store-removed"

	GeneratedNameShifted Kind = "generated-name-shifted"
	SinkChanged          Kind = "sink-changed"
	SourceAdded          Kind = "source-added"
	DynamicNode          Kind = "dynamic-node"

	ProcessorAdded   Kind = "processor-added"
	ProcessorRemoved Kind = "processor-removed"
	StoreAdded       Kind = "store-added"
	GlobalStoreAdded Kind = "global-store-added"
)

// KindInfo documents one kind of finding.
type KindInfo struct {
	Kind     Kind
	Severity Severity
	// When says when the finding is made, for help and the README.
	When string
}

// Kinds lists every kind of finding with its severity, in listing order.
func Kinds() []KindInfo {
	return []KindInfo{
		{TopologyRefused, Breaking, "OLD is a group and NEW's sub-topologies, source, repartition or changelog topics are not the ones the broker keeps for it: the broker refuses NEW's members (INVALID_REQUEST: Topology updates are not supported yet) until the group is deleted"},
		{StoreRenamed, Breaking, "a state store has another name: the new store starts empty and the old one's local state is abandoned"},
		{StoreRemoved, Breaking, "a state store is gone: its local state and changelog are abandoned"},
		{ChangelogRenamed, Breaking, "a store's changelog topic has another name: the old changelog is orphaned and nothing restores the new store"},
		{ChangelogRemoved, Breaking, "a changelog topic is no longer written: what it holds is orphaned"},
		{RepartitionRenamed, Breaking, "a repartition topic has another name: records in flight in the old one are never read"},
		{RepartitionRemoved, Breaking, "a repartition topic is no longer used: records in flight in it are never read"},
		{SourceRemoved, Breaking, "a source topic is no longer read"},
		{SubtopologyRenumbered, Breaking, "a sub-topology has another id, with the same content or not: its task ids, and with them the state directories, change"},
		{GlobalStoreChanged, Breaking, "a global store reads another topic or keeps another store"},
		{GlobalStoreRemoved, Breaking, "a global store is gone"},
		{GeneratedNameShifted, Warning, "an auto-generated node or store name shifted (an operator was added or removed upstream); naming the operator (Named.as, Materialized.as) pins it"},
		{SinkChanged, Warning, "a sink writes another topic, a topic is no longer written, or a new one is"},
		{SourceAdded, Warning, "a source topic is read that was not (the group has no committed offsets for it: auto.offset.reset decides where it starts)"},
		{DynamicNode, Warning, "a pattern source or a dynamic sink (TopicNameExtractor) is involved: the broker carries neither the pattern nor the topics, so they cannot be compared"},
		{ProcessorAdded, Info, "a processor without state is added"},
		{ProcessorRemoved, Info, "a processor without state is removed"},
		{StoreAdded, Info, "a new state store (it starts empty)"},
		{GlobalStoreAdded, Info, "a new global store (it is loaded from its topic at start)"},
	}
}

// Severity is the kind's severity.
func (k Kind) Severity() Severity {
	if i := k.order(); i < len(kinds) {
		return kinds[i].Severity
	}
	return Info
}

func (k Kind) order() int {
	for i, info := range kinds {
		if info.Kind == k {
			return i
		}
	}
	return len(kinds)
}

// kinds is Kinds, built once: a large comparison asks for a severity
// millions of times.
var kinds = Kinds()

// Finding is one consequence of deploying NEW over OLD.
type Finding struct {
	Kind Kind
	// OldSubtopology and NewSubtopology are where the finding is: the
	// sub-topology's id in OLD and in NEW, "" on a side that has none.
	OldSubtopology, NewSubtopology string
	// GlobalStore names the global store a finding is about (its stores,
	// as OLD has them when it has the store); "" for other findings.
	GlobalStore string
	// Subject is what Old and New name: "store", "topic", "sub-topology",
	// or a node kind ("source", "processor", "sink"); for DynamicNode,
	// "pattern source" or "dynamic sink".
	Subject string
	// Old and New are the names on each side, "" on a side without it.
	Old, New string
	// Node is the node through which a store or topic is found (the
	// processor keeping a store, the sink writing a topic), when there is
	// one.
	Node string
	// SameContent is set for a renumbered sub-topology whose nodes did not
	// change.
	SameContent bool
}

// Severity is the finding's severity.
func (f Finding) Severity() Severity { return f.Kind.Severity() }

// Generated tells whether the finding's OLD name was auto-generated, so
// that naming it would have kept it.
func (f Finding) Generated() bool { return isGenerated(f.Old) }
