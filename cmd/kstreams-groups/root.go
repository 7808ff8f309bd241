package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// app holds what one invocation resolved from flags, environment and the
// config file.
type app struct {
	io     IOStreams
	cfg    Config
	loaded bool
	term   terminal
}

// run executes one command line and returns the process exit code.
func run(args []string, ios IOStreams) int {
	a := &app{io: ios}
	root := a.newRootCmd()
	root.SetArgs(joinStateArg(args))
	root.SetIn(ios.In)
	root.SetOut(ios.Out)
	root.SetErr(ios.ErrOut)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := root.ExecuteContext(ctx)
	a.report(err)
	return exitCodeFor(err, a.cfg.DetailedExitCodes)
}

// report prints a command's error as one line on stderr; per-group failures
// were already printed where they happened.
func (a *app) report(err error) {
	var oe *outcomeError
	var ue *usageError
	switch {
	case err == nil, errors.As(err, &oe):
	case errors.As(err, &ue):
		fmt.Fprintln(a.io.ErrOut, ue.Error())
		fmt.Fprintln(a.io.ErrOut, "Run 'kstreams-groups --help' for usage.")
	default:
		a.printError(a.errorText(err))
	}
}

func (a *app) newRootCmd() *cobra.Command {
	var kf kafkaFlags
	root := &cobra.Command{
		Use:   "kstreams-groups",
		Short: "List, describe and delete Kafka Streams groups",
		Long: `kstreams-groups lists, describes and deletes Kafka Streams groups (KIP-1071)
and prints the topology description that the broker's plugin stored for a
group (KIP-1331). It accepts the options of Apache Kafka 4.4's
kafka-streams-groups.sh and prints the same text, and it also offers
subcommands.` + "\n\n" + exitStatusHelp(),
		Example: `  # Print the stored topology of a group, as kafka-streams-groups.sh does
  kstreams-groups --bootstrap-server localhost:9092 --describe --topology --group my-app

  # The same with a subcommand and the bootstrap server from the environment
  KSTREAMS_GROUPS_BOOTSTRAP_SERVER=localhost:9092 kstreams-groups describe --topology --group my-app

  # Exit 3 when a group's description is NOT_STORED, 4 on ERROR (health checks)
  kstreams-groups --bootstrap-server localhost:9092 --describe --topology --all-groups --detailed-exit-codes`,
		Version:       resolveVersion().short(),
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          noArgs,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Name() == cobra.ShellCompRequestCmd {
				return nil // completion functions load what they need, silently
			}
			return a.loadConfig(cmd)
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.runKafkaForm(cmd, kf)
		},
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err: err} })
	root.SetVersionTemplate("{{.Version}}\n")

	pf := root.PersistentFlags()
	pf.String("bootstrap-server", "", "REQUIRED: The server(s) to connect to (host:port, comma-separated). Also KSTREAMS_GROUPS_BOOTSTRAP_SERVER or the config file.")
	pf.Int64("timeout", 30000, "The timeout in milliseconds for the whole command.")
	pf.Bool("detailed-exit-codes", false, "Exit with a distinct code per outcome (see Exit status).")
	pf.StringP("output", "o", "text", outputFlagUsage())
	pf.String("config", "", "Config file (default $XDG_CONFIG_HOME/kstreams-groups/config.yaml).")
	pf.BoolVar(&a.term.noColor, "no-color", false, "Never color the output. Color is used only on a terminal, and never with NO_COLOR set, TERM=dumb or -o other than text.")
	pf.String("command-config", "", "Property file containing configs to be passed to Admin Client: security.protocol, sasl.*, ssl.*, client.id, request.timeout.ms (Java properties syntax).")
	pf.String("profile", "", "Profile of the config file to use (also KSTREAMS_GROUPS_PROFILE, or the file's top-level profile key).")
	pf.Bool("debug", false, "Log every Kafka request and response (API, version, broker) on stderr; credentials are never logged.")

	f := root.Flags()
	kf.register(f)
	f.SortFlags = false

	root.AddCommand(a.newDescribeCmd(), a.newListCmd(), a.newPlaygroundCmd(), a.newRenderCmd(), a.newDeleteCmd())
	root.AddCommand(a.newVersionCmd(), a.newCompletionCmd())
	a.registerCompletions(root)
	documentHelpCommand(root)
	return root
}

// runKafkaForm validates the kafka-streams-groups.sh form in Kafka's order and
// dispatches to the verb.
func (a *app) runKafkaForm(cmd *cobra.Command, kf kafkaFlags) error {
	if cmd.Flags().NFlag() == 0 {
		cmd.SetOut(a.io.ErrOut)
		_ = cmd.Help()
		return usageErrorf("no action given")
	}
	if err := kf.validate(cmd, len(a.cfg.Bootstrap) > 0); err != nil {
		return err
	}
	switch {
	case kf.describe:
		return a.describe(cmd.Context(), kf.describeOptions(changed(cmd.Flags(), "state")))
	case kf.list:
		opts, err := listOptions(changed(cmd.Flags(), "state"), kf.state)
		if err != nil {
			return err
		}
		return a.list(cmd.Context(), opts)
	case kf.delete:
		return a.deleteGroups(cmd.Context(), deleteOptions(kf.groups, kf.allGroups, kf.dryRun, kf.deleteAllInternalTopics))
	}
	return nil
}

func noArgs(_ *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageErrorf("unexpected argument %q", args[0])
	}
	return nil
}

// changed reports whether the user set a flag on the command line.
func changed(fs *pflag.FlagSet, name string) bool {
	f := fs.Lookup(name)
	return f != nil && f.Changed
}

func exitStatusHelp() string {
	var b strings.Builder
	b.WriteString("Exit status:\n")
	for _, s := range exitStatuses {
		if !s.Detailed {
			fmt.Fprintf(&b, "  %d  %s\n", s.Code, s.Meaning)
		}
	}
	b.WriteString("With --detailed-exit-codes:\n")
	for _, s := range exitStatuses {
		if s.Detailed {
			fmt.Fprintf(&b, "  %d  %s\n", s.Code, s.Meaning)
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}
