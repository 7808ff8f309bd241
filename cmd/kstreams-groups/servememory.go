package main

// serve's soft memory limit (--memory-limit). A cycle on a large cluster
// allocates several times what serve keeps: without a limit the Go
// runtime lets the heap grow to twice what was live at its last
// collection, which a cycle's peak sets, and the resident memory follows.
// serve therefore sets the runtime's soft memory limit itself unless the
// operator set GOMEMLIMIT, which always wins.

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/serve"
)

// The automatic limit, from BenchmarkServeRSS (2,000 groups, 50,000
// partitions: a live heap of about 44 MiB between cycles, about twice
// that at a cycle's peak): the floor holds the peak of that size with
// room, and past it the limit grows with the partitions read, so that a
// larger cluster never has its collector starved by a limit below its
// live heap.
const (
	memoryLimitFloor        = 120 << 20
	memoryLimitPerPartition = 2560
	// memoryLimitLeast refuses limits that would only make the collector
	// run without end.
	memoryLimitLeast = 16 << 20
)

// memoryLimit is --memory-limit: auto (the default), off, or a size.
type memoryLimit struct {
	auto bool
	// bytes is the fixed limit; 0 with off.
	bytes int64
}

func (m memoryLimit) String() string {
	switch {
	case m.auto:
		return "auto"
	case m.bytes == 0:
		return "off"
	}
	return formatBytes(m.bytes)
}

// memorySuffixes are GOMEMLIMIT's units.
var memorySuffixes = []struct {
	suffix string
	shift  uint
}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}}

// parseMemoryLimit reads --memory-limit: auto, off (or 0), or a size as
// GOMEMLIMIT takes it (a whole number of bytes, or with B, KiB, MiB, GiB
// or TiB), at least 16MiB.
func parseMemoryLimit(s string) (memoryLimit, error) {
	v := strings.TrimSpace(s)
	switch v {
	case "auto":
		return memoryLimit{auto: true}, nil
	case "off", "0":
		return memoryLimit{}, nil
	}
	num, shift := v, uint(0)
	for _, u := range memorySuffixes {
		if n, ok := strings.CutSuffix(v, u.suffix); ok {
			num, shift = n, u.shift
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	bad := err != nil || n < 0 || n > math.MaxInt64>>shift
	if bad {
		return memoryLimit{}, usageErrorf("--memory-limit: want auto, off or a size such as 128MiB or 1GiB (B, KiB, MiB, GiB, TiB), got %q", s)
	}
	if n<<shift < memoryLimitLeast {
		return memoryLimit{}, usageErrorf("--memory-limit: want at least 16MiB (or off), got %q", s)
	}
	return memoryLimit{bytes: n << shift}, nil
}

// autoMemoryLimit is the automatic limit for a cluster set of that many
// partitions.
func autoMemoryLimit(partitions int) int64 {
	return max(memoryLimitFloor, int64(partitions)*memoryLimitPerPartition)
}

// setMemoryLimit is the runtime's (debug.SetMemoryLimit) unless a test
// injects its own.
func (a *app) setMemoryLimit(n int64) {
	if a.deps.setMemoryLimit != nil {
		a.deps.setMemoryLimit(n)
		return
	}
	debug.SetMemoryLimit(n)
}

// applyMemoryLimit sets serve's soft memory limit, unless GOMEMLIMIT is
// set: the runtime read it at start and it wins. With auto it returns the
// function that follows the partitions read (nil otherwise), for every
// interval.
func (a *app) applyMemoryLimit(m memoryLimit, logger *slog.Logger) (follow func(partitions int)) {
	processStart.finish() // serve's memory is paced from its first cycle on
	if env := a.deps.env.get("GOMEMLIMIT"); env != "" {
		logger.Info("memory limit from GOMEMLIMIT", "gomemlimit", env, "memory_limit_flag", m.String())
		return nil
	}
	switch {
	case m.auto:
		current := int64(memoryLimitFloor)
		a.setMemoryLimit(current)
		logger.Info("memory limit", "limit", formatBytes(current), "mode", "auto")
		return func(partitions int) {
			if n := autoMemoryLimit(partitions); n != current {
				current = n
				a.setMemoryLimit(n)
				logger.Info("memory limit", "limit", formatBytes(n), "mode", "auto")
			}
		}
	case m.bytes > 0:
		a.setMemoryLimit(m.bytes)
		logger.Info("memory limit", "limit", formatBytes(m.bytes))
	}
	return nil
}

// followMemoryLimit calls follow every interval until ctx ends.
func followMemoryLimit(ctx context.Context, interval time.Duration, cs serve.Collectors, follow func(partitions int)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			follow(partitionsRead(cs))
		}
	}
}

// partitionsRead counts the source partitions of the latest snapshots:
// what a cycle's memory grows with.
func partitionsRead(cs serve.Collectors) int {
	n := 0
	for _, c := range cs.Clusters() {
		if c.Check == nil {
			continue
		}
		for _, g := range c.Check.Groups {
			if g.Overview == nil {
				continue
			}
			for _, st := range g.Overview.Subtopologies {
				for _, t := range st.Tasks {
					n += len(t.Offsets)
				}
			}
		}
	}
	return n
}

// formatBytes writes a size in the largest unit that divides it.
func formatBytes(n int64) string {
	for _, u := range memorySuffixes {
		if u.shift > 0 && n%(1<<u.shift) == 0 {
			return fmt.Sprintf("%d%s", n>>u.shift, u.suffix)
		}
	}
	return strconv.FormatInt(n, 10) + "B"
}
