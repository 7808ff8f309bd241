//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/kstreams-groups/kstreams-groups/internal/clientconfig/clientconfigtest"
)

// TestSASLSSL adds a SASL_SSL listener (SCRAM-SHA-512, certificates made by
// the test: a CA, the broker's PKCS12 key store, and the client's trust
// store as PEM, PKCS12 and JKS) to a real 4.4.0 broker, and runs our binary
// and the real kafka-streams-groups.sh with the same --command-config file:
// --describe --topology stdout must be byte-identical with the same exit
// code. The failures (wrong password, untrusted certificate, plaintext
// against the TLS listener) must end quickly with exit 1, and 6 or 7 with
// --detailed-exit-codes, without a credential in the output.
func TestSASLSSL(t *testing.T) {
	start := time.Now()
	defer func() { logf("TestSASLSSL total %s", time.Since(start).Round(time.Millisecond)) }()
	bin := OurBinary(t)
	ctx := context.Background()

	const (
		user     = "alice"
		password = "alice-Scr4m-secret"
	)
	certDir := t.TempDir()
	ca := clientconfigtest.NewCA(t, "e2e-ca")
	brokerKeys := ca.WriteKeyStoreOf(t, certDir, clientconfigtest.PKCS12, "broker", ca.Server)
	port, err := FreePort()
	require.NoError(t, err)
	secure := fmt.Sprintf("127.0.0.1:%d", port)

	// The PLAINTEXT listener stays for the harness, the app and the SCRAM
	// user; the tools only use the SASL_SSL one.
	b := StartBroker(t, BrokerOptions{Props: map[string]string{
		"listeners":                      "PLAINTEXT://127.0.0.1:${PLAINTEXT_PORT},SASL_SSL://" + secure + ",CONTROLLER://127.0.0.1:${CONTROLLER_PORT}",
		"advertised.listeners":           "PLAINTEXT://127.0.0.1:${PLAINTEXT_PORT},SASL_SSL://" + secure,
		"listener.security.protocol.map": "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,SASL_SSL:SASL_SSL",
		"sasl.enabled.mechanisms":        "SCRAM-SHA-512",
		"listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config": "org.apache.kafka.common.security.scram.ScramLoginModule required;",
		"ssl.keystore.type":     "PKCS12",
		"ssl.keystore.location": brokerKeys,
		"ssl.keystore.password": clientconfigtest.StorePassword,
		"ssl.key.password":      clientconfigtest.StorePassword,
	}})
	logf("SASL_SSL listener at %s", secure)

	// SCRAM credentials are cluster metadata: create them over PLAINTEXT.
	adm := kadm.NewClient(b.Client())
	_, err = adm.AlterUserSCRAMs(ctx, nil, []kadm.UpsertSCRAM{{User: user, Mechanism: kadm.ScramSha512, Iterations: 8192, Password: password}})
	require.NoError(t, err)

	app := StartApp(t, b, AppOptions{AppID: "sasl-app", Topology: TopologyWordCount})
	if _, err := app.WaitTopologyStatus(ctx, b, StatusAvailable, 90*time.Second); err != nil {
		t.Fatalf("%v\n%s", err, logTail(app.Proc.LogPath, 3000))
	}

	props := func(kind, trust, pw string) string {
		return "# the same file for kafka-streams-groups.sh and kstreams-groups\n" +
			"security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\n" +
			"sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required \\\n" +
			"    username=\"" + user + "\" \\\n    password=\"" + pw + "\";\n" +
			"ssl.truststore.type=" + kind + "\nssl.truststore.location=" + trust + "\n" + storePassword(kind)
	}
	write := func(name, content string) string {
		p := filepath.Join(certDir, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
		return p
	}
	describe := func(file string, extra ...string) []string {
		return append([]string{"--bootstrap-server", secure, "--describe", "--topology", "--group", "sasl-app", "--command-config", file}, extra...)
	}
	noSecrets := func(t *testing.T, s string) {
		t.Helper()
		assert.NotContains(t, s, password)
		assert.NotContains(t, s, clientconfigtest.StorePassword)
	}

	// The SCRAM credentials reach the SASL_SSL listener through the
	// metadata log; wait until the Java tool gets in.
	pemProps := write("pem.properties", props(clientconfigtest.PEM, ca.WriteTrustStore(t, certDir, clientconfigtest.PEM), password))
	deadline := time.Now().Add(60 * time.Second)
	for {
		res := RunOurs(ctx, bin, describe(pemProps, "--timeout", "10000")...)
		if res.ExitCode == 0 || time.Now().After(deadline) {
			break
		}
		logf("waiting for SCRAM credentials: exit %d: %s", res.ExitCode, firstLine(res.Stderr))
		time.Sleep(time.Second)
	}

	for _, kind := range []string{clientconfigtest.PEM, clientconfigtest.PKCS12, clientconfigtest.JKS} {
		t.Run("same output/"+kind, func(t *testing.T) {
			file := write(strings.ToLower(kind)+".properties", props(kind, ca.WriteTrustStore(t, certDir, kind), password))
			java, err := RunStreamsGroupCommand(ctx, describe(file)...)
			require.NoError(t, err)
			ours := RunOurs(ctx, bin, describe(file)...)
			logf("%s: java %s (exit %d), ours %s (exit %d)", kind, java.Duration.Round(time.Millisecond), java.ExitCode, ours.Duration.Round(time.Millisecond), ours.ExitCode)
			require.Equal(t, 0, java.ExitCode, "java stderr: %s", java.Stderr)
			assert.Equal(t, java.ExitCode, ours.ExitCode, "ours stderr: %s", ours.Stderr)
			assert.Equal(t, java.Stdout, ours.Stdout)
			assert.Contains(t, ours.Stdout, "Sub-topology: 0")
			noSecrets(t, ours.Stdout+ours.Stderr)
		})
	}

	t.Run("debug log", func(t *testing.T) {
		ours := RunOurs(ctx, bin, describe(pemProps, "--debug")...)
		require.Equal(t, 0, ours.ExitCode, ours.Stderr)
		assert.Contains(t, ours.Stderr, "] > SASLAuthenticate v2 correlation_id=")
		assert.Contains(t, ours.Stderr, "] > StreamsGroupDescribe v1 correlation_id=")
		noSecrets(t, ours.Stdout+ours.Stderr)
	})

	other := clientconfigtest.NewCA(t, "other-ca")
	failures := []struct {
		name         string
		file         string
		bootstrap    string
		wantStderr   string
		wantDetailed int
	}{
		{name: "wrong password", file: write("wrong.properties", props(clientconfigtest.PEM, filepath.Join(certDir, "truststore.pem"), password+"-typo")),
			wantStderr: "authentication failed: SASL_AUTHENTICATION_FAILED: Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512", wantDetailed: 6},
		{name: "untrusted certificate", file: write("untrusted.properties", props(clientconfigtest.PEM, other.WriteTrustStore(t, t.TempDir(), clientconfigtest.PEM), password)),
			wantStderr: "TLS connection failed: tls: failed to verify certificate: x509: certificate signed by unknown authority", wantDetailed: 7},
		{name: "plaintext against the TLS listener", file: write("plaintext.properties", "client.id=e2e\n"),
			wantStderr: "TLS connection failed: ", wantDetailed: 7},
	}
	for _, f := range failures {
		t.Run(f.name, func(t *testing.T) {
			java, err := RunStreamsGroupCommand(ctx, describe(f.file, "--timeout", "15000")...)
			require.NoError(t, err)
			for _, detailed := range []bool{false, true} {
				args, want := describe(f.file, "--timeout", "15000"), 1
				if detailed {
					args, want = append(args, "--detailed-exit-codes"), f.wantDetailed
				}
				ours := RunOurs(ctx, bin, args...)
				logf("%s: java exit %d in %s (%s); ours exit %d in %s (%s)", f.name, java.ExitCode, java.Duration.Round(time.Millisecond),
					firstLine(java.Stdout+java.Stderr), ours.ExitCode, ours.Duration.Round(time.Millisecond), firstLine(ours.Stderr))
				assert.Equal(t, want, ours.ExitCode, ours.Stderr)
				assert.Contains(t, ours.Stderr, f.wantStderr)
				assert.Empty(t, ours.Stdout)
				assert.Less(t, ours.Duration, 15*time.Second, "a permanent failure must not wait for --timeout")
				noSecrets(t, ours.Stdout+ours.Stderr)
			}
			assert.NotEqual(t, 0, java.ExitCode, "the Java tool fails too")
		})
	}
}

// storePassword is the trust store password line; Kafka refuses one for a
// PEM trust store ("SSL trust store password cannot be specified for PEM
// format."), and so does our CLI.
func storePassword(kind string) string {
	if kind == clientconfigtest.PEM {
		return ""
	}
	return "ssl.truststore.password=" + clientconfigtest.StorePassword + "\n"
}
