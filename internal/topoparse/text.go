package topoparse

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// The text grammar, shared by Topology#describe() and the CLI formatter:
//
//	Topologies:
//	   Sub-topology: <id>[ for global store (will not generate tasks)]
//	    Source: <name> (topics: [<t>, …])   or (topics: <regex>)
//	    Processor: <name> (stores: [<s>, …])
//	    Sink: <name> (topic: <t>)           or (topic: null), (extractor class: <c>)
//	      --> <names> | none
//	      <-- <names> | none
//
// Indentation and blank lines vary between the two producers and are not
// significant. Names are matched greedily up to the last " (" clause, so a
// name may itself contain parentheses.
var (
	reHeader    = regexp.MustCompile(`^Topologies:\s*$`)
	reSub       = regexp.MustCompile(`^Sub-topology: (.+?)( for global store \(will not generate tasks\))?$`)
	reSourceSet = regexp.MustCompile(`^Source: (.+) \(topics: \[(.*)\]\)$`)
	reSourcePat = regexp.MustCompile(`^Source: (.+) \(topics: (.*)\)$`)
	reProcessor = regexp.MustCompile(`^Processor: (.+) \(stores: \[(.*)\]\)$`)
	reSinkTopic = regexp.MustCompile(`^Sink: (.+) \(topic: (.*)\)$`)
	reSinkExtr  = regexp.MustCompile(`^Sink: (.+) \(extractor class: (.*)\)$`)
	reSucc      = regexp.MustCompile(`^--> ?(.*)$`)
	rePred      = regexp.MustCompile(`^<-- ?(.*)$`)
)

const expectAny = `expected "Sub-topology:", "Source:", "Processor:", "Sink:", "-->", "<--" or a blank line`

type block struct {
	id     string
	global bool
	line   int
	nodes  []*topology.Node
}

// ParseText reads the text form.
func ParseText(data []byte) (*topology.Description, error) {
	lines := strings.Split(string(data), "\n")
	var blocks []*block
	var cur *block
	var last *topology.Node
	var lastHasSucc, lastHasPred bool
	started := false
	for i, raw := range lines {
		n := i + 1
		line := strings.TrimSpace(strings.TrimSuffix(raw, "\r"))
		if line == "" {
			continue
		}
		if !started {
			if reHeader.MatchString(line) {
				started = true
				continue
			}
			msg := fmt.Sprintf(`expected "Topologies:", found %q`, clip(line))
			if strings.HasPrefix(line, "Streams group '") {
				msg += "; the input holds the output for several groups, render one group's topology at a time"
			} else if strings.HasPrefix(line, "Error: ") {
				msg += "; the input holds no topology description"
			}
			return nil, &Error{Line: n, Msg: msg}
		}
		if m := reSub.FindStringSubmatch(line); m != nil {
			cur = &block{id: m[1], global: m[2] != "", line: n}
			blocks = append(blocks, cur)
			last = nil
			continue
		}
		if node, ok := parseNode(line); ok {
			if cur == nil {
				return nil, &Error{Line: n, Msg: `expected "Sub-topology:" before the first node`}
			}
			if cur.global && len(cur.nodes) == 2 {
				return nil, &Error{Line: n, Msg: "expected a global store to have only a source and a processor, found a third node"}
			}
			cur.nodes = append(cur.nodes, node)
			last, lastHasSucc, lastHasPred = node, false, false
			continue
		}
		if m := reSucc.FindStringSubmatch(line); m != nil {
			if last == nil {
				return nil, &Error{Line: n, Msg: `expected a node line before "-->"`}
			}
			if lastHasSucc {
				return nil, &Error{Line: n, Msg: fmt.Sprintf("expected one \"-->\" line for node %q, found a second", last.Name)}
			}
			if last.Kind == topology.Sink {
				return nil, &Error{Line: n, Msg: fmt.Sprintf("expected no \"-->\" line for sink %q: a sink has no successors", last.Name)}
			}
			last.Successors, lastHasSucc = names(m[1]), true
			continue
		}
		if m := rePred.FindStringSubmatch(line); m != nil {
			if last == nil {
				return nil, &Error{Line: n, Msg: `expected a node line before "<--"`}
			}
			if lastHasPred {
				return nil, &Error{Line: n, Msg: fmt.Sprintf("expected one \"<--\" line for node %q, found a second", last.Name)}
			}
			lastHasPred = true // rebuilt from successors below
			continue
		}
		return nil, &Error{Line: n, Msg: fmt.Sprintf("%s, found %q", expectAny, clip(line))}
	}
	if !started {
		return nil, &Error{Line: len(lines), Msg: `expected "Topologies:", found the end of the input`}
	}
	d := &topology.Description{Subtopologies: []*topology.Subtopology{}, GlobalStores: []*topology.GlobalStore{}}
	for _, b := range blocks {
		if !b.global {
			topology.LinkPredecessors(b.nodes)
			if b.nodes == nil {
				b.nodes = []*topology.Node{}
			}
			d.Subtopologies = append(d.Subtopologies, &topology.Subtopology{ID: b.id, Nodes: b.nodes})
		}
	}
	for _, b := range blocks {
		if !b.global {
			continue
		}
		if len(b.nodes) != 2 || b.nodes[0].Kind != topology.Source || b.nodes[1].Kind != topology.Processor {
			return nil, &Error{Line: b.line, Msg: "expected a global store to be a source followed by a processor"}
		}
		topology.LinkPredecessors(b.nodes)
		d.GlobalStores = append(d.GlobalStores, &topology.GlobalStore{ID: len(d.Subtopologies) + len(d.GlobalStores), Source: b.nodes[0], Processor: b.nodes[1]})
	}
	return d, nil
}

func parseNode(line string) (*topology.Node, bool) {
	mk := func(name string, k topology.Kind) *topology.Node {
		return &topology.Node{Name: name, Kind: k, Successors: []string{}, Predecessors: []string{}}
	}
	if m := reSourceSet.FindStringSubmatch(line); m != nil {
		n := mk(m[1], topology.Source)
		n.Topics = list(m[2])
		return n, true
	}
	if m := reSourcePat.FindStringSubmatch(line); m != nil {
		n := mk(m[1], topology.Source)
		n.Topics, n.Pattern = []string{}, m[2]
		return n, true
	}
	if m := reProcessor.FindStringSubmatch(line); m != nil {
		n := mk(m[1], topology.Processor)
		n.Stores = list(m[2])
		return n, true
	}
	if m := reSinkExtr.FindStringSubmatch(line); m != nil {
		n := mk(m[1], topology.Sink)
		n.Extractor = m[2]
		return n, true
	}
	if m := reSinkTopic.FindStringSubmatch(line); m != nil {
		n := mk(m[1], topology.Sink)
		if m[2] != "null" {
			t := m[2]
			n.Topic = &t
		}
		return n, true
	}
	return nil, false
}

// list splits "a, b" from inside brackets.
func list(s string) []string {
	if s == "" {
		return []string{}
	}
	return strings.Split(s, ", ")
}

// names splits an arrow line's names; "none" is the empty list.
func names(s string) []string {
	if s == "none" || s == "" {
		return []string{}
	}
	return strings.Split(s, ", ")
}

func clip(s string) string {
	r := []rune(s)
	if len(r) > 80 {
		return string(r[:77]) + "..."
	}
	return s
}
