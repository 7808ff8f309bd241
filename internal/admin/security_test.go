package admin

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/kstreams-groups/kstreams-groups/internal/clientconfig"
	"github.com/kstreams-groups/kstreams-groups/internal/javaprops"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

func settings(t *testing.T, props string) *clientconfig.Settings {
	t.Helper()
	p, err := javaprops.ParseBytes([]byte(props))
	require.NoError(t, err)
	s, err := clientconfig.Build(p, clientconfig.Options{})
	require.NoError(t, err)
	return s
}

func jaas(module, options string) string {
	return "sasl.jaas.config=org.apache.kafka.common.security." + module + " required " + options + ";\n"
}

func TestSASLMechanism(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, props, wantName, wantFirst string
	}{
		{name: "plain", props: "sasl.mechanism=PLAIN\n" + jaas("plain.PlainLoginModule", `username="alice" password="pw-1"`),
			wantName: "PLAIN", wantFirst: "\x00alice\x00pw-1"},
		{name: "scram 256", props: "sasl.mechanism=SCRAM-SHA-256\n" + jaas("scram.ScramLoginModule", `username="alice" password="pw-1"`),
			wantName: "SCRAM-SHA-256", wantFirst: "n,,n=alice,r="},
		{name: "scram 512 delegation token", props: "sasl.mechanism=SCRAM-SHA-512\n" + jaas("scram.ScramLoginModule", `username="tok" password="hmac" tokenauth="true"`),
			wantName: "SCRAM-SHA-512", wantFirst: "n,,n=tok,r="},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := saslMechanism(settings(t, "security.protocol=SASL_PLAINTEXT\n"+tt.props).SASL)
			require.NotNil(t, m)
			assert.Equal(t, tt.wantName, m.Name())
			_, first, err := m.Authenticate(context.Background(), "127.0.0.1:9092")
			require.NoError(t, err)
			assert.Contains(t, string(first), tt.wantFirst)
		})
	}
	t.Run("delegation token extension", func(t *testing.T) {
		t.Parallel()
		m := saslMechanism(settings(t, "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-512\n"+jaas("scram.ScramLoginModule", `username="tok" password="hmac" tokenauth="true"`)).SASL)
		_, first, err := m.Authenticate(context.Background(), "127.0.0.1:9092")
		require.NoError(t, err)
		assert.Contains(t, string(first), ",tokenauth=true")
	})
	t.Run("none", func(t *testing.T) {
		t.Parallel()
		assert.Nil(t, saslMechanism(settings(t, "security.protocol=SSL\n").SASL))
	})
}

// oauthSettings has an OAUTHBEARER token endpoint at url.
func oauthSettings(t *testing.T, url string) *clientconfig.Settings {
	t.Helper()
	return settings(t, "security.protocol=SASL_SSL\nsasl.mechanism=OAUTHBEARER\nsasl.oauthbearer.token.endpoint.url="+url+"\n"+
		jaas("oauthbearer.OAuthBearerLoginModule", `clientId="cli" clientSecret="client-secret-9f8e" scope="kafka" extension_logicalCluster="lkc-1"`))
}

func TestSASLMechanism_oauth(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, pass, _ := r.BasicAuth(); pass != "client-secret-9f8e" {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":"invalid_client"}`))
			return
		}
		_, _ = w.Write([]byte(`{"access_token":"eyJhbGciOiJub25lIn0.eyJzdWIiOiJjbGkifQ.sig","expires_in":3600}`))
	}))
	t.Cleanup(srv.Close)

	m := saslMechanism(oauthSettings(t, srv.URL+"/token").SASL)
	assert.Equal(t, "OAUTHBEARER", m.Name())
	_, first, err := m.Authenticate(context.Background(), "127.0.0.1:9092")
	require.NoError(t, err)
	assert.Contains(t, string(first), "auth=Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJjbGkifQ.sig\x01")
	assert.Contains(t, string(first), "logicalCluster=lkc-1\x01")

	// A refused client is a SASL authentication failure, reported at once.
	refused := settings(t, "security.protocol=SASL_SSL\nsasl.mechanism=OAUTHBEARER\nsasl.oauthbearer.token.endpoint.url="+srv.URL+"/token\n"+
		jaas("oauthbearer.OAuthBearerLoginModule", `clientId="cli" clientSecret="wrong-secret-1234"`))
	_, _, err = saslMechanism(refused.SASL).Authenticate(context.Background(), "127.0.0.1:9092")
	require.ErrorIs(t, err, kerr.SaslAuthenticationFailed)
	assert.EqualError(t, err, kerr.SaslAuthenticationFailed.Error()+": the OAuth token endpoint "+srv.URL+"/token refused the client credentials: HTTP 401 (invalid_client)")
	ce := (&Client{}).connectFailure(err)
	require.NotNil(t, ce)
	assert.Equal(t, kafka.AuthFailed, ce.Failure)
	assert.Equal(t, "authentication failed: SASL_AUTHENTICATION_FAILED: the OAuth token endpoint "+srv.URL+"/token refused the client credentials: HTTP 401 (invalid_client)", ce.Error())
	assert.NotContains(t, ce.Error(), "wrong-secret-1234")
}

func TestSASLMechanism_oauthFileAndRetry(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "token.jwt"), []byte("file.jwt.token\n"), 0o600))
	file := settings(t, "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=OAUTHBEARER\nsasl.oauthbearer.token.endpoint.url=file://"+filepath.Join(dir, "token.jwt")+"\n"+
		jaas("oauthbearer.OAuthBearerLoginModule", ""))
	_, first, err := saslMechanism(file.SASL).Authenticate(context.Background(), "x:1")
	require.NoError(t, err)
	assert.Contains(t, string(first), "auth=Bearer file.jwt.token\x01")

	// An endpoint that is down may come back: not an authentication failure.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) }))
	t.Cleanup(srv.Close)
	_, _, err = saslMechanism(oauthSettings(t, srv.URL+"/token").SASL).Authenticate(context.Background(), "127.0.0.1:9092")
	require.EqualError(t, err, "OAuth token endpoint "+srv.URL+"/token: HTTP 503")
	assert.NotErrorIs(t, err, kerr.SaslAuthenticationFailed)
	assert.Nil(t, (&Client{}).connectFailure(err))
}

func TestSecurityOpts(t *testing.T) {
	t.Parallel()
	c := &Client{}
	assert.Len(t, c.securityOpts(nil, nil), 1, "PLAINTEXT: the guarded dialer only")
	assert.Len(t, c.securityOpts(settings(t, ""), nil), 1)
	assert.Len(t, c.securityOpts(settings(t, "request.timeout.ms=5000\n"), nil), 2)
	assert.Len(t, c.securityOpts(settings(t, "security.protocol=SSL\n"), nil), 1, "the guarded TLS dialer")
	assert.Len(t, c.securityOpts(settings(t, "security.protocol=SSL\n"), &strings.Builder{}), 3, "the --debug dialer, hook and logger in place of the TLS dialer")
	assert.Len(t, c.securityOpts(settings(t, "security.protocol=SASL_SSL\nrequest.timeout.ms=1\nsasl.mechanism=PLAIN\n"+jaas("plain.PlainLoginModule", `username="u" password="p"`)), nil), 3)
	assert.Len(t, c.securityOpts(nil, &strings.Builder{}), 3)
}
