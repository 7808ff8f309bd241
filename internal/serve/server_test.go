package serve_test

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/serve"
)

// startServer serves h with opts on 127.0.0.1 until the test ends.
func startServer(t *testing.T, h http.Handler, opts serve.ServerOptions) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := serve.NewServer(h, opts)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		assert.ErrorIs(t, <-served, http.ErrServerClosed)
	})
	return l.Addr().String()
}

// heldConn is one connection of the soak: it ends when the server closes
// it (or the test gives up on it at deadline).
type heldConn struct {
	closedAt time.Time
	err      error
}

// idleConn opens a connection, asks /healthz on it with keep-alive, then
// sends nothing more, and waits for the server to close it.
func idleConn(addr string, deadline time.Time, opened func()) heldConn {
	c, err := net.Dial("tcp", addr)
	opened()
	if err != nil {
		return heldConn{err: err}
	}
	defer c.Close()
	_ = c.SetDeadline(deadline)
	if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: soak\r\n\r\n"); err != nil {
		return heldConn{err: err}
	}
	br := bufio.NewReader(c)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		// Closed before its answer: an idle connection shed at the cap
		// before it was served is released too.
		return released(err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	_, err = br.ReadByte()
	return released(err)
}

// slowBody opens a connection and POSTs a body that never ends: a chunk
// every 50 ms, until the server closes the connection.
func slowBody(addr string, deadline time.Time, opened func()) heldConn {
	c, err := net.Dial("tcp", addr)
	opened()
	if err != nil {
		return heldConn{err: err}
	}
	defer c.Close()
	_ = c.SetDeadline(deadline)
	if _, err := io.WriteString(c, "POST /metrics HTTP/1.1\r\nHost: soak\r\nTransfer-Encoding: chunked\r\n\r\n"); err != nil {
		return heldConn{err: err}
	}
	done := make(chan heldConn, 1)
	go func() {
		_, err := io.Copy(io.Discard, c)
		if err == nil {
			err = io.EOF
		}
		done <- released(err)
	}()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case h := <-done:
			return h
		case <-tick.C:
			// A write fails once the server has closed: the reader says so.
			_, _ = io.WriteString(c, "1\r\nx\r\n")
		}
	}
}

// released is the end of a held connection: the server closed it (EOF
// or reset), or the client's deadline passed (the server held it).
func released(err error) heldConn {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return heldConn{err: fmt.Errorf("still open at the deadline: %w", err)}
	}
	return heldConn{closedAt: time.Now()}
}

// live counts the goroutines and the live heap after two collections
// (the second empties the sync.Pools' victim caches: the server's
// buffers).
func live() (goroutines int, heap uint64) {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return runtime.NumGoroutine(), m.HeapAlloc
}

// TestServerReleasesHeldConnections (W2): 500 idle keep-alive connections
// and 100 POSTs whose body never ends are all closed by the server within
// its timeouts (short ones here), the goroutines and the heap come back
// to what they were, and a scraper gets /metrics while the connection
// cap is reached. Without the read and idle timeouts, every one of them
// was held for ever.
func TestServerReleasesHeldConnections(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a soak of 600 connections; make test and CI run it")
	}
	f := newFixture(t)
	c := serve.NewCollector(f.config("default"))
	require.NoError(t, c.Cycle(t.Context()))
	lim := serve.Limits{ReadHeader: time.Second, Read: 2 * time.Second, Write: 5 * time.Second, Idle: time.Second, MaxConns: 200}
	addr := startServer(t, serve.Handler(serve.Collectors{c}, serve.HandlerOptions{}), serve.ServerOptions{Limits: lim})
	scrapeOnce := func() (int, error) {
		cl := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
		res, err := cl.Get("http://" + addr + "/metrics")
		if err != nil {
			return 0, err
		}
		defer res.Body.Close()
		_, err = io.Copy(io.Discard, res.Body)
		return res.StatusCode, err
	}
	code, err := scrapeOnce()
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, code)
	goroutines, heap := live()

	const idle, slow = 500, 100
	start := time.Now()
	// The client gives up far past the timeouts: a connection still
	// open then was held by the server.
	deadline := start.Add(60 * time.Second)
	results := make([]heldConn, idle+slow)
	var wg, opened sync.WaitGroup
	opened.Add(idle + slow)
	for i := range idle + slow {
		wg.Go(func() {
			if i < idle {
				results[i] = idleConn(addr, deadline, opened.Done)
			} else {
				results[i] = slowBody(addr, deadline, opened.Done)
			}
		})
	}
	// With the connections opened (more than the cap), a scraper is
	// still answered.
	opened.Wait()
	code, err = scrapeOnce()
	require.NoError(t, err, "a scrape while the cap is reached")
	assert.Equal(t, http.StatusOK, code)
	wg.Wait()
	last := start
	for i, r := range results {
		if !assert.NoError(t, r.err, "connection %d", i) {
			continue
		}
		if r.closedAt.After(last) {
			last = r.closedAt
		}
	}
	t.Logf("%d idle and %d slow connections released in %s (limits %+v)", idle, slow, last.Sub(start).Round(time.Millisecond), lim)
	// Within the limits: a few waves of them behind the cap, each at most
	// Read long, with a margin for a loaded machine.
	assert.Less(t, last.Sub(start), 30*time.Second, "released within the limits")

	code, err = scrapeOnce()
	require.NoError(t, err, "a scrape after")
	assert.Equal(t, http.StatusOK, code)
	// The server's goroutines end with their connections; the heap is
	// back within a margin (the collections' own noise).
	var g int
	var h uint64
	for range 100 {
		if g, h = live(); g <= goroutines+5 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("goroutines %d -> %d, live heap %d KiB -> %d KiB", goroutines, g, heap>>10, h>>10)
	assert.LessOrEqual(t, g, goroutines+5, "the connections' goroutines ended")
	assert.Less(t, h, heap+8<<20, "the heap is back")
}

// selfSigned writes a certificate for 127.0.0.1 and its key into dir,
// and returns the pool that trusts it.
func selfSigned(t *testing.T, dir string) *x509.CertPool {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "serve test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	kb, err := x509.MarshalECPrivateKey(key)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tls.crt"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tls.key"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600))
	cert, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return pool
}

// TestServerProbesOpenUnderAuth (W3): with the web configuration's TLS
// and basic authentication, over HTTP/1.1 and HTTP/2, the probes answer
// without credentials and every other path asks for them.
func TestServerProbesOpenUnderAuth(t *testing.T) {
	f := newFixture(t)
	c := serve.NewCollector(f.config("default"))
	require.NoError(t, c.Cycle(t.Context()))
	dir := t.TempDir()
	pool := selfSigned(t, dir)
	// The exporter toolkit's own test hash: bcrypt of "fakepassword".
	webConfig := filepath.Join(dir, "web.yml")
	require.NoError(t, os.WriteFile(webConfig, []byte("tls_server_config:\n  cert_file: tls.crt\n  key_file: tls.key\n"+
		"basic_auth_users:\n  prometheus: $2y$10$QOauhQNbBCuQDKes6eFzPeMqBSjb7Mr5DUmpZ/VcEd00UAV/LDeSi\n"), 0o600))
	addr := startServer(t, serve.Handler(serve.Collectors{c}, serve.HandlerOptions{}),
		serve.ServerOptions{WebConfigFile: webConfig, Limits: serve.DefaultLimits()})
	for _, h2 := range []bool{false, true} {
		tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: h2}
		if !h2 {
			tr.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
		}
		cl := &http.Client{Transport: tr, Timeout: 30 * time.Second}
		ask := func(path string, auth bool) int {
			req, err := http.NewRequest(http.MethodGet, "https://"+addr+path, nil)
			require.NoError(t, err)
			if auth {
				req.SetBasicAuth("prometheus", "fakepassword")
			}
			res, err := cl.Do(req)
			require.NoError(t, err)
			defer res.Body.Close()
			_, _ = io.Copy(io.Discard, res.Body)
			assert.Equal(t, h2, res.ProtoMajor == 2, "HTTP/2: %v", h2)
			return res.StatusCode
		}
		for _, p := range []string{"/healthz", "/readyz"} {
			assert.Equal(t, http.StatusOK, ask(p, false), "%s without credentials (HTTP/2: %v)", p, h2)
		}
		for _, p := range []string{"/metrics", "/", "/api/v1/groups", "/healthz/x"} {
			assert.Equal(t, http.StatusUnauthorized, ask(p, false), "%s without credentials (HTTP/2: %v)", p, h2)
		}
		assert.Equal(t, http.StatusOK, ask("/metrics", true), "HTTP/2: %v", h2)
		tr.CloseIdleConnections()
	}
}
