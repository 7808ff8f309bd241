//go:build unix

package benchtest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hwmFileEnv names the file a child writes its peak memory to
// (WritePeak). The parent cannot take it from wait4: Linux carries a
// process's maximum resident set size across execve, so a child started
// by a big benchmark process would report the parent's peak.
const hwmFileEnv = "KSTREAMS_GROUPS_BENCHTEST_PEAK_FILE"

// Usage is what one child process cost.
type Usage struct {
	Wall time.Duration
	// CPU is the user plus system time of the child: on a shared, loaded
	// machine the figure that does not depend on the other processes.
	CPU time.Duration
	// Peak is the peak resident set size of the child in bytes.
	Peak int64
}

// Measure runs cmd, a test binary whose child mode calls WritePeak before
// it exits, to completion and returns its wall time and peak resident
// memory. Its stdout is discarded unless cmd sets one; a failure carries
// the child's stderr.
func Measure(cmd *exec.Cmd) (Usage, error) {
	dir, err := os.MkdirTemp("", "benchtest")
	if err != nil {
		return Usage{}, err
	}
	defer os.RemoveAll(dir)
	peakFile := filepath.Join(dir, "peak")
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, hwmFileEnv+"="+peakFile)
	var errOut bytes.Buffer
	if cmd.Stderr == nil {
		cmd.Stderr = &errOut
	}
	start := time.Now()
	err = cmd.Run()
	u := Usage{Wall: time.Since(start)}
	if cmd.ProcessState != nil {
		u.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	if err != nil {
		return u, fmt.Errorf("%v: %w: %s", cmd.Args, err, errOut.String())
	}
	data, err := os.ReadFile(peakFile)
	if err != nil {
		return u, fmt.Errorf("the child wrote no peak memory: %w", err)
	}
	u.Peak, err = strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	return u, err
}

// WritePeak is called by a child process (see Measure) just before it
// exits: it writes the process's peak resident memory where the parent
// reads it. It does nothing in a process that Measure did not start.
func WritePeak() {
	file := os.Getenv(hwmFileEnv)
	if file == "" {
		return
	}
	_ = os.WriteFile(file, []byte(strconv.FormatInt(peakRSS(), 10)), 0o600)
}

// peakRSS is VmHWM from /proc/self/status, which starts afresh at execve;
// where there is no /proc, getrusage's maximum.
func peakRSS() int64 {
	if f, err := os.Open("/proc/self/status"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
				return kb << 10
			}
		}
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return int64(ru.Maxrss) // bytes on macOS
}

// CPUTime is the user plus system time this process has used so far; a
// benchmark reports the difference over its loop (ReportCPU).
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// ReportCPU reports on b the CPU time per operation since start (a
// CPUTime), in seconds: wall time on a loaded machine says little.
func ReportCPU(b *testing.B, start time.Duration) {
	b.Helper()
	b.ReportMetric((CPUTime()-start).Seconds()/float64(b.N), "cpu-s/op")
}

// Report runs cmd once (see Measure) and reports its peak memory on b: in
// MB, and as a multiple of inputBytes (the answer or file the command
// reads), the figure the budget of issue 13 is stated in.
func Report(b *testing.B, cmd *exec.Cmd, inputBytes int64) Usage {
	b.Helper()
	u, err := Measure(cmd)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(u.Peak)/(1<<20), "peak-MB")
	b.ReportMetric(float64(inputBytes)/(1<<20), "input-MB")
	b.ReportMetric(float64(u.Peak)/float64(inputBytes), "peak/input")
	return u
}

// ReportChild runs the test binary itself once more with env set (a child
// mode its TestMain serves, which calls WritePeak) and reports its peak
// memory as Report does.
func ReportChild(b *testing.B, env string, inputBytes int64) Usage {
	b.Helper()
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), env)
	return Report(b, cmd, inputBytes)
}

// Median is the middle of xs (the mean of the two middle ones for an even
// count): a few-millisecond run's figure that one scheduling hiccup of
// another process does not move, as it moves a mean.
func Median[T int64 | time.Duration](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
