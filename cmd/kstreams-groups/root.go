package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
)

// app holds what one invocation resolved from flags, environment and the
// config file, and what it depends on.
type app struct {
	io   IOStreams
	deps deps
	cfg  Config
	term terminal
	// args is the command line as given, for the root's flag errors
	// (rootFlagError).
	args []string
	// profiles is every --profile given (serve watches each).
	profiles profileFlag
	// verbList are the verbs, built once (verbs).
	verbList []*verb
	// helpPath is the command whose --help a usage error points to: the
	// subcommand that ran, or the root ("" ).
	helpPath string
}

// profileFlag is --profile: a string flag whose last value is the
// profile in use, as before, that also keeps every value given, for
// serve's clusters.
type profileFlag struct{ values []string }

func (p *profileFlag) String() string {
	if len(p.values) == 0 {
		return ""
	}
	return p.values[len(p.values)-1]
}

func (p *profileFlag) Set(s string) error {
	p.values = append(p.values, s)
	return nil
}

func (p *profileFlag) Type() string { return "string" }

// run executes one command line and returns the process exit code. With
// d.signals, a SIGINT or SIGTERM cancels the command (signals.go): what it
// was doing ends with the signal's error, and stdout takes no more writes.
func run(args []string, ios IOStreams, d deps) int {
	ctx := context.Background()
	if d.signals != nil {
		ctx = d.signals.ctx
	}
	return runContext(ctx, args, ios, d)
}

// runContext is run within ctx: the mcp command runs a tool's command
// line so, ended with its request.
func runContext(ctx context.Context, args []string, ios IOStreams, d deps) int {
	a := &app{io: ios, deps: d, args: args}
	a.io.Out = ctxWriter{ctx: ctx, w: ios.Out}
	args = joinOptionalArgsOf(args, a.verbs())
	root := a.newRootCmdFor(args)
	root.SetArgs(args)
	root.SetIn(ios.In)
	root.SetOut(ios.Out)
	root.SetErr(ios.ErrOut)
	cmd, err := root.ExecuteContextC(ctx)
	if cmd != nil && cmd != root && cmd.Name() != cobra.ShellCompRequestCmd {
		a.helpPath = cmd.CommandPath()
	}
	var ended *signalError
	if se := d.signals.cause(); se != nil && err != nil && !errors.As(err, &ended) {
		// Whatever the signal interrupted, the signal ended it (a command
		// that ended with the signal already, a watch's planned end
		// included, keeps its own).
		err = se
	}
	a.report(err)
	return exitCodeFor(err, a.cfg.DetailedExitCodes)
}

// report prints a command's error as one line on stderr; per-group failures
// were already printed where they happened.
func (a *app) report(err error) {
	var oe *outcomeError
	var ue *usageError
	var ve *verbExit
	var se *signalError
	switch {
	case err == nil, errors.As(err, &oe):
	case errors.As(err, &se):
		if !se.planned {
			a.deps.signals.announce(func() { a.printError(se.Error()) })
		}
	case errors.As(err, &ve):
		if ve.err != nil {
			a.printError(a.errorText(ve.err))
		}
	case errors.As(err, &ue):
		if ue.stdout != "" {
			fmt.Fprintln(a.io.Out, ue.stdout)
		}
		// Usage errors quote argv and local files (flag names, paths,
		// property keys), which may hold anything.
		fmt.Fprintln(a.io.ErrOut, format.Escape(ue.Error()))
		if ue.hint != "" {
			fmt.Fprintln(a.io.ErrOut, ue.hint)
		}
		fmt.Fprintln(a.io.ErrOut, usageHint(a.helpPath))
	default:
		a.printError(a.errorText(err))
	}
}

// completing reports whether the command line is the shell's request for
// completions (cobra's hidden __complete command).
func (a *app) completing() bool {
	return len(a.args) > 0 && (a.args[0] == cobra.ShellCompRequestCmd || a.args[0] == cobra.ShellCompNoDescRequestCmd)
}

// usageHint is the one line after a usage error: the help of the command
// that was run (a subcommand's own, "" for the root).
func usageHint(path string) string {
	return "Run '" + cmp.Or(path, "kstreams-groups") + " --help' for usage."
}

// groupErrorLine is the stderr line for the error that kept one group from
// being described: one line naming the (escaped) group.
func (a *app) groupErrorLine(group string, err error) string {
	return fmt.Sprintf("streams group '%s': %s", format.Escape(group), a.errorText(err))
}

// errorText renders an error for the one-line stderr report, adding the
// timeout when the deadline ended the command. Error texts carry broker
// strings (ErrorMessage, group names), so the result is escaped, and cut
// to a readable length.
func (a *app) errorText(err error) string {
	s := err.Error()
	if errors.Is(err, context.DeadlineExceeded) {
		s += fmt.Sprintf(" (--timeout %d ms)", a.cfg.Timeout.Milliseconds())
	}
	return format.EscapeMessage(s)
}

// newRootCmd is the whole command tree, every subcommand built: what
// help, completion, the doc generator and the tests walk.
func (a *app) newRootCmd() *cobra.Command {
	root := a.newRootBase()
	root.Long = rootLong()
	for _, s := range a.subcommands() {
		root.AddCommand(a.finishCmd(s.build()))
	}
	a.finishRoot(root)
	return root
}

// newRootCmdFor is the command tree that the command line args needs:
// the root with its options, the subcommand that args runs, and every
// other subcommand as a placeholder that has its name only. Building all
// of them (their options, help texts and exit tables) was a tenth of the
// start-up of a run that uses one, or none (--version, the Kafka form).
// A line that may show other commands (help, completion, a stray word
// that gets "did you mean") gets the whole tree.
func (a *app) newRootCmdFor(args []string) *cobra.Command {
	if a.completing() || mayShowHelp(args) {
		return a.newRootCmd()
	}
	root := a.newRootBase()
	subs := a.subcommands()
	for _, s := range subs {
		root.AddCommand(&cobra.Command{Use: s.name, Annotations: map[string]string{placeholderAnnotation: s.name},
			Run: func(*cobra.Command, []string) {}})
	}
	build := func(c *cobra.Command) {
		for _, s := range subs {
			if c.Annotations[placeholderAnnotation] == s.name {
				root.RemoveCommand(c)
				root.AddCommand(a.finishCmd(s.build()))
			}
		}
	}
	if c, _, err := root.Find(args); err == nil && c != root {
		build(c)
	}
	whole := func() {
		for _, c := range slices.Clone(root.Commands()) {
			build(c)
		}
		root.Long = rootLong()
	}
	// A word the root does not take is a misspelt subcommand; its
	// suggestions need every subcommand (noArgs).
	root.Args = func(c *cobra.Command, rest []string) error {
		if len(rest) > 0 {
			whole()
		}
		return noArgs(c, rest)
	}
	a.finishRoot(root)
	// Help that a line did not announce (the Kafka form's help after "no
	// action given") lists every subcommand too.
	help := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		whole()
		help(c, args)
	})
	return root
}

// placeholderAnnotation marks a subcommand not built (newRootCmdFor).
const placeholderAnnotation = "kstreams-groups/placeholder"

// mayShowHelp reports whether a command line may ask for help, which
// lists every subcommand: -h or --help, alone or with other shorthands,
// or the help command (also where a word is a flag's value: the whole
// tree is only slower, never wrong).
func mayShowHelp(args []string) bool {
	for _, arg := range args {
		switch {
		case arg == "--":
			return false
		case arg == "help", arg == "--help", strings.HasPrefix(arg, "--help="):
			return true
		case !strings.HasPrefix(arg, "--") && strings.HasPrefix(arg, "-") && strings.Contains(arg, "h"):
			return true
		}
	}
	return false
}

// subcommand is a command of the root by name, built on demand.
type subcommand struct {
	name  string
	build func() *cobra.Command
}

// subcommands are the root's commands in the order of its help.
func (a *app) subcommands() []subcommand {
	var subs []subcommand
	added := map[*parentCmd]bool{}
	for _, vb := range a.verbs() {
		switch p := vb.parent; {
		case p == nil:
			subs = append(subs, subcommand{vb.name, func() *cobra.Command { return a.newVerbCmd(vb) }})
		case !added[p]:
			added[p] = true
			subs = append(subs, subcommand{p.name, func() *cobra.Command { return a.newParentCmd(p) }})
		}
	}
	for _, c := range a.commands() {
		subs = append(subs, subcommand{c.name, func() *cobra.Command { return a.newCommand(c) }})
	}
	if a.newGenDocsCmd() != nil {
		subs = append(subs, subcommand{"gen-docs", a.newGenDocsCmd})
	}
	return subs
}

// finishCmd leaves the root's options that a built subcommand does not
// take out of its help.
func (a *app) finishCmd(c *cobra.Command) *cobra.Command {
	if unusedGlobals(c.Name()) != nil {
		hideUnusedGlobals(c)
	}
	return c
}

// finishRoot completes the root once its subcommands are added.
func (a *app) finishRoot(root *cobra.Command) {
	if a.completing() {
		// Only the shell's __complete request asks for values; walking
		// every flag of every command is a fifth of a plain run's start.
		a.registerCompletions(root)
	}
	documentHelpCommand(root)
	for _, c := range root.Commands() {
		if c.Name() == "help" {
			a.finishCmd(c)
		}
	}
	// The root's help opens with its usage and examples; what it is and
	// its exit codes (the 20-line contract) come last.
	help := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		if c.HasParent() {
			help(c, args)
			return
		}
		fmt.Fprintf(c.OutOrStdout(), "%s.\n\n%s\n%s\n", c.Short, c.UsageString(), c.Long)
	})
}

// rootLong is the root's help text.
func rootLong() string {
	return `kstreams-groups is a drop-in for Apache Kafka 4.4's kafka-streams-groups.sh:
with the same options and the same text it lists, describes and deletes
Kafka Streams groups (KIP-1071), resets and deletes their offsets, and prints
the topology description the broker stored for a group (KIP-1331). Its
subcommands add an overview of who runs each task and where the lag is, a
health check for monitoring, a doctor, an upgrade diff and migration plan,
the groups' configs, an inventory of internal topics, a Prometheus exporter
with a web console (serve), and a playground cluster to try them all on.` + "\n\n" + exitStatusHelp()
}

// newRootBase is the root command with its options, both forms', and no
// subcommand.
func (a *app) newRootBase() *cobra.Command {
	root := &cobra.Command{
		Use:   "kstreams-groups",
		Short: "Inspect, check and manage Kafka Streams groups (a drop-in for kafka-streams-groups.sh)",
		Example: `  # No Kafka at hand? Serve the built-in playground in the background and point
  # every command at it (kstreams-groups playground --help says more)
  rm -f /tmp/playground.addr
  kstreams-groups playground --addr-file /tmp/playground.addr > /dev/null &
  until [ -s /tmp/playground.addr ]; do sleep 0.1; done
  export KSTREAMS_GROUPS_BOOTSTRAP_SERVER=$(cat /tmp/playground.addr)
  kstreams-groups overview --group page-views

  # Print the stored topology of a group, as kafka-streams-groups.sh does
  kstreams-groups --bootstrap-server localhost:9092 --describe --topology --group my-app

  # The same with a subcommand and the bootstrap server from the environment
  KSTREAMS_GROUPS_BOOTSTRAP_SERVER=localhost:9092 kstreams-groups describe --topology --group my-app

  # Exit 3 when a group's description is NOT_STORED, 4 on ERROR (health checks)
  kstreams-groups --bootstrap-server localhost:9092 --describe --topology --all-groups --detailed-exit-codes`,
		// cobra prints "kstreams-groups version " and this, without the
		// text/template that a version template costs.
		Version:       resolveVersion().line(),
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          noArgs,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Name() == cobra.ShellCompRequestCmd {
				return nil // completion functions load what they need, silently
			}
			if err := a.term.check(); err != nil {
				return err
			}
			return a.loadConfig(cmd)
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.runKafkaForm(cmd)
		},
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return a.rootFlagError(flagError(c, err)) })
	root.SuggestionsMinimumDistance = 2

	pf := root.PersistentFlags()
	pf.String("bootstrap-server", "", "REQUIRED: The server(s) to connect to (host:port, comma-separated). Also KSTREAMS_GROUPS_BOOTSTRAP_SERVER or the config file.")
	pf.String("timeout", "30000", "The timeout `T` for the whole command: milliseconds, as Kafka's tools take it, or a duration such as 10s, 500ms or 1m.")
	pf.Bool("detailed-exit-codes", false, "Exit with a distinct code per outcome (see Exit status).")
	pf.StringP("output", "o", "text", outputFlagUsage())
	pf.String("config", "", "Config file (default $XDG_CONFIG_HOME/kstreams-groups/config.yaml).")
	pf.BoolVar(&a.term.noColor, "no-color", false, "Never color the output. Color is used only on a terminal, and never with NO_COLOR set, TERM=dumb or -o other than text.")
	pf.StringVar(&a.term.color, "color", "auto", "When to color text output: auto (a terminal without NO_COLOR or TERM=dumb), always or never; --no-color is never.")
	pf.String("command-config", "", "Property file containing configs to be passed to Admin Client: security.protocol, sasl.*, ssl.*, client.id, request.timeout.ms (Java properties syntax).")
	pf.Var(&a.profiles, "profile", "Profile of the config file to use (also KSTREAMS_GROUPS_PROFILE, or the file's top-level profile key).")
	pf.Bool("debug", false, "Log every Kafka request and response (API, version, broker) on stderr; credentials are never logged.")

	a.registerKafkaForm(root)
	// Declared here so that cobra adds no -v: "-v check …" printed the
	// version and exited 0, and a monitoring line written so read OK forever.
	root.Flags().Bool("version", false, "Print the version and exit (there is no -v).")
	return root
}

// connectionFlags are the root's options for talking to a cluster.
var connectionFlags = []string{"bootstrap-server", "command-config", "timeout", "detailed-exit-codes", "debug"}

// unusedGlobals are the root's options that the subcommand name does not
// take, which its help (and its reference page and man page) leave out:
// those of a cluster for the commands that talk to none, every one for the
// playground (it reads no config and prints only its address), and for
// serve those of a command's output and exit code (it prints nothing on
// stdout and logs without color). A command not named takes them all. A
// switch, not a map: a table built at init is paid by every run.
func unusedGlobals(name string) []string {
	switch name {
	case "render", "version", "completion", "help":
		return connectionFlags
	case "playground":
		return append(slices.Clone(connectionFlags), "output", "color", "no-color", "config", "profile")
	case "serve":
		return []string{"output", "color", "no-color", "detailed-exit-codes"}
	case "mcp":
		return []string{"output", "color", "no-color", "detailed-exit-codes", "debug"}
	}
	return nil
}

// hideUnusedGlobals leaves unusedGlobals(c) out of the help of c. They
// stay accepted: a shell's KSTREAMS_GROUPS_* or an alias must not break a
// command that does not use them.
func hideUnusedGlobals(c *cobra.Command) {
	c.SetHelpFunc(func(c *cobra.Command, args []string) {
		withUnusedGlobalsHidden(c, func() { c.Root().HelpFunc()(c, args) })
	})
}

// withUnusedGlobalsHidden runs fn with the root's options that c does not
// take hidden (the help, the reference page and the man page of c).
func withUnusedGlobalsHidden(c *cobra.Command, fn func()) {
	var unused []string
	if c.HasParent() && !c.Parent().HasParent() {
		unused = unusedGlobals(c.Name())
	}
	var hidden []*pflag.Flag
	for _, name := range unused {
		if f := c.Root().PersistentFlags().Lookup(name); f != nil && !f.Hidden {
			f.Hidden = true
			hidden = append(hidden, f)
		}
	}
	defer func() {
		for _, f := range hidden {
			f.Hidden = false
		}
	}()
	fn()
}

// rootFlagError is a usage error for a flag the root command does not know.
// cobra reads a flag before the subcommand's name as the root's: "-v check"
// is such a line, so the subcommand named after it (check) gives the error
// its own convention (UNKNOWN, 3), and -v is explained.
func (a *app) rootFlagError(err error) error {
	if strings.Contains(err.Error(), "'v' in -v") {
		err = fmt.Errorf("%w (the version is --version; a subcommand's -v, check's --verbose, goes after its name)", err)
	}
	ue := &usageError{err: err}
	for _, arg := range a.args {
		if arg == "--" {
			break
		}
		for _, vb := range a.verbs() {
			if arg == vb.name {
				return vb.usage(ue)
			}
		}
	}
	return ue
}

// noArgs refuses arguments; at the root an argument is a misspelt
// subcommand, and the closest ones are suggested.
func noArgs(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if c != nil && !c.HasParent() {
		if s := c.SuggestionsFor(args[0]); len(s) > 0 {
			return usageErrorf("unknown command %q; did you mean %s?", args[0], joinList(quoteAll(s), "or"))
		}
	}
	return usageErrorf("unexpected argument %q", args[0])
}

// exitStatusHelp is the whole exit-code contract, for the root command.
func exitStatusHelp() string { return exitStatusHelpOf(nil) }
