package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/kstreams-groups/kstreams-groups/internal/describe"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// describeOptions maps the kafka-streams-groups.sh options onto the
// describe verb (kafkaFlags.validate has checked them).
func (kf *kafkaFlags) describeOptions(stateSet bool) describe.Options {
	return describe.Options{
		Groups: kf.groups, AllGroups: kf.allGroups,
		Topology: kf.topology, Members: kf.members, Offsets: kf.offsets, State: stateSet,
		Verbose: kf.verbose,
	}
}

func (a *app) newDescribeCmd() *cobra.Command {
	var groups []string
	var all, topo, members, offsets, verbose bool
	var state string
	cmd := &cobra.Command{
		Use:   "describe",
		Short: "Describe Kafka Streams groups",
		Long: `Describe Kafka Streams groups, with the views and the text of
kafka-streams-groups.sh --describe:

  --offsets   (the default) the lag of each partition the group's active
              tasks read: committed offset, log end offset, lag
  --members   each member with its process, client id and tasks
  --state     the coordinator, the assignor, the state and the member count
  --topology  the topology description the broker's plugin stored (KIP-1331)

--verbose adds the epochs (and, for --members, the target assignment and the
member protocol; for --offsets, the committed offset and its leader epoch).
Members are sorted by member id and partitions by topic and partition.

Only --topology is health-aware: the other views exit 0 unless a group could
not be described.` + "\n\n" + exitStatusHelp(),
		Example: `  # The lag of every partition of a group
  kstreams-groups describe --group my-app --bootstrap-server localhost:9092

  # Members and their tasks, with the target assignment
  kstreams-groups describe --members --verbose --group my-app

  # State of every streams group, as JSON
  kstreams-groups describe --state --all-groups -o json

  # The stored topology of one group
  kstreams-groups describe --topology --group my-app

  # Every streams group, with a distinct exit code per outcome
  kstreams-groups describe --topology --all-groups --detailed-exit-codes`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			stateSet := changed(cmd.Flags(), "state")
			opts := describe.Options{Groups: groups, AllGroups: all, Topology: topo, Members: members, Offsets: offsets, State: stateSet, Verbose: verbose}
			if err := opts.Validate(); err != nil {
				return &usageError{err: err}
			}
			if stateSet && state != stateNoValue {
				return usageErrorf("Option [describe] does not take a value for [state]")
			}
			return a.describe(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&groups, "group", nil, "The streams group we wish to act on (repeatable).")
	f.BoolVar(&all, "all-groups", false, "Apply to all streams groups.")
	f.BoolVar(&offsets, "offsets", false, "Show the offsets and lag of the partitions the group reads (the default view).")
	f.BoolVar(&members, "members", false, "Show the members of the group and their tasks.")
	f.StringVar(&state, "state", "", "Show the state of the group: coordinator, assignor, state, number of members.")
	f.Lookup("state").NoOptDefVal = stateNoValue
	f.BoolVar(&topo, "topology", false, "Print the topology description the broker stored for the group (KIP-1331).")
	f.BoolVar(&verbose, "verbose", false, "Add the verbose columns: epochs, target assignment, member protocol, committed offsets and leader epochs.")
	return cmd
}

// describe runs the describe verb and prints each group as it is described:
// the document on stdout, errors on stderr.
func (a *app) describe(ctx context.Context, opts describe.Options) error {
	if err := a.requireBootstrap(); err != nil {
		return err
	}
	if err := opts.Validate(); err != nil {
		return &usageError{err: err}
	}
	if a.cfg.Output.Graph() && !opts.Topology {
		return usageErrorf("-o %s draws a topology: use it with --describe --topology or render", a.cfg.Output)
	}
	ctx, client, done, err := a.connect(ctx)
	if err != nil {
		return err
	}
	defer done()

	res, err := describe.Run(ctx, client, opts)
	if err != nil {
		return err
	}
	var failures []error
	if a.cfg.Output.Graph() {
		return a.describeGraphs(res)
	}
	if a.cfg.Output.Machine() {
		if err := format.Describe(a.io.Out, a.cfg.Output, res); err != nil {
			return err
		}
	}
	multi := len(res.Groups) > 1
	for _, g := range res.Groups {
		if g.Err != nil {
			a.printGroupError(g.Group, g.Err)
			failures = append(failures, g.Err)
			continue
		}
		if !a.cfg.Output.Machine() {
			st := a.outStyles() // first: it may wrap a.io.Out for a Windows console
			if err := writeDescribeText(a.io.Out, g, opts, multi, st); err != nil {
				return err
			}
		}
		// Only the topology view is health-aware (style.md §D).
		if opts.Topology && g.TopologyStatus != topology.Available {
			failures = append(failures, &kafka.StatusError{Group: g.Group, Status: g.TopologyStatus})
		}
	}
	if len(failures) > 0 {
		return &outcomeError{causes: failures}
	}
	return nil
}

// printGroupError reports on stderr the error that kept one group from being
// described: one line naming the (escaped) group.
func (a *app) printGroupError(group string, err error) {
	a.printError(fmt.Sprintf("streams group '%s': %s", format.Escape(group), a.errorText(err)))
}

// errorText renders an error for the one-line stderr report, adding the
// timeout when the deadline ended the command. Error texts carry broker
// strings (ErrorMessage, group names), so the result is escaped.
func (a *app) errorText(err error) string {
	s := err.Error()
	if errors.Is(err, context.DeadlineExceeded) {
		s += fmt.Sprintf(" (--timeout %d ms)", a.cfg.Timeout.Milliseconds())
	}
	return format.Escape(s)
}

// writeDescribeText writes one group in the text of the selected view.
func writeDescribeText(w io.Writer, g *describe.Group, opts describe.Options, multi bool, st *format.Styles) error {
	switch opts.View() {
	case describe.ViewTopology:
		return format.WriteTopologyBlock(w, g, multi, st)
	case describe.ViewState:
		return format.StateText(w, g, opts.Verbose, st)
	case describe.ViewMembers:
		return format.MembersText(w, g, opts.Verbose, st)
	}
	return format.OffsetsText(w, g, opts.Verbose, st)
}
