//go:build e2e

// Package e2e runs kstreams-groups end-to-end tests against a real Apache Kafka 4.4.0 broker,
// real Kafka Streams applications and the real Java tool (kafka-streams-groups.sh), all built
// from Maven Central jars by the Maven modules in e2e/kafka-harness (4.4.0) and e2e/kafka-43
// (4.3.1). See e2e/README.md.
package e2e

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// KafkaVersion selects a Maven module (and so a broker classpath).
type KafkaVersion string

const (
	// Kafka44 is Apache Kafka 4.4.0 (KIP-1331), module e2e/kafka-harness. Its classpath also
	// holds the project's own classes (e2e.TopologyApp, e2e.FailingTopologyPlugin, e2e.Probe).
	Kafka44 KafkaVersion = "4.4.0"
	// Kafka43 is Apache Kafka 4.3.1 (no KIP-1331), module e2e/kafka-43, broker only.
	Kafka43 KafkaVersion = "4.3.1"
)

var (
	mavenMu    sync.Mutex
	mavenCache = map[KafkaVersion]string{}

	probeOnce sync.Once
	probeErr  error
)

// ProbeKIP1331 runs e2e.Probe once per test binary on the 4.4.0 classpath: the cheap check
// that the jars hold KIP-1331. It fails with the list of what is missing.
func ProbeKIP1331() error {
	probeOnce.Do(func() {
		cp, err := Classpath(Kafka44)
		if err != nil {
			probeErr = err
			return
		}
		cmd := exec.Command(JavaBin(), "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", cp, "e2e.Probe")
		out, err := cmd.CombinedOutput()
		if err != nil {
			probeErr = fmt.Errorf("e2e: the Kafka 4.4.0 classpath lacks KIP-1331 (e2e.Probe: %w):\n%s", err, out)
		}
	})
	return probeErr
}

// E2EDir is the absolute path of the e2e directory (tests run with it as working directory).
func E2EDir() string {
	if d := os.Getenv("E2E_DIR"); d != "" {
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	return wd
}

func moduleDir(v KafkaVersion) string {
	switch v {
	case Kafka44:
		return filepath.Join(E2EDir(), "kafka-harness")
	case Kafka43:
		return filepath.Join(E2EDir(), "kafka-43")
	}
	panic("unknown Kafka version " + string(v))
}

// HarnessDir is e2e/kafka-harness (log4j2 configs live in its config/ directory).
func HarnessDir() string { return moduleDir(Kafka44) }

// Classpath builds the Maven module for v once per test binary and returns the JVM classpath
// (dependencies from target/classpath.txt, plus target/classes). Maven is skipped when
// target/classpath.txt is newer than the pom and every source file. Otherwise it first tries
// `mvn -B -q -o package` (offline: fast, needs a warm ~/.m2) and then `mvn -B -q package`
// (online), unless E2E_MAVEN_OFFLINE=1. Set E2E_MVN to use another mvn binary.
func Classpath(v KafkaVersion) (string, error) {
	mavenMu.Lock()
	defer mavenMu.Unlock()
	if cp, ok := mavenCache[v]; ok {
		return cp, nil
	}
	dir := moduleDir(v)
	cpFile := filepath.Join(dir, "target", "classpath.txt")
	if os.Getenv("E2E_MAVEN_FORCE") == "1" || stale(dir, cpFile) {
		if err := mavenPackage(dir); err != nil {
			return "", err
		}
	}
	raw, err := os.ReadFile(cpFile)
	if err != nil {
		return "", fmt.Errorf("e2e: reading %s: %w", cpFile, err)
	}
	cp := strings.TrimSpace(string(raw)) + string(os.PathListSeparator) + filepath.Join(dir, "target", "classes")
	mavenCache[v] = cp
	return cp, nil
}

// stale reports whether cpFile is missing or older than pom.xml or anything under src/.
func stale(dir, cpFile string) bool {
	st, err := os.Stat(cpFile)
	if err != nil {
		return true
	}
	built := st.ModTime()
	newer := false
	check := func(p string) {
		if s, err := os.Stat(p); err == nil && s.ModTime().After(built) {
			newer = true
		}
	}
	check(filepath.Join(dir, "pom.xml"))
	_ = filepath.WalkDir(filepath.Join(dir, "src"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			check(p)
		}
		return nil
	})
	return newer
}

func mavenPackage(dir string) error {
	mvn := os.Getenv("E2E_MVN")
	if mvn == "" {
		mvn = "mvn"
	}
	run := func(extra ...string) ([]byte, error) {
		args := append([]string{"-B", "-q"}, extra...)
		args = append(args, "-f", filepath.Join(dir, "pom.xml"), "package")
		cmd := exec.Command(mvn, args...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		return out.Bytes(), err
	}
	start := time.Now()
	out, err := run("-o")
	if err == nil {
		logf("maven (offline) %s: %s", filepath.Base(dir), time.Since(start).Round(time.Millisecond))
		return nil
	}
	if os.Getenv("E2E_MAVEN_OFFLINE") == "1" {
		return fmt.Errorf("e2e: offline maven build of %s failed (E2E_MAVEN_OFFLINE=1):\n%s", dir, tail(out, 4000))
	}
	out, err = run()
	if err != nil {
		return fmt.Errorf("e2e: maven build of %s failed (needs Maven Central or a warm ~/.m2):\n%s", dir, tail(out, 4000))
	}
	logf("maven (online) %s: %s", filepath.Base(dir), time.Since(start).Round(time.Millisecond))
	return nil
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}

// logf writes harness progress to stderr (visible with `go test -v` and on failures).
func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "[e2e %s] %s\n", time.Now().Format("15:04:05.000"), fmt.Sprintf(format, args...))
}
