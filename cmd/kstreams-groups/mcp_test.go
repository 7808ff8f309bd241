package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/buftest"
	"github.com/kstreams-groups/kstreams-groups/internal/mcp"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// auditSink is an audit sink the test reads while the server writes.
type auditSink struct{ buftest.Buffer }

func (l *auditSink) lines(t *testing.T) []map[string]any {
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(l.String()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &m), line)
		out = append(out, m)
	}
	return out
}

// mcpHarness is a playground, the MCP server of its cluster and the
// SDK's own client connected to it in memory.
type mcpHarness struct {
	cluster *playground.Cluster
	bs      string
	session *sdk.ClientSession
	audit   *auditSink
}

func newMCPHarness(t *testing.T, o mcpOptions) *mcpHarness {
	t.Helper()
	isolate(t)
	c, err := playground.StartStateWith(testPlayground, playground.DefaultState())
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	h := &mcpHarness{cluster: c, bs: bootstrap(c), audit: &auditSink{}}
	o.connection = []string{"--bootstrap-server=" + h.bs}
	a := &app{deps: deps{env: testEnv(t), undeclared: func(name string) {
		t.Errorf("a tool's verb read --%s, which its flag table does not declare", name)
	}}}
	s, err := a.newMCPServer(o, h.audit)
	require.NoError(t, err)
	st, ct := sdk.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := s.Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	h.session = cs
	return h
}

func (h *mcpHarness) call(t *testing.T, tool string, args map[string]any) (*sdk.CallToolResult, error) {
	t.Helper()
	return h.session.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: args})
}

// structured is a result's structured content as JSON values.
func structured(t *testing.T, res *sdk.CallToolResult) map[string]any {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	return m
}

func resultText(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// rpcCode is the JSON-RPC error code of a protocol error, 0 for none.
func rpcCode(err error) int64 {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return je.Code
	}
	return 0
}

func readToolNames() []string {
	var names []string
	for _, t := range mcpTools() {
		if !t.mutating && verbNamed(t.verb) != nil {
			names = append(names, t.name)
		}
	}
	return names
}

// Every verb is a tool, or says why not: a verb added to verbs() needs its
// line in mcpTools.
func TestMCPTools_everyVerb(t *testing.T) {
	t.Parallel()
	for _, vb := range verbs() {
		has := slices.ContainsFunc(mcpTools(), func(t mcpTool) bool { return t.verb == vb.name })
		why := mcpNoTool(vb.name) != ""
		assert.True(t, has || why, "verb %s has no MCP tool: add its line to mcpTools (or its reason to mcpNoTool)", vb.name)
	}
	for _, tool := range mcpTools() {
		vb := verbNamed(tool.verb)
		if vb == nil {
			continue // a verb of another branch
		}
		assert.NotEmpty(t, verbPaths()[vb.name], tool.name)
		for _, name := range tool.only {
			assert.True(t, slices.ContainsFunc(vb.flags, func(f flagDef) bool { return f.name == name }), "%s offers --%s, which %s does not declare", tool.name, name, vb.name)
		}
	}
}

// initialize, and tools/list: the read tools only by default, every tool
// with --allow-writes, each with the schema derived from its flag table.
func TestMCP_listTools(t *testing.T) {
	t.Parallel()
	var all []string
	for _, tool := range mcpTools() {
		if verbNamed(tool.verb) != nil {
			all = append(all, tool.name)
		}
	}
	for _, tc := range []struct {
		name  string
		o     mcpOptions
		tools []string
	}{
		{"default: no write listed", mcpOptions{}, readToolNames()},
		{"with --allow-writes: every tool", mcpOptions{allowWrites: true}, all},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newMCPHarness(t, tc.o)
			init := h.session.InitializeResult()
			require.NotNil(t, init)
			assert.Equal(t, "kstreams-groups", init.ServerInfo.Name)
			res, err := h.session.ListTools(context.Background(), nil)
			require.NoError(t, err)
			var names []string
			for _, tool := range res.Tools {
				names = append(names, tool.Name)
				assert.NotEmpty(t, tool.Description, tool.Name)
				schema, _ := json.Marshal(tool.InputSchema)
				mutating := !tool.Annotations.ReadOnlyHint
				assert.Equal(t, mutating, strings.Contains(string(schema), mcp.ApprovalArgument), "%s: %s", tool.Name, schema)
			}
			assert.ElementsMatch(t, tc.tools, names)
			overview := res.Tools[slices.IndexFunc(res.Tools, func(t *sdk.Tool) bool { return t.Name == "overview" })]
			schema, _ := json.Marshal(overview.InputSchema)
			var props struct {
				Properties map[string]struct {
					Type    string `json:"type"`
					Default any    `json:"default"`
				} `json:"properties"`
			}
			require.NoError(t, json.Unmarshal(schema, &props))
			for arg, typ := range map[string]string{"group": "array", "all-groups": "boolean", "time-lag": "boolean", "store": "string", "page": "integer"} {
				assert.Equal(t, typ, props.Properties[arg].Type, arg)
			}
			assert.Equal(t, true, props.Properties["time-lag"].Default)
			assert.NotContains(t, props.Properties, "watch")
		})
	}
}

// Each read tool answers the document its verb prints with -o json, the
// same bytes as the command (the same path: parse, Validate, Run,
// document), with a summary; invalid arguments are a tool error, never a
// protocol failure: those the schema refuses and those the verb refuses.
func TestMCP_everyTool(t *testing.T) {
	t.Parallel()
	h := newMCPHarness(t, mcpOptions{})
	topo := runWith(t, deps{}, "describe", "--topology", "--group", "word-count", "--bootstrap-server", h.bs)
	require.Equal(t, 0, topo.code, topo.stderr)
	valid := []struct {
		tool  string
		args  map[string]any
		cli   []string
		stdin string
	}{
		{"list", map[string]any{"state": true}, []string{"list", "--state"}, ""},
		{"describe", map[string]any{"group": []any{"page-views"}, "state": true}, []string{"describe", "--group", "page-views", "--state"}, ""},
		{"describe", map[string]any{"group": []any{"page-views"}, "members": true}, []string{"describe", "--group", "page-views", "--members"}, ""},
		{"describe", map[string]any{"group": []any{"page-views"}, "offsets": true}, []string{"describe", "--group", "page-views", "--offsets"}, ""},
		{"describe", map[string]any{"group": []any{"word-count"}, "topology": true}, []string{"describe", "--group", "word-count", "--topology"}, ""},
		{"overview", map[string]any{"group": []any{"page-views"}}, []string{"overview", "--group", "page-views"}, ""},
		{"overview", map[string]any{"group": []any{"page-views"}, "time-lag": false}, []string{"overview", "--group", "page-views", "--time-lag=false"}, ""},
		{"check", map[string]any{"group": []any{"page-views"}, "lag-warning": "100"}, []string{"check", "--group", "page-views", "--lag-warning", "100"}, ""},
		{"standby_coverage", map[string]any{"group": []any{"page-views"}}, []string{"check", "--group", "page-views", "--require-configured-standbys"}, ""},
		{"doctor", map[string]any{"group": []any{"inventory"}}, []string{"doctor", "--group", "inventory"}, ""},
		{"diff", map[string]any{"old": "group:word-count", "new_topology": topo.stdout}, []string{"diff", "group:word-count", "-"}, topo.stdout},
		{"diff", map[string]any{"old": "group:word-count", "new": "group:page-views"}, []string{"diff", "group:word-count", "group:page-views"}, ""},
		{"config", map[string]any{"group": []any{"page-views"}}, []string{"config", "--group", "page-views"}, ""},
		{"inventory", map[string]any{"orphans": true}, []string{"inventory", "--orphans"}, ""},
		{"history", map[string]any{"group": []any{"page-views"}}, []string{"history", "--group", "page-views"}, ""},
		{"upgrade_plan", map[string]any{"group": []any{"word-count"}, "new_topology": topo.stdout}, []string{"upgrade", "plan", "--group", "word-count", "-"}, topo.stdout},
		{"upgrade_verify", map[string]any{"group": []any{"word-count"}, "new_topology": topo.stdout}, []string{"upgrade", "verify", "--group", "word-count", "-"}, topo.stdout},
	}
	tested := map[string]bool{}
	for _, tc := range valid {
		tested[tc.tool] = true
		res, err := h.call(t, tc.tool, tc.args)
		require.NoError(t, err, tc.tool)
		cli := runWithStdin(t, tc.stdin, append(tc.cli, "-o", "json", "--bootstrap-server", h.bs)...)
		doc, err := json.Marshal(structured(t, res)["document"])
		require.NoError(t, err)
		assert.JSONEq(t, cli.stdout, string(doc), "%s %v", tc.tool, tc.args)
		tool := mcpTools()[slices.IndexFunc(mcpTools(), func(m mcpTool) bool { return m.name == tc.tool })]
		assert.Equal(t, cli.code != 0 && verbNamed(tool.verb).own == nil, res.IsError, "%s: %s", tc.tool, resultText(res))
		assert.True(t, strings.HasPrefix(resultText(res), tc.tool+": exit "), resultText(res))
	}
	assert.ElementsMatch(t, readToolNames(), slices.Sorted(func(yield func(string) bool) {
		for k := range tested {
			if !yield(k) {
				return
			}
		}
	}))

	invalid := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"list", map[string]any{"bogus": true}, "unexpected additional properties"},
		{"overview", map[string]any{"group": "page-views"}, "type"},
		{"check", map[string]any{"group": []any{1}}, "type"},
		{"diff", map[string]any{"old": "/etc/passwd", "new_topology": "x"}, "pattern"},
		{"list", map[string]any{"page": 0}, "minimum"},
		// The verb's own checks, in its words.
		{"overview", map[string]any{}, "group"},
		{"describe", map[string]any{"group": []any{"a"}, "all-groups": true}, "group"},
		{"check", map[string]any{"group": []any{"page-views"}, "lag-warning": "many"}, "lag-warning"},
		{"diff", map[string]any{"old": "group:word-count"}, "new_topology"},
		{"diff", map[string]any{"old": "group:word-count", "new": "group:page-views", "new_topology": "x"}, "not both"},
		// What would reach the server's files or send its credentials
		// elsewhere is not an argument.
		{"diff", map[string]any{"old": "group:word-count", "new": "group:x", "new-bootstrap-server": "evil:9092"}, "unexpected additional properties"},
		{"reset_offsets", map[string]any{"group": []any{"order-audit"}, "from-file": "/etc/passwd"}, "unexpected additional properties"},
	}
	for _, tc := range invalid {
		if tc.tool == "reset_offsets" {
			continue // a write: not listed here; TestMCP_concurrentCalls' server lists it
		}
		res, err := h.call(t, tc.tool, tc.args)
		require.NoError(t, err, "%s %v: a protocol failure", tc.tool, tc.args)
		assert.True(t, res.IsError, "%s %v: %s", tc.tool, tc.args, resultText(res))
		assert.Contains(t, resultText(res), tc.want, "%s %v", tc.tool, tc.args)
	}
}

// The answer stays within the budget: a document over it is paged over
// its largest list, each page within the budget, the summary says which
// page of how many, and the pages together are the document's list; a
// page past the last is a tool error. A document whose one item is over
// the budget is paged over its own largest list (internal/mcp's tests
// cut a document that has none).
func TestMCP_sizeBudget(t *testing.T) {
	t.Parallel()
	const budget = 1024
	h := newMCPHarness(t, mcpOptions{budget: budget})
	whole := runWith(t, deps{}, "describe", "--state", "--all-groups", "-o", "json", "--bootstrap-server", h.bs)
	require.Greater(t, len(whole.stdout), budget, "the document must need pages")
	var items []any
	for page := 1; ; page++ {
		res, err := h.call(t, "describe", map[string]any{"all-groups": true, "state": true, "page": page})
		require.NoError(t, err)
		require.False(t, res.IsError, resultText(res))
		s := structured(t, res)
		doc, _ := json.Marshal(s["document"])
		assert.LessOrEqual(t, len(doc), budget)
		info := s["page"].(map[string]any)
		assert.Contains(t, resultText(res), "page "+strconvI(page)+" of ")
		var d map[string]any
		require.NoError(t, json.Unmarshal(doc, &d))
		items = append(items, d["groups"].([]any)...)
		if int(info["page"].(float64)) == int(info["pages"].(float64)) {
			require.Greater(t, page, 1)
			res, err := h.call(t, "describe", map[string]any{"all-groups": true, "state": true, "page": page + 1})
			require.NoError(t, err)
			assert.True(t, res.IsError)
			assert.Contains(t, resultText(res), "past the last")
			break
		}
		assert.Contains(t, resultText(res), "page: "+strconvI(page+1))
	}
	var d map[string]any
	require.NoError(t, json.Unmarshal([]byte(whole.stdout), &d))
	want, _ := json.Marshal(d["groups"])
	got, _ := json.Marshal(items)
	assert.JSONEq(t, string(want), string(got), "the pages together are the whole list")

	// One group over the budget: its members are paged.
	res, err := h.call(t, "describe", map[string]any{"group": []any{"page-views"}, "members": true})
	require.NoError(t, err)
	s := structured(t, res)
	assert.Equal(t, "groups[0].members", s["page"].(map[string]any)["list"], resultText(res))
}

func strconvI(i int) string { b, _ := json.Marshal(i); return string(b) }

// committedOffsets reads order-audit's committed offsets through the
// command.
func committedOffsets(t *testing.T, bs string) string {
	t.Helper()
	r := runWith(t, deps{}, "reset-offsets", "--group", "order-audit", "--all-input-topics", "--to-current", "--dry-run", "-o", "json", "--bootstrap-server", bs)
	require.Equal(t, 0, r.code, r.stderr)
	return r.stdout
}

// A write is a dry run until called with the token of that dry run: the
// token is refused for other arguments and after the group changed (the
// committed offsets read back unchanged), and executes the plan it was
// given for.
func TestMCP_approval(t *testing.T) {
	t.Parallel()
	h := newMCPHarness(t, mcpOptions{allowWrites: true})
	earliest := map[string]any{"group": []any{"order-audit"}, "all-input-topics": true, "to-earliest": true}
	before := committedOffsets(t, h.bs)
	require.Contains(t, before, `"current_offset": 700`)

	dry, err := h.call(t, "reset_offsets", earliest)
	require.NoError(t, err)
	require.False(t, dry.IsError, resultText(dry))
	s := structured(t, dry)
	assert.Equal(t, true, s["dry_run"])
	token, _ := s[mcp.ApprovalArgument].(string)
	require.NotEmpty(t, token)
	assert.Contains(t, resultText(dry), "DRY RUN, nothing changed")
	assert.Equal(t, before, committedOffsets(t, h.bs), "a dry run changes nothing")
	// A delete's plan does not show the offsets: the state it was made
	// on does.
	delDry, err := h.call(t, "delete", map[string]any{"group": []any{"order-audit"}})
	require.NoError(t, err)
	delToken := structured(t, delDry)[mcp.ApprovalArgument].(string)

	// The token for other arguments.
	latest := map[string]any{"group": []any{"order-audit"}, "all-input-topics": true, "to-latest": true, mcp.ApprovalArgument: token}
	_, err = h.call(t, "reset_offsets", latest)
	assert.Equal(t, int64(mcp.CodeApprovalRequired), rpcCode(err), "%v", err)
	// For another tool, and a forged one.
	_, err = h.call(t, "delete", map[string]any{"group": []any{"order-audit"}, mcp.ApprovalArgument: token})
	assert.Equal(t, int64(mcp.CodeApprovalRequired), rpcCode(err), "%v", err)
	_, err = h.call(t, "reset_offsets", withArg(earliest, mcp.ApprovalArgument, token+"0"))
	assert.Equal(t, int64(mcp.CodeApprovalRequired), rpcCode(err), "%v", err)
	assert.Equal(t, before, committedOffsets(t, h.bs), "a refused token changes nothing")

	// The group changes (another reset, by the command): the token is
	// for the group as it was.
	r := runWith(t, deps{}, "reset-offsets", "--group", "order-audit", "--input-topic", "orders:0", "--to-offset", "5", "--execute", "--bootstrap-server", h.bs)
	require.Equal(t, 0, r.code, r.stderr)
	changed := committedOffsets(t, h.bs)
	require.NotEqual(t, before, changed)
	_, err = h.call(t, "reset_offsets", withArg(earliest, mcp.ApprovalArgument, token))
	assert.Equal(t, int64(mcp.CodeApprovalRequired), rpcCode(err), "%v", err)
	assert.Contains(t, err.Error(), "the group changed")
	_, err = h.call(t, "delete", map[string]any{"group": []any{"order-audit"}, mcp.ApprovalArgument: delToken})
	assert.Equal(t, int64(mcp.CodeApprovalRequired), rpcCode(err), "%v", err)
	assert.Equal(t, changed, committedOffsets(t, h.bs), "the refused calls changed nothing")

	// A new dry run, and its token executes it.
	dry, err = h.call(t, "reset_offsets", earliest)
	require.NoError(t, err)
	token = structured(t, dry)[mcp.ApprovalArgument].(string)
	done, err := h.call(t, "reset_offsets", withArg(earliest, mcp.ApprovalArgument, token))
	require.NoError(t, err)
	require.False(t, done.IsError, resultText(done))
	assert.Equal(t, false, structured(t, done)["dry_run"])
	after := committedOffsets(t, h.bs)
	assert.Contains(t, after, `"current_offset": 0`)
	assert.NotContains(t, after, `"current_offset": 700`)
}

func withArg(args map[string]any, k string, v any) map[string]any {
	out := map[string]any{k: v}
	for key, val := range args {
		out[key] = val
	}
	return out
}

// The guard's refusals are KIP-1318's protocol errors: a write without
// --allow-writes is POLICY_DENIED, a group out of --group-scope
// SCOPE_VIOLATION.
func TestMCP_policyAndScope(t *testing.T) {
	t.Parallel()
	h := newMCPHarness(t, mcpOptions{scopes: []string{"page-"}})
	_, err := h.call(t, "reset_offsets", map[string]any{"group": []any{"order-audit"}, "all-input-topics": true, "to-earliest": true})
	assert.Equal(t, int64(mcp.CodePolicyDenied), rpcCode(err), "%v", err)
	_, err = h.call(t, "overview", map[string]any{"group": []any{"word-count"}})
	assert.Equal(t, int64(mcp.CodeScopeViolation), rpcCode(err), "%v", err)
	_, err = h.call(t, "overview", map[string]any{"all-groups": true})
	assert.Equal(t, int64(mcp.CodeScopeViolation), rpcCode(err), "%v", err)
	_, err = h.call(t, "list", map[string]any{})
	assert.Equal(t, int64(mcp.CodeScopeViolation), rpcCode(err), "list answers for every group: %v", err)
	_, err = h.call(t, "diff", map[string]any{"old": "group:word-count", "new": "group:page-views"})
	assert.Equal(t, int64(mcp.CodeScopeViolation), rpcCode(err), "%v", err)
	res, err := h.call(t, "overview", map[string]any{"group": []any{"page-views"}})
	require.NoError(t, err)
	assert.False(t, res.IsError, resultText(res))
}

// Every call, read or write, refused or not, is one audit line: time,
// tool, arguments with secrets redacted, outcome.
func TestMCP_auditLog(t *testing.T) {
	t.Parallel()
	h := newMCPHarness(t, mcpOptions{allowWrites: true})
	_, err := h.call(t, "list", map[string]any{})
	require.NoError(t, err)
	_, err = h.call(t, "list", map[string]any{"bogus": 1})
	require.NoError(t, err)
	_, err = h.call(t, "config_set", map[string]any{"group": []any{"order-audit"}, "set": []any{"streams.num.standby.replicas=1", "sasl.jaas.config=hunter2"}})
	require.NoError(t, err)
	dry, err := h.call(t, "delete", map[string]any{"group": []any{"order-audit"}})
	require.NoError(t, err)
	token := structured(t, dry)[mcp.ApprovalArgument].(string)
	_, err = h.call(t, "delete", map[string]any{"group": []any{"order-audit"}, mcp.ApprovalArgument: token})
	require.NoError(t, err)
	_, err = h.call(t, "no_such_tool", map[string]any{"password": "x"})
	require.Error(t, err)

	lines := h.audit.lines(t)
	require.Len(t, lines, 6)
	last := lines[5]
	lines = lines[:5]
	assert.Equal(t, "no_such_tool", last["tool"])
	assert.Equal(t, "unknown_tool", last["outcome"])
	assert.Equal(t, map[string]any{"password": "[redacted]"}, last["arguments"])
	var outcomes, tools []string
	for _, l := range lines {
		assert.NotEmpty(t, l["time"])
		tools = append(tools, l["tool"].(string))
		outcomes = append(outcomes, l["outcome"].(string))
	}
	assert.Equal(t, []string{"list", "list", "config_set", "delete", "delete"}, tools)
	assert.Equal(t, "ok", outcomes[0])
	assert.Equal(t, "invalid_arguments", outcomes[1])
	// config_set's key is not a group config: the verb's usage error.
	assert.Equal(t, []string{"exit 2: Usage error", "dry_run", "executed"}, outcomes[2:])
	all, _ := json.Marshal(lines)
	assert.NotContains(t, string(all), "hunter2")
	assert.NotContains(t, string(all), token)
	assert.Contains(t, string(all), `"sasl.jaas.config=[redacted]"`)
	assert.Contains(t, string(all), `"streams.num.standby.replicas=1"`)
	assert.Equal(t, "[redacted]", lines[4]["arguments"].(map[string]any)[mcp.ApprovalArgument])
}

// The mcp command serves the protocol on stdin and stdout: a client's
// initialize, tools/list and a call, answered in order of their ids.
func TestMCPCommand_stdio(t *testing.T) {
	t.Parallel()
	isolate(t)
	c, err := playground.StartStateWith(testPlayground, playground.DefaultState())
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- testRun(t, []string{"mcp", "--bootstrap-server", bootstrap(c)}, IOStreams{In: inR, Out: outW, ErrOut: io.Discard}, deps{})
		_ = outW.Close()
	}()
	answers := bufio.NewScanner(outR)
	answers.Buffer(nil, 1<<20)
	send := func(msg string) map[string]any {
		_, err := io.WriteString(inW, msg+"\n")
		require.NoError(t, err)
		if !strings.Contains(msg, `"id"`) {
			return nil
		}
		require.True(t, answers.Scan())
		var m map[string]any
		require.NoError(t, json.Unmarshal(answers.Bytes(), &m))
		return m
	}
	init := send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	assert.Equal(t, "kstreams-groups", init["result"].(map[string]any)["serverInfo"].(map[string]any)["name"])
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	list := send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	assert.Len(t, list["result"].(map[string]any)["tools"], len(readToolNames()))
	call := send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list","arguments":{}}}`)
	assert.Contains(t, call["result"].(map[string]any)["structuredContent"], "document")
	require.NoError(t, inW.Close())
	assert.Equal(t, 0, <-done)
}

// A script writes its requests and closes stdin: every request read is
// answered before the session ends (the SDK's session alone cancels the
// calls still running at EOF).
func TestMCPCommand_stdinEnd(t *testing.T) {
	t.Parallel()
	isolate(t)
	c, err := playground.StartStateWith(testPlayground, playground.DefaultState())
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	requests := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"overview","arguments":{"group":["page-views"]}}}`,
		`{"jsonrpc":"2.0","id":"three","method":"tools/call","params":{"name":"check","arguments":{"all-groups":true}}}`,
	}, "\n") + "\n"
	r := runWithStdin(t, requests, "mcp", "--bootstrap-server", bootstrap(c))
	require.Equal(t, 0, r.code, r.stderr)
	var ids []string
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var m map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(line), &m), line)
		ids = append(ids, string(m["id"]))
		assert.NotContains(t, line, `"isError":true`, line)
	}
	assert.ElementsMatch(t, []string{`1`, `2`, `"three"`}, ids)
}

// Calls run side by side, each its own command line in the process: the
// answers are each call's own (run with -race).
func TestMCP_concurrentCalls(t *testing.T) {
	t.Parallel()
	h := newMCPHarness(t, mcpOptions{allowWrites: true})
	res, err := h.call(t, "reset_offsets", map[string]any{"group": []any{"order-audit"}, "from-file": "/etc/passwd"})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, resultText(res), "unexpected additional properties")
	groups := []string{"page-views", "word-count", "clicks", "billing", "inventory", "order-audit", "fraud-detector", "page-views"}
	var wg sync.WaitGroup
	for _, g := range groups {
		wg.Go(func() {
			res, err := h.call(t, "describe", map[string]any{"group": []any{g}, "state": true})
			if !assert.NoError(t, err) {
				return
			}
			assert.Contains(t, resultText(res), "1 group(s): "+g+" (", resultText(res))
		})
	}
	wg.Wait()
}

// Which codes of a verb with codes of its own are a tool error, read from
// its exit table: the usage error, UNKNOWN, a run that could not answer.
func TestMCPFailed_ownCodes(t *testing.T) {
	t.Parallel()
	for name, failed := range map[string][]int{"check": {3}, "doctor": {exitUsage, doctorUndiagnose}, "diff": {diffUnreadable}} {
		vb := verbNamed(name)
		for _, st := range vb.own.statuses {
			assert.Equal(t, slices.Contains(failed, st.Code), mcpFailed(vb, st.Code), "%s exit %d", name, st.Code)
		}
	}
}

// A request id written another way than the SDK writes it back (2.0 or
// 2.5 for 2, -0, a number past int64, an escaped string) is the same id: the session still ends at EOF
// once it is answered, not never.
func TestMCPCommand_stdinEndIDsSpelledOtherwise(t *testing.T) {
	t.Parallel()
	isolate(t)
	requests := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2.0,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":3e0,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"\u0061","method":"ping"}`,
		`{"jsonrpc":"2.0","id":4.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":-0,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":99999999999999999999,"method":"ping"}`,
	}, "\n") + "\n"
	done := make(chan result, 1)
	go func() { done <- runWithStdin(t, requests, "mcp", "--bootstrap-server", "127.0.0.1:1") }()
	select {
	case r := <-done:
		require.Equal(t, 0, r.code, r.stderr)
		assert.Equal(t, 7, strings.Count(r.stdout, "\n"), r.stdout)
	case <-time.After(30 * time.Second): // generous: the answers take milliseconds
		t.Fatal("mcp did not end at EOF with every request answered")
	}
}

// A secret redacted from an audit line's arguments is redacted from its
// detail too: a refusal quotes the value it refused (a KEY=VALUE where a
// list was wanted, a secret-named argument of the wrong type).
func TestMCP_auditLogDetailKeepsNoSecret(t *testing.T) {
	t.Parallel()
	h := newMCPHarness(t, mcpOptions{allowWrites: true})
	for _, args := range []map[string]any{
		{"group": "ssl.key.password=hunter4"},
		{"group": []any{"sasl.jaas.config=hunter5 x"}, "state": "password=hunter6"},
		{"group": []any{"g"}, "client_secret": "hunter7"},
	} {
		_, err := h.call(t, "describe", args)
		require.NoError(t, err)
	}
	lines := h.audit.lines(t)
	require.Len(t, lines, 3)
	all, _ := json.Marshal(lines)
	for _, s := range []string{"hunter4", "hunter5", "hunter6", "hunter7"} {
		assert.NotContains(t, string(all), s)
	}
	assert.Contains(t, lines[0]["detail"], "ssl.key.password=[redacted]")
}

// The summary beside the document is within the budget too: a group
// name of 100 KB (the verb's summary and its error line quote it) does
// not make an answer of 200 KB past --max-answer-bytes.
func TestMCP_sizeBudgetSummary(t *testing.T) {
	t.Parallel()
	const budget = 1024
	h := newMCPHarness(t, mcpOptions{budget: budget})
	res, err := h.call(t, "describe", map[string]any{"group": []any{strings.Repeat("g", 100_000)}})
	require.NoError(t, err)
	require.NotEmpty(t, res.Content)
	summary := res.Content[0].(*sdk.TextContent).Text
	assert.LessOrEqual(t, len(summary), budget+512, "the summary and the note that says it was cut")
	assert.Contains(t, summary, "cut to its first")
	for _, c := range res.Content[1:] {
		assert.LessOrEqual(t, len(c.(*sdk.TextContent).Text), 4*budget)
	}
}
