package describe

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// The model of a group's members and of its KIP-1071 topology (the topics
// each subtopology reads), built from StreamsGroupDescribe. Members are
// sorted by member id and tasks by subtopology id (numerically when the ids
// are numbers, as Streams numbers them) and partition, so every rendering is
// deterministic; kafka-streams-groups.sh prints the broker's order, which a
// 4.4 broker gives sorted the same way for tasks and in no defined order for
// members.

// Member is one member of a streams group.
type Member struct {
	MemberID    string `json:"member_id" yaml:"member_id"`
	MemberEpoch int32  `json:"member_epoch" yaml:"member_epoch"`
	// InstanceID is the static membership id, if any.
	InstanceID *string `json:"instance_id,omitempty" yaml:"instance_id,omitempty"`
	RackID     *string `json:"rack_id,omitempty" yaml:"rack_id,omitempty"`
	ClientID   string  `json:"client_id" yaml:"client_id"`
	ClientHost string  `json:"client_host" yaml:"client_host"`
	// TopologyEpoch is the topology epoch the member runs.
	TopologyEpoch int32  `json:"topology_epoch" yaml:"topology_epoch"`
	ProcessID     string `json:"process_id" yaml:"process_id"`
	// UserEndpoint is the interactive-query endpoint, if any.
	UserEndpoint *Endpoint `json:"user_endpoint,omitempty" yaml:"user_endpoint,omitempty"`
	// ClientTags are sorted by key.
	ClientTags       []ClientTag `json:"client_tags" yaml:"client_tags"`
	Assignment       Assignment  `json:"assignment" yaml:"assignment"`
	TargetAssignment Assignment  `json:"target_assignment" yaml:"target_assignment"`
	// IsClassic is true for a member still on the classic protocol.
	IsClassic bool `json:"is_classic" yaml:"is_classic"`
}

// Protocol is the MEMBER-PROTOCOL column: classic or streams.
func (m *Member) Protocol() string {
	if m.IsClassic {
		return "classic"
	}
	return "streams"
}

// Endpoint is a member's interactive-query endpoint.
type Endpoint struct {
	Host string `json:"host" yaml:"host"`
	Port uint16 `json:"port" yaml:"port"`
}

// ClientTag is one client tag (rack awareness).
type ClientTag struct {
	Key   string `json:"key" yaml:"key"`
	Value string `json:"value" yaml:"value"`
}

// Assignment is a member's tasks by kind.
type Assignment struct {
	Active  []Tasks `json:"active" yaml:"active"`
	Standby []Tasks `json:"standby" yaml:"standby"`
	Warmup  []Tasks `json:"warmup" yaml:"warmup"`
}

// Tasks are the tasks of one subtopology: one per partition.
type Tasks struct {
	SubtopologyID string  `json:"subtopology_id" yaml:"subtopology_id"`
	Partitions    []int32 `json:"partitions" yaml:"partitions"`
}

// Subtopology is one KIP-1071 subtopology as the coordinator holds it: the
// topics it reads and writes.
type Subtopology struct {
	ID string `json:"id" yaml:"id"`
	// SourceTopics are the user topics it reads.
	SourceTopics []string `json:"source_topics" yaml:"source_topics"`
	// RepartitionSourceTopics are the internal topics it reads.
	RepartitionSourceTopics []string `json:"repartition_source_topics" yaml:"repartition_source_topics"`
	RepartitionSinkTopics   []string `json:"repartition_sink_topics" yaml:"repartition_sink_topics"`
	StateChangelogTopics    []string `json:"state_changelog_topics" yaml:"state_changelog_topics"`
}

// buildMembers converts the wire members, sorted by member id.
func buildMembers(in []kmsg.StreamsGroupDescribeResponseGroupMember) []Member {
	out := make([]Member, 0, len(in))
	for _, w := range in {
		m := Member{
			MemberID: w.MemberID, MemberEpoch: w.MemberEpoch,
			InstanceID: clonePtr(w.InstanceID), RackID: clonePtr(w.RackID),
			ClientID: w.ClientID, ClientHost: w.ClientHost,
			TopologyEpoch: w.TopologyEpoch, ProcessID: w.ProcessID,
			ClientTags:       []ClientTag{},
			Assignment:       buildAssignment(w.Assignment),
			TargetAssignment: buildAssignment(w.TargetAssignment),
			IsClassic:        w.IsClassic,
		}
		if w.UserEndpoint != nil {
			m.UserEndpoint = &Endpoint{Host: w.UserEndpoint.Host, Port: w.UserEndpoint.Port}
		}
		tags := map[string]string{}
		for _, t := range w.ClientTags {
			if _, dup := tags[t.Key]; !dup {
				tags[t.Key] = t.Value
			}
		}
		for _, k := range slices.Sorted(maps.Keys(tags)) {
			m.ClientTags = append(m.ClientTags, ClientTag{Key: k, Value: tags[k]})
		}
		out = append(out, m)
	}
	slices.SortStableFunc(out, func(a, b Member) int { return strings.Compare(a.MemberID, b.MemberID) })
	return out
}

func buildAssignment(a kmsg.StreamsAssignment) Assignment {
	return Assignment{Active: buildTasks(a.ActiveTasks), Standby: buildTasks(a.StandbyTasks), Warmup: buildTasks(a.WarmupTasks)}
}

// buildTasks merges the task lists of a subtopology named twice and sorts
// subtopologies and partitions.
func buildTasks(in []kmsg.TaskIDs) []Tasks {
	bySub := map[string][]int32{}
	for _, t := range in {
		bySub[t.SubtopologyID] = append(bySub[t.SubtopologyID], t.Partitions...)
	}
	out := make([]Tasks, 0, len(bySub))
	for _, id := range slices.SortedFunc(maps.Keys(bySub), CompareSubtopologyIDs) {
		ps := slices.Clone(bySub[id])
		slices.Sort(ps)
		out = append(out, Tasks{SubtopologyID: id, Partitions: slices.Compact(ps)})
	}
	return out
}

// CompareSubtopologyIDs orders numeric ids numerically ("2" before "10")
// and puts them before other ids, which sort as strings.
func CompareSubtopologyIDs(a, b string) int {
	ai, aerr := strconv.Atoi(a)
	bi, berr := strconv.Atoi(b)
	switch {
	case aerr == nil && berr == nil:
		if c := cmp.Compare(ai, bi); c != 0 {
			return c
		}
		return strings.Compare(a, b) // "1" and "01"
	case aerr == nil:
		return -1
	case berr == nil:
		return 1
	}
	return strings.Compare(a, b)
}

// buildSubtopologies converts the group's KIP-1071 topology; nil when the
// coordinator holds none or has not initialised it.
func buildSubtopologies(t *kmsg.StreamsGroupDescribeResponseGroupTopology) []Subtopology {
	if t == nil || t.Subtopologies == nil {
		return nil
	}
	out := make([]Subtopology, 0, len(t.Subtopologies))
	for _, s := range t.Subtopologies {
		out = append(out, Subtopology{
			ID:                      s.SubtopologyID,
			SourceTopics:            sortedStrings(s.SourceTopics),
			RepartitionSourceTopics: topicNames(s.RepartitionSourceTopics),
			RepartitionSinkTopics:   sortedStrings(s.RepartitionSinkTopics),
			StateChangelogTopics:    topicNames(s.StateChangelogTopics),
		})
	}
	return out
}

func topicNames(in []kmsg.TopicInfo) []string {
	out := make([]string, 0, len(in))
	for _, t := range in {
		out = append(out, t.Topic)
	}
	return sortedStrings(out)
}

func sortedStrings(in []string) []string {
	out := append([]string{}, in...)
	slices.Sort(out)
	return slices.Compact(out)
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
