//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/benchtest"
	"github.com/stretchr/testify/require"
)

// BenchmarkDescribeTopologyProcesses is `make bench-e2e` (e2e/bench.sh): on one real 4.4.0 broker
// with one AVAILABLE group it times whole processes of our binary and of the Java
// StreamsGroupCommand doing the same `--describe --topology --group G`, and reports median wall
// time and peak RSS. Being a benchmark, `go test -run` (make e2e) never runs it. It does its own
// E2E_BENCH_N timed runs per variant, so run it once: -benchtime 1x.
//
// Each process runs under GNU time (`/usr/bin/time -v -o FILE`), which reports the peak RSS
// ("Maximum resident set size") of the measured process; wall time is measured here around the
// whole /usr/bin/time run, so it includes GNU time's own fork and exec (about 1 ms, the same for
// every variant). The variants run round-robin, after one untimed warm-up each, so a slow phase
// of the shared machine hits all of them alike.
//
// Knobs: E2E_BENCH_N runs per variant (default 15), E2E_BENCH_OUT writes the Markdown summary to
// that file, E2E_OURS_BIN the binary to measure (bench.sh passes the release build).
func BenchmarkDescribeTopologyProcesses(tb *testing.B) {
	gnuTime := "/usr/bin/time"
	out, err := exec.Command(gnuTime, "--version").CombinedOutput()
	require.NoError(tb, err, "GNU time is needed at %s (Debian package time): %s", gnuTime, out)
	require.Contains(tb, string(out), "GNU", "%s is not GNU time", gnuTime)
	n := 15
	if s := os.Getenv("E2E_BENCH_N"); s != "" {
		n, err = strconv.Atoi(s)
		require.NoError(tb, err)
		require.Positive(tb, n)
	}

	bin := OurBinary(tb)
	cp, err := Classpath(Kafka44)
	require.NoError(tb, err)
	ctx := context.Background()
	b := StartBroker(tb, BrokerOptions{})
	app := StartApp(tb, b, AppOptions{AppID: "bench-app", Topology: TopologyWordCount})
	if _, err := app.WaitTopologyStatus(ctx, b, StatusAvailable, 90*time.Second); err != nil {
		tb.Fatalf("%v\n%s", err, logTail(app.Proc.LogPath, 3000))
	}
	args := []string{"--bootstrap-server", b.Addr, "--describe", "--topology", "--group", "bench-app"}
	log4j := "-Dlog4j2.configurationFile=" + filepath.Join(HarnessDir(), "config", "tool-log4j2.properties")
	java := func(jvm ...string) []string {
		cmd := append([]string{JavaBin()}, jvm...)
		cmd = append(cmd, log4j, "-cp", cp, StreamsGroupCommandClass)
		return append(cmd, args...)
	}
	variants := []benchVariant{
		{Name: "kstreams-groups", Cmd: append([]string{bin}, args...)},
		// The JVM flags of RunJavaTool, which every e2e comparison uses: tuned for a fast start.
		{Name: "StreamsGroupCommand, harness JVM flags", Cmd: java(
			"-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true")},
		// What bin/kafka-streams-groups.sh → kafka-run-class.sh passes by default (KAFKA_HEAP_OPTS,
		// KAFKA_JVM_PERFORMANCE_OPTS, KAFKA_JMX_OPTS).
		{Name: "StreamsGroupCommand, kafka-run-class.sh defaults", Cmd: java(
			"-Xmx256M", "-server", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20", "-XX:InitiatingHeapOccupancyPercent=35",
			"-XX:+ExplicitGCInvokesConcurrent", "-XX:MaxInlineLevel=15", "-Djava.awt.headless=true",
			"-Dcom.sun.management.jmxremote", "-Dcom.sun.management.jmxremote.authenticate=false",
			"-Dcom.sun.management.jmxremote.ssl=false", "-Dkafka.logs.dir="+b.Dir)},
	}

	loadBefore := loadAvg()
	timeFile := filepath.Join(b.Dir, "time.txt")
	var want string // every run must print the same topology, or it measured something else
	for round := 0; round <= n; round++ {
		for i := range variants {
			v := &variants[i]
			s, stdout, err := runTimed(ctx, gnuTime, timeFile, v.Cmd)
			require.NoError(tb, err, "%s", v.Name)
			if want == "" {
				want = stdout
				require.True(tb, strings.HasPrefix(want, "Topologies:\n"), "%s printed %q", v.Name, want)
			}
			require.Equal(tb, want, stdout, "%s printed something else", v.Name)
			if round == 0 { // warm-up: page cache (jars, binary) and the broker's first-connection work
				continue
			}
			v.Samples = append(v.Samples, s)
		}
	}

	for _, v := range variants[:2] {
		wall := make([]float64, 0, len(v.Samples))
		for _, s := range v.Samples {
			wall = append(wall, float64(s.Wall.Milliseconds()))
		}
		slices.Sort(wall)
		name := "ours-median-ms"
		if v.Name != "kstreams-groups" {
			name = "java-median-ms"
		}
		tb.ReportMetric(wall[len(wall)/2], name)
	}
	summary := benchSummary(variants, n, b.Addr, loadBefore, loadAvg())
	logf("bench summary:\n%s", summary)
	if p := os.Getenv("E2E_BENCH_OUT"); p != "" {
		require.NoError(tb, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(tb, os.WriteFile(p, []byte(summary), 0o644))
	}
	_ = app.Stop()
}

type benchSample struct {
	Wall   time.Duration
	CPU    time.Duration // user + system, from GNU time: less sensitive to the machine's load than wall
	RSSKiB int64
}

type benchVariant struct {
	Name    string
	Cmd     []string
	Samples []benchSample
}

var (
	maxRSS  = regexp.MustCompile(`Maximum resident set size \(kbytes\): (\d+)`)
	cpuTime = regexp.MustCompile(`(?m)^\s*(?:User|System) time \(seconds\): ([0-9.]+)$`)
)

// runTimed runs cmd under GNU time and returns its wall time, peak RSS and stdout. A non-zero
// exit is an error: a failed describe is not the thing being measured.
func runTimed(ctx context.Context, gnuTime, timeFile string, cmd []string) (benchSample, string, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, gnuTime, append([]string{"-v", "-o", timeFile}, cmd...)...)
	c.Env = oursEnv(nil)
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	start := time.Now()
	err := c.Run()
	wall := time.Since(start)
	if err != nil {
		return benchSample{}, "", fmt.Errorf("%s: %w\n%s", strings.Join(cmd, " "), err, stderr.String())
	}
	report, err := os.ReadFile(timeFile)
	if err != nil {
		return benchSample{}, "", err
	}
	m := maxRSS.FindSubmatch(report)
	if m == nil {
		return benchSample{}, "", errors.New("no peak RSS in GNU time's report:\n" + string(report))
	}
	kib, _ := strconv.ParseInt(string(m[1]), 10, 64)
	var cpu time.Duration
	for _, c := range cpuTime.FindAllSubmatch(report, -1) {
		sec, _ := strconv.ParseFloat(string(c[1]), 64)
		cpu += time.Duration(sec * float64(time.Second))
	}
	return benchSample{Wall: wall, CPU: cpu, RSSKiB: kib}, stdout.String(), nil
}

// benchSummary renders the Markdown table that goes into the README's Speed paragraph.
func benchSummary(vs []benchVariant, n int, addr, loadBefore, loadAfter string) string {
	var sb strings.Builder
	cpu := cpuModel()
	javaVersion, _ := exec.Command(JavaBin(), "-version").CombinedOutput()
	fmt.Fprintf(&sb, "`--describe --topology --group G` (wordcount, AVAILABLE) against one local Apache Kafka 4.4.0 broker (%s), %d timed runs per variant after one warm-up, round-robin.\n", addr, n)
	fmt.Fprintf(&sb, "Machine: %d CPUs (%s), %s; %s. Load average (1, 5, 15 min) before: %s, after: %s.\n\n",
		runtime.NumCPU(), cpu, firstLine(strings.TrimSpace(string(javaVersion))), runtime.Version(), loadBefore, loadAfter)
	sb.WriteString("| Process | median wall | min–max wall | median CPU (user+sys, 10 ms steps) | median peak RSS | max peak RSS |\n|---|---|---|---|---|---|\n")
	type med struct {
		wall, cpu time.Duration
		rss       int64
	}
	meds := make([]med, len(vs))
	for i, v := range vs {
		walls := make([]time.Duration, len(v.Samples))
		cpus := make([]time.Duration, len(v.Samples))
		rss := make([]int64, len(v.Samples))
		for j, s := range v.Samples {
			walls[j], cpus[j], rss[j] = s.Wall, s.CPU, s.RSSKiB
		}
		meds[i] = med{benchtest.Median(walls), benchtest.Median(cpus), benchtest.Median(rss)}
		fmt.Fprintf(&sb, "| %s | %s | %s–%s | %s | %.1f MiB | %.1f MiB |\n", v.Name, ms(meds[i].wall),
			ms(slices.Min(walls)), ms(slices.Max(walls)), ms(meds[i].cpu), float64(meds[i].rss)/1024, float64(slices.Max(rss))/1024)
	}
	sb.WriteString("\n")
	for i := 1; i < len(vs); i++ {
		// No CPU ratio: GNU time counts CPU in 10 ms steps, about all our binary uses.
		fmt.Fprintf(&sb, "%s / %s: wall %.0f×, peak RSS %.1f×\n", vs[i].Name, vs[0].Name,
			float64(meds[i].wall)/float64(meds[0].wall), float64(meds[i].rss)/float64(meds[0].rss))
	}
	return sb.String()
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond))
}

// loadAvg is the first three fields of /proc/loadavg: the summary states how busy the shared
// machine was, since that moves the JVM figures far more than ours.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}
