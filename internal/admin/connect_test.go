package admin_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/admin/admintest"
	"github.com/kstreams-groups/kstreams-groups/internal/buftest"
	"github.com/kstreams-groups/kstreams-groups/internal/clientconfig"
	"github.com/kstreams-groups/kstreams-groups/internal/clientconfig/clientconfigtest"
	"github.com/kstreams-groups/kstreams-groups/internal/javaprops"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// These tests connect the project's admin client, configured from client
// properties (clientconfig's settings, mapped onto franz-go in security.go),
// to franz-go's kfake broker with TLS and SASL. kfake has no
// streams groups, so a connection that works ends at the version gate of
// --describe --topology (BrokerTooOldError: kfake lacks StreamsGroupDescribe)
// and at an empty ListGroups; the failures must be categorised before the
// deadline instead of being retried until it.

// secret is the password of every case; no error or log may contain it.
const secret = "s3cret-Pa55"

// outcome is what describe --topology and list got through one client.
type outcome struct {
	describe error
	list     error
}

func connect(t *testing.T, addr, props string, timeout time.Duration, debug *buftest.Buffer) outcome {
	t.Helper()
	p, err := javaprops.ParseBytes([]byte(props))
	require.NoError(t, err)
	s, err := clientconfig.Build(p, clientconfig.Options{Source: "client.properties"})
	require.NoError(t, err)
	cfg := admin.Config{Bootstrap: []string{addr}, ClientID: s.ClientID, SoftwareVersion: "1.0.0", Security: s}
	if debug != nil {
		cfg.Debug = debug
	}
	cl, err := admin.New(cfg)
	require.NoError(t, err)
	defer cl.Close()
	var o outcome
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	o.describe = cl.DescribeStreamsGroups(ctx, []string{"word-count"}, true)[0].Err
	ctx, cancel = context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, o.list = cl.ListStreamsGroups(ctx)
	return o
}

func sasl(mech, user, pass string) string {
	module := "org.apache.kafka.common.security.scram.ScramLoginModule"
	if mech == "PLAIN" {
		module = "org.apache.kafka.common.security.plain.PlainLoginModule"
	}
	return fmt.Sprintf("sasl.mechanism=%s\nsasl.jaas.config=%s required username=\"%s\" password=\"%s\";\n", mech, module, user, pass)
}

func trustProps(kind, path string) string {
	p := fmt.Sprintf("ssl.truststore.type=%s\nssl.truststore.location=%s\n", kind, path)
	if kind != clientconfigtest.PEM { // Kafka refuses a password for PEM
		p += "ssl.truststore.password=" + clientconfigtest.StorePassword + "\n"
	}
	return p
}

// requireConnected asserts the request reached the broker's answer.
func requireConnected(t *testing.T, o outcome) {
	t.Helper()
	require.ErrorIs(t, o.describe, kafka.ErrBrokerTooOld, "kfake has no StreamsGroupDescribe: %v", o.describe)
	require.NoError(t, o.list)
}

func TestConnect_TLSAndSASL(t *testing.T) {
	t.Parallel()
	ca := clientconfigtest.NewCA(t, "test-ca")
	users := map[string]map[string]string{
		"PLAIN":         {"plainuser": "plain-" + secret},
		"SCRAM-SHA-512": {"scramuser": "scram-" + secret},
	}
	_, addr := clientconfigtest.StartCluster(t, clientconfigtest.ClusterOptions{TLS: &ca.Server, Users: users})
	for _, kind := range []string{clientconfigtest.PEM, clientconfigtest.PKCS12, clientconfigtest.JKS} {
		trust := ca.WriteTrustStore(t, t.TempDir(), kind)
		for _, mech := range []string{"PLAIN", "SCRAM-SHA-512"} {
			t.Run(kind+"/"+mech, func(t *testing.T) {
				t.Parallel()
				var user, pass string
				for u, p := range users[mech] {
					user, pass = u, p
				}
				requireConnected(t, connect(t, addr, "security.protocol=SASL_SSL\n"+trustProps(kind, trust)+sasl(mech, user, pass), 20*time.Second, nil))
			})
		}
	}
}

func TestConnect_mutualTLS(t *testing.T) {
	t.Parallel()
	ca := clientconfigtest.NewCA(t, "test-ca")
	_, addr := clientconfigtest.StartCluster(t, clientconfigtest.ClusterOptions{TLS: &ca.Server, ClientCAs: ca.Cert})
	trust := ca.WriteTrustStore(t, t.TempDir(), clientconfigtest.PEM)
	for _, kind := range []string{clientconfigtest.PEM, clientconfigtest.PKCS12, clientconfigtest.JKS} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			keys := ca.WriteKeyStore(t, t.TempDir(), kind)
			props := "security.protocol=SSL\n" + trustProps("PEM", trust) + fmt.Sprintf("ssl.keystore.type=%s\nssl.keystore.location=%s\n", kind, keys)
			if kind != clientconfigtest.PEM {
				props += "ssl.keystore.password=" + clientconfigtest.StorePassword + "\n"
			}
			requireConnected(t, connect(t, addr, props, 20*time.Second, nil))
		})
	}
	t.Run("no client certificate", func(t *testing.T) {
		t.Parallel()
		o := connect(t, addr, "security.protocol=SSL\n"+trustProps("PEM", trust), 20*time.Second, nil)
		requireConnectFailure(t, o, kafka.TLSFailed, kafka.ErrUnavailable, "certificate required")
	})
}

// requireConnectFailure asserts both requests failed with the category,
// without waiting for the deadline.
func requireConnectFailure(t *testing.T, o outcome, f kafka.ConnectFailure, category error, text string) {
	t.Helper()
	for _, err := range []error{o.describe, o.list} {
		var ce *kafka.ConnectError
		require.ErrorAs(t, err, &ce, "%v", err)
		assert.Equal(t, f, ce.Failure)
		assert.ErrorIs(t, err, category)
		assert.NotErrorIs(t, err, context.DeadlineExceeded)
		assert.Contains(t, err.Error(), text)
		assert.NotContains(t, err.Error(), secret)
	}
}

func TestConnect_failures(t *testing.T) {
	t.Parallel()
	ca := clientconfigtest.NewCA(t, "test-ca")
	other := clientconfigtest.NewCA(t, "other-ca")
	dir := t.TempDir()
	trust := ca.WriteTrustStore(t, dir, clientconfigtest.PEM)
	otherTrust := other.WriteTrustStore(t, t.TempDir(), clientconfigtest.PEM)
	users := map[string]map[string]string{"SCRAM-SHA-512": {"alice": "right-" + secret}}
	_, tlsAddr := clientconfigtest.StartCluster(t, clientconfigtest.ClusterOptions{TLS: &ca.Server, Users: users})
	_, rejectAddr := clientconfigtest.StartCluster(t, clientconfigtest.ClusterOptions{TLS: &ca.Server, Users: users,
		RejectSASL: "Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512"})
	// The project's test broker closes a connection on a frame size above
	// socket.request.max.bytes, as Kafka does when a TLS ClientHello
	// arrives; kfake would wait for the 369 MB "request" instead.
	plain, err := playground.Start(playground.Config{Logf: t.Logf})
	require.NoError(t, err)
	t.Cleanup(func() { _ = plain.Close() })
	plainAddr := plain.Addrs()[0]
	javaTLS := javaTLSListener(t)
	localhostOnly := ca.IssueServer(t, []string{"localhost"}, nil)
	_, hostAddr := clientconfigtest.StartCluster(t, clientconfigtest.ClusterOptions{TLS: &localhostOnly})

	tests := []struct {
		name     string
		addr     string
		props    string
		failure  kafka.ConnectFailure
		category error
		text     string
	}{
		{name: "wrong password, broker answers SASL_AUTHENTICATION_FAILED", addr: rejectAddr,
			props:   "security.protocol=SASL_SSL\n" + trustProps("PEM", trust) + sasl("SCRAM-SHA-512", "alice", "wrong-"+secret),
			failure: kafka.AuthFailed, category: kafka.ErrNotAuthorized,
			text: "authentication failed: SASL_AUTHENTICATION_FAILED: Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512"},
		{name: "untrusted certificate", addr: tlsAddr,
			props:   "security.protocol=SSL\n" + trustProps("PEM", otherTrust),
			failure: kafka.TLSFailed, category: kafka.ErrUnavailable,
			text: "TLS connection failed: tls: failed to verify certificate: x509: certificate signed by unknown authority (check ssl.truststore.* in --command-config)"},
		{name: "untrusted certificate without host name check", addr: tlsAddr,
			props:   "security.protocol=SSL\nssl.endpoint.identification.algorithm=\n" + trustProps("PEM", otherTrust),
			failure: kafka.TLSFailed, category: kafka.ErrUnavailable,
			text: "x509: certificate signed by unknown authority"},
		{name: "host name mismatch", addr: hostAddr,
			props:   "security.protocol=SSL\n" + trustProps("PEM", trust),
			failure: kafka.TLSFailed, category: kafka.ErrUnavailable,
			text: "TLS connection failed: tls: failed to verify certificate: x509: cannot validate certificate for 127.0.0.1 because it doesn't contain any IP SANs (check the bootstrap host name, or set ssl.endpoint.identification.algorithm= to skip host name checks)"},
		{name: "plaintext against a TLS listener", addr: tlsAddr, props: "",
			failure: kafka.TLSFailed, category: kafka.ErrUnavailable,
			text: "is TLS missing? (check security.protocol in --command-config)"},
		{name: "plaintext against a Java TLS listener", addr: javaTLS, props: "",
			failure: kafka.TLSFailed, category: kafka.ErrUnavailable,
			text: "TLS connection failed: invalid large response size 352518912 > limit 104857600; the first three bytes received appear to be a tls alert record for TLS v1.2; is this a plaintext connection speaking to a tls endpoint? (check security.protocol in --command-config)"},
		// A real 4.4.0 PLAINTEXT listener answers SaslHandshake with
		// ILLEGAL_SASL_STATE (e2e/FINDINGS.md F350), as the playground does.
		{name: "SASL against a plaintext listener", addr: plainAddr,
			props:   "security.protocol=SASL_PLAINTEXT\n" + sasl("PLAIN", "u", secret),
			failure: kafka.AuthFailed, category: kafka.ErrNotAuthorized,
			text: "authentication failed: ILLEGAL_SASL_STATE: Request is not valid given the current SASL state. (the listener does not take SASL: check security.protocol in --command-config and the listener's port)"},
		{name: "TLS against a plaintext listener", addr: plainAddr,
			props:   "security.protocol=SSL\n" + trustProps("PEM", trust),
			failure: kafka.TLSFailed, category: kafka.ErrUnavailable,
			text: "TLS connection failed: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			requireConnectFailure(t, connect(t, tt.addr, tt.props, 20*time.Second, nil), tt.failure, tt.category, tt.text)
		})
	}

	t.Run("host name check off", func(t *testing.T) {
		t.Parallel()
		requireConnected(t, connect(t, hostAddr, "security.protocol=SSL\nssl.endpoint.identification.algorithm=\n"+trustProps("PEM", trust), 20*time.Second, nil))
	})
}

// A bootstrap server that refuses the connection fails after a few quick
// retries, naming each address, instead of at the deadline; the issue
// (31) demands it within 2 s, the bound asserted here with 20 s of
// timeout. A broker that is slow rather than absent keeps the deadline.
func TestConnect_unreachable(t *testing.T) {
	t.Parallel()
	refused, other := closedAddr(t), closedAddr(t)
	silent := admintest.Silent(t)
	for _, tc := range []struct {
		name string
		addr []string
		want string
	}{
		{"one refused", []string{refused}, "no bootstrap server could be reached: " + refused + " (connection refused); check the host and port"},
		{"two refused", []string{refused, other}, "no bootstrap server could be reached: " + refused + " (connection refused), " + other + " (connection refused); "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			o := connectTo(t, tc.addr, 20*time.Second)
			took := time.Since(start)
			for _, err := range []error{o.describe, o.list} {
				var ue *kafka.UnreachableError
				require.ErrorAs(t, err, &ue, "%v", err)
				assert.ErrorIs(t, err, kafka.ErrUnavailable)
				assert.NotErrorIs(t, err, context.DeadlineExceeded)
				assert.Contains(t, err.Error(), tc.want)
			}
			assert.Less(t, took, 2*2*time.Second, "describe and list, each within 2 s")
		})
	}
	for _, tc := range []struct {
		name string
		addr []string
	}{
		{"a listener that never answers", []string{silent}},
		{"one refused, one that never answers", []string{refused, silent}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			timeout := 1500 * time.Millisecond
			start := time.Now()
			o := connectTo(t, tc.addr, timeout)
			took := time.Since(start)
			for _, err := range []error{o.describe, o.list} {
				var ue *kafka.UnreachableError
				assert.False(t, errors.As(err, &ue), "a slow broker gets the whole timeout: %v", err)
				assert.ErrorIs(t, err, context.DeadlineExceeded)
				assert.Contains(t, err.Error(), "timed out")
			}
			assert.GreaterOrEqual(t, took, 2*timeout)
		})
	}
}

// connectTo runs connect's requests against the bootstrap servers addrs,
// plaintext.
func connectTo(t *testing.T, addrs []string, timeout time.Duration) outcome {
	t.Helper()
	cl, err := admin.New(admin.Config{Bootstrap: addrs})
	require.NoError(t, err)
	defer cl.Close()
	var o outcome
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	o.describe = cl.DescribeStreamsGroups(ctx, []string{"word-count"}, true)[0].Err
	ctx, cancel = context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, o.list = cl.ListStreamsGroups(ctx)
	return o
}

// closedAddr is an address on 127.0.0.1 where nothing listens: a port
// just released.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return addr
}

func TestConnect_debugLog(t *testing.T) {
	t.Parallel()
	ca := clientconfigtest.NewCA(t, "test-ca")
	pass := "scram-" + secret
	_, addr := clientconfigtest.StartCluster(t, clientconfigtest.ClusterOptions{TLS: &ca.Server,
		Users: map[string]map[string]string{"SCRAM-SHA-512": {"alice": pass}}})
	trust := ca.WriteTrustStore(t, t.TempDir(), clientconfigtest.JKS)
	var log buftest.Buffer
	requireConnected(t, connect(t, addr, "security.protocol=SASL_SSL\n"+trustProps("JKS", trust)+sasl("SCRAM-SHA-512", "alice", pass), 20*time.Second, &log))
	out := log.String()
	assert.NotContains(t, out, secret)
	assert.NotContains(t, out, clientconfigtest.StorePassword)
	for _, want := range []string{
		"debug: [" + addr + "] TLS TLS 1.3 ",
		"] > ApiVersions v4 correlation_id=",
		"] < ApiVersions v4 correlation_id=",
		"] > SASLHandshake v1 ",
		"] > SASLAuthenticate v2 ",
		"debug: [seed 0 " + addr + "] connection ready after ",
		"debug: [seed 0 " + addr + "] > FindCoordinator v6 ",
		"debug: [node 0 " + addr + "] > ListGroups v5 ",
	} {
		assert.Contains(t, out, want)
	}
	// The version check of --topology reads the handshake's ApiVersions:
	// no connection sends one of its own once it is ready.
	assert.NotContains(t, out, "debug: [seed 0 "+addr+"] > ApiVersions")
	assert.NotContains(t, out, "debug: [node 0 "+addr+"] > ApiVersions")
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		assert.True(t, strings.HasPrefix(line, "debug: "), line)
	}
}

// javaTLSListener answers like a Kafka SSL listener (Java's SSLEngine) does
// when a plaintext request arrives: a fatal TLS 1.2 alert record, then
// close. Go's TLS server just closes, so kfake cannot show this.
func javaTLSListener(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { _ = l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				buf := make([]byte, 512)
				if _, err := c.Read(buf); err != nil {
					return
				}
				// alert(21), TLS 1.2, length 2, fatal(2) unexpected_message(10)
				_, _ = c.Write([]byte{21, 3, 3, 0, 2, 2, 10})
			}()
		}
	}()
	return l.Addr().String()
}
