package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pngMagic starts every PNG file.
var pngMagic = []byte("\x89PNG\r\n\x1a\n")

// fakeGroups are a cluster's groups for the resource tests: each group's
// overview is a document naming it, its topology a text naming it, and
// its picture a PNG header followed by its name; "missing" has none.
func fakeGroups(cluster string, groups ...string) GroupResources {
	return GroupResources{
		Cluster: cluster,
		Groups:  func(context.Context) ([]string, error) { return groups, nil },
		Read: func(_ context.Context, g string, k ResourceKind) ([]byte, error) {
			if g == "missing" {
				return nil, errors.New("streams group 'missing': GROUP_ID_NOT_FOUND")
			}
			switch k {
			case Overview:
				return json.Marshal(map[string]any{"groups": []any{map[string]any{"group": g}}})
			case Topology:
				return []byte("Topologies of " + g + "\n"), nil
			}
			return append(append([]byte{}, pngMagic...), g...), nil
		},
	}
}

// echoServer is a server with one read tool, echo, and the resources of
// groups.
func echoServer(t *testing.T, r GroupResources) *sdk.Server {
	t.Helper()
	s, err := New(Config{Name: "test", Version: "0", Tools: []Tool{{
		Name: "echo", Description: "echoes", Input: &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"text": {Type: "string"}}},
		Call: func(_ context.Context, args map[string]any, _ bool) (Answer, error) {
			b, _ := json.Marshal(args)
			return Answer{Document: b, Summary: "echo"}, nil
		},
	}}})
	require.NoError(t, err)
	AddResources(s, r)
	return s
}

// connect is an SDK client session on url.
func connect(t *testing.T, url string) *sdk.ClientSession {
	t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: "test-client", Version: "0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func TestHTTPHandler_toolsAndResourcesThroughTheSDKClient(t *testing.T) {
	t.Parallel()
	odd := "a/b:c d%e?"
	srv := httptest.NewServer(HTTPHandler(echoServer(t, fakeGroups("prod/eu", "word-count", odd, "missing")), DefaultHTTPOptions()))
	t.Cleanup(srv.Close) // after the clients close: an open event stream holds it
	cs := connect(t, srv.URL)
	ctx := context.Background()

	require.NotEmpty(t, cs.ID(), "a stateful session")
	require.NoError(t, cs.Ping(ctx, nil))
	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Len(t, tools.Tools, 1)
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}})
	require.NoError(t, err)
	assert.False(t, res.IsError)
	assert.Equal(t, map[string]any{"document": map[string]any{"text": "hi"}}, res.StructuredContent)

	list, err := cs.ListResources(ctx, nil)
	require.NoError(t, err)
	var uris []string
	for _, r := range list.Resources {
		uris = append(uris, r.URI)
	}
	assert.Equal(t, []string{
		"kstreams-groups://prod%2Feu/word-count/overview", "kstreams-groups://prod%2Feu/word-count/topology", "kstreams-groups://prod%2Feu/word-count/topology.png",
		"kstreams-groups://prod%2Feu/a%2Fb%3Ac%20d%25e%3F/overview", "kstreams-groups://prod%2Feu/a%2Fb%3Ac%20d%25e%3F/topology", "kstreams-groups://prod%2Feu/a%2Fb%3Ac%20d%25e%3F/topology.png",
		"kstreams-groups://prod%2Feu/missing/overview", "kstreams-groups://prod%2Feu/missing/topology", "kstreams-groups://prod%2Feu/missing/topology.png",
	}, uris)
	assert.Equal(t, "image/png", list.Resources[2].MIMEType)

	tmpl, err := cs.ListResourceTemplates(ctx, nil)
	require.NoError(t, err)
	var templates []string
	for _, r := range tmpl.ResourceTemplates {
		templates = append(templates, r.URITemplate+" "+r.MIMEType)
	}
	assert.ElementsMatch(t, []string{"kstreams-groups://prod%2Feu/{group}/overview application/json",
		"kstreams-groups://prod%2Feu/{group}/topology text/plain", "kstreams-groups://prod%2Feu/{group}/topology.png image/png"}, templates)

	for _, g := range []string{"word-count", odd} {
		r, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: ResourceURI("prod/eu", g, Overview)})
		require.NoError(t, err, g)
		require.Len(t, r.Contents, 1)
		assert.Equal(t, "application/json", r.Contents[0].MIMEType)
		assert.JSONEq(t, fmt.Sprintf(`{"groups":[{"group":%q}]}`, g), r.Contents[0].Text)

		r, err = cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: ResourceURI("prod/eu", g, Topology)})
		require.NoError(t, err, g)
		assert.Equal(t, "Topologies of "+g+"\n", r.Contents[0].Text)

		r, err = cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: ResourceURI("prod/eu", g, TopologyPNG)})
		require.NoError(t, err, g)
		assert.Equal(t, "image/png", r.Contents[0].MIMEType)
		assert.Equal(t, append(append([]byte{}, pngMagic...), g...), r.Contents[0].Blob, "the picture as a blob, its bytes whole")
	}

	// A group's error is the read's error; a URI of no template, of
	// another cluster or of no kind is not found.
	_, err = cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: ResourceURI("prod/eu", "missing", Overview)})
	require.ErrorContains(t, err, "GROUP_ID_NOT_FOUND")
	for _, uri := range []string{"kstreams-groups://other/word-count/overview", "kstreams-groups://prod%2Feu/word-count/members",
		"kstreams-groups://prod%2Feu/a/b/overview", "file:///etc/passwd"} {
		_, err = cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
		require.Error(t, err, uri)
		assert.Contains(t, err.Error(), "not found", uri)
	}
}

// resources/list pages a large cluster, every resource once, in order.
func TestHTTPHandler_resourcesPaged(t *testing.T) {
	t.Parallel()
	var groups []string
	for i := range 120 {
		groups = append(groups, fmt.Sprintf("g%03d", i))
	}
	srv := httptest.NewServer(HTTPHandler(echoServer(t, fakeGroups("default", groups...)), DefaultHTTPOptions()))
	t.Cleanup(srv.Close) // after the clients close: an open event stream holds it
	cs := connect(t, srv.URL)
	ctx := context.Background()
	var uris []string
	pages := 0
	cursor := ""
	for {
		res, err := cs.ListResources(ctx, &sdk.ListResourcesParams{Cursor: cursor})
		require.NoError(t, err)
		pages++
		assert.LessOrEqual(t, len(res.Resources), resourcesPage)
		for _, r := range res.Resources {
			uris = append(uris, r.URI)
		}
		if cursor = res.NextCursor; cursor == "" {
			break
		}
	}
	assert.Equal(t, 3, pages)
	require.Len(t, uris, 360)
	assert.Equal(t, ResourceURI("default", "g000", Overview), uris[0])
	assert.Equal(t, ResourceURI("default", "g119", TopologyPNG), uris[359])
	_, err := cs.ListResources(ctx, &sdk.ListResourcesParams{Cursor: "x"})
	require.ErrorContains(t, err, "invalid cursor")
}

// post sends an initialize request with the given Host and Origin.
func post(t *testing.T, url, host, origin string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if host != "" {
		req.Host = host
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	return resp.StatusCode, string(b)
}

// DNS rebinding: a loopback server refuses a foreign Host, and any server
// an Origin that is not its own; its own names pass.
func TestHTTPHandler_dnsRebinding(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(HTTPHandler(echoServer(t, fakeGroups("default")), DefaultHTTPOptions()))
	t.Cleanup(srv.Close) // after the clients close: an open event stream holds it
	own := strings.TrimPrefix(srv.URL, "http://")
	_, port, _ := strings.Cut(own, ":")
	for _, c := range []struct {
		host, origin string
		want         int
	}{
		{"evil.example.com", "http://evil.example.com", http.StatusForbidden},
		{"evil.example.com:" + port, "", http.StatusForbidden},
		{"", "http://evil.example.com", http.StatusForbidden},
		{"", "null", http.StatusForbidden},
		{"", "http://" + own + ".evil.example.com", http.StatusForbidden},
		{"", "https://" + own, http.StatusForbidden},
		{"", "", http.StatusOK},
		{"", "http://" + own, http.StatusOK},
		{"localhost:" + port, "http://localhost:" + port, http.StatusOK},
		{"[::1]:" + port, "", http.StatusOK},
	} {
		code, body := post(t, srv.URL, c.host, c.origin)
		assert.Equal(t, c.want, code, "Host %q Origin %q: %s", c.host, c.origin, body)
	}
}

// Past MaxSessions a new session is refused with 503 until one ends.
func TestHTTPHandler_sessionsBounded(t *testing.T) {
	t.Parallel()
	o := DefaultHTTPOptions()
	o.MaxSessions = 2
	srv := httptest.NewServer(HTTPHandler(echoServer(t, fakeGroups("default")), o))
	t.Cleanup(srv.Close) // after the clients close: an open event stream holds it
	first := connect(t, srv.URL)
	connect(t, srv.URL)
	code, body := post(t, srv.URL, "", "")
	assert.Equal(t, http.StatusServiceUnavailable, code, body)
	require.NoError(t, first.Close())
	// The server ends the session when its client sends DELETE.
	require.Eventually(t, func() bool {
		code, _ := post(t, srv.URL, "", "")
		return code == http.StatusOK
	}, 10*time.Second, 10*time.Millisecond)
}

// With Scopes, only the groups in scope are listed, and reading another's
// resource is a scope violation, as a tool's call naming it is.
func TestResources_scope(t *testing.T) {
	t.Parallel()
	r := fakeGroups("default", "team-a-orders", "team-b-billing", "team-a-clicks")
	r.Scopes = []string{"team-a-"}
	var audit strings.Builder
	r.Audit = &audit
	r.Now = func() time.Time { return time.Date(2026, 12, 6, 11, 0, 0, 0, time.UTC) }
	srv := httptest.NewServer(HTTPHandler(echoServer(t, r), DefaultHTTPOptions()))
	t.Cleanup(srv.Close)
	cs := connect(t, srv.URL)
	ctx := context.Background()
	list, err := cs.ListResources(ctx, nil)
	require.NoError(t, err)
	var names []string
	for _, r := range list.Resources {
		names = append(names, r.Name)
	}
	assert.Equal(t, []string{"team-a-orders/overview", "team-a-orders/topology", "team-a-orders/topology.png",
		"team-a-clicks/overview", "team-a-clicks/topology", "team-a-clicks/topology.png"}, names)
	_, err = cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: ResourceURI("default", "team-b-billing", Topology)})
	require.ErrorContains(t, err, `group out of scope: "team-b-billing"`)
	_, err = cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: ResourceURI("default", "team-a-orders", Topology)})
	require.NoError(t, err)

	// Every request audited, as a tool call is.
	assert.Equal(t, `{"arguments":{"cursor":""},"outcome":"ok","time":"2026-12-06T11:00:00Z","tool":"resources/list"}
{"arguments":{"uri":"kstreams-groups://default/team-b-billing/topology"},"detail":"group out of scope: \"team-b-billing\"","outcome":"scope_violation","time":"2026-12-06T11:00:00Z","tool":"resources/read"}
{"arguments":{"uri":"kstreams-groups://default/team-a-orders/topology"},"outcome":"ok","time":"2026-12-06T11:00:00Z","tool":"resources/read"}
`, audit.String())
}
