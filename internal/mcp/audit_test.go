package mcp

import (
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// An audit log whose reader stalls (a FIFO or pipe nobody drains) loses
// lines, not calls: a write that cannot go through in time is given up,
// and the call that recorded it goes on.
func TestAuditLog_stalledReaderLosesLines(t *testing.T) {
	t.Parallel()
	r, w, err := os.Pipe()
	require.NoError(t, err)
	t.Cleanup(func() { _ = r.Close(); _ = w.Close() })
	l := newAuditLog(w, time.Now)
	done := make(chan struct{})
	go func() {
		defer close(done)
		// Far more than a pipe's buffer (64 KiB on Linux).
		for range 200 {
			l.record("list", map[string]any{"x": strings.Repeat("a", 4096)}, "ok", "")
		}
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second): // generous: each stalled write gives up within a second
		t.Fatal("a stalled audit log reader blocked the calls")
	}
}

// Once the reader drains the pipe again, lines go through again.
func TestAuditLog_recoversOnceDrained(t *testing.T) {
	t.Parallel()
	r, w, err := os.Pipe()
	require.NoError(t, err)
	t.Cleanup(func() { _ = r.Close(); _ = w.Close() })
	l := newAuditLog(w, time.Now)
	for range 40 { // past the pipe's buffer: the log stalls
		l.record("list", map[string]any{"x": strings.Repeat("a", 4096)}, "ok", "")
	}
	require.True(t, l.stalled)
	go func() { _, _ = io.Copy(io.Discard, r) }()
	require.Eventually(t, func() bool {
		l.record("list", map[string]any{}, "ok", "")
		return !l.stalled
	}, 30*time.Second, 50*time.Millisecond)
}
