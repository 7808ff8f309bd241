// Package benchtest measures the cost of a whole command for benchmarks:
// the wall time and the peak resident memory of a child process, so that a
// benchmark can report peak memory next to Go's ns/op. Its single job is
// that measurement; only tests import it.
package benchtest
