package list

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// ParseStates parses the value of --list --state the way
// kafka-streams-groups.sh does (StreamsGroupCommand.groupStatesFromString):
// comma-separated, each entry trimmed and matched case-insensitively
// against the state names; trailing empty entries are dropped, as Java's
// String.split drops them. An empty value, or one made only of commas,
// means every state (nil). Any other entry that is not a streams group
// state fails with Kafka's message.
func ParseStates(input string) ([]string, error) {
	parts := strings.Split(input, ",")
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	var out []string
	for _, p := range parts {
		state, ok := canonical(strings.TrimSpace(p))
		if !ok {
			return nil, fmt.Errorf("Invalid state list '%s'. Valid states are: %s", input, strings.Join(kafka.StateNames(), ", "))
		}
		if !slices.Contains(out, state) {
			out = append(out, state)
		}
	}
	return out, nil
}

func canonical(s string) (string, bool) {
	st, ok := kafka.ParseState(s)
	return string(st), ok
}

// Options select what to list.
type Options struct {
	// WithState asks for each group's state (--list --state); the text
	// view then prints a GROUP/STATE table instead of bare ids.
	WithState bool
	// States keeps only groups in these states (canonical names, as
	// ParseStates returns them); empty keeps every group.
	States []string
}

// Client is what Run needs from the admin client.
type Client interface {
	ListStreamsGroupsInStates(ctx context.Context, states []string) ([]admin.ListedGroup, error)
}

// Result is the listed groups, sorted by group id. The Java tool prints
// them in java.util.HashMap order (e2e/FINDINGS.md F44, F50), which is
// neither stable nor meaningful; sorting keeps scripts and diffs stable.
type Result struct {
	WithState bool
	Groups    []Group
}

// Failures is empty: a listing fails as a whole (Run's error).
func (r *Result) Failures() []kafka.Failure { return nil }

// Group is one listed streams group.
type Group struct {
	Group string
	// State is the state ListGroups reported; "Unknown" when the broker
	// sent none (ListGroups before v4), as the Java tool prints it.
	State string
}

// Run lists the streams groups of opts.
func Run(ctx context.Context, client Client, opts Options) (*Result, error) {
	for _, s := range opts.States {
		if _, ok := canonical(s); !ok {
			return nil, fmt.Errorf("unknown streams group state %q", s)
		}
	}
	listed, err := client.ListStreamsGroupsInStates(ctx, opts.States)
	if err != nil {
		return nil, err
	}
	res := &Result{WithState: opts.WithState, Groups: make([]Group, 0, len(listed))}
	for _, l := range listed {
		state := l.State
		if state == "" {
			state = "Unknown"
		}
		res.Groups = append(res.Groups, Group{Group: l.Group, State: state})
	}
	slices.SortStableFunc(res.Groups, func(a, b Group) int { return strings.Compare(a.Group, b.Group) })
	return res, nil
}
