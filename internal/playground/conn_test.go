package playground

import (
	"encoding/binary"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kbin"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// header builds a request header by hand: key, version, correlation id,
// client id, and the tag buffer when flexible.
func header(key, version int16, flexible bool) []byte {
	b := kbin.AppendInt16(nil, key)
	b = kbin.AppendInt16(b, version)
	b = kbin.AppendInt32(b, 1)
	b = kbin.AppendNullableString(b, nil)
	if flexible {
		b = append(b, 0)
	}
	return b
}

func sized(payload []byte) []byte {
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(payload))), payload...)
}

func TestGarbageClosesTheConnection(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		profile Profile
		bytes   []byte
		half    bool // close our write side after sending (truncated input)
		wantLog *Request
	}{
		{name: "negative size", bytes: []byte{0xff, 0xff, 0xff, 0xfe, 1, 2, 3}},
		{name: "size below a header", bytes: sized([]byte{0, 18, 0, 0})},
		{name: "size above the frame limit", bytes: []byte{0x7f, 0xff, 0xff, 0xff}},
		{name: "frame cut short", bytes: []byte{0, 0, 0, 50, 0, 18, 0, 0}, half: true},
		{name: "client id longer than the frame", bytes: sized([]byte{0, 18, 0, 0, 0, 0, 0, 1, 0, 99})},
		{
			name: "unknown key", bytes: sized(header(150, 0, false)),
			wantLog: &Request{Key: 150, Version: 0},
		},
		{
			name: "advertised key without a handler (Produce)", bytes: sized(header(0, 9, true)),
			wantLog: &Request{Key: 0, Version: 9},
		},
		{
			name: "version above the profile", profile: Kafka43, bytes: sized(append(header(89, 1, true), 1, 1, 0, 0)),
			wantLog: &Request{Key: 89, Version: 1},
		},
		{
			name: "version above kmsg", bytes: sized(append(header(89, 7, true), 1, 1, 0, 0)),
			wantLog: &Request{Key: 89, Version: 7},
		},
		{
			name: "negative version", bytes: sized(header(3, -1, false)),
			wantLog: &Request{Key: 3, Version: -1},
		},
		{
			name: "body garbage", bytes: sized(append(header(89, 1, true), 0xff, 0xff, 0xff, 0xff, 0x0f)),
			wantLog: &Request{Key: 89, Version: 1},
		},
		{
			name: "body missing", bytes: sized(header(42, 3, true)),
			wantLog: &Request{Key: 42, Version: 3},
		},
		{
			name: "header tag buffer garbage", bytes: sized(append(header(89, 1, false), 0x05, 0x01)),
			wantLog: &Request{Key: 89, Version: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := startCluster(t, Config{Profile: tt.profile})
			raw := dialRaw(t, c.Addrs()[0])
			raw.write(tt.bytes)
			if tt.half {
				require.NoError(t, raw.conn.(*net.TCPConn).CloseWrite())
			}
			raw.requireClosed()

			if tt.wantLog != nil {
				reqs := c.Requests()
				require.Len(t, reqs, 1)
				assert.Equal(t, tt.wantLog.Key, reqs[0].Key)
				assert.Equal(t, tt.wantLog.Version, reqs[0].Version)
				assert.Nil(t, reqs[0].Msg)
			}

			// The broker is still up for the next client.
			again := dialRaw(t, c.Addrs()[0])
			resp := decode[*kmsg.ApiVersionsResponse](t, again, kmsg.NewPtrApiVersionsRequest())
			assert.Zero(t, resp.ErrorCode)
		})
	}
}

func TestPipelinedRequestsAnswerInOrder(t *testing.T) {
	t.Parallel()
	c := startCluster(t, Config{})
	raw := dialRaw(t, c.Addrs()[0])
	var corrs []int32
	for v := int16(0); v < 3; v++ {
		req := kmsg.NewPtrMetadataRequest()
		req.Version = v
		corrs = append(corrs, raw.send(req))
	}
	for _, want := range corrs {
		frame, err := raw.readFrame()
		require.NoError(t, err)
		assert.Equal(t, want, int32(binary.BigEndian.Uint32(frame)))
	}
}

// With Latency, pipelined answers still come in order, each no sooner
// than Latency after its request.
func TestLatency(t *testing.T) {
	t.Parallel()
	const latency = 50 * time.Millisecond
	c := startCluster(t, Config{Latency: latency})
	raw := dialRaw(t, c.Addrs()[0])
	sent := time.Now()
	var corrs []int32
	for v := int16(0); v < 3; v++ {
		req := kmsg.NewPtrMetadataRequest()
		req.Version = v
		corrs = append(corrs, raw.send(req))
	}
	for _, want := range corrs {
		frame, err := raw.readFrame()
		require.NoError(t, err)
		assert.GreaterOrEqual(t, time.Since(sent), latency)
		assert.Equal(t, want, int32(binary.BigEndian.Uint32(frame)))
	}
}

func TestStart_Config(t *testing.T) {
	t.Parallel()
	c := startCluster(t, Config{})
	require.Len(t, c.Addrs(), 1)
	host, _, err := net.SplitHostPort(c.Addrs()[0])
	require.NoError(t, err)
	assert.Equal(t, "127.0.0.1", host)
	assert.Equal(t, Kafka44, c.cfg.Profile)
	assert.Equal(t, DefaultClusterID, c.cfg.ClusterID)

	_, taken, err := net.SplitHostPort(c.Addrs()[0])
	require.NoError(t, err)
	takenPort, err := strconv.Atoi(taken)
	require.NoError(t, err)

	tests := []struct {
		name    string
		cfg     Config
		wantErr string
	}{
		{"unknown profile", Config{Profile: "4.2"}, `unknown profile "4.2"`},
		{"port in use", Config{Port: takenPort}, "address already in use"},
		{"ports past 65535", Config{Port: 65535, Nodes: 2}, "port 65535 cannot fit 2 nodes"},
		{"negative nodes", Config{Nodes: -1}, "nodes must be 1..64"},
		{"too many nodes", Config{Nodes: 65}, "nodes must be 1..64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Start(tt.cfg)
			require.ErrorContains(t, err, tt.wantErr)
		})
	}
}

func TestStart_FixedPorts(t *testing.T) {
	t.Parallel()
	// Ask the OS for a free port, release it and start on it. One node
	// only: the port after it is not known to be free.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	require.NoError(t, ln.Close())

	c := startCluster(t, Config{Port: port})
	assert.Equal(t, []string{net.JoinHostPort("127.0.0.1", strconv.Itoa(port))}, c.Addrs())
}

func TestClose(t *testing.T) {
	t.Parallel()
	c, err := Start(Config{Nodes: 2})
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() }) // in case an assertion stops the test early
	raw := dialRaw(t, c.Addrs()[1])
	_ = decode[*kmsg.ApiVersionsResponse](t, raw, kmsg.NewPtrApiVersionsRequest())

	require.NoError(t, c.Close())
	raw.requireClosed()
	require.NoError(t, c.Close(), "Close is idempotent")
	for _, addr := range c.Addrs() {
		_, err := net.Dial("tcp", addr)
		assert.Error(t, err, "listener %s should be closed", addr)
	}
}
