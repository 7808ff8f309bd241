package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/list"
)

// listOptions turns --state into list options: given reports whether
// --state was on the command line, value is its value (stateNoValue or ""
// when it had none).
func listOptions(given bool, value string) (list.Options, error) {
	if !given {
		return list.Options{}, nil
	}
	if value == stateNoValue {
		value = ""
	}
	states, err := list.ParseStates(value)
	if err != nil {
		return list.Options{}, &usageError{err: err}
	}
	return list.Options{WithState: true, States: states}, nil
}

func (a *app) newListCmd() *cobra.Command {
	var state string
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List Kafka Streams groups",
		Long: `List the streams groups of the cluster, one id per line, as
kafka-streams-groups.sh --list does. With --state, print a GROUP/STATE table;
with a comma-separated list of states (case-insensitive: Empty, NotReady,
Assigning, Reconciling, Stable, Dead), only the groups in those states.

Groups are sorted by id (kafka-streams-groups.sh prints them in hash order).
NotReady groups are matched even where kafka-streams-groups.sh finds none
(brokers spell the state not_ready when filtering).` + "\n\n" + exitStatusHelpFor(exitOK, exitFailure, exitUsage),
		Example: `  # Every streams group
  kstreams-groups list --bootstrap-server localhost:9092

  # Groups that have no members or are not ready, with their state
  kstreams-groups list --state Empty,NotReady

  # The same as a JSON document
  kstreams-groups list --state -o json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts, err := listOptions(changed(cmd.Flags(), "state"), state)
			if err != nil {
				return err
			}
			return a.list(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&state, "state", "", "Print each group's state; with a comma-separated list of states, list only the groups in those states.")
	f.Lookup("state").NoOptDefVal = stateNoValue
	return cmd
}

// list runs the list verb and prints the result on stdout.
func (a *app) list(ctx context.Context, opts list.Options) error {
	if err := a.requireBootstrap(); err != nil {
		return err
	}
	if a.cfg.Output.Graph() {
		return usageErrorf("-o %s draws a topology: use it with --describe --topology or render", a.cfg.Output)
	}
	ctx, client, done, err := a.connect(ctx)
	if err != nil {
		return err
	}
	defer done()

	res, err := list.Run(ctx, client, opts)
	if err != nil {
		return err
	}
	if a.cfg.Output.Machine() {
		return format.List(a.io.Out, a.cfg.Output, res)
	}
	st := a.outStyles() // first: it may wrap a.io.Out for a Windows console
	return format.ListText(a.io.Out, res, st)
}
