package wirelog

import (
	"context"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/admin/frames"
)

// Config says where the log goes and how connections are dialled.
type Config struct {
	// W receives the lines, one write per line. Lines carry broker
	// strings (hosts from Metadata, broker and kgo messages) as they came:
	// a W that reaches a terminal escapes them (format.LineEscaper).
	W io.Writer
	// Redact replaces the credentials in a line; nil leaves lines as they
	// are.
	Redact func(string) string
	// Dial opens a connection: TCP, and TLS when configured (the admin
	// client's dialer). A *tls.Conn it returns has its version and cipher
	// logged.
	Dial func(ctx context.Context, network, host string) (net.Conn, error)
	// Wrap, when set, wraps each connection after the TLS handshake and
	// before the log's own wrapper (the admin client's guard); addr is the
	// address dialled.
	Wrap func(conn net.Conn, addr string) net.Conn
}

// Opts returns the franz-go options that write the log: a dialer that
// decodes the frame headers of each connection, the connection hook and the
// logger. The dialer logs what Config.Dial did and wraps its connections.
func Opts(c Config) []kgo.Opt {
	redact := c.Redact
	if redact == nil {
		redact = func(s string) string { return s }
	}
	log := &logger{w: c.W, redact: redact, now: time.Now}
	return []kgo.Opt{kgo.Dialer(dialer(log, c.Dial, c.Wrap)), kgo.WithHooks(log), kgo.WithLogger(log)}
}

// logger writes the lines; it is a kgo.Logger and a kgo hook.
type logger struct {
	mu     sync.Mutex
	w      io.Writer
	redact func(string) string
	now    func() time.Time
}

func (d *logger) printf(format string, args ...any) {
	line := "debug: " + d.redact(fmt.Sprintf(format, args...)) + "\n"
	d.mu.Lock()
	defer d.mu.Unlock()
	_, _ = io.WriteString(d.w, line)
}

// Level makes franz-go log its informational messages and above.
func (d *logger) Level() kgo.LogLevel { return kgo.LogLevelInfo }

// Log is franz-go's logger callback.
func (d *logger) Log(level kgo.LogLevel, msg string, keyvals ...any) {
	var b strings.Builder
	b.WriteString("kgo ")
	b.WriteString(strings.ToLower(level.String()))
	b.WriteString(": ")
	b.WriteString(msg)
	for i := 0; i+1 < len(keyvals); i += 2 {
		fmt.Fprintf(&b, " %v=%v", keyvals[i], keyvals[i+1])
	}
	d.printf("%s", b.String())
}

// OnBrokerConnect names a connection once franz-go knows which broker it
// belongs to (after ApiVersions and SASL, which are logged by address).
func (d *logger) OnBrokerConnect(meta kgo.BrokerMetadata, initDur time.Duration, conn net.Conn, err error) {
	label := brokerLabel(meta)
	if err != nil {
		d.printf("[%s] connection failed after %s: %v", label, initDur.Round(time.Millisecond), err)
		return
	}
	if dc, ok := conn.(*frameConn); ok {
		dc.setLabel(label)
	}
	d.printf("[%s] connection ready after %s", label, initDur.Round(time.Millisecond))
}

func brokerLabel(meta kgo.BrokerMetadata) string {
	addr := net.JoinHostPort(meta.Host, fmt.Sprint(meta.Port))
	if meta.NodeID < math.MinInt32+1<<16 {
		return fmt.Sprintf("seed %d %s", meta.NodeID-math.MinInt32, addr)
	}
	return fmt.Sprintf("node %d %s", meta.NodeID, addr)
}

// dialer dials with dial, logs the outcome (a failed TCP dial, a failed
// TLS handshake, the TLS version and cipher agreed) and wraps the
// connection for the log.
func dialer(log *logger, dial func(context.Context, string, string) (net.Conn, error), wrap func(net.Conn, string) net.Conn) func(context.Context, string, string) (net.Conn, error) {
	return func(ctx context.Context, network, host string) (net.Conn, error) {
		conn, err := dial(ctx, network, host)
		if err != nil {
			// net.Dialer fails as a "dial" *net.OpError; anything else
			// failed after the TCP connection, in the TLS handshake.
			var oe *net.OpError
			if errors.As(err, &oe) && oe.Op == "dial" {
				log.printf("[%s] dial failed: %v", host, err)
			} else {
				log.printf("[%s] TLS handshake failed: %v", host, err)
			}
			return nil, err
		}
		if tc, ok := conn.(*tls.Conn); ok {
			st := tc.ConnectionState()
			log.printf("[%s] TLS %s %s", host, tls.VersionName(st.Version), tls.CipherSuiteName(st.CipherSuite))
		}
		if wrap != nil {
			conn = wrap(conn, host)
		}
		return &frameConn{Conn: conn, log: log, label: host, inflight: map[int32]inflight{}}, nil
	}
}

type inflight struct {
	key, version int16
	sent         time.Time
}

// frameConn decodes the frame headers flowing through a connection.
type frameConn struct {
	net.Conn
	log *logger

	mu       sync.Mutex
	label    string
	inflight map[int32]inflight
	wr, rd   frames.Cursor
	raw      bool // raw SASL (SaslHandshake v0): frames are not Kafka requests
	rawNext  bool
}

func (c *frameConn) setLabel(l string) {
	c.mu.Lock()
	c.label = l
	c.mu.Unlock()
}

func (c *frameConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.raw || n <= 0 {
		return n, err
	}
	ok := c.wr.Feed(p[:n], 12, func(h []byte, size int32) {
		key, version := int16(binary.BigEndian.Uint16(h[4:])), int16(binary.BigEndian.Uint16(h[6:]))
		corr := int32(binary.BigEndian.Uint32(h[8:]))
		c.inflight[corr] = inflight{key: key, version: version, sent: c.log.now()}
		c.log.printf("[%s] > %s v%d correlation_id=%d bytes=%d", c.label, APIName(key), version, corr, size+4)
		if key == 17 && version == 0 {
			c.rawNext = true
		}
	})
	if !ok {
		c.raw = true
	}
	return n, err
}

func (c *frameConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.raw || n <= 0 {
		return n, err
	}
	ok := c.rd.Feed(p[:n], 8, func(h []byte, size int32) {
		corr := int32(binary.BigEndian.Uint32(h[4:]))
		in, known := c.inflight[corr]
		if !known {
			c.log.printf("[%s] < response to unknown correlation_id=%d bytes=%d", c.label, corr, size+4)
			return
		}
		delete(c.inflight, corr)
		c.log.printf("[%s] < %s v%d correlation_id=%d bytes=%d after %s", c.label, APIName(in.key), in.version, corr, size+4,
			c.log.now().Sub(in.sent).Round(100*time.Microsecond))
		if c.rawNext && in.key == 17 {
			c.log.printf("[%s] raw SASL follows; its frames are not logged", c.label)
			c.raw = true
		}
	})
	if !ok {
		c.raw = true
	}
	return n, err
}

// APIName is kmsg's name of the request key, or ApiKey(key).
func APIName(key int16) string {
	if name := kmsg.NameForKey(key); name != "" {
		return name
	}
	return fmt.Sprintf("ApiKey(%d)", key)
}
