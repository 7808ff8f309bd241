// Package mcp is kstreams-groups' Model Context Protocol server: the tools
// an assistant calls, built on the official Go SDK. It knows no verb and no
// Kafka client: the command package gives it the tool set (each tool's
// declaration and the call that runs the verb, a cluster client built per
// call) and the audit sink; this package adds what every tool shares: the
// input checked against the tool's schema before anything runs, a refusal
// as a tool error (isError) rather than a protocol failure, the size
// budget of an answer, the approval of a write, and the audit line of
// every call.
package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tool is one tool: what tools/list shows and how a call runs.
type Tool struct {
	// Name is the tool's name (the verb's, with '_' for '-').
	Name string
	// Title is a short human-readable name.
	Title string
	// Description says what the tool answers and what its figures mean.
	Description string
	// Input is the JSON schema of the arguments: an object.
	Input *jsonschema.Schema
	// Mutating marks a tool that changes the cluster: listed only with
	// Config.AllowWrites, and run for real only with an approval token.
	Mutating bool
	// Call runs the tool with the checked arguments. For a mutating tool
	// execute is false for its dry run; a read tool is always called
	// with false.
	Call func(ctx context.Context, args map[string]any, execute bool) (Answer, error)
	// State is a fingerprint of what a mutating tool's arguments would
	// change (the groups' state and committed offsets), read before a dry
	// run and again before the execution: an approval token is bound to
	// it, so a changed group invalidates the token. nil for a read tool.
	State func(ctx context.Context, args map[string]any) (string, error)
	// GroupArguments name the arguments that hold group names and
	// AllGroupsArguments those that ask for every group, for the group
	// scope (Config.Scopes).
	GroupArguments, AllGroupsArguments []string
	// GroupPrefix is what precedes a group's name in a group argument
	// (diff's group:NAME); "" for none.
	GroupPrefix string
}

// Answer is the outcome of one call of a verb.
type Answer struct {
	// Document is the verb's -o json document, nil when it printed none
	// (a usage error).
	Document json.RawMessage
	// Summary is a short text beside the document: the verb's status
	// line, or what went wrong.
	Summary string
	// Plan is what an approval binds of a write's dry run: the document
	// without its figures that move while nothing changes (the log end,
	// the lag, the time of the reading); nil means Document.
	Plan []byte
	// Failed reports that the verb ended in a failure: the answer is a
	// tool error (isError), the document still attached when there is
	// one.
	Failed bool
	// Outcome names how the verb ended, for the audit log ("ok",
	// "usage", "not_found", ...).
	Outcome string
}

// Config is what a server is built from.
type Config struct {
	// Name and Version are the server's implementation, sent at
	// initialize.
	Name, Version string
	// Instructions are sent at initialize for the assistant.
	Instructions string
	// Tools is the tool set; the mutating ones are left out unless
	// AllowWrites.
	Tools []Tool
	// AllowWrites lists the mutating tools (each still a dry run until
	// approved).
	AllowWrites bool
	// Audit, when set, gets one JSON line per call (audit.go).
	Audit io.Writer
	// Budget is the most bytes of a document an answer carries
	// (DefaultBudget when 0).
	Budget int
	// Secret keys the approval tokens; random when nil. A server behind
	// several processes would share it.
	Secret []byte
	// Scopes are the group name prefixes a call may name (KIP-1318's
	// group scope); none means every group.
	Scopes []string
	// Now is the clock of the audit log and the tokens' expiry; nil is
	// time.Now.
	Now func() time.Time
}

// New builds the server from cfg: an SDK server with the tools that cfg
// allows, ready to Run on a transport (stdio) or be mounted on HTTP.
func New(cfg Config) (*sdk.Server, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Budget <= 0 {
		cfg.Budget = DefaultBudget
	}
	g, err := newGuard(cfg.Secret, cfg.Now, cfg.Scopes)
	if err != nil {
		return nil, err
	}
	s := sdk.NewServer(&sdk.Implementation{Name: cfg.Name, Version: cfg.Version},
		&sdk.ServerOptions{Instructions: cfg.Instructions, Capabilities: &sdk.ServerCapabilities{}})
	audit := newAuditLog(cfg.Audit, cfg.Now)
	var listed, unlisted []string
	for _, t := range cfg.Tools {
		if t.Mutating && !cfg.AllowWrites {
			unlisted = append(unlisted, t.Name)
			continue
		}
		listed = append(listed, t.Name)
		h, err := newHandler(t, g, audit, cfg.Budget)
		if err != nil {
			return nil, fmt.Errorf("tool %s: %w", t.Name, err)
		}
		s.AddTool(h.declaration(), h.handle)
	}
	s.AddReceivingMiddleware(readOnlyPolicy(listed, unlisted, audit))
	return s, nil
}
