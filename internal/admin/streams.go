package admin

// StreamsGroupDescribe answers become the model here, in pure functions
// tested with wire literals: a group's members and their tasks, its
// KIP-1071 topology, and its KIP-1331 topology description with
// predecessors rebuilt from successors, as Kafka's admin client
// (DescribeStreamsGroupsHandler) does. A malformed answer fails only its
// group, with the message Kafka's admin client uses.

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// streamsGroupFromWire converts one group's answer. includeTopology says
// whether the description was requested, so that an answer of NOT_REQUESTED
// is recognised as broken.
func streamsGroupFromWire(row *kmsg.StreamsGroupDescribeResponseGroup, includeTopology bool) (*kafka.StreamsGroup, error) {
	g := &kafka.StreamsGroup{
		State: row.State, GroupEpoch: row.Epoch, AssignmentEpoch: row.AssignmentEpoch, AssignorName: clonePtr(row.AssignorName),
		TopologyEpoch: -1,
		Members:       membersFromWire(row.Members),
		Subtopologies: subtopologiesFromWire(row.Topology),
	}
	if row.Topology != nil {
		g.TopologyEpoch = row.Topology.Epoch
	}
	status, err := topology.ParseStatus(row.TopologyDescriptionStatus)
	if err != nil {
		return nil, &kafka.MalformedError{Reason: err.Error()}
	}
	g.TopologyStatus = status
	if status == topology.Available {
		if row.TopologyDescription == nil {
			return nil, &kafka.MalformedError{Reason: "Topology description is missing despite status AVAILABLE"}
		}
		if g.Topology, err = descriptionFromWire(row.TopologyDescription); err != nil {
			return nil, &kafka.MalformedError{Reason: err.Error()}
		}
	}
	if includeTopology && status == topology.NotRequested {
		return nil, &kafka.MalformedError{Reason: fmt.Sprintf("the broker answered %s although the topology description was requested", status)}
	}
	return g, nil
}

// membersFromWire converts the wire members, sorted by member id.
func membersFromWire(in []kmsg.StreamsGroupDescribeResponseGroupMember) []kafka.Member {
	out := make([]kafka.Member, 0, len(in))
	for _, w := range in {
		m := kafka.Member{
			MemberID: w.MemberID, MemberEpoch: w.MemberEpoch,
			InstanceID: clonePtr(w.InstanceID), RackID: clonePtr(w.RackID),
			ClientID: w.ClientID, ClientHost: w.ClientHost,
			TopologyEpoch: w.TopologyEpoch, ProcessID: w.ProcessID,
			ClientTags:       []kafka.ClientTag{},
			TaskOffsets:      taskOffsetsFromWire(w.TaskOffsets),
			TaskEndOffsets:   taskOffsetsFromWire(w.TaskEndOffsets),
			Assignment:       assignmentFromWire(w.Assignment),
			TargetAssignment: assignmentFromWire(w.TargetAssignment),
			IsClassic:        w.IsClassic,
		}
		if w.UserEndpoint != nil {
			m.UserEndpoint = &kafka.Endpoint{Host: w.UserEndpoint.Host, Port: w.UserEndpoint.Port}
		}
		// Sorted by key, a key's first value kept (the sort is stable).
		for _, t := range w.ClientTags {
			m.ClientTags = append(m.ClientTags, kafka.ClientTag{Key: t.Key, Value: t.Value})
		}
		slices.SortStableFunc(m.ClientTags, func(a, b kafka.ClientTag) int { return strings.Compare(a.Key, b.Key) })
		m.ClientTags = slices.CompactFunc(m.ClientTags, func(a, b kafka.ClientTag) bool { return a.Key == b.Key })
		out = append(out, m)
	}
	slices.SortStableFunc(out, func(a, b kafka.Member) int { return strings.Compare(a.MemberID, b.MemberID) })
	return out
}

// taskOffsetsFromWire keeps the reported offsets in wire order; nil when
// the member reported none.
func taskOffsetsFromWire(in []kmsg.TaskOffset) []kafka.TaskOffset {
	var out []kafka.TaskOffset
	for _, o := range in {
		out = append(out, kafka.TaskOffset{SubtopologyID: o.SubtopologyID, Partition: o.Partition, Offset: o.Offset})
	}
	return out
}

func assignmentFromWire(a kmsg.StreamsAssignment) kafka.Assignment {
	return kafka.Assignment{Active: tasksFromWire(a.ActiveTasks), Standby: tasksFromWire(a.StandbyTasks), Warmup: tasksFromWire(a.WarmupTasks)}
}

// tasksFromWire keeps the task lists as the broker sent them, as the Java
// tool prints them: a 4.4 broker sorts subtopology ids as strings ("10"
// before "2"; e2e/FINDINGS.md F160), and a re-sorted list would differ
// from the Java tool's text from 11 subtopologies on.
func tasksFromWire(in []kmsg.TaskIDs) []kafka.Tasks {
	out := make([]kafka.Tasks, 0, len(in))
	for _, t := range in {
		out = append(out, kafka.Tasks{SubtopologyID: t.SubtopologyID, Partitions: append([]int32{}, t.Partitions...)})
	}
	return out
}

// subtopologiesFromWire converts the group's KIP-1071 topology, topics in
// wire order; nil when the coordinator holds none or has not initialised
// it.
func subtopologiesFromWire(t *kmsg.StreamsGroupDescribeResponseGroupTopology) []kafka.Subtopology {
	if t == nil || t.Subtopologies == nil {
		return nil
	}
	out := make([]kafka.Subtopology, 0, len(t.Subtopologies))
	for _, s := range t.Subtopologies {
		out = append(out, kafka.Subtopology{
			ID:                      s.SubtopologyID,
			SourceTopics:            append([]string{}, s.SourceTopics...),
			RepartitionSourceTopics: topicNames(s.RepartitionSourceTopics),
			RepartitionSinkTopics:   append([]string{}, s.RepartitionSinkTopics...),
			StateChangelogTopics:    topicNames(s.StateChangelogTopics),
			Declared:                slices.Concat(declared(s.StateChangelogTopics, kafka.ChangelogTopic), declared(s.RepartitionSourceTopics, kafka.RepartitionTopic)),
		})
	}
	return out
}

func topicNames(in []kmsg.TopicInfo) []string {
	out := make([]string, 0, len(in))
	for _, t := range in {
		out = append(out, t.Topic)
	}
	return out
}

// declared converts the TopicInfo of internal topics of one kind.
func declared(in []kmsg.TopicInfo, kind string) []kafka.DeclaredTopic {
	out := make([]kafka.DeclaredTopic, 0, len(in))
	for _, t := range in {
		d := kafka.DeclaredTopic{Name: t.Topic, Kind: kind, Partitions: t.NumPartitions, ReplicationFactor: t.ReplicationFactor}
		for _, c := range t.Configs {
			d.Configs = append(d.Configs, kafka.ConfigEntry{Key: c.Key, Value: c.Value})
		}
		out = append(out, d)
	}
	return out
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// descriptionFromWire converts a StreamsGroupDescribe v1
// TopologyDescription, consuming w: each subtopology's node list is let go
// once converted. It fails, with the message Kafka's admin client
// uses, on an unknown node type or a global store that is not a source
// plus a processor.
func descriptionFromWire(w *kmsg.StreamsGroupDescribeResponseGroupTopologyDescription) (*topology.Description, error) {
	d := &topology.Description{
		Subtopologies: make([]*topology.Subtopology, 0, len(w.Subtopologies)),
		GlobalStores:  make([]*topology.GlobalStore, 0, len(w.GlobalStores)),
	}
	for i := range w.Subtopologies {
		ws := &w.Subtopologies[i]
		s := &topology.Subtopology{ID: ws.SubtopologyID, Nodes: make([]*topology.Node, 0, len(ws.Nodes))}
		for j := range ws.Nodes {
			n, err := nodeFromWire(&ws.Nodes[j])
			if err != nil {
				return nil, err
			}
			s.Nodes = append(s.Nodes, n)
		}
		topology.LinkPredecessors(s.Nodes)
		d.Subtopologies = append(d.Subtopologies, s)
		// The model shares the wire's strings and lists; the wire's node
		// structs are let go as soon as they are converted, so that a
		// large description is not held twice.
		ws.Nodes = nil
	}
	for i := range w.GlobalStores {
		wg := &w.GlobalStores[i]
		src, err := nodeFromWire(&wg.Source)
		if err != nil {
			return nil, err
		}
		proc, err := nodeFromWire(&wg.Processor)
		if err != nil {
			return nil, err
		}
		if src.Kind != topology.Source || proc.Kind != topology.Processor {
			return nil, errors.New("Global store must be composed of a source and a processor node.")
		}
		topology.LinkPredecessors([]*topology.Node{src, proc})
		d.GlobalStores = append(d.GlobalStores, &topology.GlobalStore{
			ID:        len(w.Subtopologies) + i,
			Source:    src,
			Processor: proc,
		})
	}
	return d, nil
}

func nodeFromWire(w *kmsg.TopologyDescriptionNode) (*topology.Node, error) {
	n := &topology.Node{Name: w.Name, Kind: topology.Kind(w.NodeType), Successors: nonNil(w.Successors), Predecessors: []string{}}
	switch n.Kind {
	case topology.Source:
		n.Topics = nonNil(w.SourceTopics)
	case topology.Processor:
		n.Stores = nonNil(w.Stores)
	case topology.Sink:
		if w.SinkTopic != nil {
			t := *w.SinkTopic
			n.Topic = &t
		}
	default:
		return nil, fmt.Errorf("Unknown topology node type: %d", w.NodeType)
	}
	return n, nil
}

// nonNil returns xs itself, or an empty list for a null one. The model
// shares the decoded answer's lists rather than copying them: nothing
// changes either, and a million-node description is then held once.
func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}
