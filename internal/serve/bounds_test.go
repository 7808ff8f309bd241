package serve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/serve"
)

// lockedBuffer is a log destination the collector's goroutine writes and
// the test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestRunRetryInNeverNegative (W9): a failed cycle that took longer than
// its back-off logs retry_in 0s and starts the next at once, never a
// negative wait.
func TestRunRetryInNeverNegative(t *testing.T) {
	f := newFixture(t)
	f.down.Store(true)
	var logs lockedBuffer
	cfg := f.config("default")
	cfg.Logger = slog.New(slog.NewJSONHandler(&logs, nil))
	// Every reading of the clock is ten minutes later: each cycle seems
	// to take far longer than any back-off.
	var mu sync.Mutex
	clock := time.Unix(1_700_000_000, 0)
	cfg.Now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(10 * time.Minute)
		return clock
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var waits []time.Duration
	fire := make(chan time.Time)
	close(fire)
	cfg.After = func(d time.Duration) <-chan time.Time {
		mu.Lock()
		defer mu.Unlock()
		if waits = append(waits, d); len(waits) == 3 {
			cancel()
		}
		return fire
	}
	c := serve.NewCollector(cfg)
	done := make(chan struct{})
	go func() { c.Run(ctx); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("Run did not end with its context")
	}
	mu.Lock()
	assert.Equal(t, []time.Duration{0, 0, 0}, waits)
	mu.Unlock()
	var logged int
	for line := range strings.Lines(logs.String()) {
		var rec map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &rec), line)
		if rec["msg"] == "cycle failed" {
			logged++
			assert.Equal(t, "0s", rec["retry_in"], line)
		}
	}
	assert.Equal(t, 3, logged)
}
