//go:build linux

package main

import (
	"fmt"
	"log/slog"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// TestParseMemoryLimit: --memory-limit takes auto, off or a size as
// GOMEMLIMIT writes it, and refuses anything else with one line.
func TestParseMemoryLimit(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want memoryLimit
	}{
		{"auto", memoryLimit{auto: true}},
		{" auto ", memoryLimit{auto: true}},
		{"off", memoryLimit{}},
		{"0", memoryLimit{}},
		{"128MiB", memoryLimit{bytes: 128 << 20}},
		{"1GiB", memoryLimit{bytes: 1 << 30}},
		{"2TiB", memoryLimit{bytes: 2 << 40}},
		{"65536KiB", memoryLimit{bytes: 64 << 20}},
		{"200000000", memoryLimit{bytes: 200000000}},
		{"200000000B", memoryLimit{bytes: 200000000}},
	} {
		got, err := parseMemoryLimit(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
	for _, tc := range []struct{ in, want string }{
		{"", "want auto, off or a size"},
		{"lots", "want auto, off or a size"},
		{"128MB", "want auto, off or a size"},
		{"128 MiB", "want auto, off or a size"},
		{"-5MiB", "want auto, off or a size"},
		{"1.5GiB", "want auto, off or a size"},
		{"99999999999TiB", "want auto, off or a size"},
		{"15MiB", "want at least 16MiB"},
		{"0MiB", "want at least 16MiB"},
	} {
		_, err := parseMemoryLimit(tc.in)
		require.Error(t, err, tc.in)
		var ue *usageError
		assert.ErrorAs(t, err, &ue, tc.in)
		assert.Contains(t, err.Error(), tc.want, tc.in)
		assert.Contains(t, err.Error(), fmt.Sprintf("%q", tc.in), "%s: the value given is named", tc.in)
	}
}

// TestServeMemoryLimitUsageError: a bad --memory-limit is a usage error,
// exit 2 with one line, before anything listens.
func TestServeMemoryLimitUsageError(t *testing.T) {
	isolate(t)
	for _, v := range []string{"lots", "1MiB"} {
		res := runCLI(t, "--bootstrap-server", "127.0.0.1:1", "serve", "--memory-limit", v)
		assert.Equal(t, 2, res.code, res.stderr)
		first, _, _ := strings.Cut(res.stderr, "\n")
		assert.Contains(t, first, "--memory-limit: want", res.stderr)
	}
}

// TestApplyMemoryLimit: serve sets the runtime's soft memory limit (auto
// by default, following the partitions read), unless GOMEMLIMIT is set,
// which wins whatever the flag says; off sets none.
func TestApplyMemoryLimit(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	for _, tc := range []struct {
		name   string
		env    map[string]string
		limit  memoryLimit
		want   []int64
		follow bool
	}{
		{"auto", nil, memoryLimit{auto: true}, []int64{memoryLimitFloor}, true},
		{"fixed", nil, memoryLimit{bytes: 64 << 20}, []int64{64 << 20}, false},
		{"off", nil, memoryLimit{}, nil, false},
		{"GOMEMLIMIT wins over auto", map[string]string{"GOMEMLIMIT": "300MiB"}, memoryLimit{auto: true}, nil, false},
		{"GOMEMLIMIT wins over a size", map[string]string{"GOMEMLIMIT": "300MiB"}, memoryLimit{bytes: 64 << 20}, nil, false},
		{"GOMEMLIMIT=off wins too", map[string]string{"GOMEMLIMIT": "off"}, memoryLimit{auto: true}, nil, false},
		{"an empty GOMEMLIMIT is not set", map[string]string{"GOMEMLIMIT": ""}, memoryLimit{auto: true}, []int64{memoryLimitFloor}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var set []int64
			a := &app{deps: deps{env: mapEnviron(tc.env), setMemoryLimit: func(n int64) { set = append(set, n) }}}
			follow := a.applyMemoryLimit(tc.limit, log)
			assert.Equal(t, tc.want, set)
			assert.Equal(t, tc.follow, follow != nil)
		})
	}
}

// TestAutoMemoryLimit: the automatic limit is the floor up to the
// partitions it holds, then grows with them.
func TestAutoMemoryLimit(t *testing.T) {
	assert.Equal(t, int64(memoryLimitFloor), autoMemoryLimit(0))
	assert.Equal(t, int64(memoryLimitFloor), autoMemoryLimit(memoryLimitFloor/memoryLimitPerPartition))
	assert.Equal(t, int64(500000*memoryLimitPerPartition), autoMemoryLimit(500000))
	assert.Equal(t, "120MiB", formatBytes(memoryLimitFloor))
	assert.Equal(t, "1GiB", formatBytes(1<<30))
	assert.Equal(t, "1000B", formatBytes(1000))

	// The follower raises the limit once the snapshots hold more
	// partitions than the floor covers, and only when it changes.
	var set []int64
	a := &app{deps: deps{env: mapEnviron(nil), setMemoryLimit: func(n int64) { set = append(set, n) }}}
	follow := a.applyMemoryLimit(memoryLimit{auto: true}, slog.New(slog.DiscardHandler))
	follow(0)
	follow(40000)
	assert.Equal(t, []int64{memoryLimitFloor}, set, "within the floor: set once")
	follow(1000000)
	follow(1000000)
	assert.Equal(t, []int64{memoryLimitFloor, 1000000 * memoryLimitPerPartition}, set, "raised once")
	follow(10)
	assert.Equal(t, []int64{memoryLimitFloor, 1000000 * memoryLimitPerPartition, memoryLimitFloor}, set, "back to the floor")
}

// TestServeMemoryLimitApplied: the limit in force in the serve process,
// as its own go_gc_gomemlimit_bytes says.
func TestServeMemoryLimitApplied(t *testing.T) {
	isolate(t)
	pg, err := playground.StartStateWith(testPlayground, playground.DefaultState())
	require.NoError(t, err)
	t.Cleanup(func() { _ = pg.Close() })
	for _, tc := range []struct {
		name string
		env  []string
		args []string
		want float64
	}{
		{"default", nil, nil, memoryLimitFloor},
		{"flag", nil, []string{"--memory-limit", "200MiB"}, 200 << 20},
		{"off", nil, []string{"--memory-limit", "off"}, math.MaxInt64},
		{"GOMEMLIMIT wins", []string{"GOMEMLIMIT=300MiB"}, []string{"--memory-limit", "200MiB"}, 300 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := startServeEnv(t, tc.env, append([]string{"--bootstrap-server", bootstrap(pg)}, tc.args...)...)
			s.waitReady(t)
			_, body := s.get(t, "/metrics")
			var got float64
			found := false
			for _, l := range strings.Split(body, "\n") {
				if v, ok := strings.CutPrefix(l, "go_gc_gomemlimit_bytes "); ok {
					_, err := fmt.Sscan(v, &got)
					require.NoError(t, err, l)
					found = true
				}
			}
			require.True(t, found, "go_gc_gomemlimit_bytes in /metrics")
			assert.Equal(t, tc.want, got)
		})
	}
}
