package main

// The config verb: `kstreams-groups config` (subcommand only; the Java
// tool's counterpart is kafka-configs.sh --entity-type groups). stdout
// shows the configs, or the outcome of the changes, in kafka-configs.sh's
// line format; a refused or unreadable group is named there too, and on
// stderr, one line per group, whatever -o is. (config.go is the configuration file loader.)

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/groupconfig"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

func (a *app) groupConfigVerb() *verb {
	set := stringsOption(flagDef{name: "set",
		help: "Set a group config, `KEY=VALUE` (repeatable), e.g. streams.num.standby.replicas=1; needs --dry-run or --execute."})
	deleteConfig := stringsOption(flagDef{name: "delete-config",
		help: "Remove a group config from the group, so that the broker's default applies again (`KEY`, repeatable); needs --dry-run or --execute."})
	dryRun := boolOption(flagDef{name: "dry-run", help: "Have the broker validate the changes (its own bounds, with its message) without applying them."})
	execute := boolOption(flagDef{name: "execute", help: "Apply the changes, then read the configs back and print them."})
	dynamic := boolOption(flagDef{name: "dynamic",
		help: "Show only the configs set on the group, exactly as kafka-configs.sh --describe --entity-type groups prints them."})
	return &verb{
		name:           "config",
		subcommandOnly: true,
		flags: table(groupFlag, allGroupsFlag.withHelp("Show the configs of every streams group."),
			set, deleteConfig, dryRun, execute, dynamic),
		short: "Show or change the group configs of Kafka Streams groups (standbys, session, assignor)",
		long: `Show or change a streams group's configs. Under the streams rebalance
protocol the broker, not the application, decides how many standby replicas a
task gets, how many warm-ups may run, the session timeout and heartbeat
interval and the task assignor: they are group configs
(streams.num.standby.replicas, streams.session.timeout.ms, ...), with
broker-wide defaults under group.streams.*; an application's own
num.standby.replicas is ignored.

Without changes, config prints every config of each group with its effective
value and where it comes from (the first synonym: DYNAMIC_GROUP_CONFIG is set
on the group, STATIC_BROKER_CONFIG and DEFAULT_CONFIG the broker's), streams
keys first, in kafka-configs.sh's line format; --dynamic prints only those set
on the group, as kafka-configs.sh --describe --entity-type groups does.

--set KEY=VALUE and --delete-config KEY change the groups named with --group
(IncrementalAlterConfigs): --dry-run has the broker validate them against its
own bounds (for example group.streams.max.standby.replicas) without applying
them, --execute applies them and reads the configs back. Nothing is changed
without --execute. A key that is not a group config (a broker config such as
group.streams.num.standby.replicas, or an application config) is refused
before anything is sent. Deleting a group does not delete its configs: see
delete --delete-configs.`,
		exits: clusterExits(exitNotFound, exitConfigRefused),
		example: `  # What is this application configured to do?
  kstreams-groups config --group orders-app

  # One standby replica per stateful task: validate, then apply
  kstreams-groups config --group orders-app --set streams.num.standby.replicas=1 --dry-run
  kstreams-groups config --group orders-app --set streams.num.standby.replicas=1 --execute

  # Back to the broker's default
  kstreams-groups config --group orders-app --delete-config streams.num.standby.replicas --execute

  # Every group's configs for a script
  kstreams-groups config --all-groups -o json`,
		parse: func(v flagValues) job {
			opts := groupconfig.Options{Groups: groupFlag.get(v), AllGroups: allGroupsFlag.get(v),
				Set: set.get(v), DeleteConfigs: deleteConfig.get(v),
				DryRun: dryRun.get(v), Execute: execute.get(v), Dynamic: dynamic.get(v)}
			return job{opts: opts, validate: opts.Validate, run: func(ctx context.Context) error { return a.groupConfig(ctx, opts) }}
		},
	}
}

// groupConfig runs the config verb.
func (a *app) groupConfig(ctx context.Context, opts groupconfig.Options) error {
	p := printer[*groupconfig.Result]{
		text: func(w io.Writer, res *groupconfig.Result, _ *format.Styles) error {
			return format.GroupConfigText(w, res)
		},
		doc: func(res *groupconfig.Result) any { return format.NewGroupConfigDoc(res) },
		// Every failure (a refusal included) is one stderr line, whatever
		// -o is: the text names it on stdout too, in its own words, and a
		// script reading stderr alone must see it.
		line: func(_ *groupconfig.Result, f kafka.Failure, _ format.Output) string {
			return fmt.Sprintf("group '%s': %s", format.Escape(f.Group), a.errorText(f.Err))
		},
	}
	return runVerb(a, ctx, p, func(ctx context.Context, c client) (*groupconfig.Result, error) {
		return groupconfig.Run(ctx, c, opts)
	})
}

// completeGroupConfigKeys offers the group config keys, streams keys
// first, with their documentation: for --set (set) as KEY=, with no space
// after it since the value follows, for --delete-config as KEY.
func completeGroupConfigKeys(set bool) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		directive, suffix := cobra.ShellCompDirectiveNoFileComp, ""
		if set {
			directive, suffix = directive|cobra.ShellCompDirectiveNoSpace, "="
		}
		var out []cobra.Completion
		for _, k := range kafka.GroupConfigKeys {
			if strings.HasPrefix(k.Name, toComplete) {
				out = append(out, cobra.CompletionWithDesc(k.Name+suffix, k.Doc))
			}
		}
		return out, directive
	}
}
