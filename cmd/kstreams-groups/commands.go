package main

// The commands that are not verbs (playground, serve, render, version,
// completion): they talk to no cluster through runVerb, or to none. Each
// is declared once, as a verb is, in commands(): its help's "Output
// formats" and "Exit status" blocks, the refusal of another -o, the hint
// naming who prints a format and the completion of -o follow from the
// declaration.

import (
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
)

// command is a command that is not a verb.
type command struct {
	name string
	// args names its positional arguments for the usage line ("[FILE]").
	args                 string
	short, long, example string
	// outputs are the -o formats it prints; nil is text, json and yaml.
	outputs []outputRule
	// exits are the codes of exitStatuses it can end with, for its help;
	// own replaces them with codes of its own meaning.
	exits []int
	own   *ownExit
	// flags is its table of typed handles; register binds flags to the
	// constructor's locals instead.
	flags    []flagDef
	register func(fs *pflag.FlagSet)
	// noConfig: it reads no configuration, so a broken config file does
	// not keep it from running (version, completion).
	noConfig bool
	// validArgs and checkArgs are cobra's ValidArgs and Args; nil
	// checkArgs takes none.
	validArgs []string
	checkArgs func(args []string) error
	// run runs it once the arguments and -o passed.
	run func(cmd *cobra.Command, args []string) error
}

// commands are the commands that are not verbs, in the order of the
// root's help, after the verbs.
func (a *app) commands() []*command {
	return []*command{a.playgroundCommand(), a.serveCommand(), a.mcpCommand(), a.renderCommand(), a.versionCommand(), a.completionCommand()}
}

// commandDecls are the commands without an app, for their declarations,
// built once. A function, not a sync.OnceValue variable: mcp's tools
// build the root command, which asks for these (an initialization cycle).
func commandDecls() []*command {
	commandDeclsOnce.Do(func() { commandDeclList = (&app{}).commands() })
	return commandDeclList
}

var (
	commandDeclsOnce sync.Once
	commandDeclList  []*command
)

// asVerb is the command's declaration of formats, as a verb's, for the
// output rules verbs and commands share.
func (c *command) asVerb() *verb {
	return &verb{name: c.name, printer: ruleSet(c.outputs)}
}

// exitHelp is its "Exit status:" block.
func (c *command) exitHelp() string {
	if c.own != nil {
		return ownExitHelp(c.own.statuses, c.own.note)
	}
	return exitStatusHelpFor(c.exits...)
}

// output is the -o of the invocation: the configuration's, or for a
// command that reads none, the flag's own.
func (a *app) output(c *command, cmd *cobra.Command) (format.Output, error) {
	if !c.noConfig {
		return a.cfg.Output, nil
	}
	o, err := format.ParseOutput(cmd.Flag("output").Value.String())
	if err != nil {
		return o, &usageError{err: err}
	}
	return o, nil
}

// newCommand builds the cobra command of a declaration.
func (a *app) newCommand(c *command) *cobra.Command {
	use := c.name
	if c.args != "" {
		use += " " + c.args
	}
	cmd := &cobra.Command{
		Use:       use,
		Short:     c.short,
		Long:      c.long + "\n\n" + c.asVerb().outputHelp() + "\n\n" + c.exitHelp(),
		Example:   c.example,
		ValidArgs: c.validArgs,
		Args: func(cc *cobra.Command, args []string) error {
			if c.checkArgs == nil {
				return noArgs(cc, args)
			}
			return c.checkArgs(args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o, err := a.output(c, cmd)
			if err != nil {
				return err
			}
			// A command whose stdout is no document (serve, mcp, the
			// playground) refuses a -o given to it, not a config file's.
			textOnly := len(c.asVerb().verbFormats()) == 1
			if err := c.asVerb().checkOutput(o, flagValues{}); err != nil && (!textOnly || cmd.Flag("output").Changed) {
				return err
			}
			return c.run(cmd, args)
		},
	}
	if c.noConfig {
		cmd.PersistentPreRunE = func(*cobra.Command, []string) error { return nil }
	}
	if c.validArgs != nil {
		cmd.DisableFlagsInUseLine = true
	}
	for _, f := range c.flags {
		f.register(cmd.Flags(), false)
	}
	if c.register != nil {
		c.register(cmd.Flags())
	}
	return cmd
}
