package format

// Display rules for --delete. The text keeps kafka-streams-groups.sh's
// lines and layout, on stdout as the Java tool prints them (verified
// against the real 4.4.0 tool, e2e/FINDINGS.md F30–F34, F53), in the Java
// tool's order of sections:
//
//  1. with --delete-all-internal-topics, one Kafka printError line per topic
//     that is not inferred as internal ("\nError: The internal topic ...");
//     a group that could not be described gets one such line too;
//  2. one "Failed to delete internal topic: <t>" line per topic whose
//     deletion failed (the Java tool prints them while deleting, before the
//     summary);
//  3. the group summary: "Deletion of requested streams groups ('g1', 'g2')
//     was successful." or the "\nError: Deletion of some streams groups
//     failed:" block, then "\nThese streams groups were deleted
//     successfully: ..." when some were;
//  4. with --delete-all-internal-topics, the internal topics summary.
//
// Differences from the Java tool, all deliberate:
//   - each failed group's line carries Kafka's error name and the broker's
//     ErrorMessage verbatim ("GROUP_DELETION_FAILED: Topology description
//     plugin failed to delete the topology."), where the Java tool prints
//     its exception class and drops the broker's message; pre-check
//     failures use the fitting name (GROUP_ID_NOT_FOUND, NON_EMPTY_GROUP)
//     with the Java tool's message;
//   - groups are listed in request order (--all-groups: sorted), where the
//     Java tool prints HashMap order and its pre-check failures first;
//   - the internal topics summary is printed only when a deleted group had
//     internal topics (the Java tool can print "('')").
//
// --dry-run has no Java counterpart; it prints the pre-check failures in the
// same block shape under "Deletion of some streams groups would fail:" and
// ends with one "Dry run: nothing was deleted. ..." line, plus one line per
// group naming the internal topics that would be deleted with it, and one
// per group with dynamic configs (which deleting a group leaves on the
// broker, FINDINGS F402) saying whether they would remain or, with
// --delete-configs, be deleted.
//
// --delete-configs has no Java counterpart either: its summary follows the
// internal topics'. Without it, the dynamic configs a deleted group leaves
// are named on stderr (DeleteConfigNotes), stdout keeping Kafka's bytes.
//
// Group and topic names and broker messages are escaped (escape.go).

import (
	"errors"
	"fmt"
	"io"
	"strings"

	groupdelete "github.com/kstreams-groups/kstreams-groups/internal/delete"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// DeleteText writes a delete result as kafka-streams-groups.sh lays it out.
func DeleteText(w io.Writer, res *groupdelete.Result) error {
	var b strings.Builder
	var deleted, failed []*groupdelete.Group
	withTopics := false
	for _, g := range res.Groups {
		if g.Err != nil {
			failed = append(failed, g)
		} else if g.Deleted {
			deleted = append(deleted, g)
		}
		if writeTopicErrors(&b, g) {
			withTopics = true
		}
	}
	for _, g := range res.Groups {
		if it := g.InternalTopics; it != nil {
			for _, f := range it.Failed {
				fmt.Fprintf(&b, "Failed to delete internal topic: %s\n", Escape(f.Topic))
			}
		}
	}

	if res.DryRun {
		writeDryRun(&b, res, failed)
		_, err := io.WriteString(w, b.String())
		return err
	}

	if len(failed) == 0 {
		fmt.Fprintf(&b, "Deletion of requested streams groups (%s) was successful.\n", quotedGroups(deleted))
	} else {
		b.WriteString("\nError: Deletion of some streams groups failed:\n")
		for _, g := range failed {
			fmt.Fprintf(&b, "* Group '%s' could not be deleted due to: %s\n", Escape(g.Group), errorLine(g.Err))
		}
		if len(deleted) > 0 {
			fmt.Fprintf(&b, "\nThese streams groups were deleted successfully: %s.\n", quotedGroups(deleted))
		}
	}
	if withTopics {
		writeTopicsOutcome(&b, deleted)
	}
	if res.DeleteConfigs {
		writeDeletedConfigs(&b, res)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeTopicErrors writes the Java tool's errors about g's internal
// topics (a named topic not inferred, the inference failed) and reports
// whether any were inferred.
func writeTopicErrors(b *strings.Builder, g *groupdelete.Group) bool {
	it := g.InternalTopics
	if it == nil {
		return false
	}
	for _, t := range it.NotInferred {
		fmt.Fprintf(b, "\nError: The internal topic '%s' is not inferred as internal and thus will not be deleted with the group '%s'.\n", Escape(t), Escape(g.Group))
	}
	if it.Err != nil {
		fmt.Fprintf(b, "\nError: Retrieving internal topics of the streams group '%s' failed due to %s\n", Escape(g.Group), errorLine(it.Err))
	}
	return len(it.Inferred) > 0
}

// writeTopicsOutcome writes the summary of the deleted groups' internal
// topics: the failures if any, else the success line.
func writeTopicsOutcome(b *strings.Builder, deleted []*groupdelete.Group) {
	var done, topicFailed []*groupdelete.Group
	for _, g := range deleted {
		it := g.InternalTopics
		if it == nil || len(it.Inferred) == 0 {
			continue
		}
		if len(it.Failed) > 0 {
			topicFailed = append(topicFailed, g)
		} else {
			done = append(done, g)
		}
	}
	switch {
	case len(topicFailed) > 0:
		b.WriteString("Deletion of some associated internal topics failed:\n")
		for _, g := range topicFailed {
			fmt.Fprintf(b, "* Internal topics of the streams group '%s' could not be deleted due to: %s\n", Escape(g.Group), errorLine(g.InternalTopics.Failed[0].Err))
		}
	case len(done) > 0:
		fmt.Fprintf(b, "Deletion of associated internal topics of the streams groups (%s) was successful.\n", quotedGroups(done))
	}
}

func writeDryRun(b *strings.Builder, res *groupdelete.Result, failed []*groupdelete.Group) {
	if len(failed) > 0 {
		b.WriteString("\nError: Deletion of some streams groups would fail:\n")
		for _, g := range failed {
			fmt.Fprintf(b, "* Group '%s' could not be deleted due to: %s\n", Escape(g.Group), errorLine(g.Err))
		}
		b.WriteString("\n")
	}
	var passing []*groupdelete.Group
	for _, g := range res.Groups {
		if g.Err == nil {
			passing = append(passing, g)
		}
	}
	if len(passing) == 0 {
		b.WriteString("Dry run: nothing was deleted. No streams group passed the pre-checks.\n")
		return
	}
	fmt.Fprintf(b, "Dry run: nothing was deleted. These streams groups passed the pre-checks and would be deleted: %s.\n", quotedGroups(passing))
	for _, g := range passing {
		if it := g.InternalTopics; it != nil && len(it.Inferred) > 0 {
			fmt.Fprintf(b, "Dry run: these internal topics would be deleted with the streams group '%s': %s.\n", Escape(g.Group), quoted(it.Inferred))
		}
	}
	for _, g := range passing {
		if g.Configs == nil || len(g.Configs.Dynamic) == 0 {
			continue
		}
		if res.DeleteConfigs {
			fmt.Fprintf(b, "Dry run: these dynamic configs would be deleted with the streams group '%s': %s.\n", Escape(g.Group), dynamicList(g.Configs.Dynamic))
		} else {
			fmt.Fprintf(b, "Dry run: these dynamic configs would remain on the broker after the streams group '%s' is deleted: %s (--delete-configs deletes them).\n", Escape(g.Group), dynamicList(g.Configs.Dynamic))
		}
	}
}

// writeDeletedConfigs is the summary of --delete-configs, in the shape of
// the internal topics summary, for the deleted groups that had dynamic
// configs.
func writeDeletedConfigs(b *strings.Builder, res *groupdelete.Result) {
	var done, failed []*groupdelete.Group
	for _, g := range res.Groups {
		c := g.Configs
		switch {
		case !g.Deleted || c == nil:
		case c.Err != nil:
			failed = append(failed, g)
		case c.Deleted:
			done = append(done, g)
		}
	}
	if len(failed) > 0 {
		b.WriteString("Deletion of some dynamic group configs failed:\n")
		for _, g := range failed {
			fmt.Fprintf(b, "* Dynamic configs of the streams group '%s' could not be deleted due to: %s\n", Escape(g.Group), errorLine(g.Configs.Err))
		}
	}
	if len(done) > 0 {
		fmt.Fprintf(b, "Deletion of the dynamic configs of the streams groups (%s) was successful.\n", quotedGroups(done))
	}
}

// dynamicList is configs as KEY=VALUE, comma-separated.
func dynamicList(entries []kafka.GroupConfigEntry) string {
	return strings.Join(mapAll(entries, func(e kafka.GroupConfigEntry) string { return Escape(e.Name) + "=" + configValue(e.Value) }), ", ")
}

// DeleteConfigNotes returns one stderr line per deleted group whose
// dynamic configs remain on the broker (FINDINGS F402), and the
// failures of reading them: a new group of the same id inherits them.
func DeleteConfigNotes(res *groupdelete.Result) []string {
	var out []string
	for _, g := range res.Groups {
		if !g.Deleted || g.Configs == nil || res.DeleteConfigs {
			continue
		}
		if err := g.Configs.Err; err != nil {
			// The read only says what remains: the group is deleted all
			// the same (issue 30), and the note says what is not known.
			out = append(out, fmt.Sprintf("note: the dynamic configs of the deleted streams group '%s' could not be read (%s): any it had remain on the broker",
				Escape(g.Group), errorLine(err)))
			continue
		}
		if rem := g.Configs.Remaining(); len(rem) > 0 {
			out = append(out, fmt.Sprintf("note: the dynamic configs of the deleted streams group '%s' remain on the broker (%s), and a new group '%s' would inherit them: delete --delete-configs also deletes them",
				Escape(g.Group), dynamicList(rem), Escape(g.Group)))
		}
	}
	return out
}

// quotedGroups joins group ids as the Java tool does: 'a', 'b'.
func quotedGroups(gs []*groupdelete.Group) string {
	return quoted(mapAll(gs, func(g *groupdelete.Group) string { return g.Group }))
}

func quoted(xs []string) string {
	return "'" + strings.Join(mapAll(xs, Escape), "', '") + "'"
}

// errorLine renders a per-group error on one line: Kafka's error name and
// the broker's message for Kafka errors, the error text otherwise.
func errorLine(err error) string {
	return EscapeMessage(err.Error())
}

// DeleteHints returns one stderr line per group whose UNKNOWN_SERVER_ERROR
// may hide a topology description plugin failure: a broker that answers
// DeleteGroups below v3 (Apache Kafka 4.3, or a client capped lower) cannot
// say GROUP_DELETION_FAILED.
func DeleteHints(res *groupdelete.Result) []string {
	var out []string
	for _, g := range res.Groups {
		if g.MayBePluginFailure() {
			out = append(out, deletionHint(g))
		}
	}
	return out
}

func deletionHint(g *groupdelete.Group) string {
	broker := "the coordinator"
	if g.Coordinator != nil {
		broker = fmt.Sprintf("broker %d", g.Coordinator.ID)
	}
	return fmt.Sprintf("hint: %s answered DeleteGroups v%d, which cannot report GROUP_DELETION_FAILED: the UNKNOWN_SERVER_ERROR for group '%s' may mean that the broker's topology description plugin failed to delete the group's topology",
		broker, g.DeleteGroupsVersion, Escape(g.Group))
}

// DeleteDoc is the JSON and YAML document of --delete.
type DeleteDoc struct {
	DryRun bool             `json:"dry_run" yaml:"dry_run"`
	Groups []DeleteGroupDoc `json:"groups" yaml:"groups"`
}

// DeleteGroupDoc is one requested group.
type DeleteGroupDoc struct {
	Group string `json:"group" yaml:"group"`
	// Result is "deleted", "failed", or in a dry run "would_delete".
	Result string `json:"result" yaml:"result"`
	// State is the group's state in the pre-check, absent when the group
	// was not listed as a streams group.
	State       string     `json:"state,omitempty" yaml:"state,omitempty"`
	Coordinator *BrokerDoc `json:"coordinator,omitempty" yaml:"coordinator,omitempty"`
	// Stage is where a failed group failed: "pre_check" (nothing was
	// sent) or "delete_groups".
	Stage string    `json:"stage,omitempty" yaml:"stage,omitempty"`
	Error *ErrorDoc `json:"error,omitempty" yaml:"error,omitempty"`
	// Hint explains an error that may hide another (see DeleteHints).
	Hint           string             `json:"hint,omitempty" yaml:"hint,omitempty"`
	InternalTopics *InternalTopicsDoc `json:"internal_topics,omitempty" yaml:"internal_topics,omitempty"`
	// DynamicConfigs are the group's dynamic configs, for a group that
	// passed the pre-checks and has some (or whose configs could not be
	// read).
	DynamicConfigs *DeleteConfigsDoc `json:"dynamic_configs,omitempty" yaml:"dynamic_configs,omitempty"`
}

// DeleteConfigsDoc is what became of a group's dynamic configs, which
// deleting a group leaves on the broker.
type DeleteConfigsDoc struct {
	// Configs are the configs set on the group (name, value).
	Configs []ConfigSynonymDoc `json:"configs" yaml:"configs"`
	// Deleted tells that --delete-configs deleted them; false: they remain
	// on the broker (or, in a dry run, would).
	Deleted bool      `json:"deleted" yaml:"deleted"`
	Error   *ErrorDoc `json:"error,omitempty" yaml:"error,omitempty"`
}

// InternalTopicsDoc is a group's internal topics with
// --delete-all-internal-topics.
type InternalTopicsDoc struct {
	// Inferred are the topics deleted (or to delete) with the group.
	Inferred []string `json:"inferred" yaml:"inferred"`
	// NotInferred are named by the topology but do not follow the internal
	// naming rules; they are left alone.
	NotInferred []string        `json:"not_inferred" yaml:"not_inferred"`
	Deleted     []string        `json:"deleted" yaml:"deleted"`
	Failed      []TopicErrorDoc `json:"failed" yaml:"failed"`
	// Error is set when the group could not be described, so no topic is
	// known.
	Error *ErrorDoc `json:"error,omitempty" yaml:"error,omitempty"`
}

// TopicErrorDoc is a topic that could not be deleted.
type TopicErrorDoc struct {
	Topic string    `json:"topic" yaml:"topic"`
	Error *ErrorDoc `json:"error" yaml:"error"`
}

// The per-group results of DeleteGroupDoc.Result.
const (
	DeleteResultDeleted     = "deleted"
	DeleteResultFailed      = "failed"
	DeleteResultWouldDelete = "would_delete"
)

// NewDeleteDoc builds the document of a delete result.
func NewDeleteDoc(res *groupdelete.Result) DeleteDoc {
	return DeleteDoc{DryRun: res.DryRun, Groups: mapAll(res.Groups, func(g *groupdelete.Group) DeleteGroupDoc {
		d := DeleteGroupDoc{Group: g.Group, State: g.State, Coordinator: NewBrokerDoc(g.Coordinator)}
		switch {
		case g.Err != nil:
			d.Result, d.Stage, d.Error = DeleteResultFailed, string(g.Stage), NewErrorDoc(g.Err)
			if g.MayBePluginFailure() {
				d.Hint = strings.TrimPrefix(deletionHint(g), "hint: ")
			}
		case g.Deleted:
			d.Result = DeleteResultDeleted
		case res.DryRun:
			d.Result = DeleteResultWouldDelete
		default:
			// Unreachable with a Result from Run: outside a dry run every
			// group is deleted or has an error.
			d.Result, d.Error = DeleteResultFailed, NewErrorDoc(errors.New("not deleted"))
		}
		if it := g.InternalTopics; it != nil {
			d.InternalTopics = newInternalTopicsDoc(it)
		}
		if c := g.Configs; c != nil && (len(c.Dynamic) > 0 || c.Err != nil) {
			d.DynamicConfigs = &DeleteConfigsDoc{Configs: mapAll(c.Dynamic, func(e kafka.GroupConfigEntry) ConfigSynonymDoc {
				return ConfigSynonymDoc{Name: e.Name, Value: e.Value, Source: string(e.Source)}
			}), Deleted: c.Deleted, Error: NewErrorDoc(c.Err)}
		}
		return d
	})}
}

func newInternalTopicsDoc(it *groupdelete.InternalTopics) *InternalTopicsDoc {
	return &InternalTopicsDoc{Inferred: orEmpty(it.Inferred), NotInferred: orEmpty(it.NotInferred), Deleted: orEmpty(it.Deleted), Error: NewErrorDoc(it.Err),
		Failed: mapAll(it.Failed, func(f groupdelete.TopicFailure) TopicErrorDoc {
			return TopicErrorDoc{Topic: f.Topic, Error: NewErrorDoc(f.Err)}
		})}
}

func orEmpty(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}
