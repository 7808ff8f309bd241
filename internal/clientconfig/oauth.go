package clientconfig

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"
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

func (f *tokenFetcher) readFile() (string, error) {
	data, err := os.ReadFile(f.path)
	if err != nil {
		return "", &TokenError{msg: fmt.Sprintf("cannot read the OAuth token file: %v", err)}
	}
	tok := strings.TrimSpace(string(data))
	if tok == "" {
		return "", &TokenError{msg: fmt.Sprintf("the OAuth token file %s is empty", f.path)}
	}
	return tok, nil
}

// fetch posts the client credentials grant. Kafka sends the client id and
// secret URL-encoded in a Basic Authorization header and the scope in the
// form body.
func (f *tokenFetcher) fetch(ctx context.Context) (string, time.Duration, error) {
	form := url.Values{"grant_type": {"client_credentials"}}
	if f.scope != "" {
		form.Set("scope", f.scope)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.endpoint.String(), strings.NewReader(form.Encode()))
	if err != nil {
		return "", 0, err
	}
	basic := url.QueryEscape(f.clientID) + ":" + url.QueryEscape(f.clientSecret)
	req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(basic)))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	cl := f.client
	if cl == nil {
		cl = http.DefaultClient
	}
	resp, err := cl.Do(req)
	if err != nil {
		// The URL and the transport's reason; never the request.
		var ue *url.Error
		if ok := asURLError(err, &ue); ok {
			err = ue.Err
		}
		return "", 0, fmt.Errorf("OAuth token endpoint %s: %v", f.endpoint.Redacted(), err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", 0, fmt.Errorf("OAuth token endpoint %s: %v", f.endpoint.Redacted(), err)
	}
	var doc struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int64  `json:"expires_in"`
		Error       string `json:"error"`
	}
	_ = json.Unmarshal(body, &doc)
	switch {
	case resp.StatusCode >= 400 && resp.StatusCode < 500:
		// The endpoint refused the credentials: retrying cannot help, so
		// this is reported like a broker's SASL_AUTHENTICATION_FAILED.
		reason := ""
		if doc.Error != "" && isToken(doc.Error) {
			reason = " (" + doc.Error + ")"
		}
		return "", 0, &TokenError{msg: fmt.Sprintf("the OAuth token endpoint %s refused the client credentials: HTTP %d%s",
			f.endpoint.Redacted(), resp.StatusCode, reason)}
	case resp.StatusCode != http.StatusOK:
		return "", 0, fmt.Errorf("OAuth token endpoint %s: HTTP %d", f.endpoint.Redacted(), resp.StatusCode)
	case doc.AccessToken == "":
		return "", 0, &TokenError{msg: fmt.Sprintf("the OAuth token endpoint %s answered without an access_token", f.endpoint.Redacted())}
	}
	ttl := time.Hour
	if doc.ExpiresIn > 0 {
		ttl = time.Duration(doc.ExpiresIn) * time.Second * 8 / 10
	}
	return doc.AccessToken, ttl, nil
}

func asURLError(err error, target **url.Error) bool {
	ue, ok := err.(*url.Error) //nolint:errorlint // http.Client.Do returns *url.Error unwrapped.
	if ok {
		*target = ue
	}
	return ok
}

// isToken reports whether s looks like an OAuth error code
// (invalid_client, ...), so that nothing else from the body is echoed.
func isToken(s string) bool {
	if len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_') {
			return false
		}
	}
	return true
}
