package topoparse

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// Error is a parse failure at a line.
type Error struct {
	Line int
	// Msg says what was expected and what was found.
	Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Parse reads a topology description in any supported form. Documents
// (JSON or YAML) are recognised by their first character '{' or by a
// "groups:" / "subtopologies:" key; everything else is read as text.
func Parse(data []byte) (*topology.Description, error) {
	if !utf8.Valid(data) {
		return nil, &Error{Line: 1, Msg: "input is not UTF-8 text"}
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, &Error{Line: 1, Msg: `expected "Topologies:", found an empty input`}
	}
	if trimmed[0] == '{' {
		return parseDocument(data, true)
	}
	if firstLineIsKey(trimmed) {
		return parseDocument(data, false)
	}
	return ParseText(data)
}

var docKey = regexp.MustCompile(`^(groups|subtopologies|global_stores|topology_description)\s*:`)

func firstLineIsKey(b []byte) bool {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	return docKey.Match(bytes.TrimSpace(line))
}

// document mirrors the JSON/YAML schema of internal/format (describe_doc.go):
// either a describe document with groups or a bare topology description.
type document struct {
	Groups              []docGroup   `json:"groups" yaml:"groups"`
	Subtopologies       []docSub     `json:"subtopologies" yaml:"subtopologies"`
	GlobalStores        []docGlobal  `json:"global_stores" yaml:"global_stores"`
	TopologyDescription *docTopology `json:"topology_description" yaml:"topology_description"`
}

type docGroup struct {
	Group               string       `json:"group" yaml:"group"`
	TopologyDescription *docTopology `json:"topology_description" yaml:"topology_description"`
}

type docTopology struct {
	Subtopologies []docSub    `json:"subtopologies" yaml:"subtopologies"`
	GlobalStores  []docGlobal `json:"global_stores" yaml:"global_stores"`
}

type docSub struct {
	ID    string    `json:"id" yaml:"id"`
	Nodes []docNode `json:"nodes" yaml:"nodes"`
}

type docGlobal struct {
	Source    docNode `json:"source" yaml:"source"`
	Processor docNode `json:"processor" yaml:"processor"`
}

type docNode struct {
	Name           string   `json:"name" yaml:"name"`
	Type           string   `json:"type" yaml:"type"`
	Topics         []string `json:"topics" yaml:"topics"`
	TopicPattern   string   `json:"topic_pattern" yaml:"topic_pattern"`
	Stores         []string `json:"stores" yaml:"stores"`
	Topic          *string  `json:"topic" yaml:"topic"`
	TopicExtractor string   `json:"topic_extractor" yaml:"topic_extractor"`
	Successors     []string `json:"successors" yaml:"successors"`
}

func parseDocument(data []byte, isJSON bool) (*topology.Description, error) {
	var doc document
	if isJSON {
		dec := json.NewDecoder(bytes.NewReader(data))
		if err := dec.Decode(&doc); err != nil {
			return nil, jsonError(data, err)
		}
	} else if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlError(err)
	}
	var top *docTopology
	switch {
	case len(doc.Groups) > 0:
		var with []docGroup
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
		top = &docTopology{Subtopologies: doc.Subtopologies, GlobalStores: doc.GlobalStores}
	default:
		return nil, &Error{Line: 1, Msg: `expected a "groups", "topology_description" or "subtopologies" key`}
	}
	return fromDocument(top)
}

func fromDocument(top *docTopology) (*topology.Description, error) {
	d := &topology.Description{Subtopologies: []*topology.Subtopology{}, GlobalStores: []*topology.GlobalStore{}}
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

func docToNode(n docNode) (*topology.Node, error) {
	var k topology.Kind
	if err := k.UnmarshalText([]byte(n.Type)); err != nil {
		return nil, &Error{Line: 1, Msg: fmt.Sprintf("node %q: %v", n.Name, err)}
	}
	node := &topology.Node{Name: n.Name, Kind: k, Successors: orEmpty(n.Successors), Predecessors: []string{}}
	switch k {
	case topology.Source:
		node.Topics, node.Pattern = orEmpty(n.Topics), n.TopicPattern
	case topology.Processor:
		node.Stores = orEmpty(n.Stores)
	case topology.Sink:
		node.Topic, node.Extractor = n.Topic, n.TopicExtractor
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
	return &Error{Line: line, Msg: "expected a JSON topology document: " + err.Error()}
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

func yamlError(err error) error {
	line := 1
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		fmt.Sscan(m[1], &line)
	}
	return &Error{Line: line, Msg: "expected a YAML topology document: " + strings.TrimPrefix(err.Error(), "yaml: ")}
}

func orEmpty(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}
