package main

// The verbs that talk to Kafka, and what every one of them shares: the two
// command forms, validation in the Java tool's order, and the glue from a
// result to stdout, stderr and the exit code. A verb is its internal
// package, its file here (flag table, help, how its result prints) and one
// entry in verbs(); docs/ARCHITECTURE.md has the recipe.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/spf13/cobra"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// verb is one action of the tool, callable as `--<name>` in the Kafka form
// and as the subcommand `<name>`.
type verb struct {
	name string
	// actionHelp is the Kafka form's help of the --<name> action.
	actionHelp string
	// subcommandOnly keeps a verb kafka-streams-groups.sh lacks out of the
	// Kafka form: it is only `kstreams-groups <name>`.
	subcommandOnly bool
	// parent, when set, is the command this subcommand-only verb is a
	// subcommand of: `kstreams-groups upgrade plan` is the verb plan under
	// upgrade. The verbs of one parent are its subcommands, in verbs()
	// order.
	parent *parentCmd
	// args names the positional arguments of a subcommand-only verb
	// ("OLD NEW"); "" means it takes none. The verb's Validate checks them
	// (flagValues.args).
	args string
	// needsBootstrap tells whether this invocation talks to Kafka, so that
	// a missing bootstrap server is a usage error; nil means always.
	needsBootstrap func(v flagValues) bool
	// flags is the verb's flag table; a name shared with other verbs
	// (--group) has the same kind and Kafka help everywhere.
	flags []flagDef
	// short, long and example are the subcommand's help.
	short, long, example string
	// parse builds the verb's job from the parsed options.
	parse func(v flagValues) job
	// usageExit is the exit code of a usage error of this verb when its
	// convention has its own (check: 3, UNKNOWN); 0 means exitUsage.
	// usageLine, when set, is the line it prints on stdout for one (check's
	// status line). usage applies both.
	usageExit int
	usageLine func(err error) string
	// printer is the verb's printer as declared (built without the
	// invocation's options): the -o formats it has a renderer for, and the
	// option each needs, are the verb's outputs; any other is refused
	// before the verb runs (declare.go). nil prints text, json and yaml.
	printer outputSet
	// exits are the codes of exitStatuses the verb can end with, for its
	// help; own replaces them for a verb with codes of its own.
	exits []int
	own   *ownExit
}

// job is one invocation of a verb, built from its options.
type job struct {
	// opts is the verb's options struct, for flag-parsing tests (deps.runF).
	opts any
	// parseErr is the refusal of a value the parse could not read,
	// reported before validate.
	parseErr error
	// validate is the verb's own checks in the Java tool's order (its
	// Options.Validate); nil when it has none.
	validate func() error
	// prepare does what the Java tool does only once all checks passed and
	// may still fail as a usage error (parsing a --state list); optional.
	prepare func(ctx context.Context) error
	// run connects, runs the verb and prints its result.
	run func(ctx context.Context) error
}

// verbs lists the verbs in the order the Java tool checks their options
// (StreamsGroupCommandOptions.checkArgs) and the Kafka form lists them.
// They are built once per invocation (a.verbList): a run asks for them
// several times, and start-up is most of a run.
func (a *app) verbs() []*verb {
	if a.verbList == nil {
		a.verbList = []*verb{a.describeVerb(), a.listVerb(), a.deleteVerb(), a.deleteOffsetsVerb(), a.resetOffsetsVerb(), a.overviewVerb(), a.diffVerb(), a.checkVerb(), a.doctorVerb(), a.groupConfigVerb(), a.inventoryVerb(),
			a.upgradePlanVerb(), a.upgradeApplyVerb(), a.upgradeVerifyVerb(), a.historyVerb()}
		if a.deps.moreVerbs != nil {
			a.verbList = append(a.verbList, a.deps.moreVerbs(a)...)
		}
	}
	return a.verbList
}

// verbs without an app, for their declarations (flag tables, outputs):
// built once, and never changed.
var verbs = sync.OnceValue(func() []*verb { return (&app{}).verbs() })

// kafkaActions is the order of the action options in the Kafka form's help.
var kafkaActions = []string{"list", "describe", "delete", "reset-offsets", "delete-offsets"}

// registerKafkaForm adds every verb's action and options to the root
// command: the kafka-streams-groups.sh form.
func (a *app) registerKafkaForm(root *cobra.Command) {
	fs := root.Flags()
	byName := map[string]*verb{}
	for _, vb := range a.verbs() {
		byName[vb.name] = vb
	}
	for _, name := range kafkaActions {
		byName[name].action().register(fs, true)
	}
	for _, vb := range a.verbs() {
		if vb.subcommandOnly {
			continue
		}
		for _, f := range vb.flags {
			if fs.Lookup(f.name) == nil {
				f.register(fs, true)
			}
		}
	}
	fs.SortFlags = false
}

// newVerbCmd is the subcommand of a verb. Its hooks (the configuration,
// pflag's errors, the arguments, the run) pass every error through usage,
// so that a usage error met anywhere while it runs follows the verb's
// convention.
func (a *app) newVerbCmd(vb *verb) *cobra.Command {
	cmd := &cobra.Command{
		Use:     vb.name,
		Short:   vb.short,
		Long:    vb.long + "\n\n" + vb.outputHelp() + "\n\n" + vb.exitHelp(),
		Example: vb.example,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.term.check(); err != nil {
				return vb.usage(err)
			}
			return vb.usage(a.loadConfig(cmd))
		},
		Args: func(c *cobra.Command, args []string) error { return vb.usage(noArgs(c, args)) },
		RunE: func(cmd *cobra.Command, args []string) error {
			return vb.usage(a.start(cmd.Context(), []*verb{vb}, a.flagValues(cmd, args)))
		},
	}
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return vb.usage(&usageError{err: flagError(c, err)}) })
	if vb.args != "" {
		cmd.Use += " " + vb.args
		cmd.Args = cobra.ArbitraryArgs
	}
	for _, f := range vb.flags {
		f.register(cmd.Flags(), false)
	}
	return cmd
}

// parentCmd is a command that only holds verbs (upgrade: plan, ...).
type parentCmd struct {
	name, short, long, example string
}

// command is the verb's command line words after the program's name:
// "describe", "upgrade plan".
func (vb *verb) command() string {
	if vb.parent != nil {
		return vb.parent.name + " " + vb.name
	}
	return vb.name
}

// newParentCmd is the command of p with its verbs as subcommands. Run
// alone, or with a word that is none of them, it is a usage error naming
// them.
func (a *app) newParentCmd(p *parentCmd) *cobra.Command {
	cmd := &cobra.Command{
		Use:   p.name,
		Short: p.short,
		Long: p.long + "\n\n" + ownExitHelp([]exitStatus{{exitOK, false, "Help shown (--help)."},
			{exitUsage, false, "Usage error: no subcommand, or one " + p.name + " lacks."}},
			"Each subcommand has exit codes of its own: see its --help."),
		Example: p.example,
		Args:    cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, args []string) error {
			var names []string
			for _, sub := range c.Commands() {
				if sub.IsAvailableCommand() {
					names = append(names, sub.Name())
				}
			}
			if len(args) == 0 {
				return usageErrorf("%s needs a subcommand: %s", p.name, joinList(quoteAll(names), "or"))
			}
			if s := c.SuggestionsFor(args[0]); len(s) > 0 {
				return usageErrorf("unknown command %q for %s; did you mean %s?", args[0], p.name, joinList(quoteAll(s), "or"))
			}
			return usageErrorf("unknown command %q for %s: want %s", args[0], p.name, joinList(quoteAll(names), "or"))
		},
	}
	for _, vb := range a.verbs() {
		if vb.parent == p {
			cmd.AddCommand(a.newVerbCmd(vb))
		}
	}
	return cmd
}

// action is the Kafka form's --<name> option of the verb.
func (vb *verb) action() boolOpt {
	return boolOption(flagDef{name: vb.name, kafkaHelp: vb.actionHelp})
}

// flagValues are the parsed options of cmd, checked as the tests ask
// (deps.undeclared).
func (a *app) flagValues(cmd *cobra.Command, args []string) flagValues {
	return flagValues{fs: cmd.Flags(), args: args, undeclared: a.deps.undeclared}
}

// usage gives a usage error its verb's own exit code and stdout line
// (usageExit, usageLine); other errors, and every error of a verb without
// a convention of its own, are returned as they are.
func (vb *verb) usage(err error) error {
	var ue *usageError
	if vb.usageExit == 0 || !errors.As(err, &ue) {
		return err
	}
	ue.code = vb.usageExit
	if vb.usageLine != nil {
		ue.stdout = vb.usageLine(ue.err)
	}
	return err
}

// runKafkaForm runs the root command: the verb named by its action option.
func (a *app) runKafkaForm(cmd *cobra.Command) error {
	if cmd.Flags().NFlag() == 0 {
		cmd.SetOut(a.io.ErrOut)
		_ = cmd.Help()
		return usageErrorf("no action given")
	}
	v := a.flagValues(cmd, nil)
	var present []*verb
	for _, vb := range a.verbs() {
		if !vb.subcommandOnly && vb.action().get(v) {
			present = append(present, vb)
		}
	}
	return a.start(cmd.Context(), present, v)
}

// start validates an invocation and runs its verb.
func (a *app) start(ctx context.Context, present []*verb, v flagValues) error {
	j, err := a.validate(ctx, present, v)
	if err != nil {
		return err
	}
	if err := present[0].checkOutput(a.cfg.Output, v); err != nil {
		return err
	}
	if a.deps.runF != nil {
		return a.deps.runF(present[0].name, j.opts)
	}
	return j.run(ctx)
}

// validate checks an invocation in the Java tool's order, the same for both
// forms: options given without their action, the bootstrap server, each
// given verb's own checks, the checks between options of different verbs,
// and exactly one action. present are the verbs the command line names
// (the subcommand, or the Kafka form's action options). Every failure is a
// usage error.
func (a *app) validate(ctx context.Context, present []*verb, v flagValues) (job, error) {
	has := func(name string) bool {
		return slices.ContainsFunc(present, func(vb *verb) bool { return vb.name == name })
	}
	// joptsimple's availableIf checks run while parsing, before anything.
	seen := map[string]bool{}
	// A subcommand of its own takes only its own options: none is another
	// action's (check's --verbose is not describe's).
	own := len(present) == 1 && present[0].subcommandOnly
	for _, vb := range a.verbs() {
		for _, f := range vb.flags {
			if own || vb.subcommandOnly || seen[f.name] || len(f.availableIf) == 0 {
				continue
			}
			seen[f.name] = true
			// Every Kafka-form option is looked for, the subcommand's
			// table holds only its own: lenient.
			if f.set(v.lenient()) && !slices.ContainsFunc(f.availableIf, has) {
				return job{}, usageErrorf("Option(s) [%s] are unavailable given other options on the command line", f.name)
			}
		}
	}
	needs := len(present) != 1 || present[0].needsBootstrap == nil || present[0].needsBootstrap(v)
	if needs && len(a.cfg.Bootstrap) == 0 {
		return job{}, errMissingBootstrap()
	}
	var j job
	for _, vb := range present {
		j = vb.parse(v)
		err := j.parseErr
		if err == nil && j.validate != nil {
			err = j.validate()
		}
		if err != nil {
			return job{}, &usageError{err: err}
		}
	}
	if err := sharedChecks(v.lenient(), has); err != nil {
		return job{}, err
	}
	if len(present) != 1 {
		return job{}, usageErrorf("Command must include exactly one action: --list, --describe, --delete, --reset-offsets, or --delete-offsets.")
	}
	if j.prepare != nil {
		if err := j.prepare(ctx); err != nil {
			return job{}, &usageError{err: err}
		}
	}
	return j, nil
}

// sharedChecks are the Java tool's checks between options of different
// verbs, in its order (StreamsGroupCommandOptions.checkArgs after the
// per-verb checks); has tells whether a verb is the invocation's action.
// Two are extended: --dry-run is also ours for --delete (and, with
// --execute, for config), and --delete takes --delete-internal-topic, as
// the Kafka 4.4 docs promise.
func sharedChecks(v flagValues, has func(string) bool) error {
	groups := len(groupFlag.get(v)) > 0
	reset := has("reset-offsets")
	deleteAll, deleteNamed := deleteAllInternalTopicsFlag.get(v), deleteInternalTopicFlag.set(v)
	execute := executeFlag.get(v)
	switch {
	case deleteAll && !reset && !has("delete"):
		return usageErrorf("Option [delete-all-internal-topics] takes one of these options: [delete], [reset-offsets]")
	case deleteAll && reset && !execute:
		return usageErrorf("Option [delete-all-internal-topics] takes [execute] when [reset-offsets] is used.")
	case !deleteAll && deleteNamed && !has("delete") && !(reset && execute):
		return usageErrorf("Option [delete-internal-topic] takes [reset-offsets] when [execute] is used.")
	case (dryRunFlag.get(v) && !has("delete") || execute) && !reset && !has("config") && !has("inventory") && !has("apply"):
		return usageErrorf("Only Option [reset-offsets] accepts [execute] or [dry-run]")
	case has("list") && membersFlag.get(v):
		return usageErrorf(`Option "[list]" can't be used with option "[members]"`)
	case has("list") && offsetsFlag.get(v):
		return usageErrorf(`Option "[list]" can't be used with option "[offsets]"`)
	case groups && allGroupsFlag.get(v):
		return usageErrorf(`Option "[group]" can't be used with option "[all-groups]"`)
	case groups && has("list"):
		return usageErrorf(`Option "[group]" can't be used with option "[list]"`)
	}
	if inputTopicFlag.set(v) {
		// --delete with --input-topic failed in the delete checks already.
		for _, other := range []string{"list", "describe", "delete"} {
			if has(other) {
				return usageErrorf(`Option "[input-topic]" can't be used with option "[%s]"`, other)
			}
		}
	}
	return nil
}

// verbResult is what every verb's Result has: its failures in request order.
type verbResult interface {
	Failures() []kafka.Failure
}

// printer is how a verb's result R is printed, for every -o, and what the
// verb's run path needs beyond the common one (runVerb): a run over other
// clusters than one, a failed run that is still a result, an exit of its
// own. The formats it prints are its declaration: text, json and yaml
// (text and doc) and the keys of more.
type printer[R verbResult] struct {
	// text writes the text view (Kafka's layout where Kafka has one).
	text func(w io.Writer, res R, st *format.Styles) error
	// doc is the JSON/YAML document of the result.
	doc func(res R) any
	// more are the renderers of the formats beyond text, json and yaml
	// (drawings, metrics), each with the option it needs.
	more map[format.Output]render[R]
	// line is the stderr line (already escaped) of one of the result's
	// failures, or "" when the output shows it; nil prints none.
	line func(res R, f kafka.Failure, o format.Output) string
	// notes are further lines for stderr, after the failures.
	notes func(res R) []string

	// session opens what the run needs and bounds it; nil means one client
	// of the default cluster, the whole run within --timeout (connect).
	// diff opens none, one or two clusters.
	session func(ctx context.Context) (context.Context, client, []any, func(), error)
	// failed is what an error of the whole run (opening the session or
	// running; never a usage error) becomes: a result to print (check's
	// UNKNOWN) or the verb's own exit (doctor, diff); nil returns it.
	failed func(err error) (R, error)
	// writeFailed is what an error writing the result becomes (diff: 2,
	// since 1 says "differences"); nil returns it.
	writeFailed func(err error) error
	// outcome is the exit of a printed result whose failures (if any)
	// were reported; nil means the first failure's (outcomeError).
	outcome func(res R, failures []error) error
}

// runVerb is the one run path of the verbs: open the session (connect
// within --timeout), run, print the result in the -o format on stdout,
// report failures on stderr, and return the outcome that sets the exit
// code.
func runVerb[R verbResult](a *app, ctx context.Context, p printer[R], run func(ctx context.Context, c client) (R, error)) error {
	o := a.cfg.Output
	if err := a.checkBinaryOutput(); err != nil {
		return err
	}
	res, err := runSession(a, ctx, p, run)
	if err != nil {
		var ue *usageError
		if p.failed == nil || errors.As(err, &ue) {
			return err
		}
		if res, err = p.failed(err); err != nil {
			return err
		}
	}
	if o == format.Text {
		st := a.outStyles() // first: it may wrap a.io.Out for a Windows console
		err = p.text(a.io.Out, res, st)
	} else {
		// start refused a format the printer has no renderer for.
		write, _ := p.writer(o)
		err = write(a.io.Out, res)
	}
	if err != nil {
		if p.writeFailed != nil {
			return p.writeFailed(err)
		}
		return err
	}
	lines, notes, outcome := p.report(res, o)
	for _, line := range lines {
		a.printError(line)
	}
	for _, n := range notes {
		fmt.Fprintln(a.io.ErrOut, n)
	}
	return outcome
}

// report is what a printed result says beyond its output: the line of
// each failure (in -o o), its notes, and the outcome that sets the exit
// code.
func (p printer[R]) report(res R, o format.Output) (lines, notes []string, outcome error) {
	var causes []error
	for _, f := range res.Failures() {
		if p.line != nil {
			if line := p.line(res, f, o); line != "" {
				lines = append(lines, line)
			}
		}
		causes = append(causes, f.Err)
	}
	if p.notes != nil {
		notes = p.notes(res)
	}
	switch {
	case p.outcome != nil:
		outcome = p.outcome(res, causes)
	case len(causes) > 0:
		outcome = &outcomeError{causes: causes}
	}
	return lines, notes, outcome
}

// runSession opens the verb's session, runs it with the status line of
// what it waits on, and closes it.
func runSession[R verbResult](a *app, ctx context.Context, p printer[R], run func(ctx context.Context, c client) (R, error)) (R, error) {
	var zero R
	open := p.session
	if open == nil {
		open = func(ctx context.Context) (context.Context, client, []any, func(), error) {
			ctx, c, done, err := a.connect(ctx)
			if err != nil {
				return nil, nil, nil, nil, err
			}
			return ctx, c, []any{c}, done, nil
		}
	}
	ctx, c, waiting, done, err := open(ctx)
	if err != nil {
		return zero, err
	}
	defer done()
	stop := a.showWaiting(waiting...)
	defer stop()
	return run(ctx, c)
}

// checkBinaryOutput refuses to write a binary picture (-o png) to a
// terminal, where it would only garble the screen.
func (a *app) checkBinaryOutput() error {
	if a.cfg.Output.Binary() && a.isTerminal(a.io.Out) {
		return usageErrorf("-o %s writes a binary image: redirect stdout to a file (> topology.%s)", a.cfg.Output, a.cfg.Output)
	}
	return nil
}
