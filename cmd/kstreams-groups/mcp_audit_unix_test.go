//go:build unix

package main

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// --audit-log naming a FIFO that no process reads: opening it for writing
// would wait for a reader for ever, before the first request is read. It
// is a usage error at once instead, for mcp and serve --mcp alike (one
// opener, openAuditLog).
func TestMCPCommand_auditLogFIFOWithoutReader(t *testing.T) {
	t.Parallel()
	isolate(t)
	for _, args := range [][]string{
		{"mcp", "--bootstrap-server", "127.0.0.1:1"},
		{"serve", "--mcp", "--bootstrap-server", "127.0.0.1:1", "--listen", "127.0.0.1:0"},
	} {
		fifo := filepath.Join(t.TempDir(), "audit.fifo")
		require.NoError(t, syscall.Mkfifo(fifo, 0o600))
		done := make(chan result, 1)
		go func() { done <- runWithStdin(t, "", append(args, "--audit-log", fifo)...) }()
		select {
		case r := <-done:
			assert.Equal(t, exitUsage, r.code, "%v: %s", args, r.stderr)
			assert.Contains(t, r.stderr, "--audit-log: ", args)
			assert.Contains(t, r.stderr, "no process reads", args)
		case <-time.After(30 * time.Second): // generous: the refusal is at once
			t.Fatalf("%v waited for a reader of the audit log", args)
		}
	}
}
