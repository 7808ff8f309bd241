package admin

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/oauth"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"github.com/kstreams-groups/kstreams-groups/internal/admin/wirelog"
	"github.com/kstreams-groups/kstreams-groups/internal/clientconfig"
)

// securityOpts maps the validated client settings onto franz-go: TLS,
// SASL and request.timeout.ms, with every connection under the client's
// guard (wire.go). With debug set, every request and response is logged
// there (see wirelog). client.id is Config.ClientID.
func (c *Client) securityOpts(s *clientconfig.Settings, debug io.Writer) []kgo.Opt {
	if s == nil {
		s = &clientconfig.Settings{Protocol: clientconfig.Plaintext}
	}
	var opts []kgo.Opt
	if s.RequestTimeout > 0 {
		// franz-go deadlines a request without a timeout field of its own
		// (every request this CLI sends) at exactly this overhead, which is
		// what Kafka's request.timeout.ms means.
		opts = append(opts, kgo.RequestTimeoutOverhead(s.RequestTimeout))
	}
	if m := saslMechanism(s.SASL); m != nil {
		opts = append(opts, kgo.SASL(m))
	}
	if debug != nil {
		return append(opts, wirelog.Opts(wirelog.Config{W: debug, Redact: s.Redact, Dial: c.dial(s.TLS), Wrap: c.guard})...)
	}
	return append(opts, kgo.Dialer(c.dialer(s.TLS)))
}

// saslMechanism is franz-go's mechanism for a, or nil without SASL.
func saslMechanism(a *clientconfig.SASL) sasl.Mechanism {
	if a == nil {
		return nil
	}
	switch a.Mechanism {
	case clientconfig.MechPlain:
		user, pass := a.UserPassword()
		return plain.Auth{User: user, Pass: pass}.AsMechanism()
	case clientconfig.MechScramSHA256, clientconfig.MechScramSHA512:
		user, pass := a.UserPassword()
		auth := scram.Auth{User: user, Pass: pass, IsToken: a.DelegationToken()}
		if a.Mechanism == clientconfig.MechScramSHA256 {
			return auth.AsSha256Mechanism()
		}
		return auth.AsSha512Mechanism()
	case clientconfig.MechOAuthBearer:
		return oauth.Oauth(func(ctx context.Context) (oauth.Auth, error) {
			tok, err := a.Token(ctx)
			if err != nil {
				return oauth.Auth{}, tokenError(err)
			}
			return oauth.Auth{Token: tok, Extensions: a.Extensions()}, nil
		})
	}
	return nil
}

// tokenError makes a token that retrying cannot get fail like a broker's
// SASL_AUTHENTICATION_FAILED, so that connectFailure stops at it (AuthFailed,
// ErrNotAuthorized) instead of retrying until the deadline.
func tokenError(err error) error {
	var te *clientconfig.TokenError
	if errors.As(err, &te) {
		return fmt.Errorf("%w: %s", kerr.SaslAuthenticationFailed, err.Error())
	}
	return err
}
