package format

// Display rules for history (issue 34), a timeline a person reads:
//
//	History of group G (__consumer_offsets partition P): complete from TIME, ...
//	Read offsets A to B: N bytes, R records, M of the group's.
//
//	TIME  epoch 4 -> 5  converged after 1.2s
//	  member-joined       m-2: process p-2, host /10.0.0.2, client c, instance i
//	  configs-changed     num.standby.replicas 0 -> 1
//	  moved               0_1 active p-1 -> p-2
//	                      0_1 standby placed on p-1
//
// oldest first, one block per new group epoch; causes in the order the
// records gave them, then the group metadata's (configs, partitions);
// what moved sorted by task. Convergence says "converged after D", "not
// converged before the next epoch", or "converging" for the last entry.
// Notes follow the timeline: the byte budget that stopped the read, the
// records skipped (unknown type, newer version, malformed). Times are UTC
// to the millisecond; every string from the log is escaped.

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/history"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// historyTime is how history prints a time.
const historyTime = "2006-01-02T15:04:05.000Z07:00"

// HistoryText writes a history result.
func HistoryText(w io.Writer, res *history.Result, st *Styles) error {
	var b strings.Builder
	if res.Partition.Topic == "" {
		return nil // the partition was not found: the error line says why
	}
	writeHistoryHeader(&b, res, st)
	for i, e := range res.Entries {
		b.WriteString("\n")
		writeHistoryEntry(&b, e, i == len(res.Entries)-1, st)
	}
	switch {
	case res.Err != nil || len(res.Entries) > 0:
	case res.Stats.GroupRecords == 0:
		// A misspelt group reads like a quiet one: say which it may be.
		fmt.Fprintf(&b, "\nNo record of group %s in the records read: it is not a streams group, has never had a member, or was deleted long enough ago that compaction removed it.\n", Escape(res.Group))
	default:
		b.WriteString("\nNo rebalance of the group in the records read.\n")
	}
	for _, n := range HistoryNotes(res) {
		b.WriteString("\n" + n + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeHistoryHeader(b *strings.Builder, res *history.Result, st *Styles) {
	where := fmt.Sprintf("%s partition %d", res.Partition.Topic, res.Partition.Partition)
	header := fmt.Sprintf("History of group %s (%s)", Escape(res.Group), where)
	switch {
	case res.CompleteFrom.IsZero():
		header += ": the log holds no record"
	case res.CompleteFromStart:
		header += fmt.Sprintf(": complete from %s, the log's first record", res.CompleteFrom.Format(historyTime))
	default:
		header += fmt.Sprintf(": complete from %s; compaction removed what came before", res.CompleteFrom.Format(historyTime))
		if res.FirstEpoch > 0 {
			header += fmt.Sprintf(" (the group was at epoch %d then)", res.FirstEpoch)
		}
	}
	b.WriteString(st.Paint(st.Header, header) + ".\n")
	s := res.Stats
	fmt.Fprintf(b, "Read offsets %d to %d: %s, %d records, %d of the group's.\n", max(s.LogStart, 0), s.Next, byteSize(s.Bytes), s.Records, s.GroupRecords)
}

// byteSize is a size for a person: "812 B", "3.4 MB".
func byteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func writeHistoryEntry(b *strings.Builder, e history.Entry, last bool, st *Styles) {
	line := fmt.Sprintf("%s  epoch %d -> %d", e.Time.Format(historyTime), e.PreviousEpoch, e.GroupEpoch)
	switch {
	case e.Converged:
		line += "  converged after " + e.ConvergedAfter.Round(time.Millisecond).String()
	case e.Members == 0:
		line += "  no member left"
	case last:
		line += "  converging"
	default:
		line += "  not converged before the next epoch"
	}
	b.WriteString(st.Paint(st.Header, line) + "\n")
	if len(e.Causes) == 0 {
		historyLine(b, "cause", "not in the records read")
	}
	for _, c := range e.Causes {
		historyLine(b, string(c.Kind), causeText(c))
	}
	switch {
	case !e.Assigned:
		historyLine(b, "moved", "the target assignment of this epoch is not in the records read")
	case e.Moved.Empty():
		historyLine(b, "moved", "nothing")
	default:
		for i, m := range movedLines(e.Moved) {
			label := "moved"
			if i > 0 {
				label = ""
			}
			historyLine(b, label, m)
		}
	}
}

// historyLine is one indented line with its label in a column.
func historyLine(b *strings.Builder, label, text string) {
	fmt.Fprintf(b, "  %-19s %s\n", label, text)
}

func causeText(c history.Cause) string {
	switch c.Kind {
	case history.TopologyChanged:
		var parts []string
		if len(c.Subtopologies) > 0 {
			parts = append(parts, "sub-topologies "+escapeJoin(c.Subtopologies))
		}
		if len(c.Topics) > 0 {
			parts = append(parts, "topics "+escapeJoin(c.Topics))
		}
		if len(parts) == 0 {
			return "a new topology epoch"
		}
		return strings.Join(parts, "; ")
	case history.PartitionsChanged:
		return "the metadata of the group's topics changed (partitions, a topic created or deleted)"
	case history.ConfigsChanged:
		return strings.Join(mapAll(c.Configs, func(k history.ConfigChange) string {
			return fmt.Sprintf("%s %s -> %s", Escape(k.Key), configSide(k.Old, k.OldSet), configSide(k.New, k.NewSet))
		}), ", ")
	}
	if c.Member == nil {
		return ""
	}
	m := c.Member
	who := Escape(m.MemberID)
	switch {
	case c.Kind == history.MemberRejoined && c.PreviousMemberID != "":
		who += " (was " + Escape(c.PreviousMemberID)
		if len(c.Changed) > 0 {
			who += "; changed: " + strings.Join(c.Changed, ", ")
		}
		who += ")"
	case c.Reason == history.ReasonSessionExpired:
		who += " (static member left, session expired)"
	case len(c.Changed) > 0:
		who += " (" + strings.Join(c.Changed, ", ") + ")"
	}
	s := fmt.Sprintf("%s: process %s, host %s, client %s", who, Escape(m.ProcessID), Escape(m.Host), Escape(m.ClientID))
	if m.InstanceID != "" {
		s += ", instance " + Escape(m.InstanceID)
	}
	return s
}

func configSide(v string, set bool) string {
	if !set {
		return "(none)"
	}
	return Escape(v)
}

func escapeJoin(ss []string) string { return strings.Join(mapAll(ss, Escape), ", ") }

func processName(p string) string {
	if p == "" {
		return "(none)"
	}
	return Escape(p)
}

func movedLines(m history.Moves) []string {
	var out []string
	for _, a := range m.Active {
		out = append(out, fmt.Sprintf("%s active %s -> %s", Escape(a.Task.String()), processName(a.From), processName(a.To)))
	}
	for _, ps := range []struct {
		what string
		ps   []history.Placement
	}{{"standby placed", m.StandbysPlaced}, {"standby lost", m.StandbysLost}, {"warm-up started", m.WarmupsStarted}} {
		for _, p := range ps.ps {
			out = append(out, fmt.Sprintf("%s %s on %s", Escape(p.Task.String()), ps.what, processName(p.Process)))
		}
	}
	return out
}

// HistoryNotes are what a reader of the history must know besides the
// timeline: the byte budget that stopped the read, records skipped.
func HistoryNotes(res *history.Result) []string {
	var out []string
	s := res.Stats
	if s.Budget {
		out = append(out, fmt.Sprintf("Note: the byte budget (--max-bytes) stopped the read at offset %d of %d: later rebalances are not shown.", s.Next, s.End))
	}
	if n := s.UnknownTypes; n > 0 {
		out = append(out, fmt.Sprintf("Note: %d records of a type this tool does not know (a newer broker's) skipped.", n))
	}
	if n := s.NewerVersions; n > 0 {
		out = append(out, fmt.Sprintf("Note: %d records of the group with a newer value version skipped: the history may lack what they hold.", n))
	}
	if n := s.Malformed; n > 0 {
		out = append(out, fmt.Sprintf("Note: %d records of the group could not be decoded and were skipped.", n))
	}
	return out
}

// HistoryHint ends the error line of a history that could not be read:
// for a topic the principal may not read, the ACLs it needs.
func HistoryHint(err error) string {
	var ke *kafka.Error
	if !errors.As(err, &ke) {
		return ""
	}
	switch ke.Code {
	case kafka.CodeTopicAuthorizationFailed:
		return " (history needs the DESCRIBE and READ ACLs on topic " + history.OffsetsTopic + ")"
	case kafka.CodeUnknownTopicOrPartition:
		// A managed service may hide the internal topic altogether.
		return " (the cluster shows no topic " + history.OffsetsTopic + "; history needs to read it, with the DESCRIBE and READ ACLs on it)"
	}
	return ""
}

// GroupHistoryDoc is history's document.
type GroupHistoryDoc struct {
	Group     string `json:"group" yaml:"group"`
	Topic     string `json:"topic" yaml:"topic"`
	Partition int32  `json:"partition" yaml:"partition"`
	// CompleteFrom is null when the log holds no record.
	CompleteFrom         *string           `json:"complete_from" yaml:"complete_from"`
	CompleteFromLogStart bool              `json:"complete_from_log_start" yaml:"complete_from_log_start"`
	EpochAtCompleteFrom  int32             `json:"epoch_at_complete_from" yaml:"epoch_at_complete_from"`
	GroupEpoch           int32             `json:"group_epoch" yaml:"group_epoch"`
	Entries              []HistoryEntryDoc `json:"entries" yaml:"entries"`
	Read                 HistoryReadDoc    `json:"read" yaml:"read"`
	Error                *ErrorDoc         `json:"error,omitempty" yaml:"error,omitempty"`
}

// HistoryReadDoc says what the read covered.
type HistoryReadDoc struct {
	LogStartOffset      int64 `json:"log_start_offset" yaml:"log_start_offset"`
	EndOffset           int64 `json:"end_offset" yaml:"end_offset"`
	NextOffset          int64 `json:"next_offset" yaml:"next_offset"`
	Bytes               int64 `json:"bytes" yaml:"bytes"`
	BudgetReached       bool  `json:"budget_reached" yaml:"budget_reached"`
	Records             int64 `json:"records" yaml:"records"`
	GroupRecords        int64 `json:"group_records" yaml:"group_records"`
	Tombstones          int64 `json:"tombstones" yaml:"tombstones"`
	SkippedUnknownType  int64 `json:"skipped_unknown_type" yaml:"skipped_unknown_type"`
	SkippedNewerVersion int64 `json:"skipped_newer_version" yaml:"skipped_newer_version"`
	SkippedMalformed    int64 `json:"skipped_malformed" yaml:"skipped_malformed"`
}

// HistoryEntryDoc is one rebalance.
type HistoryEntryDoc struct {
	Time          string            `json:"time" yaml:"time"`
	Offset        int64             `json:"offset" yaml:"offset"`
	GroupEpoch    int32             `json:"group_epoch" yaml:"group_epoch"`
	PreviousEpoch int32             `json:"previous_epoch" yaml:"previous_epoch"`
	Members       int               `json:"members" yaml:"members"`
	Causes        []HistoryCauseDoc `json:"causes" yaml:"causes"`
	// Moved is null when the epoch's target assignment is not in the
	// records read.
	Moved *HistoryMovesDoc `json:"moved" yaml:"moved"`
	// ConvergedAfterMs is null when the records do not show every member
	// reaching the epoch's assignment.
	ConvergedAfterMs *int64 `json:"converged_after_ms" yaml:"converged_after_ms"`
}

// HistoryCauseDoc is one cause of a rebalance.
type HistoryCauseDoc struct {
	Cause            string             `json:"cause" yaml:"cause"`
	Member           *HistoryMemberDoc  `json:"member,omitempty" yaml:"member,omitempty"`
	PreviousMemberID string             `json:"previous_member_id,omitempty" yaml:"previous_member_id,omitempty"`
	Reason           string             `json:"reason,omitempty" yaml:"reason,omitempty"`
	Changed          []string           `json:"changed,omitempty" yaml:"changed,omitempty"`
	Subtopologies    []string           `json:"subtopologies,omitempty" yaml:"subtopologies,omitempty"`
	Topics           []string           `json:"topics,omitempty" yaml:"topics,omitempty"`
	Configs          []HistoryConfigDoc `json:"configs,omitempty" yaml:"configs,omitempty"`
}

// HistoryMemberDoc names a member.
type HistoryMemberDoc struct {
	MemberID   string  `json:"member_id" yaml:"member_id"`
	ProcessID  string  `json:"process_id" yaml:"process_id"`
	Host       string  `json:"host" yaml:"host"`
	ClientID   string  `json:"client_id" yaml:"client_id"`
	InstanceID *string `json:"instance_id" yaml:"instance_id"`
}

// HistoryConfigDoc is a config whose value changed; null for a side
// where the key was not set.
type HistoryConfigDoc struct {
	Key string  `json:"key" yaml:"key"`
	Old *string `json:"old" yaml:"old"`
	New *string `json:"new" yaml:"new"`
}

// HistoryMovesDoc is what a target assignment moved.
type HistoryMovesDoc struct {
	Active         []HistoryActiveMoveDoc `json:"active" yaml:"active"`
	StandbysPlaced []HistoryPlacementDoc  `json:"standbys_placed" yaml:"standbys_placed"`
	StandbysLost   []HistoryPlacementDoc  `json:"standbys_lost" yaml:"standbys_lost"`
	WarmupsStarted []HistoryPlacementDoc  `json:"warmups_started" yaml:"warmups_started"`
}

// HistoryActiveMoveDoc is a task whose active owner changed; null for no
// owner.
type HistoryActiveMoveDoc struct {
	Task string  `json:"task" yaml:"task"`
	From *string `json:"from" yaml:"from"`
	To   *string `json:"to" yaml:"to"`
}

// HistoryPlacementDoc is a task on a process.
type HistoryPlacementDoc struct {
	Task    string `json:"task" yaml:"task"`
	Process string `json:"process" yaml:"process"`
}

// NewGroupHistoryDoc is the document of a history result.
func NewGroupHistoryDoc(res *history.Result) GroupHistoryDoc {
	s := res.Stats
	d := GroupHistoryDoc{Group: res.Group, Topic: res.Partition.Topic, Partition: res.Partition.Partition,
		CompleteFromLogStart: res.CompleteFromStart, EpochAtCompleteFrom: res.FirstEpoch, GroupEpoch: res.Epoch,
		Entries: mapAll(res.Entries, newHistoryEntryDoc), Error: NewErrorDoc(res.Err),
		Read: HistoryReadDoc{LogStartOffset: s.LogStart, EndOffset: s.End, NextOffset: s.Next, Bytes: s.Bytes, BudgetReached: s.Budget,
			Records: s.Records, GroupRecords: s.GroupRecords, Tombstones: s.Tombstones,
			SkippedUnknownType: s.UnknownTypes, SkippedNewerVersion: s.NewerVersions, SkippedMalformed: s.Malformed}}
	if !res.CompleteFrom.IsZero() {
		t := res.CompleteFrom.UTC().Format(historyTime)
		d.CompleteFrom = &t
	}
	return d
}

func newHistoryEntryDoc(e history.Entry) HistoryEntryDoc {
	d := HistoryEntryDoc{Time: e.Time.UTC().Format(historyTime), Offset: e.Offset, GroupEpoch: e.GroupEpoch, PreviousEpoch: e.PreviousEpoch,
		Members: e.Members, Causes: mapAll(e.Causes, newHistoryCauseDoc)}
	if e.Assigned {
		d.Moved = &HistoryMovesDoc{StandbysPlaced: mapAll(e.Moved.StandbysPlaced, placementDoc),
			StandbysLost: mapAll(e.Moved.StandbysLost, placementDoc), WarmupsStarted: mapAll(e.Moved.WarmupsStarted, placementDoc),
			Active: mapAll(e.Moved.Active, func(a history.ActiveMove) HistoryActiveMoveDoc {
				return HistoryActiveMoveDoc{Task: a.Task.String(), From: nonEmpty(a.From), To: nonEmpty(a.To)}
			})}
	}
	if e.Converged {
		ms := e.ConvergedAfter.Milliseconds()
		d.ConvergedAfterMs = &ms
	}
	return d
}

func newHistoryCauseDoc(c history.Cause) HistoryCauseDoc {
	cd := HistoryCauseDoc{Cause: string(c.Kind), PreviousMemberID: c.PreviousMemberID, Reason: c.Reason, Changed: c.Changed,
		Subtopologies: c.Subtopologies, Topics: c.Topics}
	if m := c.Member; m != nil {
		cd.Member = &HistoryMemberDoc{MemberID: m.MemberID, ProcessID: m.ProcessID, Host: m.Host, ClientID: m.ClientID, InstanceID: nonEmpty(m.InstanceID)}
	}
	for _, k := range c.Configs {
		cd.Configs = append(cd.Configs, HistoryConfigDoc{Key: k.Key, Old: setOrNull(k.Old, k.OldSet), New: setOrNull(k.New, k.NewSet)})
	}
	return cd
}

func setOrNull(v string, set bool) *string {
	if !set {
		return nil
	}
	return &v
}

func placementDoc(p history.Placement) HistoryPlacementDoc {
	return HistoryPlacementDoc{Task: p.Task.String(), Process: p.Process}
}
