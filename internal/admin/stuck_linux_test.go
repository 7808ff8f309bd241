package admin_test

import (
	"context"
	"errors"
	"github.com/kstreams-groups/kstreams-groups/internal/clientconfig"
	"github.com/kstreams-groups/kstreams-groups/internal/javaprops"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/admin/admintest"
	"github.com/kstreams-groups/kstreams-groups/internal/clientconfig/clientconfigtest"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// A request that --timeout ends names the step that was stuck: the TCP
// connect, the TLS handshake, ApiVersions, SASL, or the request itself. A
// hung handshake was reported as "StreamsGroupDescribe: timed out", the
// request the command was making, not the step that hung; and while it
// waits, Client.Waiting says what for (a terminal's status line).
func TestConnect_stuckStepIsNamed(t *testing.T) {
	t.Parallel()
	up, err := playground.Start(playground.Config{Logf: t.Logf})
	require.NoError(t, err)
	t.Cleanup(func() { _ = up.Close() })
	ca := clientconfigtest.NewCA(t, "test-ca")
	trust := ca.WriteTrustStore(t, t.TempDir(), clientconfigtest.PEM)
	const streamsGroupDescribe, saslHandshake = 89, 17

	tests := []struct {
		name  string
		addr  func(t testing.TB) string
		props string
		step  admin.Step
		want  string // the error after "StreamsGroupDescribe: timed out "
	}{
		{name: "a listener that never accepts", addr: admintest.NeverAccepts, step: admin.StepConnect,
			want: "connecting to ADDR (TCP)"},
		{name: "a listener that accepts and never answers", addr: admintest.Silent, step: admin.StepApiVersions,
			want: "waiting for ADDR to answer ApiVersions v4, the first request of a connection (is it a Kafka listener?)"},
		{name: "TLS to a listener that never answers", addr: admintest.Silent, step: admin.StepTLS,
			props: "security.protocol=SSL\n" + trustProps("PEM", trust),
			want:  "in the TLS handshake with ADDR"},
		{name: "a broker that never answers SASL", step: admin.StepSASL,
			addr: func(t testing.TB) string {
				return admintest.Start(t, up, admintest.Rule{Key: saslHandshake, Action: admintest.Hang}).Addrs()[0]
			},
			props: "security.protocol=SASL_PLAINTEXT\n" + sasl("PLAIN", "u", secret),
			want:  "waiting for ADDR to answer SASLHandshake v1 (SASL authentication)"},
		{name: "a broker that never answers the request", step: admin.StepRequest,
			addr: func(t testing.TB) string {
				return admintest.Start(t, up, admintest.Rule{Key: streamsGroupDescribe, Action: admintest.Hang}).Addrs()[0]
			},
			want: "waiting for ADDR to answer StreamsGroupDescribe v1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			addr := tt.addr(t)
			cl := newClient(t, addr, tt.props)
			ctx, cancel := context.WithTimeout(t.Context(), 1500*time.Millisecond)
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- cl.DescribeStreamsGroups(ctx, []string{"word-count"}, true)[0].Err }()

			// While it waits, the client says what for.
			var w admin.Wait
			require.Eventually(t, func() bool {
				var ok bool
				w, ok = cl.Waiting()
				return ok && w.Step == tt.step
			}, time.Second, 5*time.Millisecond, "waiting for step %d, last seen %+v", tt.step, w)
			assert.Equal(t, addr, w.Broker)

			err := <-done
			require.ErrorIs(t, err, context.DeadlineExceeded)
			var ue *kafka.UnavailableError
			require.True(t, errors.As(err, &ue), "%v", err)
			assert.Equal(t, strings.ReplaceAll(tt.want, "ADDR", addr), ue.Stuck, "%v", err)
			assert.Contains(t, err.Error(), "timed out "+ue.Stuck)
			assert.NotContains(t, err.Error(), secret)
		})
	}
}

func newClient(t *testing.T, addr, props string) *admin.Client {
	t.Helper()
	p, err := javaprops.ParseBytes([]byte(props))
	require.NoError(t, err)
	s, err := clientconfig.Build(p, clientconfig.Options{Source: "client.properties"})
	require.NoError(t, err)
	cl, err := admin.New(admin.Config{Bootstrap: []string{addr}, SoftwareVersion: "1.0.0", Security: s})
	require.NoError(t, err)
	t.Cleanup(cl.Close)
	return cl
}
