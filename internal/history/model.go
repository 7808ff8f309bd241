package history

import (
	"fmt"
	"time"
)

// CauseKind is why a group epoch was bumped, as the records show it.
type CauseKind string

// The causes. Their strings are the documents' values.
const (
	// MemberJoined: a member's metadata written for a new member id that
	// takes no static member's place.
	MemberJoined CauseKind = "member-joined"
	// MemberRemoved: a member's metadata deleted (it left, or its session
	// expired).
	MemberRemoved CauseKind = "member-removed"
	// MemberRejoined: a static member (same instance id) back with a new
	// member id: never a join.
	MemberRejoined CauseKind = "member-rejoined"
	// MemberChanged: a member's metadata changed (topology epoch, rack,
	// client tags, endpoint, ...).
	MemberChanged CauseKind = "member-changed"
	// TopologyChanged: the topology record changed.
	TopologyChanged CauseKind = "topology-changed"
	// PartitionsChanged: the hash of the group's topics' metadata changed
	// (partitions added, a topic created or deleted) without a topology
	// change.
	PartitionsChanged CauseKind = "partitions-changed"
	// ConfigsChanged: the configs of the last assignment changed.
	ConfigsChanged CauseKind = "configs-changed"
)

// Removal reasons a member-removed cause may carry.
const (
	// ReasonSessionExpired: a static member that had left for a while
	// (member epoch -2) never came back within its session.
	ReasonSessionExpired = "session-expired"
)

// Member names a member as its metadata record describes it.
type Member struct {
	MemberID, ProcessID, Host, ClientID, InstanceID string
}

// ConfigChange is one assignment config whose value changed; Old or New
// is absent (OldSet/NewSet false) for a key added or removed.
type ConfigChange struct {
	Key            string
	Old, New       string
	OldSet, NewSet bool
}

// Cause is one reason of a rebalance.
type Cause struct {
	Kind CauseKind
	// Member is the member concerned (the member causes).
	Member *Member
	// PreviousMemberID is a rejoined static member's former member id.
	PreviousMemberID string
	// Reason is why a member was removed, when the records tell.
	Reason string
	// Changed lists what changed of a member (member-changed).
	Changed []string
	// Subtopologies (added, removed or changed) and Topics (added or
	// removed) of a topology change.
	Subtopologies, Topics []string
	// Configs are the changed keys of configs-changed.
	Configs []ConfigChange
}

// Task is one task: a sub-topology and a partition.
type Task struct {
	Subtopology string
	Partition   int32
}

func (t Task) String() string { return fmt.Sprintf("%s_%d", t.Subtopology, t.Partition) }

// ActiveMove is a task whose active owner changed, from one process to
// another ("" when it had none, or has none).
type ActiveMove struct {
	Task     Task
	From, To string
}

// Placement is a task placed on (or taken from) a process.
type Placement struct {
	Task    Task
	Process string
}

// Moves is what a target assignment changed from the one before it.
type Moves struct {
	Active         []ActiveMove
	StandbysPlaced []Placement
	StandbysLost   []Placement
	WarmupsStarted []Placement
}

// Empty tells that nothing moved.
func (m Moves) Empty() bool {
	return len(m.Active)+len(m.StandbysPlaced)+len(m.StandbysLost)+len(m.WarmupsStarted) == 0
}

// Entry is one rebalance: a new group epoch.
type Entry struct {
	// Time is the time of the record batch that bumped the epoch; Offset
	// the group metadata record's.
	Time   time.Time
	Offset int64
	// GroupEpoch is the new epoch, PreviousEpoch the one before (0 for a
	// group the records show being created).
	GroupEpoch, PreviousEpoch int32
	// Members is the number of members the epoch was bumped with.
	Members int
	Causes  []Cause
	// Assigned tells that the target assignment of this epoch was read;
	// Moved is then what it changed.
	Assigned bool
	Moved    Moves
	// Converged tells that every member reached this epoch's assignment
	// (stable at this epoch or later), ConvergedAfter after the entry's
	// time, as the members' current-assignment records show.
	Converged      bool
	ConvergedAfter time.Duration
}
