package main

// The reset-offsets verb: --reset-offsets and `reset-offsets`. stdout is
// Kafka's plan table (or its --export CSV) with Kafka's Error:/Warn: lines;
// stderr gets the clamping warnings, what --execute committed, and one line
// per failure Kafka's text does not show.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/resetoffsets"
)

// Options shared by the offset verbs (and --delete), with the Java tool's
// help where the Java tool has the same behaviour.
var (
	allInputTopicsFlag = boolOption(flagDef{name: "all-input-topics",
		kafkaHelp: "Consider all input topics used in the topology of the group. Supported operations: delete-offsets, reset-offsets.",
		help:      "Every partition of the topology's source topics that the group has committed (repartition topics are left out)."})
	inputTopicFlag = stringsOption(flagDef{name: "input-topic",
		kafkaHelp: "The input topic whose committed offset should be deleted or reset. Partitions can be specified using this format: topic:0,1,2, where 0,1,2 are the partitions to be included. Multiple input topics can be specified. Supported operations: delete-offsets, reset-offsets.",
		help:      "A topic, or topic:0,1,2 for some of its partitions (repeatable)."})
	dryRunFlag = boolOption(flagDef{name: "dry-run",
		kafkaHelp: "Only show results without executing changes on streams group. Supported operations: reset-offsets, delete (runs the pre-checks and prints what would be deleted)."})
	deleteAllInternalTopicsFlag = boolOption(flagDef{name: "delete-all-internal-topics",
		kafkaHelp: "Delete all internal topics linked to the streams group. Supported operations: reset-offsets, delete. With reset-offsets, this option is applicable only when --execute is used."})
	deleteInternalTopicFlag = stringsOption(flagDef{name: "delete-internal-topic",
		kafkaHelp: "Delete specified internal topic of the streams group; it must be an internal topic of the group. Supported operations: reset-offsets (only when --execute is used), delete."})
	// executeFlag is reset-offsets' --execute, which the checks between
	// verbs read (sharedChecks); config and inventory declare their own.
	executeFlag = boolOption(flagDef{name: "execute", kafkaHelp: "Execute the offset reset operation. Supported operation: reset-offsets.",
		help: "Commit the plan (the group must be Empty)."})
)

func (a *app) resetOffsetsVerb() *verb {
	toEarliest := boolOption(flagDef{name: "to-earliest", kafkaHelp: "Reset offsets to earliest offset."})
	toLatest := boolOption(flagDef{name: "to-latest", kafkaHelp: "Reset offsets to latest offset."})
	toCurrent := boolOption(flagDef{name: "to-current", kafkaHelp: "Reset offsets to current offset."})
	toOffset := stringOption(flagDef{name: "to-offset", kafkaHelp: "Reset offsets to a specific offset."})
	shiftBy := stringOption(flagDef{name: "shift-by", kafkaHelp: "Reset offsets shifting current offset by 'n', where 'n' can be positive or negative."})
	toDatetime := stringOption(flagDef{name: "to-datetime", kafkaHelp: "Reset offsets to offset from datetime. Format: 'YYYY-MM-DDThh:mm:ss.sss'",
		help: "Reset offsets to the first record at or after an ISO 8601 time, e.g. 2020-01-01T05:00:00.000 (UTC) or 2020-01-01T05:00:00+05:30."})
	byDuration := stringOption(flagDef{name: "by-duration", kafkaHelp: "Reset offsets by duration from current timestamp. Format: 'PnDTnHnMnS'",
		help: "Reset offsets to the first record at or after now minus a duration, e.g. PT1H30M or P1D."})
	fromFile := stringOption(flagDef{name: "from-file", kafkaHelp: "Reset offsets to values defined in CSV file.",
		help: "Reset offsets to the values of a CSV file of at most 64 MiB, as --export writes it (topic,partition,offset with one --group, else group,topic,partition,offset)."})
	export := boolOption(flagDef{name: "export", kafkaHelp: "Generate offset reset information in CSV format for export to a file. Supported operation: reset-offsets.",
		help: "Print the plan as CSV, for --from-file: stdout holds only the CSV, each name's exact bytes (warnings go to stderr)."})
	return &verb{
		name:       "reset-offsets",
		actionHelp: "Reset offsets of streams group. The instances should be inactive. Takes --dry-run to plan which offsets to reset or --execute to update them (and, with --delete-all-internal-topics or --delete-internal-topic, delete internal topics); --export prints the plan as CSV. Scenarios: --to-datetime, --by-duration, --to-earliest, --to-latest, --shift-by, --from-file, --to-current, --to-offset. Scope: --all-input-topics or --input-topic, unless --from-file is used.",
		flags: table(groupFlag, allGroupsFlag, allInputTopicsFlag, inputTopicFlag,
			toEarliest, toLatest, toCurrent, toOffset, shiftBy, toDatetime, byDuration, fromFile,
			dryRunFlag.withHelp("Only show the plan; change nothing."),
			executeFlag, export,
			deleteAllInternalTopicsFlag.withHelp("With --execute: after the commit, delete the internal topics inferred from each group's topology."),
			deleteInternalTopicFlag.withHelp("With --execute: after the commit, delete this internal topic of the group (repeatable); a topic that is not an internal topic of a requested group is refused and nothing is committed.")),
		short: "Reset the committed offsets of Kafka Streams groups",
		long: `Reset the committed offsets of Kafka Streams groups, as
kafka-streams-groups.sh --reset-offsets does, so that an application
reprocesses (or skips) its input. Give exactly one of --dry-run (show the plan)
and --execute (commit it), a scope (--all-input-topics: the committed
partitions of the topology's source topics; --input-topic T or T:0,1) unless
--from-file is used, and one scenario:

  --to-earliest, --to-latest   the log start offset, the high watermark
  --to-current                 the committed offset
  --to-offset N, --shift-by N  an offset, or the committed one plus N, moved
                               into the log with a warning when outside it
  --to-datetime T              the first record at or after T (ISO 8601)
  --by-duration D              the first record at or after now minus D
  --from-file CSV              the offsets of an --export file

stdout is Kafka's table (GROUP TOPIC PARTITION NEW-OFFSET, rows sorted) or,
with --export, its CSV; -o json|yaml gives every partition's committed, new,
log start and log end offsets. A group that is not Empty is left alone, and a
group that does not exist or is not a streams group is refused before
anything is sent. With --execute the plan is committed with OffsetCommit to
the group's coordinator (the broker refuses it if the group gained a member
meanwhile); --delete-all-internal-topics then deletes the group's inferred
internal topics, --delete-internal-topic T only T, which must be one of them.
Unlike kafka-streams-groups.sh, a group whose offsets were not reset makes the
exit status non-zero.`,
		exits: clusterExits(exitNotFound, exitGroupActive, exitNoResetPlan, exitNotInternal),
		example: `  # Plan a reprocessing from the start, then commit it (the application must be stopped)
  kstreams-groups reset-offsets --group orders-app --all-input-topics --to-earliest --dry-run
  kstreams-groups reset-offsets --group orders-app --all-input-topics --to-earliest --execute

  # Go back to the first record written after a point in time
  kstreams-groups reset-offsets --group orders-app --input-topic orders --to-datetime 2026-01-01T00:00:00Z --execute

  # Export a plan, edit it, and apply it
  kstreams-groups reset-offsets --group orders-app --all-input-topics --to-current --dry-run --export > plan.csv
  kstreams-groups reset-offsets --group orders-app --from-file plan.csv --execute

  # Reset and delete the internal topics, as kafka-streams-application-reset.sh did
  kstreams-groups --reset-offsets --group orders-app --all-input-topics --to-earliest --execute --delete-all-internal-topics`,
		parse: func(v flagValues) job {
			opts := resetoffsets.Options{
				Groups: groupFlag.get(v), AllGroups: allGroupsFlag.get(v),
				AllInputTopics: allInputTopicsFlag.get(v), InputTopics: inputTopicFlag.get(v),
				ToEarliest: toEarliest.get(v), ToLatest: toLatest.get(v), ToCurrent: toCurrent.get(v),
				ToOffset: toOffset.given(v), ShiftBy: shiftBy.given(v),
				ToDatetime: toDatetime.given(v), ByDuration: byDuration.given(v), FromFile: fromFile.given(v),
				DryRun: dryRunFlag.get(v), Execute: executeFlag.get(v), Export: export.get(v),
				DeleteAllInternalTopics: deleteAllInternalTopicsFlag.get(v), DeleteInternalTopics: deleteInternalTopicFlag.get(v),
			}
			var req resetoffsets.Request
			return job{opts: opts, validate: opts.Validate,
				prepare: func(ctx context.Context) (err error) {
					req, err = opts.Prepare(func(path string) ([]byte, error) {
						data, err := planInput.readFile(ctx, "the file", path)
						return []byte(data), err
					})
					return err
				},
				run: func(ctx context.Context) error { return a.resetOffsets(ctx, opts, req) }}
		},
	}
}

// resetOffsets runs the reset-offsets verb. Under --export stdout is only
// the CSV, so that it can be fed back with --from-file: the lines the Java
// tool prints between the CSV lines go to stderr. A CSV holding a name that
// a terminal cannot show as it is (controls, bidi, invalid UTF-8) is not
// written to a terminal: escaped, it would read back as another name.
func (a *app) resetOffsets(ctx context.Context, opts resetoffsets.Options, req resetoffsets.Request) error {
	if opts.Export && a.cfg.Output != format.Text {
		return usageErrorf("--export prints the plan as CSV: leave out -o %s", a.cfg.Output)
	}
	var unprintable []string
	p := printer[*resetoffsets.Result]{
		text: func(w io.Writer, res *resetoffsets.Result, _ *format.Styles) error {
			if !opts.Export {
				return format.ResetOffsetsText(w, res)
			}
			if a.isTerminal(a.io.Out) {
				if unprintable = format.ResetCSVUnprintable(res); len(unprintable) > 0 {
					return nil
				}
			}
			return format.ResetOffsetsCSV(w, res)
		},
		doc: func(res *resetoffsets.Result) any { return format.NewResetOffsetsDoc(res) },
		line: func(res *resetoffsets.Result, f kafka.Failure, o format.Output) string {
			g := resetGroup(res, f.Group)
			switch re := g.Refusal(); {
			case o.Machine() || opts.Export:
			case g.Err == nil:
				return "" // internal topics: Kafka's text names the failure
			case re != nil && re.Cause == nil:
				return "" // Kafka's Error: line shows it
			}
			switch {
			case g.Err == nil:
				return fmt.Sprintf("internal topics of streams group '%s': %s", format.Escape(f.Group), a.errorText(f.Err))
			case g.Refusal() != nil:
				return a.errorText(f.Err) // the message names the group
			}
			return a.groupErrorLine(f.Group, f.Err)
		},
		notes: func(res *resetoffsets.Result) []string {
			if opts.Export {
				return append(format.ResetExportNotes(res), format.ResetNotes(res)...)
			}
			return format.ResetNotes(res)
		},
	}
	err := runVerb(a, ctx, p, func(ctx context.Context, c client) (*resetoffsets.Result, error) {
		return resetoffsets.Run(ctx, c, req)
	})
	var se *signalError
	if len(unprintable) > 0 && !errors.As(err, &se) {
		return usageErrorf("--export: the plan names %s, which a terminal cannot show as it is: redirect stdout to a file (> plan.csv), which holds the exact bytes for --from-file", strings.Join(quoteAll(unprintable), ", "))
	}
	return err
}

func resetGroup(res *resetoffsets.Result, id string) *resetoffsets.Group {
	for _, g := range res.Groups {
		if g.Group == id {
			return g
		}
	}
	return &resetoffsets.Group{Group: id}
}
