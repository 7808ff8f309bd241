package clientconfig

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"
)

const oauthSecret = "client-secret-9f8e"

// idp is a token endpoint that accepts client "cli" with oauthSecret.
func idp(t *testing.T, calls *atomic.Int32) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		assert.Equal(t, http.MethodPost, r.Method)
		assert.Equal(t, "application/x-www-form-urlencoded", r.Header.Get("Content-Type"))
		require.NoError(t, r.ParseForm())
		assert.Equal(t, "client_credentials", r.PostForm.Get("grant_type"))
		assert.Equal(t, "kafka read", r.PostForm.Get("scope"))
		user, pass, ok := r.BasicAuth()
		if !ok || user != "cli" || pass != oauthSecret {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":"invalid_client","error_description":"bad secret ` + pass + `"}`))
			return
		}
		_, _ = w.Write([]byte(`{"access_token":"eyJhbGciOiJub25lIn0.eyJzdWIiOiJjbGkifQ.sig","token_type":"Bearer","expires_in":3600}`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func oauthSettings(t *testing.T, url, clientSecret string) *Settings {
	t.Helper()
	p, err := Parse("security.protocol=SASL_SSL\nsasl.mechanism=OAUTHBEARER\nsasl.oauthbearer.token.endpoint.url=" + url + "\n" +
		`sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required clientId="cli" clientSecret="` + clientSecret + `" scope="kafka read" extension_logicalCluster="lkc-1";`)
	require.NoError(t, err)
	s, err := Build(p, Options{})
	require.NoError(t, err)
	return s
}

func TestOAuth_clientCredentials(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	srv := idp(t, &calls)
	s := oauthSettings(t, srv.URL+"/token", oauthSecret)
	m, err := s.SASL()
	require.NoError(t, err)
	for range 2 {
		_, first, err := m.Authenticate(context.Background(), "127.0.0.1:9092")
		require.NoError(t, err)
		msg := string(first)
		assert.Contains(t, msg, "auth=Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJjbGkifQ.sig\x01")
		assert.Contains(t, msg, "logicalCluster=lkc-1\x01")
	}
	assert.Equal(t, int32(1), calls.Load(), "the token is reused until it expires")
	assert.Equal(t, "token [redacted]", s.Redact("token eyJhbGciOiJub25lIn0.eyJzdWIiOiJjbGkifQ.sig"))
}

func TestOAuth_refused(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	srv := idp(t, &calls)
	s := oauthSettings(t, srv.URL+"/token", "wrong-"+oauthSecret)
	m, _ := s.SASL()
	_, _, err := m.Authenticate(context.Background(), "127.0.0.1:9092")
	require.ErrorIs(t, err, kerr.SaslAuthenticationFailed)
	assert.Contains(t, err.Error(), "the OAuth token endpoint "+srv.URL+"/token refused the client credentials: HTTP 401 (invalid_client)")
	assert.NotContains(t, err.Error(), oauthSecret)
}

func TestOAuth_basicAuthIsURLEncoded(t *testing.T) {
	t.Parallel()
	f := &tokenFetcher{clientID: "a:b", clientSecret: "p@ss word"}
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Get("Authorization")
		_, _ = w.Write([]byte(`{"access_token":"t"}`))
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	f.endpoint = u
	_, _, err := f.fetch(context.Background())
	require.NoError(t, err)
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(got, "Basic "))
	require.NoError(t, err)
	assert.Equal(t, "a%3Ab:p%40ss+word", string(raw), "Kafka URL-encodes both before joining them")
}

func TestOAuth_fileToken(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "token.jwt"), []byte("file.jwt.token\n"), 0o600))
	p, err := Parse("security.protocol=SASL_PLAINTEXT\nsasl.mechanism=OAUTHBEARER\nsasl.oauthbearer.token.endpoint.url=file://" + filepath.Join(dir, "token.jwt") + "\n" +
		`sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;`)
	require.NoError(t, err)
	s, err := Build(p, Options{})
	require.NoError(t, err)
	m, _ := s.SASL()
	_, first, err := m.Authenticate(context.Background(), "x:1")
	require.NoError(t, err)
	assert.Contains(t, string(first), "auth=Bearer file.jwt.token\x01")
}
