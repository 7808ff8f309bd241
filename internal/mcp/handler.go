package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// handler is one registered tool: its declaration, the resolved schema its
// arguments are checked against, and what every call shares.
type handler struct {
	tool     Tool
	schema   *jsonschema.Schema
	resolved *jsonschema.Resolved
	guard    *guard
	audit    *auditLog
	budget   int
}

func newHandler(t Tool, g *guard, audit *auditLog, budget int) (*handler, error) {
	if t.Input == nil || t.Input.Type != "object" {
		return nil, errors.New("the input schema must be an object")
	}
	if t.Mutating && t.State == nil {
		return nil, errors.New("a mutating tool needs its State")
	}
	schema := t.Input.CloneSchemas()
	if t.Mutating {
		if schema.Properties == nil {
			schema.Properties = map[string]*jsonschema.Schema{}
		}
		schema.Properties[ApprovalArgument] = &jsonschema.Schema{Type: "string",
			Description: "The approval token that this tool's dry run returned for the same arguments. Without it the call is a dry run: it changes nothing and returns the plan and its token."}
	}
	schema.Properties = withPageArguments(schema.Properties)
	resolved, err := schema.Resolve(nil)
	if err != nil {
		return nil, err
	}
	return &handler{tool: t, schema: schema, resolved: resolved, guard: g, audit: audit, budget: budget}, nil
}

// declaration is the tool as tools/list shows it.
func (h *handler) declaration() *sdk.Tool {
	t := &sdk.Tool{Name: h.tool.Name, Title: h.tool.Title, Description: h.tool.Description, InputSchema: h.schema}
	readOnly := !h.tool.Mutating
	t.Annotations = &sdk.ToolAnnotations{Title: h.tool.Title, ReadOnlyHint: readOnly, OpenWorldHint: new(false)}
	if h.tool.Mutating {
		t.Annotations.DestructiveHint = new(true)
	}
	return t
}

// handle is the SDK's handler of a call: the arguments decoded and
// checked, the guard, the call, the answer cut to the budget, the audit
// line. A refusal of the arguments or a failed verb is a tool error
// (isError) the assistant reads; only the guard's refusals are protocol
// errors, with the codes of KIP-1318's reference server (guard.go).
func (h *handler) handle(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	var raw json.RawMessage
	if req.Params != nil {
		raw = req.Params.Arguments
	}
	args, err := h.arguments(raw)
	if err != nil {
		h.audit.record(h.tool.Name, redactArgs(rawArgs(raw)), outcomeInvalid, redactDetail(err.Error(), rawArgs(raw)))
		return invalidResult(err), nil
	}
	page, args := pageOf(args)
	res, outcome, err := h.call(ctx, args, page)
	detail := ""
	if err != nil {
		detail = redactDetail(err.Error(), args)
	}
	h.audit.record(h.tool.Name, redactArgs(args), outcome, detail)
	return res, err
}

// arguments decodes and checks the call's arguments against the tool's
// schema: an argument it does not declare, a wrong type or a value out of
// its range is refused here, before the verb sees it.
func (h *handler) arguments(raw json.RawMessage) (map[string]any, error) {
	args := map[string]any{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &args); err != nil {
			return nil, fmt.Errorf("the arguments are not a JSON object: %w", err)
		}
	}
	if err := h.resolved.Validate(args); err != nil {
		return nil, fmt.Errorf("invalid arguments: %w", err)
	}
	return args, nil
}

// call runs a read tool, or a mutating tool's dry run or approved
// execution, and says how it ended for the audit log.
func (h *handler) call(ctx context.Context, args map[string]any, page int) (*sdk.CallToolResult, string, error) {
	if err := h.guard.scope(h.tool, args); err != nil {
		return nil, outcomeOf(err), err
	}
	if !h.tool.Mutating {
		a, err := h.tool.Call(ctx, args, false)
		if err != nil {
			return nil, outcomeError, err
		}
		return h.result(a, page, nil), a.outcome(), nil
	}
	token, _ := args[ApprovalArgument].(string)
	plain := maps.Clone(args)
	delete(plain, ApprovalArgument)
	if token == "" {
		return h.dryRun(ctx, plain, page)
	}
	return h.execute(ctx, plain, token, page)
}

// dryRun runs the verb without changing anything and returns its plan with
// the token that approves exactly this plan on this state.
func (h *handler) dryRun(ctx context.Context, args map[string]any, page int) (*sdk.CallToolResult, string, error) {
	state, err := h.tool.State(ctx, args)
	if err != nil {
		return nil, outcomeError, err
	}
	a, err := h.tool.Call(ctx, args, false)
	if err != nil {
		return nil, outcomeError, err
	}
	if a.Failed {
		return h.result(a, page, nil), a.outcome(), nil
	}
	token := h.guard.mint(h.tool.Name, args, a.plan(), state)
	a.Summary = "DRY RUN, nothing changed. " + a.Summary +
		"\nTo apply exactly this plan, call " + h.tool.Name + " again with the same arguments and " +
		ApprovalArgument + " set to the token below, after the person you act for approved it. The token expires in " +
		tokenTTL.String() + " and is refused if the group changed meanwhile."
	return h.result(a, page, map[string]any{"dry_run": true, ApprovalArgument: token}), outcomeDryRun, nil
}

// execute checks the token against the plan and state read now and, when
// they are the ones approved, runs the verb for real.
func (h *handler) execute(ctx context.Context, args map[string]any, token string, page int) (*sdk.CallToolResult, string, error) {
	state, err := h.tool.State(ctx, args)
	if err != nil {
		return nil, outcomeError, err
	}
	plan, err := h.tool.Call(ctx, args, false)
	if err != nil {
		return nil, outcomeError, err
	}
	if err := h.guard.verify(token, h.tool.Name, args, plan.plan(), state); err != nil {
		return nil, outcomeOf(err), err
	}
	a, err := h.tool.Call(ctx, args, true)
	if err != nil {
		return nil, outcomeError, err
	}
	outcome := outcomeExecuted
	if a.Failed {
		outcome = a.outcome()
	}
	return h.result(a, page, map[string]any{"dry_run": false}), outcome, nil
}

// result is the answer as the assistant gets it: the summary as text, the
// document (within the budget) as structured content, isError when the
// verb failed; extra fields are added beside the document.
func (h *handler) result(a Answer, page int, extra map[string]any) *sdk.CallToolResult {
	p, err := cut(a.Document, h.budget, page)
	if err != nil {
		return invalidResult(err)
	}
	summary := boundedSummary(a.Summary, h.budget)
	if p.note != "" {
		summary += "\n" + p.note
	}
	structured := map[string]any{}
	if p.doc != nil {
		structured["document"] = p.doc
	}
	maps.Copy(structured, p.extra)
	maps.Copy(structured, extra)
	if token, ok := extra[ApprovalArgument].(string); ok {
		summary += "\n" + ApprovalArgument + ": " + token
	}
	content := []sdk.Content{&sdk.TextContent{Text: summary}}
	// The structured content again as JSON text, as MCP asks of a tool
	// with structured output for the clients that read only the content
	// (the SDK's typed tools do the same).
	if b, err := json.Marshal(structured); err == nil && len(structured) > 0 {
		content = append(content, &sdk.TextContent{Text: string(b)})
	}
	return &sdk.CallToolResult{Content: content, StructuredContent: structured, IsError: a.Failed}
}

// invalidResult is the tool error of arguments the schema refused: the
// assistant can read it and correct the call.
func invalidResult(err error) *sdk.CallToolResult {
	return &sdk.CallToolResult{
		Content: []sdk.Content{&sdk.TextContent{Text: err.Error()}},
		StructuredContent: map[string]any{"error": map[string]any{
			"code": CodeValidationFailed, "name": "VALIDATION_FAILED", "message": err.Error()}},
		IsError: true,
	}
}

// rawArgs is the arguments as sent, for the audit line of a call whose
// arguments were refused.
func rawArgs(raw json.RawMessage) any {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	return v
}

// outcomeOf names a guard's refusal for the audit log.
func outcomeOf(err error) string {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		switch je.Code {
		case CodeApprovalRequired:
			return outcomeApprovalRequired
		case CodeScopeViolation:
			return outcomeScopeViolation
		case CodePolicyDenied:
			return outcomePolicyDenied
		}
	}
	return outcomeError
}

func (a Answer) outcome() string {
	if a.Outcome != "" {
		return a.Outcome
	}
	if a.Failed {
		return "failed"
	}
	return "ok"
}

// plan is what an approval binds of the answer.
func (a Answer) plan() []byte {
	if a.Plan != nil {
		return a.Plan
	}
	return a.Document
}

// boundedSummary is the summary within the answer's budget: the verb's
// words quote names (a group's, a file's) that may be of any length.
func boundedSummary(s string, budget int) string {
	if len(s) <= budget {
		return s
	}
	end := budget
	for end > 0 && s[end]&0xC0 == 0x80 {
		end--
	}
	return s[:end] + fmt.Sprintf("\n(the summary is %d bytes, over the answer's budget of %d: cut to its first %d)", len(s), budget, end)
}
