package main

// The diff verb: `diff OLD NEW`, the upgrade-safety check (subcommand
// only; kafka-streams-groups.sh has no such action). A group: side is
// fetched (StreamsGroupDescribe v1), OLD's from --bootstrap-server and
// NEW's from --new-bootstrap-server when given; a file side is read with
// topoparse. diff has its own exit codes (diffExitStatuses), not the
// global table: a script asks it "identical, different or breaking?".

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/diff"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	"github.com/kstreams-groups/kstreams-groups/internal/topoparse"
)

// diff's exit codes.
const (
	diffIdentical  = 0
	diffDifferent  = 1
	diffUnreadable = 2
	diffFailing    = 3
)

// diffExitStatuses are diff's exit codes as its help lists them.
var diffExitStatuses = []exitStatus{
	{diffIdentical, false, "The topologies are identical after normalisation."},
	{diffDifferent, false, "Differences, none breaking (with --fail-on warning: none a warning either)."},
	{diffUnreadable, false, "Usage error, a side that cannot be read or fetched, or a report that cannot be written (the reason is on stderr)."},
	{diffFailing, false, "Breaking differences, a topology the broker refuses for OLD's group among them (with --fail-on warning: warnings too; --fail-on info: any finding)."},
}

// diffExits are diff's exit codes and the note after them.
var diffExits = &ownExit{diffExitStatuses, "These are diff's own codes, the same with --detailed-exit-codes."}

func (a *app) diffVerb() *verb {
	applicationID := stringOption(flagDef{name: "application-id",
		help: "The application.id of a file side: its \"<id>-\" prefix is taken off internal topic names (default: the group id of the other side, when that side is group:NAME)."})
	failOn := stringOption(flagDef{name: "fail-on",
		help: "The least severity that exits 3: breaking (the default), warning or info."})
	newBootstrapServer := stringOption(flagDef{name: "new-bootstrap-server",
		help: "The cluster of a group: NEW side, when it is not OLD's (host:port, comma-separated)."})
	newCommandConfig := stringOption(flagDef{name: "new-command-config",
		help: "Client properties for a group: NEW side (default: OLD's, from --command-config or the profile)."})
	return &verb{
		name:           "diff",
		args:           "OLD NEW",
		subcommandOnly: true,
		own:            diffExits,
		needsBootstrap: func(v flagValues) bool {
			for i, arg := range v.args {
				if strings.HasPrefix(arg, diff.GroupPrefix) && (i == 0 || !newBootstrapServer.set(v)) {
					return true
				}
			}
			return false
		},
		flags: table(applicationID, failOn, newBootstrapServer, newCommandConfig),
		short: "Check that a new topology can replace a running one (upgrade safety)",
		long: `Compare the topology of a running Kafka Streams application with the one
about to be deployed, and say what deploying it would do to the state the
application keeps. OLD and NEW are each one of:

  group:NAME  the topology description the broker stored for the streams
              group NAME (KIP-1331), fetched with the connection flags;
              NEW's from --new-bootstrap-server/--new-command-config
  FILE, -     a Topology#describe() text, the text of describe --topology
              (ours or kafka-streams-groups.sh's), or our JSON/YAML

The two are compared as graphs: internal topic names lose the application
id prefix (a group's id; --application-id for a file), nodes are compared
by name whatever their order, sub-topologies are matched by content and not
by number, and global stores by source topic and store. Then:

  breaking  the broker refuses NEW's topology for OLD's group (OLD is a
            group: a sub-topology added or removed, or its source,
            repartition or changelog topics changed), a state store renamed
            or removed, a changelog topic renamed or removed, a repartition
            topic renamed or removed, a source topic removed, a
            sub-topology renumbered, a global store changed or removed
  warning   a generated node or store name shifted (an operator was added
            upstream: Named.as, Materialized.as pin names), a sink topic
            changed, a source topic added, a pattern source or dynamic sink
            involved (they cannot be compared fully)
  info      a processor without state added or removed, a store or a
            global store added

A Kafka 4.4 broker keeps the topology of a streams group's first member
(per sub-topology: source, repartition and changelog topics; no processor
names) and refuses a member with another one, even when the group is
Empty, until the group is deleted. When OLD is a group, diff says whether
the broker accepts NEW for it ("Broker:"); a refused deploy is exit 3.

The text output lists the findings (most severe first), the changes per
sub-topology, and a unified diff of the two normalised descriptions,
colored on a terminal. -o json|yaml gives the same as one document.`,
		example: `  # Gate a deployment in CI: the running group against the new build
  kstreams-groups diff group:orders-app build/topology.txt --bootstrap-server kafka:9092

  # The same, failing on warnings too, as JSON for a report
  kstreams-groups diff group:orders-app build/topology.txt --fail-on warning -o json

  # Blue/green: two running groups, one of them on another cluster
  kstreams-groups diff group:orders-blue group:orders-green \
    --bootstrap-server blue:9092 --new-bootstrap-server green:9092 --new-command-config green.properties

  # Two files, the stored text saved earlier with describe --topology
  kstreams-groups diff saved.txt - --application-id orders-app < build/topology.txt`,
		parse: func(v flagValues) job {
			opts := diff.Options{Args: v.args, ApplicationID: applicationID.get(v), FailOn: failOn.get(v),
				NewCluster: newBootstrapServer.set(v) || newCommandConfig.set(v)}
			newBootstrap, newConfig := newBootstrapServer.get(v), newCommandConfig.get(v)
			opts.NoNewServer = newBootstrapServer.set(v) && len(splitServers(newBootstrap)) == 0
			return job{opts: opts, validate: opts.Validate, run: func(ctx context.Context) error {
				return a.diff(ctx, opts, newBootstrap, newConfig)
			}}
		},
	}
}

// diff runs the diff verb: fetch or read both sides, compare, print, and
// return the outcome as diff's own exit code. Its session opens the
// clusters of its group sides (none, one or two).
func (a *app) diff(ctx context.Context, opts diff.Options, newBootstrap, newConfig string) error {
	var src diff.Sources
	p := printer[*diff.Result]{
		text: func(w io.Writer, res *diff.Result, st *format.Styles) error { return format.DiffText(w, res, st) },
		doc:  func(res *diff.Result) any { return format.NewDiffDoc(res) },
		line: func(_ *diff.Result, f kafka.Failure, _ format.Output) string { return a.diffFailureLine(f.Err) },
		session: func(ctx context.Context) (context.Context, client, []any, func(), error) {
			return a.diffSession(ctx, opts, newBootstrap, newConfig, &src)
		},
		failed: func(err error) (*diff.Result, error) { return nil, &verbExit{code: diffUnreadable, err: err} },
		// Not 1, which says "differences": a CI gate must not pass a
		// report it never got.
		writeFailed: func(err error) error { return &verbExit{code: diffUnreadable, err: err} },
		outcome: func(res *diff.Result, failures []error) error {
			switch {
			case len(failures) > 0:
				return &verbExit{code: diffUnreadable}
			case res.Outcome() == diff.Failing:
				return &verbExit{code: diffFailing}
			case res.Outcome() == diff.Different:
				return &verbExit{code: diffDifferent}
			}
			return nil
		},
	}
	return runVerb(a, ctx, p, func(ctx context.Context, _ client) (*diff.Result, error) { return diff.Run(ctx, src, opts) })
}

// diffSession builds src: a client for each group side, within --timeout
// (diff.Sources.Timeout bounds the fetching; a file side is read outside
// it, and the comparison ends only with a signal, so the run's context is
// ctx itself).
func (a *app) diffSession(ctx context.Context, opts diff.Options, newBootstrap, newConfig string, src *diff.Sources) (context.Context, client, []any, func(), error) {
	*src = diff.Sources{Read: a.topologyReader(ctx), Timeout: a.cfg.Timeout}
	cctx, cancel := context.WithTimeout(ctx, a.cfg.Timeout)
	var clients []any
	done := func() {
		for _, c := range clients {
			c.(client).Close()
		}
		cancel()
	}
	connect := func(t target) (client, error) {
		c, err := a.newAdmin(cctx, t)
		if err != nil {
			return nil, err
		}
		clients = append(clients, c)
		return c, nil
	}
	oldSide, newSide := opts.Sides()
	if oldSide.IsGroup() {
		c, err := connect(a.defaultTarget())
		if err != nil {
			done()
			return nil, nil, nil, nil, err
		}
		src.Old = c
	}
	if newSide.IsGroup() {
		t := a.defaultTarget()
		if newBootstrap != "" {
			t.bootstrap, t.origin = splitServers(newBootstrap), "--new-bootstrap-server"
		}
		if newConfig != "" {
			t.client = ClientSource{Path: newConfig, Origin: "--new-command-config"}
		}
		if src.Old != nil && newBootstrap == "" && newConfig == "" {
			src.New = src.Old // the same cluster, the same settings: one client
		} else {
			c, err := connect(t)
			if err != nil {
				done()
				return nil, nil, nil, nil, err
			}
			src.New = c
		}
	}
	return ctx, nil, clients, done, nil
}

// diffFailureLine is the stderr line of a side that could not be read or
// fetched: the side, its spec and why (a status in Kafka's words).
func (a *app) diffFailureLine(err error) string {
	var se *diff.SideError
	if !errors.As(err, &se) {
		return a.errorText(err)
	}
	prefix := fmt.Sprintf("%s %s: ", se.Side.Label, format.Escape(se.Side.Spec))
	var st *kafka.StatusError
	if errors.As(se.Err, &st) {
		if st.Status == topology.Error {
			return prefix + format.ErrorMessage(st.Group)
		}
		return prefix + format.NotStoredMessage(st.Group)
	}
	return prefix + a.errorText(se.Err)
}

// topologyReader reads the file sides of diff ("-": stdin) as render reads
// its input: within renderInput's limit, and so that the end of ctx (a
// signal) ends the reading.
func (a *app) topologyReader(ctx context.Context) func(file string) (*topology.Description, error) {
	return func(file string) (*topology.Description, error) {
		var data string
		var err error
		if file == diff.Stdin {
			data, err = renderInput.readStream(ctx, "stdin", a.io.In)
		} else {
			data, err = renderInput.readFile(ctx, "the file", file)
		}
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err // the side's message names the file already
			}
			return nil, fmt.Errorf("cannot read the topology description: %w", err)
		}
		return topoparse.ParseString(data)
	}
}
