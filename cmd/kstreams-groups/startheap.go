package main

// A run of the command line allocates a few MiB and ends. The Go runtime
// collects first at 4 MiB of heap, then whenever the heap doubles, so such
// a run spends much of its garbage collection on a heap it is about to
// drop: `overview --time-lag` on the large seed collected twice and spent
// about as long on it as on decoding its Fetch answers
// (BenchmarkOverviewTimeLagProcess). As the Go compiler does for small
// compilations (cmd/compile's AdjustStartingHeap), a process starts with a
// larger first heap: no collection until the runtime's memory reaches
// startHeap, then the usual pacing (GOGC=100, no limit) for the rest of
// the run, however large it grows. GOGC or GOMEMLIMIT in the environment
// wins: then nothing changes. serve sets its own limit and ends the start
// heap first (gcStart.finish).

import (
	"runtime"
	"runtime/debug"
	"sync"
)

// startHeap is the runtime memory before the first collection: more than
// most runs allocate in all, little beside what a large one keeps.
const startHeap = 32 << 20

// gcStart is the start heap of a process: processStart, set by main.
type gcStart struct {
	mu  sync.Mutex
	end func() // nil once done, or when nothing was changed
}

var processStart gcStart

// set starts the process with the larger first heap, unless the
// environment sets GOGC or GOMEMLIMIT (getenv reads it).
func (s *gcStart) set(getenv func(string) string) {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	percent := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(startHeap)
	s.end = func() {
		// A limit set since (serve's) stays.
		if debug.SetMemoryLimit(-1) == startHeap {
			debug.SetMemoryLimit(limit)
		}
		debug.SetGCPercent(percent)
	}
	// The first collection finds the sentinel unreachable and runs its
	// cleanup: the start heap ends there.
	sentinel := new([64]byte)
	runtime.AddCleanup(sentinel, func(struct{}) { s.finish() }, struct{}{})
}

// finish restores the runtime's pacing now (once; nothing when set
// changed nothing).
func (s *gcStart) finish() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.end != nil {
		s.end()
		s.end = nil
	}
}
