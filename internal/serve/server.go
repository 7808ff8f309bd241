package serve

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/exporter-toolkit/web"
	"golang.org/x/net/netutil"
)

// Limits bound what clients can hold of serve's HTTP server, so that no
// client, slow or hostile, can keep a connection, a goroutine or its
// buffers for ever, nor open connections without end.
type Limits struct {
	// ReadHeader bounds the reading of a request's header; Read the
	// reading of a whole request, its body included; Write an answer,
	// from the end of the request's header; Idle the wait for the next
	// request on a kept-alive connection.
	ReadHeader, Read, Write, Idle time.Duration
	// MaxConns bounds the connections open at once (0: no bound). At the
	// bound the idle ones are closed, and a new connection waits in the
	// listen queue until one ends.
	MaxConns int
}

// DefaultLimits are serve's limits (docs/serve.md, "Listening safely"):
// a request is a GET without a body and an answer is encoded from memory,
// so these leave a scraper on a slow network ample time. A scraper keeps
// its connection between scrapes up to 2 minutes apart.
func DefaultLimits() Limits {
	return Limits{ReadHeader: 10 * time.Second, Read: 30 * time.Second, Write: time.Minute, Idle: 2 * time.Minute, MaxConns: 256}
}

// ServerOptions are a Server's.
type ServerOptions struct {
	// WebConfigFile is the exporter toolkit's web configuration (TLS,
	// basic authentication), "" for plain HTTP.
	WebConfigFile string
	Limits        Limits
	Logger        *slog.Logger
}

// Server is serve's HTTP server: Handler's answers through the exporter
// toolkit (TLS, basic authentication from the web configuration), within
// the limits. The probes, /healthz and /readyz, are answered without the
// toolkit's authentication: they say only whether serve runs and has
// read every cluster, and a Kubernetes probe sends no credentials.
type Server struct {
	http *http.Server
	opts ServerOptions
	// open counts the connections open, for the shedding at MaxConns.
	open atomic.Int64
}

// NewServer is the server of h (Handler's) with opts.
func NewServer(h http.Handler, opts ServerOptions) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	lim := opts.Limits
	s := &Server{opts: opts}
	s.http = &http.Server{
		Handler:           h,
		ReadHeaderTimeout: lim.ReadHeader,
		ReadTimeout:       lim.Read,
		WriteTimeout:      lim.Write,
		IdleTimeout:       lim.Idle,
		ErrorLog:          slog.NewLogLogger(opts.Logger.Handler(), slog.LevelWarn),
		ConnState:         s.connState,
	}
	return s
}

// Serve serves on l until Shutdown, then returns http.ErrServerClosed.
func (s *Server) Serve(l net.Listener) error {
	if s.opts.Limits.MaxConns > 0 {
		l = netutil.LimitListener(l, s.opts.Limits.MaxConns)
	}
	probes := s.http.Handler
	// web.Serve wraps the server's handler in its authentication, then
	// serves: the first Accept comes after that, in the same goroutine,
	// and before any connection is served, so the probes are taken out
	// of the wrapper there without a race. The toolkit has no setting
	// for it (prometheus/exporter-toolkit#111).
	l = &firstAccept{Listener: l, first: func() {
		s.http.Handler = probesOpen(probes, s.http.Handler)
	}}
	webConfig := s.opts.WebConfigFile
	flags := &web.FlagConfig{WebListenAddresses: &[]string{l.Addr().String()}, WebSystemdSocket: new(bool), WebConfigFile: &webConfig}
	return web.Serve(l, s.http, flags, s.opts.Logger)
}

// Shutdown stops taking connections and waits for those in flight until
// ctx ends (http.Server.Shutdown).
func (s *Server) Shutdown(ctx context.Context) error { return s.http.Shutdown(ctx) }

// connState counts the connections; the one that reaches MaxConns
// closes the idle ones (kept alive between requests, or opened more than
// five seconds ago without a request), so that clients that only hold
// connections cannot keep a scraper out until their timeouts.
func (s *Server) connState(_ net.Conn, state http.ConnState) {
	switch state {
	case http.StateNew:
		if n := s.open.Add(1); s.opts.Limits.MaxConns > 0 && n >= int64(s.opts.Limits.MaxConns) {
			// Turning keep-alives off closes the idle connections
			// (http.Server's only way to); they are turned on again at
			// once.
			s.http.SetKeepAlivesEnabled(false)
			s.http.SetKeepAlivesEnabled(true)
		}
	case http.StateClosed, http.StateHijacked:
		s.open.Add(-1)
	}
}

// probesOpen answers the probes with probes, everything else with rest.
// Only the exact paths are open: any other goes through rest.
func probesOpen(probes, rest http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; p == "/healthz" || p == "/readyz" {
			probes.ServeHTTP(w, r)
			return
		}
		rest.ServeHTTP(w, r)
	})
}

// firstAccept calls first before its first Accept.
type firstAccept struct {
	net.Listener
	once  sync.Once
	first func()
}

func (l *firstAccept) Accept() (net.Conn, error) {
	l.once.Do(l.first)
	return l.Listener.Accept()
}
