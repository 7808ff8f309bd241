// Package web is serve's read-only console: the /api/v1 JSON documents of
// the latest snapshots (the overview, list and check documents of
// `-o json`, plus a group list, group detail, history and timeline) and
// the web page that draws them, embedded in the binary (assets/: HTML,
// CSS and JavaScript written by hand, no build step, nothing fetched from
// elsewhere). It answers from snapshot.Source only, so no request ever
// reaches Kafka, and it changes nothing.
package web

import (
	"bytes"
	"embed"
	"io/fs"
	"net/http"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/check"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/serve/api"
	"github.com/kstreams-groups/kstreams-groups/internal/serve/snapshot"
)

//go:embed assets
var assets embed.FS

// ContentSecurityPolicy is sent with every answer: scripts and styles
// from this server's files only (no inline script, no eval, no inline
// style), no frame may hold the page, and no form or base URL. A broker
// string that got into the markup could therefore run nothing.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Option configures Handler.
type Option func(*config)

type config struct {
	refresh time.Duration
}

// WithRefresh sets how often the page asks for new documents (default
// 5s); serve passes its collection interval, bounded below.
func WithRefresh(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.refresh = d
		}
	}
}

// Handler serves the page at / and the documents under /api/v1/ from src.
func Handler(src snapshot.Source, opts ...Option) http.Handler {
	cfg := config{refresh: 5 * time.Second}
	for _, o := range opts {
		o(&cfg)
	}
	h := &handler{src: src, cfg: cfg}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v1/clusters", h.clusters)
	mux.HandleFunc("GET /api/v1/groups", h.groups)
	mux.HandleFunc("GET /api/v1/clusters/{cluster}", h.cluster)
	mux.HandleFunc("GET /api/v1/clusters/{cluster}/overview", h.overview)
	mux.HandleFunc("GET /api/v1/clusters/{cluster}/list", h.list)
	mux.HandleFunc("GET /api/v1/clusters/{cluster}/check", h.check)
	mux.HandleFunc("GET /api/v1/clusters/{cluster}/groups/{group}", h.group)
	mux.HandleFunc("GET /api/v1/clusters/{cluster}/groups/{group}/history", h.history)
	mux.HandleFunc("GET /api/v1/clusters/{cluster}/groups/{group}/events", h.events)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			// RFC 9110: a 405 says which methods the resource takes.
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED", "the API is read-only: GET only")
			return
		}
		writeError(w, http.StatusNotFound, "NOT_FOUND", "no such document: "+r.URL.Path)
	})
	static, err := fs.Sub(assets, "assets")
	if err != nil {
		panic("web: the embedded assets are missing: " + err.Error())
	}
	files := http.FileServerFS(static)
	mux.Handle("GET /assets/", http.StripPrefix("/assets/", files))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		page, _ := assets.ReadFile("assets/index.html")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeContent(w, r, "index.html", time.Time{}, bytes.NewReader(page))
	})
	return secure(mux)
}

// secure adds the headers every answer carries.
func secure(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}

type handler struct {
	src snapshot.Source
	cfg config
}

func (h *handler) clusters(w http.ResponseWriter, r *http.Request) {
	writeDoc(w, api.NewClustersDoc(h.src.Clusters()))
}

func (h *handler) groups(w http.ResponseWriter, r *http.Request) {
	writeDoc(w, api.NewGroupsDoc(h.src.Clusters(), h.cfg.refresh))
}

// find is the cluster the request names, or nil after a 404 answer.
func (h *handler) find(w http.ResponseWriter, r *http.Request) *snapshot.Cluster {
	name := r.PathValue("cluster")
	for _, c := range h.src.Clusters() {
		if c.Name == name {
			return c
		}
	}
	writeError(w, http.StatusNotFound, "CLUSTER_NOT_FOUND", "no cluster named "+quote(name)+" is served")
	return nil
}

// ready is the cluster's check, or nil after a 503 answer: nothing was
// read from it yet.
func ready(w http.ResponseWriter, c *snapshot.Cluster) *check.Result {
	if c.Check == nil {
		notReady(w, c)
	}
	return c.Check
}

// notReady answers that the cluster has not been read successfully yet,
// with the collector's error.
func notReady(w http.ResponseWriter, c *snapshot.Cluster) {
	msg := "cluster " + quote(c.Name) + " has not been read yet"
	if c.Error != "" {
		msg += ": " + c.Error
	}
	writeError(w, http.StatusServiceUnavailable, "NOT_READY", msg)
}

func (h *handler) cluster(w http.ResponseWriter, r *http.Request) {
	if c := h.find(w, r); c != nil {
		writeDoc(w, api.NewClusterDoc(c))
	}
}

func (h *handler) overview(w http.ResponseWriter, r *http.Request) {
	if c := h.find(w, r); c != nil {
		if res := ready(w, c); res != nil {
			writeDoc(w, api.OverviewOf(res))
		}
	}
}

func (h *handler) list(w http.ResponseWriter, r *http.Request) {
	if c := h.find(w, r); c != nil {
		if c.List == nil {
			notReady(w, c)
			return
		}
		writeDoc(w, format.NewListDoc(c.List))
	}
}

func (h *handler) check(w http.ResponseWriter, r *http.Request) {
	if c := h.find(w, r); c != nil {
		if res := ready(w, c); res != nil {
			writeDoc(w, format.NewCheckDoc(res))
		}
	}
}

// findGroup is the cluster and the checked group the request names, or
// nils after an error answer.
func (h *handler) findGroup(w http.ResponseWriter, r *http.Request) (*snapshot.Cluster, *check.Group) {
	c := h.find(w, r)
	if c == nil {
		return nil, nil
	}
	res := ready(w, c)
	if res == nil {
		return nil, nil
	}
	name := r.PathValue("group")
	for _, g := range res.Groups {
		if g.ID() == name {
			return c, g
		}
	}
	writeError(w, http.StatusNotFound, "GROUP_NOT_FOUND", "cluster "+quote(c.Name)+" has no streams group "+quote(name))
	return nil, nil
}

func (h *handler) group(w http.ResponseWriter, r *http.Request) {
	if c, g := h.findGroup(w, r); g != nil {
		writeDoc(w, api.NewGroupDetailDoc(c, g))
	}
}

func (h *handler) history(w http.ResponseWriter, r *http.Request) {
	if c, g := h.findGroup(w, r); g != nil {
		writeDoc(w, api.NewHistoryDoc(c.Name, g.ID(), c.History[g.ID()]))
	}
}

func (h *handler) events(w http.ResponseWriter, r *http.Request) {
	if c, g := h.findGroup(w, r); g != nil {
		writeDoc(w, api.NewEventsDoc(c.Name, g.ID(), c.Events[g.ID()]))
	}
}

// writeDoc answers a document, encoded as -o json encodes it.
func writeDoc(w http.ResponseWriter, doc any) {
	var b bytes.Buffer
	if err := format.Encode(&b, format.JSON, doc); err != nil {
		writeError(w, http.StatusInternalServerError, "ERROR", "the document could not be encoded: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(b.Bytes())
}

// writeError answers the error document of the verbs ({"error": {name,
// message}}) with a status.
func writeError(w http.ResponseWriter, status int, name, msg string) {
	var b bytes.Buffer
	_ = format.Encode(&b, format.JSON, api.NewServeErrorDoc(name, msg))
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
}

// quote shows a name in a message; the message is JSON, escaped by its
// encoder, and the page shows it as text.
func quote(s string) string { return `"` + s + `"` }
