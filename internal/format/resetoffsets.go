package format

// Display rules for --reset-offsets. The text is kafka-streams-groups.sh's,
// byte for byte (StreamsGroupCommand.printOffsetsToReset and
// exportOffsetsToCsv of 4.4.0, checked against the real tool in
// e2e/offsets_test.go), in the Java tool's order:
//
//  1. per group, the lines the Java tool prints while it works, each a
//     blank line and then "Error: ..." or "Warn: ...": the group is not
//     inactive; --from-file has no plan for it; --input-topic names
//     partitions it has not committed; a partition has no record at or
//     after the --to-datetime/--by-duration target (its plan falls back to
//     the log end); with --execute, each topic the topology names that is
//     not inferred as internal, and a failed internal topic deletion;
//  2. the plan: "%n%-30s %-30s %-10s %-15s" lines, the header
//     GROUP TOPIC PARTITION NEW-OFFSET when any requested group was
//     described as a streams group (even one without rows), one row per
//     partition, then one line feed; or with --export the CSV:
//     "topic,partition,offset" lines when exactly one --group was given,
//     "group,topic,partition,offset" otherwise, and one more line feed.
//     Jackson's CSV quoting is kept: a value longer than 24 characters, or
//     holding a character below '-' (space, comma, quote, control
//     characters), is quoted, a quote doubled.
//
// Differences from the Java tool, all deliberate: groups come in request
// order (--all-groups: sorted) and rows by topic, then partition, where the
// Java tool prints hash order; a group that is not a streams group has no
// place in the plan (it is refused, with its error on stderr); names are
// escaped (escape.go) in the table. The CSV holds every name's exact bytes
// (quoted when it holds a line feed or carriage return, as RFC 4180 allows,
// or starts with a byte order mark), so that --from-file reads it back as
// the same group and topic, and under --export the lines of 1. go to stderr
// (ResetExportNotes and the command's failure lines): stdout is only CSV,
// where the Java tool's Warn: lines break its own --from-file. Whether a
// terminal may see the raw bytes is the command's decision
// (ResetCSVUnprintable).

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/resetoffsets"
)

// ResetOffsetsText writes a reset result as kafka-streams-groups.sh prints
// it: the per-group lines, then the plan table.
func ResetOffsetsText(w io.Writer, res *resetoffsets.Result) error {
	var b strings.Builder
	writeResetNotices(&b, res)
	if slices.ContainsFunc(res.Groups, func(g *resetoffsets.Group) bool { return g.Described }) {
		fmt.Fprintf(&b, "\n%s %s %s %s", pad("GROUP", 30), pad("TOPIC", 30), pad("PARTITION", 10), pad("NEW-OFFSET", 15))
		for _, g := range res.Groups {
			for _, p := range g.Partitions {
				fmt.Fprintf(&b, "\n%s %s %s %s", pad(Escape(g.Group), 30), pad(Escape(p.Topic), 30), pad(strconv.Itoa(int(p.Partition)), 10), pad(strconv.FormatInt(p.New, 10), 15))
			}
		}
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// ResetOffsetsCSV writes the plan as the CSV of --export, and nothing
// else: each name's exact bytes, which --from-file reads back as the same
// name.
func ResetOffsetsCSV(w io.Writer, res *resetoffsets.Result) error {
	var b strings.Builder
	for _, g := range res.Groups {
		for _, p := range g.Partitions {
			if !res.SingleGroup {
				b.WriteString(csvValue(g.Group) + ",")
			}
			fmt.Fprintf(&b, "%s,%d,%d\n", csvValue(p.Topic), p.Partition, p.New)
		}
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// ResetCSVUnprintable lists, each once, the group and topic names of the
// CSV that a terminal cannot be shown as they are (those Escape changes).
func ResetCSVUnprintable(res *resetoffsets.Result) []string {
	var out []string
	add := func(s string) {
		if Escape(s) != s && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for _, g := range res.Groups {
		for _, p := range g.Partitions {
			if !res.SingleGroup {
				add(g.Group)
			}
			add(p.Topic)
		}
	}
	return out
}

// ResetExportNotes are, under --export, the stderr lines for what the
// Java tool prints on stdout between its CSV lines: a partition that falls
// back to the log end, a topic the topology names that is not inferred as
// internal. (Refusals and failed deletions are failure lines.)
func ResetExportNotes(res *resetoffsets.Result) []string {
	var out []string
	for _, g := range res.Groups {
		for _, p := range g.Partitions {
			if p.NoRecordAfter {
				out = append(out, fmt.Sprintf("Warn: Partition %d from topic %s is empty. Falling back to latest known offset.", p.Partition, Escape(p.Topic)))
			}
		}
		if it := g.InternalTopics; it != nil {
			for _, t := range it.NotInferred {
				out = append(out, fmt.Sprintf("Warn: The internal topic '%s' is not inferred as internal and thus will not be deleted with the group '%s'.", Escape(t), Escape(g.Group)))
			}
		}
	}
	return out
}

// csvValue quotes a string as Jackson's CsvEncoder does by default (loose
// quoting): when it is longer than 24 UTF-16 units or holds a character
// below '-', the smallest character above the separator, the quote and the
// line feed. A value that starts with a byte order mark is quoted too, so
// that --from-file, which skips one at the start of the file, keeps it.
func csvValue(s string) string {
	quote := javaLen(s) > 24 || strings.HasPrefix(s, "\uFEFF")
	for i := 0; i < len(s) && !quote; i++ {
		quote = s[i] < '-'
	}
	if !quote {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// writeResetNotices writes the lines the Java tool prints on stdout while
// it works through the groups.
func writeResetNotices(b *strings.Builder, res *resetoffsets.Result) {
	for _, g := range res.Groups {
		if re := g.Refusal(); re != nil && re.Cause == nil {
			switch {
			case re.Reason == kafka.RefusedActive:
				printError(b, "Assignments can only be reset if the group '%s' is inactive, but the current state is %s.", Escape(g.Group), Escape(g.State))
			case re.Reason == kafka.RefusedNoPlan && re.FromFile:
				printError(b, "No reset plan for group %s found.", Escape(g.Group))
			case re.Reason == kafka.RefusedNoPlan:
				printError(b, "One or more topics are not part of the group '%s'.", Escape(g.Group))
			}
		}
		for _, p := range g.Partitions {
			if p.NoRecordAfter {
				fmt.Fprintf(b, "\nWarn: Partition %d from topic %s is empty. Falling back to latest known offset.\n", p.Partition, Escape(p.Topic))
			}
		}
		it := g.InternalTopics
		if it == nil {
			continue
		}
		for _, t := range it.NotInferred {
			printError(b, "The internal topic '%s' is not inferred as internal and thus will not be deleted with the group '%s'.", Escape(t), Escape(g.Group))
		}
		if len(it.Failed) > 0 {
			var ke *kafka.Error
			err := it.Failed[0].Err
			switch {
			case errors.As(err, &ke) && ke.Code == kafka.CodeUnknownTopicOrPartition:
				printError(b, "Deleting internal topics for group '%s' failed because the topics do not exist.", Escape(g.Group))
			case errors.As(err, &ke) && ke.Code == kafka.CodeUnsupportedVersion:
				printError(b, "Deleting internal topics is not supported by the broker version.\nInternal topics: (%s).\nUse 'kafka-topics.sh' to delete the group's internal topics.", strings.Join(mapAll(it.Inferred, Escape), ","))
			default:
				printError(b, "Deleting internal topics for group '%s' failed due to %s", Escape(g.Group), errorLine(err))
			}
		}
	}
}

// printError is the Java tool's printError: a blank line, "Error: " and the
// message.
func printError(b *strings.Builder, format string, args ...any) {
	b.WriteString("\nError: ")
	fmt.Fprintf(b, format, args...)
	b.WriteString("\n")
}

// ResetNotes are the stderr lines of a reset, after the output: one
// warning per clamped partition (the Java tool logs them through log4j on
// stderr), a dry run's empty plan (empty.go), and with --execute what was
// committed and deleted.
func ResetNotes(res *resetoffsets.Result) []string {
	out := resetEmptyNotes(res)
	for _, g := range res.Groups {
		for _, p := range g.Partitions {
			tp := Escape(p.Topic) + "-" + strconv.Itoa(int(p.Partition))
			switch p.Clamp {
			case resetoffsets.ClampedToLogEnd:
				out = append(out, fmt.Sprintf("Warn: New offset (%d) is higher than latest offset for topic partition %s. Value will be set to %d.", p.Requested, tp, p.New))
			case resetoffsets.ClampedToLogStart:
				out = append(out, fmt.Sprintf("Warn: New offset (%d) is lower than earliest offset for topic partition %s. Value will be set to %d.", p.Requested, tp, p.New))
			}
		}
	}
	if !res.Execute {
		return out
	}
	for _, g := range res.Groups {
		if !g.Committed {
			continue
		}
		n := len(g.Partitions)
		switch n {
		case 0:
			out = append(out, fmt.Sprintf("Nothing to commit for streams group '%s': its plan is empty.", Escape(g.Group)))
		case 1:
			out = append(out, fmt.Sprintf("Committed the new offset of 1 partition for streams group '%s'.", Escape(g.Group)))
		default:
			out = append(out, fmt.Sprintf("Committed the new offsets of %d partitions for streams group '%s'.", n, Escape(g.Group)))
		}
		if it := g.InternalTopics; it != nil {
			switch {
			case len(it.Inferred) == 0:
				out = append(out, fmt.Sprintf("Streams group '%s' has no internal topics: nothing to delete.", Escape(g.Group)))
			case len(it.Deleted) > 0:
				out = append(out, fmt.Sprintf("Deleted the internal topics of streams group '%s': %s.", Escape(g.Group), quoted(it.Deleted)))
			}
		}
	}
	return out
}

// ResetOffsetsDoc is the JSON and YAML document of --reset-offsets.
type ResetOffsetsDoc struct {
	// Scenario is the option that chose the new offsets: to-earliest,
	// to-latest, to-current, to-offset, shift-by, to-datetime, by-duration
	// or from-file.
	Scenario string `json:"scenario" yaml:"scenario"`
	// Execute tells whether the plan was to be committed (--execute) or
	// only shown (--dry-run).
	Execute bool            `json:"execute" yaml:"execute"`
	Groups  []ResetGroupDoc `json:"groups" yaml:"groups"`
}

// ResetGroupDoc is one requested group and its plan.
type ResetGroupDoc struct {
	Group string `json:"group" yaml:"group"`
	// Result is "planned" (dry run), "reset" (committed), "refused" (the
	// group was left alone: not Empty, no plan) or "failed".
	Result      string     `json:"result" yaml:"result"`
	State       string     `json:"state,omitempty" yaml:"state,omitempty"`
	Coordinator *BrokerDoc `json:"coordinator,omitempty" yaml:"coordinator,omitempty"`
	Error       *ErrorDoc  `json:"error,omitempty" yaml:"error,omitempty"`
	// Partitions is the plan, sorted by topic and partition.
	Partitions     []ResetPartitionDoc `json:"partitions" yaml:"partitions"`
	InternalTopics *InternalTopicsDoc  `json:"internal_topics,omitempty" yaml:"internal_topics,omitempty"`
}

// ResetPartitionDoc is one partition of a plan.
type ResetPartitionDoc struct {
	Topic     string `json:"topic" yaml:"topic"`
	Partition int32  `json:"partition" yaml:"partition"`
	// CurrentOffset is the committed offset before the reset; null when
	// the group committed none.
	CurrentOffset  *int64 `json:"current_offset" yaml:"current_offset"`
	NewOffset      int64  `json:"new_offset" yaml:"new_offset"`
	LogStartOffset int64  `json:"log_start_offset" yaml:"log_start_offset"`
	LogEndOffset   int64  `json:"log_end_offset" yaml:"log_end_offset"`
	// Note explains a new offset that is not the one asked for:
	// "clamped_to_log_end", "clamped_to_log_start" (RequestedOffset is the
	// one asked for) or "no_record_at_or_after_timestamp" (the log end).
	Note            string `json:"note,omitempty" yaml:"note,omitempty"`
	RequestedOffset *int64 `json:"requested_offset,omitempty" yaml:"requested_offset,omitempty"`
}

// The per-group results of ResetGroupDoc.Result.
const (
	ResetResultPlanned = "planned"
	ResetResultReset   = "reset"
	ResetResultRefused = "refused"
	ResetResultFailed  = "failed"
)

// NewResetOffsetsDoc builds the document of a reset result.
func NewResetOffsetsDoc(res *resetoffsets.Result) ResetOffsetsDoc {
	return ResetOffsetsDoc{Scenario: string(res.Scenario), Execute: res.Execute, Groups: mapAll(res.Groups, func(g *resetoffsets.Group) ResetGroupDoc {
		d := ResetGroupDoc{Group: g.Group, State: g.State, Coordinator: NewBrokerDoc(g.Coordinator), Partitions: mapAll(g.Partitions, resetPartitionDoc)}
		switch {
		case g.Refusal() != nil:
			d.Result, d.Error = ResetResultRefused, NewErrorDoc(g.Err)
		case g.Err != nil:
			d.Result, d.Error = ResetResultFailed, NewErrorDoc(g.Err)
		case g.Committed:
			d.Result = ResetResultReset
		default:
			d.Result = ResetResultPlanned
		}
		if it := g.InternalTopics; it != nil {
			d.InternalTopics = newInternalTopicsDoc(it)
		}
		return d
	})}
}

func resetPartitionDoc(p resetoffsets.Partition) ResetPartitionDoc {
	pd := ResetPartitionDoc{Topic: p.Topic, Partition: p.Partition, CurrentOffset: p.Current, NewOffset: p.New, LogStartOffset: p.LogStart, LogEndOffset: p.LogEnd}
	switch {
	case p.Clamp == resetoffsets.ClampedToLogEnd:
		pd.Note, pd.RequestedOffset = "clamped_to_log_end", &p.Requested
	case p.Clamp == resetoffsets.ClampedToLogStart:
		pd.Note, pd.RequestedOffset = "clamped_to_log_start", &p.Requested
	case p.NoRecordAfter:
		pd.Note = "no_record_at_or_after_timestamp"
	}
	return pd
}
