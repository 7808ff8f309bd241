package main

// The list verb: --list [--state [STATES]] and `list`.

import (
	"context"
	"io"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/list"
)

// quotedStates is the Java tool's way of naming the states in --state's
// help: 'Empty', 'NotReady', ..., and 'Dead'.
func quotedStates() string {
	q := quoteAll(kafka.StateNames())
	return strings.Join(q[:len(q)-1], ", ") + ", and " + q[len(q)-1]
}

func (a *app) listVerb() *verb {
	state := stateFlag.withHelp("Print each group's state; with a comma-separated list of states, list only the groups in those states.")
	return &verb{
		name:       "list",
		actionHelp: "List all streams groups.",
		flags:      table(state),
		short:      "List Kafka Streams groups",
		long: `List the streams groups of the cluster, one id per line, as
kafka-streams-groups.sh --list does. With --state, print a GROUP/STATE table;
with a comma-separated list of states, only the groups in those states
(case-insensitive: ` + strings.Join(kafka.StateNames(), ", ") + `).

Groups are sorted by id (kafka-streams-groups.sh prints them in hash order).
NotReady groups are matched even where kafka-streams-groups.sh finds none
(brokers spell the state not_ready when filtering).`,
		printer: listPrinter(list.Options{}, state),
		exits:   clusterExits(),
		example: `  # Every streams group
  kstreams-groups list --bootstrap-server localhost:9092

  # Groups that have no members or are not ready, with their state
  kstreams-groups list --state Empty,NotReady

  # The same as a JSON document
  kstreams-groups list --state -o json`,
		parse: func(v flagValues) job {
			var opts list.Options
			given, value := state.get(v)
			j := job{opts: &opts}
			j.prepare = func(context.Context) error {
				if !given {
					return nil
				}
				arg := ""
				if value != nil {
					arg = *value
				}
				states, err := list.ParseStates(arg)
				opts = list.Options{WithState: true, States: states}
				return err
			}
			j.run = func(ctx context.Context) error { return runVerb(a, ctx, listPrinter(opts, state), listRun(opts)) }
			return j
		},
	}
}

// listPrinter prints list's result; its metrics need --state (the handle
// of its option).
func listPrinter(opts list.Options, metricsWith declared) printer[*list.Result] {
	return printer[*list.Result]{
		text:  func(w io.Writer, res *list.Result, st *format.Styles) error { return format.ListText(w, res, st) },
		doc:   func(res *list.Result) any { return format.NewListDoc(res) },
		more:  metrics(format.ListPrometheus, metricsWith),
		notes: func(res *list.Result) []string { return format.ListNotes(res, opts.States) },
	}
}

// listRun runs the list verb.
func listRun(opts list.Options) func(ctx context.Context, c client) (*list.Result, error) {
	return func(ctx context.Context, c client) (*list.Result, error) { return list.Run(ctx, c, opts) }
}
