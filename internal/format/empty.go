package format

// Where Kafka's tool prints nothing for a view (or only a header), stdout
// stays as it is, and one line on stderr says why there is nothing, so that
// an empty screen is never a puzzle: an Empty group's offsets or members,
// a group whose members have no active task, a listing that found no
// group, a reset plan with no partition, a delete-offsets with no
// partition to delete.

import (
	"fmt"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/deleteoffsets"
	"github.com/kstreams-groups/kstreams-groups/internal/describe"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/list"
	"github.com/kstreams-groups/kstreams-groups/internal/resetoffsets"
)

// DescribeNotes are the stderr lines of the offsets and members views for
// the described groups that show nothing.
func DescribeNotes(res *describe.Result) []string {
	var out []string
	for _, g := range res.Groups {
		if g.Err != nil {
			continue
		}
		name := Escape(g.Group)
		switch res.View {
		case describe.ViewOffsets:
			switch {
			case g.State == string(kafka.StateDead):
				out = append(out, fmt.Sprintf("Streams group '%s' is Dead: the offsets view has nothing to show.", name))
			case len(g.Members) == 0:
				out = append(out, fmt.Sprintf("Streams group '%s' has no members: the offsets view shows only the partitions of members' active tasks (its committed offsets: reset-offsets --all-input-topics --to-current --dry-run).", name))
			case len(g.Offsets) == 0:
				out = append(out, fmt.Sprintf("Streams group '%s': no member has an active task, so the offsets view has no rows.", name))
			}
		case describe.ViewMembers:
			switch {
			case g.State == string(kafka.StateDead):
				out = append(out, fmt.Sprintf("Streams group '%s' is Dead: the members view has nothing to show.", name))
			case len(g.Members) == 0:
				out = append(out, fmt.Sprintf("Streams group '%s' has no members: the members view has nothing to show.", name))
			}
		}
	}
	return out
}

// ListNotes is the stderr line of a listing that found no group: none at
// all, or none in the states asked for.
func ListNotes(res *list.Result, states []string) []string {
	if len(res.Groups) > 0 {
		return nil
	}
	if len(states) > 0 {
		return []string{fmt.Sprintf("No streams group is in state %s.", strings.Join(states, " or "))}
	}
	return []string{"The cluster has no streams group."}
}

// resetEmptyNotes are the stderr lines of a plan with no partition for a
// group that was described and not refused: --all-input-topics plans only
// the partitions the group has committed offsets for.
func resetEmptyNotes(res *resetoffsets.Result) []string {
	var out []string
	for _, g := range res.Groups {
		if g.Described && g.Err == nil && len(g.Partitions) == 0 && !res.Execute {
			out = append(out, fmt.Sprintf("The plan of streams group '%s' is empty: it has no committed offset on the partitions selected.", Escape(g.Group)))
		}
	}
	return out
}

// DeleteOffsetsNotes is the stderr line of a delete-offsets whose table has
// no partition.
func DeleteOffsetsNotes(res *deleteoffsets.Result) []string {
	if res.Err != nil || res.GroupErr != nil || len(res.Rows) > 0 {
		return nil
	}
	return []string{fmt.Sprintf("Nothing to delete for streams group '%s': it has no committed offset on the partitions selected.", Escape(res.Group))}
}
