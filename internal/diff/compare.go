package diff

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// Comparison is the outcome of comparing two normalised topologies.
type Comparison struct {
	// Old and New are the normalised descriptions (normalize).
	Old, New *topology.Description
	// Subtopologies pairs OLD's sub-topologies with NEW's, in OLD's order,
	// then the ones only NEW has.
	Subtopologies []SubtopologyChange
	// GlobalStores pairs the global stores the same way.
	GlobalStores []GlobalStoreChange
	// Findings are most severe first.
	Findings []Finding
	// BrokerChecked tells that OLD is a group, so the findings say
	// whether its coordinator accepts NEW's topology (Refused).
	BrokerChecked bool
}

// SubtopologyChange is one sub-topology of OLD and what it became in NEW.
type SubtopologyChange struct {
	// Old and New are nil for a sub-topology only the other side has.
	Old, New *topology.Subtopology
	// Added and Removed are the nodes only NEW and only OLD have; all of
	// them for an added or removed sub-topology.
	Added, Removed []*topology.Node
	// Changed are the pairs of nodes that differ, in OLD's order.
	Changed []NodeChange
}

// Unchanged tells whether the sub-topology is the same on both sides.
func (s SubtopologyChange) Unchanged() bool {
	return s.Old != nil && s.New != nil && s.Old.ID == s.New.ID && len(s.Added)+len(s.Removed)+len(s.Changed) == 0
}

// Field is an aspect of a node that changed.
type Field string

// The aspects of a node that are compared.
const (
	FieldName       Field = "name"
	FieldType       Field = "type"
	FieldTopics     Field = "topics"
	FieldStores     Field = "stores"
	FieldSuccessors Field = "successors"
)

// NodeChange is a node of OLD and the node of NEW it became, with what
// differs. Successors are compared through the pairing, so a successor
// whose name shifted is not a change of this node.
type NodeChange struct {
	Old, New *topology.Node
	Fields   []Field
}

// GlobalStoreChange is a global store of OLD and what it became in NEW.
type GlobalStoreChange struct {
	// Old and New are nil for a global store only the other side has.
	Old, New *topology.GlobalStore
	// Source and Processor are the changes of its two nodes, nil when the
	// node did not change (or the store is only on one side).
	Source, Processor *NodeChange
}

// Unchanged tells whether the global store is the same on both sides.
func (g GlobalStoreChange) Unchanged() bool {
	return g.Old != nil && g.New != nil && g.Source == nil && g.Processor == nil
}

// Identical tells whether the two topologies are the same after
// normalisation.
func (c *Comparison) Identical() bool {
	return len(c.Findings) == 0 &&
		!slices.ContainsFunc(c.Subtopologies, func(s SubtopologyChange) bool { return !s.Unchanged() }) &&
		!slices.ContainsFunc(c.GlobalStores, func(g GlobalStoreChange) bool { return !g.Unchanged() })
}

// Count is the number of findings of severity s.
func (c *Comparison) Count(s Severity) int {
	n := 0
	for _, f := range c.Findings {
		if f.Severity() == s {
			n++
		}
	}
	return n
}

// CompareContext compares NEW with OLD: normalises both, pairs
// sub-topologies, nodes and global stores, and derives the findings. It
// stops soon after ctx is done (a signal), with ctx's cause as the error
// and no comparison.
func CompareContext(ctx context.Context, oldIn, newIn Input) (c *Comparison, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, ok := r.(stopped)
			if !ok {
				panic(r)
			}
			c, err = nil, s.cause
		}
	}()
	return compare(&stopper{ctx: ctx}, oldIn, newIn), nil
}

func compare(stop *stopper, oldIn, newIn Input) *Comparison {
	o, n := normalize(oldIn, stop), normalize(newIn, stop)
	c := &Comparison{Old: o.desc, New: n.desc}
	x := &comparer{c: c, old: o, new: n, o2n: map[*topology.Node]*topology.Node{}, n2o: map[*topology.Node]*topology.Node{},
		oldSub: map[*topology.Node]string{}, newSub: map[*topology.Node]string{}, stop: stop}
	x.subtopologies()
	x.globalStores()
	x.stores()
	x.topics()
	x.nodes()
	x.broker()
	c.Findings = bySeverity(c.Findings)
	c.Findings = slices.Compact(c.Findings)
	return c
}

// comparer holds what the passes share.
type comparer struct {
	c        *Comparison
	old, new *side
	// o2n and n2o pair nodes across all sub-topologies.
	o2n, n2o map[*topology.Node]*topology.Node
	// oldSub and newSub are each node's sub-topology id.
	oldSub, newSub map[*topology.Node]string
	// subOf pairs sub-topology ids: OLD id to NEW id and back.
	o2nSub, n2oSub map[string]string
	// renamedStores maps an OLD store to the NEW store it became.
	renamedStores map[string]string
	stop          *stopper
}

func (x *comparer) add(f Finding) { x.c.Findings = append(x.c.Findings, f) }

// at fills a finding's location from a node of OLD and/or NEW.
func (x *comparer) at(f Finding, o, n *topology.Node) Finding {
	if o != nil {
		f.OldSubtopology = x.oldSub[o]
		if f.NewSubtopology == "" {
			f.NewSubtopology = x.o2nSub[f.OldSubtopology]
		}
	}
	if n != nil {
		f.NewSubtopology = x.newSub[n]
		if f.OldSubtopology == "" {
			f.OldSubtopology = x.n2oSub[f.NewSubtopology]
		}
	}
	return f
}

func (x *comparer) subtopologies() {
	x.o2nSub, x.n2oSub = map[string]string{}, map[string]string{}
	for _, s := range x.old.desc.Subtopologies {
		for _, nd := range s.Nodes {
			x.oldSub[nd] = s.ID
		}
	}
	for _, s := range x.new.desc.Subtopologies {
		for _, nd := range s.Nodes {
			x.newSub[nd] = s.ID
		}
	}
	pairs, removed, added := matchSubtopologies(x.old.desc.Subtopologies, x.new.desc.Subtopologies, x.stop)
	for _, p := range pairs {
		x.o2nSub[p.old.ID], x.n2oSub[p.new.ID] = p.new.ID, p.old.ID
	}
	for _, p := range pairs {
		x.stop.tick()
		m := matchNodes(p.old.Nodes, p.new.Nodes, x.stop)
		for o, n := range m.o2n {
			x.o2n[o], x.n2o[n] = n, o
		}
		ch := SubtopologyChange{Old: p.old, New: p.new, Added: m.added, Removed: m.removed}
		oldBy := byName(p.old.Nodes)
		for _, pr := range m.pairs {
			if nc := x.nodeChange(pr[0], pr[1], m, oldBy); nc != nil {
				ch.Changed = append(ch.Changed, *nc)
			}
		}
		x.c.Subtopologies = append(x.c.Subtopologies, ch)
		if p.old.ID != p.new.ID {
			x.add(Finding{Kind: SubtopologyRenumbered, Subject: "sub-topology", OldSubtopology: p.old.ID, NewSubtopology: p.new.ID,
				Old: p.old.ID, New: p.new.ID, SameContent: len(ch.Added)+len(ch.Removed)+len(ch.Changed) == 0})
		}
	}
	for _, s := range removed {
		x.c.Subtopologies = append(x.c.Subtopologies, SubtopologyChange{Old: s, Removed: s.Nodes})
	}
	at := make(map[*topology.Subtopology]int, len(x.old.desc.Subtopologies))
	for i, s := range x.old.desc.Subtopologies {
		at[s] = i
	}
	slices.SortStableFunc(x.c.Subtopologies, func(a, b SubtopologyChange) int { return cmp.Compare(at[a.Old], at[b.Old]) })
	for _, s := range added {
		x.c.Subtopologies = append(x.c.Subtopologies, SubtopologyChange{New: s, Added: s.Nodes})
	}
}

// nodeChange compares two paired nodes; nil when they are the same.
func (x *comparer) nodeChange(o, n *topology.Node, m *nodeMatch, oldBy map[string]*topology.Node) *NodeChange {
	var fields []Field
	if o.Name != n.Name {
		fields = append(fields, FieldName)
	}
	if o.Kind != n.Kind {
		fields = append(fields, FieldType)
	}
	if !sameTopics(o, n) {
		fields = append(fields, FieldTopics)
	}
	if !slices.Equal(o.Stores, n.Stores) {
		fields = append(fields, FieldStores)
	}
	succ := make([]string, 0, len(o.Successors))
	for _, s := range o.Successors {
		succ = append(succ, m.newName(oldBy, s))
	}
	if !slices.Equal(set(succ), n.Successors) {
		fields = append(fields, FieldSuccessors)
	}
	if fields == nil {
		return nil
	}
	return &NodeChange{Old: o, New: n, Fields: fields}
}

// sameTopics compares what two nodes read or write. A pattern known on one
// side only (the broker does not carry it) is not a difference.
func sameTopics(o, n *topology.Node) bool {
	if !slices.Equal(o.Topics, n.Topics) {
		return false
	}
	if o.Pattern != n.Pattern && o.Pattern != "" && n.Pattern != "" {
		return false
	}
	if o.Topic == nil || n.Topic == nil {
		return o.Topic == nil && n.Topic == nil
	}
	return *o.Topic == *n.Topic
}

func (x *comparer) globalStores() {
	old, new := x.old.desc.GlobalStores, x.new.desc.GlobalStores
	paired, taken := pairGlobalStores(old, new, x.stop)
	for i, o := range old {
		if paired[i] < 0 {
			name := strings.Join(o.Processor.Stores, ", ")
			x.c.GlobalStores = append(x.c.GlobalStores, GlobalStoreChange{Old: o})
			x.add(Finding{Kind: GlobalStoreRemoved, GlobalStore: name, Subject: "store", Old: name})
			continue
		}
		x.c.GlobalStores = append(x.c.GlobalStores, x.globalStoreChange(o, new[paired[i]]))
	}
	for j, n := range new {
		if !taken[j] {
			name := strings.Join(n.Processor.Stores, ", ")
			x.c.GlobalStores = append(x.c.GlobalStores, GlobalStoreChange{New: n})
			x.add(Finding{Kind: GlobalStoreAdded, GlobalStore: name, Subject: "store", New: name})
		}
	}
}

// globalStoreChange compares a global store of OLD with the one of NEW it
// became.
func (x *comparer) globalStoreChange(o, n *topology.GlobalStore) GlobalStoreChange {
	name := strings.Join(o.Processor.Stores, ", ")
	m := matchNodes([]*topology.Node{o.Source, o.Processor}, []*topology.Node{n.Source, n.Processor}, x.stop)
	g := GlobalStoreChange{Old: o, New: n}
	oldBy := byName([]*topology.Node{o.Source, o.Processor})
	for _, pr := range m.pairs {
		nc := x.nodeChange(pr[0], pr[1], m, oldBy)
		if nc == nil {
			continue
		}
		if pr[0].Kind == topology.Source {
			g.Source = nc
		} else {
			g.Processor = nc
		}
		if shifted(pr[0].Name, pr[1].Name) {
			x.add(Finding{Kind: GeneratedNameShifted, GlobalStore: name, Subject: pr[0].Kind.String(), Old: pr[0].Name, New: pr[1].Name})
		}
	}
	if t, u := globalTopics(o), globalTopics(n); t != u {
		x.add(Finding{Kind: GlobalStoreChanged, GlobalStore: name, Subject: "topic", Old: strings.Join(o.Source.Topics, ", "), New: strings.Join(n.Source.Topics, ", "), Node: n.Source.Name})
	}
	if s, u := globalStores(o), globalStores(n); s != u {
		x.add(Finding{Kind: GlobalStoreChanged, GlobalStore: name, Subject: "store", Old: s, New: u, Node: n.Processor.Name})
	}
	return g
}

// pairGlobalStores pairs each global store of OLD with the first one of
// NEW, in NEW's order, not paired yet, in passes: the same topics and
// stores; the same topics; a store in common; a topic in common. paired
// is the index in NEW of each of OLD's (-1: none), taken tells which of
// NEW's are paired. Each pass looks its candidates up in an index of NEW
// (comparing every pair was quadratic: 5 s for 4,000 global stores).
func pairGlobalStores(old, new []*topology.GlobalStore, stop *stopper) (paired []int, taken []bool) {
	paired, taken = slices.Repeat([]int{-1}, len(old)), make([]bool, len(new))
	both := func(g *topology.GlobalStore) []string {
		t := globalTopics(g)
		return []string{strconv.Itoa(len(t)) + ":" + t + globalStores(g)}
	}
	topics := func(g *topology.GlobalStore) []string { return []string{globalTopics(g)} }
	stores := func(g *topology.GlobalStore) []string { return g.Processor.Stores }
	sources := func(g *topology.GlobalStore) []string { return g.Source.Topics }
	for _, keys := range []func(*topology.GlobalStore) []string{both, topics, stores, sources} {
		index := map[string][]int{}
		for j, n := range new {
			if !taken[j] {
				stop.tick()
				for _, k := range keys(n) {
					index[k] = append(index[k], j)
				}
			}
		}
		for i, o := range old {
			if paired[i] >= 0 {
				continue
			}
			if j := firstFree(index, keys(o), taken, stop); j >= 0 {
				paired[i], taken[j] = j, true
			}
		}
	}
	return paired, taken
}

// firstFree is the least index of NEW not taken under any of keys, -1
// when none; the taken indexes it passes are dropped from index, so each
// is passed once.
func firstFree(index map[string][]int, keys []string, taken []bool, stop *stopper) int {
	best := -1
	for _, k := range keys {
		stop.tick()
		js, ok := index[k]
		if !ok {
			continue
		}
		js = dropUsed(stop, js, func(j int) bool { return taken[j] })
		index[k] = js
		if len(js) > 0 && (best < 0 || js[0] < best) {
			best = js[0]
		}
	}
	return best
}

// located is a name with the node it was found at.
type located struct {
	name string
	node *topology.Node
}

// storesOf lists the stores of a side's sub-topologies (not its global
// stores), in node order, each with its first node.
func storesOf(d *topology.Description) ([]located, map[string]*topology.Node) {
	var list []located
	at := map[string]*topology.Node{}
	for _, s := range d.Subtopologies {
		for _, n := range s.Nodes {
			for _, st := range n.Stores {
				if at[st] == nil {
					at[st] = n
					list = append(list, located{st, n})
				}
			}
		}
	}
	return list, at
}

// stores finds the stores renamed, removed and added, and their
// changelogs.
func (x *comparer) stores() {
	oldList, oldAt := storesOf(x.old.desc)
	newList, newAt := storesOf(x.new.desc)
	x.renamedStores = map[string]string{}
	claimed := map[string]bool{}
	onlyNew := map[*topology.Node]*newStores{}
	for _, st := range oldList {
		if newAt[st.name] == nil {
			x.storeGone(st, oldAt, newAt, claimed, onlyNew)
		}
	}
	for _, st := range newList {
		if oldAt[st.name] == nil && !claimed[st.name] {
			x.add(x.at(Finding{Kind: StoreAdded, Subject: "store", New: st.name, Node: st.node.Name}, nil, st.node))
		}
	}
	x.changelogs(oldList, newList, newAt)
}

// newStores are the stores only NEW has of one node of NEW, in its order:
// all of them and by family. The claimed ones at the head of a list are
// dropped when met, so each is passed once (looking through the node's
// stores for each store of OLD was quadratic: 4.5 s for one processor with
// 5,000 renamed stores, minutes for 20,000).
type newStores struct {
	all      []string
	byFamily map[string][]string
}

func (x *comparer) newStoresOf(n *topology.Node, oldAt map[string]*topology.Node, cache map[*topology.Node]*newStores) *newStores {
	if c := cache[n]; c != nil {
		return c
	}
	c := &newStores{byFamily: map[string][]string{}}
	for _, s := range n.Stores {
		x.stop.tick()
		if oldAt[s] == nil {
			c.all = append(c.all, s)
			c.byFamily[family(s)] = append(c.byFamily[family(s)], s)
		}
	}
	cache[n] = c
	return c
}

// storeGone reports a store of OLD that NEW does not have: renamed when the
// node that kept it keeps a store only NEW has (the first of its family,
// else the first), else removed.
func (x *comparer) storeGone(st located, oldAt, newAt map[string]*topology.Node, claimed map[string]bool, onlyNew map[*topology.Node]*newStores) {
	// The node that kept it in OLD keeps what in NEW?
	var to string
	found := false
	if n := x.o2n[st.node]; n != nil {
		c := x.newStoresOf(n, oldAt, onlyNew)
		f := family(st.name)
		isClaimed := func(s string) bool { return claimed[s] }
		c.byFamily[f], c.all = dropUsed(x.stop, c.byFamily[f], isClaimed), dropUsed(x.stop, c.all, isClaimed)
		for _, list := range [][]string{c.byFamily[f], c.all} {
			if len(list) > 0 {
				to, found = list[0], true
				break
			}
		}
	}
	if !found {
		x.add(x.at(Finding{Kind: StoreRemoved, Subject: "store", Old: st.name, Node: st.node.Name}, st.node, nil))
		return
	}
	claimed[to], x.renamedStores[st.name] = true, to
	n := newAt[to]
	x.add(x.at(Finding{Kind: StoreRenamed, Subject: "store", Old: st.name, New: to, Node: n.Name}, st.node, n))
	if shifted(st.name, to) {
		x.add(x.at(Finding{Kind: GeneratedNameShifted, Subject: "store", Old: st.name, New: to, Node: n.Name}, st.node, n))
	}
}

// changelogs reports the changelogs OLD has and NEW does not: what the
// coordinators list when both sides are groups, else what the stores
// imply (<store>-changelog: a file cannot say whether logging is off for a
// store).
func (x *comparer) changelogs(oldList, newList []located, newAt map[string]*topology.Node) {
	listed := x.old.changelogs != nil && x.new.changelogs != nil
	changelogs := func(s *side, list []located) ([]located, map[string]bool) {
		var out []located
		has := map[string]bool{}
		for _, st := range list {
			if cl := changelogOf(st.name); !listed || s.changelogs[cl] {
				out, has[cl] = append(out, located{cl, st.node}), true
			}
		}
		return out, has
	}
	oldCL, _ := changelogs(x.old, oldList)
	_, newCL := changelogs(x.new, newList)
	for _, cl := range oldCL {
		if newCL[cl.name] {
			continue
		}
		store := strings.TrimSuffix(cl.name, changelogSuffix)
		if to := x.renamedStores[store]; to != "" && newCL[changelogOf(to)] {
			x.add(x.at(Finding{Kind: ChangelogRenamed, Subject: "topic", Old: cl.name, New: changelogOf(to), Node: newAt[to].Name}, cl.node, newAt[to]))
			continue
		}
		x.add(x.at(Finding{Kind: ChangelogRemoved, Subject: "topic", Old: cl.name, Node: cl.node.Name}, cl.node, nil))
	}
}

// topicUse is where a side reads and writes each topic.
type topicUse struct {
	// order lists the topics as first seen, in node order.
	order []string
	// readers and writers are the sources and sinks of each topic.
	readers, writers map[string][]*topology.Node
	// repartition are the side's repartition topics.
	repartition map[string]bool
	// dynamic are the pattern sources and dynamic sinks.
	dynamic []*topology.Node
}

func usesOf(s *side) *topicUse {
	u := &topicUse{readers: map[string][]*topology.Node{}, writers: map[string][]*topology.Node{}, repartition: map[string]bool{}}
	for t := range s.repartition {
		u.repartition[t] = true
	}
	seen := map[string]bool{}
	note := func(t string) {
		if !seen[t] {
			seen[t] = true
			u.order = append(u.order, t)
		}
		if isRepartition(t) {
			u.repartition[t] = true
		}
	}
	for _, sub := range s.desc.Subtopologies {
		for _, n := range sub.Nodes {
			switch n.Kind {
			case topology.Source:
				for _, t := range n.Topics {
					note(t)
					u.readers[t] = append(u.readers[t], n)
				}
				if n.Pattern != "" || len(n.Topics) == 0 {
					u.dynamic = append(u.dynamic, n)
				}
			case topology.Sink:
				if n.Topic == nil {
					u.dynamic = append(u.dynamic, n)
					continue
				}
				note(*n.Topic)
				u.writers[*n.Topic] = append(u.writers[*n.Topic], n)
			}
		}
	}
	return u
}

// topics finds the repartition, source and sink topics that changed, and
// the nodes whose topics cannot be compared.
func (x *comparer) topics() {
	o, n := usesOf(x.old), usesOf(x.new)
	internal := func(t string) bool { return o.repartition[t] || n.repartition[t] || isInternalName(t) }
	x.repartitionTopics(o, n)
	x.sourceTopics(o, n, internal)
	x.sinkTopics(o, n, internal)
	x.dynamicNodes(o, n)
}

// repartitionTopics finds the repartition topics renamed and removed:
// renamed when a node that used the old one uses a new one instead.
func (x *comparer) repartitionTopics(o, n *topicUse) {
	claimed := map[string]bool{}
	onlyNew := x.newRepartitionBySub(o, n)
	usedBy := map[*topology.Node][]string{}
	for _, t := range o.order {
		x.stop.tick()
		if !o.repartition[t] || n.readers[t] != nil || n.writers[t] != nil {
			continue
		}
		users := slices.Concat(o.writers[t], o.readers[t])
		to, at := x.repartitionOfPair(users, o, n, claimed, usedBy)
		if to == "" {
			to, at = x.onlyNewRepartition(t, o, onlyNew, claimed)
		}
		if to == "" {
			x.add(x.at(Finding{Kind: RepartitionRemoved, Subject: "topic", Old: t, Node: users[0].Name}, users[0], nil))
			continue
		}
		claimed[to] = true
		x.add(x.at(Finding{Kind: RepartitionRenamed, Subject: "topic", Old: t, New: to, Node: at.Name}, x.n2o[at], at))
	}
}

// repartitionOfPair is the first repartition topic only NEW has, not
// claimed yet, that the counterpart of one of a topic's users uses.
// usedBy lists, once per node of NEW, the repartition topics only NEW has
// that it uses, in its order, the claimed ones at the head dropped when
// met (listing a node's topics again for each topic of OLD was quadratic:
// 3.7 s for a source of 5,000 renamed repartition topics, 2 minutes for
// 20,000).
func (x *comparer) repartitionOfPair(users []*topology.Node, o, n *topicUse, claimed map[string]bool, usedBy map[*topology.Node][]string) (string, *topology.Node) {
	for _, u := range users {
		x.stop.tick()
		nn := x.o2n[u]
		if nn == nil {
			continue
		}
		cands, ok := usedBy[nn]
		if !ok {
			for _, c := range slices.Concat(nn.Topics, optional(nn.Topic)) {
				x.stop.tick()
				if n.repartition[c] && o.readers[c] == nil && o.writers[c] == nil {
					cands = append(cands, c)
				}
			}
		}
		cands = dropUsed(x.stop, cands, func(c string) bool { return claimed[c] })
		usedBy[nn] = cands
		if len(cands) > 0 {
			return cands[0], nn
		}
	}
	return "", nil
}

// sourceTopics finds the user topics no longer read and newly read.
func (x *comparer) sourceTopics(o, n *topicUse, internal func(string) bool) {
	for _, t := range o.order {
		if !internal(t) && o.readers[t] != nil && n.readers[t] == nil {
			x.add(x.at(Finding{Kind: SourceRemoved, Subject: "topic", Old: t, Node: o.readers[t][0].Name}, o.readers[t][0], nil))
		}
	}
	for _, t := range n.order {
		if !internal(t) && n.readers[t] != nil && o.readers[t] == nil {
			x.add(x.at(Finding{Kind: SourceAdded, Subject: "topic", New: t, Node: n.readers[t][0].Name}, nil, n.readers[t][0]))
		}
	}
}

// sinkTopics finds the user topics written: a sink that writes another
// topic, then topics no longer written and topics newly written.
func (x *comparer) sinkTopics(o, n *topicUse, internal func(string) bool) {
	doneOld, doneNew := map[string]bool{}, map[string]bool{}
	for _, t := range o.order {
		if internal(t) || n.writers[t] != nil {
			continue
		}
		for _, w := range o.writers[t] {
			nn := x.o2n[w]
			if nn == nil || nn.Kind != topology.Sink || nn.Topic == nil || internal(*nn.Topic) || o.writers[*nn.Topic] != nil {
				continue
			}
			doneOld[t], doneNew[*nn.Topic] = true, true
			x.add(x.at(Finding{Kind: SinkChanged, Subject: "topic", Old: t, New: *nn.Topic, Node: nn.Name}, w, nn))
			break
		}
	}
	for _, t := range o.order {
		if !internal(t) && o.writers[t] != nil && n.writers[t] == nil && !doneOld[t] {
			x.add(x.at(Finding{Kind: SinkChanged, Subject: "topic", Old: t, Node: o.writers[t][0].Name}, o.writers[t][0], nil))
		}
	}
	for _, t := range n.order {
		if !internal(t) && n.writers[t] != nil && o.writers[t] == nil && !doneNew[t] {
			x.add(x.at(Finding{Kind: SinkChanged, Subject: "topic", New: t, Node: n.writers[t][0].Name}, nil, n.writers[t][0]))
		}
	}
}

// dynamicNodes reports the pattern sources and dynamic sinks, once per
// node pair.
func (x *comparer) dynamicNodes(o, n *topicUse) {
	reported := map[*topology.Node]bool{}
	for _, nd := range o.dynamic {
		f := Finding{Kind: DynamicNode, Subject: dynamicSubject(nd), Node: nd.Name, Old: nd.Name}
		if nn := x.o2n[nd]; nn != nil {
			reported[nn] = true
			f.New = nn.Name
			f = x.at(f, nd, nn)
		} else {
			f = x.at(f, nd, nil)
		}
		x.add(f)
	}
	for _, nd := range n.dynamic {
		if !reported[nd] {
			x.add(x.at(Finding{Kind: DynamicNode, Subject: dynamicSubject(nd), Node: nd.Name, New: nd.Name}, nil, nd))
		}
	}
}

func dynamicSubject(nd *topology.Node) string {
	if nd.Kind == topology.Source {
		return "pattern source"
	}
	return "dynamic sink"
}

// written is a topic and a node that writes it.
type written struct {
	topic  string
	writer *topology.Node
}

// newRepartitionBySub lists, for each sub-topology of NEW, the repartition
// topics only NEW uses that it writes, in NEW's topic order, each with its
// writers: what onlyNewRepartition looks through, built once (looking
// through all of NEW's topics for each topic of OLD was quadratic: 6 s
// for 5,000 renamed repartition topics, 16 s for 10,000).
func (x *comparer) newRepartitionBySub(o, n *topicUse) map[string][]written {
	by := map[string][]written{}
	for _, c := range n.order {
		x.stop.tick()
		if !n.repartition[c] || o.readers[c] != nil || o.writers[c] != nil {
			continue
		}
		for _, w := range n.writers[c] {
			sub := x.newSub[w]
			by[sub] = append(by[sub], written{c, w})
		}
	}
	return by
}

// onlyNewRepartition is the repartition topic that replaces t when no node
// pairing says so: the only new one written in the sub-topology that
// took the place of t's writer's. The claimed topics met on the way are
// dropped from onlyNew, so each is passed over once.
func (x *comparer) onlyNewRepartition(t string, o *topicUse, onlyNew map[string][]written, claimed map[string]bool) (string, *topology.Node) {
	if len(o.writers[t]) == 0 {
		return "", nil
	}
	sub, ok := x.o2nSub[x.oldSub[o.writers[t][0]]]
	if !ok {
		return "", nil
	}
	list := onlyNew[sub]
	var to string
	var at *topology.Node
	kept := 0
	for i, e := range list {
		x.stop.tick()
		if claimed[e.topic] {
			continue
		}
		if to != "" && to != e.topic {
			kept += copy(list[kept:], list[i:])
			onlyNew[sub] = list[:kept]
			return "", nil // more than one: no guess
		}
		list[kept] = e
		kept++
		to, at = e.topic, e.writer
	}
	onlyNew[sub] = list[:kept]
	return to, at
}

func optional(s *string) []string {
	if s == nil {
		return nil
	}
	return []string{*s}
}

// nodes finds the shifted generated names and the stateless processors
// added and removed.
func (x *comparer) nodes() {
	for _, s := range x.c.Subtopologies {
		if s.Old != nil && s.New != nil {
			for _, ch := range s.Changed {
				if shifted(ch.Old.Name, ch.New.Name) {
					x.add(x.at(Finding{Kind: GeneratedNameShifted, Subject: ch.Old.Kind.String(), Old: ch.Old.Name, New: ch.New.Name}, ch.Old, ch.New))
				}
			}
		}
		for _, nd := range s.Removed {
			if nd.Kind == topology.Processor && len(nd.Stores) == 0 {
				x.add(x.at(Finding{Kind: ProcessorRemoved, Subject: "processor", Old: nd.Name}, nd, nil))
			}
		}
		for _, nd := range s.Added {
			if nd.Kind == topology.Processor && len(nd.Stores) == 0 {
				x.add(x.at(Finding{Kind: ProcessorAdded, Subject: "processor", New: nd.Name}, nil, nd))
			}
		}
	}
}

// bySeverity is findings most severe first, then in the order of Kinds,
// each kind's findings in the order they were found: a stable sort on a
// key of a few values, done by kind in one pass (a comparison sort of
// hundreds of thousands of findings moves them around for a second).
func bySeverity(findings []Finding) []Finding {
	// Counted per kind, then each finding copied once to its kind's
	// place: a 20 MB side has hundreds of thousands of findings, and a
	// slice per kind grown by append cost as much again in memory.
	count := map[Kind]int{}
	var order []Kind
	for _, f := range findings {
		if _, ok := count[f.Kind]; !ok {
			order = append(order, f.Kind)
		}
		count[f.Kind]++
	}
	slices.SortFunc(order, func(a, b Kind) int {
		return cmp.Or(cmp.Compare(b.Severity(), a.Severity()), cmp.Compare(a.order(), b.order()))
	})
	next := make(map[Kind]int, len(order))
	at := 0
	for _, k := range order {
		next[k] = at
		at += count[k]
	}
	out := make([]Finding, len(findings))
	for _, f := range findings {
		out[next[f.Kind]] = f
		next[f.Kind]++
	}
	return out
}
