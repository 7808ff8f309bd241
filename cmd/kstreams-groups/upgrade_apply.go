package main

// The verb `kstreams-groups upgrade apply --group G NEW --dry-run|--execute
// [--export FILE] [--accept-state-loss STORE,...]` and its `--resume FILE`:
// it carries out upgrade plan's migration (internal/upgrade/apply.go). The
// command's side is the export file and its journal: the offsets are
// written, in the reset-offsets --from-file CSV form, to FILE before the
// group is deleted, and FILE.journal (JSON) records the group, NEW and the
// last step done, so that --resume FILE can finish an interrupted run.
// Each step is printed as it ends; apply has its own exit codes.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/resetoffsets"
	"github.com/kstreams-groups/kstreams-groups/internal/upgrade"
)

// upgrade apply's exit codes.
const (
	applyDone        = 0
	applyRefused     = 1
	applyFailed      = 2
	applyInterrupted = 3
	applyNothing     = 4
)

// upgradeApplyExitStatuses are upgrade apply's exit codes as its help
// lists them.
var upgradeApplyExitStatuses = []exitStatus{
	{applyDone, false, "Done: the group is an Empty classic group holding exactly the exported offsets (a dry run: every precondition holds)."},
	{applyRefused, false, "Refused: a precondition does not hold (each is named); nothing was changed."},
	{applyFailed, false, "Usage error, NEW or the group that cannot be read, or a step that failed before the delete: nothing in the cluster was changed."},
	{applyInterrupted, false, "Stopped part-way (a broker error, a lost connection, the timeout): the state left and the command that finishes it (--resume FILE) are printed."},
	{applyNothing, false, "Nothing to migrate: the broker accepts NEW for the group as is."},
}

// journalSuffix names the journal beside an export file.
const journalSuffix = ".journal"

// applyRun is one apply invocation's options.
type applyRun struct {
	opts   upgrade.ApplyOptions
	resume string
}

func (a *app) upgradeApplyVerb() *verb {
	dryRun := boolOption(flagDef{name: "dry-run", help: "Check the plan and list the steps, change nothing (the default)."})
	execute := boolOption(flagDef{name: "execute", help: "Carry the migration out (needs --export FILE)."})
	export := stringOption(flagDef{name: "export",
		help: "The `FILE` the offsets are exported to before the group is deleted, in the reset-offsets --from-file CSV form (group,topic,partition,offset); FILE.journal beside it records the steps. It must not exist."})
	accept := stringsOption(flagDef{name: "accept-state-loss",
		help: "The `STORE[,STORE]` whose state the migration loses (renamed or dropped by NEW: they start empty); apply refuses unless each such store is named."})
	resume := stringOption(flagDef{name: "resume",
		help: "Finish a migration that stopped part-way, from its export `FILE` and FILE.journal (no --group or NEW)."})
	return &verb{
		name:           "apply",
		parent:         upgradeCmd,
		args:           "NEW",
		subcommandOnly: true,
		own:            &ownExit{upgradeApplyExitStatuses, "These are upgrade apply's own codes, the same with --detailed-exit-codes; a signal exits 130 or 143, the state left printed on stderr."},
		flags:          table(groupFlag.withHelp("The streams group (the application.id) to migrate."), dryRun, execute, export, accept, resume),
		short:          "Carry out the migration upgrade plan describes: export, delete, commit, read back, confirm",
		long: `Recompute upgrade plan's plan for the group and NEW, refuse unless every
precondition holds at this moment (the group Empty with no members, every
repartition topic NEW renames or drops drained, every store whose state is
lost named in --accept-state-loss), and with --execute carry the migration
out, printing each step as it ends:

  check      the plan recomputed, the preconditions held
  export     the offsets to carry written to --export FILE (the CSV that
             reset-offsets --from-file reads) and FILE.journal
  delete     the Empty streams group deleted (its offsets go with it; its
             internal topics stay)
  commit     the exported offsets committed at once to the absent group
             id: an Empty classic group appears, holding them
  read-back  the committed offsets fetched and compared with the export
  confirm    the group listed as an Empty classic group, no protocol

Then start the new version, and only it: its first heartbeat converts the
group, keeps the offsets and brings NEW's topology; check with upgrade
verify. --dry-run is the default. A run that stops part-way (a broker error,
a lost connection, a signal) names the state it left and the command that
finishes it, upgrade apply --resume FILE, which reads the group's actual
state and goes on (or says what to undo). Nothing else in the cluster is
touched. -o json|yaml gives the run as one document.`,
		example: `  # Check that the migration can be carried out now
  kstreams-groups upgrade apply --group orders-app build/topology.txt --accept-state-loss counts

  # Carry it out, the offsets exported first
  kstreams-groups upgrade apply --group orders-app build/topology.txt --execute --export orders-app-offsets.csv

  # Finish a run that stopped part-way
  kstreams-groups upgrade apply --resume orders-app-offsets.csv`,
		parse: func(v flagValues) job {
			run := applyRun{resume: resume.get(v)}
			run.opts = upgrade.ApplyOptions{Execute: execute.get(v), Export: export.get(v)}
			run.opts.Group, run.opts.New = upgradeTarget(v)
			for _, s := range accept.get(v) {
				run.opts.AcceptStateLoss = append(run.opts.AcceptStateLoss, strings.Split(s, ",")...)
			}
			validate := func() error { return run.validate(v, dryRun.get(v)) }
			return job{opts: run.opts, validate: validate, run: func(ctx context.Context) error { return a.upgradeApply(ctx, run) }}
		},
	}
}

// validate checks an apply invocation: --resume alone, or one --group
// and NEW with at most one of --dry-run and --execute.
func (r applyRun) validate(v flagValues, dryRun bool) error {
	if r.resume != "" {
		if len(groupFlag.get(v)) > 0 || len(v.args) > 0 || r.opts.Export != "" || len(r.opts.AcceptStateLoss) > 0 {
			return errors.New("upgrade apply --resume FILE takes no --group, NEW, --export or --accept-state-loss: the journal has them")
		}
		return nil
	}
	if err := checkUpgradeTarget("apply", v); err != nil {
		return err
	}
	if dryRun && r.opts.Execute {
		return errors.New("upgrade apply takes --dry-run or --execute, not both")
	}
	return r.opts.Validate()
}

// upgradeApply runs upgrade apply or its --resume.
func (a *app) upgradeApply(ctx context.Context, run applyRun) error {
	text := a.cfg.Output == format.Text
	hooks := upgrade.ApplyHooks{}
	if text {
		st := a.outStyles()
		hooks.Planned = func(res *upgrade.Result) {
			if res.Plan != nil {
				_ = format.UpgradePlanText(a.io.Out, res, st)
				fmt.Fprintln(a.io.Out)
				fmt.Fprintln(a.io.Out, "Steps:")
			}
		}
		hooks.Progress = func(s upgrade.Step) { _, _ = io.WriteString(a.io.Out, format.UpgradeStepLine(s, st)) }
	}
	p := printer[*upgrade.ApplyResult]{
		text: format.UpgradeApplyText,
		doc:  func(res *upgrade.ApplyResult) any { return format.NewUpgradeApplyDoc(res) },
		line: func(res *upgrade.ApplyResult, f kafka.Failure, _ format.Output) string {
			return a.upgradeApplyFailureLine(res, f.Err)
		},
		failed:      func(err error) (*upgrade.ApplyResult, error) { return nil, &verbExit{code: applyFailed, err: err} },
		writeFailed: func(err error) error { return &verbExit{code: applyFailed, err: err} },
		outcome:     applyOutcome,
	}
	return runVerb(a, ctx, p, func(ctx context.Context, c client) (*upgrade.ApplyResult, error) {
		var res *upgrade.ApplyResult
		var err error
		if run.resume != "" {
			res, err = a.resumeApply(ctx, c, run.resume, hooks)
		} else {
			hooks.Record = func(j upgrade.Journal) error { return writeJournal(run.opts.Export, j) }
			res, err = upgrade.Apply(ctx, upgrade.ApplySources{Client: c, Read: a.topologyReader(ctx)}, run.opts, hooks)
		}
		if err != nil && res != nil && res.Stopped != upgrade.NotStopped {
			// A signal: stdout takes no more writes, so the state left
			// and the way on go to stderr.
			fmt.Fprintf(a.io.ErrOut, "upgrade apply stopped at %s: group %s: %s\n", lastStep(res), format.Escape(res.Group), format.Escape(errText(res.Err)))
			for _, line := range format.UpgradeApplyNext(res) {
				fmt.Fprintln(a.io.ErrOut, line)
			}
		}
		return res, err
	})
}

func applyOutcome(res *upgrade.ApplyResult, _ []error) error {
	switch res.Outcome() {
	case upgrade.ApplyRefused:
		return &verbExit{code: applyRefused}
	case upgrade.ApplyFailed:
		return &verbExit{code: applyFailed}
	case upgrade.ApplyInterrupted:
		return &verbExit{code: applyInterrupted}
	case upgrade.ApplyNothing:
		return &verbExit{code: applyNothing}
	}
	return nil
}

func lastStep(res *upgrade.ApplyResult) upgrade.StepKind {
	if len(res.Steps) == 0 {
		return upgrade.StepCheck
	}
	return res.Steps[len(res.Steps)-1].Kind
}

func errText(err error) string {
	if err == nil {
		return "interrupted"
	}
	return err.Error()
}

// upgradeApplyFailureLine is the stderr line of a failed run: the plan's
// failure as upgrade plan words it, else the step's.
func (a *app) upgradeApplyFailureLine(res *upgrade.ApplyResult, err error) string {
	if res.Plan == nil && !res.Resumed && len(res.Steps) == 0 {
		return a.upgradeFailureLine(&upgrade.Result{Group: res.Group, New: res.New}, err)
	}
	return fmt.Sprintf("upgrade apply: %s: group %s: %s", lastStep(res), format.Escape(res.Group), a.errorText(err))
}

// resumeApply reads the export file and its journal and resumes.
func (a *app) resumeApply(ctx context.Context, c client, file string, hooks upgrade.ApplyHooks) (*upgrade.ApplyResult, error) {
	j, err := a.readJournal(ctx, file)
	if err != nil {
		return nil, err
	}
	hooks.Record = func(j upgrade.Journal) error { return writeJournalOnly(file, j) }
	if a.cfg.Output == format.Text {
		fmt.Fprintf(a.io.Out, "Resuming the migration of group %s to %s from %s (last step done: %s).\nSteps:\n",
			format.Escape(j.Group), format.Escape(j.New), format.Escape(file), format.Escape(string(j.Step)))
	}
	return upgrade.Resume(ctx, c, *j, file, hooks)
}

// readJournal reads an export file and its journal into a journal whose
// offsets are the file's lines for the journal's group.
func (a *app) readJournal(ctx context.Context, file string) (*upgrade.Journal, error) {
	raw, err := planInput.readFile(ctx, "the journal", file+journalSuffix)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (the journal upgrade apply writes beside the export file)", file+journalSuffix, err)
	}
	var jf format.UpgradeJournalFile
	if err := json.Unmarshal([]byte(raw), &jf); err != nil || jf.Group == "" {
		return nil, fmt.Errorf("%s: not a journal of upgrade apply: %v", file+journalSuffix, cmpErr(err, "no group"))
	}
	data, err := planInput.readFile(ctx, "the export file", file)
	if err != nil {
		return nil, err
	}
	pf, err := resetoffsets.ParsePlanFile([]byte(data), file, jf.Group)
	if err != nil {
		return nil, err
	}
	lines, _ := pf.Plan(jf.Group)
	if jf.Offsets != nil && *jf.Offsets != len(lines) {
		// Committing what is left would lose the rest for good.
		return nil, fmt.Errorf("%s holds %d offsets of group %s, the journal says %d: not the export upgrade apply wrote, or it lost lines; restore it (or commit the offsets by hand)",
			file, len(lines), jf.Group, *jf.Offsets)
	}
	j := &upgrade.Journal{Group: jf.Group, New: jf.New, AcceptStateLoss: jf.AcceptStateLoss, LeftBehind: jf.LeftBehind, Step: upgrade.StepKind(jf.Step)}
	for _, l := range lines {
		j.Offsets = append(j.Offsets, admin.OffsetToCommit{TopicPartition: l.TopicPartition, Offset: l.Offset})
	}
	slices.SortFunc(j.Offsets, func(x, y admin.OffsetToCommit) int {
		return kafka.CompareTopicPartitions(x.TopicPartition, y.TopicPartition)
	})
	return j, nil
}

func cmpErr(err error, otherwise string) string {
	if err != nil {
		return err.Error()
	}
	return otherwise
}

// writeJournal writes, at the export step, the export file (which must not
// exist: it may hold the only copy of an earlier run's offsets) and the
// journal; later, the journal only.
func writeJournal(file string, j upgrade.Journal) error {
	if j.Step == upgrade.StepExport {
		if err := writeExport(file, j); err != nil {
			return err
		}
	}
	return writeJournalOnly(file, j)
}

// writeExport writes the CSV, synced, without replacing an existing file.
func writeExport(file string, j upgrade.Journal) error {
	res := &resetoffsets.Result{Groups: []*resetoffsets.Group{{Group: j.Group}}}
	for _, o := range j.Offsets {
		res.Groups[0].Partitions = append(res.Groups[0].Partitions, resetoffsets.Partition{TopicPartition: o.TopicPartition, New: o.Offset})
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("%s exists: it may hold the offsets of an earlier migration (finish that one with --resume %s), choose another file", file, file)
		}
		return err
	}
	return closeSynced(f, format.ResetOffsetsCSV(f, res))
}

// closeSynced syncs f unless writing it failed (err), closes it, and
// returns the first error.
func closeSynced(f *os.File, err error) error {
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeJournalOnly replaces the journal through a temporary file and a
// rename, so that it is never half written.
func writeJournalOnly(file string, j upgrade.Journal) error {
	data, err := json.MarshalIndent(format.NewUpgradeJournalFile(j), "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), filepath.Base(file)+".journal-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(append(data, '\n'))
	if err = closeSynced(tmp, err); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), file+journalSuffix)
}
