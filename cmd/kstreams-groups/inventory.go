package main

// The inventory verb: `kstreams-groups inventory` (subcommand only), a view
// kafka-streams-groups.sh does not have: each streams group's declared
// internal topics against the cluster, their cost, the orphans, and, only
// with --orphans --delete --execute, their deletion.

import (
	"context"
	"io"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/inventory"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

func (a *app) inventoryVerb() *verb {
	orphans := boolOption(flagDef{name: "orphans", help: "Show only the orphaned internal topics (and, with --delete, delete them)."})
	del := boolOption(flagDef{name: "delete", help: "With --orphans: delete the orphans listed, each re-checked just before (a dry run unless --execute)."})
	dryRun := boolOption(flagDef{name: "dry-run", help: "With --delete: show what would be deleted, delete nothing (the default)."})
	execute := boolOption(flagDef{name: "execute", help: "With --delete: really delete."})
	configs := boolOption(flagDef{name: "configs", help: "With --delete: also delete the dynamic configs left by groups that no longer exist."})
	minAge := durationOption(flagDef{name: "min-age", help: "With --delete: keep a topic whose newest record was appended less than `D` ago; a topic whose age is unknown (CreateTime records carry their producer's time) is kept too (default 24h; 0 deletes regardless of age)."},
		anyDuration, "--min-age: %q is not a duration such as 24h, 90m or 0")
	return &verb{
		name:           "inventory",
		subcommandOnly: true,
		flags: table(
			groupFlag.withHelp("Show this streams group (repeatable); orphans are then only the topics named after one of the groups given (the never-an-orphan rules still see every application a name fits). Default: every live streams group."),
			allGroupsFlag.withHelp("Show every live streams group (the default)."),
			orphans, del, dryRun, execute, configs, minAge),
		short: "Each application's internal topics, what is wrong with them, and what is left over",
		long: `Show, for each streams group, the internal topics it declares (KIP-1071:
changelogs and repartition topics, foreign-key join topics among them, with
the partition count, replication factor and configs the application expects)
against the cluster: present or missing, partition count, replication factor
and configs, each difference a finding; a NOT_READY group's findings say why.
For each topic, its size on disk (every replica, and one copy) and the time
of its newest record.

Then the orphans: topics named as a Kafka Streams internal topic
("<application.id>-<name>-changelog", "-repartition", the foreign-key join
"-subscription-registration-topic" / "-subscription-response-topic" and
"KTABLE-FK-JOIN-SUBSCRIPTION-…-topic") that no live streams group declares,
with why. Never an orphan: a topic any group has committed offsets on, one a
live application reads or writes, one named after a group of another type (a
Kafka Streams application on the classic protocol), or after a streams group
that could not be described or has no topology yet.

Cleanup, only on request: --orphans --delete lists what it would delete (a
dry run); --execute deletes, after reading the cluster again and re-checking
each topic (still an orphan, every group's offsets read, newest record
appended at least --min-age ago: only a LogAppendTime topic tells when, so a
CreateTime topic is kept unless --min-age 0; an empty topic counts as old
enough). Only topics whose names follow the internal-topic rules are ever
deleted, whatever --group says.
With --configs it also deletes the dynamic configs that groups deleted
since left on the broker (ListConfigResources, Apache Kafka 4.1 or newer),
re-checking that each group still does not exist.

-o json|yaml prints the same as a document, -o prometheus the bytes per
application and the orphaned bytes. Requests: ListGroups per broker, one
Metadata, StreamsGroupDescribe and OffsetFetch per coordinator, one
DescribeConfigs, one DescribeLogDirs per broker, ListOffsets and Fetch per
partition leader; DeleteTopics only with --execute.

Exit 0 only when everything was read (and every listed orphan deleted, or
would be): a part that could not be read (a group not described, committed
offsets, group configs, sizes) makes the run partial, exit 1, each part
named on stderr as "could not read …".`,
		printer: inventoryPrinter(),
		exits:   clusterExits(exitNotFound, exitNotDeleted),
		example: `  # What does each application own, and what is wrong with it?
  kstreams-groups inventory

  # What is left over, and what would a cleanup delete?
  kstreams-groups inventory --orphans --delete

  # Delete the orphans of a deleted application, whatever their age
  kstreams-groups inventory --orphans --group old-app --delete --execute --min-age 0

  # Bytes per application for a textfile collector
  kstreams-groups inventory -o prometheus`,
		parse: func(v flagValues) job {
			opts := inventory.Options{Groups: groupFlag.get(v), AllGroups: allGroupsFlag.get(v), Orphans: orphans.get(v),
				Delete: del.get(v), Execute: execute.get(v), DryRun: dryRun.get(v), Configs: configs.get(v), MinAge: inventory.DefaultMinAge,
				Now: func() time.Time { return a.clock().Now() }}
			d, given, perr := minAge.value(v)
			if given {
				opts.MinAge, opts.MinAgeGiven = d, true
			}
			return job{opts: opts, parseErr: perr, validate: opts.Validate, run: func(ctx context.Context) error { return a.inventory(ctx, opts) }}
		},
	}
}

// inventoryPrinter prints inventory's result.
func inventoryPrinter() printer[*inventory.Result] {
	return printer[*inventory.Result]{
		text: func(w io.Writer, res *inventory.Result, _ *format.Styles) error { return format.InventoryText(w, res) },
		doc:  func(res *inventory.Result) any { return format.NewInventoryDoc(res) },
		more: metrics(format.InventoryPrometheus, nil),
		line: func(_ *inventory.Result, f kafka.Failure, _ format.Output) string {
			// printError writes the "Error:" label.
			return format.EscapeMessage(f.Err.Error())
		},
	}
}

// inventory runs the inventory verb.
func (a *app) inventory(ctx context.Context, opts inventory.Options) error {
	return runVerb(a, ctx, inventoryPrinter(), func(ctx context.Context, c client) (*inventory.Result, error) { return inventory.Run(ctx, c, opts) })
}
