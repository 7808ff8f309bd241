package main

// The overview verb: `kstreams-groups overview`, a view kafka-streams-groups.sh
// does not have. It joins the topology, the task owners and the lag of
// each group; only a group whose overview could not be made fails (a
// description that is NOT_STORED or ERROR is shown, not failed).

import (
	"context"
	"io"
	"maps"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
	"github.com/kstreams-groups/kstreams-groups/internal/watch"
)

// partitionMetricsFlag asks -o prometheus for the time lag of every source
// partition, one series each: opt-in, for the cardinality.
var partitionMetricsFlag = boolOption(flagDef{name: "partition-metrics",
	help: "With -o prometheus and the time lag: also kstreams_partition_lag_seconds, one series per source partition."})

func (a *app) overviewVerb() *verb {
	store := stringOption(flagDef{name: "store",
		help: "Show, for this state store, one row per partition with the hosts of its active, standby and warm-up copies."})
	timeLag := boolOption(flagDef{name: "time-lag", on: true,
		help: "Read the first unprocessed record of each partition (one Fetch per leader): the time lag (its age) and the records to process, markers and aborted records left out; --time-lag=false for the offset lag only."})
	lastRebalance := boolOption(flagDef{name: "last-rebalance", on: true,
		help: "Read the group's history in __consumer_offsets (as history does) for the head's last rebalance and its causes; --last-rebalance=false leaves it out (so does --watch)."})
	return &verb{
		name:           "overview",
		subcommandOnly: true,
		flags: table(groupFlag, allGroupsFlag, store, timeLag, lastRebalance, partitionMetricsFlag,
			watchFlag, watchIntervalFlag, watchCountFlag),
		short: "The topology, who runs each task, and where the lag is, in one view",
		long: `Show, for each streams group, its sub-topologies with what they read and
write (repartition topics marked), their state stores and changelogs and,
when the broker stored the description, their nodes; then each task S_P with
the member that runs it (user endpoint or client host, member, process and
client ids), the members holding it as standby or warm-up, whether it is
moving (target and current assignment differ), and its lag: end offset minus
committed offset at partition P of each of the sub-topology's source topics,
repartition topics included (minus the log start offset where nothing is
committed, as the offsets view counts it). Totals per sub-topology and group
and the largest task lag come first.

A group whose topology description is NOT_STORED or ERROR still gets its
overview from the topology the members declared, with the status shown and
the nodes left out. --store NAME answers "which instance holds store NAME,
partition P?": one row per partition with the hosts of its copies.

-o json|yaml prints the same as a document; -o dot|mermaid draws the topology
with each sub-topology's task count and lag, its border colored by its share
of the group's lag, and each source topic's lag; -o svg|png renders that
drawing in the binary (png is binary: redirect it to a file). mermaid, svg
and png draw one group.

Requests: one StreamsGroupDescribe v1 per coordinator, one OffsetFetch per
coordinator for its groups, and ListOffsets (earliest, latest) per partition
leader; the time lag adds one Metadata and one Fetch (read_committed) per
partition leader (--time-lag=false leaves them out). A topic the principal
may not READ keeps its offset lag, and a note names it and the ACL it
needs. It needs Apache Kafka 4.4 or newer.`,
		printer: a.overviewPrinter(overview.Options{}),
		exits:   clusterExits(exitNotFound),
		example: `  # Which part of my application is behind, and who runs it?
  kstreams-groups overview --group my-app

  # Which instance holds partition 3 of the store "counts"?
  kstreams-groups overview --group my-app --store counts

  # The picture, without Graphviz installed
  kstreams-groups overview --group my-app -o svg > my-app.svg

  # Every group as JSON
  kstreams-groups overview --all-groups -o json`,
		parse: func(v flagValues) job {
			opts := overview.Options{Groups: groupFlag.get(v), AllGroups: allGroupsFlag.get(v),
				StoreGiven: store.set(v), Store: store.get(v), TimeLag: timeLag.get(v), PartitionMetrics: partitionMetricsFlag.get(v)}
			if opts.TimeLag {
				// The watch's clock, so that tests fix the time.
				opts.Now = func() time.Time { return a.clock().Now() }
			}
			w, werr := parseWatch(v)
			// The head's last rebalance reads the group's history once: a
			// watch would read the whole partition at every sample.
			opts.LastRebalance = lastRebalance.get(v) && !w.on
			return job{opts: opts, validate: withWatch(opts.Validate, werr), run: func(ctx context.Context) error { return a.overview(ctx, opts, w) }}
		},
	}
}

// overviewPrinter prints overview's result.
func (a *app) overviewPrinter(opts overview.Options) printer[*overview.Result] {
	p := printer[*overview.Result]{
		text: func(w io.Writer, res *overview.Result, st *format.Styles) error {
			return format.OverviewText(w, res, st)
		},
		doc: func(res *overview.Result) any { return format.NewOverviewDoc(res) },
		line: func(_ *overview.Result, f kafka.Failure, _ format.Output) string {
			return a.groupErrorLine(f.Group, f.Err)
		},
		notes: func(res *overview.Result) []string {
			return format.TimeLagDeniedNotes(overview.DeniedTopics(res.Groups))
		},
	}
	p.more = drawings(func(res *overview.Result) error {
		o := a.cfg.Output
		if err := oneDrawing(o, len(res.Groups)); err != nil {
			return err
		}
		for _, g := range res.Groups {
			if g.Err == nil {
				if err := format.OverviewGraphContext(a.deps.signals.context(), a.io.Out, o, g); err != nil {
					return pictureError(err)
				}
			}
		}
		return nil
	}, nil)
	maps.Copy(p.more, metrics(func(w io.Writer, res *overview.Result) error {
		return format.OverviewPrometheusWith(w, res, format.PrometheusOptions{TimeLag: true, PartitionTimeLag: opts.PartitionMetrics})
	}, nil))
	return p
}

// overview runs the overview verb, once or (--watch) every interval.
func (a *app) overview(ctx context.Context, opts overview.Options, w watchOptions) error {
	p := a.overviewPrinter(opts)
	run := func(ctx context.Context, c client) (*overview.Result, error) { return overview.Run(ctx, c, opts) }
	if w.on {
		return watchVerb(a, ctx, w, p, run, watch.FromOverview)
	}
	return runVerb(a, ctx, p, run)
}
