package main

// The delete verb: --delete and `delete`. The text keeps Kafka's lines on
// stdout; with -o json|yaml each failure is also named on stderr.

import (
	"context"
	"fmt"
	"io"

	groupdelete "github.com/kstreams-groups/kstreams-groups/internal/delete"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

func (a *app) deleteVerb() *verb {
	deleteConfigs := boolOption(flagDef{name: "delete-configs", availableIf: []string{"delete"},
		kafkaHelp: "Also delete the dynamic group configs (streams.num.standby.replicas, ...) of each deleted group, which deleting a group leaves on the broker. Supported operation: delete.",
		help:      "Also delete each deleted group's dynamic configs (streams.num.standby.replicas, ...), which deleting a group leaves on the broker for a new group of the same id."})
	return &verb{
		name:       "delete",
		actionHelp: "Pass in groups to delete topic partition offsets and ownership information over the entire streams group.",
		flags: table(groupFlag, allGroupsFlag,
			dryRunFlag.withHelp("Run the pre-checks and print what would be deleted, without deleting."),
			deleteAllInternalTopicsFlag.withHelp("Also delete the internal topics inferred from each deleted group's topology."),
			deleteInternalTopicFlag.withHelp("Also delete this internal topic of a deleted group (repeatable); a topic that is not an internal topic of a group to delete is refused and nothing is deleted."),
			deleteConfigs),
		short: "Delete Kafka Streams groups",
		long: `Delete Kafka Streams groups, as kafka-streams-groups.sh --delete does: a group
must exist, be a streams group and be Empty, or it is not sent to the broker.
Each failed group is reported with Kafka's error name and the broker's message,
e.g. GROUP_DELETION_FAILED when the broker's topology description plugin could
not delete the stored description (KIP-1331); the group then still exists.
Deleting a group leaves its dynamic group configs on the broker (a new group
of the same id inherits them): they are named on stderr, and
--delete-configs deletes them once the group is gone.
--delete-all-internal-topics also deletes each deleted group's inferred
internal topics; --delete-internal-topic T (which the Kafka 4.4 docs promise
and its tool refuses) deletes only T, which must be one of them, or nothing is
deleted. Unlike kafka-streams-groups.sh, the exit status is 0 only when every
requested group was deleted.`,
		exits: clusterExits(exitNotFound, exitNotDeleted, exitNotInternal),
		example: `  # Delete two stopped applications' groups
  kstreams-groups delete --group orders-app --group billing-app --bootstrap-server localhost:9092

  # Show what would be deleted, with the internal topics, without deleting
  kstreams-groups delete --all-groups --dry-run --delete-all-internal-topics

  # Per-group results for a script
  kstreams-groups delete --group orders-app -o json --detailed-exit-codes`,
		parse: func(v flagValues) job {
			opts := groupdelete.Options{Groups: groupFlag.get(v), AllGroups: allGroupsFlag.get(v),
				DryRun: dryRunFlag.get(v), DeleteInternalTopics: deleteAllInternalTopicsFlag.get(v),
				InternalTopics: deleteInternalTopicFlag.get(v), DeleteConfigs: deleteConfigs.get(v)}
			// The Kafka form holds every verb's options; the subcommand has
			// neither of these: lenient.
			other := v.lenient()
			opts.TopicSpecific = inputTopicFlag.set(other) || allInputTopicsFlag.get(other)
			return job{opts: opts, validate: opts.Validate, run: func(ctx context.Context) error { return a.deleteGroups(ctx, opts) }}
		},
	}
}

// deleteGroups runs the delete verb: it fails unless every group was
// deleted (or, in a dry run, passed the pre-checks).
func (a *app) deleteGroups(ctx context.Context, opts groupdelete.Options) error {
	p := printer[*groupdelete.Result]{
		text: func(w io.Writer, res *groupdelete.Result, _ *format.Styles) error { return format.DeleteText(w, res) },
		doc:  func(res *groupdelete.Result) any { return format.NewDeleteDoc(res) },
		line: func(res *groupdelete.Result, f kafka.Failure, o format.Output) string {
			if !o.Machine() {
				return "" // the text names every failure
			}
			// The document has the details; stderr names the failure for
			// whoever watches the pipe.
			if g := res.Group(f.Group); g != nil && g.Err == nil {
				return fmt.Sprintf("internal topics of streams group '%s': %s", format.Escape(f.Group), a.errorText(f.Err))
			}
			return fmt.Sprintf("streams group '%s' could not be deleted: %s", format.Escape(f.Group), a.errorText(f.Err))
		},
		notes: func(res *groupdelete.Result) []string {
			return append(format.DeleteHints(res), format.DeleteConfigNotes(res)...)
		},
	}
	return runVerb(a, ctx, p, func(ctx context.Context, c client) (*groupdelete.Result, error) {
		return groupdelete.Run(ctx, c, opts)
	})
}
