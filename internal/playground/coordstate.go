package playground

import (
	"bytes"
	"hash/fnv"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/coordrecords"
)

// A streams group's records are derived from the group as its describe
// shows it, and each change writes what differs from the records written
// before, as one batch, in the order Kafka 4.4's heartbeat writes them:
// the tombstones of the members that left (current assignment, target
// assignment, metadata), then the members' metadata, the topology, the
// group metadata (epoch, metadata hash, the configs of the assignment),
// the target assignment (members, then its epoch and timestamp) and the
// members' current assignments. A group that is gone gets a tombstone for
// every key it had. Only what changed is written: a heartbeat writes
// nothing, a static member replaced under its instance id writes the old
// member's tombstones and the new member's records without a new epoch.

// rebalanceTimeoutMs is the member metadata's rebalance timeout: Kafka
// Streams sends its max.poll.interval.ms, 300000 by default. The describe
// does not tell it.
const rebalanceTimeoutMs = 300000

// writtenGroup is what was last written of a streams group.
type writtenGroup struct {
	// canon is each live key's value, encoded without the fields that
	// change on every write (the assignment timestamp, the previous epoch,
	// the tasks' assignment epochs), to tell a change from a repeat.
	canon map[string][]byte
	// current is each member's last current assignment, by member id.
	current map[string]*coordrecords.CurrentMemberAssignment
}

// keyedValue is a record to write: a nil value is a tombstone.
type keyedValue struct {
	key   coordrecords.Key
	value coordrecords.Value
}

// writeGroupLocked writes what changed of group id since the last write:
// its records, or their tombstones when it is no longer a streams group.
func (c *Cluster) writeGroupLocked(id string) {
	l := c.coordLogLocked()
	old := l.groups[id]
	var now []keyedValue
	// A group at epoch 0 without members was never assigned: a
	// coordinator has written nothing of it (a seed may hold one).
	if g, ok := c.groups[id]; ok && g.streams != nil && (g.streams.row.Epoch != 0 || len(g.streams.row.Members) > 0) {
		now = c.groupRecordsLocked(g.streams, old)
	}
	if old == nil && len(now) == 0 {
		return
	}
	ts := c.now().UnixMilli()
	next := &writtenGroup{canon: map[string][]byte{}, current: map[string]*coordrecords.CurrentMemberAssignment{}}
	var recs []coordRecord
	for _, kv := range now {
		k := string(coordrecords.EncodeKey(kv.key))
		canon := canonical(kv.value)
		next.canon[k] = canon
		if cm, ok := kv.value.(*coordrecords.CurrentMemberAssignment); ok {
			next.current[kv.key.MemberID] = cm
		}
		if old != nil && bytes.Equal(old.canon[k], canon) {
			continue
		}
		if tm, ok := kv.value.(*coordrecords.TargetAssignmentMetadata); ok {
			tm.AssignmentTimestamp = ts
		}
		recs = append(recs, coordRecord{key: []byte(k), value: coordrecords.EncodeValue(kv.value)})
	}
	if old != nil {
		recs = append(tombstones(old, next), recs...)
	}
	if len(now) == 0 {
		delete(l.groups, id)
	} else {
		l.groups[id] = next
	}
	l.append(id, ts, recs)
}

// tombstones are the keys of old that next lacks, in Kafka's order: the
// members' (current assignment, target assignment, metadata), then the
// group's (target assignment metadata, metadata, topology).
func tombstones(old, next *writtenGroup) []coordRecord {
	order := []int16{coordrecords.TypeStreamsGroupCurrentMemberAssignment, coordrecords.TypeStreamsGroupTargetAssignmentMember,
		coordrecords.TypeStreamsGroupMemberMetadata, coordrecords.TypeStreamsGroupTargetAssignmentMetadata,
		coordrecords.TypeStreamsGroupMetadata, coordrecords.TypeStreamsGroupTopology}
	var gone []coordrecords.Key
	for k := range old.canon {
		if _, ok := next.canon[k]; !ok {
			key, _ := coordrecords.DecodeKey([]byte(k)) // written by EncodeKey
			gone = append(gone, key)
		}
	}
	slices.SortFunc(gone, func(a, b coordrecords.Key) int {
		if (a.MemberID == "") != (b.MemberID == "") {
			if a.MemberID == "" {
				return 1
			}
			return -1
		}
		if d := strings.Compare(a.MemberID, b.MemberID); d != 0 {
			return d
		}
		return slices.Index(order, a.Type) - slices.Index(order, b.Type)
	})
	out := make([]coordRecord, 0, len(gone))
	for _, k := range gone {
		out = append(out, coordRecord{key: coordrecords.EncodeKey(k)})
	}
	return out
}

// canonical is v's encoding without the fields that change on every
// write.
func canonical(v coordrecords.Value) []byte {
	switch v := v.(type) {
	case *coordrecords.TargetAssignmentMetadata:
		c := *v
		c.AssignmentTimestamp = 0
		return coordrecords.EncodeValue(&c)
	case *coordrecords.CurrentMemberAssignment:
		c := *v
		c.PreviousMemberEpoch = 0
		c.ActiveTasks = withoutEpochs(c.ActiveTasks)
		return coordrecords.EncodeValue(&c)
	}
	return coordrecords.EncodeValue(v)
}

func withoutEpochs(ts []coordrecords.TaskIDs) []coordrecords.TaskIDs {
	out := make([]coordrecords.TaskIDs, len(ts))
	for i, t := range ts {
		out[i] = coordrecords.TaskIDs{SubtopologyID: t.SubtopologyID, Partitions: t.Partitions}
	}
	return out
}

// groupRecordsLocked are the records of streams group e, in write order;
// old carries the members' previous epochs.
func (c *Cluster) groupRecordsLocked(e *streamsEntry, old *writtenGroup) []keyedValue {
	row := &e.row
	id := row.Group
	members := slices.Clone(row.Members)
	slices.SortFunc(members, func(a, b kmsg.StreamsGroupDescribeResponseGroupMember) int {
		return strings.Compare(a.MemberID, b.MemberID)
	})
	var out []keyedValue
	for i := range members {
		out = append(out, keyedValue{coordrecords.Key{Type: coordrecords.TypeStreamsGroupMemberMetadata, GroupID: id, MemberID: members[i].MemberID}, memberMetadata(&members[i])})
	}
	if row.Topology != nil {
		out = append(out, keyedValue{coordrecords.Key{Type: coordrecords.TypeStreamsGroupTopology, GroupID: id}, topologyValue(row.Topology)})
	}
	out = append(out, keyedValue{coordrecords.Key{Type: coordrecords.TypeStreamsGroupMetadata, GroupID: id}, c.groupMetadataLocked(e)})
	for i := range members {
		m := &members[i]
		out = append(out, keyedValue{coordrecords.Key{Type: coordrecords.TypeStreamsGroupTargetAssignmentMember, GroupID: id, MemberID: m.MemberID},
			&coordrecords.TargetAssignmentMember{ActiveTasks: taskIDs(m.TargetAssignment.ActiveTasks, nil), StandbyTasks: taskIDs(m.TargetAssignment.StandbyTasks, nil),
				WarmupTasks: taskIDs(m.TargetAssignment.WarmupTasks, nil)}})
	}
	out = append(out, keyedValue{coordrecords.Key{Type: coordrecords.TypeStreamsGroupTargetAssignmentMetadata, GroupID: id},
		&coordrecords.TargetAssignmentMetadata{AssignmentEpoch: row.AssignmentEpoch}})
	for i := range members {
		m := &members[i]
		var prev *coordrecords.CurrentMemberAssignment
		if old != nil {
			prev = old.current[m.MemberID]
		}
		out = append(out, keyedValue{coordrecords.Key{Type: coordrecords.TypeStreamsGroupCurrentMemberAssignment, GroupID: id, MemberID: m.MemberID}, currentAssignment(m, prev)})
	}
	return out
}

func memberMetadata(m *kmsg.StreamsGroupDescribeResponseGroupMember) *coordrecords.MemberMetadata {
	v := &coordrecords.MemberMetadata{InstanceID: clonePtr(m.InstanceID), RackID: clonePtr(m.RackID), ClientID: m.ClientID, ClientHost: m.ClientHost,
		RebalanceTimeoutMs: rebalanceTimeoutMs, TopologyEpoch: m.TopologyEpoch, ProcessID: m.ProcessID}
	if m.UserEndpoint != nil {
		v.UserEndpoint = &coordrecords.Endpoint{Host: m.UserEndpoint.Host, Port: m.UserEndpoint.Port}
	}
	for _, t := range m.ClientTags {
		v.ClientTags = append(v.ClientTags, coordrecords.KeyValue{Key: t.Key, Value: t.Value})
	}
	return v
}

func topologyValue(t *kmsg.StreamsGroupDescribeResponseGroupTopology) *coordrecords.Topology {
	v := &coordrecords.Topology{Epoch: t.Epoch}
	infos := func(in []kmsg.TopicInfo) []coordrecords.TopicInfo {
		var out []coordrecords.TopicInfo
		for _, ti := range in {
			o := coordrecords.TopicInfo{Name: ti.Topic, Partitions: ti.NumPartitions, ReplicationFactor: ti.ReplicationFactor}
			for _, kv := range ti.Configs {
				o.TopicConfigs = append(o.TopicConfigs, coordrecords.KeyValue{Key: kv.Key, Value: kv.Value})
			}
			out = append(out, o)
		}
		return out
	}
	for _, s := range t.Subtopologies {
		v.Subtopologies = append(v.Subtopologies, coordrecords.Subtopology{SubtopologyID: s.SubtopologyID, SourceTopics: slices.Clone(s.SourceTopics),
			RepartitionSinkTopics: slices.Clone(s.RepartitionSinkTopics), StateChangelogTopics: infos(s.StateChangelogTopics),
			RepartitionSourceTopics: infos(s.RepartitionSourceTopics)})
	}
	return v
}

// groupMetadataLocked is the group's metadata record: its epoch, the hash
// of its source topics' partition counts, the topology epochs it
// validated and stored, and the configs its assignment uses.
func (c *Cluster) groupMetadataLocked(e *streamsEntry) *coordrecords.GroupMetadata {
	v := coordrecords.NewGroupMetadata()
	v.Epoch = e.row.Epoch
	if t := e.row.Topology; t != nil {
		if t.Subtopologies != nil {
			v.ValidatedTopologyEpoch = t.Epoch
		}
		switch e.status {
		case StatusAvailable:
			v.StoredDescriptionTopologyEpoch = t.Epoch
		case StatusError:
			v.FailedDescriptionTopologyEpoch = t.Epoch
		}
		v.MetadataHash = c.metadataHashLocked(t)
	}
	if e.row.AssignmentEpoch > 0 {
		v.LastAssignmentConfigs = c.assignmentConfigsLocked(e.row.Group)
	}
	return v
}

// metadataHashLocked hashes the partition counts of the topology's source
// topics, so that it changes when one does, as Kafka's does.
func (c *Cluster) metadataHashLocked(t *kmsg.StreamsGroupDescribeResponseGroupTopology) int64 {
	var names []string
	for _, s := range t.Subtopologies {
		names = append(names, s.SourceTopics...)
		for _, r := range s.RepartitionSourceTopics {
			names = append(names, r.Topic)
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	h := fnv.New64a()
	for _, n := range names {
		parts := int32(-1)
		if tp, ok := c.topics[n]; ok {
			parts = tp.partitions
		}
		_, _ = h.Write([]byte(n + ":" + strconv.Itoa(int(parts)) + ";"))
	}
	if len(names) == 0 {
		return 0
	}
	return int64(h.Sum64())
}

// assignmentConfigsLocked are the configs a 4.4 coordinator's assignment
// of group uses (GroupMetadataManager.streamsGroupAssignmentConfigs):
// num.standby.replicas, and rack.aware.assignment.tags when set; the
// group's config, else the broker's.
func (c *Cluster) assignmentConfigsLocked(group string) []coordrecords.KeyValue {
	value := func(key, broker, def string) string {
		if v, ok := c.groupConfigs[group][key]; ok {
			return v
		}
		if v, ok := c.brokerConfigs[broker]; ok && v != nil {
			return *v
		}
		return def
	}
	out := []coordrecords.KeyValue{{Key: "num.standby.replicas", Value: strings.TrimSpace(value("streams.num.standby.replicas", "group.streams.num.standby.replicas", "0"))}}
	if tags := strings.TrimSpace(value("streams.rack.aware.assignment.tags", "group.streams.rack.aware.assignment.tags", "")); tags != "" {
		out = append(out, coordrecords.KeyValue{Key: "rack.aware.assignment.tags", Value: tags})
	}
	slices.SortFunc(out, func(a, b coordrecords.KeyValue) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// assignmentKeys are the group configs the assignment uses: changing one
// makes the coordinator assign again.
var assignmentKeys = []string{"streams.num.standby.replicas", "streams.rack.aware.assignment.tags"}

// currentAssignment is a member's current assignment; prev, its last one,
// gives the previous epoch and the epochs its active tasks were assigned
// at.
func currentAssignment(m *kmsg.StreamsGroupDescribeResponseGroupMember, prev *coordrecords.CurrentMemberAssignment) *coordrecords.CurrentMemberAssignment {
	epochs := map[string]int32{}
	v := &coordrecords.CurrentMemberAssignment{MemberEpoch: m.MemberEpoch, State: coordrecords.MemberStable}
	if prev != nil {
		v.PreviousMemberEpoch = prev.PreviousMemberEpoch
		if prev.MemberEpoch != m.MemberEpoch {
			v.PreviousMemberEpoch = prev.MemberEpoch
		}
		for _, t := range prev.ActiveTasks {
			for i, p := range t.Partitions {
				if i < len(t.AssignmentEpochs) {
					epochs[t.SubtopologyID+"_"+strconv.Itoa(int(p))] = t.AssignmentEpochs[i]
				}
			}
		}
	}
	v.ActiveTasks = taskIDs(m.Assignment.ActiveTasks, func(sub string, p int32) int32 {
		if e, ok := epochs[sub+"_"+strconv.Itoa(int(p))]; ok {
			return e
		}
		return max(m.MemberEpoch, 0)
	})
	v.StandbyTasks = taskIDs(m.Assignment.StandbyTasks, nil)
	v.WarmupTasks = taskIDs(m.Assignment.WarmupTasks, nil)
	cur, target := taskSet(m.Assignment), taskSet(m.TargetAssignment)
	switch {
	case maps.Equal(cur, target):
	case !subset(cur, target):
		v.State = coordrecords.MemberUnrevokedTasks // it holds tasks the target gives away
	default:
		v.State = coordrecords.MemberUnreleasedTasks // it waits for tasks others still hold
	}
	return v
}

// taskIDs converts the wire's tasks; epoch, when set, gives each active
// partition its assignment epoch.
func taskIDs(in []kmsg.TaskIDs, epoch func(sub string, p int32) int32) []coordrecords.TaskIDs {
	out := make([]coordrecords.TaskIDs, 0, len(in))
	for _, t := range in {
		o := coordrecords.TaskIDs{SubtopologyID: t.SubtopologyID, Partitions: slices.Clone(t.Partitions)}
		if epoch != nil {
			for _, p := range t.Partitions {
				o.AssignmentEpochs = append(o.AssignmentEpochs, epoch(t.SubtopologyID, p))
			}
		}
		out = append(out, o)
	}
	return out
}

// taskSet is every task of an assignment, by kind and id.
func taskSet(a kmsg.StreamsAssignment) map[string]bool {
	out := map[string]bool{}
	for kind, ts := range [][]kmsg.TaskIDs{a.ActiveTasks, a.StandbyTasks, a.WarmupTasks} {
		for _, t := range ts {
			for _, p := range t.Partitions {
				out[strconv.Itoa(kind)+"/"+t.SubtopologyID+"_"+strconv.Itoa(int(p))] = true
			}
		}
	}
	return out
}

func subset(a, b map[string]bool) bool {
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// writeSeedLocked starts a new coordinator log with the records of a
// loaded state's streams groups, then its committed offsets, in id order.
func (c *Cluster) writeSeedLocked(s *State) {
	c.coord = newCoordLog(c.cfg.CoordinatorLogBytes)
	ids := make([]string, 0, len(s.StreamsGroups))
	for _, g := range s.StreamsGroups {
		ids = append(ids, g.ID)
	}
	slices.Sort(ids)
	for _, id := range ids {
		c.writeGroupLocked(id)
	}
	for _, id := range ids {
		c.writeCommitsLocked(id, c.offsets.sorted(id), false)
	}
}

// groupConfigsChangedLocked makes a streams group with members assign
// again when a config its assignment uses changed from before: a 4.4
// coordinator bumps the group epoch at the next heartbeat, whose
// assignment then records the new configs; the playground does it at
// once, the members reaching the new epoch with their tasks.
func (c *Cluster) groupConfigsChangedLocked(group string, before map[string]string) {
	g, ok := c.groups[group]
	if !ok || g.streams == nil || len(g.streams.row.Members) == 0 {
		return
	}
	changed := false
	for _, k := range assignmentKeys {
		b, hadB := before[k]
		a, hasA := c.groupConfigs[group][k]
		changed = changed || hadB != hasA || a != b
	}
	if !changed {
		return
	}
	row := &g.streams.row
	row.Epoch++
	row.AssignmentEpoch = row.Epoch
	for i := range row.Members {
		if row.Members[i].MemberEpoch >= 0 {
			row.Members[i].MemberEpoch = row.Epoch
		}
	}
	c.writeGroupLocked(group)
}
