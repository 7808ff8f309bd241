package kafka

import (
	"fmt"
	"strings"
)

// Refusal says why the offset verbs left a group's offsets alone on
// purpose: not a broker error, a rule of this tool (or of Kafka's tool,
// whose exit status says nothing about it).
type Refusal int

// The refusals, each its own category and detailed exit code.
const (
	// RefusedActive: the group has members (it is not Empty), or gained
	// one between the check and the commit, so its offsets were not
	// changed (category GroupActive).
	RefusedActive Refusal = iota + 1
	// RefusedNoPlan: nothing could be planned for the group: --from-file
	// holds no line for it, or --input-topic names partitions for which
	// the group has no committed offset (category NoResetPlan).
	RefusedNoPlan
	// RefusedNotInternal: --delete-internal-topic names a topic that is
	// not an inferred internal topic of the group, so nothing was changed
	// (category NotInternalTopic).
	RefusedNotInternal
)

// RefusedError is a group, or a whole command, that was refused by a rule
// of the offset verbs. Its Error text is the reason in full.
type RefusedError struct {
	Reason Refusal
	Group  string
	// State is the group's state, for RefusedActive.
	State string
	// Topics are the refused topics (RefusedNotInternal) or the partitions
	// without a committed offset (RefusedNoPlan, as topic-partition).
	Topics []string
	// Internal are the group's inferred internal topics, for
	// RefusedNotInternal.
	Internal []string
	// Cause is the broker's answer when the broker refused, e.g. the
	// UNKNOWN_MEMBER_ID of a commit to a group that became active.
	Cause error
	// FromFile is set for RefusedNoPlan when --from-file has no line for
	// the group.
	FromFile bool
}

func (e *RefusedError) Error() string {
	switch e.Reason {
	case RefusedActive:
		if e.Cause != nil {
			return fmt.Sprintf("streams group '%s' became active before its offsets were committed, so the broker refused the commit (%v); nothing was committed", e.Group, e.Cause)
		}
		return fmt.Sprintf("the offsets of streams group '%s' can only be changed while it is Empty, but its state is %s", e.Group, e.State)
	case RefusedNoPlan:
		if e.FromFile {
			return fmt.Sprintf("--from-file has no reset plan for streams group '%s'", e.Group)
		}
		return fmt.Sprintf("streams group '%s' has no committed offset for %s, so nothing was reset", e.Group, strings.Join(e.Topics, ", "))
	case RefusedNotInternal:
		internal := "none"
		if len(e.Internal) > 0 {
			internal = "'" + strings.Join(e.Internal, "', '") + "'"
		}
		verb := "is not an internal topic"
		if len(e.Topics) > 1 {
			verb = "are not internal topics"
		}
		return fmt.Sprintf("--delete-internal-topic '%s' %s of streams group '%s' (its internal topics: %s); nothing was changed",
			strings.Join(e.Topics, "', '"), verb, e.Group, internal)
	}
	return fmt.Sprintf("streams group '%s' was refused", e.Group)
}

// Unwrap exposes the broker's answer, if any.
func (e *RefusedError) Unwrap() error { return e.Cause }

// refusals are each refusal's error name and sentinel.
var refusals = map[Refusal]struct {
	name     string
	sentinel error
}{
	RefusedActive:      {"GROUP_ACTIVE", ErrGroupActive},
	RefusedNoPlan:      {"NO_RESET_PLAN", ErrNoResetPlan},
	RefusedNotInternal: {"NOT_INTERNAL_TOPIC", ErrNotInternalTopic},
}

// Is maps the refusal onto its sentinel.
func (e *RefusedError) Is(target error) bool {
	r, ok := refusals[e.Reason]
	return ok && target == r.sentinel
}

func (r Refusal) name() string {
	if x, ok := refusals[r]; ok {
		return x.name
	}
	return "REFUSED"
}
