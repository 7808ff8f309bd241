package main

import (
	"flag"
	"runtime"
	"strconv"
)

// testsPerCPU is how many tests of this package run at once per CPU when
// the user gave no -parallel.
//
// Why more than go test's default (GOMAXPROCS): many of these tests spend
// most of their time waiting, not computing: for a --timeout against a
// broker that never answers (the point of the test), for the playground's
// timeline (the tour's rebalance), for a child process to reach the phase
// a signal must interrupt. A waiting test holds one of -parallel's slots,
// so with one slot per CPU the CPUs idled while the run took twice its
// CPU time (2 cores: 67 s, CPU mostly idle). The tests that measure time
// keep generous margins, and the ones that cannot share the machine
// (TestSignal_blockedStdout, TestSignals under the race detector) do not
// call t.Parallel.
//
// Not under the race detector (CI's go test -race): there the CPU, not
// the waiting, bounds the run, and 8 tests at once on 2 cores made the
// tests whose outcome depends on where a deadline or a signal lands
// (TestDescribeTopology_coordinatorErrorsUntilTimeout,
// TestUpgradeApply_signalAfterTheDelete) fail in 2 runs of 2.
const testsPerCPU = 4

// raiseParallelism sets -test.parallel to testsPerCPU per CPU unless the
// command line gave it or the race detector is on; TestMain calls it
// before m.Run (which reads it).
func raiseParallelism() {
	if raceEnabled {
		return
	}
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		_ = flag.Set("test.parallel", strconv.Itoa(testsPerCPU*runtime.GOMAXPROCS(0)))
	}
}
