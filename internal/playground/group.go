package playground

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// StreamsGroup is a KIP-1071 streams group as its coordinator knows it. The
// yaml tags are the state-file schema (STATE.md); the Go zero values match
// the file's defaults.
type StreamsGroup struct {
	ID string `yaml:"id"`
	// State is one of StreamsGroupStates. It is sent verbatim, so a test may
	// use an invalid one on purpose; the state file rejects it.
	State           string    `yaml:"state"`
	GroupEpoch      int32     `yaml:"group_epoch"`
	AssignmentEpoch int32     `yaml:"assignment_epoch"`
	Topology        *Topology `yaml:"topology"` // nil: no topology declared yet (null on the wire)
	Members         []Member  `yaml:"members"`
	// AssignorName is the KIP-1357 assignor the coordinator uses next
	// (describe v1+); "" sends null. Real 4.4 brokers say "sticky".
	AssignorName string `yaml:"assignor_name"`
	// DescriptionStatus is what the coordinator reports when a v1 describe
	// asks for the topology description. The zero value means the
	// natural default: AVAILABLE when Description is set, NOT_STORED
	// otherwise. Other values, even invalid ones, are sent verbatim.
	DescriptionStatus DescriptionStatus `yaml:"description_status,omitempty"`
	// Description is the stored KIP-1331 topology description; it is sent
	// only with status AVAILABLE.
	Description *Description `yaml:"description"`
}

// StreamsGroupStates are the states a streams group can report, in
// lifecycle order.
var StreamsGroupStates = []string{"Empty", "NotReady", "Assigning", "Reconciling", "Stable", "Dead"}

// Topology is the KIP-1071 topology the group's members declared.
type Topology struct {
	Epoch int32 `yaml:"epoch"`
	// Subtopologies nil is sent as null: the broker has not initialised the
	// topology (missing or mis-partitioned source topics).
	Subtopologies []Subtopology `yaml:"subtopologies"`
}

// Subtopology is one KIP-1071 subtopology with the topics it reads, writes
// and owns.
type Subtopology struct {
	ID                      string      `yaml:"id"`
	SourceTopics            []string    `yaml:"source_topics"`
	RepartitionSinkTopics   []string    `yaml:"repartition_sink_topics"`
	StateChangelogTopics    []TopicInfo `yaml:"state_changelog_topics"`
	RepartitionSourceTopics []TopicInfo `yaml:"repartition_source_topics"`
}

// TopicInfo describes an internal topic of a subtopology.
type TopicInfo struct {
	Name              string            `yaml:"name"`
	Partitions        int32             `yaml:"partitions"`         // 0: not enforced (always 0 for changelogs)
	ReplicationFactor int16             `yaml:"replication_factor"` // 0: broker default
	Configs           map[string]string `yaml:"configs"`            // sent sorted by key
}

// Member is one member of a streams group.
type Member struct {
	MemberID         string            `yaml:"member_id"`
	MemberEpoch      int32             `yaml:"member_epoch"`
	InstanceID       *string           `yaml:"instance_id"`
	RackID           *string           `yaml:"rack_id"`
	ClientID         string            `yaml:"client_id"`
	ClientHost       string            `yaml:"client_host"`
	TopologyEpoch    int32             `yaml:"topology_epoch"`
	ProcessID        string            `yaml:"process_id"`
	UserEndpoint     *Endpoint         `yaml:"user_endpoint"`
	ClientTags       map[string]string `yaml:"client_tags"` // sent sorted by key
	TaskOffsets      []TaskOffset      `yaml:"task_offsets"`
	TaskEndOffsets   []TaskOffset      `yaml:"task_end_offsets"`
	Assignment       Assignment        `yaml:"assignment"`
	TargetAssignment Assignment        `yaml:"target_assignment"`
	IsClassic        bool              `yaml:"is_classic"`
}

// Endpoint is a member's interactive-query endpoint.
type Endpoint struct {
	Host string `yaml:"host"`
	Port uint16 `yaml:"port"`
}

// TaskOffset is a task's offset as reported by a member.
type TaskOffset struct {
	Subtopology string `yaml:"subtopology"`
	Partition   int32  `yaml:"partition"`
	Offset      int64  `yaml:"offset"`
}

// Assignment maps subtopology id to task partitions. Subtopologies are sent
// in id order, as strings ("10" before "2"), as a 4.4 broker sends them;
// partitions as given.
type Assignment struct {
	Active  map[string][]int32 `yaml:"active"`
	Standby map[string][]int32 `yaml:"standby"`
	Warmup  map[string][]int32 `yaml:"warmup"`
}

// DescriptionStatus is KIP-1331's TopologyDescriptionStatus.
type DescriptionStatus int8

// The KIP-1331 statuses, with their wire values.
const (
	StatusNotRequested DescriptionStatus = 0
	StatusNotStored    DescriptionStatus = 1
	StatusError        DescriptionStatus = 2
	StatusAvailable    DescriptionStatus = 3
)

var statusNames = map[DescriptionStatus]string{
	StatusNotRequested: "not_requested",
	StatusNotStored:    "not_stored",
	StatusError:        "error",
	StatusAvailable:    "available",
}

// String returns the state-file spelling, or the number for unknown values.
func (s DescriptionStatus) String() string {
	if n, ok := statusNames[s]; ok {
		return n
	}
	return strconv.Itoa(int(s))
}

// Description is a KIP-1331 topology description as a Streams client pushes
// it and the broker stores it.
type Description struct {
	Subtopologies []DescriptionSubtopology `yaml:"subtopologies"` // sent in this order, never sorted
	GlobalStores  []GlobalStore            `yaml:"global_stores"`
}

// DescriptionSubtopology is a subtopology of a Description.
type DescriptionSubtopology struct {
	ID    string `yaml:"id"`
	Nodes []Node `yaml:"nodes"` // sent in this order, never sorted
}

// Node is a processor-graph node of a Description.
type Node struct {
	Name         string   `yaml:"name"`
	Type         NodeType `yaml:"type"`
	SourceTopics []string `yaml:"source_topics"` // source nodes
	SinkTopic    *string  `yaml:"sink_topic"`    // sink nodes; nil is a dynamic (TopicNameExtractor) sink
	Stores       []string `yaml:"stores"`        // processor nodes
	Successors   []string `yaml:"successors"`    // predecessors are not sent; clients invert this
}

// GlobalStore is a global store: a source feeding a processor.
type GlobalStore struct {
	Source    Node `yaml:"source"`
	Processor Node `yaml:"processor"`
}

// NodeType is KIP-1331's node type byte.
type NodeType int8

// The KIP-1331 node types, with their wire values.
const (
	NodeSource    NodeType = 1
	NodeProcessor NodeType = 2
	NodeSink      NodeType = 3
)

var nodeTypeNames = map[NodeType]string{NodeSource: "source", NodeProcessor: "processor", NodeSink: "sink"}

// String returns the state-file spelling, or the number for unknown values.
func (t NodeType) String() string {
	if n, ok := nodeTypeNames[t]; ok {
		return n
	}
	return strconv.Itoa(int(t))
}

// group is any group a coordinator knows. Streams groups keep their
// pre-encoded describe row, which doubles as a deep copy of the caller's
// struct.
type group struct {
	id           string
	groupType    string // lower case, as ListGroups reports it
	protocolType string
	state        string
	streams      *streamsEntry
}

type streamsEntry struct {
	row         kmsg.StreamsGroupDescribeResponseGroup // the v0 fields
	assignor    *string
	status      DescriptionStatus
	description *kmsg.StreamsGroupDescribeResponseGroupTopologyDescription
	// hb is what a joining member's topology said beyond the describe
	// row (heartbeat.go); nil for a group seeded without one.
	hb *heartbeatTopology
}

// emptyOrDead tells whether the group has no members to speak of: an
// admin may commit its offsets, and it is subscribed to no topic.
func (g *group) emptyOrDead() bool {
	return strings.EqualFold(g.state, "Empty") || strings.EqualFold(g.state, "Dead")
}

// checkMember is the member check of a member's offset request
// (StreamsGroup.validateOffsetCommit and validateOffsetFetch):
// UNKNOWN_MEMBER_ID when the group has no member id, STALE_MEMBER_EPOCH
// when epoch is given (not negative) and is not the member's.
func (e *streamsEntry) checkMember(id string, epoch int32) int16 {
	for _, m := range e.row.Members {
		if m.MemberID == id {
			if epoch >= 0 && epoch != m.MemberEpoch {
				return kerr.StaleMemberEpoch.Code
			}
			return 0
		}
	}
	return kerr.UnknownMemberID.Code
}

// PutStreamsGroup adds g, or replaces the group with g's id. The cluster
// keeps its own copy.
func (c *Cluster) PutStreamsGroup(g StreamsGroup) {
	ng := g.group()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.groups[g.ID] = ng
	c.writeGroupLocked(g.ID)
}

// PutGroup adds or replaces a group of another type: groupType "classic",
// "consumer" or "share", with its protocol type ("consumer" for consumer
// groups) and state ("Stable", "Empty", ...). Describing it as a streams
// group fails like on a real broker. groupType "streams" adds a streams
// group with no members and no topology.
func (c *Cluster) PutGroup(id, groupType, protocolType, state string) {
	if strings.EqualFold(groupType, "streams") {
		c.PutStreamsGroup(StreamsGroup{ID: id, State: state})
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.groups[id] = &group{id: id, groupType: strings.ToLower(groupType), protocolType: protocolType, state: state}
	c.writeGroupLocked(id)
}

// HasGroup reports whether a group with this id exists, of any type.
func (c *Cluster) HasGroup(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.groups[id]
	return ok
}

// RemoveGroup deletes a group as if it expired; it is a no-op for unknown ids.
func (c *Cluster) RemoveGroup(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.groups, id)
	c.writeGroupLocked(id)
}

func (g StreamsGroup) group() *group {
	return &group{id: g.ID, groupType: "streams", protocolType: "streams", state: g.State, streams: g.entry()}
}

func (g StreamsGroup) entry() *streamsEntry {
	row := kmsg.NewStreamsGroupDescribeResponseGroup()
	row.Group = g.ID
	row.State = g.State
	row.Epoch = g.GroupEpoch
	row.AssignmentEpoch = g.AssignmentEpoch
	if g.Topology != nil {
		t := kmsg.NewStreamsGroupDescribeResponseGroupTopology()
		t.Epoch = g.Topology.Epoch
		for _, s := range g.Topology.Subtopologies {
			ws := kmsg.NewStreamsGroupDescribeResponseGroupTopologySubtopology()
			ws.SubtopologyID = s.ID
			ws.SourceTopics = slices.Clone(s.SourceTopics)
			ws.RepartitionSinkTopics = slices.Clone(s.RepartitionSinkTopics)
			ws.StateChangelogTopics = wireTopicInfos(s.StateChangelogTopics)
			ws.RepartitionSourceTopics = wireTopicInfos(s.RepartitionSourceTopics)
			t.Subtopologies = append(t.Subtopologies, ws)
		}
		row.Topology = &t
	}
	for _, m := range g.Members {
		row.Members = append(row.Members, m.wire())
	}
	e := &streamsEntry{row: row, status: g.DescriptionStatus}
	if g.AssignorName != "" {
		name := g.AssignorName
		e.assignor = &name
	}
	if e.status == StatusNotRequested {
		e.status = StatusNotStored
		if g.Description != nil {
			e.status = StatusAvailable
		}
	}
	if g.Description != nil {
		e.description = g.Description.wire()
	}
	return e
}

func wireTopicInfos(in []TopicInfo) []kmsg.TopicInfo {
	var out []kmsg.TopicInfo
	for _, ti := range in {
		w := kmsg.NewTopicInfo()
		w.Topic = ti.Name
		w.NumPartitions = ti.Partitions
		w.ReplicationFactor = ti.ReplicationFactor
		for _, k := range slices.Sorted(maps.Keys(ti.Configs)) {
			w.Configs = append(w.Configs, kmsg.TopicInfoConfig{Key: k, Value: ti.Configs[k]})
		}
		out = append(out, w)
	}
	return out
}

func (m Member) wire() kmsg.StreamsGroupDescribeResponseGroupMember {
	w := kmsg.NewStreamsGroupDescribeResponseGroupMember()
	w.MemberID = m.MemberID
	w.MemberEpoch = m.MemberEpoch
	w.InstanceID = clonePtr(m.InstanceID)
	w.RackID = clonePtr(m.RackID)
	w.ClientID = m.ClientID
	w.ClientHost = m.ClientHost
	w.TopologyEpoch = m.TopologyEpoch
	w.ProcessID = m.ProcessID
	if m.UserEndpoint != nil {
		ep := kmsg.NewStreamsGroupDescribeResponseGroupMemberUserEndpoint()
		ep.Host, ep.Port = m.UserEndpoint.Host, m.UserEndpoint.Port
		w.UserEndpoint = &ep
	}
	for _, k := range slices.Sorted(maps.Keys(m.ClientTags)) {
		w.ClientTags = append(w.ClientTags, kmsg.StreamsGroupDescribeResponseGroupMemberClientTag{Key: k, Value: m.ClientTags[k]})
	}
	w.TaskOffsets = wireTaskOffsets(m.TaskOffsets)
	w.TaskEndOffsets = wireTaskOffsets(m.TaskEndOffsets)
	w.Assignment = m.Assignment.wire()
	w.TargetAssignment = m.TargetAssignment.wire()
	w.IsClassic = m.IsClassic
	return w
}

func wireTaskOffsets(in []TaskOffset) []kmsg.TaskOffset {
	var out []kmsg.TaskOffset
	for _, o := range in {
		out = append(out, kmsg.TaskOffset{SubtopologyID: o.Subtopology, Partition: o.Partition, Offset: o.Offset})
	}
	return out
}

func (a Assignment) wire() kmsg.StreamsAssignment {
	w := kmsg.NewStreamsAssignment()
	w.ActiveTasks = wireTasks(a.Active)
	w.StandbyTasks = wireTasks(a.Standby)
	w.WarmupTasks = wireTasks(a.Warmup)
	return w
}

func wireTasks(in map[string][]int32) []kmsg.TaskIDs {
	var out []kmsg.TaskIDs
	// A 4.4 broker sends them sorted as strings: "10" before "2"
	// (e2e/FINDINGS.md F160).
	for _, id := range slices.Sorted(maps.Keys(in)) {
		out = append(out, kmsg.TaskIDs{SubtopologyID: id, Partitions: slices.Clone(in[id])})
	}
	return out
}

func (d *Description) wire() *kmsg.StreamsGroupDescribeResponseGroupTopologyDescription {
	w := kmsg.NewStreamsGroupDescribeResponseGroupTopologyDescription()
	// Non-nil slices: the fields are non-nullable arrays, and an empty
	// description must still encode as two empty arrays.
	w.Subtopologies = []kmsg.TopologyDescriptionSubtopology{}
	w.GlobalStores = []kmsg.TopologyDescriptionGlobalStore{}
	for _, s := range d.Subtopologies {
		ws := kmsg.NewTopologyDescriptionSubtopology()
		ws.SubtopologyID = s.ID
		for _, n := range s.Nodes {
			ws.Nodes = append(ws.Nodes, n.wire())
		}
		w.Subtopologies = append(w.Subtopologies, ws)
	}
	for _, g := range d.GlobalStores {
		wg := kmsg.NewTopologyDescriptionGlobalStore()
		wg.Source = g.Source.wire()
		wg.Processor = g.Processor.wire()
		w.GlobalStores = append(w.GlobalStores, wg)
	}
	return &w
}

func (n Node) wire() kmsg.TopologyDescriptionNode {
	w := kmsg.NewTopologyDescriptionNode()
	w.Name = n.Name
	w.NodeType = int8(n.Type)
	w.SourceTopics = slices.Clone(n.SourceTopics)
	w.SinkTopic = clonePtr(n.SinkTopic)
	w.Stores = slices.Clone(n.Stores)
	w.Successors = slices.Clone(n.Successors)
	return w
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
