package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// kafkaFlags are the kafka-streams-groups.sh options of the root command.
// They are validated in the Java tool's order, with its messages (verified
// against the real 4.4.0 tool, e2e/FINDINGS.md), and lead to the same verb
// functions as the subcommands.
type kafkaFlags struct {
	list, describe, delete bool

	topology, members, offsets, verbose bool
	state                               string // "" unless --state was given; see stateNoValue

	groups    []string
	allGroups bool

	dryRun                  bool
	deleteAllInternalTopics bool
}

// stateNoValue is what --state holds when given without a value.
const stateNoValue = "\x00"

func (kf *kafkaFlags) register(f *pflag.FlagSet) {
	f.BoolVar(&kf.list, "list", false, "List all streams groups.")
	f.BoolVar(&kf.describe, "describe", false, "Describe streams group and list offset lag related to given group.")
	f.BoolVar(&kf.delete, "delete", false, "Pass in groups to delete topic partition offsets and ownership information over the entire streams group.")
	f.BoolVar(&kf.topology, "topology", false, "Describe the topology of the streams group, as recorded by the broker's topology description plugin. This option may be used with the '--describe' option only.")
	f.BoolVar(&kf.members, "members", false, "Describe members of the group. This option may be used with the '--describe' option only.")
	f.BoolVar(&kf.offsets, "offsets", false, "Describe the group and list all topic partitions in the group along with their offset information. This is the default sub-action and may be used with the '--describe' option only.")
	f.BoolVar(&kf.verbose, "verbose", false, "Use with --describe --state to show group epoch and target assignment epoch. Use with --describe --members to show for each member the member epoch, target assignment epoch, current assignment, target assignment, and whether member is still using the classic rebalance protocol. Use with --describe --offsets and --describe to show leader epochs for each partition.")
	f.StringVar(&kf.state, "state", "", "When specified with '--describe', includes the state of the group. When specified with '--list', it displays the state of all groups. It can also be used to list groups with specific states. The valid values are 'Empty', 'NotReady', 'Stable', 'Assigning', 'Reconciling', and 'Dead'.")
	f.Lookup("state").NoOptDefVal = stateNoValue
	f.StringArrayVar(&kf.groups, "group", nil, "The streams group we wish to act on.")
	f.BoolVar(&kf.allGroups, "all-groups", false, "Apply to all streams groups.")
	f.BoolVar(&kf.dryRun, "dry-run", false, "With --delete: run the pre-checks and print what would be deleted, without deleting.")
	f.BoolVar(&kf.deleteAllInternalTopics, "delete-all-internal-topics", false, "Delete all internal topics linked to the streams group when deleting the group.")
}

// validate applies kafka-streams-groups.sh's checks in its order.
func (kf *kafkaFlags) validate(cmd *cobra.Command, haveBootstrap bool) error {
	set := func(name string) bool { return changed(cmd.Flags(), name) }

	// joptsimple's availableIf checks run while parsing, before anything else.
	for _, name := range []string{"members", "offsets", "topology", "verbose"} {
		if set(name) && !kf.describe {
			return usageErrorf("Option(s) [%s] are unavailable given other options on the command line", name)
		}
	}
	if set("state") && !kf.describe && !kf.list {
		return usageErrorf("Option(s) [state] are unavailable given other options on the command line")
	}
	if !haveBootstrap {
		return usageErrorf(`Missing required argument "[bootstrap-server]"`)
	}
	if kf.describe {
		if !kf.allGroups && len(kf.groups) == 0 {
			return usageErrorf("Option [describe] takes one of these options: [all-groups], [group]")
		}
		n := 0
		for _, on := range []bool{kf.members, kf.offsets, set("state"), kf.topology} {
			if on {
				n++
			}
		}
		if n > 1 {
			return usageErrorf("Option [describe] takes at most one of these options: [members], [offsets], [state], [topology]")
		}
		if set("state") && kf.state != stateNoValue {
			return usageErrorf("Option [describe] does not take a value for [state]")
		}
	}
	if kf.delete && !kf.allGroups && len(kf.groups) == 0 {
		return usageErrorf("Option [delete] takes one of these options: [all-groups], [group]")
	}
	if kf.deleteAllInternalTopics && !kf.delete {
		return usageErrorf("Option [delete-all-internal-topics] takes one of these options: [delete], [reset-offsets]")
	}
	if kf.dryRun && !kf.delete {
		return usageErrorf("Option [dry-run] takes one of these options: [delete], [reset-offsets]")
	}
	if kf.list && kf.members {
		return usageErrorf(`Option "[list]" can't be used with option "[members]"`)
	}
	if kf.list && kf.offsets {
		return usageErrorf(`Option "[list]" can't be used with option "[offsets]"`)
	}
	if len(kf.groups) > 0 && kf.allGroups {
		return usageErrorf(`Option "[group]" can't be used with option "[all-groups]"`)
	}
	if len(kf.groups) > 0 && kf.list {
		return usageErrorf(`Option "[group]" can't be used with option "[list]"`)
	}
	actions := 0
	for _, on := range []bool{kf.list, kf.describe, kf.delete} {
		if on {
			actions++
		}
	}
	if actions != 1 {
		return usageErrorf("Command must include exactly one action: --list, --describe, --delete, --reset-offsets, or --delete-offsets.")
	}
	return nil
}

// joinStateArg turns "--state VALUE" into "--state=VALUE" when VALUE is not
// an option, because joptsimple takes the next token as the optional value
// while pflag takes only the = form.
func joinStateArg(args []string) []string {
	// Never nil: cobra reads os.Args when given nil.
	out := append([]string{}, args...)
	for i := 0; i < len(out)-1; i++ {
		if out[i] == "--" {
			break
		}
		if out[i] == "--state" && !strings.HasPrefix(out[i+1], "-") {
			out = slices.Replace(out, i, i+2, "--state="+out[i+1])
		}
	}
	return out
}
