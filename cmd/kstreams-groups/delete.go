package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	groupdelete "github.com/kstreams-groups/kstreams-groups/internal/delete"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
)

func deleteOptions(groups []string, all, dryRun, internalTopics bool) groupdelete.Options {
	return groupdelete.Options{Groups: groups, AllGroups: all, DryRun: dryRun, DeleteInternalTopics: internalTopics}
}

func (a *app) newDeleteCmd() *cobra.Command {
	var groups []string
	var all, dryRun, internalTopics bool
	cmd := &cobra.Command{
		Use:   "delete",
		Short: "Delete Kafka Streams groups",
		Long: `Delete Kafka Streams groups, as kafka-streams-groups.sh --delete does: a group
must exist, be a streams group and be Empty, or it is not sent to the broker.
Each failed group is reported with Kafka's error name and the broker's message,
e.g. GROUP_DELETION_FAILED when the broker's topology description plugin could
not delete the stored description (KIP-1331); the group then still exists.
Unlike kafka-streams-groups.sh, the exit status is 0 only when every requested
group was deleted.` + "\n\n" + exitStatusHelp(),
		Example: `  # Delete two stopped applications' groups
  kstreams-groups delete --group orders-app --group billing-app --bootstrap-server localhost:9092

  # Show what would be deleted, with the internal topics, without deleting
  kstreams-groups delete --all-groups --dry-run --delete-all-internal-topics

  # Per-group results for a script
  kstreams-groups delete --group orders-app -o json --detailed-exit-codes`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.deleteGroups(cmd.Context(), deleteOptions(groups, all, dryRun, internalTopics))
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&groups, "group", nil, "The streams group we wish to act on (repeatable).")
	f.BoolVar(&all, "all-groups", false, "Apply to all streams groups.")
	f.BoolVar(&dryRun, "dry-run", false, "Run the pre-checks and print what would be deleted, without deleting.")
	f.BoolVar(&internalTopics, "delete-all-internal-topics", false, "Also delete the internal topics inferred from each deleted group's topology.")
	return cmd
}

// deleteGroups runs the delete verb: the Kafka-form text (or a document) on
// stdout, hints on stderr, and an outcomeError unless every group was
// deleted (or, in a dry run, passed the pre-checks).
func (a *app) deleteGroups(ctx context.Context, opts groupdelete.Options) error {
	if err := a.requireBootstrap(); err != nil {
		return err
	}
	if err := opts.Validate(); err != nil {
		return &usageError{err: err}
	}
	if a.cfg.Output.Graph() {
		return usageErrorf("-o %s draws a topology: delete prints text, json or yaml", a.cfg.Output)
	}
	ctx, client, done, err := a.connect(ctx)
	if err != nil {
		return err
	}
	defer done()

	res, err := groupdelete.Run(ctx, client, opts)
	if err != nil {
		return err
	}
	if a.cfg.Output.Machine() {
		if err := format.Delete(a.io.Out, a.cfg.Output, res); err != nil {
			return err
		}
	} else if err := format.DeleteText(a.io.Out, res); err != nil {
		return err
	}

	var failures []error
	for _, g := range res.Groups {
		switch {
		case g.Err != nil:
			failures = append(failures, g.Err)
			if a.cfg.Output.Machine() {
				// The document has the details; stderr names the failure
				// for whoever watches the pipe.
				a.printError(fmt.Sprintf("streams group '%s' could not be deleted: %s", format.Escape(g.Group), a.errorText(g.Err)))
			}
		case g.InternalTopics.FirstErr() != nil:
			err := g.InternalTopics.FirstErr()
			failures = append(failures, err)
			if a.cfg.Output.Machine() {
				a.printError(fmt.Sprintf("internal topics of streams group '%s': %s", format.Escape(g.Group), a.errorText(err)))
			}
		}
	}
	for _, h := range format.DeleteHints(res) {
		fmt.Fprintln(a.io.ErrOut, h)
	}
	if len(failures) > 0 {
		return &outcomeError{causes: failures}
	}
	return nil
}
