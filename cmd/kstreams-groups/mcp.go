package main

// The mcp command: `kstreams-groups mcp`, a Model Context Protocol server
// on stdio for a local assistant (internal/mcp, on the official Go SDK).
// Its tools are the verbs, declared here once each (mcpTools): a tool's
// arguments are its verb's options, from the verb's flag table; a call is
// the verb's own command line (the options as flags, -o json) run through
// the same path as the command (parse, Options.Validate, Run, the
// document), its answer the -o json document with a short summary.

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/kstreams-groups/kstreams-groups/internal/diff"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/mcp"
)

// mcpTool declares one tool: the verb it runs and how. Most are a verb
// with all its options; some are one use of a verb (standby_coverage is
// check's standby conditions, config_set config's changes).
type mcpTool struct {
	name, verb string
	// title and about are what tools/list shows: about says what the
	// answer's figures mean, for an assistant.
	title, about string
	// mutating marks a write: listed only with --allow-writes, a dry run
	// unless approved (internal/mcp).
	mutating bool
	// fixed are options always given; only, when set, are the verb's
	// options offered (else all but mcpNever).
	fixed, only []string
	// dryRun and execute are the options of a write's dry run and of its
	// execution; a write without a dry run of its own (delete-offsets)
	// shows the group's committed offsets as its plan.
	dryRun, execute []string
	// noDryRun marks such a write.
	noDryRun bool
	// sides are the verb's positional arguments, in order (diff's OLD
	// NEW, upgrade plan's NEW).
	sides []mcpSide
}

// mcpSide is one positional argument of a verb, given by one of two
// arguments of the tool: ref, a group (group:NAME), or text, a topology
// description given inline (the verb reads it from stdin, "-"). Never a
// path: a remote assistant must not reach the server's files.
type mcpSide struct {
	ref, text string
	help      string
	required  bool
}

// mcpTools are the tools, one line each; TestMCPTools_everyVerb fails for
// a verb that has none and no reason in mcpNoTool.
func mcpTools() []mcpTool {
	return []mcpTool{
		{name: "list", verb: "list", title: "List streams groups",
			about: "The streams groups of the cluster; with state, each group's state (Empty: no member; Stable: every member runs its assignment; Reconciling/Assigning: a rebalance is in progress; Dead: being removed)."},
		{name: "describe", verb: "describe", title: "Describe streams groups",
			about: "A group as kafka-streams-groups.sh --describe shows it, in one view: state (epochs, member count), members (their assigned and target tasks), offsets (per partition the committed offset, the log end and the lag, the records between them) or topology (the description the broker stored, KIP-1331)."},
		{name: "overview", verb: "overview", title: "Overview: topology, task owners, lag",
			about: "Who runs each task S_P (sub-topology S, partition P) with its standbys, whether it is moving, and its lag: records not yet processed (log end minus committed offset) and, with time_lag, the age of the oldest unprocessed record. Totals per sub-topology and group come first."},
		{name: "check", verb: "check", title: "Health check",
			about: "The group against thresholds, as a monitoring plugin: status OK, WARNING, CRITICAL or UNKNOWN, with the condition each group failed and its figures (lag in records, time lag in seconds, members, tasks moving)."},
		{name: "standby_coverage", verb: "check", title: "Standby coverage", fixed: []string{"--require-configured-standbys"},
			only:  []string{"group", "all-groups", "min-standbys", "standbys-critical"},
			about: "Whether every stateful task has the standby replicas the group is configured for (streams.num.standby.replicas) or min_standbys: a task with fewer has a cold restore ahead if its active instance fails. WARNING names the tasks short of standbys."},
		{name: "doctor", verb: "doctor", title: "Diagnose a group",
			about: "Why a topology description is not AVAILABLE or a group is unhealthy: each finding with its severity (ok, info, warning, problem) and a hint saying what to do."},
		{name: "diff", verb: "diff", title: "Upgrade safety: compare topologies",
			sides: []mcpSide{{ref: "old", help: "running side", required: true}, {ref: "new", text: "new_topology", help: "new side", required: true}},
			about: "What deploying a new topology would do to a running group's state: findings by severity (breaking: state or changelog lost, or the broker refuses the new topology for the group; warning; info), the changes per sub-topology, and whether the broker accepts it."},
		{name: "config", verb: "config", title: "Group configs", only: []string{"group", "all-groups", "dynamic"},
			about: "Each group config (standby replicas, session timeout, heartbeat interval, assignor) with its effective value and its source: DYNAMIC_GROUP_CONFIG is set on the group, STATIC_BROKER_CONFIG and DEFAULT_CONFIG come from the broker."},
		{name: "inventory", verb: "inventory", title: "Internal topics inventory", only: []string{"group", "all-groups", "orphans"},
			about: "The internal topics (changelogs, repartition topics) of each group with their size on disk, and the orphans: internal topics no live group declares, with the reason and their bytes."},
		// Verbs of other branches: a tool once the verb is in verbs().
		{name: "history", verb: "history", title: "Rebalance history",
			about: "Why the group rebalanced: each new group epoch, oldest first, with its time, its causes (a member joined, left or rejoined, the topology, partitions or configs changed, naming the member or keys), the tasks it moved between processes, and how long the members took to reach it."},
		{name: "upgrade_plan", verb: "plan", title: "Upgrade plan",
			sides: []mcpSide{{text: "new_topology", help: "topology to deploy", required: true}},
			about: "Whether the broker accepts a new topology for the group as is, and if not the migration it needs: the offsets to commit back, the stores kept or rebuilt, and what blocks it now (members, undrained repartition topics)."},
		{name: "upgrade_verify", verb: "verify", title: "Upgrade verify",
			sides: []mcpSide{{text: "new_topology", help: "topology deployed", required: true}},
			about: "Whether a migration went through once the new version started: the group running the new topology, the offsets committed back, and the old topics' offsets left stale."},
		{name: "reset_offsets", verb: "reset-offsets", title: "Reset committed offsets", mutating: true,
			dryRun: []string{"--dry-run"}, execute: []string{"--execute"},
			about: "Reset a stopped (Empty) group's committed offsets on its input topics: the plan lists per partition the offset it would commit. The group reprocesses (or skips) the records between."},
		{name: "delete_offsets", verb: "delete-offsets", title: "Delete committed offsets", mutating: true, noDryRun: true,
			about: "Delete an Empty group's committed offsets of input topics: it then starts them from its auto.offset.reset position. Its dry run shows the group's committed offsets now."},
		{name: "delete", verb: "delete", title: "Delete streams groups", mutating: true, dryRun: []string{"--dry-run"},
			about: "Delete Empty streams groups (their committed offsets and topology), optionally their internal topics: the plan says which groups would be deleted."},
		{name: "config_set", verb: "config", title: "Change group configs", mutating: true,
			only: []string{"group", "set", "delete-config"}, dryRun: []string{"--dry-run"}, execute: []string{"--execute"},
			about: "Set (KEY=VALUE) or remove group configs such as streams.num.standby.replicas; the dry run has the broker validate the change against its bounds."},
		{name: "inventory_cleanup", verb: "inventory", title: "Delete orphaned internal topics", mutating: true,
			fixed: []string{"--orphans", "--delete"}, only: []string{"group", "all-groups", "configs", "min-age"},
			dryRun: []string{"--dry-run"}, execute: []string{"--execute"},
			about: "Delete the orphaned internal topics (no live group declares them) older than min_age, each re-checked just before: the plan lists them with their bytes."},
	}
}

// mcpNever are the options no tool offers: the watch (a call answers
// once), the dry run and execution (the approval decides), those that
// read or write a local file (a remote assistant must not reach the
// server's files), diff's cluster of its own (the server's credentials
// would go to a host the assistant names), and those that print only
// another format.
var mcpNever = []string{"watch", "interval", "count", "dry-run", "execute", "export", "from-file",
	"new-bootstrap-server", "new-command-config", "partition-metrics", "verbose"}

// mcpFailed reports whether a verb with codes of its own failed (a tool
// error) with code: its usage error, check's UNKNOWN, a run that could
// not answer, as its exit table says them; its other codes are answers
// (check's WARNING, diff's breaking changes).
func mcpFailed(vb *verb, code int) bool {
	for _, st := range vb.own.statuses {
		if st.Code == code {
			m := st.Meaning
			return strings.HasPrefix(m, "Usage error") || strings.HasPrefix(m, "UNKNOWN") || strings.Contains(m, "could not be")
		}
	}
	return true
}

// verbPaths are the subcommand words of each verb, from the command tree:
// a verb under a parent command is run as "upgrade plan".
// (A function over a sync.Once: the tree's commands reach this one.)
func verbPaths() map[string][]string {
	builtPaths.once.Do(func() {
		builtPaths.paths = map[string][]string{}
		cmds := (&app{}).newRootCmd().Commands()
		for len(cmds) > 0 {
			c := cmds[0]
			cmds = append(cmds[1:], c.Commands()...)
			if _, seen := builtPaths.paths[c.Name()]; !seen && verbNamed(c.Name()) != nil {
				builtPaths.paths[c.Name()] = strings.Fields(c.CommandPath())[1:]
			}
		}
	})
	return builtPaths.paths
}

var builtPaths struct {
	once  sync.Once
	paths map[string][]string
}

// verbNamed is the declaration of the verb name.
func verbNamed(name string) *verb {
	for _, vb := range verbs() {
		if vb.name == name {
			return vb
		}
	}
	return nil
}

// offered are the verb's options the tool takes, in its table's order.
func (t mcpTool) offered(vb *verb) []flagDef {
	var out []flagDef
	for _, f := range vb.flags {
		if slices.Contains(mcpNever, f.name) || t.only != nil && !slices.Contains(t.only, f.name) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// schema is the tool's arguments: each option offered, typed by its kind,
// described by its help.
func (t mcpTool) schema(vb *verb) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}, AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}}
	for _, f := range t.offered(vb) {
		p := &jsonschema.Schema{Description: flagHelpText(f)}
		switch f.kind {
		case boolFlag:
			p.Type = "boolean"
			if f.on {
				p.Default = json.RawMessage("true")
			}
		case stringsFlag:
			p.Type, p.Items = "array", &jsonschema.Schema{Type: "string"}
		case optionalFlag:
			p.Types = []string{"boolean", "string"}
			p.Description += " true gives the option without a value."
		case stringFlag:
			p.Type = "string"
		}
		s.Properties[f.name] = p
	}
	for _, side := range t.sides {
		if side.ref != "" {
			s.Properties[side.ref] = &jsonschema.Schema{Type: "string", Pattern: "^" + diff.GroupPrefix + ".+",
				Description: "The " + side.help + " as a streams group: group:NAME, the topology description the broker stored for it."}
			if side.text == "" && side.required {
				s.Required = append(s.Required, side.ref)
			}
		}
		if side.text != "" {
			s.Properties[side.text] = &jsonschema.Schema{Type: "string",
				Description: "The " + side.help + " as text: a Topology#describe() output, the text of describe --topology, or our JSON/YAML."}
		}
	}
	return s
}

// flagHelpText is an option's help as a sentence, without pflag's `NAME`
// quotes.
func flagHelpText(f flagDef) string {
	return strings.ReplaceAll(cmp.Or(f.help, f.kafkaHelp), "`", "")
}

// argv is the verb's command line for the arguments (mode: the dry run's
// or the execution's options), and the text diff reads from stdin.
func (t mcpTool) argv(vb *verb, args map[string]any, mode, connection []string) ([]string, string, error) {
	line := slices.Clone(verbPaths()[vb.name])
	line = append(line, t.fixed...)
	for _, f := range t.offered(vb) {
		v, ok := args[f.name]
		if !ok {
			continue
		}
		switch f.kind {
		case boolFlag:
			if b, _ := v.(bool); b != f.on {
				line = append(line, "--"+f.name+"="+strconv.FormatBool(b))
			}
		case stringsFlag:
			for _, s := range v.([]any) {
				line = append(line, "--"+f.name+"="+s.(string))
			}
		case optionalFlag:
			switch v := v.(type) {
			case bool:
				if v {
					line = append(line, "--"+f.name+"="+optionalNoValue)
				}
			case string:
				line = append(line, "--"+f.name+"="+v)
			}
		case stringFlag:
			line = append(line, "--"+f.name+"="+v.(string))
		}
	}
	line = append(line, mode...)
	line = append(line, "--output=json", "--detailed-exit-codes")
	line = append(line, connection...)
	if len(t.sides) == 0 {
		return line, "", nil
	}
	line = append(line, "--")
	stdin := ""
	for _, side := range t.sides {
		ref, hasRef := args[side.ref].(string)
		text, hasText := args[side.text].(string)
		switch {
		case hasRef && hasText:
			return nil, "", fmt.Errorf("give %s or %s, not both", side.ref, side.text)
		case hasRef:
			line = append(line, ref)
		case hasText:
			line, stdin = append(line, diff.Stdin), text
		case side.required:
			return nil, "", fmt.Errorf("give %s", joinList(quoteAll(slices.DeleteFunc([]string{side.ref, side.text}, func(s string) bool { return s == "" })), "or"))
		}
	}
	return line, stdin, nil
}

// mcpOptions are the mcp command's options.
type mcpOptions struct {
	allowWrites bool
	auditLog    string
	budget      int
	scopes      []string
	// connection are the root options of the cluster, given to each
	// verb's command line (--bootstrap-server, --command-config, ...).
	connection []string
}

var mcpFlag = struct {
	allowWrites boolOpt
	auditLog    stringOpt
	budget      intOpt
	scope       stringsOpt
}{
	allowWrites: boolOption(flagDef{name: "allow-writes",
		help: "List the tools that change the cluster (reset_offsets, delete_offsets, delete, config_set, inventory_cleanup); each is still a dry run until called again with the approval token of its dry run."}),
	auditLog: stringOption(flagDef{name: "audit-log",
		help: "Append one JSON line per tool call (time, tool, arguments with secrets redacted, outcome) to `FILE`."}),
	budget: intOption(flagDef{name: "max-answer-bytes",
		help: "At most `N` bytes of a document in one answer (default 65536); a larger one is paged or cut, and the answer says so."},
		1024, "--max-answer-bytes: want a whole number of at least 1024, got %q"),
	scope: stringsOption(flagDef{name: "group-scope",
		help: "Answer only for the streams groups whose names start with `PREFIX` (repeatable); a call naming another group, asking for every group or naming none is refused."}),
}

func (a *app) mcpCommand() *command {
	return &command{
		name:  "mcp",
		short: "Serve the verbs as Model Context Protocol tools on stdio, for an AI assistant",
		long: `Serve a Model Context Protocol server on stdin and stdout, for an assistant
that runs it as a local command (Claude Desktop or Code, VS Code, Cursor):
docs/mcp.md has their configurations. Its tools are the read verbs (list,
describe, overview, check, standby_coverage, doctor, diff, config,
inventory), each taking the verb's options as arguments and answering its
-o json document with a short summary, within a size budget
(--max-answer-bytes: a larger document is paged, or cut, and the answer says
so). The cluster is the one of --bootstrap-server, --command-config,
--profile or the environment, as for every command.

Nothing can change the cluster unless --allow-writes lists the writes
(reset_offsets, delete_offsets, delete, config_set, inventory_cleanup), and
even then each call is a dry run, which returns its plan and an approval
token; only the same call with that token (_approval_token) executes, and
only while the group is as the dry run saw it. --audit-log FILE records
every call. stdout carries the protocol only; nothing is printed. It ends
when stdin does, once every request read is answered.`,
		// stdout carries the protocol only.
		outputs: []outputRule{{formats: []format.Output{format.Text}}},
		exits:   []int{exitOK, exitFailure, exitUsage, exitSIGINT, exitSIGTERM},
		flags:   table(mcpFlag.allowWrites, mcpFlag.auditLog, mcpFlag.budget, mcpFlag.scope),
		example: `  # The tools an assistant gets, asked from a script (one JSON-RPC message a line)
  printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}' \
    '{"jsonrpc":"2.0","method":"notifications/initialized"}' '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' | kstreams-groups mcp > tools.jsonl

  # The command an assistant runs: writes listed (each approved by its dry run's token), every call audited
  kstreams-groups mcp --bootstrap-server localhost:9092 --allow-writes --audit-log audit.jsonl`,
		run: func(cmd *cobra.Command, _ []string) error {
			o, err := mcpOptionsOf(a.flagValues(cmd, nil))
			if err != nil {
				return err
			}
			o.connection = connectionArgs(cmd)
			return a.serveMCP(cmd.Context(), o)
		},
	}
}

func mcpOptionsOf(v flagValues) (mcpOptions, error) {
	o := mcpOptions{allowWrites: mcpFlag.allowWrites.get(v), auditLog: mcpFlag.auditLog.get(v), scopes: mcpFlag.scope.get(v)}
	var err error
	if o.budget, _, err = mcpFlag.budget.value(v); err != nil {
		return o, &usageError{err: err}
	}
	return o, nil
}

// connectionArgs are the root's options of the cluster given on the
// command line, for each verb's command line (the environment and the
// config file are read by each run as by the command).
func connectionArgs(cmd *cobra.Command) []string {
	var out []string
	for _, name := range []string{"bootstrap-server", "command-config", "timeout", "config", "profile"} {
		if f := cmd.Flags().Lookup(name); f != nil && f.Changed {
			out = append(out, "--"+name+"="+f.Value.String())
		}
	}
	return out
}

// openAuditLog opens --audit-log FILE for mcp and serve --mcp alike:
// appending, 0600, and non-blocking, since a FIFO no process reads would
// hold the open and a reader that stalls every call (each write has a
// deadline, internal/mcp's auditLog). One *os.File is safe for the
// clusters' servers of serve to write at once: each line is one Write.
func openAuditLog(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NONBLOCK, 0o600)
	if errors.Is(err, syscall.ENXIO) {
		return nil, usageErrorf("--audit-log: %s is a FIFO no process reads", path)
	}
	if err != nil {
		return nil, usageErrorf("--audit-log: %v", err)
	}
	return f, nil
}

// serveMCP serves the tools on stdin and stdout until stdin ends or ctx
// does.
func (a *app) serveMCP(ctx context.Context, o mcpOptions) error {
	var audit io.Writer
	if o.auditLog != "" {
		f, err := openAuditLog(o.auditLog)
		if err != nil {
			return err
		}
		defer f.Close()
		audit = f
	}
	s, err := a.newMCPServer(o, audit)
	if err != nil {
		return err
	}
	track := newAnswered(ctx)
	err = s.Run(ctx, &sdk.IOTransport{Reader: io.NopCloser(&drainReader{r: a.io.In, a: track}), Writer: &drainWriter{w: a.io.Out, a: track}})
	if errors.Is(err, io.EOF) || ctx.Err() == nil && err != nil && strings.Contains(err.Error(), "EOF") {
		return nil // the client closed stdin: the session ended
	}
	return err
}

// newMCPServer is the MCP server of the tools, its verbs run with a.deps
// (a cluster client built per call) and o's connection options
// (connectionArgs of the command that serves it): stdio's here; over
// HTTP, sdk.NewStreamableHTTPHandler serves the same value, and
// resources are added to it with AddResource.
func (a *app) newMCPServer(o mcpOptions, audit io.Writer) (*sdk.Server, error) {
	var tools []mcp.Tool
	for _, t := range mcpTools() {
		if verbNamed(t.verb) == nil {
			continue // a verb of another branch, not here yet
		}
		tools = append(tools, a.mcpToolOf(t, o.connection))
	}
	s, err := mcp.New(mcp.Config{
		Name: "kstreams-groups", Version: resolveVersion().Version,
		Instructions: "Tools to inspect Kafka Streams groups (KIP-1071): start with list, then overview or check for a group; doctor explains what is wrong. Writes, when listed, are dry runs until called again with the approval token their dry run returned: show the plan to the person first.",
		Tools:        tools, AllowWrites: o.allowWrites, Audit: audit, Budget: o.budget, Scopes: o.scopes,
	})
	if err != nil {
		return nil, err
	}
	a.addMCPResources(s, o, audit) // mcpserve.go
	return s, nil
}

// mcpToolOf is the tool t runs through the verb's command line.
func (a *app) mcpToolOf(t mcpTool, connection []string) mcp.Tool {
	vb := verbNamed(t.verb)
	tool := mcp.Tool{Name: t.name, Title: t.title, Description: t.about, Input: t.schema(vb), Mutating: t.mutating,
		GroupArguments: []string{"group"}, AllGroupsArguments: []string{"all-groups"}}
	if len(t.sides) > 0 {
		tool.GroupArguments, tool.GroupPrefix = nil, diff.GroupPrefix
		for _, side := range t.sides {
			if side.ref != "" {
				tool.GroupArguments = append(tool.GroupArguments, side.ref)
			}
		}
		if slices.ContainsFunc(vb.flags, func(f flagDef) bool { return f.name == "group" }) {
			tool.GroupArguments = append(tool.GroupArguments, "group")
		}
	}
	tool.Call = func(ctx context.Context, args map[string]any, execute bool) (mcp.Answer, error) {
		if t.mutating && !execute && t.noDryRun {
			return a.mcpPlanWithoutDryRun(ctx, t, args, connection), nil
		}
		mode := t.dryRun
		if execute {
			mode = t.execute
		}
		line, stdin, err := t.argv(vb, args, mode, connection)
		if err != nil {
			return mcp.Answer{Failed: true, Summary: err.Error(), Outcome: "usage"}, nil
		}
		return a.mcpRun(ctx, t, vb, line, stdin), nil
	}
	if t.mutating {
		tool.State = func(ctx context.Context, args map[string]any) (string, error) {
			return a.mcpGroupState(ctx, args, connection)
		}
	}
	return tool
}

// mcpRun runs one command line of the verb in this process, as the
// command runs it, and makes its answer.
func (a *app) mcpRun(ctx context.Context, t mcpTool, vb *verb, line []string, stdin string) mcp.Answer {
	code, stdout, stderr := a.runLine(ctx, line, stdin)
	doc := jsonDoc(stdout)
	failed := doc == nil || vb.own == nil && code != exitOK || vb.own != nil && mcpFailed(vb, code)
	ans := mcp.Answer{Document: doc, Failed: failed, Outcome: outcomeName(vb, code),
		Summary: mcpSummary(t, vb, code, doc, stderr)}
	if t.mutating {
		ans.Plan = stablePlan(doc)
	}
	return ans
}

// runLine runs a command line in this process with captured streams.
func (a *app) runLine(ctx context.Context, line []string, stdin string) (int, []byte, string) {
	var out, errOut bytes.Buffer
	d := a.deps
	d.signals = nil
	code := runContext(ctx, line, IOStreams{In: strings.NewReader(stdin), Out: &out, ErrOut: &errOut}, d)
	return code, out.Bytes(), errOut.String()
}

// jsonDoc is the JSON document a command line printed, nil for none.
func jsonDoc(stdout []byte) []byte {
	if doc := bytes.TrimSpace(stdout); len(doc) > 0 && json.Valid(doc) {
		return doc
	}
	return nil
}

// outcomeName is how the verb ended, for the audit log: ok, or the exit
// code and the first words of its meaning.
func outcomeName(vb *verb, code int) string {
	if code == exitOK {
		return "ok"
	}
	return "exit " + strconv.Itoa(code) + ": " + exitMeaning(vb, code)
}

// exitMeaning is the first clause of the meaning of the verb's exit code.
func exitMeaning(vb *verb, code int) string {
	statuses := exitStatuses
	if vb.own != nil {
		statuses = vb.own.statuses
	}
	for _, s := range statuses {
		if s.Code == code {
			m := s.Meaning
			if i := strings.IndexAny(m, ".;:("); i > 0 {
				m = m[:i]
			}
			return strings.TrimSpace(m)
		}
	}
	return "unknown"
}

// mcpSummary is the text beside the document: how the verb ended, each
// group's state or status, and what it said on stderr (escaped, bounded).
func mcpSummary(t mcpTool, vb *verb, code int, doc []byte, stderr string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: exit %d (%s).", t.name, code, exitMeaning(vb, code))
	if line := groupsLine(doc); line != "" {
		b.WriteString(" " + line)
	}
	if s := strings.TrimSpace(stderr); s != "" {
		const most = 2000
		s = format.EscapeMessage(s)
		if len(s) > most {
			s = s[:most] + " [cut]"
		}
		b.WriteString("\n" + s)
	}
	return b.String()
}

// groupsLine names the groups of a document with what each is: its state,
// status, result or error.
func groupsLine(doc []byte) string {
	var d map[string]any
	if json.Unmarshal(doc, &d) != nil {
		return ""
	}
	groups, _ := d["groups"].([]any)
	var parts []string
	for i, e := range groups {
		if i == 10 {
			parts = append(parts, fmt.Sprintf("and %d more", len(groups)-10))
			break
		}
		g, _ := e.(map[string]any)
		name, _ := g["group"].(string)
		var what []string
		for _, k := range []string{"state", "status", "result", "outcome"} {
			if s, ok := g[k].(string); ok {
				what = append(what, s)
			}
		}
		if e, ok := g["error"].(map[string]any); ok {
			if n, ok := e["name"].(string); ok {
				what = append(what, n)
			}
		}
		parts = append(parts, format.Escape(name)+" ("+format.Escape(strings.Join(what, ", "))+")")
	}
	line := ""
	if s, ok := d["status"].(string); ok {
		line = "Status " + format.Escape(s) + ". "
	}
	if len(parts) > 0 {
		line += fmt.Sprintf("%d group(s): %s.", len(groups), strings.Join(parts, ", "))
	}
	return strings.TrimSpace(line)
}

// volatileKeys are the figures of a document that move while nothing
// changes for a write (the log end as producers append, the lag, the time
// of the reading): left out of what an approval binds, so that a token
// approves the plan, not the moment.
var volatileKeys = []string{"at", "lag", "log_end_offset", "log_start_offset", "time_lag", "time_lag_seconds"}

// stablePlan is a document without its volatile figures.
func stablePlan(doc []byte) []byte {
	if doc == nil {
		return nil
	}
	var v any
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	if d.Decode(&v) != nil {
		return doc
	}
	b, _ := json.Marshal(withoutVolatile(v))
	return b
}

func withoutVolatile(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if slices.Contains(volatileKeys, k) || strings.HasSuffix(k, "_lag") {
				delete(x, k)
				continue
			}
			x[k] = withoutVolatile(e)
		}
	case []any:
		for i, e := range x {
			x[i] = withoutVolatile(e)
		}
	}
	return v
}

// mcpGroupState is what an approval binds beside the plan: for the
// groups the arguments name (or every group), their state, epochs and
// member count (describe --state) and their committed offsets
// (reset-offsets --to-current --dry-run: the offsets view shows only
// members' partitions, none of an Empty group's); for a write that names
// no group, the state of every group (list --state).
func (a *app) mcpGroupState(ctx context.Context, args map[string]any, connection []string) (string, error) {
	which := groupOptions(args)
	if all, _ := args["all-groups"].(bool); all && len(which) == 0 {
		which = []string{"--all-groups"}
	}
	lines := [][]string{{"list", "--state=" + optionalNoValue}}
	if len(which) > 0 {
		lines = [][]string{append([]string{"describe", "--state=" + optionalNoValue}, which...), committedOffsetsLine(which)}
	}
	var b strings.Builder
	for _, line := range lines {
		code, stdout, stderr := a.runLine(ctx, append(append(line, "--output=json"), connection...), "")
		if err := ctx.Err(); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "%d\n%s\n%s\n", code, stablePlan(bytes.TrimSpace(stdout)), stderr)
	}
	return b.String(), nil
}

// committedOffsetsLine reads the committed offsets of the groups which
// names, changing nothing.
func committedOffsetsLine(which []string) []string {
	return append([]string{"reset-offsets", "--all-input-topics", "--to-current", "--dry-run"}, which...)
}

// mcpPlanWithoutDryRun is the dry run of a write whose verb has none
// (delete-offsets): the group's committed offsets now, and what the
// approved call would do.
func (a *app) mcpPlanWithoutDryRun(ctx context.Context, t mcpTool, args map[string]any, connection []string) mcp.Answer {
	vb := verbNamed(t.verb)
	// The verb's own parse and checks first, stopped before it runs: its
	// usage error is the dry run's answer.
	line, stdin, err := t.argv(vb, args, nil, connection)
	if err != nil {
		return mcp.Answer{Failed: true, Summary: err.Error(), Outcome: "usage"}
	}
	d := a.deps
	d.signals, d.runF = nil, func(string, any) error { return nil }
	var errOut bytes.Buffer
	if code := runContext(ctx, line, IOStreams{In: strings.NewReader(stdin), Out: io.Discard, ErrOut: &errOut}, d); code != exitOK {
		return mcp.Answer{Failed: true, Outcome: outcomeName(vb, code), Summary: mcpSummary(t, vb, code, nil, errOut.String())}
	}
	line = append(committedOffsetsLine(groupOptions(args)), "--output=json", "--detailed-exit-codes")
	code, stdout, stderr := a.runLine(ctx, append(line, connection...), "")
	doc := jsonDoc(stdout)
	if doc == nil {
		return mcp.Answer{Failed: true, Outcome: outcomeName(vb, code), Summary: format.EscapeMessage(stderr)}
	}
	plan, _ := json.Marshal(map[string]any{"verb": vb.name, "arguments": args, "offsets_now": json.RawMessage(doc)})
	return mcp.Answer{Document: plan, Plan: stablePlan(plan), Failed: code != exitOK, Outcome: outcomeName(vb, code),
		Summary: t.name + " has no dry run of its own: this is the group's committed offsets now (offsets_now); the approved call deletes those of the input topics given." +
			" " + groupsLine(doc)}
}

// groupOptions are the --group options of the groups the arguments name.
func groupOptions(args map[string]any) []string {
	var out []string
	l, _ := args["group"].([]any)
	for _, e := range l {
		if s, ok := e.(string); ok {
			out = append(out, "--group="+s)
		}
	}
	return out
}
