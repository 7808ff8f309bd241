package format

// A topology description's document written straight from the model, for
// Encode: the bytes encoding/json and yaml.v3 write for its materialized
// TopologyDoc (SubtopologyDoc, GlobalStoreDoc and NodeDoc, newNodeDoc),
// without building them, since a description can have a million nodes.
// TestEncode_topologyFromTheModel and FuzzEncodeStrings compare the two.
// Writing each node by the library instead (at its place, with the same
// bytes) made BenchmarkEncodeTopology100k 6.4 times slower in JSON (438 ms
// where this takes 68) and 69 times in YAML (3,046 ms where this takes 44).

import (
	"strconv"

	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// jsonTopology writes d's TopologyDoc as a JSON object at depth.
func (e *docEncoder) jsonTopology(d *topology.Description, depth int) {
	e.storesAsGiven = d.StoresAsGiven
	in := 2 * (depth + 1)
	e.str("{\n")
	e.jsonKey(in, "subtopologies", false)
	e.jsonItems(len(d.Subtopologies), depth+1, func(i, depth int) {
		s := d.Subtopologies[i]
		in := 2 * (depth + 1)
		e.str("{\n")
		e.jsonKey(in, "id", false)
		writeJSONString(e, s.ID)
		e.jsonKey(in, "nodes", true)
		e.jsonItems(len(s.Nodes), depth+1, func(j, depth int) { e.jsonNode(s.Nodes[j], depth) })
		e.jsonEnd(depth)
	})
	e.jsonKey(in, "global_stores", true)
	e.jsonItems(len(d.GlobalStores), depth+1, func(i, depth int) {
		g := d.GlobalStores[i]
		in := 2 * (depth + 1)
		e.str("{\n")
		e.jsonKey(in, "id", false)
		e.str(strconv.Itoa(g.ID))
		e.jsonKey(in, "source", true)
		e.jsonNode(g.Source, depth+1)
		e.jsonKey(in, "processor", true)
		e.jsonNode(g.Processor, depth+1)
		e.jsonEnd(depth)
	})
	e.jsonEnd(depth)
}

// jsonItems writes an array of n items at depth, each by item at the
// depth of its own: [] when empty.
func (e *docEncoder) jsonItems(n, depth int, item func(i, depth int)) {
	if n == 0 {
		e.str("[]")
		return
	}
	e.str("[\n")
	for i := 0; i < n && e.err == nil; i++ {
		e.spaces(2 * (depth + 1))
		item(i, depth+1)
		if i < n-1 {
			e.byte(',')
		}
		e.byte('\n')
	}
	e.spaces(2 * depth)
	e.byte(']')
}

// jsonEnd closes an object at depth after its last member.
func (e *docEncoder) jsonEnd(depth int) {
	e.byte('\n')
	e.spaces(2 * depth)
	e.byte('}')
}

// yamlTopology writes d's TopologyDoc as a block mapping whose keys are at
// indent.
func (e *docEncoder) yamlTopology(d *topology.Description, indent int) {
	e.storesAsGiven = d.StoresAsGiven
	e.spaces(indent)
	e.str("subtopologies:")
	e.yamlItems(len(d.Subtopologies), indent, func(i, in int) {
		s := d.Subtopologies[i]
		e.yamlKeyString(in, "id", s.ID, true)
		e.spaces(in)
		e.str("nodes:")
		e.yamlItems(len(s.Nodes), in, func(j, in int) { e.yamlNode(s.Nodes[j], in, true) })
	})
	e.spaces(indent)
	e.str("global_stores:")
	e.yamlItems(len(d.GlobalStores), indent, func(i, in int) {
		g := d.GlobalStores[i]
		e.str("id: ")
		e.str(strconv.Itoa(g.ID))
		e.str("\n")
		e.spaces(in)
		e.str("source:\n")
		e.yamlNode(g.Source, in+2, false)
		e.spaces(in)
		e.str("processor:\n")
		e.yamlNode(g.Processor, in+2, false)
	})
}

// yamlItems writes the sequence that is the value of a key at indent,
// after its colon: " []" when empty, else each item's "- " 2 deeper and
// the item, by item, after it with its keys at in.
func (e *docEncoder) yamlItems(n, indent int, item func(i, in int)) {
	if n == 0 {
		e.str(" []\n")
		return
	}
	e.byte('\n')
	for i := 0; i < n && e.err == nil; i++ {
		e.spaces(indent + 2)
		e.str("- ")
		item(i, indent+4)
	}
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
		e.jsonStrings(Stores(n.Stores, e.storesAsGiven), depth+1)
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
	e.jsonEnd(depth)
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
	e.jsonItems(len(xs), depth, func(i, _ int) { writeJSONString(e, xs[i]) })
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
		e.yamlKeyStrings(indent, "stores", Stores(n.Stores, e.storesAsGiven))
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
