package admin

import (
	"context"
	"crypto/tls"
	"encoding/binary"
	"fmt"
	"net"
	"sync"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/admin/frames"
	"github.com/kstreams-groups/kstreams-groups/internal/admin/wirelog"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// Every connection franz-go opens passes through a guard that reads the
// frame headers going by. It does three things franz-go does not:
//
//   - it keeps the ApiVersions table of each connection's handshake, by
//     broker address, so that the version checks of --topology and
//     --offsets reuse what franz-go negotiated instead of asking again
//     (Client.maxVersion);
//   - it notes that the cluster has answered a request, so that a
//     connection closed later is reported as a lost answer and not as a
//     missing SASL (connerr.go);
//   - it fails a response that breaks the framing, a size that is
//     negative, too short or over maxResponse, or a correlation id that is
//     not the next request's, with a *kafka.ProtocolError that names the
//     broker and the request. franz-go does not retry that error and the
//     router reports it at once; franz-go would resend after a correlation
//     mismatch, and the router would resend the rest until --timeout
//     (e2e/FINDINGS.md F143).
//
// It costs a few comparisons per read and write: bodies pass through
// untouched, and only the handshake's ApiVersions answer is copied.

// maxResponse is the largest response the client reads; it is franz-go's
// default BrokerMaxReadBytes, set explicitly so the guard and franz-go agree.
const maxResponse = 100 << 20

// maxTable bounds the ApiVersions answer the guard copies to decode.
const maxTable = 1 << 20

// Connection set-up keys, which do not count as an answer of the cluster.
const (
	keySaslHandshake    = 17
	keyApiVersions      = 18
	keySaslAuthenticate = 36
)

// dial dials like franz-go's default dialer: TCP, then TLS with the host
// as server name unless the config names one, the two within dialTimeout.
// It is the one dialer of the client, with --debug (wirelog) or without,
// and notes each step as under way (progress.go).
func (c *Client) dial(tlsCfg *tls.Config) func(context.Context, string, string) (net.Conn, error) {
	return func(ctx context.Context, network, host string) (net.Conn, error) {
		ctx, cancel := context.WithTimeout(ctx, dialTimeout)
		defer cancel()
		id := c.waits.begin(Wait{Step: StepConnect, Broker: host})
		conn, err := (&net.Dialer{}).DialContext(ctx, network, host)
		c.waits.end(id, err != nil)
		c.reach.dialed(host, err)
		if err != nil || tlsCfg == nil {
			return conn, err
		}
		cfg := tlsCfg.Clone()
		if cfg.ServerName == "" {
			server, _, err := net.SplitHostPort(host)
			if err != nil {
				conn.Close()
				return nil, fmt.Errorf("unable to split host:port for dialing: %w", err)
			}
			cfg.ServerName = server
		}
		id = c.waits.begin(Wait{Step: StepTLS, Broker: host})
		tc := tls.Client(conn, cfg)
		err = tc.HandshakeContext(ctx)
		c.waits.end(id, err != nil)
		if err != nil {
			conn.Close()
			return nil, err
		}
		return tc, nil
	}
}

// dialer is dial with the connection under its guard.
func (c *Client) dialer(tlsCfg *tls.Config) func(context.Context, string, string) (net.Conn, error) {
	dial := c.dial(tlsCfg)
	return func(ctx context.Context, network, host string) (net.Conn, error) {
		conn, err := dial(ctx, network, host)
		if err != nil {
			return nil, err
		}
		return c.guard(conn, host), nil
	}
}

// guard wraps a connection to the broker at addr (host:port, as dialled).
func (c *Client) guard(conn net.Conn, addr string) net.Conn {
	return &guardConn{Conn: conn, addr: addr, c: c, handshake: true}
}

// sentReq is a request written and not yet answered.
type sentReq struct {
	key, version int16
	corr         int32
	// handshake: written before any request but ApiVersions.
	handshake bool
	// wait is its step in the client's waits (progress.go).
	wait uint64
}

func (r sentReq) api() string { return fmt.Sprintf("%s v%d", wirelog.APIName(r.key), r.version) }

// guardConn is a connection under its guard.
type guardConn struct {
	net.Conn
	addr string
	c    *Client

	mu sync.Mutex
	// sent are the requests awaiting an answer, in write order: Kafka
	// answers in order.
	sent []sentReq
	// wr follows the frames written, rd those read.
	wr frames.Cursor
	rd frameCursor
	// cur is the request whose answer is being read.
	cur sentReq
	// handshake holds while only ApiVersions requests were written; table
	// collects the body of the answer to one of them.
	handshake  bool
	collecting bool
	table      []byte
	// raw stops the guard: SASL v0 frames and TLS alerts are not Kafka
	// frames.
	raw bool
	// err is a violation found after the bytes before it were handed on.
	err error
}

// frameCursor follows the answers read: unlike frames.Cursor it checks a
// size as soon as its 4 bytes are in and copies bodies.
type frameCursor struct {
	hdr       [12]byte
	n         int   // header bytes seen of the current frame
	remaining int64 // body bytes still to come
}

// Write notes the requests in p before they reach the broker, so that an
// answer can never arrive before its request is known.
func (g *guardConn) Write(p []byte) (int, error) {
	g.mu.Lock()
	if !g.raw {
		g.noteWrites(p)
	}
	g.mu.Unlock()
	return g.Conn.Write(p)
}

func (g *guardConn) noteWrites(p []byte) {
	// size, key, version, correlation id
	g.wr.Feed(p, 12, func(h []byte, _ int32) {
		r := sentReq{key: int16(binary.BigEndian.Uint16(h[4:])), version: int16(binary.BigEndian.Uint16(h[6:])),
			corr: int32(binary.BigEndian.Uint32(h[8:]))}
		g.handshake = g.handshake && r.key == keyApiVersions
		r.handshake = g.handshake
		step := StepRequest
		switch r.key {
		case keyApiVersions:
			step = StepApiVersions
		case keySaslHandshake, keySaslAuthenticate:
			step = StepSASL
		}
		r.wait = g.c.waits.begin(Wait{Step: step, Broker: g.addr, API: r.api()})
		g.sent = append(g.sent, r)
	})
}

// Read hands on the bytes of good frames; at a frame that breaks the
// protocol it hands on what came before and then fails.
func (g *guardConn) Read(p []byte) (int, error) {
	g.mu.Lock()
	if err := g.err; err != nil {
		g.mu.Unlock()
		return 0, err
	}
	g.mu.Unlock()
	n, err := g.Conn.Read(p)
	if n <= 0 {
		return n, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.raw {
		return n, err
	}
	keep, violation := g.noteReads(p[:n])
	if violation == nil {
		return n, err
	}
	if keep > 0 {
		g.err = violation
		return keep, nil
	}
	g.err = violation
	return 0, violation
}

// noteReads follows the answers in p. On a violation it returns how many
// bytes of p came before the bad frame.
func (g *guardConn) noteReads(p []byte) (int, error) {
	const hdrLen = 8 // size, correlation id
	r := &g.rd
	for i := 0; i < len(p); {
		if g.raw {
			return len(p), nil
		}
		if r.remaining > 0 {
			k := int(min(int64(len(p)-i), r.remaining))
			if g.collecting {
				g.table = append(g.table, p[i:i+k]...)
			}
			i, r.remaining = i+k, r.remaining-int64(k)
			if r.remaining == 0 {
				g.answered()
			}
			continue
		}
		start := i - r.n // where the frame began; negative when in an earlier read
		before := r.n
		k := copy(r.hdr[r.n:hdrLen], p[i:])
		r.n, i = r.n+k, i+k
		if before < 4 && r.n >= 4 {
			if err := g.checkSize(); err != nil || g.raw {
				return max(start, 0), err
			}
		}
		if r.n < hdrLen {
			return len(p), nil
		}
		r.n = 0
		if err := g.checkCorrelation(); err != nil {
			return max(start, 0), err
		}
		r.remaining = int64(binary.BigEndian.Uint32(r.hdr[:4])) - (hdrLen - 4)
		if r.remaining == 0 {
			g.answered()
		}
	}
	return len(p), nil
}

// checkSize checks the size prefix of the answer being read. A TLS alert
// record read as a size is left to franz-go, whose error says what it is
// (connectFailure reads it as a TLS failure).
func (g *guardConn) checkSize() error {
	h := g.rd.hdr
	size := int32(binary.BigEndian.Uint32(h[:4]))
	api := "" // the answer is the oldest request's, if there is one
	if len(g.sent) > 0 {
		api = g.sent[0].api()
	}
	switch {
	case size > maxResponse && h[0] == 21 && (uint16(h[1])<<8|uint16(h[2]))&0x0300 != 0:
		g.raw = true
		return nil
	case size < 0:
		return g.violation(api, fmt.Sprintf("negative response size %d", size))
	case size < 4:
		return g.violation(api, fmt.Sprintf("response size %d is too short for a correlation id", size))
	case size == 0x48545450: // "HTTP"
		return g.violation(api, "it begins with \"HTTP\": the port is not a Kafka listener")
	case size > maxResponse:
		return g.violation(api, fmt.Sprintf("response size %d is over the limit of %d bytes", size, maxResponse))
	}
	return nil
}

// checkCorrelation matches the answer with the oldest request.
func (g *guardConn) checkCorrelation() error {
	corr := int32(binary.BigEndian.Uint32(g.rd.hdr[4:8]))
	if len(g.sent) == 0 {
		return g.violation("", fmt.Sprintf("an answer (correlation id %d) to no request", corr))
	}
	g.cur, g.sent = g.sent[0], g.sent[1:]
	if corr != g.cur.corr {
		return g.violation(g.cur.api(), fmt.Sprintf("correlation id %d, expected %d", corr, g.cur.corr))
	}
	size := int32(binary.BigEndian.Uint32(g.rd.hdr[:4]))
	g.collecting = g.cur.handshake && size <= maxTable
	g.table = g.table[:0]
	return nil
}

// answered is called when the whole answer to g.cur has been read.
func (g *guardConn) answered() {
	g.c.waits.end(g.cur.wait, false)
	switch g.cur.key {
	case keyApiVersions:
		if g.collecting {
			g.c.storeTable(g.addr, g.cur.version, g.table)
			g.collecting, g.table = false, nil
		}
	case keySaslHandshake:
		// SaslHandshake v0: raw SASL bytes follow, outside Kafka frames.
		g.raw = g.cur.version == 0
	case keySaslAuthenticate:
	default:
		g.c.answered.Store(true)
	}
}

// Close ends the steps of the requests still awaiting an answer: failed,
// so that a timeout can still name the one that was stuck.
func (g *guardConn) Close() error {
	g.mu.Lock()
	for _, r := range append(g.sent, g.cur) {
		g.c.waits.end(r.wait, true) // g.cur's ended already once answered
	}
	g.sent = nil
	g.mu.Unlock()
	return g.Conn.Close()
}

func (g *guardConn) violation(api, reason string) error {
	return &kafka.ProtocolError{Broker: g.addr, API: api, Reason: reason}
}

// storeTable decodes a handshake's ApiVersions answer and keeps it for addr
// when it carries the table (an UNSUPPORTED_VERSION answer does not: franz-go
// asks again at a lower version, and that answer is kept).
func (c *Client) storeTable(addr string, version int16, body []byte) {
	resp := kmsg.NewPtrApiVersionsResponse()
	resp.SetVersion(version)
	if len(body) > 2 && body[1] == 35 {
		// UNSUPPORTED_VERSION answers at v0, as franz-go reads it.
		resp.SetVersion(0)
	}
	if resp.ReadFrom(body) != nil || resp.ErrorCode != 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tables[addr] = resp
}

// versionTable is the ApiVersions answer the client holds for the broker at
// addr, or nil.
func (c *Client) versionTable(addr string) *kmsg.ApiVersionsResponse {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tables[addr]
}
