package format

// A topology description's document written straight from the model, for
// TopologyDoc.lazyFields: the bytes of SubtopologyDoc, GlobalStoreDoc and
// NodeDoc (newNodeDoc) through the reflective encoder, without building
// them, since a description can have a million nodes.
// TestEncode_topologyFromTheModel and FuzzEncodeStrings compare the two.

import (
	"reflect"

	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// subtopologyRef, globalStoreRef and nodeRef stand for a SubtopologyDoc,
// GlobalStoreDoc and NodeDoc of the model.
type (
	subtopologyRef struct{ s *topology.Subtopology }
	globalStoreRef struct{ g *topology.GlobalStore }
	nodeRef        struct{ n *topology.Node }
)

var (
	subtopologyRefType = reflect.TypeFor[subtopologyRef]()
	globalStoreRefType = reflect.TypeFor[globalStoreRef]()
	nodeRefType        = reflect.TypeFor[nodeRef]()
)

// refFields are the fields of a subtopologyRef or globalStoreRef, as
// fieldsOf gives them for the documents they stand for.
func refFields(v reflect.Value) ([]docField, bool) {
	switch v.Type() {
	case subtopologyRefType:
		s := v.Interface().(subtopologyRef).s
		nodes := seq{n: len(s.Nodes), at: func(i int) reflect.Value { return reflect.ValueOf(nodeRef{s.Nodes[i]}) }}
		return []docField{{key: "id", v: reflect.ValueOf(s.ID)}, {key: "nodes", lazy: &nodes}}, true
	case globalStoreRefType:
		g := v.Interface().(globalStoreRef).g
		return []docField{{key: "id", v: reflect.ValueOf(g.ID)}, {key: "source", v: reflect.ValueOf(nodeRef{g.Source})},
			{key: "processor", v: reflect.ValueOf(nodeRef{g.Processor})}}, true
	}
	return nil, false
}

// jsonNode writes n's NodeDoc.
func (e *docEncoder) jsonNode(n *topology.Node, depth int) {
	in := 2 * (depth + 1)
	e.str("{\n")
	e.jsonKey(in, "name", false)
	writeJSONString(e, n.Name)
	e.jsonKey(in, "type", true)
	writeJSONString(e, n.Kind.String())
	switch n.Kind {
	case topology.Source:
		e.jsonKey(in, "topics", true)
		e.jsonStrings(SortedSet(n.Topics), depth+1)
		if n.Pattern != "" {
			e.jsonKey(in, "topic_pattern", true)
			writeJSONString(e, n.Pattern)
		}
	case topology.Processor:
		e.jsonKey(in, "stores", true)
		e.jsonStrings(SortedSet(n.Stores), depth+1)
	case topology.Sink:
		e.jsonKey(in, "topic", true)
		if n.Topic == nil {
			e.str("null")
		} else {
			writeJSONString(e, *n.Topic)
		}
		if n.Extractor != "" {
			e.jsonKey(in, "topic_extractor", true)
			writeJSONString(e, n.Extractor)
		}
	}
	e.jsonKey(in, "successors", true)
	e.jsonStrings(SortedSet(n.Successors), depth+1)
	e.jsonKey(in, "predecessors", true)
	e.jsonStrings(SortedSet(n.Predecessors), depth+1)
	e.byte('\n')
	e.spaces(2 * depth)
	e.byte('}')
}

// jsonKey starts a member of an object whose members are indented by in,
// after the previous one when more is set.
func (e *docEncoder) jsonKey(in int, key string, more bool) {
	if more {
		e.str(",\n")
	}
	e.spaces(in)
	e.byte('"')
	e.str(key)
	e.str(`": `)
}

// jsonStrings writes a set: [] when empty (NodeDoc's lists are never nil).
func (e *docEncoder) jsonStrings(xs []string, depth int) {
	if len(xs) == 0 {
		e.str("[]")
		return
	}
	e.str("[\n")
	for i, x := range xs {
		e.spaces(2 * (depth + 1))
		writeJSONString(e, x)
		if i < len(xs)-1 {
			e.byte(',')
		}
		e.byte('\n')
	}
	e.spaces(2 * depth)
	e.byte(']')
}

// yamlNode writes n's NodeDoc as a mapping at indent; inline means its
// first key follows a "- ".
func (e *docEncoder) yamlNode(n *topology.Node, indent int, inline bool) {
	e.yamlKeyString(indent, "name", n.Name, inline)
	e.yamlKeyString(indent, "type", n.Kind.String(), false)
	switch n.Kind {
	case topology.Source:
		e.yamlKeyStrings(indent, "topics", SortedSet(n.Topics))
		if n.Pattern != "" {
			e.yamlKeyString(indent, "topic_pattern", n.Pattern, false)
		}
	case topology.Processor:
		e.yamlKeyStrings(indent, "stores", SortedSet(n.Stores))
	case topology.Sink:
		if n.Topic == nil {
			e.spaces(indent)
			e.str("topic: null\n")
		} else {
			e.yamlKeyString(indent, "topic", *n.Topic, false)
		}
		if n.Extractor != "" {
			e.yamlKeyString(indent, "topic_extractor", n.Extractor, false)
		}
	}
	e.yamlKeyStrings(indent, "successors", SortedSet(n.Successors))
	e.yamlKeyStrings(indent, "predecessors", SortedSet(n.Predecessors))
}

// yamlKeyString writes "key: value" at indent (no indent after a "- ").
func (e *docEncoder) yamlKeyString(indent int, key, value string, inline bool) {
	if !inline {
		e.spaces(indent)
	}
	e.str(key)
	e.str(": ")
	e.yamlString(value, yamlPlace{indent: indent})
}

// yamlKeyStrings writes a set as the value of key at indent: [] when
// empty.
func (e *docEncoder) yamlKeyStrings(indent int, key string, xs []string) {
	e.spaces(indent)
	e.str(key)
	if len(xs) == 0 {
		e.str(": []\n")
		return
	}
	e.str(":\n")
	for _, x := range xs {
		e.spaces(indent + 2)
		e.str("- ")
		e.yamlString(x, yamlPlace{indent: indent + 2, item: true})
	}
}
