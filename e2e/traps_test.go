//go:build e2e

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConnectTraps (issue 19, FINDINGS F350–F359): what a new user falls
// into, on one real 4.4.0 broker with only its PLAINTEXT listener.
//
//   - A SASL client against the plaintext listener: the README says that
//     failures no retry can fix end at once. Ours must end well before
//     --timeout with an authentication failure (exit 1, 6 with
//     --detailed-exit-codes) and a message naming the mismatch; the Java
//     tool's answer to the same file is logged beside it.
//   - -v: the Java tool's answer is logged; ours is a usage error (2),
//     never the version.
func TestConnectTraps(t *testing.T) {
	start := time.Now()
	defer func() { logf("TestConnectTraps total %s", time.Since(start).Round(time.Millisecond)) }()
	bin := OurBinary(t)
	ctx := context.Background()
	b := SharedBroker(t, BrokerOptions{})

	t.Run("SASL client, plaintext listener", func(t *testing.T) {
		props := filepath.Join(t.TempDir(), "sasl.properties")
		require.NoError(t, os.WriteFile(props, []byte("security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n"+
			"sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"p-secret\";\n"), 0o600))
		const timeout = 40 * time.Second
		args := []string{"--bootstrap-server", b.Addr, "--command-config", props, "--list", "--timeout", "40000"}
		java, err := RunStreamsGroupCommand(ctx, args...)
		require.NoError(t, err)
		logf("java, SASL_PLAINTEXT client on a PLAINTEXT listener: exit %d in %s: stdout %q stderr %q", java.ExitCode, java.Duration.Round(time.Millisecond),
			cut(java.Stdout, 600), cut(java.Stderr, 600))
		for _, detailed := range []bool{false, true} {
			a, want := args, 1
			if detailed {
				a, want = append(append([]string{}, args...), "--detailed-exit-codes"), 6
			}
			ours := RunOurs(ctx, bin, a...)
			logf("ours (detailed %v): exit %d in %s: %q", detailed, ours.ExitCode, ours.Duration.Round(time.Millisecond), firstLine(ours.Stderr))
			assert.Equal(t, want, ours.ExitCode, ours.Stderr)
			assert.Less(t, ours.Duration, timeout/2, "a failure no retry can fix ends at once, not at --timeout")
			assert.Contains(t, ours.Stderr, "SASL")
			assert.NotContains(t, ours.Stdout+ours.Stderr, "p-secret")
		}
	})

	t.Run("-v", func(t *testing.T) {
		java, err := RunStreamsGroupCommand(ctx, "-v")
		require.NoError(t, err)
		logf("java -v: exit %d: %q", java.ExitCode, firstLine(java.Stdout+java.Stderr))
		ours := RunOurs(ctx, bin, "-v", "--bootstrap-server", b.Addr, "--list")
		assert.Equal(t, 2, ours.ExitCode)
		assert.False(t, strings.Contains(ours.Stdout, "version"), ours.Stdout)
	})
}

// cut keeps the first n bytes of s, for a log line.
func cut(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
