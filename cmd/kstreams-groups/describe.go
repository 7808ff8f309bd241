package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/describe"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

func describeOptions(groups []string, all, topo bool) describe.Options {
	return describe.Options{Groups: groups, AllGroups: all, Topology: topo}
}

func (a *app) newDescribeCmd() *cobra.Command {
	var groups []string
	var all, topo bool
	cmd := &cobra.Command{
		Use:   "describe",
		Short: "Describe Kafka Streams groups",
		Long: `Describe Kafka Streams groups. With --topology, print the topology description
that the broker's plugin stored for each group (KIP-1331), exactly as
kafka-streams-groups.sh --describe --topology prints it.` + "\n\n" + exitStatusHelp(),
		Example: `  # The stored topology of one group
  kstreams-groups describe --topology --group my-app --bootstrap-server localhost:9092

  # Every streams group, with a distinct exit code per outcome
  kstreams-groups describe --topology --all-groups --detailed-exit-codes`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.describe(cmd.Context(), describeOptions(groups, all, topo))
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&groups, "group", nil, "The streams group we wish to act on (repeatable).")
	f.BoolVar(&all, "all-groups", false, "Apply to all streams groups.")
	f.BoolVar(&topo, "topology", false, "Print the topology description the broker stored for the group (KIP-1331).")
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
	if !opts.Topology {
		return errors.New("only --describe --topology is available in this version; the offsets, members and state views are not implemented yet")
	}
	ctx, cancel := context.WithTimeout(ctx, a.cfg.Timeout)
	defer cancel()
	client, err := admin.New(admin.Config{Bootstrap: a.cfg.Bootstrap, SoftwareVersion: version})
	if err != nil {
		return err
	}
	defer client.Close()

	res, err := describe.Run(ctx, client, opts)
	if err != nil {
		return err
	}
	var failures []error
	if a.cfg.Output.Machine() {
		if err := format.Describe(a.io.Out, a.cfg.Output, res); err != nil {
			return err
		}
	}
	multi := len(res.Groups) > 1
	for _, g := range res.Groups {
		if g.Err != nil {
			fmt.Fprintf(a.io.ErrOut, "Error: streams group '%s': %s\n", g.Group, a.errorText(g.Err))
			failures = append(failures, g.Err)
			continue
		}
		if !a.cfg.Output.Machine() {
			if err := format.TopologyBlock(a.io.Out, g, multi); err != nil {
				return err
			}
		}
		if g.TopologyStatus != topology.Available {
			failures = append(failures, &statusError{group: g.Group, status: g.TopologyStatus})
		}
	}
	if len(failures) > 0 {
		return &outcomeError{causes: failures}
	}
	return nil
}

// errorText renders an error for the one-line stderr report, adding the
// timeout when the deadline ended the command.
func (a *app) errorText(err error) string {
	s := err.Error()
	if errors.Is(err, context.DeadlineExceeded) {
		s += fmt.Sprintf(" (--timeout %d ms)", a.cfg.Timeout.Milliseconds())
	}
	return s
}
