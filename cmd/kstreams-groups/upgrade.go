package main

// The upgrade verbs: `kstreams-groups upgrade plan --group G NEW`
// (subcommand only; the Java tool has nothing like it) says what a Kafka
// 4.4 broker does with the topology NEW for the group and, when it refuses
// it, the migration that carries the application across (issue 33).
// upgrade's subcommands are verbs whose parent is upgradeCmd: a further
// one (apply, verify) is its verb with `parent: upgradeCmd` and one entry
// in verbs(). plan has its own exit codes: a CI step asks it "nothing to
// do, a migration, or blocked?".

import (
	"context"
	"errors"
	"fmt"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	"github.com/kstreams-groups/kstreams-groups/internal/upgrade"
)

// upgradeCmd is the parent of the upgrade verbs.
var upgradeCmd = &parentCmd{
	name:  "upgrade",
	short: "Carry a Streams application across a topology change the broker refuses",
	long: `A Kafka 4.4 broker keeps the topology of a streams group's first member and
refuses any member with another one ("INVALID_REQUEST: Topology updates are
not supported yet"), even when the group is Empty: a renamed or added
store, a renamed repartition topic, an added source topic. The way through
that keeps the application's offsets is narrow: stop it, delete the Empty
group, commit all its offsets (input and repartition topics) back to the
same group id, then start only the new version, whose first heartbeat
converts the group and brings the new topology. upgrade plan says whether
that is needed for a new topology, and exactly what it carries, what starts
empty, what is left behind and what blocks it (docs/upgrades.md).`,
	example: `  # What does deploying this build do to the running application?
  kstreams-groups upgrade plan --group orders-app build/topology.txt`,
}

// upgrade plan's exit codes.
const (
	upgradeNothing    = 0
	upgradeMigration  = 1
	upgradeUnreadable = 2
	upgradeBlocked    = 3
)

// upgradePlanExitStatuses are upgrade plan's exit codes as its help lists
// them.
var upgradePlanExitStatuses = []exitStatus{
	{upgradeNothing, false, "Nothing to migrate: the broker accepts NEW for the group as is."},
	{upgradeMigration, false, "A migration is needed (the broker refuses NEW) and nothing blocks it."},
	{upgradeUnreadable, false, "Usage error, NEW or the group that cannot be read or fetched, or a plan that cannot be written (the reason is on stderr)."},
	{upgradeBlocked, false, "A migration is needed and blocked now: the group is not Empty or has members, or a repartition topic NEW renames or drops is not drained (each blocker is named)."},
}

func (a *app) upgradePlanVerb() *verb {
	return &verb{
		name:           "plan",
		parent:         upgradeCmd,
		args:           "NEW",
		subcommandOnly: true,
		own:            &ownExit{upgradePlanExitStatuses, "These are upgrade plan's own codes, the same with --detailed-exit-codes."},
		flags:          table(groupFlag.withHelp("The streams group (the application.id) that runs the topology NEW replaces.")),
		short:          "Say what the broker does with a new topology for a group, and plan the migration it needs",
		long: `Read NEW (a Topology#describe() text, the text of describe --topology, or our
JSON/YAML, as diff reads it; - for stdin), fetch the group's stored topology
and committed offsets, and say what a Kafka 4.4 broker does with NEW for the
group (diff's rule): accept it as is (deploy as usual, nothing to migrate),
or refuse it, and then the migration it needs:

  offsets       every input and repartition partition the group committed:
                what the migration commits back (a repartition offset
                left out is re-read: records counted twice)
  stores        kept (restored from its changelog: state continues), or
                renamed, dropped, new: state STARTS EMPTY, with the old
                changelog's records that are not carried
  repartition   each repartition topic NEW renames or drops, drained or
                not (committed = end offset on every partition): records
                in flight in it are lost, so an undrained one blocks
  new sources   topics only NEW reads: auto.offset.reset applies
  left behind   the old internal topics and the offsets of topics NEW
                does not read
  preconditions the group Empty with no members, NEW readable; blockers
                name each one that does not hold

-o json|yaml gives the same plan as one document.`,
		example: `  # In CI, before the deploy: nothing to do (0), a migration (1), blocked (3)?
  kstreams-groups upgrade plan --group orders-app build/topology.txt --bootstrap-server kafka:9092

  # The plan as JSON, the offsets to carry
  kstreams-groups upgrade plan --group orders-app build/topology.txt -o json | jq '.offsets'`,
		parse: func(v flagValues) job {
			var opts upgrade.Options
			opts.Group, opts.New = upgradeTarget(v)
			validate := func() error {
				if err := checkUpgradeTarget("plan", v); err != nil {
					return err
				}
				return opts.Validate()
			}
			return job{opts: opts, validate: validate, run: func(ctx context.Context) error { return a.upgradePlan(ctx, opts) }}
		},
	}
}

// upgradeTarget is the group (the last --group) and NEW of an upgrade
// verb's invocation.
func upgradeTarget(v flagValues) (group, nu string) {
	if gs := groupFlag.get(v); len(gs) > 0 {
		group = gs[len(gs)-1]
	}
	if len(v.args) == 1 {
		nu = v.args[0]
	}
	return group, nu
}

// checkUpgradeTarget refuses an upgrade verb's invocation with more than
// one --group or other than one NEW.
func checkUpgradeTarget(verb string, v flagValues) error {
	switch {
	case len(groupFlag.get(v)) > 1:
		return fmt.Errorf("upgrade %s takes one --group", verb)
	case len(v.args) != 1:
		return fmt.Errorf("upgrade %s takes one argument, NEW: a file with the new topology description, or - for stdin", verb)
	}
	return nil
}

// upgradePlan runs upgrade plan: one client within --timeout, NEW read as
// diff reads a file side.
func (a *app) upgradePlan(ctx context.Context, opts upgrade.Options) error {
	p := printer[*upgrade.Result]{
		text: format.UpgradePlanText,
		doc:  func(res *upgrade.Result) any { return format.NewUpgradePlanDoc(res) },
		line: func(res *upgrade.Result, f kafka.Failure, _ format.Output) string {
			return a.upgradeFailureLine(res, f.Err)
		},
		failed: func(err error) (*upgrade.Result, error) {
			return nil, &verbExit{code: upgradeUnreadable, err: err}
		},
		// Not 1, which says "a migration": a CI step must not act on a
		// plan it never got.
		writeFailed: func(err error) error { return &verbExit{code: upgradeUnreadable, err: err} },
		outcome: func(res *upgrade.Result, failures []error) error {
			switch {
			case len(failures) > 0:
				return &verbExit{code: upgradeUnreadable}
			case res.Outcome() == upgrade.Blocked:
				return &verbExit{code: upgradeBlocked}
			case res.Outcome() == upgrade.MigrationNeeded:
				return &verbExit{code: upgradeMigration}
			}
			return nil
		},
	}
	return runVerb(a, ctx, p, func(ctx context.Context, c client) (*upgrade.Result, error) {
		return upgrade.Run(ctx, upgrade.Sources{Client: c, Read: a.topologyReader(ctx)}, opts)
	})
}

// upgradeFailureLine is the stderr line of a plan that could not be made:
// NEW and why, or the group and why (a status in Kafka's words).
func (a *app) upgradeFailureLine(res *upgrade.Result, err error) string {
	var se *signalError
	if errors.As(err, &se) {
		return "" // the signal's own line says it
	}
	var ne *upgrade.NewError
	if errors.As(err, &ne) {
		return "NEW " + format.Escape(ne.File) + ": " + a.errorText(ne.Err)
	}
	var st *kafka.StatusError
	if errors.As(err, &st) {
		if st.Status == topology.Error {
			return format.ErrorMessage(st.Group)
		}
		return format.NotStoredMessage(st.Group)
	}
	return a.groupErrorLine(res.Group, err)
}
