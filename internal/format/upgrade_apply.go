package format

// Display rules for upgrade apply and upgrade verify, views of ours:
//   - apply prints the plan it checked (UpgradePlanText), then one line per
//     step as the step ends (UpgradeStepLine: the step, "done", "done
//     earlier" on a resume, "FAILED", and what it did or why it failed),
//     then its end (UpgradeApplyText): refused with each precondition that
//     does not hold, nothing to migrate, a dry run's steps to come, done
//     with what to start next, or stopped with the state the cluster is in,
//     the command that finishes it and the one that goes back;
//   - verify prints the group as listed, whether it holds NEW's topology
//     (the broker's refused fields when not), the exported offsets checked
//     and those that moved backwards, what is left behind for inventory
//     --orphans, and its verdict with the reason and what to do;
//   - color, on a terminal only: headers bold, FAILED, stopped and failed
//     red, not yet yellow;
//   - every name and message from a file or the broker is escaped.
// The documents (UpgradeApplyDoc, UpgradeVerifyDoc) hold the same.

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/upgrade"
)

// stepWork says what each step does, for a dry run's list.
var stepWork = map[upgrade.StepKind]string{
	upgrade.StepCheck:    "recompute the plan; refuse unless every precondition holds",
	upgrade.StepExport:   "write the offsets to carry to the export file (reset-offsets --from-file form) and its journal",
	upgrade.StepDelete:   "delete the Empty streams group (its offsets go with it; its internal topics stay)",
	upgrade.StepCommit:   "commit the exported offsets to the absent group id (an Empty classic group appears)",
	upgrade.StepReadBack: "fetch the committed offsets and compare them with the export",
	upgrade.StepConfirm:  "confirm the group is an Empty classic group with no protocol and no members",
}

// UpgradeStepLine is the line of one step as it ended.
func UpgradeStepLine(s upgrade.Step, st *Styles) string {
	status := "done"
	switch {
	case s.Err != nil:
		status = st.Paint(st.orPlain().Error, "FAILED")
	case s.Earlier:
		status = "done earlier"
	case !s.Done:
		status = "to do"
	}
	text := s.Detail
	if s.Err != nil {
		text = s.Err.Error()
	}
	return fmt.Sprintf("  %-10s %-12s %s\n", s.Kind, status, Escape(text))
}

// UpgradeApplyText writes the end of an apply run: the plan and the steps
// were printed as they came (UpgradePlanText, UpgradeStepLine).
func UpgradeApplyText(w io.Writer, res *upgrade.ApplyResult, st *Styles) error {
	var b strings.Builder
	g := Escape(res.Group)
	switch res.Outcome() {
	case upgrade.ApplyRefused:
		fmt.Fprintf(&b, "\n%s nothing was changed:\n", st.Paint(st.orPlain().Error, "Refused:"))
		for _, r := range res.Refusals {
			fmt.Fprintf(&b, "  %s\n", Escape(r))
		}
	case upgrade.ApplyNothing:
		fmt.Fprintf(&b, "\n%s the broker accepts NEW for group %s as is: deploy it as usual.\n", st.Paint(st.orPlain().Header, "Nothing to migrate:"), g)
	case upgrade.ApplyDone:
		writeApplyDone(&b, res, st)
	default:
		writeApplyStopped(&b, res, st)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeApplyDone(b *strings.Builder, res *upgrade.ApplyResult, st *Styles) {
	g := Escape(res.Group)
	if !res.Execute {
		fmt.Fprintf(b, "\n%s every precondition holds now. --execute (with --export FILE) takes these steps:\n", st.Paint(st.orPlain().Header, "Dry run:"))
		for _, s := range res.Steps {
			if !s.Done {
				fmt.Fprintf(b, "  %-10s %s\n", s.Kind, stepWork[s.Kind])
			}
		}
		return
	}
	if res.Absent {
		fmt.Fprintf(b, "\n%s group %s is absent: it had no offset to carry.\n", st.Paint(st.orPlain().Header, "Done:"), g)
	} else {
		fmt.Fprintf(b, "\n%s group %s is an Empty classic group holding exactly the exported offsets.\n", st.Paint(st.orPlain().Header, "Done:"), g)
	}
	fmt.Fprintf(b, "Next: start the new version now, and only it (an old instance that joins first takes the group back to the old topology), then:\n")
	fmt.Fprintf(b, "  kstreams-groups upgrade verify --group %s %s --export %s --wait 5m\n", g, Escape(res.New), Escape(res.Export))
}

// stoppedText says what state the cluster is left in.
func stoppedText(res *upgrade.ApplyResult) string {
	g, f := Escape(res.Group), Escape(res.Export)
	switch res.Stopped {
	case upgrade.StoppedDeleted:
		return fmt.Sprintf("group %s is deleted and its offsets exist only in %s: start no instance of the application until they are committed (it would re-read its inputs from auto.offset.reset).", g, f)
	case upgrade.StoppedCommitted:
		return fmt.Sprintf("the exported offsets were committed to %s but not read back and confirmed.", g)
	case upgrade.StoppedMismatch:
		return fmt.Sprintf("the offsets of %s read back differ from the export: something else committed to the group id.", g)
	case upgrade.StoppedTaken:
		return fmt.Sprintf("the group id %s was taken by something else before the migration ended.", g)
	}
	return "nothing in the cluster changed."
}

func writeApplyStopped(b *strings.Builder, res *upgrade.ApplyResult, st *Styles) {
	fmt.Fprintf(b, "\n%s %s\n", st.Paint(st.orPlain().Error, "Stopped:"), stoppedText(res))
	if res.Err != nil {
		fmt.Fprintf(b, "Why: %s\n", Escape(res.Err.Error()))
	}
	for _, line := range UpgradeApplyNext(res) {
		fmt.Fprintf(b, "%s\n", line)
	}
}

// UpgradeApplyNext are the commands that finish or undo a stopped run, as
// lines: also printed on stderr when a signal ended the run.
func UpgradeApplyNext(res *upgrade.ApplyResult) []string {
	g, f := Escape(res.Group), Escape(res.Export)
	journaled := slices.ContainsFunc(res.Steps, func(s upgrade.Step) bool { return s.Kind == upgrade.StepExport && s.Done })
	switch res.Stopped {
	case upgrade.StoppedTaken:
		return []string{fmt.Sprintf("Look: kstreams-groups upgrade verify --group %s %s --export %s", g, Escape(res.New), f),
			"If an old instance holds the group: stop every instance, then run upgrade apply again (a fresh export)."}
	case upgrade.StoppedUnchanged, upgrade.NotStopped:
		if !journaled {
			return []string{"Run upgrade apply again once the cause is fixed."}
		}
		return []string{fmt.Sprintf("To finish: kstreams-groups upgrade apply --resume %s (with the same connection flags), or run upgrade apply again.", f)}
	}
	return []string{
		fmt.Sprintf("To finish: kstreams-groups upgrade apply --resume %s (with the same connection flags)", f),
		fmt.Sprintf("To go back instead: finish the same way, then start the old version, not the new one (its first heartbeat makes %s a streams group with the old topology and the exported offsets); %s is the reset-offsets --from-file CSV for a commit by hand.", g, f),
	}
}

// UpgradeApplyDoc is the document of upgrade apply.
type UpgradeApplyDoc struct {
	Group string `json:"group" yaml:"group"`
	// New is NEW as given.
	New string `json:"new" yaml:"new"`
	// Execute is false for a dry run.
	Execute bool `json:"execute" yaml:"execute"`
	// Resumed tells the run continued an earlier one (--resume).
	Resumed bool `json:"resumed" yaml:"resumed"`
	// Export is the export file ("" in a dry run without --export).
	Export string `json:"export" yaml:"export"`
	// Outcome is done, nothing-to-migrate, refused, failed or interrupted.
	Outcome string `json:"outcome" yaml:"outcome"`
	// Plan is the plan checked; absent on a resume.
	Plan *UpgradePlanDoc `json:"plan,omitempty" yaml:"plan,omitempty"`
	// Refusals are the preconditions that did not hold.
	Refusals []string `json:"refusals" yaml:"refusals"`
	// Steps are the steps in order (a dry run's are not done).
	Steps []UpgradeStepDoc `json:"steps" yaml:"steps"`
	// Stopped is the state a run that did not finish left: unchanged,
	// deleted, committed, mismatch or taken; "" when it finished.
	Stopped string `json:"stopped" yaml:"stopped"`
	// Next are the commands that finish or undo a stopped run.
	Next  []string  `json:"next" yaml:"next"`
	Error *ErrorDoc `json:"error,omitempty" yaml:"error,omitempty"`
}

// UpgradeStepDoc is one step: check, export, delete, commit, read-back or
// confirm.
type UpgradeStepDoc struct {
	Step string `json:"step" yaml:"step"`
	Done bool   `json:"done" yaml:"done"`
	// Earlier tells a resume found the step done by an earlier run.
	Earlier bool      `json:"earlier" yaml:"earlier"`
	Detail  string    `json:"detail" yaml:"detail"`
	Error   *ErrorDoc `json:"error,omitempty" yaml:"error,omitempty"`
}

// NewUpgradeApplyDoc converts an apply run.
func NewUpgradeApplyDoc(res *upgrade.ApplyResult) UpgradeApplyDoc {
	d := UpgradeApplyDoc{Group: res.Group, New: res.New, Execute: res.Execute, Resumed: res.Resumed, Export: res.Export,
		Outcome: string(res.Outcome()), Refusals: append([]string{}, res.Refusals...), Stopped: string(res.Stopped), Next: []string{},
		Steps: mapAll(res.Steps, func(s upgrade.Step) UpgradeStepDoc {
			return UpgradeStepDoc{Step: string(s.Kind), Done: s.Done, Earlier: s.Earlier, Detail: s.Detail, Error: NewErrorDoc(s.Err)}
		}), Error: NewErrorDoc(res.Err)}
	if res.Plan != nil {
		p := NewUpgradePlanDoc(&upgrade.Result{Group: res.Group, New: res.New, Plan: res.Plan})
		d.Plan = &p
	}
	if o := res.Outcome(); o == upgrade.ApplyInterrupted || o == upgrade.ApplyFailed {
		d.Next = UpgradeApplyNext(res)
	}
	return d
}

// UpgradeVerifyText writes verify's answer.
func UpgradeVerifyText(w io.Writer, res *upgrade.VerifyResult, st *Styles) error {
	if res.Err != nil {
		return nil // the failure is reported on stderr
	}
	var b strings.Builder
	g := Escape(res.Group)
	fmt.Fprintf(&b, "%s %s\n", st.Paint(st.orPlain().Header, "Upgrade verify for group"), g)
	switch res.Type {
	case "":
		fmt.Fprintf(&b, "Group: absent\n")
	case "streams":
		fmt.Fprintf(&b, "Group: streams, %s, %s\n", Escape(res.State), plural(res.Members, "member"))
	default:
		fmt.Fprintf(&b, "Group: %s, %s\n", Escape(res.Type), Escape(res.State))
	}
	writeVerifyTopology(&b, res, st)
	writeVerifyOffsets(&b, res, st)
	writeVerifyLeftBehind(&b, res, st)
	switch res.Outcome {
	case upgrade.Verified:
		fmt.Fprintf(&b, "%s verified: a Stable streams group on NEW's topology, no offset moved backwards.\n", st.Paint(st.orPlain().Header, "Verdict:"))
	case upgrade.NotYet:
		fmt.Fprintf(&b, "%s %s: %s.\n", st.Paint(st.orPlain().Header, "Verdict:"), st.Paint(st.orPlain().Warning, "not yet"), Escape(res.Reason))
	default:
		fmt.Fprintf(&b, "%s %s: %s.\n", st.Paint(st.orPlain().Header, "Verdict:"), st.Paint(st.orPlain().Error, "FAILED"), Escape(res.Reason))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeVerifyTopology(b *strings.Builder, res *upgrade.VerifyResult, st *Styles) {
	switch {
	case res.Type != "streams" || res.Outcome == upgrade.NotYet && len(res.Refused) == 0 && res.State == "":
	case res.OldTopology:
		fmt.Fprintf(b, "Topology: %s (the broker would refuse NEW for it):\n", st.Paint(st.orPlain().Error, "not NEW's"))
		for _, r := range res.Refused {
			fmt.Fprintf(b, "  sub-topology %s: %s\n", Escape(r.Subtopology), refusalText(r))
		}
	default:
		fmt.Fprintf(b, "Topology: NEW's (the same source, repartition and changelog topics per sub-topology)\n")
	}
}

func writeVerifyOffsets(b *strings.Builder, res *upgrade.VerifyResult, st *Styles) {
	switch {
	case res.Type != "streams":
	case res.Checked == 0 && len(res.Backwards) == 0:
		fmt.Fprintf(b, "Offsets: none checked (give --export FILE, the file upgrade apply wrote)\n")
	case len(res.Backwards) == 0:
		fmt.Fprintf(b, "Offsets: %s checked, none moved backwards\n", plural(res.Checked, "exported offset"))
	default:
		fmt.Fprintf(b, "Offsets: %s checked, %s:\n", plural(res.Checked, "exported offset"), st.Paint(st.orPlain().Error, plural(len(res.Backwards), "moved backwards")))
		for _, d := range res.Backwards {
			fmt.Fprintf(b, "  %s-%d: exported %d, committed %s\n", Escape(d.Topic), d.Partition, d.Want, offsetOrNone(d.Got))
		}
	}
}

func writeVerifyLeftBehind(b *strings.Builder, res *upgrade.VerifyResult, st *Styles) {
	if len(res.StaleOffsets) == 0 && len(res.OldTopics) == 0 {
		return
	}
	fmt.Fprintf(b, "%s\n", st.Paint(st.orPlain().Header, "Left behind (kstreams-groups inventory --orphans lists them for cleaning):"))
	for _, t := range res.OldTopics {
		fmt.Fprintf(b, "  topic %s (the old topology's internal topic)\n", Escape(t))
	}
	for _, tp := range res.StaleOffsets {
		fmt.Fprintf(b, "  offset %s-%d (a topic the topology no longer reads)\n", Escape(tp.Topic), tp.Partition)
	}
}

// UpgradeVerifyDoc is the document of upgrade verify.
type UpgradeVerifyDoc struct {
	Group string `json:"group" yaml:"group"`
	// Outcome is verified, not-yet or failed; absent with error.
	Outcome string `json:"outcome,omitempty" yaml:"outcome,omitempty"`
	// Type and State are the group's as listed ("" when absent).
	Type    string `json:"type" yaml:"type"`
	State   string `json:"state" yaml:"state"`
	Members int    `json:"members" yaml:"members"`
	Reason  string `json:"reason" yaml:"reason"`
	// OldTopology tells the group holds a topology the broker would
	// refuse NEW for: an old instance joined first.
	OldTopology bool                `json:"old_topology" yaml:"old_topology"`
	Refused     []UpgradeRefusalDoc `json:"refused" yaml:"refused"`
	// Checked is how many exported offsets were compared.
	Checked      int                   `json:"checked" yaml:"checked"`
	Backwards    []UpgradeBackwardsDoc `json:"backwards" yaml:"backwards"`
	StaleOffsets []UpgradePartitionDoc `json:"stale_offsets" yaml:"stale_offsets"`
	OldTopics    []string              `json:"old_topics" yaml:"old_topics"`
	// Asks is how many times the group was looked at (--wait).
	Asks  int       `json:"asks" yaml:"asks"`
	Error *ErrorDoc `json:"error,omitempty" yaml:"error,omitempty"`
}

// UpgradeBackwardsDoc is an exported offset that moved backwards;
// committed is null when the partition has no offset any more.
type UpgradeBackwardsDoc struct {
	Topic     string `json:"topic" yaml:"topic"`
	Partition int32  `json:"partition" yaml:"partition"`
	Exported  int64  `json:"exported" yaml:"exported"`
	Committed *int64 `json:"committed" yaml:"committed"`
}

// NewUpgradeVerifyDoc converts a verify run.
func NewUpgradeVerifyDoc(res *upgrade.VerifyResult) UpgradeVerifyDoc {
	d := UpgradeVerifyDoc{Group: res.Group, Type: res.Type, State: res.State, Members: res.Members, Reason: res.Reason,
		OldTopology: res.OldTopology, Refused: []UpgradeRefusalDoc{}, Checked: res.Checked, Backwards: []UpgradeBackwardsDoc{},
		StaleOffsets: []UpgradePartitionDoc{}, OldTopics: append([]string{}, res.OldTopics...), Asks: res.Asks}
	if res.Err != nil {
		d.Error = NewErrorDoc(res.Err)
		return d
	}
	d.Outcome = string(res.Outcome)
	d.Refused, d.StaleOffsets = mapAll(res.Refused, refusalDoc), mapAll(res.StaleOffsets, partitionDoc)
	d.Backwards = mapAll(res.Backwards, func(b upgrade.OffsetDiff) UpgradeBackwardsDoc {
		bd := UpgradeBackwardsDoc{Topic: b.Topic, Partition: b.Partition, Exported: b.Want}
		if b.Got >= 0 {
			got := b.Got
			bd.Committed = &got
		}
		return bd
	})
	return d
}

// UpgradeJournalFile is the journal upgrade apply keeps beside its export
// file (FILE.journal): where the migration stands. The offsets are the
// export file's lines, so that what --resume reads is what an operator
// sees (and may use by hand with reset-offsets --from-file). Not a
// command's output: the input of --resume and verify --export.
type UpgradeJournalFile struct {
	Version         int      `json:"version"`
	Group           string   `json:"group"`
	New             string   `json:"new"`
	AcceptStateLoss []string `json:"accept_state_loss"`
	LeftBehind      []string `json:"left_behind"`
	// Step is the last step done.
	Step string `json:"step"`
	// Offsets is how many lines the export file holds for the group, so
	// that --resume tells a file that lost lines (nil in a journal
	// written before it was recorded).
	Offsets *int `json:"offsets,omitempty"`
}

// NewUpgradeJournalFile is the journal of j (its offsets go to the export
// file).
func NewUpgradeJournalFile(j upgrade.Journal) UpgradeJournalFile {
	n := len(j.Offsets)
	return UpgradeJournalFile{Version: 1, Group: j.Group, New: j.New, AcceptStateLoss: j.AcceptStateLoss, LeftBehind: j.LeftBehind, Step: string(j.Step), Offsets: &n}
}
