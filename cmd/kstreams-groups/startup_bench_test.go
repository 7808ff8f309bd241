//go:build linux || darwin

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkStartup is the start-up cost of a run: `kstreams-groups
// --version` against a Go hello world built by the same toolchain, run
// alternately so that both meet the same load. It reports the CPU time
// (user plus system, the figure a loaded machine does not change) and the
// wall time of each per run, and their ratio; the goal is a ratio of at
// most 2 (GODEBUG=inittrace=1 shows what initialises before main).
func BenchmarkStartup(b *testing.B) {
	dir := b.TempDir()
	ours := filepath.Join(dir, "kstreams-groups")
	goBuild(b, ".", ours)
	helloDir := filepath.Join(dir, "hello")
	if err := os.MkdirAll(helloDir, 0o755); err != nil {
		b.Fatal(err)
	}
	for name, content := range map[string]string{
		"go.mod":  "module hello\n\ngo 1.26\n",
		"main.go": "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello\") }\n",
	} {
		if err := os.WriteFile(filepath.Join(helloDir, name), []byte(content), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	hello := filepath.Join(dir, "hello-bin")
	goBuild(b, helloDir, hello)

	var oursCPU, helloCPU, oursWall, helloWall time.Duration
	n := 0
	for b.Loop() {
		w, c := runOnce(b, hello)
		helloWall, helloCPU = helloWall+w, helloCPU+c
		w, c = runOnce(b, ours, "--version")
		oursWall, oursCPU = oursWall+w, oursCPU+c
		n++
	}
	per := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(n) }
	b.ReportMetric(per(oursCPU), "ours-cpu-µs/op")
	b.ReportMetric(per(helloCPU), "hello-cpu-µs/op")
	b.ReportMetric(per(oursWall), "ours-wall-µs/op")
	b.ReportMetric(per(helloWall), "hello-wall-µs/op")
	if helloCPU > 0 {
		b.ReportMetric(float64(oursCPU)/float64(helloCPU), "cpu-ratio")
	}
	if helloWall > 0 {
		b.ReportMetric(float64(oursWall)/float64(helloWall), "wall-ratio")
	}
}

// goBuild builds the main package in dir into out.
func goBuild(b *testing.B, dir, out string) {
	b.Helper()
	cmd := exec.Command("go", "build", "-o", out, ".")
	cmd.Dir = dir
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build %s: %v\n%s", dir, err, msg)
	}
}

// runOnce runs bin and returns its wall and CPU time.
func runOnce(b *testing.B, bin string, args ...string) (wall, cpu time.Duration) {
	b.Helper()
	cmd := exec.Command(bin, args...)
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s: %v", bin, err)
	}
	wall = time.Since(start)
	return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}
