package mcp

// The server over HTTP: the SDK's streamable HTTP transport, for serve's
// /mcp, with what the MCP specification asks of an HTTP server against DNS
// rebinding (the Origin and Host checked) and bounds on what one client
// can hold (sessions, their idle time, a request's body).

import (
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPOptions are an HTTP handler's bounds.
type HTTPOptions struct {
	// SessionTimeout closes a session idle that long (DefaultHTTPOptions).
	SessionTimeout time.Duration
	// MaxSessions bounds the sessions open at once: past it a new one is
	// refused with 503 until one ends or times out.
	MaxSessions int
	// MaxBodyBytes bounds a request's body (413 past it).
	MaxBodyBytes int64
	Logger       *slog.Logger
}

// DefaultHTTPOptions are serve's: an assistant's session idles between
// questions; a request is one JSON-RPC message.
func DefaultHTTPOptions() HTTPOptions {
	return HTTPOptions{SessionTimeout: 30 * time.Minute, MaxSessions: 64, MaxBodyBytes: 1 << 20}
}

// HTTPHandler serves s over the streamable HTTP transport, stateful (each
// client its session, Mcp-Session-Id), answering in server-sent events.
//
// DNS rebinding (the specification's security warning): a request with an
// Origin header is served only when that origin is the server's own (its
// host is the request's Host), so a page of another site cannot call the
// tools through a browser; and a request that reaches a loopback address
// with a Host that is not a loopback name is refused (the SDK's check),
// so a page whose name was made to resolve to 127.0.0.1 cannot either.
// Both are refused with 403 before the SDK reads the body.
func HTTPHandler(s *sdk.Server, o HTTPOptions) http.Handler {
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{
		SessionTimeout:      o.SessionTimeout,
		MaxRequestBodyBytes: o.MaxBodyBytes,
		Logger:              o.Logger,
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !sameOrigin(origin, r) {
			http.Error(w, "Forbidden: the Origin is not this server's", http.StatusForbidden)
			return
		}
		if o.MaxSessions > 0 && r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" && sessions(s) >= o.MaxSessions {
			w.Header().Set("Retry-After", "60")
			http.Error(w, "Service Unavailable: too many MCP sessions open; one ends when its client ends it or after it idles", http.StatusServiceUnavailable)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// sameOrigin tells whether origin (scheme://host[:port]) is r's: its
// scheme (https when r came over TLS) and its Host.
func sameOrigin(origin string, r *http.Request) bool {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || u.Scheme != scheme {
		return false // also "null", a sandboxed or opaque origin
	}
	return strings.EqualFold(withPort(u.Host, scheme), withPort(r.Host, scheme))
}

// withPort is host:port with the scheme's default port when none is given.
func withPort(hostport, scheme string) string {
	if _, _, err := net.SplitHostPort(hostport); err == nil {
		return hostport
	}
	port := "80"
	if scheme == "https" {
		port = "443"
	}
	return net.JoinHostPort(strings.Trim(hostport, "[]"), port)
}

// sessions counts s's open sessions that completed initialize. The SDK
// also makes a session for any other POST without a session id (a client
// may send one as it connects) and closes it when that POST ends: counted,
// such a passing session refused the next client now and then (1 run in 10
// of TestHTTPHandler_sessionsBounded under -race). Each is bounded by its
// request and by serve's connection cap.
func sessions(s *sdk.Server) int {
	n := 0
	for ss := range s.Sessions() {
		if ss.InitializeParams() != nil {
			n++
		}
	}
	return n
}
