package history

import (
	"cmp"
	"maps"
	"slices"
	"time"

	cr "github.com/kstreams-groups/kstreams-groups/internal/coordrecords"
)

// The timeline is built from the group's records in offset order by a
// timeline: it keeps the group's state as the coordinator wrote it
// (members, topology, group metadata, target and current assignments)
// and, for each new group epoch, compares what the epoch's write changed.
//
// The records of one coordinator write share a record batch: a heartbeat
// that bumps the epoch writes the member's metadata (or, for a member
// removed, the tombstones of its assignments and metadata), the topology,
// then the group metadata with the new epoch, then the target assignment.
// The causes of an epoch are the member and topology records of its batch
// since the previous group metadata record of that batch; a change
// written without a bump (a static member replaced with the same
// metadata) is no rebalance and no entry.

// Record is one of the group's records, decoded: Value nil is a
// tombstone.
type Record struct {
	Offset, Batch int64
	Time          time.Time
	Key           cr.Key
	Value         cr.Value
}

// owners are the task owners of one target assignment, by process.
type owners struct {
	active          map[Task]string
	standby, warmup map[Placement]bool
}

// timeline is the state of the fold.
type timeline struct {
	members map[string]*cr.MemberMetadata
	current map[string]*cr.CurrentMemberAssignment
	// leftStatic are the static members that left for a while (member
	// epoch -2), until they are back or removed.
	leftStatic map[string]bool
	target     map[string]*cr.TargetAssignmentMember
	topology   *cr.Topology
	meta       *cr.GroupMetadata
	// assigned are the owners of the last target assignment read.
	assigned owners

	// batch is the batch of the records being read; pending the causes
	// its records gave since its last group metadata record.
	batch   int64
	pending []Cause

	entries []Entry
	// batches are the base offsets of the entries' batches: an entry
	// whose batch began before the last gap may have lost records.
	batches []int64
	// sure tells that the group's absence is known: no gap since the
	// start of the log or since the group was deleted, so a first group
	// metadata record is the group's creation.
	sure bool
	// open is the index of the last entry while it may still get its
	// assignment or converge; -1 when none.
	open int
}

func newTimeline() *timeline {
	return &timeline{
		members: map[string]*cr.MemberMetadata{}, current: map[string]*cr.CurrentMemberAssignment{}, leftStatic: map[string]bool{},
		target: map[string]*cr.TargetAssignmentMember{}, assigned: emptyOwners(), batch: -1, open: -1, sure: true,
	}
}

func emptyOwners() owners {
	return owners{active: map[Task]string{}, standby: map[Placement]bool{}, warmup: map[Placement]bool{}}
}

// gap notes that records before the next one were compacted away: what
// the timeline holds is the state the survivors give, the entries before
// are not trusted (Result keeps those after the last gap), and the
// owners compared with the next assignment are those of the target
// assignment as it stands.
func (t *timeline) gap() {
	t.assigned = t.owners()
	t.pending, t.open, t.batch, t.sure = nil, -1, -1, false
}

// add folds one record of the group into the timeline.
func (t *timeline) add(r Record) {
	if r.Batch != t.batch {
		t.batch, t.pending = r.Batch, nil
	}
	switch r.Key.Type {
	case cr.TypeStreamsGroupMemberMetadata:
		v, _ := r.Value.(*cr.MemberMetadata)
		t.member(r.Key.MemberID, v)
	case cr.TypeStreamsGroupTopology:
		v, _ := r.Value.(*cr.Topology)
		t.setTopology(v)
	case cr.TypeStreamsGroupMetadata:
		v, _ := r.Value.(*cr.GroupMetadata)
		t.epoch(r, v)
	case cr.TypeStreamsGroupTargetAssignmentMember:
		if v, _ := r.Value.(*cr.TargetAssignmentMember); v != nil {
			t.target[r.Key.MemberID] = v
		} else {
			delete(t.target, r.Key.MemberID)
		}
	case cr.TypeStreamsGroupTargetAssignmentMetadata:
		if v, _ := r.Value.(*cr.TargetAssignmentMetadata); v != nil {
			t.assignment(v.AssignmentEpoch)
		}
	case cr.TypeStreamsGroupCurrentMemberAssignment:
		if v, _ := r.Value.(*cr.CurrentMemberAssignment); v != nil {
			t.current[r.Key.MemberID] = v
			if v.MemberEpoch == leftStaticEpoch {
				t.leftStatic[r.Key.MemberID] = true
			} else {
				delete(t.leftStatic, r.Key.MemberID)
			}
		} else {
			delete(t.current, r.Key.MemberID)
		}
	}
	t.converge(r.Time)
}

// member folds a member's metadata record (nil: its tombstone).
func (t *timeline) member(id string, v *cr.MemberMetadata) {
	old := t.members[id]
	if v == nil {
		if old == nil {
			return
		}
		delete(t.members, id)
		left := t.leftStatic[id]
		delete(t.leftStatic, id)
		if i := t.pendingRejoin(id, old.InstanceID); i >= 0 {
			// The static member's new id came first: one rejoin.
			t.pending[i].PreviousMemberID = id
			return
		}
		c := Cause{Kind: MemberRemoved, Member: describe(id, old)}
		if left {
			c.Reason = ReasonSessionExpired
		}
		t.pending = append(t.pending, c)
		return
	}
	t.members[id] = v
	switch old {
	case nil:
		if i := t.pendingRemoval(v.InstanceID); i >= 0 {
			// The static member's old id went first in this write.
			prev := t.pending[i].Member.MemberID
			t.pending[i] = Cause{Kind: MemberRejoined, Member: describe(id, v), PreviousMemberID: prev}
			return
		}
		if prev := t.staticHolder(id, v.InstanceID); prev != "" {
			t.pending = append(t.pending, Cause{Kind: MemberRejoined, Member: describe(id, v), PreviousMemberID: prev})
			return
		}
		t.pending = append(t.pending, Cause{Kind: MemberJoined, Member: describe(id, v)})
	default:
		changed := memberChanges(old, v)
		if len(changed) == 0 {
			return
		}
		if i := slices.IndexFunc(t.pending, func(c Cause) bool {
			return (c.Kind == MemberJoined || c.Kind == MemberRejoined) && c.Member.MemberID == id
		}); i >= 0 {
			// Written again in the write that brought it (a static
			// member's metadata is copied from the old member id, then
			// its own): the cause names what it is now.
			c := &t.pending[i]
			c.Member = describe(id, v)
			if c.Kind == MemberRejoined {
				c.Changed = mergeNames(c.Changed, changed)
			}
			return
		}
		t.pending = append(t.pending, Cause{Kind: MemberChanged, Member: describe(id, v), Changed: changed})
	}
}

// mergeNames adds the names of b missing from a, in memberChanges' order.
func mergeNames(a, b []string) []string {
	for _, n := range b {
		if !slices.Contains(a, n) {
			a = append(a, n)
		}
	}
	return a
}

// leftStaticEpoch is the member epoch of a static member that left for
// a while (LEAVE_GROUP_STATIC_MEMBER_EPOCH): it keeps its tasks until it
// is back or its session expires.
const leftStaticEpoch = -2

// pendingRemoval is the index of this write's member-removed cause of a
// static member with instance id, -1 when none.
func (t *timeline) pendingRemoval(instance *string) int {
	if instance == nil || *instance == "" {
		return -1
	}
	return slices.IndexFunc(t.pending, func(c Cause) bool {
		return c.Kind == MemberRemoved && c.Member.InstanceID == *instance
	})
}

// pendingRejoin is the index of this write's member-rejoined cause of
// instance id that replaced member id (or a member not known yet), -1
// when none.
func (t *timeline) pendingRejoin(id string, instance *string) int {
	if instance == nil || *instance == "" {
		return -1
	}
	return slices.IndexFunc(t.pending, func(c Cause) bool {
		return c.Kind == MemberRejoined && c.Member.InstanceID == *instance && (c.PreviousMemberID == "" || c.PreviousMemberID == id)
	})
}

// staticHolder is another member that holds instance id (a static member
// replaced whose tombstone comes later), "" when none.
func (t *timeline) staticHolder(id string, instance *string) string {
	if instance == nil || *instance == "" {
		return ""
	}
	for _, m := range slices.Sorted(maps.Keys(t.members)) {
		if v := t.members[m]; m != id && v.InstanceID != nil && *v.InstanceID == *instance {
			return m
		}
	}
	return ""
}

func describe(id string, v *cr.MemberMetadata) *Member {
	m := &Member{MemberID: id, ProcessID: v.ProcessID, Host: v.ClientHost, ClientID: v.ClientID}
	if v.InstanceID != nil {
		m.InstanceID = *v.InstanceID
	}
	return m
}

// memberChanges names what changed between two metadata records of one
// member.
func memberChanges(a, b *cr.MemberMetadata) []string {
	var out []string
	add := func(changed bool, name string) {
		if changed {
			out = append(out, name)
		}
	}
	add(a.TopologyEpoch != b.TopologyEpoch, "topology_epoch")
	add(!equalPtr(a.RackID, b.RackID), "rack")
	add(!slices.Equal(a.ClientTags, b.ClientTags), "client_tags")
	add(!equalPtr(a.UserEndpoint, b.UserEndpoint), "endpoint")
	add(a.ProcessID != b.ProcessID, "process")
	add(a.ClientHost != b.ClientHost, "host")
	add(a.ClientID != b.ClientID, "client_id")
	add(!equalPtr(a.InstanceID, b.InstanceID), "instance_id")
	add(a.RebalanceTimeoutMs != b.RebalanceTimeoutMs, "rebalance_timeout")
	return out
}

func equalPtr[T comparable](a, b *T) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// setTopology folds a topology record (nil: its tombstone).
func (t *timeline) setTopology(v *cr.Topology) {
	old := t.topology
	t.topology = v
	if old == nil || v == nil {
		return
	}
	subs, topics := topologyChanges(old, v)
	if len(subs) > 0 || len(topics) > 0 || old.Epoch != v.Epoch {
		t.pending = append(t.pending, Cause{Kind: TopologyChanged, Subtopologies: subs, Topics: topics})
	}
}

// topologyChanges are the sub-topologies added, removed or changed and
// the topics added or removed between two topologies.
func topologyChanges(a, b *cr.Topology) (subs, topics []string) {
	index := func(t *cr.Topology) map[string]*cr.Subtopology {
		m := map[string]*cr.Subtopology{}
		for i := range t.Subtopologies {
			m[t.Subtopologies[i].SubtopologyID] = &t.Subtopologies[i]
		}
		return m
	}
	ai, bi := index(a), index(b)
	for _, id := range slices.Sorted(maps.Keys(ai)) {
		if s, ok := bi[id]; !ok || !sameSubtopology(ai[id], s) {
			subs = append(subs, id)
		}
	}
	subs = append(subs, onlyIn(bi, ai)...)
	at, bt := topicSet(a), topicSet(b)
	slices.Sort(subs)
	return slices.Compact(subs), append(onlyIn(at, bt), onlyIn(bt, at)...)
}

// onlyIn is the keys of a that b does not have, sorted.
func onlyIn[V, W any](a map[string]V, b map[string]W) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(a)) {
		if _, ok := b[k]; !ok {
			out = append(out, k)
		}
	}
	return out
}

func sameSubtopology(a, b *cr.Subtopology) bool {
	return slices.Equal(a.SourceTopics, b.SourceTopics) && slices.Equal(a.SourceTopicRegex, b.SourceTopicRegex) &&
		slices.Equal(a.RepartitionSinkTopics, b.RepartitionSinkTopics) &&
		slices.EqualFunc(a.StateChangelogTopics, b.StateChangelogTopics, sameTopicInfo) &&
		slices.EqualFunc(a.RepartitionSourceTopics, b.RepartitionSourceTopics, sameTopicInfo) &&
		slices.EqualFunc(a.CopartitionGroups, b.CopartitionGroups, func(x, y cr.CopartitionGroup) bool {
			return slices.Equal(x.SourceTopics, y.SourceTopics) && slices.Equal(x.SourceTopicRegex, y.SourceTopicRegex) &&
				slices.Equal(x.RepartitionSourceTopics, y.RepartitionSourceTopics)
		})
}

func sameTopicInfo(a, b cr.TopicInfo) bool {
	return a.Name == b.Name && a.Partitions == b.Partitions && a.ReplicationFactor == b.ReplicationFactor &&
		slices.Equal(a.TopicConfigs, b.TopicConfigs)
}

// topicSet is every topic (and source pattern) a topology names.
func topicSet(t *cr.Topology) map[string]bool {
	m := map[string]bool{}
	for _, s := range t.Subtopologies {
		for _, n := range slices.Concat(s.SourceTopics, s.SourceTopicRegex, s.RepartitionSinkTopics) {
			m[n] = true
		}
		for _, ti := range slices.Concat(s.StateChangelogTopics, s.RepartitionSourceTopics) {
			m[ti.Name] = true
		}
	}
	return m
}

// epoch folds a group metadata record (nil: the group deleted).
func (t *timeline) epoch(r Record, v *cr.GroupMetadata) {
	old := t.meta
	t.meta = v
	if v == nil {
		// The group deleted: its other records are tombstoned with it; a
		// group of that name starts again at epoch 1.
		entries, batches := t.entries, t.batches
		*t = *newTimeline()
		t.entries, t.batches = entries, batches
		return
	}
	pending := t.pending
	t.pending = nil
	var prev int32
	switch {
	case old == nil && t.sure:
		// A group created (a 4.4 coordinator writes its first epoch as
		// 2: the topology's initialisation bumps it in the same write):
		// no epoch before it, 0.
	case old == nil || v.Epoch <= old.Epoch:
		// Not a bump (a description epoch stored), or the state before is
		// not known: no entry.
		return
	default:
		prev = old.Epoch
	}
	e := Entry{Time: r.Time, Offset: r.Offset, GroupEpoch: v.Epoch, PreviousEpoch: prev, Members: len(t.members), Causes: pending}
	if old != nil {
		if configs := configChanges(old.LastAssignmentConfigs, v.LastAssignmentConfigs); len(configs) > 0 {
			e.Causes = append(e.Causes, Cause{Kind: ConfigsChanged, Configs: configs})
		}
		topologyChanged := slices.ContainsFunc(pending, func(c Cause) bool { return c.Kind == TopologyChanged })
		if old.MetadataHash != v.MetadataHash && !topologyChanged {
			e.Causes = append(e.Causes, Cause{Kind: PartitionsChanged})
		}
	}
	t.entries = append(t.entries, e)
	t.batches = append(t.batches, r.Batch)
	t.open = len(t.entries) - 1
}

// configChanges are the keys whose values differ between two config lists.
func configChanges(a, b []cr.KeyValue) []ConfigChange {
	am, bm := kvMap(a), kvMap(b)
	keys := append(slices.Collect(maps.Keys(am)), onlyIn(bm, am)...)
	slices.Sort(keys)
	var out []ConfigChange
	for _, k := range keys {
		ov, oset := am[k]
		nv, nset := bm[k]
		if ov != nv || oset != nset {
			out = append(out, ConfigChange{Key: k, Old: ov, New: nv, OldSet: oset, NewSet: nset})
		}
	}
	return out
}

func kvMap(kvs []cr.KeyValue) map[string]string {
	m := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		m[kv.Key] = kv.Value
	}
	return m
}

// assignment folds a target assignment's metadata record: the entry of
// its epoch gets what moved since the assignment before.
func (t *timeline) assignment(epoch int32) {
	now := t.owners()
	if t.open >= 0 && t.entries[t.open].GroupEpoch == epoch && !t.entries[t.open].Assigned {
		e := &t.entries[t.open]
		e.Assigned = true
		e.Moved = moves(t.assigned, now)
	}
	t.assigned = now
}

// owners are the target assignment's task owners, by process (a member
// whose metadata is not known by its member id).
func (t *timeline) owners() owners {
	o := emptyOwners()
	for id, a := range t.target {
		proc := id
		if m := t.members[id]; m != nil {
			proc = m.ProcessID
		}
		for _, ts := range a.ActiveTasks {
			for _, p := range ts.Partitions {
				o.active[Task{ts.SubtopologyID, p}] = proc
			}
		}
		for _, ts := range a.StandbyTasks {
			for _, p := range ts.Partitions {
				o.standby[Placement{Task{ts.SubtopologyID, p}, proc}] = true
			}
		}
		for _, ts := range a.WarmupTasks {
			for _, p := range ts.Partitions {
				o.warmup[Placement{Task{ts.SubtopologyID, p}, proc}] = true
			}
		}
	}
	return o
}

func compareTasks(a, b Task) int {
	return cmp.Or(cmp.Compare(a.Subtopology, b.Subtopology), cmp.Compare(a.Partition, b.Partition))
}

func comparePlacements(a, b Placement) int {
	return cmp.Or(compareTasks(a.Task, b.Task), cmp.Compare(a.Process, b.Process))
}

// moves is what changed from one target assignment to the next.
func moves(a, b owners) Moves {
	var m Moves
	tasks := slices.Collect(maps.Keys(a.active))
	for task := range b.active {
		if _, ok := a.active[task]; !ok {
			tasks = append(tasks, task)
		}
	}
	slices.SortFunc(tasks, compareTasks)
	for _, task := range tasks {
		if from, to := a.active[task], b.active[task]; from != to {
			m.Active = append(m.Active, ActiveMove{Task: task, From: from, To: to})
		}
	}
	m.StandbysPlaced = placed(a.standby, b.standby)
	m.StandbysLost = placed(b.standby, a.standby)
	m.WarmupsStarted = placed(a.warmup, b.warmup)
	return m
}

// placed are the placements of b not in a, sorted.
func placed(a, b map[Placement]bool) []Placement {
	var out []Placement
	for p := range b {
		if !a[p] {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, comparePlacements)
	return out
}

// converge closes the open entry once every member is stable at its
// epoch or later, at the time of the record that shows it.
func (t *timeline) converge(at time.Time) {
	if t.open < 0 {
		return
	}
	e := &t.entries[t.open]
	if !e.Assigned || len(t.members) == 0 {
		return
	}
	for id := range t.members {
		c := t.current[id]
		if c == nil || c.MemberEpoch < e.GroupEpoch || c.State != cr.MemberStable {
			return
		}
	}
	e.Converged, e.ConvergedAfter = true, max(at.Sub(e.Time), 0)
	t.open = -1
}
