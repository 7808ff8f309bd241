//go:build linux

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/mcp"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// basicAuth adds credentials to every request.
type basicAuth struct{ user, pass string }

func (b basicAuth) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.SetBasicAuth(b.user, b.pass)
	return http.DefaultTransport.RoundTrip(r)
}

// mcpSession is an SDK client session on url, with credentials when user
// is given.
func mcpSession(t *testing.T, url, user, pass string) (*sdk.ClientSession, error) {
	t.Helper()
	hc := &http.Client{}
	if user != "" {
		hc.Transport = basicAuth{user, pass}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "0"}, nil).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: hc, MaxRetries: -1}, nil)
	if err == nil {
		t.Cleanup(func() { _ = cs.Close() })
	}
	return cs, err
}

// serve --mcp behind basic authentication: through the SDK's client, the
// read tools (no write) answer the CLI's documents, and every group's
// overview, topology description and picture are resources whose
// contents are the CLI's output; every call is in the audit log.
func TestServeMCP_toolsAndResourcesBehindBasicAuth(t *testing.T) {
	t.Parallel()
	pg, err := playground.StartStateWith(testPlayground, playground.DefaultState())
	require.NoError(t, err)
	defer pg.Close()
	bs := bootstrap(pg)
	dir := t.TempDir()
	// The exporter toolkit's own test hash: bcrypt of "fakepassword".
	webConfig := writeFile(t, dir, "web.yml", "basic_auth_users:\n  prometheus: $2y$10$QOauhQNbBCuQDKes6eFzPeMqBSjb7Mr5DUmpZ/VcEd00UAV/LDeSi\n")
	audit := filepath.Join(dir, "audit.jsonl")
	s := startServe(t, "--bootstrap-server", bs, "--web.config.file", webConfig, "--mcp", "--audit-log", audit)
	url := "http://" + s.addr + "/mcp"

	_, err = mcpSession(t, url, "", "")
	require.Error(t, err, "no session without credentials")
	_, err = mcpSession(t, url, "prometheus", "wrong")
	require.Error(t, err, "no session with a wrong password")
	cs, err := mcpSession(t, url, "prometheus", "fakepassword")
	require.NoError(t, err, s.stderr.String())
	ctx := context.Background()

	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	for _, tool := range tools.Tools {
		assert.True(t, tool.Annotations.ReadOnlyHint, "%s: only read tools without --allow-writes", tool.Name)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "overview", Arguments: map[string]any{"group": []string{"word-count"}}})
	require.NoError(t, err)
	require.False(t, res.IsError)
	doc, err := json.Marshal(res.StructuredContent.(map[string]any)["document"])
	require.NoError(t, err)
	cli := runCLI(t, "--bootstrap-server", bs, "overview", "--group", "word-count", "-o", "json")
	assert.JSONEq(t, cli.stdout, string(doc))

	list, err := cs.ListResources(ctx, nil)
	require.NoError(t, err)
	var uris []string
	for _, r := range list.Resources {
		uris = append(uris, r.URI)
	}
	for _, k := range []mcp.ResourceKind{mcp.Overview, mcp.Topology, mcp.TopologyPNG} {
		assert.Contains(t, uris, "kstreams-groups://default/word-count/"+string(k))
		assert.Contains(t, uris, "kstreams-groups://default/page-views/"+string(k))
	}

	read := func(kind mcp.ResourceKind) *sdk.ResourceContents {
		r, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: mcp.ResourceURI("default", "word-count", kind)})
		require.NoError(t, err, kind)
		require.Len(t, r.Contents, 1)
		return r.Contents[0]
	}
	c := read(mcp.Overview)
	assert.Equal(t, "application/json", c.MIMEType)
	assert.JSONEq(t, cli.stdout, c.Text)
	c = read(mcp.Topology)
	assert.Equal(t, "text/plain", c.MIMEType)
	assert.Equal(t, runCLI(t, "--bootstrap-server", bs, "describe", "--topology", "--group", "word-count").stdout, c.Text)
	c = read(mcp.TopologyPNG)
	assert.Equal(t, "image/png", c.MIMEType)
	png := runCLI(t, "--bootstrap-server", bs, "describe", "--topology", "--group", "word-count", "-o", "png")
	require.Equal(t, 0, png.code, png.stderr)
	assert.True(t, bytes.HasPrefix(c.Blob, []byte("\x89PNG\r\n\x1a\n")), "a PNG")
	assert.Equal(t, []byte(png.stdout), c.Blob, "the picture of describe --topology -o png")

	// A group without a stored description, and one that does not exist:
	// the read fails with what the command says.
	_, err = cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: mcp.ResourceURI("default", "inventory", mcp.Topology)})
	require.ErrorContains(t, err, "No topology description is stored for streams group 'inventory'")
	_, err = cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: mcp.ResourceURI("default", "nope", mcp.TopologyPNG)})
	require.ErrorContains(t, err, "GROUP_ID_NOT_FOUND")

	require.NoError(t, cs.Close())
	b, err := os.ReadFile(audit)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"tool":"overview"`, "the call audited")
	assert.Contains(t, string(b), `{"arguments":{"uri":"kstreams-groups://default/word-count/topology.png"},"outcome":"ok",`, "the read audited")
}

// With several profiles each cluster has its /mcp/NAME, its resources
// named by it; /mcp is the first's.
func TestServeMCP_profiles(t *testing.T) {
	t.Parallel()
	pg, err := playground.StartStateWith(testPlayground, playground.DefaultState())
	require.NoError(t, err)
	defer pg.Close()
	dir := t.TempDir()
	config := writeFile(t, dir, "config.yaml", "profiles:\n  east:\n    bootstrap-server: "+bootstrap(pg)+"\n  west:\n    bootstrap-server: "+bootstrap(pg)+"\n")
	s := startServe(t, "--config", config, "--profile", "east", "--profile", "west", "--mcp")
	for path, cluster := range map[string]string{"/mcp": "east", "/mcp/east": "east", "/mcp/west": "west"} {
		cs, err := mcpSession(t, "http://"+s.addr+path, "", "")
		require.NoError(t, err, path)
		list, err := cs.ListResources(context.Background(), nil)
		require.NoError(t, err, path)
		require.NotEmpty(t, list.Resources, path)
		for _, r := range list.Resources {
			assert.True(t, strings.HasPrefix(r.URI, "kstreams-groups://"+cluster+"/"), "%s: %s", path, r.URI)
		}
	}
	code, _ := s.get(t, "/mcp/north")
	assert.Equal(t, http.StatusNotFound, code)
}

// /mcp's options need --mcp; without it nothing is mounted there.
func TestServeMCP_usage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--allow-writes"}, {"--audit-log", "x"}, {"--group-scope", "a"}, {"--max-answer-bytes", "5000"}} {
		res := runCLI(t, append([]string{"--bootstrap-server", "127.0.0.1:1", "serve"}, args...)...)
		assert.Equal(t, 2, res.code, "%v: %s", args, res.stderr)
		assert.Contains(t, res.stderr, "applies to /mcp: give --mcp too", args)
	}
	res := runCLI(t, "--bootstrap-server", "127.0.0.1:1", "serve", "--mcp", "--max-answer-bytes", "10")
	assert.Equal(t, 2, res.code, res.stderr)
	assert.Contains(t, res.stderr, "--max-answer-bytes")

	s := startServe(t, "--bootstrap-server", "127.0.0.1:1")
	code, _ := s.get(t, "/mcp")
	assert.Equal(t, http.StatusNotFound, code, "no /mcp without --mcp")
}
