package serve

import (
	"io"
	"log/slog"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// HandlerOptions are what Handler mounts besides the metrics and probes.
type HandlerOptions struct {
	// Web answers / and /api/v1/ (the page and its documents, package
	// serve/web, built on the Collectors as a snapshot.Source); nil
	// serves a placeholder page and no document.
	Web    http.Handler
	Logger *slog.Logger
}

// Handler is serve's HTTP handler: /metrics, /healthz, /readyz and, at /
// and /api/v1/, opts.Web. Every answer comes from the published
// snapshots.
//
//	/metrics  the group families of every cluster (labelled cluster) and
//	          the collectors' own, with the Go and process metrics;
//	          content negotiation and compression by promhttp
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
	mux.Handle("GET /metrics", promhttp.HandlerFor(processGatherer(reg), promhttp.HandlerOpts{
		ErrorLog:      slog.NewLogLogger(errLog.Handler(), slog.LevelError),
		ErrorHandling: promhttp.ContinueOnError,
	}))
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
