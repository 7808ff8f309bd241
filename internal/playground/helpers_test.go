package playground

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"
)

// testTimeout bounds every network wait so a bug fails a test instead of
// hanging it.
const testTimeout = 15 * time.Second

func startCluster(t *testing.T, cfg Config) *Cluster {
	t.Helper()
	cfg.Logf = t.Logf
	c, err := Start(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, c.Close()) })
	return c
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	t.Cleanup(cancel)
	return ctx
}

// cliVersions is the pin the CLI uses (admin.PinnedVersions): Stable with
// StreamsGroupDescribe v1 and DeleteGroups v3, optionally lowered per key.
func cliVersions(overrides map[int16]int16) *kversion.Versions {
	v := kversion.Stable()
	v.SetMaxKeyVersion(89, 1)
	v.SetMaxKeyVersion(42, 3)
	for k, max := range overrides {
		v.SetMaxKeyVersion(k, max)
	}
	return v
}

// newClient returns a kgo client that already knows every broker, so
// Broker(n).Request works at once. overrides lowers the pinned versions.
func newClient(t *testing.T, c *Cluster, overrides map[int16]int16) *kgo.Client {
	t.Helper()
	cl, err := kgo.NewClient(
		kgo.SeedBrokers(c.Addrs()...),
		kgo.MaxVersions(cliVersions(overrides)),
		kgo.RequestRetries(1),
	)
	require.NoError(t, err)
	t.Cleanup(cl.Close)
	// kgo takes over Metadata requests and learns the brokers from them.
	_, err = cl.Request(testCtx(t), kmsg.NewPtrMetadataRequest())
	require.NoError(t, err)
	return cl
}

// rawConn speaks the wire by hand, for what kgo would never send.
type rawConn struct {
	t    *testing.T
	conn net.Conn
	corr int32
}

func dialRaw(t *testing.T, addr string) *rawConn {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, testTimeout)
	require.NoError(t, err)
	require.NoError(t, conn.SetDeadline(time.Now().Add(testTimeout)))
	t.Cleanup(func() { _ = conn.Close() })
	return &rawConn{t: t, conn: conn}
}

func (r *rawConn) write(b []byte) {
	r.t.Helper()
	_, err := r.conn.Write(b)
	require.NoError(r.t, err)
}

// send writes req at its current version and returns its correlation id.
func (r *rawConn) send(req kmsg.Request) int32 {
	r.t.Helper()
	r.corr++
	r.write(kmsg.NewRequestFormatter(kmsg.FormatterClientID("kafkatest-test")).AppendRequest(nil, req, r.corr))
	return r.corr
}

func (r *rawConn) readFrame() ([]byte, error) {
	var size [4]byte
	if _, err := io.ReadFull(r.conn, size[:]); err != nil {
		return nil, err
	}
	frame := make([]byte, binary.BigEndian.Uint32(size[:]))
	_, err := io.ReadFull(r.conn, frame)
	return frame, err
}

// roundTrip sends req and returns the response body after checking the
// correlation id and stripping the response header.
func (r *rawConn) roundTrip(req kmsg.Request) []byte {
	r.t.Helper()
	corr := r.send(req)
	frame, err := r.readFrame()
	require.NoError(r.t, err)
	require.GreaterOrEqual(r.t, len(frame), 4)
	require.Equal(r.t, corr, int32(binary.BigEndian.Uint32(frame)), "correlation id")
	body := frame[4:]
	if req.IsFlexible() && req.Key() != 18 {
		require.NotEmpty(r.t, body)
		require.Equal(r.t, byte(0), body[0], "empty response header tag buffer")
		body = body[1:]
	}
	return body
}

// decode round-trips req and decodes the body into its response type.
func decode[T kmsg.Response](t *testing.T, r *rawConn, req kmsg.Request) T {
	t.Helper()
	body := r.roundTrip(req)
	resp := req.ResponseKind()
	require.NoError(t, resp.ReadFrom(body))
	return resp.(T)
}

// requireClosed asserts the broker closed the connection.
func (r *rawConn) requireClosed() {
	r.t.Helper()
	_, err := r.readFrame()
	// A close with unread request bytes in the broker's buffer is an RST.
	require.True(r.t, errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET),
		"connection should be closed by the broker, got %v", err)
}

func ptr[T any](v T) *T { return &v }

// brokerRequest sends req to one node, the way the CLI's router does.
func brokerRequest[T kmsg.Response](t *testing.T, cl *kgo.Client, node int32, req kmsg.Request) T {
	t.Helper()
	resp, err := cl.Broker(int(node)).Request(testCtx(t), req)
	require.NoError(t, err)
	return resp.(T)
}
