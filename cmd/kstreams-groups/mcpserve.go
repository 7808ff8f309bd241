package main

// The MCP server over HTTP and its resources: `serve --mcp` mounts the
// server of `kstreams-groups mcp` at /mcp (internal/mcp's HTTPHandler,
// behind serve's TLS, basic authentication and connection bounds), one per
// cluster with several --profile; and each cluster's groups are resources
// (their overview, topology description and picture), read through the
// verbs' own command lines, as the tools are.

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/mcp"
)

// serveMCPFlag mounts the MCP server in serve; the mcp command's options
// say what it allows.
var serveMCPFlag = boolOption(flagDef{name: "mcp",
	help: "Also serve the tools and resources of the mcp command at /mcp (MCP's streamable HTTP transport), behind the same TLS and basic authentication; with several --profile, /mcp/NAME is each cluster's and /mcp the first's. --allow-writes, --audit-log, --max-answer-bytes and --group-scope apply to it as to mcp."})

// serveMCPFlags are serve's options of /mcp.
func serveMCPFlags() []flagDef {
	return table(serveMCPFlag, mcpFlag.allowWrites, mcpFlag.auditLog, mcpFlag.budget, mcpFlag.scope)
}

// serveMCPOptions are /mcp's options, nil without --mcp (and then none of
// the others may be given).
func serveMCPOptions(v flagValues) (*mcpOptions, error) {
	if !serveMCPFlag.get(v) {
		for _, f := range serveMCPFlags()[1:] {
			if f.set(v) {
				return nil, usageErrorf("--%s applies to /mcp: give --mcp too", f.name)
			}
		}
		return nil, nil
	}
	o, err := mcpOptionsOf(v)
	return &o, err
}

// mcpHTTP is /mcp's handler for the clusters served (names, in order),
// and what ends it (the audit log's file).
func (a *app) mcpHTTP(cmd *cobra.Command, names []string, o mcpOptions, logger *slog.Logger) (http.Handler, func(), error) {
	var audit io.Writer
	done := func() {}
	if o.auditLog != "" {
		f, err := openAuditLog(o.auditLog)
		if err != nil {
			return nil, nil, err
		}
		audit, done = f, func() { _ = f.Close() }
	}
	connection := connectionArgs(cmd)
	opts := mcp.DefaultHTTPOptions()
	opts.Logger = logger
	byName := map[string]http.Handler{}
	var first http.Handler
	for _, name := range names {
		co := o
		co.connection = connection
		if len(names) > 1 {
			co.connection = append(withoutProfile(connection), "--profile="+name)
		}
		s, err := a.newMCPServer(co, audit)
		if err != nil {
			done()
			return nil, nil, err
		}
		h := mcp.HTTPHandler(s, opts)
		byName[name] = h
		if first == nil {
			first = h
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/mcp" {
			first.ServeHTTP(w, r)
			return
		}
		if h := byName[strings.TrimPrefix(r.URL.Path, "/mcp/")]; h != nil {
			h.ServeHTTP(w, r)
			return
		}
		http.NotFound(w, r)
	}), done, nil
}

// withoutProfile is the connection options without --profile.
func withoutProfile(connection []string) []string {
	return slices.DeleteFunc(slices.Clone(connection), func(c string) bool { return strings.HasPrefix(c, "--profile=") })
}

// addMCPResources adds the groups of the cluster of o's connection to s
// as resources (internal/mcp's AddResources), those of its scopes only,
// each request audited.
func (a *app) addMCPResources(s *sdk.Server, o mcpOptions, audit io.Writer) {
	connection := o.connection
	cluster := "default"
	for _, c := range connection {
		if p, ok := strings.CutPrefix(c, "--profile="); ok {
			cluster = p
		}
	}
	mcp.AddResources(s, mcp.GroupResources{
		Cluster: cluster,
		Scopes:  o.scopes,
		Audit:   audit,
		Groups: func(ctx context.Context) ([]string, error) {
			out, err := a.resourceLine(ctx, append([]string{"list", "--output=json"}, connection...), false)
			if err != nil {
				return nil, err
			}
			var doc format.ListDoc
			if err := json.Unmarshal(out, &doc); err != nil {
				return nil, fmt.Errorf("list: %w", err)
			}
			groups := make([]string, len(doc.Groups))
			for i, g := range doc.Groups {
				groups[i] = g.Group
			}
			return groups, nil
		},
		Read: func(ctx context.Context, group string, kind mcp.ResourceKind) ([]byte, error) {
			line := []string{"describe", "--topology", "--group=" + group}
			switch kind {
			case mcp.Overview:
				// The document says a group's error itself, as the
				// command's does.
				return a.resourceLine(ctx, append([]string{"overview", "--group=" + group, "--output=json"}, connection...), true)
			case mcp.TopologyPNG:
				line = append(line, "--output=png")
			}
			return a.resourceLine(ctx, append(line, connection...), false)
		},
	})
}

// resourceLine runs a command line for a resource: its stdout when it
// succeeded (or, with document, printed a JSON document), else an error
// saying what it printed, escaped and bounded.
func (a *app) resourceLine(ctx context.Context, line []string, document bool) ([]byte, error) {
	code, stdout, stderr := a.runLine(ctx, line, "")
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if code == exitOK || document && json.Valid(stdout) && len(bytes.TrimSpace(stdout)) > 0 {
		return stdout, nil
	}
	msg := cmp.Or(strings.TrimSpace(strings.TrimSpace(string(stdout))+"\n"+strings.TrimSpace(stderr)), fmt.Sprintf("exit %d", code))
	return nil, errors.New(line[0] + ": " + format.EscapeMessage(msg))
}
