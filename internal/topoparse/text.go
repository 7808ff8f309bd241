package topoparse

import (
	"fmt"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
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
// name may itself contain parentheses. The lines are matched by hand, as
// the regular expressions of TestMatchers say, in time linear in the line:
// a 1,000,000-node description parses in seconds.
//
// Names are shown as format.EscapeName writes them and read back with its
// inverse, format.UnescapeName. Kafka joins a list of names with ", " and
// does not stop a name from holding ", " (the Processor API takes any
// string), so an arrow line is read against the names its block defines
// (resolve.go).

// clause matches "<head><name><marker><value><tail>" with name as long as
// it can be (a greedy "(.*)"), returning name and value. A name may be
// empty: the broker does not forbid it, and our own text must read back.
func clause(line, head, marker, tail string) (name, value string, ok bool) {
	rest, ok := strings.CutPrefix(line, head)
	if !ok || !strings.HasSuffix(rest, tail) {
		return "", "", false
	}
	body := rest[:len(rest)-len(tail)]
	i := strings.LastIndex(body, marker)
	if i < 0 {
		return "", "", false
	}
	return body[:i], body[i+len(marker):], true
}

const globalSuffix = " for global store (will not generate tasks)"

// subtopologyHeader matches "Sub-topology: <id>[ for global store (will
// not generate tasks)]" (a lazy "(.*?)" before the optional suffix, at
// least one character before it).
func subtopologyHeader(line string) (id string, global, ok bool) {
	if line == "Sub-topology:" {
		return "", false, true // an empty id, its trailing space cut
	}
	rest, ok := strings.CutPrefix(line, "Sub-topology: ")
	if !ok {
		return "", false, false
	}
	if head, found := strings.CutSuffix(rest, globalSuffix); found && head != "" {
		return head, true, true
	}
	return rest, false, true
}

// arrow matches "--> names" or "<-- names", the space optional.
func arrow(line, head string) (string, bool) {
	rest, ok := strings.CutPrefix(line, head)
	if !ok {
		return "", false
	}
	return strings.TrimPrefix(rest, " "), true
}

// isHeader matches "Topologies:" with trailing white space.
func isHeader(line string) bool {
	rest, ok := strings.CutPrefix(line, "Topologies:")
	return ok && strings.Trim(rest, " \t\n\f\r") == ""
}

const expectAny = `expected "Sub-topology:", "Source:", "Processor:", "Sink:", "-->", "<--" or a blank line`

type block struct {
	id     string
	global bool
	line   int
	nodes  []*topology.Node
	// parsed holds each node's line as shown, in the order of nodes.
	parsed []*parsedNode
}

// parsedNode is a node as its lines show it: the name and the arrow lists
// before they are read (resolve.go).
type parsedNode struct {
	node             *topology.Node
	shown            string
	succ, pred       string
	hasSucc, hasPred bool
}

// textParser holds what parseText's steps share while reading lines.
type textParser struct {
	blocks  []*block
	cur     *block
	last    *parsedNode
	started bool
	n       int // the line number
}

// parseText reads the text form; names are parts of text.
func parseText(text string) (*topology.Description, error) {
	p := &textParser{}
	for rest, more := text, true; more; {
		var raw string
		raw, rest, more = strings.Cut(rest, "\n")
		p.n++
		// Indentation goes; trailing white space stays, since a name
		// may end with it.
		line := strings.TrimLeft(strings.TrimSuffix(raw, "\r"), " \t")
		if line == "" {
			continue
		}
		if err := p.line(line); err != nil {
			return nil, err
		}
	}
	if !p.started {
		return nil, &Error{Line: p.n, Msg: `expected "Topologies:", found the end of the input`}
	}
	r := newResolver(len(text))
	for _, b := range p.blocks {
		r.resolve(b.parsed)
	}
	return p.description()
}

// line reads one line that is not blank, without its indentation.
func (p *textParser) line(line string) error {
	if !p.started {
		return p.header(line)
	}
	if id, global, ok := subtopologyHeader(line); ok {
		p.cur = &block{id: format.UnescapeName(id), global: global, line: p.n}
		p.blocks = append(p.blocks, p.cur)
		p.last = nil
		return nil
	}
	if node, shown, ok := parseNode(line); ok {
		return p.node(node, shown)
	}
	if names, ok := arrow(line, "-->"); ok {
		return p.successors(names)
	}
	if names, ok := arrow(line, "<--"); ok {
		return p.predecessors(names)
	}
	return &Error{Line: p.n, Msg: fmt.Sprintf("%s, found %q", expectAny, clip(line))}
}

// header reads the line before "Topologies:", which must be it.
func (p *textParser) header(line string) error {
	if isHeader(line) {
		p.started = true
		return nil
	}
	msg := fmt.Sprintf(`expected "Topologies:", found %q`, clip(line))
	if strings.HasPrefix(line, "Streams group '") {
		msg += "; the input holds the output for several groups, render one group's topology at a time"
	} else if strings.HasPrefix(line, "Error: ") {
		msg += "; the input holds no topology description"
	}
	return &Error{Line: p.n, Msg: msg}
}

// node adds a node line to the current block.
func (p *textParser) node(node *topology.Node, shown string) error {
	if p.cur == nil {
		return &Error{Line: p.n, Msg: `expected "Sub-topology:" before the first node`}
	}
	if p.cur.global && len(p.cur.nodes) == 2 {
		return &Error{Line: p.n, Msg: "expected a global store to have only a source and a processor, found a third node"}
	}
	p.last = &parsedNode{node: node, shown: shown}
	p.cur.nodes = append(p.cur.nodes, node)
	p.cur.parsed = append(p.cur.parsed, p.last)
	return nil
}

// successors notes the last node's "-->" line, read once the block's
// names are known (resolve.go).
func (p *textParser) successors(names string) error {
	switch {
	case p.last == nil:
		return &Error{Line: p.n, Msg: `expected a node line before "-->"`}
	case p.last.hasSucc:
		return &Error{Line: p.n, Msg: fmt.Sprintf("expected one \"-->\" line for node %q, found a second", p.last.shown)}
	case p.last.node.Kind == topology.Sink:
		return &Error{Line: p.n, Msg: fmt.Sprintf("expected no \"-->\" line for sink %q: a sink has no successors", p.last.shown)}
	}
	p.last.succ, p.last.hasSucc = names, true
	return nil
}

// predecessors notes the last node's "<--" line. Predecessors are rebuilt
// from the successors; the line helps read the successor lists
// (resolve.go).
func (p *textParser) predecessors(names string) error {
	switch {
	case p.last == nil:
		return &Error{Line: p.n, Msg: `expected a node line before "<--"`}
	case p.last.hasPred:
		return &Error{Line: p.n, Msg: fmt.Sprintf("expected one \"<--\" line for node %q, found a second", p.last.shown)}
	}
	p.last.pred, p.last.hasPred = names, true
	return nil
}

// description is the blocks read: the sub-topologies, then the global
// stores numbered after them.
func (p *textParser) description() (*topology.Description, error) {
	d := &topology.Description{Subtopologies: []*topology.Subtopology{}, GlobalStores: []*topology.GlobalStore{}, StoresAsGiven: true}
	for _, b := range p.blocks {
		if !b.global {
			topology.LinkPredecessors(b.nodes)
			if b.nodes == nil {
				b.nodes = []*topology.Node{}
			}
			d.Subtopologies = append(d.Subtopologies, &topology.Subtopology{ID: b.id, Nodes: b.nodes})
		}
	}
	for _, b := range p.blocks {
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

// parseNode reads a node line: the node, its name as the line shows it.
func parseNode(line string) (*topology.Node, string, bool) {
	mk := func(name string, k topology.Kind) *topology.Node {
		return &topology.Node{Name: format.UnescapeName(name), Kind: k, Successors: []string{}, Predecessors: []string{}}
	}
	if name, topics, ok := clause(line, "Source: ", " (topics: [", "])"); ok {
		n := mk(name, topology.Source)
		n.Topics = list(topics)
		return n, name, true
	}
	if name, pattern, ok := clause(line, "Source: ", " (topics: ", ")"); ok {
		// Only Topology#describe() prints a pattern, as it is.
		n := mk(name, topology.Source)
		n.Topics, n.Pattern = []string{}, pattern
		return n, name, true
	}
	if name, stores, ok := clause(line, "Processor: ", " (stores: [", "])"); ok {
		n := mk(name, topology.Processor)
		n.Stores = list(stores)
		return n, name, true
	}
	// Of a sink's two clauses the last one in the line is the clause: the
	// name before it may hold the other.
	name, topic, isTopic := clause(line, "Sink: ", " (topic: ", ")")
	if xname, class, ok := clause(line, "Sink: ", " (extractor class: ", ")"); ok && (!isTopic || len(xname) > len(name)) {
		n := mk(xname, topology.Sink)
		n.Extractor = class
		return n, xname, true
	}
	if isTopic {
		n := mk(name, topology.Sink)
		if topic != "null" {
			topic = format.UnescapeName(topic)
			n.Topic = &topic
		}
		return n, name, true
	}
	return nil, "", false
}

// list splits "a, b" from inside brackets (topics, stores: Kafka's topic
// names hold no ", ").
func list(s string) []string {
	if s == "" {
		return []string{}
	}
	xs := strings.Split(s, ", ")
	for i, x := range xs {
		xs[i] = format.UnescapeName(x)
	}
	return xs
}

func clip(s string) string {
	r := []rune(s)
	if len(r) > 80 {
		return string(r[:77]) + "..."
	}
	return s
}
