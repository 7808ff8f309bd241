package clientconfig

import (
	"context"
	"errors"
	"maps"
)

// SASL is the authentication of a SASL_PLAINTEXT or SASL_SSL connection,
// from sasl.mechanism and sasl.jaas.config. The credentials are unexported
// and behind a pointer, so printing a SASL value, with any verb, shows the
// mechanism only; they are read with the methods below by the client that
// authenticates.
type SASL struct {
	// Mechanism is PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 or OAUTHBEARER.
	Mechanism string

	cred *credentials
}

type credentials struct {
	user, pass string
	// delegationToken is SCRAM's tokenauth=true.
	delegationToken bool
	// token fetches OAUTHBEARER tokens.
	token *tokenFetcher
}

// String is the mechanism.
func (a *SASL) String() string { return a.Mechanism }

// UserPassword returns the username and password of PLAIN and SCRAM.
func (a *SASL) UserPassword() (user, password string) {
	if a.cred == nil {
		return "", ""
	}
	return a.cred.user, a.cred.pass
}

// DelegationToken reports whether SCRAM authenticates with a delegation
// token (the JAAS option tokenauth=true): the username is the token id and
// the password its HMAC.
func (a *SASL) DelegationToken() bool { return a.cred != nil && a.cred.delegationToken }

// errNoTokenSource is returned by Token for a mechanism other than
// OAUTHBEARER.
var errNoTokenSource = errors.New("no OAUTHBEARER token source")

// Token returns an OAUTHBEARER token: fetched with the OAuth 2 client
// credentials grant, or read from a file: URL, and reused until shortly
// before it expires. A token that retrying cannot get is a *TokenError.
// Every token returned is also redacted by Settings.Redact.
func (a *SASL) Token(ctx context.Context) (string, error) {
	if a.cred == nil || a.cred.token == nil {
		return "", errNoTokenSource
	}
	return a.cred.token.get(ctx)
}

// Extensions returns the SASL extensions of OAUTHBEARER: the JAAS options
// extension_<name>, by name.
func (a *SASL) Extensions() map[string]string {
	if a.cred == nil || a.cred.token == nil {
		return nil
	}
	return maps.Clone(a.cred.token.extensions)
}

// TokenError is an OAUTHBEARER token that cannot be had for a reason no
// retry fixes: the token endpoint refused the client credentials or
// answered without a token, or the token file cannot be read. A client
// reports it like a broker's SASL_AUTHENTICATION_FAILED. The message names
// the endpoint or the file, never a credential.
type TokenError struct {
	msg string
}

func (e *TokenError) Error() string { return e.msg }
