package clientconfig

import (
	"context"
	"encoding/base64"
	"errors"
	"net"
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

	"github.com/kstreams-groups/kstreams-groups/internal/javaprops"
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
	p, err := javaprops.ParseBytes([]byte("security.protocol=SASL_SSL\nsasl.mechanism=OAUTHBEARER\nsasl.oauthbearer.token.endpoint.url=" + url + "\n" +
		`sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required clientId="cli" clientSecret="` + clientSecret + `" scope="kafka read" extension_logicalCluster="lkc-1";`))
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
	require.NotNil(t, s.SASL)
	assert.Equal(t, "OAUTHBEARER", s.SASL.Mechanism)
	for range 2 {
		tok, err := s.SASL.Token(context.Background())
		require.NoError(t, err)
		assert.Equal(t, "eyJhbGciOiJub25lIn0.eyJzdWIiOiJjbGkifQ.sig", tok)
		assert.Equal(t, map[string]string{"logicalCluster": "lkc-1"}, s.SASL.Extensions())
	}
	assert.Equal(t, int32(1), calls.Load(), "the token is reused until it expires")
	assert.Equal(t, "token [redacted]", s.Redact("token eyJhbGciOiJub25lIn0.eyJzdWIiOiJjbGkifQ.sig"))
}

func TestOAuth_refused(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	srv := idp(t, &calls)
	s := oauthSettings(t, srv.URL+"/token", "wrong-"+oauthSecret)
	_, err := s.SASL.Token(context.Background())
	var te *TokenError
	require.ErrorAs(t, err, &te)
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
	p, err := javaprops.ParseBytes([]byte("security.protocol=SASL_PLAINTEXT\nsasl.mechanism=OAUTHBEARER\nsasl.oauthbearer.token.endpoint.url=file://" + filepath.Join(dir, "token.jwt") + "\n" +
		`sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;`))
	require.NoError(t, err)
	s, err := Build(p, Options{})
	require.NoError(t, err)
	tok, err := s.SASL.Token(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "file.jwt.token", tok)
	assert.Empty(t, s.SASL.Extensions())
}

// tokenErr asks s for a token and returns the error.
func tokenErr(t *testing.T, s *Settings) error {
	t.Helper()
	_, err := s.SASL.Token(context.Background())
	return err
}

// TestOAuth_endpointAnswers pins what each answer of the token endpoint
// becomes: a refusal (4xx) or an answer without a token is a *TokenError,
// which the client reports like a broker's SASL_AUTHENTICATION_FAILED;
// anything else is retried. No body text but an OAuth error code is echoed.
func TestOAuth_endpointAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		contentType string // "" lets net/http sniff it (text/plain for JSON)
		status      int
		body        string
		wantToken   string
		wantAuth    bool // a *TokenError
		wantErr     string
	}{
		{name: "JSON", contentType: "application/json", status: 200, body: `{"access_token":"tok-1","expires_in":60}`, wantToken: "tok-1"},
		{name: "JSON sent as text/plain", status: 200, body: `{"access_token":"tok-2"}`, wantToken: "tok-2"},
		{name: "JSON with a charset", contentType: "application/json; charset=utf-8", status: 200, body: `{"access_token":"tok-3","token_type":"Bearer"}`, wantToken: "tok-3"},
		{name: "bad JSON", contentType: "application/json", status: 200, body: `{"access_token":`, wantAuth: true, wantErr: "the OAuth token endpoint URL answered without an access_token"},
		{name: "form answer", contentType: "application/x-www-form-urlencoded", status: 200, body: `access_token=tok-4`, wantAuth: true, wantErr: "the OAuth token endpoint URL answered without an access_token"},
		{name: "no token", contentType: "application/json", status: 200, body: `{"token_type":"Bearer"}`, wantAuth: true, wantErr: "the OAuth token endpoint URL answered without an access_token"},
		{name: "error code with 200", contentType: "application/json", status: 200, body: `{"error":"invalid_client"}`, wantAuth: true, wantErr: "the OAuth token endpoint URL answered without an access_token"},
		{name: "refused with an error code", contentType: "application/json", status: 400, body: `{"error":"invalid_grant","error_description":"no ` + oauthSecret + `"}`, wantAuth: true,
			wantErr: "the OAuth token endpoint URL refused the client credentials: HTTP 400 (invalid_grant)"},
		{name: "refused with free text", contentType: "application/json", status: 403, body: `{"error":"secret ` + oauthSecret + ` is wrong"}`, wantAuth: true,
			wantErr: "the OAuth token endpoint URL refused the client credentials: HTTP 403"},
		{name: "refused without a body", status: 401, wantAuth: true, wantErr: "the OAuth token endpoint URL refused the client credentials: HTTP 401"},
		{name: "server error", contentType: "application/json", status: 503, body: `{"error":"temporarily_unavailable"}`, wantErr: "OAuth token endpoint URL: HTTP 503"},
		{name: "redirect", status: 304, wantErr: "OAuth token endpoint URL: HTTP 304"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var accept string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				accept = r.Header.Get("Accept")
				if tt.contentType != "" {
					w.Header().Set("Content-Type", tt.contentType)
				}
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte(tt.body))
			}))
			defer srv.Close()
			s := oauthSettings(t, srv.URL+"/token", oauthSecret)
			tok, err := s.SASL.Token(context.Background())
			assert.Equal(t, "application/json", accept)
			if tt.wantErr == "" {
				require.NoError(t, err)
				assert.Equal(t, tt.wantToken, tok)
				return
			}
			require.Error(t, err)
			want := strings.ReplaceAll(tt.wantErr, "URL", srv.URL+"/token")
			assert.True(t, strings.HasSuffix(err.Error(), want), "%q does not end with %q", err, want)
			var te *TokenError
			assert.Equal(t, tt.wantAuth, errors.As(err, &te), "%v", err)
			assert.NotContains(t, err.Error(), oauthSecret)
		})
	}
}

func TestOAuth_unreachableEndpoint(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	err = tokenErr(t, oauthSettings(t, "http://"+addr+"/token", oauthSecret))
	require.Error(t, err)
	assert.Equal(t, "OAuth token endpoint http://"+addr+"/token: dial tcp "+addr+": connect: connection refused", err.Error())
	var te *TokenError
	assert.False(t, errors.As(err, &te), "an unreachable endpoint may come back")
}

func TestOAuth_endpointCredentialsNotEchoed(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	err = tokenErr(t, oauthSettings(t, "http://user:"+oauthSecret+"@"+addr+"/token", oauthSecret))
	require.Error(t, err)
	assert.Equal(t, "OAuth token endpoint http://user:xxxxx@"+addr+"/token: dial tcp "+addr+": connect: connection refused", err.Error())
}

func TestOAuth_fileTokenErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.jwt")
	require.NoError(t, os.WriteFile(empty, []byte(" \n"), 0o600))
	for name, tt := range map[string]struct{ path, want string }{
		"missing": {filepath.Join(dir, "missing.jwt"), "cannot read the OAuth token file: open " + filepath.Join(dir, "missing.jwt") + ": no such file or directory"},
		"empty":   {empty, "the OAuth token file " + empty + " is empty"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p, err := javaprops.ParseBytes([]byte("security.protocol=SASL_PLAINTEXT\nsasl.mechanism=OAUTHBEARER\nsasl.oauthbearer.token.endpoint.url=file://" + tt.path + "\n" +
				`sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;`))
			require.NoError(t, err)
			s, err := Build(p, Options{})
			require.NoError(t, err)
			err = tokenErr(t, s)
			var te *TokenError
			require.ErrorAs(t, err, &te)
			assert.True(t, strings.HasSuffix(err.Error(), tt.want), err.Error())
		})
	}
}

// TestOAuth_httpClient proves Options.HTTPClient fetches the tokens: the
// endpoint's certificate is trusted by that client only.
func TestOAuth_httpClient(t *testing.T) {
	t.Parallel()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"access_token":"tls-token"}`))
	}))
	defer srv.Close()
	props := []byte("security.protocol=SASL_SSL\nsasl.mechanism=OAUTHBEARER\nsasl.oauthbearer.token.endpoint.url=" + srv.URL + "/token\n" +
		`sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required clientId="cli" clientSecret="` + oauthSecret + `";`)
	p, err := javaprops.ParseBytes(props)
	require.NoError(t, err)
	s, err := Build(p, Options{HTTPClient: srv.Client()})
	require.NoError(t, err)
	tok, err := s.SASL.Token(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "tls-token", tok)

	s, err = Build(p, Options{})
	require.NoError(t, err)
	_, err = s.SASL.Token(context.Background())
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "OAuth token endpoint "+srv.URL+"/token: tls: failed to verify certificate: "), err.Error())
}
