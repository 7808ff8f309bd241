package main

// The verb `kstreams-groups upgrade verify --group G NEW [--wait D]
// [--export FILE]`: after the new version started, is the migration
// through (internal/upgrade/verify.go)? It has its own exit codes: a
// deploy script waits on "not yet" and stops on "failed".

import (
	"context"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/upgrade"
)

// upgrade verify's exit codes.
const (
	verifyOK         = 0
	verifyNotYet     = 1
	verifyUnreadable = 2
	verifyFailed     = 3
)

// upgradeVerifyExitStatuses are upgrade verify's exit codes as its help
// lists them.
var upgradeVerifyExitStatuses = []exitStatus{
	{verifyOK, false, "Verified: a Stable streams group on NEW's topology; no exported offset moved backwards."},
	{verifyNotYet, false, "Not yet (after --wait): the new version has not joined, or the group is not Stable yet."},
	{verifyUnreadable, false, "Usage error, or NEW, the export file or the group that cannot be read (the reason is on stderr)."},
	{verifyFailed, false, "Failed: the group holds another topology (an old instance joined first), an exported offset moved backwards, or another kind of group has the id (what to do is printed)."},
}

func (a *app) upgradeVerifyVerb() *verb {
	wait := durationOption(flagDef{name: "wait", help: "Keep asking, every second, for up to `D` while the answer is \"not yet\" (default 0: ask once)."},
		0, "--wait: want a duration such as 30s or 5m, got %q")
	export := stringOption(flagDef{name: "export",
		help: "The export `FILE` upgrade apply wrote: its offsets are checked (none may move backwards) and the internal topics the migration left are listed."})
	return &verb{
		name:           "verify",
		parent:         upgradeCmd,
		args:           "NEW",
		subcommandOnly: true,
		own:            &ownExit{upgradeVerifyExitStatuses, "These are upgrade verify's own codes, the same with --detailed-exit-codes."},
		flags:          table(groupFlag.withHelp("The streams group (the application.id) that was migrated."), wait, export),
		short:          "Check, after the new version started, that the migration went through",
		long: `After upgrade apply and the start of the new version: check that the group
is a streams group holding NEW's topology (diff's rule: the broker would not
refuse NEW for it), that it is Stable, and, with --export FILE, that every
exported offset only moved forward. It names an old-topology instance that
joined first (the group then holds the old topology again, and the broker
refuses NEW: stop every instance, run upgrade apply again, start only the
new version), an application started before the offsets were committed
(offsets below the export: records processed twice), and lists what the
migration left behind, the old internal topics and the offsets of topics the
topology no longer reads, for inventory --orphans to clean. --wait keeps
asking while the answer is "not yet". -o json|yaml gives one document.`,
		example: `  # Right after starting the new version: wait until it is through
  kstreams-groups upgrade verify --group orders-app build/topology.txt --export orders-app-offsets.csv --wait 5m`,
		parse: func(v flagValues) job {
			var opts upgrade.VerifyOptions
			opts.Group, opts.New = upgradeTarget(v)
			var werr error
			opts.Wait, _, werr = wait.value(v)
			file := export.get(v)
			validate := func() error {
				if err := checkUpgradeTarget("verify", v); err != nil {
					return err
				}
				return opts.Validate()
			}
			return job{opts: opts, parseErr: werr, validate: validate, run: func(ctx context.Context) error { return a.upgradeVerify(ctx, opts, file) }}
		},
	}
}

// upgradeVerify runs upgrade verify: one client, the run within --timeout
// plus --wait.
func (a *app) upgradeVerify(ctx context.Context, opts upgrade.VerifyOptions, file string) error {
	p := printer[*upgrade.VerifyResult]{
		text: format.UpgradeVerifyText,
		doc:  func(res *upgrade.VerifyResult) any { return format.NewUpgradeVerifyDoc(res) },
		line: func(res *upgrade.VerifyResult, f kafka.Failure, _ format.Output) string {
			return a.upgradeFailureLine(&upgrade.Result{Group: res.Group, New: opts.New}, f.Err)
		},
		session: func(ctx context.Context) (context.Context, client, []any, func(), error) {
			ctx, cancel := context.WithTimeout(ctx, a.cfg.Timeout+opts.Wait)
			c, err := a.newAdmin(ctx, a.defaultTarget())
			if err != nil {
				cancel()
				return nil, nil, nil, nil, err
			}
			return ctx, c, []any{c}, func() { c.Close(); cancel() }, nil
		},
		failed: func(err error) (*upgrade.VerifyResult, error) {
			return nil, &verbExit{code: verifyUnreadable, err: err}
		},
		writeFailed: func(err error) error { return &verbExit{code: verifyUnreadable, err: err} },
		outcome: func(res *upgrade.VerifyResult, failures []error) error {
			switch {
			case len(failures) > 0:
				return &verbExit{code: verifyUnreadable}
			case res.Outcome == upgrade.VerifyFailed:
				return &verbExit{code: verifyFailed}
			case res.Outcome == upgrade.NotYet:
				return &verbExit{code: verifyNotYet}
			}
			return nil
		},
	}
	return runVerb(a, ctx, p, func(ctx context.Context, c client) (*upgrade.VerifyResult, error) {
		if file != "" {
			j, err := a.readJournal(ctx, file)
			if err != nil {
				return nil, err
			}
			if j.Group != opts.Group {
				return nil, usageErrorf("--export %s is the export of group %s, not %s", format.Escape(file), format.Escape(j.Group), format.Escape(opts.Group))
			}
			opts.Journal = j
		}
		opts.Interval = time.Second
		return upgrade.Verify(ctx, upgrade.VerifySources{Client: c, Read: a.topologyReader(ctx)}, opts)
	})
}
