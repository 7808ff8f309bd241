package kafka

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// State is a streams group state as the broker names it (KIP-1071).
type State string

// The streams group states.
const (
	StateEmpty       State = "Empty"
	StateNotReady    State = "NotReady"
	StateAssigning   State = "Assigning"
	StateReconciling State = "Reconciling"
	StateStable      State = "Stable"
	StateDead        State = "Dead"
)

// States lists every state in the one order the tool uses wherever it names
// them: help, messages, completion, list filters and checks. It is the
// order of the Java tool's --state help; its "Valid states are" message
// uses hash-set order, which changes from run to run.
var States = []State{StateEmpty, StateNotReady, StateStable, StateAssigning, StateReconciling, StateDead}

// ParseState matches s case-insensitively against the state names.
func ParseState(s string) (State, bool) {
	for _, st := range States {
		if strings.EqualFold(s, string(st)) {
			return st, true
		}
	}
	return "", false
}

// Is tells whether the broker's state string s is st, ignoring case.
func (st State) Is(s string) bool { return strings.EqualFold(s, string(st)) }

// StateNames are States as strings, for messages and completion.
func StateNames() []string {
	out := make([]string, len(States))
	for i, s := range States {
		out[i] = string(s)
	}
	return out
}

// StreamsGroup is one streams group as its coordinator described it
// (StreamsGroupDescribe).
type StreamsGroup struct {
	State           string
	GroupEpoch      int32
	AssignmentEpoch int32
	AssignorName    *string
	// TopologyEpoch is the epoch of the topology the coordinator holds, or
	// -1 when it holds none.
	TopologyEpoch int32
	// Members are sorted by member id.
	Members []Member
	// Subtopologies is the KIP-1071 topology the coordinator holds; nil
	// when it holds none.
	Subtopologies []Subtopology
	// TopologyStatus is the KIP-1331 description status; Topology is set
	// when it is Available.
	TopologyStatus topology.Status
	Topology       *topology.Description
}

// Member is one member of a streams group.
type Member struct {
	MemberID    string
	MemberEpoch int32
	// InstanceID is the static membership id, if any.
	InstanceID *string
	RackID     *string
	ClientID   string
	ClientHost string
	// TopologyEpoch is the topology epoch the member runs.
	TopologyEpoch int32
	ProcessID     string
	// UserEndpoint is the interactive-query endpoint, if any.
	UserEndpoint *Endpoint
	// ClientTags are sorted by key.
	ClientTags []ClientTag
	// TaskOffsets and TaskEndOffsets are the cumulative changelog offsets
	// the member reported for its tasks (the sum over a task's changelog
	// partitions) and their end offsets, in wire order. A 4.4.0 broker
	// sends both empty (FINDINGS F420): empty means not reported, never 0.
	TaskOffsets      []TaskOffset
	TaskEndOffsets   []TaskOffset
	Assignment       Assignment
	TargetAssignment Assignment
	// IsClassic is true for a member still on the classic protocol.
	IsClassic bool
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
	Host string
	Port uint16
}

// ClientTag is one client tag (rack awareness).
type ClientTag struct {
	Key   string
	Value string
}

// TaskOffset is one task's cumulative changelog offset as a member
// reported it. Kafka Streams reports -2 (Task.LATEST_OFFSET) for a running
// active task that is caught up.
type TaskOffset struct {
	SubtopologyID string
	Partition     int32
	Offset        int64
}

// Assignment is a member's tasks by kind.
type Assignment struct {
	Active  []Tasks
	Standby []Tasks
	Warmup  []Tasks
}

// Tasks are the tasks of one subtopology: one per partition.
type Tasks struct {
	SubtopologyID string
	Partitions    []int32
}

// Subtopology is one KIP-1071 subtopology as the coordinator holds it: the
// topics it reads and writes.
type Subtopology struct {
	ID string
	// SourceTopics are the user topics it reads.
	SourceTopics []string
	// RepartitionSourceTopics are the internal topics it reads.
	RepartitionSourceTopics []string
	RepartitionSinkTopics   []string
	StateChangelogTopics    []string
	// Declared are the internal topics the members declared for the
	// subtopology with what they expect of them: its changelog topics,
	// then its repartition source topics, in wire order.
	Declared []DeclaredTopic
}

// Kinds of a declared internal topic.
const (
	ChangelogTopic   = "changelog"
	RepartitionTopic = "repartition"
)

// DeclaredTopic is one internal topic a subtopology declares (KIP-1071
// TopicInfo): what the application expects the broker to create.
type DeclaredTopic struct {
	Name string
	// Kind is ChangelogTopic or RepartitionTopic.
	Kind string
	// Partitions is the count the application enforces; 0 leaves it to
	// the broker (always 0 for changelogs).
	Partitions int32
	// ReplicationFactor is 0 for the broker's default.
	ReplicationFactor int16
	// Configs are the topic configs asked for, in wire order.
	Configs []ConfigEntry
}

// ConfigEntry is one key and value of a config.
type ConfigEntry struct {
	Key   string
	Value string
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
