package topoparse

import (
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
)

// Reading an arrow line. Kafka writes a node's successors sorted and joined
// by ", ", and a name may hold ", " itself (Topology#addProcessor takes any
// string; FINDINGS F330), so "a, b" is two names or one. The line is read
// against the names its block defines: a reading cuts it into names, in
// the list's order (Java order, each once, as Kafka writes it), and a name
// is confirmed when it is defined and its own "<--" line names this node.
// The reading with the fewest unconfirmed names wins, between equal ones
// the one with more names (the plain split); a name holding ", " must be
// confirmed. A lone "none" is no successor, unless the block defines a node
// of that name whose "<--" line names this node; nothing after the arrow
// (Kafka writes "none" for no successors) is the node with the empty name
// when the block defines it.
//
// The usual text has no defined name holding ", ", none named "none" or
// "": each line is then split at every ", ". Otherwise the readings are a
// shortest path over the line's pieces, each state a last name (found by
// walking a trie of the names that hold ", "), in work about linear in the
// line for the names of a real application; a work budget proportional to
// the input bounds what a made-up text can cost, past which the lines left
// are split plainly.

// resolver reads the arrow lines of one text within its work budget.
type resolver struct{ budget int }

func newResolver(size int) *resolver { return &resolver{budget: 16*size + 1<<20} }

// trie holds the names that contain ", ", piece by piece.
type trie struct {
	next map[string]*trie
	node *parsedNode
}

func (t *trie) insert(pieces []string, p *parsedNode) {
	for _, x := range pieces {
		c := t.next[x]
		if c == nil {
			if t.next == nil {
				t.next = map[string]*trie{}
			}
			c = &trie{}
			t.next[x] = c
		}
		t = c
	}
	if t.node == nil {
		t.node = p
	}
}

// blockNames are the names of one sub-topology (or global store) as the
// text shows them.
type blockNames struct {
	defined map[string]*parsedNode
	multi   *trie // nil: no name holds ", "
}

// resolve sets the successors of the block's nodes from their "-->" lines.
func (r *resolver) resolve(nodes []*parsedNode) {
	needNames := false
	for _, p := range nodes {
		if p.shown == "none" || p.shown == "" || strings.Contains(p.shown, ", ") {
			needNames = true
			break
		}
	}
	if !needNames {
		for _, p := range nodes {
			if p.hasSucc {
				p.node.Successors = plainSplit(p.succ)
			}
		}
		return
	}
	b := blockNames{defined: make(map[string]*parsedNode, len(nodes))}
	for _, p := range nodes {
		if _, dup := b.defined[p.shown]; !dup {
			b.defined[p.shown] = p
		}
		if strings.Contains(p.shown, ", ") {
			if b.multi == nil {
				b.multi = &trie{}
			}
			b.multi.insert(strings.Split(p.shown, ", "), p)
		}
	}
	for _, p := range nodes {
		if p.hasSucc {
			p.node.Successors = r.successors(p, &b)
		}
	}
}

// plainSplit reads a line whose names hold no ", ".
func plainSplit(line string) []string {
	if line == "none" || line == "" {
		return []string{}
	}
	xs := strings.Split(line, ", ")
	for i, x := range xs {
		xs[i] = format.UnescapeName(x)
	}
	return xs
}

// confirmed tells whether successor q agrees that p precedes it: its "<--"
// line shows p's name as one of its pieces.
func (r *resolver) confirmed(q, p *parsedNode) bool {
	if !q.hasPred {
		return false
	}
	l, x := q.pred, p.shown
	r.budget -= len(l)
	return l == x || strings.HasPrefix(l, x+", ") || strings.HasSuffix(l, ", "+x) || strings.Contains(l, ", "+x+", ")
}

func (r *resolver) successors(p *parsedNode, b *blockNames) []string {
	line := p.succ
	if line == "none" || line == "" {
		return r.noSuccessor(p, b)
	}
	if b.multi == nil || r.budget < 0 {
		return plainSplit(line)
	}
	pieces := strings.Split(line, ", ")
	best := r.bestReading(p, b, pieces)
	if best == nil || r.budget < 0 {
		return plainSplit(line) // not a list Kafka writes, or past the budget
	}
	out := make([]string, best.count)
	for s := best; s.prev != nil; s = s.prev {
		out[s.count-1] = s.name
	}
	return out
}

// noSuccessor reads a "-->" line of "none" or nothing: Kafka writes
// "none" for no successors, never an empty line, so an empty line is a
// successor with the empty name.
func (r *resolver) noSuccessor(p *parsedNode, b *blockNames) []string {
	line := p.succ
	if q := b.defined[line]; q != nil && (r.confirmed(q, p) || line == "" && !q.hasPred) {
		return []string{q.node.Name}
	}
	return []string{}
}

// reading is a reading of the first pieces of a line by its last name,
// which the next name must follow in Java order (Kafka sorts the list and
// lists a name once): its cost (the names not confirmed), its count of
// names, and the reading before that name.
type reading struct {
	cost, count int
	name        string
	prev        *reading
}

// segment is a name read from the pieces before end, at a cost.
type segment struct {
	end, cost int
	name      string
}

// bestReading is the cheapest reading of all the pieces (the one with
// more names between equal ones), nil when none is a list Kafka writes: a
// shortest path over the pieces, at[j] holding the best reading for each
// last name ending at j.
func (r *resolver) bestReading(p *parsedNode, b *blockNames, pieces []string) *reading {
	k := len(pieces)
	at := make([][]*reading, k+1)
	at[0] = []*reading{{}}
	var segs []segment
	for i := 0; i < k && r.budget >= 0; i++ {
		if len(at[i]) == 0 {
			continue
		}
		segs = r.segments(segs[:0], p, b, pieces, i)
		for _, sg := range segs {
			if best := r.extend(at[i], i, sg); best != nil {
				at[sg.end] = append(at[sg.end], best)
			}
		}
	}
	var best *reading
	for _, s := range at[k] {
		if best == nil || s.cost < best.cost || s.cost == best.cost && s.count > best.count {
			best = s
		}
	}
	return best
}

// segments are the names that may start at piece i: the piece itself (free
// when confirmed; a node without a "<--" line, a source, is no one's
// successor in Kafka and costs what an unknown one does), and each
// confirmed name holding ", " that the pieces from i spell.
func (r *resolver) segments(segs []segment, p *parsedNode, b *blockNames, pieces []string, i int) []segment {
	if q := b.defined[pieces[i]]; q != nil && r.confirmed(q, p) {
		segs = append(segs, segment{i + 1, 0, q.node.Name})
	} else if q != nil {
		segs = append(segs, segment{i + 1, 1, q.node.Name})
	} else {
		segs = append(segs, segment{i + 1, 1, format.UnescapeName(pieces[i])})
	}
	t := b.multi
	for j := i; j < len(pieces); j++ {
		r.budget -= len(pieces[j]) + 1
		if t = t.next[pieces[j]]; t == nil {
			break
		}
		if t.node != nil && j > i && r.confirmed(t.node, p) {
			segs = append(segs, segment{j + 1, 0, t.node.node.Name})
		}
	}
	return segs
}

// extend is the best reading that adds sg to one of the readings ending
// at piece i, nil when none may be followed by it.
func (r *resolver) extend(readings []*reading, i int, sg segment) *reading {
	var best *reading
	for _, s := range readings {
		r.budget--
		if i > 0 && javaOrder(s.name, sg.name) >= 0 {
			continue
		}
		c, n := s.cost+sg.cost, s.count+1
		if best == nil || c < best.cost || c == best.cost && n > best.count {
			best = &reading{c, n, sg.name, s}
		}
	}
	return best
}

// javaOrder is the order of the text's lists (format.SortedSet).
func javaOrder(a, b string) int {
	if c := format.JavaCompare(a, b); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}
