package playground

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// StreamsGroupHeartbeat (key 88), enough for a Streams member that joins
// with its topology and leaves: what `upgrade apply` and `upgrade verify`
// need to be tried without Kafka. The 4.4.0 group coordinator
// (GroupMetadataManager.streamsGroupHeartbeat) does, and so does this:
//
//   - A join (member epoch 0) must bring a topology and a rebalance timeout,
//     and only a join may bring a topology (INVALID_REQUEST with the
//     coordinator's message otherwise). An absent group id is created as a streams group holding
//     that topology. An Empty classic group with no members (the "simple"
//     group an admin offset commit creates) is converted into a streams
//     group: its committed offsets stay, the topology is accepted as is.
//     Any other group of another type answers GROUP_ID_NOT_FOUND "Group <id>
//     is not a streams group.".
//   - A streams group, even Empty, that already holds a topology accepts a
//     member whose topology epoch is below the stored one (it runs the
//     stored topology: "stale topology epoch") and otherwise compares the
//     epoch and, per sub-topology id, each field (source topics,
//     source regexes, repartition sinks, changelog and repartition source
//     topics with partitions, replication factor and configs, copartition
//     groups; no processor, sink or store name): any difference answers
//     INVALID_REQUEST "Topology updates are not supported yet.". A group
//     seeded from a state file has no regexes or copartition groups to
//     compare; those two fields are then not compared.
//   - A member's join moves the group to the next group epoch and, when
//     every source topic exists, to Stable with every task of the group
//     assigned to its members in turn; otherwise NotReady. Missing internal
//     topics are created, as the coordinator asks the controller to.
//   - A leave (member epoch -1, or -2 for a static member) removes the
//     member; the last one leaves the group Empty, topology kept. Any other
//     epoch must be the member's (UNKNOWN_MEMBER_ID, FENCED_MEMBER_EPOCH)
//     and gets its assignment back.
//
// Faults with Key 88 answer their ErrorCode and ErrorMessage and change
// nothing.

// heartbeatIntervalMs is group.streams.heartbeat.interval.ms' default.
const heartbeatIntervalMs = 5000

// topologyUpdateMessage is the 4.4.0 coordinator's refusal text.
const topologyUpdateMessage = "Topology updates are not supported yet."

func (c *Cluster) handleStreamsGroupHeartbeat(n *node, r *kmsg.StreamsGroupHeartbeatRequest, resp *kmsg.StreamsGroupHeartbeatResponse) {
	resp.HeartbeatIntervalMillis = heartbeatIntervalMs
	if code, msg, stop := c.groupCheckLocked(r.Key(), n, r.Group); stop {
		resp.ErrorCode, resp.ErrorMessage = code, msg
		return
	}
	if msg := heartbeatRequestError(r); msg != "" {
		resp.ErrorCode, resp.ErrorMessage = kerr.InvalidRequest.Code, strPtr(msg)
		return
	}
	var code int16
	var msg *string
	switch {
	case r.MemberEpoch == 0:
		code, msg = c.joinStreamsLocked(r, resp)
	case r.MemberEpoch < 0:
		code, msg = c.leaveStreamsLocked(r, resp)
	default:
		code, msg = c.heartbeatStreamsLocked(r, resp)
	}
	resp.ErrorCode, resp.ErrorMessage = code, msg
}

// heartbeatRequestError is the request check of the 4.4.0 coordinator
// (GroupCoordinatorService's validation, its messages) that the
// playground's members can fail; "" when it passes.
func heartbeatRequestError(r *kmsg.StreamsGroupHeartbeatRequest) string {
	switch {
	case r.MemberID == "":
		return "MemberId can't be empty."
	case r.MemberEpoch < -2:
		return fmt.Sprintf("MemberEpoch is %d, but must be greater than or equal to -2.", r.MemberEpoch)
	case r.MemberEpoch == 0 && r.RebalanceTimeoutMillis == -1:
		return "RebalanceTimeoutMs must be provided in first request."
	case r.MemberEpoch == 0 && r.Topology == nil:
		return "Topology must be non-null when (re-)joining."
	case r.MemberEpoch != 0 && r.Topology != nil:
		return "Topology can only be provided when (re-)joining."
	}
	return ""
}

// heartbeatGroups lists the group of a request, for the request log.
func heartbeatGroups(req kmsg.Request) []string {
	return []string{req.(*kmsg.StreamsGroupHeartbeatRequest).Group}
}

func (c *Cluster) joinStreamsLocked(r *kmsg.StreamsGroupHeartbeatRequest, resp *kmsg.StreamsGroupHeartbeatResponse) (int16, *string) {
	g, ok := c.groups[r.Group]
	switch {
	case !ok || g.streams == nil && g.groupType == "classic" && strings.EqualFold(g.state, "Empty"):
		// Created, or converted: the committed offsets are the group id's
		// and stay where they are.
		g = StreamsGroup{ID: r.Group, State: "Empty"}.group()
		g.streams.setTopology(r.Topology)
		c.groups[r.Group] = g
	case g.streams == nil:
		return kerr.GroupIDNotFound.Code, strPtr(fmt.Sprintf("Group %s is not a streams group.", r.Group))
	case g.streams.row.Topology == nil:
		g.streams.setTopology(r.Topology)
	case g.streams.row.Topology.Epoch > r.Topology.Epoch:
		// "Member joined with stale topology epoch": it runs the stored
		// topology, whatever it sent.
	case !g.streams.sameTopology(r.Topology):
		return kerr.InvalidRequest.Code, strPtr(topologyUpdateMessage)
	}
	e := g.streams
	// A member that joins again (epoch 0 after a restart) replaces itself.
	e.row.Members = slices.DeleteFunc(e.row.Members, func(m kmsg.StreamsGroupDescribeResponseGroupMember) bool { return m.MemberID == r.MemberID })
	m := kmsg.NewStreamsGroupDescribeResponseGroupMember()
	m.MemberID = r.MemberID
	m.InstanceID, m.RackID = clonePtr(r.InstanceID), clonePtr(r.RackID)
	m.ClientID, m.ClientHost = "playground-streams", "/127.0.0.1"
	m.TopologyEpoch = r.Topology.Epoch
	if r.ProcessID != nil {
		m.ProcessID = *r.ProcessID
	}
	e.row.Members = append(e.row.Members, m)
	c.createInternalTopicsLocked(r.Topology)
	c.rebalanceLocked(g)
	c.answerMemberLocked(e, r.MemberID, resp)
	return 0, nil
}

func (c *Cluster) leaveStreamsLocked(r *kmsg.StreamsGroupHeartbeatRequest, resp *kmsg.StreamsGroupHeartbeatResponse) (int16, *string) {
	g, ok := c.groups[r.Group]
	if !ok || g.streams == nil {
		return kerr.UnknownMemberID.Code, nil
	}
	e := g.streams
	i := slices.IndexFunc(e.row.Members, func(m kmsg.StreamsGroupDescribeResponseGroupMember) bool { return m.MemberID == r.MemberID })
	if i < 0 {
		return kerr.UnknownMemberID.Code, nil
	}
	e.row.Members = slices.Delete(e.row.Members, i, i+1)
	c.rebalanceLocked(g)
	resp.MemberID, resp.MemberEpoch = r.MemberID, r.MemberEpoch
	return 0, nil
}

func (c *Cluster) heartbeatStreamsLocked(r *kmsg.StreamsGroupHeartbeatRequest, resp *kmsg.StreamsGroupHeartbeatResponse) (int16, *string) {
	g, ok := c.groups[r.Group]
	if !ok || g.streams == nil {
		return kerr.UnknownMemberID.Code, nil
	}
	i := slices.IndexFunc(g.streams.row.Members, func(m kmsg.StreamsGroupDescribeResponseGroupMember) bool { return m.MemberID == r.MemberID })
	switch {
	case i < 0:
		return kerr.UnknownMemberID.Code, nil
	case r.MemberEpoch > g.streams.row.Members[i].MemberEpoch:
		// An epoch behind the member's is one the playground moved on
		// by itself (rebalanceLocked settles at once); one ahead is fenced.
		return kerr.FencedMemberEpoch.Code, nil
	}
	c.answerMemberLocked(g.streams, r.MemberID, resp)
	return 0, nil
}

// answerMemberLocked fills a member's epoch and assignment into resp.
func (c *Cluster) answerMemberLocked(e *streamsEntry, id string, resp *kmsg.StreamsGroupHeartbeatResponse) {
	for _, m := range e.row.Members {
		if m.MemberID == id {
			resp.MemberID, resp.MemberEpoch = id, m.MemberEpoch
			resp.ActiveTasks = slices.Clone(m.Assignment.ActiveTasks)
		}
	}
}

// rebalanceLocked bumps the group epoch and deals every task, sub-topology
// by sub-topology and partition by partition, to the members in join order:
// the playground's stand-in for the sticky assignor, settled at once.
func (c *Cluster) rebalanceLocked(g *group) {
	e := g.streams
	e.row.Epoch++
	e.row.AssignmentEpoch = e.row.Epoch
	state := "Stable"
	tasks := map[string]int32{}
	if e.row.Topology != nil {
		for _, s := range e.row.Topology.Subtopologies {
			n, ok := c.subtopologyPartitionsLocked(s)
			if !ok {
				state = "NotReady"
			}
			tasks[s.SubtopologyID] = n
		}
	}
	if len(e.row.Members) == 0 {
		state = "Empty"
	}
	deals := dealTasks(tasks, len(e.row.Members), state == "Stable")
	for k := range e.row.Members {
		m := &e.row.Members[k]
		m.MemberEpoch = e.row.Epoch
		m.Assignment = Assignment{Active: deals[k]}.wire()
		m.TargetAssignment = m.Assignment
	}
	e.row.State, g.state = state, state
}

// dealTasks deals every task to members in turn, in sub-topology id order;
// nothing when the group cannot be assigned.
func dealTasks(tasks map[string]int32, members int, assign bool) []map[string][]int32 {
	deals := make([]map[string][]int32, members)
	if !assign || members == 0 {
		return deals
	}
	i := 0
	for _, id := range slices.Sorted(maps.Keys(tasks)) {
		for p := range tasks[id] {
			d := &deals[i%members]
			if *d == nil {
				*d = map[string][]int32{}
			}
			(*d)[id] = append((*d)[id], p)
			i++
		}
	}
	return deals
}

// subtopologyPartitionsLocked is a sub-topology's task count: the most
// partitions among its source and repartition source topics; false when
// one of them does not exist.
func (c *Cluster) subtopologyPartitionsLocked(s kmsg.StreamsGroupDescribeResponseGroupTopologySubtopology) (int32, bool) {
	var n int32
	names := slices.Clone(s.SourceTopics)
	for _, ti := range s.RepartitionSourceTopics {
		names = append(names, ti.Topic)
	}
	for _, name := range names {
		t, ok := c.topics[name]
		if !ok {
			return 0, false
		}
		n = max(n, t.partitions)
	}
	return n, true
}

// createInternalTopicsLocked creates the repartition and changelog topics
// of a topology that do not exist yet: with the partitions a topic asks
// for, else its sub-topology's source topics' count, else (a sub-topology
// reading only repartition topics) the topology's largest source topic's,
// as the coordinator derives them.
func (c *Cluster) createInternalTopicsLocked(t *kmsg.StreamsGroupHeartbeatRequestTopology) {
	sourceParts := func(names []string) (n int32) {
		for _, name := range names {
			if st, ok := c.topics[name]; ok {
				n = max(n, st.partitions)
			}
		}
		return n
	}
	var widest int32
	for _, s := range t.Subtopologies {
		widest = max(widest, sourceParts(s.SourceTopics))
	}
	for _, s := range t.Subtopologies {
		parts := sourceParts(s.SourceTopics)
		for _, ti := range s.RepartitionSourceTopics {
			parts = max(parts, ti.NumPartitions)
		}
		if parts == 0 {
			parts = widest
		}
		for _, ti := range slices.Concat(s.RepartitionSourceTopics, s.StateChangelogTopics) {
			if _, ok := c.topics[ti.Topic]; ok || parts == 0 {
				continue
			}
			n := ti.NumPartitions
			if n <= 0 {
				n = parts
			}
			c.topics[ti.Topic] = TopicSpec{Name: ti.Topic, Partitions: n}.topic()
		}
	}
}

// heartbeatTopology is the part of a member's topology the describe row
// does not show, kept for the comparison of later joins.
type heartbeatTopology struct {
	regexes     map[string][]string
	copartition map[string][]string
}

// setTopology stores a member's topology as the group's.
func (e *streamsEntry) setTopology(t *kmsg.StreamsGroupHeartbeatRequestTopology) {
	wt := kmsg.NewStreamsGroupDescribeResponseGroupTopology()
	wt.Epoch = t.Epoch
	e.hb = &heartbeatTopology{regexes: map[string][]string{}, copartition: map[string][]string{}}
	for _, s := range t.Subtopologies {
		ws := kmsg.NewStreamsGroupDescribeResponseGroupTopologySubtopology()
		ws.SubtopologyID = s.SubtopologyID
		ws.SourceTopics = slices.Clone(s.SourceTopics)
		ws.RepartitionSinkTopics = slices.Clone(s.RepartitionSinkTopics)
		ws.StateChangelogTopics = slices.Clone(s.StateChangelogTopics)
		ws.RepartitionSourceTopics = slices.Clone(s.RepartitionSourceTopics)
		wt.Subtopologies = append(wt.Subtopologies, ws)
		e.hb.regexes[s.SubtopologyID] = sortedCopy(s.SourceTopicRegex)
		e.hb.copartition[s.SubtopologyID] = copartitionKeys(s.CopartitionGroups)
	}
	e.row.Topology = &wt
}

// sameTopology is the 4.4.0 coordinator's equality of the stored topology
// and a joining member's (StreamsTopology.equals: the epoch and, per
// sub-topology id, every field). The coordinator compares lists in order;
// Streams sends them in one order, so the playground compares them as sets.
func (e *streamsEntry) sameTopology(t *kmsg.StreamsGroupHeartbeatRequestTopology) bool {
	if e.row.Topology.Epoch != t.Epoch {
		return false
	}
	stored := map[string]kmsg.StreamsGroupDescribeResponseGroupTopologySubtopology{}
	for _, s := range e.row.Topology.Subtopologies {
		stored[s.SubtopologyID] = s
	}
	if len(stored) != len(t.Subtopologies) {
		return false
	}
	for _, s := range t.Subtopologies {
		o, ok := stored[s.SubtopologyID]
		if !ok ||
			!slices.Equal(sortedCopy(o.SourceTopics), sortedCopy(s.SourceTopics)) ||
			!slices.Equal(sortedCopy(o.RepartitionSinkTopics), sortedCopy(s.RepartitionSinkTopics)) ||
			!slices.Equal(topicInfoKeys(o.StateChangelogTopics), topicInfoKeys(s.StateChangelogTopics)) ||
			!slices.Equal(topicInfoKeys(o.RepartitionSourceTopics), topicInfoKeys(s.RepartitionSourceTopics)) {
			return false
		}
		if e.hb != nil && (!slices.Equal(e.hb.regexes[s.SubtopologyID], sortedCopy(s.SourceTopicRegex)) ||
			!slices.Equal(e.hb.copartition[s.SubtopologyID], copartitionKeys(s.CopartitionGroups))) {
			return false
		}
	}
	return true
}

func sortedCopy(in []string) []string {
	out := slices.Clone(in)
	slices.Sort(out)
	return out
}

// topicInfoKeys spells each internal topic with everything compared.
func topicInfoKeys(in []kmsg.TopicInfo) []string {
	out := make([]string, 0, len(in))
	for _, ti := range in {
		cfg := make([]string, 0, len(ti.Configs))
		for _, kv := range ti.Configs {
			cfg = append(cfg, kv.Key+"="+kv.Value)
		}
		slices.Sort(cfg)
		out = append(out, fmt.Sprintf("%s/%d/%d/%s", ti.Topic, ti.NumPartitions, ti.ReplicationFactor, strings.Join(cfg, ",")))
	}
	slices.Sort(out)
	return out
}

func copartitionKeys(in []kmsg.StreamsGroupHeartbeatRequestTopologySubtopologyCopartitionGroup) []string {
	out := make([]string, 0, len(in))
	for _, g := range in {
		out = append(out, fmt.Sprint(g.SourceTopics, g.SourceTopicRegex, g.RepartitionSourceTopics))
	}
	slices.Sort(out)
	return out
}
