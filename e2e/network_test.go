//go:build e2e

package e2e

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNetwork (issue 13, network part) runs on one real 4.4.0 broker with
// one word-count app:
//   - the round trips of a single-group --describe --topology, counted from
//     our --debug log: the bootstrap broker is the coordinator, so one
//     connection carries ApiVersions (franz-go's handshake), FindCoordinator
//     and StreamsGroupDescribe, and stdout stays byte-identical with the
//     Java tool's (F146);
//   - what Kafka's client accepts as a bootstrap server, from the real tool,
//     against our usage errors (F141).
func TestNetwork(t *testing.T) {
	start := time.Now()
	defer func() { logf("TestNetwork total %s", time.Since(start).Round(time.Millisecond)) }()
	bin := OurBinary(t)
	ctx := context.Background()
	b := SharedBroker(t, BrokerOptions{})
	app := StartApp(t, b, AppOptions{AppID: "net-app", Topology: TopologyWordCount, TopicPrefix: "net-"})
	if _, err := app.WaitTopologyStatus(ctx, b, StatusAvailable, 90*time.Second); err != nil {
		t.Fatalf("%v\n%s", err, logTail(app.Proc.LogPath, 3000))
	}
	s := &sideBySide{bin: bin, bootstrap: b.Addr}

	t.Run("round trips", func(t *testing.T) {
		java, ours := s.both(t, "--describe", "--topology", "--group", "net-app")
		require.Equal(t, 0, java.ExitCode, "java stderr: %s", java.Stderr)
		require.Equal(t, 0, ours.ExitCode, "ours stderr: %s", ours.Stderr)
		requireSameStdout(t, java.Stdout, ours.Stdout)

		dbg := s.ours(t, "--describe", "--topology", "--group", "net-app", "--debug")
		require.Equal(t, 0, dbg.ExitCode, dbg.Stderr)
		assert.Equal(t, ours.Stdout, dbg.Stdout)
		reqs, conns := debugRoundTrips(dbg.Stderr)
		logf("ours --describe --topology --debug on real 4.4.0: %d requests over %d connections: %s (%s)",
			len(reqs), conns, strings.Join(reqs, ", "), dbg.Duration.Round(time.Millisecond))
		assert.Equal(t, []string{"ApiVersions", "FindCoordinator", "StreamsGroupDescribe"}, reqs)
		assert.Equal(t, 1, conns)
		// E2E_NETWORK_BEFORE_BIN, when set, is an older build to measure
		// the same way, for the figures in FINDINGS.md.
		if before := os.Getenv("E2E_NETWORK_BEFORE_BIN"); before != "" {
			old := RunOurs(ctx, before, "--bootstrap-server", b.Addr, "--describe", "--topology", "--group", "net-app", "--debug")
			reqs, conns := debugRoundTrips(old.Stderr)
			logf("%s: %d requests over %d connections: %s", before, len(reqs), conns, strings.Join(reqs, ", "))
		}
	})

	t.Run("bootstrap values", func(t *testing.T) {
		for _, tc := range []struct {
			server   string
			javaLine string // the Java tool's first stderr line (its ConfigException)
			ours     string // our first stderr line
			oursCode int
		}{
			{server: "localhost", javaLine: "Invalid url in bootstrap.servers: localhost",
				ours: `--bootstrap-server: invalid server "localhost": want host:port, optionally with a listener prefix (PLAINTEXT://host:port)`, oursCode: 2},
			{server: "localhost:abc", javaLine: "Invalid url in bootstrap.servers: localhost:abc",
				ours: `--bootstrap-server: invalid server "localhost:abc": want host:port, optionally with a listener prefix (PLAINTEXT://host:port)`, oursCode: 2},
			{server: "localhost:99999", javaLine: "Invalid port in bootstrap.servers: localhost:99999",
				ours: `--bootstrap-server: invalid server "localhost:99999": port 99999 is not in 1-65535`, oursCode: 2},
			{server: "PLAINTEXT://" + b.Addr, oursCode: 0},
		} {
			t.Run(tc.server, func(t *testing.T) {
				args := []string{"--bootstrap-server", tc.server, "--list", "--timeout", "20000"}
				java, err := RunStreamsGroupCommand(ctx, args...)
				require.NoError(t, err)
				ours := RunOurs(ctx, bin, args...)
				logf("%s: java exit %d in %s %q; ours exit %d in %s %q", tc.server, java.ExitCode, java.Duration.Round(time.Millisecond),
					firstLine(java.Stdout+java.Stderr), ours.ExitCode, ours.Duration.Round(time.Millisecond), firstLine(ours.Stderr))
				assert.Equal(t, tc.oursCode, ours.ExitCode, ours.Stderr)
				if tc.oursCode == 0 {
					assert.Equal(t, 0, java.ExitCode, "java accepts the listener prefix: %s", java.Stderr)
					// The Java tool lists in hash order, ours sorted (docs/differences.md),
					// and the shared broker holds other tests' groups: the same set.
					assert.Equal(t, sortedLines(java.Stdout), sortedLines(ours.Stdout))
					assert.Contains(t, sortedLines(ours.Stdout), "net-app")
					return
				}
				assert.Equal(t, 1, java.ExitCode)
				assert.Contains(t, java.Stdout+java.Stderr, tc.javaLine)
				assert.Equal(t, tc.ours, firstLine(ours.Stderr))
				assert.Empty(t, ours.Stdout)
			})
		}
	})
}

var (
	debugRequest = regexp.MustCompile(`^debug: \[[^]]*\] > (\S+) v\d+ correlation_id=`)
	debugReady   = regexp.MustCompile(`^debug: \[[^]]*\] connection ready after `)
)

// debugRoundTrips lists the requests of a --debug log, in order, and
// counts the connections that became ready.
func debugRoundTrips(stderr string) (reqs []string, conns int) {
	for _, line := range strings.Split(stderr, "\n") {
		if m := debugRequest.FindStringSubmatch(line); m != nil {
			reqs = append(reqs, m[1])
		}
		if debugReady.MatchString(line) {
			conns++
		}
	}
	return reqs, conns
}
