package upgrade

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
)

// upgrade apply --resume FILE continues a migration from the state the
// cluster is in, not from the journal alone: the journal says how far an
// earlier run got, the group's listing and committed offsets say what is
// true now.
//
//   - The group is absent: the delete happened and the commit did not (or
//     was lost): commit the exported offsets, read back, confirm.
//   - It is the Empty classic group with no protocol: the commit happened,
//     maybe in part: commit again when its offsets differ from the export
//     (the group is Empty, so the commit is accepted), read back, confirm.
//   - It is still a streams group and the journal stops before the delete:
//     the delete did not happen. It goes on only when the group is Empty
//     and its committed offsets are still exactly the exported ones (the
//     preconditions were checked against them); otherwise the group moved
//     on and apply must be run again for a fresh export.
//   - It is a streams group after the delete, or a group of another kind:
//     something else took the id (an application started too early, another
//     client): nothing is changed, and the result says what to do.

// Resume continues the migration the journal records. The error is for a
// signal (ctx cancelled): the result is then returned too.
func Resume(ctx context.Context, client ApplyClient, journal Journal, export string, hooks ApplyHooks) (*ApplyResult, error) {
	res := &ApplyResult{Group: journal.Group, New: journal.New, Execute: true, Resumed: true, Export: export}
	r := runner{ctx: ctx, client: client, hooks: hooks, res: res, journal: journal}
	g, err := findGroup(ctx, client, journal.Group)
	if err != nil {
		r.failed(StepCheck, err, stateOf(journal.Step))
		return res, r.signal()
	}
	switch {
	case g == nil:
		r.earlier(StepCheck, StepExport, StepDelete)
		r.from(StepCommit)
	case simpleClassic(*g):
		r.earlier(StepCheck, StepExport, StepDelete)
		r.resumeCommitted()
	case g.Type == "streams" && before(journal.Step, StepDelete):
		r.resumeIntact(*g)
	default:
		r.failed(StepCheck, &TakenError{Group: *g}, StoppedTaken)
	}
	return res, r.signal()
}

// stateOf is the state a journal's last step leaves, for a resume that
// could not even look at the group.
func stateOf(last StepKind) Stopped {
	switch last {
	case StepDelete:
		return StoppedDeleted
	case StepCommit, StepReadBack:
		return StoppedCommitted
	case StepConfirm:
		return NotStopped
	}
	return StoppedUnchanged
}

// before tells whether step a comes before step b.
func before(a, b StepKind) bool { return slices.Index(Steps, a) < slices.Index(Steps, b) }

// earlier records steps an earlier run did, as found.
func (r *runner) earlier(kinds ...StepKind) {
	for _, k := range kinds {
		r.done(Step{Kind: k, Done: true, Earlier: true, Detail: earlierDetail[k]})
	}
}

var earlierDetail = map[StepKind]string{
	StepCheck:  "checked by the run that exported",
	StepExport: "the export file of the earlier run",
	StepDelete: "the streams group is gone",
	StepCommit: "the group holds the exported offsets",
}

// resumeCommitted goes on from a simple classic group: commit again when
// its offsets differ from the export, then read back and confirm.
func (r *runner) resumeCommitted() {
	fetched, ok := r.fetchOffsets(StepReadBack, StoppedCommitted)
	if !ok {
		return
	}
	if len(offsetDiffs(r.journal.Offsets, fetched)) == 0 {
		r.earlier(StepCommit)
		r.from(StepReadBack)
		return
	}
	r.from(StepCommit)
}

// resumeIntact goes on from a streams group that was never deleted, when
// nothing moved since the export.
func (r *runner) resumeIntact(g admin.AnyGroup) {
	if !strings.EqualFold(g.State, "Empty") {
		r.failed(StepCheck, fmt.Errorf("group %s was not deleted and is %s now, not Empty: stop every instance, then run upgrade apply again", g.Group, g.State), StoppedUnchanged)
		return
	}
	fetched, ok := r.fetchOffsets(StepCheck, StoppedUnchanged)
	if !ok {
		return
	}
	// An offset the export does not hold counts too: the export carries
	// every committed one, so such an offset was committed since, or the
	// file lost lines, and the delete would lose it.
	if diffs := offsetDiffs(r.journal.Offsets, fetched); len(diffs) > 0 {
		r.failed(StepCheck, fmt.Errorf("group %s was not deleted and its offsets differ from the export (%d partitions, moved or not in the export file): run upgrade apply again for a fresh export", g.Group, len(diffs)), StoppedUnchanged)
		return
	}
	r.done(Step{Kind: StepCheck, Done: true, Detail: fmt.Sprintf("group %s not deleted yet: Empty, its offsets still the exported ones", g.Group)})
	r.earlier(StepExport)
	r.from(StepDelete)
}
