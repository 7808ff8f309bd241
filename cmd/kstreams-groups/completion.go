package main

// Shell completion: the completion command prints cobra's scripts, and the
// scripts call the hidden __complete command, which asks the functions
// registered here. Completing --group asks the cluster (ListGroups, streams
// groups only) within completionTimeout and stays silent on any failure: a
// completion must never print an error into the user's command line or
// hang the shell.

import (
	"context"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// completionTimeout bounds the cluster round trip behind a <TAB>.
const completionTimeout = 2 * time.Second

// shells maps each supported shell to its script generator.
var shells = []string{"bash", "zsh", "fish", "powershell"}

func (a *app) completionCommand() *command {
	var noDesc bool
	return &command{
		name:  "completion",
		args:  "bash|zsh|fish|powershell",
		short: "Print a shell completion script",
		long: `Print the completion script for a shell. Besides commands and flags it
completes the values of --group (the streams groups of the cluster given by
--bootstrap-server, the environment or the config file, asked with a 2 s
limit; nothing is offered when the cluster cannot be reached), --state and
-o/--output.

Load it into the current shell, or install it once:
  bash        source <(kstreams-groups completion bash)
              kstreams-groups completion bash > /etc/bash_completion.d/kstreams-groups
              (needs the bash-completion package)
  zsh         kstreams-groups completion zsh > "${fpath[1]}/_kstreams-groups"
              (with "autoload -U compinit; compinit" in ~/.zshrc)
  fish        kstreams-groups completion fish > ~/.config/fish/completions/kstreams-groups.fish
  powershell  kstreams-groups completion powershell | Out-String | Invoke-Expression
              (add the line to $PROFILE to keep it)`,
		outputs: []outputRule{{formats: []format.Output{format.Text}}},
		exits:   []int{exitOK, exitUsage},
		example: `  # Try completion in the current bash session
  source <(kstreams-groups completion bash)

  # Install it for zsh
  kstreams-groups completion zsh > "${fpath[1]}/_kstreams-groups"

  # fish, without the descriptions next to each candidate
  kstreams-groups completion fish --no-descriptions > ~/.config/fish/completions/kstreams-groups.fish`,
		validArgs: shells,
		checkArgs: func(args []string) error {
			if len(args) != 1 || !slices.Contains(shells, args[0]) {
				return usageErrorf("completion takes one shell: %s", strings.Join(shells, ", "))
			}
			return nil
		},
		// The script does not depend on any configuration.
		noConfig: true,
		register: func(fs *pflag.FlagSet) {
			fs.BoolVar(&noDesc, "no-descriptions", false, "Leave out the description next to each candidate.")
		},
		run: func(cmd *cobra.Command, args []string) error {
			return writeCompletion(cmd.Root(), args[0], a.io.Out, !noDesc)
		},
	}
}

// writeCompletion writes the completion script of a shell, with or
// without the descriptions of the candidates.
func writeCompletion(root *cobra.Command, shell string, out io.Writer, desc bool) error {
	switch shell {
	case "bash":
		return root.GenBashCompletionV2(out, desc)
	case "zsh":
		if !desc {
			return root.GenZshCompletionNoDesc(out)
		}
		return root.GenZshCompletion(out)
	case "fish":
		return root.GenFishCompletion(out, desc)
	}
	if !desc {
		return root.GenPowerShellCompletion(out)
	}
	return root.GenPowerShellCompletionWithDesc(out)
}

// registerCompletions gives every flag named group, state (expect-state) or output in the
// command tree its value completion, so that commands added later get it
// too. Call it once the tree is complete.
func (a *app) registerCompletions(root *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, fs := range []*pflag.FlagSet{c.PersistentFlags(), c.LocalNonPersistentFlags()} {
			fs.VisitAll(func(f *pflag.Flag) {
				var fn cobra.CompletionFunc
				switch {
				case f.Name == "group":
					fn = a.completeGroups
				case f.Name == "output":
					fn = completeVerbOutputs
				case (f.Name == "seed" || f.Name == "state") && c.Name() == "playground":
					// playground --seed (and --state, its deprecated
					// name) is a seed file, not a group state.
					fn = completeSeedFiles
				case f.Name == "state", f.Name == "expect-state":
					fn = completeStates
				case c.Name() == "config" && (f.Name == "set" || f.Name == "delete-config"):
					fn = completeGroupConfigKeys(f.Name == "set") // groupconfig.go
				default:
					return
				}
				if _, done := c.GetFlagCompletionFunc(f.Name); !done {
					_ = c.RegisterFlagCompletionFunc(f.Name, fn)
				}
			})
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// completeGroups offers the streams groups of the cluster, each with its
// state as the description.
func (a *app) completeGroups(cmd *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	const directive = cobra.ShellCompDirectiveNoFileComp
	// The flags on the command line so far are parsed; environment and
	// config file come in as for any command. Any failure offers nothing.
	if err := a.loadConfig(cmd); err != nil || len(a.cfg.Bootstrap) == 0 {
		return nil, directive
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), min(completionTimeout, a.cfg.Timeout))
	defer cancel()
	client, err := a.newAdmin(ctx, a.defaultTarget())
	if err != nil {
		return nil, directive
	}
	defer client.Close()
	listed, err := client.ListStreamsGroups(ctx)
	if err != nil {
		return nil, directive
	}
	var out []cobra.Completion
	for _, g := range listed {
		// A name the shell would mangle (whitespace, control characters)
		// cannot be completed faithfully; leave it out.
		if !strings.HasPrefix(g.Group, toComplete) || strings.ContainsFunc(g.Group, isSpaceOrControl) {
			continue
		}
		out = append(out, cobra.CompletionWithDesc(g.Group, format.Escape(g.State)))
	}
	return out, directive
}

func isSpaceOrControl(r rune) bool {
	return r <= ' ' || r == 0x7f || r >= 0x80 && r <= 0x9f
}

// completeStates offers the group states to --list --state and list
// --state, which take a comma-separated list: the states already in the
// list are not offered again. --describe --state takes no value, so
// nothing is offered anywhere else.
func completeStates(cmd *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	const directive = cobra.ShellCompDirectiveNoFileComp
	if cmd.Name() != "list" && cmd.Name() != "check" && !changed(cmd.Flags(), "list") {
		return nil, directive
	}
	prefix, last := "", toComplete
	if i := strings.LastIndexByte(toComplete, ','); i >= 0 {
		prefix, last = toComplete[:i+1], toComplete[i+1:]
	}
	given := strings.Split(strings.ToLower(prefix), ",")
	var out []cobra.Completion
	for _, s := range kafka.StateNames() {
		if slices.Contains(given, strings.ToLower(s)) || !strings.HasPrefix(strings.ToLower(s), strings.ToLower(last)) {
			continue
		}
		out = append(out, prefix+s)
	}
	return out, directive
}

// completeSeedFiles offers the YAML and JSON files a seed can be read from.
func completeSeedFiles(_ *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return []cobra.Completion{"yaml", "yml", "json"}, cobra.ShellCompDirectiveFilterFileExt
}
