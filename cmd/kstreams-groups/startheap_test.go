package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gcSettings reads the runtime's GC percent and memory limit.
func gcSettings() (percent int, limit int64) {
	percent = debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}

// The start heap: no collection until startHeap, then the settings the
// process had, restored by the first collection; serve's limit, set in
// between, stays; GOGC or GOMEMLIMIT in the environment leaves everything
// as it is. Not parallel: it changes this process's collector.
func TestStartHeap(t *testing.T) {
	percent, limit := gcSettings()
	t.Cleanup(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	restored := func() bool {
		p, l := gcSettings()
		return p == percent && l == limit
	}

	for _, e := range [][]string{{"GOGC", "50"}, {"GOMEMLIMIT", "1GiB"}} {
		var s gcStart
		s.set(env(e...))
		assert.True(t, restored(), "%s set: nothing changes", e[0])
	}

	var s gcStart
	s.set(env())
	p, l := gcSettings()
	assert.Equal(t, -1, p, "no collection by growth")
	assert.Equal(t, int64(startHeap), l, "until the start heap")
	runtime.GC()
	assert.Eventually(t, restored, 10*time.Second, 10*time.Millisecond, "the first collection restores the pacing")

	var serve gcStart
	serve.set(env())
	debug.SetMemoryLimit(120 << 20)
	serve.finish()
	p, l = gcSettings()
	assert.Equal(t, percent, p)
	assert.Equal(t, int64(120<<20), l, "serve's limit stays")
}

// As a process: a run that allocates more than the runtime's first heap
// (4 MiB) but less than the start heap collects nothing, unless GOGC says
// otherwise.
func TestStartHeap_process(t *testing.T) {
	t.Parallel()
	var text bytes.Buffer
	require.NoError(t, formatTopology(&text, 10_000))
	file := filepath.Join(t.TempDir(), "topology.txt")
	require.NoError(t, os.WriteFile(file, text.Bytes(), 0o600))
	gcs := regexp.MustCompile(`(?m)^gc \d+ @`)
	for _, tc := range []struct {
		env  []string
		none bool
	}{
		{nil, true},
		{[]string{"GOGC=100"}, false},
	} {
		cmd := cliProcess(t, append([]string{"GODEBUG=gctrace=1"}, tc.env...), "render", "-o", "json", file)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		require.NoError(t, cmd.Run(), stderr.String())
		n := len(gcs.FindAllString(stderr.String(), -1))
		if tc.none {
			assert.Zero(t, n, "collections with the start heap:\n%s", stderr.String())
		} else {
			assert.Positive(t, n, "GOGC set: the runtime's own pacing collects")
		}
	}
}
