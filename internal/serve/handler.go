package serve

import (
	"bytes"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// HandlerOptions are what Handler mounts besides the metrics and probes.
type HandlerOptions struct {
	// Web answers / and /api/v1/ (the page and its documents, package
	// serve/web, built on the Collectors as a snapshot.Source); nil
	// serves a placeholder page and no document.
	Web http.Handler
	// MCP answers /mcp and /mcp/ (the MCP server over HTTP, package mcp
	// through cmd); nil mounts nothing there.
	MCP    http.Handler
	Logger *slog.Logger
}

// Handler is serve's HTTP handler: /metrics, /healthz, /readyz and, at /
// and /api/v1/, opts.Web. Every answer comes from the published
// snapshots.
//
//	/metrics  the group families of every cluster (labelled cluster) and
//	          the collectors' own, with the Go and process metrics;
//	          content negotiation and compression by promhttp, each
//	          answer encoded once per publication (scrapeCache)
//	/healthz  200 while the process serves
//	/readyz   200 once every cluster has had a successful cycle, else 503
func Handler(cs Collectors, opts HandlerOptions) http.Handler {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collector{cs})
	errLog := opts.Logger
	if errLog == nil {
		errLog = slog.New(slog.DiscardHandler)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", &scrapeCache{gen: cs.generation, h: promhttp.HandlerFor(processGatherer(reg), promhttp.HandlerOpts{
		ErrorLog:      slog.NewLogLogger(errLog.Handler(), slog.LevelError),
		ErrorHandling: promhttp.ContinueOnError,
	})})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		plain(w, http.StatusOK, "ok\n")
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		if cs.Ready() {
			plain(w, http.StatusOK, "ready\n")
			return
		}
		var waiting string
		for _, c := range cs {
			if !c.Ready() {
				waiting += " " + c.Name()
			}
		}
		// The names are the operator's profiles, never a broker's.
		plain(w, http.StatusServiceUnavailable, "waiting for the first successful cycle of:"+waiting+"\n")
	})
	for _, p := range []string{"/metrics", "/healthz", "/readyz"} {
		mux.HandleFunc(p, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Allow", "GET, HEAD")
			plain(w, http.StatusMethodNotAllowed, "read-only: GET only\n")
		})
	}
	web := opts.Web
	if web == nil {
		web = http.HandlerFunc(placeholder)
	}
	mux.Handle("/", web)
	if opts.MCP != nil {
		mux.Handle("/mcp", opts.MCP)
		mux.Handle("/mcp/", opts.MCP)
	}
	return securityHeaders(mux)
}

// processGatherer is serve's own metrics (reg) with the Go and process
// metrics of the default registry, whose collectors client_golang's init
// registers in every process that links it: making them again (package
// collectors) cost another package's init at every start of the binary.
func processGatherer(reg *prometheus.Registry) prometheus.Gatherer {
	return prometheus.Gatherers{reg, prometheus.DefaultGatherer}
}

// placeholder is the page until one is mounted.
func placeholder(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = io.WriteString(w, `<!doctype html><html><head><meta charset="utf-8"><title>kstreams-groups serve</title></head>
<body><h1>kstreams-groups serve</h1><p><a href="metrics">/metrics</a> · <a href="healthz">/healthz</a> · <a href="readyz">/readyz</a></p></body></html>
`)
}

func plain(w http.ResponseWriter, code int, body string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(code)
	_, _ = io.WriteString(w, body)
}

// securityHeaders are set on every answer; the page's handler may set a
// Content-Security-Policy of its own.
func securityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'")
		hd.Set("Referrer-Policy", "no-referrer")
		h.ServeHTTP(w, r)
	})
}

// scrapeCache answers a scrape with the bytes of the last answer to the
// same Accept and Accept-Encoding while no cluster published: gathering,
// encoding and compressing some 44,000 series takes some 100 ms of CPU,
// and they change once per cycle. The fast path that pays:
// BenchmarkScrape (2,000 groups, 10 scrapers at once, issue 23's goal a
// p99 under 10 ms) without it measured a p50 of seconds. The Go and
// process metrics in a cached answer are those of the first scrape after
// the publication.
type scrapeCache struct {
	gen func() uint64
	h   http.Handler

	mu      sync.Mutex
	at      uint64
	entries map[[2]string]*cachedAnswer
}

// maxCachedAnswers bounds the answers kept: the kinds of scrapers.
const maxCachedAnswers = 16

type cachedAnswer struct {
	once   sync.Once
	header http.Header
	code   int
	body   bytes.Buffer
}

func (c *scrapeCache) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key := [2]string{r.Header.Get("Accept"), r.Header.Get("Accept-Encoding")}
	gen := c.gen()
	c.mu.Lock()
	if c.entries == nil || c.at != gen || len(c.entries) >= maxCachedAnswers {
		c.entries, c.at = map[[2]string]*cachedAnswer{}, gen
	}
	a := c.entries[key]
	if a == nil {
		a = &cachedAnswer{}
		c.entries[key] = a
	}
	c.mu.Unlock()
	// Scrapes that come together wait for one encoding.
	a.once.Do(func() {
		rec := &recorder{header: http.Header{}, body: &a.body}
		c.h.ServeHTTP(rec, r)
		a.header, a.code = rec.header, rec.code
		if a.code == 0 {
			a.code = http.StatusOK
		}
	})
	maps.Copy(w.Header(), a.header)
	w.WriteHeader(a.code)
	_, _ = w.Write(a.body.Bytes())
}

// recorder is a ResponseWriter that keeps the answer.
type recorder struct {
	header http.Header
	code   int
	body   *bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) WriteHeader(code int) {
	if r.code == 0 {
		r.code = code
	}
}
func (r *recorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(b)
}
