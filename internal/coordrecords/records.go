package coordrecords

// Record types: the key's int16 prefix, CoordinatorRecordType's id (the
// schema's apiKey). 18 was StreamsGroupPartitionMetadata, gone in 4.4.0:
// it is an unknown type here, as for a 4.4.0 coordinator.
const (
	TypeOffsetCommitLegacy                   int16 = 0
	TypeOffsetCommit                         int16 = 1
	TypeGroupMetadata                        int16 = 2
	TypeStreamsGroupMetadata                 int16 = 17
	TypeStreamsGroupMemberMetadata           int16 = 19
	TypeStreamsGroupTargetAssignmentMetadata int16 = 20
	TypeStreamsGroupTargetAssignmentMember   int16 = 21
	TypeStreamsGroupCurrentMemberAssignment  int16 = 22
	TypeStreamsGroupTopology                 int16 = 23
)

// maxKnownType is the highest record type id of Kafka 4.4.0's
// CoordinatorRecordType: a larger one is a type this codec does not know.
const maxKnownType int16 = 23

// ValueVersion is the one value version of every streams-group record in
// Kafka 4.4.0 ("validVersions": "0").
const ValueVersion int16 = 0

// Key is a coordinator record's key. Type is always set; GroupID for a
// streams-group record, MemberID for the member-scoped ones.
type Key struct {
	Type     int16
	GroupID  string
	MemberID string
}

// IsStreams tells whether the key is a streams-group record's.
func IsStreams(t int16) bool {
	switch t {
	case TypeStreamsGroupMetadata, TypeStreamsGroupMemberMetadata, TypeStreamsGroupTargetAssignmentMetadata,
		TypeStreamsGroupTargetAssignmentMember, TypeStreamsGroupCurrentMemberAssignment, TypeStreamsGroupTopology:
		return true
	}
	return false
}

// memberScoped tells whether a streams record's key has a member id.
func memberScoped(t int16) bool {
	switch t {
	case TypeStreamsGroupMemberMetadata, TypeStreamsGroupTargetAssignmentMember, TypeStreamsGroupCurrentMemberAssignment:
		return true
	}
	return false
}

// TypeName is the record type's name as Kafka's CoordinatorRecordType
// spells it, "" for a type outside the streams group's.
func TypeName(t int16) string {
	switch t {
	case TypeStreamsGroupMetadata:
		return "StreamsGroupMetadata"
	case TypeStreamsGroupMemberMetadata:
		return "StreamsGroupMemberMetadata"
	case TypeStreamsGroupTargetAssignmentMetadata:
		return "StreamsGroupTargetAssignmentMetadata"
	case TypeStreamsGroupTargetAssignmentMember:
		return "StreamsGroupTargetAssignmentMember"
	case TypeStreamsGroupCurrentMemberAssignment:
		return "StreamsGroupCurrentMemberAssignment"
	case TypeStreamsGroupTopology:
		return "StreamsGroupTopology"
	}
	return ""
}

// Value is one streams-group record value: one of the pointer types below.
type Value interface {
	// RecordType is the key type the value belongs to.
	RecordType() int16
}

// KeyValue is a configuration pair (LastAssignmentConfig, KeyValue,
// TopicConfig in the schemas).
type KeyValue struct {
	Key, Value string
}

// GroupMetadata is StreamsGroupMetadataValue: the group epoch, the hash of
// its topics' metadata and the configs its last assignment used.
type GroupMetadata struct {
	Epoch        int32
	MetadataHash int64
	// Tagged fields, with their schema defaults when absent.
	ValidatedTopologyEpoch int32 // tag 0, default -1
	// LastAssignmentConfigs, tag 1, is nil when absent: Kafka writes no
	// tag for a null or an empty list alike.
	LastAssignmentConfigs          []KeyValue
	StoredDescriptionTopologyEpoch int32 // tag 2, default -1
	FailedDescriptionTopologyEpoch int32 // tag 3, default -1
}

// NewGroupMetadata is a GroupMetadata with the schema's defaults.
func NewGroupMetadata() *GroupMetadata {
	return &GroupMetadata{ValidatedTopologyEpoch: -1, StoredDescriptionTopologyEpoch: -1, FailedDescriptionTopologyEpoch: -1}
}

func (*GroupMetadata) RecordType() int16 { return TypeStreamsGroupMetadata }

// Endpoint is a member's user endpoint (interactive queries).
type Endpoint struct {
	Host string
	Port uint16
}

// MemberMetadata is StreamsGroupMemberMetadataValue.
type MemberMetadata struct {
	InstanceID         *string // nil: no static membership
	RackID             *string
	ClientID           string
	ClientHost         string
	RebalanceTimeoutMs int32
	TopologyEpoch      int32
	ProcessID          string
	UserEndpoint       *Endpoint
	ClientTags         []KeyValue
}

func (*MemberMetadata) RecordType() int16 { return TypeStreamsGroupMemberMetadata }

// TargetAssignmentMetadata is StreamsGroupTargetAssignmentMetadataValue.
type TargetAssignmentMetadata struct {
	AssignmentEpoch int32
	// AssignmentTimestamp (tag 0, default 0) is when the assignment
	// calculation finished, ms since the epoch; 0 when absent.
	AssignmentTimestamp int64
}

func (*TargetAssignmentMetadata) RecordType() int16 { return TypeStreamsGroupTargetAssignmentMetadata }

// TaskIDs are the partitions (task ids) of one sub-topology.
type TaskIDs struct {
	SubtopologyID string
	Partitions    []int32
	// AssignmentEpochs (tag 0, nil when absent) is, in a current
	// assignment's active tasks, the epoch each partition was assigned
	// at; never written in a target assignment.
	AssignmentEpochs []int32
}

// TargetAssignmentMember is StreamsGroupTargetAssignmentMemberValue.
type TargetAssignmentMember struct {
	ActiveTasks, StandbyTasks, WarmupTasks []TaskIDs
}

func (*TargetAssignmentMember) RecordType() int16 { return TypeStreamsGroupTargetAssignmentMember }

// Member states of a current assignment (streams.MemberState).
const (
	MemberStable          int8 = 1
	MemberUnrevokedTasks  int8 = 2
	MemberUnreleasedTasks int8 = 3
	MemberUnknown         int8 = 127
)

// CurrentMemberAssignment is StreamsGroupCurrentMemberAssignmentValue.
type CurrentMemberAssignment struct {
	MemberEpoch, PreviousMemberEpoch                                                          int32
	State                                                                                     int8
	ActiveTasks, StandbyTasks, WarmupTasks                                                    []TaskIDs
	ActiveTasksPendingRevocation, StandbyTasksPendingRevocation, WarmupTasksPendingRevocation []TaskIDs
}

func (*CurrentMemberAssignment) RecordType() int16 { return TypeStreamsGroupCurrentMemberAssignment }

// TopicInfo is an internal topic of a sub-topology.
type TopicInfo struct {
	Name              string
	Partitions        int32
	ReplicationFactor int16
	TopicConfigs      []KeyValue
}

// CopartitionGroup indexes, into its sub-topology's arrays, the source
// topics that must be co-partitioned.
type CopartitionGroup struct {
	SourceTopics, SourceTopicRegex, RepartitionSourceTopics []int16
}

// Subtopology is one sub-topology of a topology record.
type Subtopology struct {
	SubtopologyID           string
	SourceTopics            []string
	SourceTopicRegex        []string
	StateChangelogTopics    []TopicInfo
	RepartitionSinkTopics   []string
	RepartitionSourceTopics []TopicInfo
	CopartitionGroups       []CopartitionGroup
}

// Topology is StreamsGroupTopologyValue.
type Topology struct {
	Epoch         int32
	Subtopologies []Subtopology
}

func (*Topology) RecordType() int16 { return TypeStreamsGroupTopology }
