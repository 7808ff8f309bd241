package admin

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// scriptedConn answers reads from a script, chunk bytes at a time.
type scriptedConn struct {
	net.Conn
	in    *bytes.Reader
	chunk int
	out   bytes.Buffer
}

func (s *scriptedConn) Read(p []byte) (int, error) {
	return s.in.Read(p[:min(len(p), s.chunk)])
}

func (s *scriptedConn) Write(p []byte) (int, error) { return s.out.Write(p) }

// requestFrame is a request with an empty body.
func requestFrame(key, version int16, corr int32) []byte {
	b := binary.BigEndian.AppendUint32(nil, 10)
	b = binary.BigEndian.AppendUint16(b, uint16(key))
	b = binary.BigEndian.AppendUint16(b, uint16(version))
	b = binary.BigEndian.AppendUint32(b, uint32(corr))
	return append(b, 0xff, 0xff) // null client id
}

func responseFrame(corr int32, body []byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(4+len(body)))
	b = binary.BigEndian.AppendUint32(b, uint32(corr))
	return append(b, body...)
}

func apiVersionsBody(t *testing.T) []byte {
	t.Helper()
	resp := kmsg.NewPtrApiVersionsResponse()
	resp.SetVersion(4)
	kversion.V4_4_0().EachMaxKeyVersion(func(k, v int16) {
		resp.ApiKeys = append(resp.ApiKeys, kmsg.ApiVersionsResponseApiKey{ApiKey: k, MaxVersion: v})
	})
	return resp.AppendTo(nil)
}

// readAll reads conn to its end or first error.
func readAll(conn net.Conn) ([]byte, error) {
	var got []byte
	buf := make([]byte, 4096)
	for {
		n, err := conn.Read(buf)
		got = append(got, buf[:n]...)
		if err != nil {
			return got, err
		}
	}
}

func TestGuard_passesGoodFramesInAnyChunking(t *testing.T) {
	table := apiVersionsBody(t)
	in := append(responseFrame(0, table), responseFrame(1, []byte("metadata body"))...)
	in = append(in, responseFrame(2, nil)...)
	for _, chunk := range []int{1, 3, 7, 8, 4096} {
		c := &Client{tables: map[string]*kmsg.ApiVersionsResponse{}}
		sc := &scriptedConn{in: bytes.NewReader(in), chunk: chunk}
		g := c.guard(sc, "b:9092")
		for corr, key := range []int16{keyApiVersions, 3, 10} {
			_, err := g.Write(requestFrame(key, 4, int32(corr)))
			require.NoError(t, err)
		}
		got, err := readAll(g)
		assert.ErrorIs(t, err, io.EOF, "chunk %d", chunk)
		assert.Equal(t, in, got, "chunk %d: every byte handed on", chunk)
		require.NotNil(t, c.versionTable("b:9092"), "chunk %d: the handshake's table is kept", chunk)
		v, err := c.maxVersion(t.Context(), target{addr: "b:9092"}, 89)
		require.NoError(t, err)
		assert.EqualValues(t, 1, v)
		assert.True(t, c.answered.Load(), "chunk %d: Metadata counts as an answer", chunk)
	}
}

func TestGuard_handshakeAloneIsNoAnswer(t *testing.T) {
	c := &Client{tables: map[string]*kmsg.ApiVersionsResponse{}}
	g := c.guard(&scriptedConn{in: bytes.NewReader(responseFrame(0, apiVersionsBody(t))), chunk: 100}, "b:1")
	_, _ = g.Write(requestFrame(keyApiVersions, 4, 0))
	_, err := readAll(g)
	assert.ErrorIs(t, err, io.EOF)
	assert.False(t, c.answered.Load())
}

func TestGuard_violations(t *testing.T) {
	size := func(n uint32) []byte { return binary.BigEndian.AppendUint32(nil, n) }
	good := responseFrame(0, []byte("ok"))
	tests := []struct {
		name   string
		in     []byte
		reason string
		api    string
	}{
		{"negative size", append(slices.Clone(good), size(0xfffffff0)...), "negative response size -16", "Metadata v4"},
		{"over the limit", append(slices.Clone(good), size(maxResponse+1)...), "response size 104857601 is over the limit of 104857600 bytes", "Metadata v4"},
		{"too short for a correlation id", append(slices.Clone(good), size(3)...), "response size 3 is too short for a correlation id", "Metadata v4"},
		{"HTTP", append(slices.Clone(good), []byte("HTTP/1.1 400")...), `it begins with "HTTP": the port is not a Kafka listener`, "Metadata v4"},
		{"wrong correlation id", append(slices.Clone(good), responseFrame(7, nil)...), "correlation id 7, expected 1", "Metadata v4"},
		{"answer to no request", append(append(slices.Clone(good), responseFrame(1, nil)...), responseFrame(2, nil)...), "an answer (correlation id 2) to no request", ""},
	}
	for _, tt := range tests {
		for _, chunk := range []int{1, 5, 4096} {
			c := &Client{tables: map[string]*kmsg.ApiVersionsResponse{}}
			g := c.guard(&scriptedConn{in: bytes.NewReader(tt.in), chunk: chunk}, "b:9092")
			_, _ = g.Write(requestFrame(10, 4, 0))
			_, _ = g.Write(requestFrame(3, 4, 1))
			got, err := readAll(g)
			var pe *kafka.ProtocolError
			require.True(t, errors.As(err, &pe), "%s, chunk %d: %v", tt.name, chunk, err)
			assert.Equal(t, &kafka.ProtocolError{Broker: "b:9092", API: tt.api, Reason: tt.reason}, pe, "%s, chunk %d", tt.name, chunk)
			assert.True(t, bytes.HasPrefix(got, good), "%s, chunk %d: the good answer before it is handed on", tt.name, chunk)
			_, err = g.Read(make([]byte, 10))
			assert.Equal(t, pe, err, "the connection stays failed")
		}
	}
}

// A TLS alert read as a size is franz-go's to explain (connectFailure).
func TestGuard_leavesTLSAlertsToFranzGo(t *testing.T) {
	alert := []byte{21, 3, 3, 0, 2, 2, 10}
	c := &Client{tables: map[string]*kmsg.ApiVersionsResponse{}}
	g := c.guard(&scriptedConn{in: bytes.NewReader(alert), chunk: 4096}, "b:9093")
	_, _ = g.Write(requestFrame(keyApiVersions, 4, 0))
	got, err := readAll(g)
	assert.ErrorIs(t, err, io.EOF)
	assert.Equal(t, alert, got)
}
