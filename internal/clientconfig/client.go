package clientconfig

import (
	"io"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kstreams-groups/kstreams-groups/internal/admin/wirelog"
)

// dialTimeout bounds one TCP dial plus TLS handshake when the debug log
// dials; admin.New sets the same for franz-go's own dialer.
const dialTimeout = 5 * time.Second

// ClientOpts returns the franz-go options for s: TLS, SASL and
// request.timeout.ms. With debug set, every request and response is logged
// there (see internal/admin/wirelog). client.id is in ClientID for the caller.
func (s *Settings) ClientOpts(debug io.Writer) []kgo.Opt {
	var opts []kgo.Opt
	if s.RequestTimeout > 0 {
		// franz-go deadlines a request without a timeout field of its own
		// (every request this CLI sends) at exactly this overhead, which is
		// what Kafka's request.timeout.ms means.
		opts = append(opts, kgo.RequestTimeoutOverhead(s.RequestTimeout))
	}
	if s.mechanism != nil {
		opts = append(opts, kgo.SASL(s.mechanism))
	}
	switch {
	case debug != nil:
		opts = append(opts, wirelog.Opts(wirelog.Config{W: debug, Redact: s.Redact, TLS: s.TLS, DialTimeout: dialTimeout})...)
	case s.TLS != nil:
		opts = append(opts, kgo.DialTLSConfig(s.TLS))
	}
	return opts
}
