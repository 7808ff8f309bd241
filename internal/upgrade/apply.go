package upgrade

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// upgrade apply carries out a plan, in the one order a 4.4.0 broker was
// measured to accept (the upgrade-migration notes): export the offsets,
// delete the group, commit the exported offsets to the absent id (which
// makes an Empty "simple" classic group), read them back, and confirm the
// group is that classic group holding exactly them. Each step is told to
// the command as it ends (ApplyHooks.Progress) and recorded in the
// journal (ApplyHooks.Record), so that an interruption at any point leaves
// a state the result names (Stopped) and `upgrade apply --resume` can
// finish (resume.go). Nothing but the group and its offsets is touched.

// ApplyOptions are one upgrade apply invocation.
type ApplyOptions struct {
	// Options are the group and NEW, as for upgrade plan.
	Options
	// Execute carries the migration out; without it apply is a dry run:
	// the plan is checked and the steps are listed, nothing changes.
	Execute bool
	// AcceptStateLoss names every store whose state the migration loses
	// (renamed or dropped by NEW): apply refuses unless each is named.
	AcceptStateLoss []string
	// Export is the file the offsets are exported to before the delete;
	// required with Execute.
	Export string
}

// Validate checks the options before anything is read or fetched.
func (o ApplyOptions) Validate() error {
	if err := o.Options.Validate(); err != nil {
		return err
	}
	if o.Execute && o.Export == "" {
		return errors.New("upgrade apply --execute needs --export FILE: the offsets are exported there before the group is deleted")
	}
	for _, s := range o.AcceptStateLoss {
		if strings.TrimSpace(s) == "" {
			return errors.New("--accept-state-loss takes store names, comma-separated: an empty one was given")
		}
	}
	return nil
}

// ApplyClient is what apply and resume need from the admin client: the
// plan's reads, the delete, the commit and the listing of every group.
type ApplyClient interface {
	Client
	DeleteGroups(ctx context.Context, groups []string) []admin.DeletedGroup
	CommitOffsets(ctx context.Context, commits []admin.GroupCommit) []admin.CommitResult
	ListAllGroups(ctx context.Context) ([]admin.AnyGroup, error)
}

// StepKind names a step of the migration, in the order they are taken.
type StepKind string

// The steps.
const (
	// StepCheck: the plan recomputed and every precondition held.
	StepCheck StepKind = "check"
	// StepExport: the offsets written to the export file (and journal).
	StepExport StepKind = "export"
	// StepDelete: the streams group deleted (DeleteGroups).
	StepDelete StepKind = "delete"
	// StepCommit: the exported offsets committed to the absent group id.
	StepCommit StepKind = "commit"
	// StepReadBack: the committed offsets fetched and equal to the export.
	StepReadBack StepKind = "read-back"
	// StepConfirm: the group is an Empty classic group with no members.
	StepConfirm StepKind = "confirm"
)

// Steps are the steps of an executed migration, in order.
var Steps = []StepKind{StepCheck, StepExport, StepDelete, StepCommit, StepReadBack, StepConfirm}

// Step is one step as it ended.
type Step struct {
	Kind StepKind
	// Done tells the step was carried out (or, on resume, found done).
	Done bool
	// Earlier tells, on resume, that the step was done by an earlier run.
	Earlier bool
	// Detail says what the step did or saw.
	Detail string
	// Err is why the step failed.
	Err error
}

// Stopped names the state an interrupted or refused apply leaves.
type Stopped string

// The states apply can stop in.
const (
	// NotStopped: the migration finished (or a dry run ended).
	NotStopped Stopped = ""
	// StoppedUnchanged: nothing in the cluster changed (refused, or the
	// delete did not happen); the export file may exist.
	StoppedUnchanged Stopped = "unchanged"
	// StoppedDeleted: the group is deleted and its offsets exist only in
	// the export file: nothing may start before they are committed.
	StoppedDeleted Stopped = "deleted"
	// StoppedCommitted: the offsets were committed but not read back and
	// confirmed.
	StoppedCommitted Stopped = "committed"
	// StoppedMismatch: the offsets read back differ from the export.
	StoppedMismatch Stopped = "mismatch"
	// StoppedTaken: the group id was taken by something else (an
	// application joined, another client committed) before the end.
	StoppedTaken Stopped = "taken"
)

// Journal is where a migration stands: what the command keeps beside the
// export file (its offsets are the file's lines) so that a later run can
// resume it.
type Journal struct {
	Group string
	// New is NEW as given to apply, for the plan a resume may recompute.
	New string
	// AcceptStateLoss is apply's --accept-state-loss.
	AcceptStateLoss []string
	// Offsets are the exported offsets, sorted.
	Offsets []admin.OffsetToCommit
	// LeftBehind are the internal topics the migration leaves (the plan's),
	// for upgrade verify to list.
	LeftBehind []string
	// Step is the last step known done.
	Step StepKind
}

// ApplyHooks are the command's side of a run: the journal's storage and
// the progress report. Either may be nil in a dry run.
type ApplyHooks struct {
	// Record writes the journal (and, at StepExport, the export file):
	// before the delete, a failure stops the migration; later, it is only
	// reported (the cluster's state is what resume reads).
	Record func(Journal) error
	// Progress is told of every step as it ends.
	Progress func(Step)
	// Planned is told of the plan once it is made, before it is checked.
	Planned func(*Result)
}

// ApplySources are where apply reads from: the cluster and NEW's reader.
type ApplySources struct {
	Client ApplyClient
	// Read reads NEW (Stdin for standard input) into a description.
	Read func(file string) (*topology.Description, error)
}

// ApplyResult is what apply did.
type ApplyResult struct {
	Group string
	// New is NEW as given (on resume, as the journal recorded it).
	New     string
	Execute bool
	// Resumed tells the run continued an earlier one (--resume).
	Resumed bool
	// Export is the export file, "" in a dry run without --export.
	Export string
	// Plan is the plan checked; nil when it could not be made, or on a
	// resume that did not recompute it.
	Plan *Plan
	// Refusals are the preconditions that did not hold: nothing changed.
	Refusals []string
	// Steps are the steps in the order taken (a dry run lists the ones it
	// would take, not done).
	Steps []Step
	// Absent tells the run confirmed an absent group: it carried no
	// offset, so no commit created one.
	Absent bool
	// Stopped is the state left when the run did not finish.
	Stopped Stopped
	// Err is what stopped the run: a failed step, a plan that could not
	// be made, or a signal.
	Err error
}

// ApplyOutcome is what an apply run means to a script.
type ApplyOutcome string

// The outcomes of apply.
const (
	// ApplyDone: executed and confirmed; in a dry run, every precondition
	// holds.
	ApplyDone ApplyOutcome = "done"
	// ApplyNothing: the broker accepts NEW for the group as is.
	ApplyNothing ApplyOutcome = "nothing-to-migrate"
	// ApplyRefused: a precondition does not hold; nothing changed.
	ApplyRefused ApplyOutcome = "refused"
	// ApplyFailed: the plan could not be made or a step failed before the
	// delete; nothing changed.
	ApplyFailed ApplyOutcome = "failed"
	// ApplyInterrupted: the run stopped part-way (Stopped says where);
	// --resume finishes it.
	ApplyInterrupted ApplyOutcome = "interrupted"
)

// Outcome is the run's outcome.
func (r *ApplyResult) Outcome() ApplyOutcome {
	switch {
	case r.Stopped != NotStopped && r.Stopped != StoppedUnchanged:
		return ApplyInterrupted
	case r.Err != nil:
		return ApplyFailed
	case len(r.Refusals) > 0:
		return ApplyRefused
	case r.Plan != nil && r.Plan.Verdict == AcceptedAsIs:
		return ApplyNothing
	}
	return ApplyDone
}

// Failures lists the run's failure, if any.
func (r *ApplyResult) Failures() []kafka.Failure {
	return kafka.Failures([]*ApplyResult{r}, func(r *ApplyResult) (string, error) { return r.Group, r.Err })
}

// Apply recomputes the plan, refuses unless every precondition holds now,
// and, with Execute, carries the migration out. The error is for a signal
// (ctx cancelled): the result is then returned too, with the state left.
func Apply(ctx context.Context, src ApplySources, opts ApplyOptions, hooks ApplyHooks) (*ApplyResult, error) {
	res := &ApplyResult{Group: opts.Group, New: opts.New, Execute: opts.Execute, Export: opts.Export}
	planned, err := Run(ctx, Sources{Client: src.Client, Read: src.Read}, opts.Options)
	if err != nil {
		return nil, err
	}
	if hooks.Planned != nil {
		hooks.Planned(planned)
	}
	if planned.Err != nil {
		res.Err = planned.Err
		res.Stopped = StoppedUnchanged
		return res, nil
	}
	res.Plan = planned.Plan
	res.Refusals = refusals(planned.Plan, opts.AcceptStateLoss)
	if res.Plan.Verdict == AcceptedAsIs || len(res.Refusals) > 0 {
		if len(res.Refusals) > 0 {
			res.Stopped = StoppedUnchanged
		}
		return res, nil
	}
	r := runner{ctx: ctx, client: src.Client, hooks: hooks, res: res,
		journal: Journal{Group: opts.Group, New: opts.New, AcceptStateLoss: opts.AcceptStateLoss, Offsets: carried(res.Plan),
			LeftBehind: slices.Clone(res.Plan.LeftBehind.Topics)}}
	r.done(Step{Kind: StepCheck, Done: true, Detail: fmt.Sprintf("group %s: %s, %d members; %d offsets to carry", res.Plan.Group, res.Plan.State, res.Plan.Members, len(r.journal.Offsets))})
	if !opts.Execute {
		for _, k := range Steps[1:] {
			res.Steps = append(res.Steps, Step{Kind: k})
		}
		return res, nil
	}
	r.export()
	r.from(StepDelete)
	return res, r.signal()
}

// refusals are the preconditions that do not hold for the plan, with
// --accept-state-loss: the plan's blockers and unmet preconditions, and
// each store whose state is lost and not named (or named and not lost).
func refusals(p *Plan, accept []string) []string {
	if p.Verdict == AcceptedAsIs {
		return nil
	}
	var out []string
	for _, pc := range p.Preconditions {
		if !pc.Holds {
			out = append(out, fmt.Sprintf("precondition %s does not hold: %s", pc.Kind, pc.Detail))
		}
	}
	for _, b := range p.Blockers {
		out = append(out, fmt.Sprintf("%s: %s: %s", b.Kind, b.Subject, b.Detail))
	}
	lost := map[string]bool{}
	for _, s := range p.Stores {
		if !s.Lost() {
			continue
		}
		lost[s.Name] = true
		if !slices.Contains(accept, s.Name) {
			out = append(out, fmt.Sprintf("store %s is %s: its state starts empty under NEW; name it in --accept-state-loss to go on", s.Name, s.Fate))
		}
	}
	for _, name := range accept {
		if !lost[name] {
			out = append(out, fmt.Sprintf("--accept-state-loss names %s, whose state NEW keeps or which the group does not have", name))
		}
	}
	return out
}

// carried are the plan's offsets as they are committed back.
func carried(p *Plan) []admin.OffsetToCommit {
	out := make([]admin.OffsetToCommit, 0, len(p.Offsets))
	for _, o := range p.Offsets {
		out = append(out, admin.OffsetToCommit{TopicPartition: o.TopicPartition, Offset: o.Offset})
	}
	slices.SortFunc(out, func(a, b admin.OffsetToCommit) int {
		return kafka.CompareTopicPartitions(a.TopicPartition, b.TopicPartition)
	})
	return out
}

// runner carries the steps out, one after the other, stopping at the
// first that fails.
type runner struct {
	ctx     context.Context
	client  ApplyClient
	hooks   ApplyHooks
	res     *ApplyResult
	journal Journal
}

// done records a step that ended and tells the command.
func (r *runner) done(s Step) {
	r.res.Steps = append(r.res.Steps, s)
	if s.Done && !s.Earlier {
		r.journal.Step = s.Kind
	}
	if r.hooks.Progress != nil {
		r.hooks.Progress(s)
	}
}

// failed ends the run at step k with err, leaving state.
func (r *runner) failed(k StepKind, err error, state Stopped) {
	r.done(Step{Kind: k, Err: err})
	r.res.Err, r.res.Stopped = err, state
}

// stopped tells whether an earlier step ended the run.
func (r *runner) stopped() bool { return r.res.Err != nil }

// record writes the journal as it stands; only the export's write may
// stop the run.
func (r *runner) record() error {
	if r.hooks.Record == nil {
		return nil
	}
	return r.hooks.Record(r.journal)
}

func (r *runner) export() {
	r.journal.Step = StepExport
	if err := r.record(); err != nil {
		r.failed(StepExport, fmt.Errorf("export to %s: %w", r.res.Export, err), StoppedUnchanged)
		return
	}
	r.done(Step{Kind: StepExport, Done: true, Detail: fmt.Sprintf("%d offsets written to %s", len(r.journal.Offsets), r.res.Export)})
}

// from takes the steps from k (the delete or a later one) on, stopping
// at the first that fails.
func (r *runner) from(k StepKind) {
	take := map[StepKind]func(){StepDelete: r.delete, StepCommit: r.commit, StepReadBack: r.readBack, StepConfirm: r.confirm}
	for _, s := range Steps[slices.Index(Steps, k):] {
		if r.stopped() {
			return
		}
		take[s]()
	}
}

func (r *runner) delete() {
	deleted := r.client.DeleteGroups(r.ctx, []string{r.journal.Group})
	if len(deleted) != 1 || deleted[0].Err != nil {
		err := answerErr(deleted, func(d admin.DeletedGroup) error { return d.Err }, "DeleteGroups")
		r.failed(StepDelete, err, StoppedUnchanged)
		return
	}
	r.done(Step{Kind: StepDelete, Done: true, Detail: fmt.Sprintf("group %s deleted with its offsets; its internal topics are kept", r.journal.Group)})
	r.noteRecord()
}

// noteRecord writes the journal after a step that changed the cluster; a
// failure is only noted (resume reads the cluster, not the journal).
func (r *runner) noteRecord() {
	if err := r.record(); err != nil {
		last := &r.res.Steps[len(r.res.Steps)-1]
		last.Detail += fmt.Sprintf(" (the journal could not be written: %v)", err)
	}
}

func (r *runner) commit() {
	committed := r.client.CommitOffsets(r.ctx, []admin.GroupCommit{{Group: r.journal.Group, Offsets: r.journal.Offsets}})
	if len(committed) != 1 || committed[0].Err != nil {
		err := answerErr(committed, func(c admin.CommitResult) error { return c.Err }, "OffsetCommit")
		r.failed(StepCommit, err, StoppedDeleted)
		return
	}
	r.done(Step{Kind: StepCommit, Done: true, Detail: fmt.Sprintf("%d offsets committed to %s", len(r.journal.Offsets), r.journal.Group)})
	r.noteRecord()
}

func (r *runner) readBack() {
	fetched, ok := r.fetchOffsets(StepReadBack, StoppedCommitted)
	if !ok {
		return
	}
	if diffs := offsetDiffs(r.journal.Offsets, fetched); len(diffs) > 0 {
		r.failed(StepReadBack, &MismatchError{Group: r.journal.Group, Diffs: diffs}, StoppedMismatch)
		return
	}
	r.done(Step{Kind: StepReadBack, Done: true, Detail: fmt.Sprintf("%d offsets read back, equal to the export", len(r.journal.Offsets))})
	r.noteRecord()
}

// fetchOffsets reads the group's committed offsets; a failure ends the
// run at step k, leaving state.
func (r *runner) fetchOffsets(k StepKind, state Stopped) ([]admin.CommittedOffset, bool) {
	fetched := r.client.FetchCommittedOffsets(r.ctx, []string{r.journal.Group})
	if err := answerErr(fetched, func(g admin.GroupOffsets) error { return g.Err }, "OffsetFetch"); err != nil {
		r.failed(k, err, state)
		return nil, false
	}
	return fetched[0].Offsets, true
}

func (r *runner) confirm() {
	g, err := findGroup(r.ctx, r.client, r.journal.Group)
	switch {
	case err != nil:
		r.failed(StepConfirm, err, StoppedCommitted)
		return
	case g == nil && len(r.journal.Offsets) == 0:
		// Nothing to carry: a commit of no offset creates no group (a
		// broker answers it without its coordinator), so the id stays
		// absent until the new version's first heartbeat creates it.
		r.res.Absent = true
		r.done(Step{Kind: StepConfirm, Done: true, Detail: fmt.Sprintf("group %s is absent, as a migration that carries no offset leaves it: the new version creates it", r.journal.Group)})
		r.noteRecord()
		return
	case g == nil:
		r.failed(StepConfirm, fmt.Errorf("group %s is not listed by any broker", r.journal.Group), StoppedCommitted)
		return
	case !simpleClassic(*g):
		r.failed(StepConfirm, &TakenError{Group: *g}, StoppedTaken)
		return
	}
	r.done(Step{Kind: StepConfirm, Done: true, Detail: fmt.Sprintf("group %s is an Empty classic group with no protocol, holding exactly the exported offsets", r.journal.Group)})
	r.noteRecord()
}

// signal is the run's error when ctx was cancelled (a signal).
func (r *runner) signal() error {
	if err := r.ctx.Err(); err != nil && errors.Is(err, context.Canceled) {
		return context.Cause(r.ctx)
	}
	return nil
}

// simpleClassic tells whether a listed group is the Empty "simple" classic
// group an admin offset commit creates.
func simpleClassic(g admin.AnyGroup) bool {
	return g.Type == "classic" && g.ProtocolType == "" && strings.EqualFold(g.State, "Empty")
}

// findGroup lists every group and returns the one with id, nil when none.
func findGroup(ctx context.Context, client interface {
	ListAllGroups(ctx context.Context) ([]admin.AnyGroup, error)
}, id string) (*admin.AnyGroup, error) {
	all, err := client.ListAllGroups(ctx)
	if err != nil {
		return nil, err
	}
	for _, g := range all {
		if g.Group == id {
			return &g, nil
		}
	}
	return nil, nil
}

// answerErr is the error of a one-group answer: its own, or a malformed
// answer's.
func answerErr[T any](answers []T, errOf func(T) error, api string) error {
	if len(answers) != 1 {
		return &kafka.MalformedError{Reason: fmt.Sprintf("%s answered %d groups for 1", api, len(answers))}
	}
	return errOf(answers[0])
}

// OffsetDiff is one partition whose committed offset differs from the
// export: Want the exported offset (-1: not exported), Got the committed
// one (-1: none).
type OffsetDiff struct {
	kafka.TopicPartition
	Want, Got int64
}

// offsetDiffs compares the exported offsets with those committed: every
// exported partition at its offset, and nothing else.
func offsetDiffs(want []admin.OffsetToCommit, got []admin.CommittedOffset) []OffsetDiff {
	have := map[kafka.TopicPartition]int64{}
	for _, o := range got {
		if o.Err == nil && o.Offset >= 0 {
			have[o.TopicPartition] = o.Offset
		}
	}
	var out []OffsetDiff
	for _, w := range want {
		g, ok := have[w.TopicPartition]
		if !ok {
			g = -1
		}
		if g != w.Offset {
			out = append(out, OffsetDiff{TopicPartition: w.TopicPartition, Want: w.Offset, Got: g})
		}
		delete(have, w.TopicPartition)
	}
	for tp, g := range have {
		out = append(out, OffsetDiff{TopicPartition: tp, Want: -1, Got: g})
	}
	slices.SortFunc(out, func(a, b OffsetDiff) int { return kafka.CompareTopicPartitions(a.TopicPartition, b.TopicPartition) })
	return out
}

// MismatchError is a read-back that differs from the export.
type MismatchError struct {
	Group string
	Diffs []OffsetDiff
}

func (e *MismatchError) Error() string {
	parts := make([]string, 0, len(e.Diffs))
	for _, d := range e.Diffs {
		parts = append(parts, fmt.Sprintf("%s-%d: exported %s, committed %s", d.Topic, d.Partition, offsetText(d.Want), offsetText(d.Got)))
	}
	return fmt.Sprintf("the offsets of %s read back differ from the export: %s", e.Group, strings.Join(parts, "; "))
}

func offsetText(o int64) string {
	if o < 0 {
		return "none"
	}
	return fmt.Sprint(o)
}

// TakenError is a group id that something else took before the migration
// ended: an application joined (type streams) or another client's group.
type TakenError struct {
	Group admin.AnyGroup
}

func (e *TakenError) Error() string {
	if e.Group.Type == "streams" {
		return fmt.Sprintf("group %s is already a streams group (%s): an application joined before the migration was confirmed; run upgrade verify to see which topology it holds", e.Group.Group, e.Group.State)
	}
	return fmt.Sprintf("group %s is a %s group (protocol %q, %s), not the Empty classic group the commit makes: another client uses the id", e.Group.Group, e.Group.Type, e.Group.ProtocolType, e.Group.State)
}
