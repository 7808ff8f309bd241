package topoparse

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// Error is a parse failure at a line.
type Error struct {
	Line int
	// Msg says what was expected and what was found.
	Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// ParseString reads a topology description in any supported form.
// Documents (JSON or YAML) are recognised by their first character '{' or
// by a "groups:" / "subtopologies:" key; everything else is read as text.
// It takes a string because the names of a text description are parts of
// it, so a large input is held once.
func ParseString(data string) (*topology.Description, error) {
	if !utf8.ValidString(data) {
		return nil, &Error{Line: 1, Msg: "input is not UTF-8 text"}
	}
	trimmed := strings.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, &Error{Line: 1, Msg: `expected "Topologies:", found an empty input`}
	}
	if trimmed[0] == '{' {
		return parseDocument([]byte(data), true)
	}
	if firstLineIsKey(trimmed) {
		return parseDocument([]byte(data), false)
	}
	return parseText(data)
}

var docKey = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(groups|subtopologies|global_stores|topology_description)\s*:`)
})

func firstLineIsKey(s string) bool {
	line, _, _ := strings.Cut(s, "\n")
	return docKey().MatchString(strings.TrimSpace(line))
}

func parseDocument(data []byte, isJSON bool) (*topology.Description, error) {
	var doc format.TopologyInput
	if isJSON {
		dec := json.NewDecoder(bytes.NewReader(data))
		if err := dec.Decode(&doc); err != nil {
			return nil, jsonError(data, err)
		}
	} else if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlError(err)
	}
	var top *format.TopologyDoc
	switch {
	case len(doc.Groups) > 0:
		var with []format.GroupDoc
		for _, g := range doc.Groups {
			if g.TopologyDescription != nil {
				with = append(with, g)
			}
		}
		if len(with) != 1 {
			return nil, &Error{Line: 1, Msg: fmt.Sprintf("expected a document with exactly one group holding a topology_description, found %d", len(with))}
		}
		top = with[0].TopologyDescription
	case doc.TopologyDescription != nil:
		top = doc.TopologyDescription
	case doc.Subtopologies != nil || doc.GlobalStores != nil:
		top = &doc.TopologyDoc
	default:
		return nil, &Error{Line: 1, Msg: `expected a "groups", "topology_description" or "subtopologies" key`}
	}
	return fromDocument(top)
}

func fromDocument(top *format.TopologyDoc) (*topology.Description, error) {
	d := &topology.Description{Subtopologies: []*topology.Subtopology{}, GlobalStores: []*topology.GlobalStore{}, StoresAsGiven: true}
	for _, s := range top.Subtopologies {
		sub := &topology.Subtopology{ID: s.ID, Nodes: []*topology.Node{}}
		for _, n := range s.Nodes {
			node, err := docToNode(n)
			if err != nil {
				return nil, err
			}
			sub.Nodes = append(sub.Nodes, node)
		}
		topology.LinkPredecessors(sub.Nodes)
		d.Subtopologies = append(d.Subtopologies, sub)
	}
	for i, g := range top.GlobalStores {
		src, err := docToNode(g.Source)
		if err != nil {
			return nil, err
		}
		proc, err := docToNode(g.Processor)
		if err != nil {
			return nil, err
		}
		if src.Kind != topology.Source || proc.Kind != topology.Processor {
			return nil, &Error{Line: 1, Msg: "a global store must be a source and a processor"}
		}
		topology.LinkPredecessors([]*topology.Node{src, proc})
		d.GlobalStores = append(d.GlobalStores, &topology.GlobalStore{ID: len(top.Subtopologies) + i, Source: src, Processor: proc})
	}
	return d, nil
}

func docToNode(n format.NodeDoc) (*topology.Node, error) {
	k, err := topology.ParseKind(n.Type)
	if err != nil {
		return nil, &Error{Line: 1, Msg: fmt.Sprintf("node %q: %v", n.Name, err)}
	}
	node := &topology.Node{Name: n.Name, Kind: k, Successors: orEmpty(n.Successors), Predecessors: []string{}}
	switch k {
	case topology.Source:
		node.Topics, node.Pattern = orEmpty(deref(n.Topics)), n.TopicPattern
	case topology.Processor:
		node.Stores = orEmpty(deref(n.Stores))
	case topology.Sink:
		if n.Topic != nil {
			node.Topic = *n.Topic
		}
		node.Extractor = n.TopicExtractor
	}
	return node, nil
}

func jsonError(data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off := int64(0)
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	line := 1 + bytes.Count(data[:min(int(off), len(data))], []byte("\n"))
	msg := err.Error()
	if te != nil {
		// encoding/json names Go types and fields; say it in the
		// document's own keys.
		msg = fmt.Sprintf("%s: want %s, found %s", documentPath(te.Field), te.Type, te.Value)
	}
	return &Error{Line: line, Msg: "expected a JSON topology document: " + msg}
}

// documentPath keeps the document keys of an encoding/json field path
// ("TopologyDoc.subtopologies.id" becomes "subtopologies.id"): Go field
// names start upper case, document keys never do.
func documentPath(field string) string {
	var keys []string
	for _, k := range strings.Split(field, ".") {
		if k != "" && !unicode.IsUpper(rune(k[0])) {
			keys = append(keys, k)
		}
	}
	return strings.Join(keys, ".")
}

var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`line (\d+)`) })

func yamlError(err error) error {
	line := 1
	if m := yamlLine().FindStringSubmatch(err.Error()); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			line = n
		}
	}
	return &Error{Line: line, Msg: "expected a YAML topology document: " + strings.TrimPrefix(err.Error(), "yaml: ")}
}

func orEmpty(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

func deref(xs *[]string) []string {
	if xs == nil {
		return nil
	}
	return *xs
}
