package main

// The describe verb: --describe [--offsets|--members|--state|--topology]
// and `describe`. Each group's text is Kafka's; group errors go to stderr,
// one line each. Only --topology is health-aware: a description that is
// not AVAILABLE fails its group.

import (
	"context"
	"errors"
	"io"

	"github.com/kstreams-groups/kstreams-groups/internal/describe"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	"github.com/kstreams-groups/kstreams-groups/internal/watch"
)

// Options shared by several verbs, with the Java tool's help.
var (
	groupFlag = stringsOption(flagDef{name: "group",
		kafkaHelp: "The streams group we wish to act on.",
		help:      "The streams group we wish to act on (repeatable)."})
	allGroupsFlag = boolOption(flagDef{name: "all-groups",
		kafkaHelp: "Apply to all streams groups."})
	// stateFlag is describe's and list's --state, each with its own help.
	stateFlag = optionalOption(flagDef{name: "state", valueName: "STATES", availableIf: []string{"describe", "list"},
		kafkaHelp: stateKafkaHelp})
	stateKafkaHelp = "When specified with '--describe', includes the state of the group. When specified with '--list', it displays the state of all groups. It can also be used to list groups with specific states. The valid values are " + quotedStates() + "."
)

// describe's views that the Java tool's checks between verbs read
// (sharedChecks: --list refuses them).
var (
	membersFlag = boolOption(flagDef{name: "members", availableIf: []string{"describe"},
		kafkaHelp: "Describe members of the group. This option may be used with the '--describe' option only.",
		help:      "Show the members of the group and their tasks."})
	offsetsFlag = boolOption(flagDef{name: "offsets", availableIf: []string{"describe"},
		kafkaHelp: "Describe the group and list all topic partitions in the group along with their offset information. This is the default sub-action and may be used with the '--describe' option only.",
		help:      "Show the offsets and lag of the partitions the group reads (the default view)."})
)

func (a *app) describeVerb() *verb {
	only := []string{"describe"}
	topology := boolOption(flagDef{name: "topology", availableIf: only,
		kafkaHelp: "Describe the topology of the streams group, as recorded by the broker's topology description plugin. This option may be used with the '--describe' option only.",
		help:      "Print the topology description the broker stored for the group (KIP-1331)."})
	verbose := boolOption(flagDef{name: "verbose", availableIf: only,
		kafkaHelp: "Use with --describe --state to show group epoch and target assignment epoch. Use with --describe --members to show for each member the member epoch, target assignment epoch, current assignment, target assignment, and whether member is still using the classic rebalance protocol. Use with --describe --offsets and --describe to show leader epochs for each partition.",
		help:      "Add the verbose columns: epochs, target assignment, member protocol, committed offsets and leader epochs."})
	state := stateFlag.withHelp("Show the state of the group: coordinator, assignor, state, number of members.")
	return &verb{
		name:       "describe",
		actionHelp: "Describe streams group and list offset lag related to given group.",
		flags: table(topology, membersFlag, offsetsFlag, verbose, state, groupFlag, allGroupsFlag,
			watchFlag, watchIntervalFlag, watchCountFlag),
		short: "Describe Kafka Streams groups",
		long: `Describe Kafka Streams groups, with the views and the text of
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
not be described.`,
		printer: a.describePrinter(describe.Options{}, topology),
		exits:   clusterExits(exitNotStored, exitDescError, exitNotFound),
		example: `  # The lag of every partition of a group
  kstreams-groups describe --group my-app --bootstrap-server localhost:9092

  # Members and their tasks, with the target assignment
  kstreams-groups describe --members --verbose --group my-app

  # State of every streams group, as JSON
  kstreams-groups describe --state --all-groups -o json

  # The stored topology of one group
  kstreams-groups describe --topology --group my-app

  # Every streams group, with a distinct exit code per outcome
  kstreams-groups describe --topology --all-groups --detailed-exit-codes`,
		parse: func(v flagValues) job {
			opts := describe.Options{
				Groups: groupFlag.get(v), AllGroups: allGroupsFlag.get(v),
				Topology: topology.get(v), Members: membersFlag.get(v), Offsets: offsetsFlag.get(v),
				Verbose: verbose.get(v),
			}
			opts.State, opts.StateValue = state.get(v)
			w, werr := parseWatch(v)
			return job{opts: opts, validate: withWatch(opts.Validate, werr), run: func(ctx context.Context) error { return a.describe(ctx, opts, w, a.describePrinter(opts, topology)) }}
		},
	}
}

// describePrinter prints describe's result; it draws with --topology (the
// handle of its option).
func (a *app) describePrinter(opts describe.Options, drawWith declared) printer[*describe.Result] {
	return printer[*describe.Result]{
		text: func(w io.Writer, res *describe.Result, st *format.Styles) error {
			multi := len(res.Groups) > 1
			for _, g := range res.Groups {
				if g.Err == nil {
					if err := writeDescribeText(w, g, opts, multi, st); err != nil {
						return err
					}
				}
			}
			return nil
		},
		doc:   func(res *describe.Result) any { return format.NewDescribeDoc(res) },
		more:  drawings(a.describeGraphs, drawWith),
		notes: format.DescribeNotes,
		line: func(_ *describe.Result, f kafka.Failure, o format.Output) string {
			var se *kafka.StatusError
			switch {
			case !errors.As(f.Err, &se):
				return a.groupErrorLine(f.Group, f.Err)
			case !o.Graph():
				return "" // text and documents show the status
			case se.Status == topology.Error:
				return format.ErrorMessage(f.Group)
			}
			return format.NotStoredMessage(f.Group)
		},
	}
}

// describe runs the describe verb, once or (--watch) every interval.
func (a *app) describe(ctx context.Context, opts describe.Options, w watchOptions, p printer[*describe.Result]) error {
	run := func(ctx context.Context, c client) (*describe.Result, error) { return describe.Run(ctx, c, opts) }
	if w.on {
		return watchVerb(a, ctx, w, p, run, watch.FromDescribe)
	}
	return runVerb(a, ctx, p, run)
}

// describeGraphs draws each AVAILABLE description of --describe --topology
// -o dot|mermaid|svg|png on stdout: one dot graph per group; Mermaid and
// the pictures hold one diagram, so they take one group. Status messages and errors go to stderr
// (failures), where they cannot break the drawing.
func (a *app) describeGraphs(res *describe.Result) error {
	if err := oneDrawing(a.cfg.Output, len(res.Groups)); err != nil {
		return err
	}
	for _, g := range res.Groups {
		if g.Err == nil && g.TopologyStatus == topology.Available {
			if err := format.TopologyGraphContext(a.deps.signals.context(), a.io.Out, a.cfg.Output, g.Group, g.Topology); err != nil {
				return pictureError(err)
			}
		}
	}
	return nil
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
