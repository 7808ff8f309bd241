package clientconfig

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// tokenFetcher gets an OAUTHBEARER token with the OAuth 2 client credentials
// grant, as Kafka's OAuthBearerLoginCallbackHandler does, or reads one from
// a file: URL. The client asks for a token on every new connection; the
// token is reused until shortly before it expires.
type tokenFetcher struct {
	endpoint     *url.URL
	path         string // file: tokens
	client       *http.Client
	clientID     string
	clientSecret string
	scope        string
	extensions   map[string]string
	onToken      func(string)

	mu      sync.Mutex
	token   string
	expires time.Time
}

func (f *tokenFetcher) get(ctx context.Context) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.token != "" && time.Now().Before(f.expires) {
		return f.token, nil
	}
	var tok string
	var ttl time.Duration
	var err error
	if f.path != "" {
		tok, err = f.readFile()
		ttl = time.Minute
	} else {
		tok, ttl, err = f.fetch(ctx)
	}
	if err != nil {
		return "", err
	}
	if f.onToken != nil {
		f.onToken(tok)
	}
	f.token, f.expires = tok, time.Now().Add(ttl)
	return tok, nil
}

// maxTokenSize is the largest OAuth token file read.
const maxTokenSize = 1 << 20

func (f *tokenFetcher) readFile() (string, error) {
	data, err := readLimited(f.path, maxTokenSize)
	if errors.Is(err, errTooLarge) {
		return "", &TokenError{msg: fmt.Sprintf("the OAuth token file %s is larger than 1 MiB, the limit for a token file", f.path)}
	}
	if err != nil {
		return "", &TokenError{msg: fmt.Sprintf("cannot read the OAuth token file: %v", err)}
	}
	tok := strings.TrimSpace(string(data))
	if tok == "" {
		return "", &TokenError{msg: fmt.Sprintf("the OAuth token file %s is empty", f.path)}
	}
	return tok, nil
}

// fetch gets a token with the client credentials grant of
// golang.org/x/oauth2. Kafka sends the client id and secret URL-encoded in
// a Basic Authorization header (oauth2's AuthStyleInHeader) and the scope
// as given in the form body. Its answers map onto errors as Kafka's
// HttpJwtRetriever does: a refusal (4xx) or an answer without a token
// cannot be retried (a *TokenError), an unreachable endpoint or a server
// error can. No credential and no body text but an OAuth error code is
// quoted.
func (f *tokenFetcher) fetch(ctx context.Context) (string, time.Duration, error) {
	cc := clientcredentials.Config{
		ClientID:     f.clientID,
		ClientSecret: f.clientSecret,
		TokenURL:     f.endpoint.String(),
		AuthStyle:    oauth2.AuthStyleInHeader,
	}
	if f.scope != "" {
		cc.Scopes = []string{f.scope}
	}
	tok, err := cc.Token(context.WithValue(ctx, oauth2.HTTPClient, f.httpClient()))
	if err != nil {
		return "", 0, f.tokenErr(err)
	}
	ttl := time.Hour
	if d := time.Until(tok.Expiry); d > 0 {
		ttl = d * 8 / 10
	}
	return tok.AccessToken, ttl, nil
}

// oauth2's untyped errors for an answer that holds no token, and for a body
// that cannot be read (pinned golang.org/x/oauth2 version; the tests check
// them).
const (
	errOAuthBadJSON   = "oauth2: cannot parse json: "
	errOAuthNoToken   = "oauth2: server response missing access_token"
	errOAuthReadAbort = "oauth2: cannot fetch token: "
)

// tokenErr maps an error of the token request.
func (f *tokenFetcher) tokenErr(err error) error {
	where := f.endpoint.Redacted()
	var (
		re *oauth2.RetrieveError
		ue *url.Error
	)
	switch {
	case errors.As(err, &re) && re.Response != nil && re.Response.StatusCode >= 400 && re.Response.StatusCode < 500:
		// The endpoint refused the credentials: retrying cannot help, so
		// this is reported like a broker's SASL_AUTHENTICATION_FAILED.
		reason := ""
		if isToken(re.ErrorCode) {
			reason = " (" + re.ErrorCode + ")"
		}
		return &TokenError{msg: fmt.Sprintf("the OAuth token endpoint %s refused the client credentials: HTTP %d%s",
			where, re.Response.StatusCode, reason)}
	case errors.As(err, &re) && re.Response != nil && (re.Response.StatusCode < 200 || re.Response.StatusCode > 299):
		return fmt.Errorf("OAuth token endpoint %s: HTTP %d", where, re.Response.StatusCode)
	case errors.As(err, &re), strings.HasPrefix(err.Error(), errOAuthBadJSON), err.Error() == errOAuthNoToken:
		// A 2xx answer with an OAuth error code, or without a token.
		return &TokenError{msg: fmt.Sprintf("the OAuth token endpoint %s answered without an access_token", where)}
	case errors.As(err, &ue):
		// The URL and the transport's reason; never the request.
		return fmt.Errorf("OAuth token endpoint %s: %w", where, ue.Err)
	}
	return fmt.Errorf("OAuth token endpoint %s: %s", where, strings.TrimPrefix(err.Error(), errOAuthReadAbort))
}

// httpClient is Options.HTTPClient, or Go's default client, with
// kafkaTransport in front of its transport.
func (f *tokenFetcher) httpClient() *http.Client {
	var c http.Client
	if f.client != nil {
		c = *f.client
	}
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c.Transport = kafkaTransport{base: base}
	return &c
}

// kafkaTransport makes the token request and its answer what Kafka's
// HttpJwtRetriever makes of them: it asks for JSON, and reads the answer as
// JSON whatever its Content-Type, where oauth2 would read a text/plain or
// form answer as form values.
type kafkaTransport struct{ base http.RoundTripper }

func (t kafkaTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Accept", "application/json")
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if resp.Header == nil {
		resp.Header = http.Header{}
	}
	resp.Header.Set("Content-Type", "application/json")
	return resp, nil
}

// isToken reports whether s looks like an OAuth error code
// (invalid_client, ...), so that nothing else from the body is echoed.
func isToken(s string) bool {
	ok, _ := regexp.MatchString(`^[a-zA-Z_]{1,64}$`, s)
	return ok
}
