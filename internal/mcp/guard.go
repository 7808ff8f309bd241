package mcp

// The guard of the calls, in the order of KIP-1318's reference MCP server
// (github.com/vaquarkhan/kafka-mcp-enterprise-server, doc/security-controls.md:
// "first denial wins"): the policy (a write when writes are not allowed,
// -32044 POLICY_DENIED), the group scope (-32041 SCOPE_VIOLATION), then the
// approval of a destructive call (-32042 APPROVAL_REQUIRED), as JSON-RPC
// errors with its codes (doc/error-codes.md), so that a gateway built for
// it reads ours unchanged. Its tokens are HMAC-signed and bounded in time
// (kafka_mcp/approval.py: base64url(payload).hex(hmac), a 300 s TTL);
// ours are bound, beyond the tool, to the plan the dry run showed and the
// state of the groups it read: the same arguments on a changed group, or
// other arguments, make another plan, which the token does not approve.
// Its argument is the reference's `_approval_token`. Its input validation
// code (-32046 VALIDATION_FAILED) is kept, inside a tool error: arguments
// an assistant got wrong are for it to read and correct (MCP's
// tools/call: "errors ... reported inside the result").

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The error codes of KIP-1318's reference server that apply here.
const (
	CodeScopeViolation   = -32041
	CodeApprovalRequired = -32042
	CodePolicyDenied     = -32044
	CodeValidationFailed = -32046
)

// ApprovalArgument is the argument that carries a dry run's approval token.
const ApprovalArgument = "_approval_token"

// tokenTTL is how long a dry run's token approves its plan: the
// reference's 300 s.
const tokenTTL = 5 * time.Minute

// The outcomes of a call in the audit log.
const (
	outcomeInvalid          = "invalid_arguments"
	outcomeError            = "error"
	outcomeDryRun           = "dry_run"
	outcomeExecuted         = "executed"
	outcomeApprovalRequired = "approval_required"
	outcomeScopeViolation   = "scope_violation"
	outcomePolicyDenied     = "policy_denied"
	outcomeUnknownTool      = "unknown_tool"
)

// guard mints and verifies approval tokens and checks the group scope.
type guard struct {
	secret []byte
	now    func() time.Time
	// scopes are the group name prefixes a call may name; none means
	// every group.
	scopes []string
}

func newGuard(secret []byte, now func() time.Time, scopes []string) (*guard, error) {
	if len(secret) == 0 {
		secret = make([]byte, 32)
		if _, err := rand.Read(secret); err != nil {
			return nil, err
		}
	}
	return &guard{secret: secret, now: now, scopes: scopes}, nil
}

// A token carries, signed, the reference's payload (tool, exp, iat: Unix
// seconds) and the digest of the plan it approves (plan).

// planDigest binds a token to the tool's arguments (canonical JSON: maps
// sorted by encoding/json), the plan document the dry run showed and the
// state of the groups it read.
func planDigest(tool string, args map[string]any, plan []byte, state string) string {
	a, _ := json.Marshal(args)
	h := sha256.New()
	for _, part := range [][]byte{[]byte(tool), a, plan, []byte(state)} {
		h.Write(strconv.AppendInt(nil, int64(len(part)), 10))
		h.Write([]byte{':'})
		h.Write(part)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (g *guard) sign(b64 string) string {
	m := hmac.New(sha256.New, g.secret)
	m.Write([]byte(b64))
	return hex.EncodeToString(m.Sum(nil))
}

// mint is the token that approves this plan on this state.
func (g *guard) mint(tool string, args map[string]any, plan []byte, state string) string {
	now := g.now()
	p, _ := json.Marshal(map[string]any{"tool": tool, "iat": now.Unix(), "exp": now.Add(tokenTTL).Unix(), "plan": planDigest(tool, args, plan, state)})
	b64 := base64.RawURLEncoding.EncodeToString(p)
	return b64 + "." + g.sign(b64)
}

// verify refuses a token that is not ours, not for this tool, expired, or
// for another plan than the one the arguments make on the state read now.
func (g *guard) verify(token, tool string, args map[string]any, plan []byte, state string) error {
	refuse := func(why string) error {
		return &jsonrpc.Error{Code: CodeApprovalRequired, Message: "approval required for tool " + tool + ": " + why +
			"; call it without " + ApprovalArgument + " for a new dry run and its token"}
	}
	b64, sig, ok := strings.Cut(token, ".")
	if !ok || subtle.ConstantTimeCompare([]byte(g.sign(b64)), []byte(sig)) != 1 {
		return refuse("the approval token is not one this server issued")
	}
	raw, err := base64.RawURLEncoding.DecodeString(b64)
	var p map[string]any
	if err != nil || json.Unmarshal(raw, &p) != nil {
		return refuse("the approval token is malformed")
	}
	got, _ := p["tool"].(string)
	exp, _ := p["exp"].(float64)
	digest, _ := p["plan"].(string)
	switch {
	case got != tool:
		return refuse("the approval token is for another tool")
	case float64(g.now().Unix()) > exp:
		return refuse("the approval token expired")
	case subtle.ConstantTimeCompare([]byte(digest), []byte(planDigest(tool, args, plan, state))) != 1:
		return refuse("the approval token is for another plan: the arguments differ from the dry run's, or the group changed since")
	}
	return nil
}

// scope refuses, while a scope is set, a call that names a group outside
// it, asks for every group, or names none (a tool without group
// arguments, list, answers for every group): it fails closed.
func (g *guard) scope(t Tool, args map[string]any) error {
	if len(g.scopes) == 0 {
		return nil
	}
	every := &jsonrpc.Error{Code: CodeScopeViolation,
		Message: fmt.Sprintf("every group is out of scope: this server answers for the groups starting with %s only; name them", strings.Join(g.scopes, ", "))}
	for _, name := range t.AllGroupsArguments {
		if b, _ := args[name].(bool); b {
			return every
		}
	}
	named := 0
	for _, name := range t.GroupArguments {
		for _, group := range stringsOf(args[name]) {
			if t.GroupPrefix != "" {
				group = strings.TrimPrefix(group, t.GroupPrefix)
			}
			if !slices.ContainsFunc(g.scopes, func(p string) bool { return strings.HasPrefix(group, p) }) {
				return &jsonrpc.Error{Code: CodeScopeViolation, Message: fmt.Sprintf("group out of scope: %q", group)}
			}
			named++
		}
	}
	if named == 0 {
		return every
	}
	return nil
}

// stringsOf is an argument's strings: a string, or an array's strings.
func stringsOf(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, e := range v {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// readOnlyPolicy answers a call of a mutating tool that is not listed
// (writes not allowed) as the reference's read-only mode does, -32044,
// rather than as an unknown tool; the call of a tool that does not exist
// is audited too, then answered by the SDK (invalid params).
func readOnlyPolicy(listed, mutating []string, audit *auditLog) sdk.Middleware {
	return func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method != "tools/call" {
				return next(ctx, method, req)
			}
			p, ok := req.GetParams().(*sdk.CallToolParamsRaw)
			switch {
			case !ok || slices.Contains(listed, p.Name):
				return next(ctx, method, req)
			case slices.Contains(mutating, p.Name):
				audit.record(p.Name, redactArgs(rawArgs(p.Arguments)), outcomePolicyDenied, "writes are not allowed")
				return nil, &jsonrpc.Error{Code: CodePolicyDenied,
					Message: "read-only mode: writes disabled (" + p.Name + " is listed only when the server runs with --allow-writes)"}
			}
			audit.record(p.Name, redactArgs(rawArgs(p.Arguments)), outcomeUnknownTool, "no such tool")
			return next(ctx, method, req)
		}
	}
}
