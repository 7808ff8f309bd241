package diff

import (
	"cmp"
	"slices"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// Matching is what makes the comparison one of graphs, not of lines.
//
// Sub-topologies are paired by content, in passes: the same nodes (names
// included); the same nodes up to shifted generated names; then the most
// similar pair first, by what they read, write, keep and run (weighted
// overlap of source topics, stores, sink topics and node families). Ties go
// to the pair with the same id. Only then are ids compared: a pair whose ids
// differ was renumbered.
//
// Nodes of a pair of sub-topologies are paired by name; then by the topics a
// source reads or a sink writes (exactly, then up to a shifted generated
// name); then from the pairs found, along the edges: an unpaired successor
// (or predecessor) of a pair is paired with the unpaired successor of the
// other side that has its kind and family. What is left: generated names of
// one family in index order, and then a neighbour of a pair with the only
// neighbour of its kind left on the other side when the two names may be
// one node's: one of them generated (the user named an operator), or both
// derived the same way from a name (by-word-repartition-sink and
// by-key-repartition-sink); and the edges again.

// subPair is a sub-topology of OLD and the one of NEW it became.
type subPair struct{ old, new *topology.Subtopology }

// subMatcher pairs sub-topologies in the steps named above: by signature
// (names as they are, then as families), then by similarity.
type subMatcher struct {
	old, new []*topology.Subtopology
	// paired and taken are the sub-topologies of OLD and NEW paired so
	// far, by index.
	paired, taken []bool
	// pairIdx are the pairs found, by index.
	pairIdx [][2]int
	// examined counts the similarities computed.
	examined int
	stop     *stopper
}

func matchSubtopologies(old, new []*topology.Subtopology, stop *stopper) (pairs []subPair, removed, added []*topology.Subtopology) {
	return newSubMatcher(old, new, stop).match()
}

func newSubMatcher(old, new []*topology.Subtopology, stop *stopper) *subMatcher {
	return &subMatcher{old: old, new: new, paired: make([]bool, len(old)), taken: make([]bool, len(new)), stop: stop}
}

func (m *subMatcher) match() (pairs []subPair, removed, added []*topology.Subtopology) {
	m.bySignature(identity)
	m.bySignature(family)
	m.bySimilarity()
	return m.result()
}

func (m *subMatcher) pair(i, j int) {
	m.pairIdx = append(m.pairIdx, [2]int{i, j})
	m.paired[i], m.taken[j] = true, true
}

// bySignature pairs the sub-topologies whose nodes are the same with every
// name passed through name; a tie goes to the one with the same id, else
// to the first in NEW's order. The candidates are listed by signature and
// by signature and id, and the taken ones at a list's head dropped when
// met (looking through every sub-topology of one signature for each was
// quadratic: 7 s for 20,000 alike).
func (m *subMatcher) bySignature(name func(string) string) {
	type sigID struct{ sig, id string }
	bySig, byID := map[string][]int{}, map[sigID][]int{}
	for j, n := range m.new {
		if !m.taken[j] {
			m.stop.tick()
			sig := signature(n, name)
			bySig[sig] = append(bySig[sig], j)
			byID[sigID{sig, n.ID}] = append(byID[sigID{sig, n.ID}], j)
		}
	}
	for i, o := range m.old {
		if m.paired[i] {
			continue
		}
		m.stop.tick()
		sig := signature(o, name)
		k := sigID{sig, o.ID}
		isTaken := func(j int) bool { return m.taken[j] }
		byID[k], bySig[sig] = dropUsed(m.stop, byID[k], isTaken), dropUsed(m.stop, bySig[sig], isTaken)
		for _, js := range [][]int{byID[k], bySig[sig]} {
			if len(js) > 0 {
				m.pair(i, js[0])
				break
			}
		}
	}
}

// dropUsed drops the used entries at the head of a list of candidates, so
// that each is passed once however often the list is looked at.
func dropUsed[T any](stop *stopper, xs []T, used func(T) bool) []T {
	for len(xs) > 0 && used(xs[0]) {
		stop.tick()
		xs = xs[1:]
	}
	return xs
}

// Similarity is computed only for pairs that share a feature, and it
// would be for every pair when all of them share one (the node family
// KSTREAM-FILTER-#, say): tens of thousands of sub-topologies would take
// minutes. So when the pairs to look at exceed exhaustiveWork, a feature
// that more than commonAbove unpaired sub-topologies of NEW have no longer
// proposes pairs (it still counts in the similarity of the pairs that rarer
// features propose); the sub-topologies left after that are compared with
// every feature again when they are few enough. A topology of ordinary
// size is compared exhaustively, as before.
const (
	exhaustiveWork = 1 << 20
	commonAbove    = 16
)

// featureTable interns the features of the unpaired sub-topologies.
type featureTable struct {
	ids    map[string]int32
	weight []int
}

// featureSet is a sub-topology's features, sorted, with their total weight.
type featureSet struct {
	ids   []int32
	total int
}

func (t *featureTable) set(s *topology.Subtopology) featureSet {
	var fs featureSet
	for k, w := range features(s) {
		id, ok := t.ids[k]
		if !ok {
			id = int32(len(t.weight))
			t.ids[k] = id
			t.weight = append(t.weight, int(w))
		}
		fs.ids = append(fs.ids, id)
		fs.total += int(w)
	}
	slices.Sort(fs.ids)
	return fs
}

// similarity is the weighted overlap of two feature sets, from 0 (nothing
// shared) to 1.
func (t *featureTable) similarity(a, b featureSet) float64 {
	both := 0
	for i, j := 0, 0; i < len(a.ids) && j < len(b.ids); {
		switch {
		case a.ids[i] < b.ids[j]:
			i++
		case a.ids[i] > b.ids[j]:
			j++
		default:
			both += t.weight[a.ids[i]]
			i, j = i+1, j+1
		}
	}
	all := a.total + b.total - both
	if all == 0 {
		return 0
	}
	return float64(both) / float64(all)
}

// bySimilarity pairs the rest, the most similar pair first, by what they
// read, write, keep and run; ties go to the pair with the same id.
func (m *subMatcher) bySimilarity() {
	t := &featureTable{ids: map[string]int32{}}
	oldF, newF := make([]featureSet, len(m.old)), make([]featureSet, len(m.new))
	for i, o := range m.old {
		if !m.paired[i] {
			m.stop.tick()
			oldF[i] = t.set(o)
		}
	}
	for j, n := range m.new {
		if !m.taken[j] {
			m.stop.tick()
			newF[j] = t.set(n)
		}
	}
	all := len(m.new) + 1
	if m.work(t, oldF, newF) > exhaustiveWork {
		m.greedy(t, oldF, newF, commonAbove)
		if m.work(t, oldF, newF) > exhaustiveWork {
			return
		}
	}
	m.greedy(t, oldF, newF, all)
}

// having lists, for each feature, the unpaired sub-topologies of NEW that
// have it.
func (m *subMatcher) having(t *featureTable, newF []featureSet) [][]int {
	having := make([][]int, len(t.weight))
	for j := range m.new {
		if !m.taken[j] {
			for _, k := range newF[j].ids {
				having[k] = append(having[k], j)
			}
		}
	}
	return having
}

// work is the number of pairs an exhaustive pass would look at.
func (m *subMatcher) work(t *featureTable, oldF, newF []featureSet) int {
	having := m.having(t, newF)
	work := 0
	for i := range m.old {
		if !m.paired[i] {
			for _, k := range oldF[i].ids {
				work += len(having[k])
			}
		}
	}
	return work
}

// greedy pairs the unpaired sub-topologies that share a feature held by at
// most limit of NEW's, the most similar pair first.
func (m *subMatcher) greedy(t *featureTable, oldF, newF []featureSet, limit int) {
	having := m.having(t, newF)
	type candidate struct {
		o, n   int
		score  float64
		sameID bool
	}
	var cands []candidate
	seen := make([]int, len(m.new)) // 1 + the OLD index that last proposed it
	for i, o := range m.old {
		if m.paired[i] {
			continue
		}
		for _, k := range oldF[i].ids {
			if len(having[k]) > limit {
				continue
			}
			for _, j := range having[k] {
				m.stop.tick()
				if seen[j] == i+1 {
					continue
				}
				seen[j] = i + 1
				m.examined++
				if s := t.similarity(oldF[i], newF[j]); s > 0 {
					cands = append(cands, candidate{i, j, s, o.ID == m.new[j].ID})
				}
			}
		}
	}
	slices.SortFunc(cands, func(a, b candidate) int {
		if a.score != b.score {
			return cmp.Compare(b.score, a.score)
		}
		if a.sameID != b.sameID {
			if a.sameID {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(a.o, b.o), cmp.Compare(a.n, b.n))
	})
	for _, c := range cands {
		if !m.paired[c.o] && !m.taken[c.n] {
			m.pair(c.o, c.n)
		}
	}
}

// result is the pairs in OLD's order, then what is only in OLD and only in
// NEW.
func (m *subMatcher) result() (pairs []subPair, removed, added []*topology.Subtopology) {
	slices.SortStableFunc(m.pairIdx, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	for _, p := range m.pairIdx {
		pairs = append(pairs, subPair{m.old[p[0]], m.new[p[1]]})
	}
	for i, o := range m.old {
		if !m.paired[i] {
			removed = append(removed, o)
		}
	}
	for j, n := range m.new {
		if !m.taken[j] {
			added = append(added, n)
		}
	}
	return pairs, removed, added
}

func identity(s string) string { return s }

// signature is a sub-topology's content with every name passed through
// name: equal signatures are the same graph.
func signature(s *topology.Subtopology, name func(string) string) string {
	lines := make([]string, 0, len(s.Nodes))
	for _, n := range s.Nodes {
		lines = append(lines, nodeSignature(n, name))
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

func nodeSignature(n *topology.Node, name func(string) string) string {
	names := func(xs []string) string {
		out := make([]string, len(xs))
		for i, x := range xs {
			out[i] = name(x)
		}
		slices.Sort(out)
		return strings.Join(out, ",")
	}
	return strings.Join([]string{n.Kind.String(), name(n.Name), names(n.Topics), n.Pattern, sinkTopic(n, name),
		names(n.Stores), names(n.Successors)}, "|")
}

// sinkTopic is a sink's topic through name, "<dynamic>" for a dynamic sink
// and "" for other nodes.
func sinkTopic(n *topology.Node, name func(string) string) string {
	switch {
	case n.Kind != topology.Sink:
		return ""
	case n.Topic == nil:
		return "<dynamic>"
	}
	return name(*n.Topic)
}

// features are what a sub-topology reads, keeps, writes and runs, weighted
// by how much each says about which sub-topology it is.
func features(s *topology.Subtopology) map[string]float64 {
	f := map[string]float64{}
	for _, n := range s.Nodes {
		f["node:"+n.Kind.String()+":"+family(n.Name)] = 1
		for _, t := range n.Topics {
			f["source:"+family(t)] = 4
		}
		if n.Pattern != "" {
			f["pattern:"+n.Pattern] = 4
		}
		for _, st := range n.Stores {
			f["store:"+family(st)] = 3
		}
		if t := sinkTopic(n, family); t != "" {
			f["sink:"+t] = 2
		}
	}
	return f
}

// nodeMatch pairs the nodes of two sub-topologies (or of two global
// stores).
type nodeMatch struct {
	// pairs are in OLD's node order.
	pairs          [][2]*topology.Node
	removed, added []*topology.Node
	o2n, n2o       map[*topology.Node]*topology.Node
}

// newName is the NEW name of OLD's node called name, or name itself when
// that node has no counterpart.
func (m *nodeMatch) newName(oldNodes map[string]*topology.Node, name string) string {
	if o := oldNodes[name]; o != nil && m.o2n[o] != nil {
		return m.o2n[o].Name
	}
	return name
}

// nodeMatcher pairs the nodes of one pair of sub-topologies in the steps
// named above.
type nodeMatcher struct {
	m                  *nodeMatch
	oldNodes, newNodes []*topology.Node
	oldBy, newBy       map[string]*topology.Node
	// order is the pairs in the order found; propagation walks it.
	order [][2]*topology.Node
	stop  *stopper
}

func matchNodes(oldNodes, newNodes []*topology.Node, stop *stopper) *nodeMatch {
	x := &nodeMatcher{
		m:        &nodeMatch{o2n: map[*topology.Node]*topology.Node{}, n2o: map[*topology.Node]*topology.Node{}},
		oldNodes: oldNodes, newNodes: newNodes, oldBy: byName(oldNodes), newBy: byName(newNodes), stop: stop,
	}
	x.byName()
	for _, name := range []func(string) string{identity, family} {
		x.unique(x.freeOld(oldNodes), x.freeNew(newNodes), func(n *topology.Node) string { return topicKey(n, name) })
	}
	for {
		for x.propagate(false) {
		}
		if !x.byIndex() && !x.propagate(true) {
			break
		}
	}
	return x.result()
}

func (x *nodeMatcher) pair(o, n *topology.Node) {
	x.m.o2n[o], x.m.n2o[n] = n, o
	x.order = append(x.order, [2]*topology.Node{o, n})
}

// free is the nodes of ns that taken does not pair.
func free(ns []*topology.Node, taken map[*topology.Node]*topology.Node) []*topology.Node {
	var out []*topology.Node
	for _, n := range ns {
		if taken[n] == nil {
			out = append(out, n)
		}
	}
	return out
}

func (x *nodeMatcher) freeOld(ns []*topology.Node) []*topology.Node { return free(ns, x.m.o2n) }
func (x *nodeMatcher) freeNew(ns []*topology.Node) []*topology.Node { return free(ns, x.m.n2o) }

// byName pairs the nodes of the same name.
func (x *nodeMatcher) byName() {
	for _, o := range x.oldNodes {
		x.stop.tick()
		if n := x.newBy[o.Name]; n != nil && x.m.n2o[n] == nil {
			x.pair(o, n)
		}
	}
}

// unique pairs the nodes whose key is unique on both sides.
func (x *nodeMatcher) unique(os, ns []*topology.Node, key func(*topology.Node) string) bool {
	count := func(xs []*topology.Node) map[string][]*topology.Node {
		by := map[string][]*topology.Node{}
		for _, n := range xs {
			if k := key(n); k != "" {
				by[k] = append(by[k], n)
			}
		}
		return by
	}
	ob, nb := count(os), count(ns)
	found := false
	for _, o := range os {
		k := key(o)
		if k != "" && len(ob[k]) == 1 && len(nb[k]) == 1 && x.m.o2n[o] == nil && x.m.n2o[nb[k][0]] == nil {
			x.pair(o, nb[k][0])
			found = true
		}
	}
	return found
}

func kindFamily(n *topology.Node) string { return n.Kind.String() + ":" + family(n.Name) }

// edges are a node's successors and its predecessors.
var edges = []func(*topology.Node) []string{
	func(n *topology.Node) []string { return n.Successors },
	func(n *topology.Node) []string { return n.Predecessors },
}

// propagate pairs the unpaired neighbours of the pairs found so far; with
// loose, also the only neighbour left of a kind when the two names may be
// one node's (related).
func (x *nodeMatcher) propagate(loose bool) bool {
	grew := false
	for i := 0; i < len(x.order); i++ {
		x.stop.tick()
		o, n := x.order[i][0], x.order[i][1]
		for _, e := range edges {
			if x.propagateEdge(lookup(x.oldBy, e(o)), lookup(x.newBy, e(n)), loose) {
				grew = true
			}
		}
	}
	return grew
}

// propagateEdge pairs the unpaired neighbours os and ns of one pair.
func (x *nodeMatcher) propagateEdge(os, ns []*topology.Node, loose bool) bool {
	os, ns = x.freeOld(os), x.freeNew(ns)
	grew := false
	if x.unique(os, ns, kindFamily) {
		grew = true
		os, ns = x.freeOld(os), x.freeNew(ns)
	}
	if loose && len(os) == 1 && len(ns) == 1 && os[0].Kind == ns[0].Kind && related(os[0].Name, ns[0].Name) {
		x.pair(os[0], ns[0])
		grew = true
	}
	return grew
}

// byIndex pairs generated names of one family, in index order.
func (x *nodeMatcher) byIndex() bool {
	byFamily := func(ns []*topology.Node) map[string][]*topology.Node {
		by := map[string][]*topology.Node{}
		for _, n := range ns {
			if isGenerated(n.Name) {
				by[kindFamily(n)] = append(by[kindFamily(n)], n)
			}
		}
		return by
	}
	grew := false
	nf := byFamily(x.freeNew(x.newNodes))
	cmpIndex := func(a, b *topology.Node) int { return cmp.Compare(index(a.Name), index(b.Name)) }
	for k, os := range byFamily(x.freeOld(x.oldNodes)) {
		ns := nf[k]
		slices.SortFunc(os, cmpIndex)
		slices.SortFunc(ns, cmpIndex)
		for i := range min(len(os), len(ns)) {
			x.pair(os[i], ns[i])
			grew = true
		}
	}
	return grew
}

// result is the pairs in OLD's node order and the nodes left.
func (x *nodeMatcher) result() *nodeMatch {
	m := x.m
	for _, o := range x.oldNodes {
		if n := m.o2n[o]; n != nil {
			m.pairs = append(m.pairs, [2]*topology.Node{o, n})
		} else {
			m.removed = append(m.removed, o)
		}
	}
	m.added = x.freeNew(x.newNodes)
	return m
}

// topicKey identifies a source by its topics and a sink by its topic,
// through name; "" for a processor.
func topicKey(n *topology.Node, name func(string) string) string {
	switch n.Kind {
	case topology.Source:
		ts := make([]string, len(n.Topics))
		for i, t := range n.Topics {
			ts[i] = name(t)
		}
		slices.Sort(ts)
		return "source:" + strings.Join(ts, ",") + "|" + n.Pattern
	case topology.Sink:
		if n.Topic == nil {
			return "" // dynamic sinks are told apart by their place only
		}
		return "sink:" + name(*n.Topic)
	}
	return ""
}

func byName(ns []*topology.Node) map[string]*topology.Node {
	m := make(map[string]*topology.Node, len(ns))
	for _, n := range ns {
		if _, dup := m[n.Name]; !dup {
			m[n.Name] = n
		}
	}
	return m
}

func lookup(by map[string]*topology.Node, names []string) []*topology.Node {
	var out []*topology.Node
	for _, name := range names {
		if n := by[name]; n != nil {
			out = append(out, n)
		}
	}
	return out
}

// related tells whether two names of nodes in the same place may name one
// node: one of them is generated, or both end in the same suffix Kafka
// Streams derives from an operation's name. Two names the user chose
// otherwise are two nodes.
func related(a, b string) bool {
	if isGenerated(a) || isGenerated(b) {
		return true
	}
	ra, rb := derivedSuffix(a), derivedSuffix(b)
	return ra != "" && ra == rb
}

// derivedSuffixes are the node names Kafka Streams derives from a name the
// user gave an operation (KStreamImpl, KGroupedStreamImpl, KTableImpl).
var derivedSuffixes = []string{
	"-repartition-filter", "-repartition-sink", "-repartition-source",
	"-subscription-registration-sink", "-subscription-registration-source", "-subscription-registration-processor",
	"-subscription-response-sink", "-subscription-response-source", "-subscription-response-resolver", "-subscription-receive",
}

func derivedSuffix(name string) string {
	for _, s := range derivedSuffixes {
		if strings.HasSuffix(name, s) && len(name) > len(s) {
			return s
		}
	}
	return ""
}
