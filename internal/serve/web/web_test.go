package web_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/check"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/list"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
	"github.com/kstreams-groups/kstreams-groups/internal/serve/api"
	"github.com/kstreams-groups/kstreams-groups/internal/serve/snapshot"
	"github.com/kstreams-groups/kstreams-groups/internal/serve/web"
)

func get(t *testing.T, srv *httptest.Server, path string) (*http.Response, []byte) {
	t.Helper()
	res, err := srv.Client().Get(srv.URL + path)
	require.NoError(t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res, body
}

// jsonOf is what `-o json` prints for a document.
func jsonOf(t *testing.T, doc any) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, format.Encode(&b, format.JSON, doc))
	return b.String()
}

func groupPath(cluster, group string) string {
	return "/api/v1/clusters/" + url.PathEscape(cluster) + "/groups/" + url.PathEscape(group)
}

// The cluster documents are, byte for byte, what `overview -o json`,
// `list --state -o json` and `check -o json` print for the same state:
// the verbs' results read from the playground, rendered by -o json's
// renderers, against the handler serving a snapshot of those results.
func TestAPI_sameDocumentsAsOutputJSON(t *testing.T) {
	pg := startPlayground(t)
	c := collect(t, "default", pg)
	srv := httptest.NewServer(web.Handler(newSource(c)))
	defer srv.Close()

	// -o json of the verbs, from results of their own Run (not the
	// snapshot's), with the options the collector uses.
	cl := collect(t, "again", pg)
	ov := &overview.Result{}
	for _, g := range cl.Check.Groups {
		ov.Groups = append(ov.Groups, g.Overview)
	}
	for path, want := range map[string]string{
		"/api/v1/clusters/default/overview": jsonOf(t, format.NewOverviewDoc(ov)),
		"/api/v1/clusters/default/list":     jsonOf(t, format.NewListDoc(cl.List)),
		"/api/v1/clusters/default/check":    jsonOf(t, format.NewCheckDoc(cl.Check)),
	} {
		res, body := get(t, srv, path)
		assert.Equal(t, http.StatusOK, res.StatusCode, path)
		assert.Equal(t, "application/json; charset=utf-8", res.Header.Get("Content-Type"), path)
		assert.Equal(t, want, string(body), path)
	}

	// The groups of the documents are the playground's.
	var listed format.ListDoc
	_, body := get(t, srv, "/api/v1/clusters/default/list")
	require.NoError(t, json.Unmarshal(body, &listed))
	var names []string
	for _, g := range listed.Groups {
		names = append(names, g.Group)
	}
	assert.Subset(t, names, []string{"word-count", "inventory", "page-views", hostile})
}

// A group's detail holds its overview and check documents as the verbs
// print them for that group alone.
func TestAPI_groupDetail(t *testing.T) {
	pg := startPlayground(t)
	c := collect(t, "default", pg)
	srv := httptest.NewServer(web.Handler(newSource(c)))
	defer srv.Close()
	for _, g := range c.Check.Groups {
		res, body := get(t, srv, groupPath("default", g.ID()))
		require.Equal(t, http.StatusOK, res.StatusCode, g.ID())
		var got struct {
			Cluster  json.RawMessage `json:"cluster"`
			Overview json.RawMessage `json:"overview"`
			Check    json.RawMessage `json:"check"`
		}
		require.NoError(t, json.Unmarshal(body, &got))
		ov := format.NewOverviewDoc(&overview.Result{Groups: []*overview.Group{g.Overview}})
		ck := format.NewCheckDoc(&check.Result{Groups: []*check.Group{g}, Options: c.Check.Options})
		assert.JSONEq(t, mustJSON(t, ov.Groups[0]), string(got.Overview), g.ID())
		assert.JSONEq(t, mustJSON(t, ck.Groups[0]), string(got.Check), g.ID())
		assert.JSONEq(t, mustJSON(t, api.NewClusterDoc(c)), string(got.Cluster))
	}

	_, body := get(t, srv, groupPath("default", "word-count")+"/history")
	var h api.HistoryDoc
	require.NoError(t, json.Unmarshal(body, &h))
	assert.Equal(t, "word-count", h.Group)
	require.Len(t, h.Samples, 12)
	assert.Equal(t, "2026-12-01T12:00:00.000Z", h.Samples[11].Time)
	require.NotNil(t, h.Samples[11].TimeLagMS)
	assert.Equal(t, int64(77000), *h.Samples[11].TimeLagMS)

	_, body = get(t, srv, groupPath("default", hostile)+"/events")
	var e api.EventsDoc
	require.NoError(t, json.Unmarshal(body, &e))
	assert.Equal(t, hostile, e.Group)
	assert.Equal(t, []api.EventDoc{
		{Time: "2026-12-01T11:30:00.000Z", Text: "rebalance: group epoch 4 -> 5", Causes: []string{"member-joined m-b: process p-b, host /10.0.0.2, client c-b", "configs-changed num.standby.replicas 0 -> 1 <img src=x onerror=window.__pwned=1>"}},
		{Time: "2026-12-01T11:40:00.000Z", Text: "member m2 joined", Causes: []string{}}, {Time: "2026-12-01T11:50:00.000Z", Text: "state Reconciling -> Stable", Causes: []string{}}}, e.Events)
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// The list the page draws: one row per group, with the list's groups the
// check did not reach, and the clusters' state.
func TestAPI_groups(t *testing.T) {
	c := syntheticCluster("prod", 3)
	c.List.Groups = append(c.List.Groups, list.Group{Group: "only-listed", State: "Empty"})
	down := &snapshot.Cluster{Name: "down", Taken: now, Stale: true, Error: "no broker answered"}
	srv := httptest.NewServer(web.Handler(newSource(c, down), web.WithRefresh(2*time.Second)))
	defer srv.Close()
	_, body := get(t, srv, "/api/v1/groups")
	var doc api.GroupsDoc
	require.NoError(t, json.Unmarshal(body, &doc))
	assert.Equal(t, int64(2000), doc.RefreshMS)
	require.Len(t, doc.Clusters, 2)
	assert.Equal(t, "prod", doc.Clusters[0].Name)
	assert.Equal(t, 3, doc.Clusters[0].GroupCount)
	assert.True(t, doc.Clusters[1].Stale)
	assert.Nil(t, doc.Clusters[1].LastSuccess)
	assert.Equal(t, "no broker answered", doc.Clusters[1].Error)
	require.Len(t, doc.Groups, 4)
	g := doc.Groups[0]
	assert.Equal(t, "app-000", g.Group)
	assert.Equal(t, "OK", g.Status)
	assert.Equal(t, 2, g.MemberCount)
	assert.Equal(t, 3, g.SubtopologyCount)
	assert.Equal(t, 12, g.TaskCount)
	assert.Equal(t, "AVAILABLE", g.TopologyDescriptionStatus)
	require.NotNil(t, g.StandbyCoverage)
	assert.Equal(t, api.StandbySummaryDoc{StatefulTasks: 12, Covered: 12, Configured: ptr(int64(1))}, *g.StandbyCoverage)
	assert.Equal(t, api.GroupRowDoc{Cluster: "prod", Group: "only-listed", State: "Empty", Problems: []format.CheckProblemDoc{}}, doc.Groups[3])

	// A cluster not read yet has no documents, only its state.
	for _, doc := range []string{"check", "overview", "list", "groups/app-000", "groups/app-000/history", "groups/app-000/events"} {
		res, body := get(t, srv, "/api/v1/clusters/down/"+doc)
		assert.Equal(t, http.StatusServiceUnavailable, res.StatusCode, doc)
		assert.JSONEq(t, `{"error":{"name":"NOT_READY","message":"cluster \"down\" has not been read yet: no broker answered"}}`, string(body), doc)
	}
	res, body := get(t, srv, "/api/v1/clusters/down")
	assert.Equal(t, http.StatusOK, res.StatusCode)
	assert.JSONEq(t, `{"name":"down","taken":"2026-12-01T12:00:00.000Z","last_success":null,"stale":true,"error":"no broker answered","cycle_seconds":0,"status":"","group_count":0}`, string(body))
}

// A standby beside its active copy (same process) covers nothing.
func TestAPI_standbyCoverage(t *testing.T) {
	c := syntheticCluster("prod", 1)
	g := c.Check.Groups[0].Overview
	g.Members[1].ProcessID = g.Members[0].ProcessID
	g.Coverage = syntheticCoverage(g)
	srv := httptest.NewServer(web.Handler(newSource(c)))
	defer srv.Close()
	_, body := get(t, srv, "/api/v1/groups")
	var doc api.GroupsDoc
	require.NoError(t, json.Unmarshal(body, &doc))
	assert.Equal(t, api.StandbySummaryDoc{StatefulTasks: 12, Covered: 0, Configured: ptr(int64(1)), Short: 12}, *doc.Groups[0].StandbyCoverage)
}

func TestAPI_notFound(t *testing.T) {
	c := syntheticCluster("prod", 1)
	srv := httptest.NewServer(web.Handler(newSource(c)))
	defer srv.Close()
	for _, tc := range []struct{ path, name string }{
		{"/api/v1/clusters/nope", "CLUSTER_NOT_FOUND"},
		{"/api/v1/clusters/nope/overview", "CLUSTER_NOT_FOUND"},
		{"/api/v1/clusters/nope/groups/app-000", "CLUSTER_NOT_FOUND"},
		{"/api/v1/clusters/prod/groups/nope", "GROUP_NOT_FOUND"},
		{"/api/v1/clusters/prod/groups/nope/history", "GROUP_NOT_FOUND"},
		{"/api/v1/clusters/prod/groups/nope/events", "GROUP_NOT_FOUND"},
		{"/api/v1/clusters/prod/groups/%3Cscript%3E", "GROUP_NOT_FOUND"},
		{"/api/v1/nothing", "NOT_FOUND"},
		{"/api/v2/clusters", "NOT_FOUND"},
	} {
		res, body := get(t, srv, tc.path)
		assert.Equal(t, http.StatusNotFound, res.StatusCode, tc.path)
		assert.Equal(t, "application/json; charset=utf-8", res.Header.Get("Content-Type"), tc.path)
		var doc api.ServeErrorDoc
		require.NoError(t, json.Unmarshal(body, &doc), tc.path)
		assert.Equal(t, tc.name, doc.Error.Name, tc.path)
		assert.NotEmpty(t, doc.Error.Message, tc.path)
	}
	res, _ := get(t, srv, "/nothing.html")
	assert.Equal(t, http.StatusNotFound, res.StatusCode)

	// The API only reads.
	req, err := http.NewRequest(http.MethodPost, srv.URL+"/api/v1/clusters/prod/check", strings.NewReader("{}"))
	require.NoError(t, err)
	res, err = srv.Client().Do(req)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, res.StatusCode)
}

// A group id with a slash is one path segment, escaped.
func TestAPI_groupWithASlash(t *testing.T) {
	c := syntheticCluster("prod", 1)
	c.Check.Groups[0].Overview.Group = "team/app"
	srv := httptest.NewServer(web.Handler(newSource(c)))
	defer srv.Close()
	res, body := get(t, srv, "/api/v1/clusters/prod/groups/team%2Fapp")
	require.Equal(t, http.StatusOK, res.StatusCode, string(body))
	assert.Contains(t, string(body), `"group": "team/app"`)
}

// Every answer, page, script and document alike, carries the policy.
func TestHeaders(t *testing.T) {
	srv := httptest.NewServer(web.Handler(newSource(syntheticCluster("prod", 1))))
	defer srv.Close()
	for _, path := range []string{"/", "/assets/app.js", "/assets/app.css", "/api/v1/groups", "/api/v1/clusters/nope"} {
		res, body := get(t, srv, path)
		assert.Equal(t, web.ContentSecurityPolicy, res.Header.Get("Content-Security-Policy"), path)
		assert.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"), path)
		assert.Equal(t, "DENY", res.Header.Get("X-Frame-Options"), path)
		assert.NotEmpty(t, body, path)
	}
	for _, want := range []string{"default-src 'self'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'", "object-src 'none'"} {
		assert.Contains(t, web.ContentSecurityPolicy, want)
	}
	assert.NotContains(t, web.ContentSecurityPolicy, "unsafe")
	res, _ := get(t, srv, "/")
	assert.Equal(t, "text/html; charset=utf-8", res.Header.Get("Content-Type"))
	res, _ = get(t, srv, "/assets/app.js")
	assert.Contains(t, res.Header.Get("Content-Type"), "javascript")
}

// The page is the embedded files only: nothing is loaded from another
// origin, no inline script or style, no markup built from strings.
func TestAssets_selfContained(t *testing.T) {
	srv := httptest.NewServer(web.Handler(newSource(syntheticCluster("prod", 1))))
	defer srv.Close()
	_, page := get(t, srv, "/")
	assert.NotContains(t, string(page), "http://")
	assert.NotContains(t, string(page), "https://")
	assert.NotContains(t, string(page), "style=")
	assert.NotRegexp(t, `<script>|<script [^>]*>[^<]`, string(page))
	for _, f := range []string{"app.js", "dom.js", "graph.js", "chart.js"} {
		_, js := get(t, srv, "/assets/"+f)
		for _, bad := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "https://", "http://"} {
			if bad == "http://" && f == "dom.js" {
				continue // the SVG namespace
			}
			assert.NotContains(t, string(js), bad, f)
		}
	}
}

func ptr[T any](v T) *T { return &v }
