package wirelog

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/twmb/franz-go/pkg/kgo"
)

// fakeConn records writes and serves reads from a buffer.
type fakeConn struct {
	net.Conn
	in  *bytes.Reader
	out bytes.Buffer
}

func (c *fakeConn) Read(p []byte) (int, error)  { return c.in.Read(p) }
func (c *fakeConn) Write(p []byte) (int, error) { return c.out.Write(p) }

// request is a Kafka request frame: size, key, version, correlation id
// and body.
func request(key, version int16, corr int32, body int) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(8+body))
	b = binary.BigEndian.AppendUint16(b, uint16(key))
	b = binary.BigEndian.AppendUint16(b, uint16(version))
	b = binary.BigEndian.AppendUint32(b, uint32(corr))
	return append(b, make([]byte, body)...)
}

// response is a Kafka response frame: size, correlation id and body.
func response(corr int32, body int) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(4+body))
	b = binary.BigEndian.AppendUint32(b, uint32(corr))
	return append(b, make([]byte, body)...)
}

// TestLog_lines pins every line of the --debug log byte for byte:
// frames split across writes and reads, an unknown correlation id, an
// unknown API key (kmsg names it "Unknown"), raw SASL after SaslHandshake
// v0, a frame that is not Kafka's, franz-go's log lines and the connection
// labels.
func TestLog_lines(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	clock := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	log := &logger{w: &out, redact: strings.NewReplacer("hunter2", "[redacted]").Replace, now: func() time.Time { return clock }}

	var in []byte
	in = append(in, response(1, 300)...)
	in = append(in, response(7, 0)...)
	in = append(in, response(2, 10)...)
	in = append(in, response(3, 10)...)
	raw := &fakeConn{in: bytes.NewReader(in)}
	c := &frameConn{Conn: raw, log: log, label: "127.0.0.1:9092", inflight: map[int32]inflight{}}

	req := request(18, 4, 1, 40)
	_, _ = c.Write(req[:5])
	_, _ = c.Write(req[5:])
	clock = clock.Add(1234 * time.Microsecond)
	buf := make([]byte, 300)
	_, _ = c.Read(buf[:3])   // a partial header logs nothing
	_, _ = c.Read(buf[:300]) // the header of response 1 completes
	_, _ = c.Write(request(999, 0, 9, 0))
	log.OnBrokerConnect(kgo.BrokerMetadata{NodeID: math.MinInt32, Host: "127.0.0.1", Port: 9092}, 3*time.Millisecond, c, nil)
	_, _ = c.Write(request(17, 0, 2, 12))
	_, _ = c.Read(buf[:13]) // the rest of response 1, then 7
	_, _ = c.Read(buf[:18]) // response 2: raw SASL from here on
	_, _ = c.Read(buf[:18]) // not decoded
	_, _ = c.Write(request(36, 2, 3, 20))
	log.OnBrokerConnect(kgo.BrokerMetadata{NodeID: 3, Host: "b3.example", Port: 9093}, 2500*time.Microsecond, nil, errors.New("refused: hunter2"))
	log.Log(kgo.LogLevelWarn, "retrying", "broker", 3, "err", "hunter2")
	log.Log(kgo.LogLevelInfo, "odd keyvals", "k")

	bad := &frameConn{Conn: &fakeConn{in: bytes.NewReader(nil)}, log: log, label: "x:1", inflight: map[int32]inflight{}}
	_, _ = bad.Write([]byte{0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}) // size below a header: not Kafka
	_, _ = bad.Write(request(18, 4, 1, 0))

	want := "debug: [127.0.0.1:9092] > ApiVersions v4 correlation_id=1 bytes=52\n" +
		"debug: [127.0.0.1:9092] < ApiVersions v4 correlation_id=1 bytes=308 after 1.2ms\n" +
		"debug: [127.0.0.1:9092] > Unknown v0 correlation_id=9 bytes=12\n" +
		"debug: [seed 0 127.0.0.1:9092] connection ready after 3ms\n" +
		"debug: [seed 0 127.0.0.1:9092] > SASLHandshake v0 correlation_id=2 bytes=24\n" +
		"debug: [seed 0 127.0.0.1:9092] < response to unknown correlation_id=7 bytes=8\n" +
		"debug: [seed 0 127.0.0.1:9092] < SASLHandshake v0 correlation_id=2 bytes=18 after 0s\n" +
		"debug: [seed 0 127.0.0.1:9092] raw SASL follows; its frames are not logged\n" +
		"debug: [node 3 b3.example:9093] connection failed after 3ms: refused: [redacted]\n" +
		"debug: kgo warn: retrying broker=3 err=[redacted]\n" +
		"debug: kgo info: odd keyvals\n"
	assert.Equal(t, want, out.String())
	assert.Equal(t, append(req, append(request(999, 0, 9, 0), append(request(17, 0, 2, 12), request(36, 2, 3, 20)...)...)...), raw.out.Bytes(), "the bytes pass through unchanged")
}

// TestLog_dial pins the lines of the dialer: a TCP dial that failed, a
// TLS handshake that failed (any error but net.Dialer's), and a wrapped
// plaintext connection, which logs nothing until its frames.
func TestLog_dial(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	log := &logger{w: &out, redact: func(s string) string { return s }, now: time.Now}
	fail := func(err error) func(context.Context, string, string) (net.Conn, error) {
		return func(context.Context, string, string) (net.Conn, error) { return nil, err }
	}
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	_, err := dialer(log, fail(refused), nil)(context.Background(), "tcp", "a:1")
	assert.ErrorIs(t, err, refused)
	_, err = dialer(log, fail(errors.New("tls: first record does not look like a TLS handshake")), nil)(context.Background(), "tcp", "b:2")
	assert.Error(t, err)

	raw := &fakeConn{in: bytes.NewReader(nil)}
	var wrapped string
	conn, err := dialer(log, func(context.Context, string, string) (net.Conn, error) { return raw, nil },
		func(c net.Conn, addr string) net.Conn { wrapped = addr; return c })(context.Background(), "tcp", "c:3")
	assert.NoError(t, err)
	assert.Equal(t, "c:3", wrapped, "the guard wraps the connection")
	assert.Same(t, raw, conn.(*frameConn).Conn)

	assert.Equal(t, "debug: [a:1] dial failed: dial tcp: connection refused\n"+
		"debug: [b:2] TLS handshake failed: tls: first record does not look like a TLS handshake\n", out.String())
}
