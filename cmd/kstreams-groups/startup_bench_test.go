//go:build linux || darwin

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// BenchmarkStartup is the start-up cost of a run: `kstreams-groups
// --version` against a Go hello world, both built as the release builds
// (releaseBuild: static, -trimpath, -s -w) by the same toolchain, run
// alternately so that both meet the same load. It reports the CPU time
// (user plus system, the figure a loaded machine changes least) and the
// wall time of each per run, their ratios (the goal is at most 2), the
// page faults (minor, what the size of the binary costs) and the binary
// sizes. A third binary, the mandated floor (testdata/startupfloor: a
// hello world linking only the libraries the project must use), shows
// what those libraries' inits cost alone: floor-*-ratio is the floor over
// the hello world, ours-floor-*-ratio ours over the floor.
// GODEBUG=inittrace=1 shows what initialises before main;
// TestStartup_initBudget keeps it from growing.
func BenchmarkStartup(b *testing.B) {
	dir := b.TempDir()
	ours := filepath.Join(dir, "kstreams-groups")
	releaseBuild(b, ".", ours)
	hello := filepath.Join(dir, "hello-bin")
	releaseBuild(b, helloWorld(b, dir), hello)
	floor := filepath.Join(dir, "floor-bin")
	releaseBuild(b, filepath.Join("testdata", "startupfloor"), floor)

	var oursCPU, helloCPU, floorCPU, oursWall, helloWall, floorWall time.Duration
	var oursFaults, helloFaults, floorFaults int64
	n := 0
	for b.Loop() {
		w, c, f := runOnce(b, hello)
		helloWall, helloCPU, helloFaults = helloWall+w, helloCPU+c, helloFaults+f
		w, c, f = runOnce(b, floor)
		floorWall, floorCPU, floorFaults = floorWall+w, floorCPU+c, floorFaults+f
		w, c, f = runOnce(b, ours, "--version")
		oursWall, oursCPU, oursFaults = oursWall+w, oursCPU+c, oursFaults+f
		n++
	}
	per := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(n) }
	b.ReportMetric(per(oursCPU), "ours-cpu-µs/op")
	b.ReportMetric(per(helloCPU), "hello-cpu-µs/op")
	b.ReportMetric(per(floorCPU), "floor-cpu-µs/op")
	b.ReportMetric(per(oursWall), "ours-wall-µs/op")
	b.ReportMetric(per(helloWall), "hello-wall-µs/op")
	b.ReportMetric(per(floorWall), "floor-wall-µs/op")
	ratio := func(a, b time.Duration) float64 { return float64(a) / float64(b) }
	if helloCPU > 0 && floorCPU > 0 {
		b.ReportMetric(ratio(oursCPU, helloCPU), "cpu-ratio")
		b.ReportMetric(ratio(floorCPU, helloCPU), "floor-cpu-ratio")
		b.ReportMetric(ratio(oursCPU, floorCPU), "ours-floor-cpu-ratio")
	}
	if helloWall > 0 && floorWall > 0 {
		b.ReportMetric(ratio(oursWall, helloWall), "wall-ratio")
		b.ReportMetric(ratio(floorWall, helloWall), "floor-wall-ratio")
		b.ReportMetric(ratio(oursWall, floorWall), "ours-floor-wall-ratio")
	}
	if oursFaults > 0 {
		b.ReportMetric(float64(oursFaults)/float64(n), "ours-faults/op")
		b.ReportMetric(float64(helloFaults)/float64(n), "hello-faults/op")
		b.ReportMetric(float64(floorFaults)/float64(n), "floor-faults/op")
	}
	for name, bin := range map[string]string{"ours-MB": ours, "hello-MB": hello, "floor-MB": floor} {
		if st, err := os.Stat(bin); err == nil {
			b.ReportMetric(float64(st.Size())/1e6, name)
		}
	}
}

// helloWorld writes a Go hello world module under dir and returns its
// directory.
func helloWorld(tb testing.TB, dir string) string {
	tb.Helper()
	helloDir := filepath.Join(dir, "hello")
	if err := os.MkdirAll(helloDir, 0o755); err != nil {
		tb.Fatal(err)
	}
	for name, content := range map[string]string{
		"go.mod":  "module hello\n\ngo 1.26\n",
		"main.go": "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello\") }\n",
	} {
		if err := os.WriteFile(filepath.Join(helloDir, name), []byte(content), 0o600); err != nil {
			tb.Fatal(err)
		}
	}
	return helloDir
}

// runOnce runs bin and returns its wall and CPU time and its minor page
// faults (0 where the platform does not say).
func runOnce(b *testing.B, bin string, args ...string) (wall, cpu time.Duration, faults int64) {
	b.Helper()
	cmd := exec.Command(bin, args...)
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s: %v", bin, err)
	}
	wall = time.Since(start)
	return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), minorFaults(cmd.ProcessState)
}

func minorFaults(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Minflt)
	}
	return 0
}
