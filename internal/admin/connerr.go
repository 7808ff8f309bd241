package admin

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kbin"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// Connection set-up failures that no retry can fix: the broker refused the
// credentials, or TLS could not be agreed (untrusted certificate, wrong host
// name, TLS on one side only), or no bootstrap server can be reached at all
// (unreachable.go). The router stops at the first one instead of
// retrying until --timeout, and the category tells the exit code. So does a
// broker that breaks the protocol (a *kafka.ProtocolError, wire.go). A
// connection that closes before its answer came is a lost answer: retried,
// and in the end reported as unavailable.

// failure sorts the error of a request to the broker at addr ("" when
// unknown; api names the request): permanent for a set-up failure, a
// cluster none of whose bootstrap servers can be reached, or a broken
// answer, which no retry fixes; else the error to retry, with a lost
// answer named as such.
func (c *Client) failure(err error, addr, api string) (_ error, permanent bool) {
	if ce := c.connectFailure(err); ce != nil {
		return ce, true
	}
	if ue := c.reach.unreachable(err); ue != nil {
		return ue, true
	}
	var pe *kafka.ProtocolError
	if errors.As(err, &pe) {
		return pe, true
	}
	if hasText(cause(err), brokerTooOld) {
		return c.unsupportedAPI(addr, api), true
	}
	if hasText(err, kbin.ErrNotEnoughData.Error()) {
		// kmsg's decoding ran out of bytes (ErrNotEnoughData of kmsg's
		// internal kbin, which shares franz-go's kbin's text, not its
		// value): the frame was whole, the message in it was not.
		return &kafka.ProtocolError{Broker: addr, API: api, Reason: "the answer ends before its message does"}, true
	}
	var eof *kgo.ErrFirstReadEOF
	if errors.As(err, &eof) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &kafka.LostAnswerError{Broker: addr, API: api, Partial: errors.Is(err, io.ErrUnexpectedEOF)}, false
	}
	return err, false
}

// brokerTooOld is the text of franz-go's errBrokerTooOld (unexported; the
// text is matched, franz-go being pinned): it fails a request at once,
// nothing written, when the connection's ApiVersions table has no version
// of the request that the client speaks. Retrying only sends it to the
// same table until --timeout.
const brokerTooOld = "broker is too old; the broker has already indicated it will not know how to handle the request"

// hasText tells whether err, or an error it wraps, reads text: the errors
// franz-go does not export are matched by their text (franz-go is pinned).
func hasText(err error, text string) bool {
	for ; err != nil; err = errors.Unwrap(err) {
		if err.Error() == text {
			return true
		}
	}
	return false
}

// unsupportedAPI names the request the broker at addr does not offer, with
// the versions it offers when its table lists the request at all.
func (c *Client) unsupportedAPI(addr, api string) *kafka.UnsupportedAPIError {
	e := &kafka.UnsupportedAPIError{Broker: addr, API: api}
	key, ok := apiKey(api)
	if t := c.versionTable(addr); ok && t != nil {
		for _, k := range t.ApiKeys {
			if k.ApiKey == key {
				e.Offered, e.Min, e.Max = true, k.MinVersion, k.MaxVersion
			}
		}
	}
	return e
}

// apiKey is the key of the request named api (kmsg's names).
func apiKey(api string) (int16, bool) {
	for k := range int16(200) {
		if kmsg.NameForKey(k) == api && api != "" {
			return k, true
		}
	}
	return 0, false
}

// connectFailure returns err as a *kafka.ConnectError when it is a set-up failure
// that retrying cannot fix, else nil.
func (c *Client) connectFailure(err error) *kafka.ConnectError {
	if err == nil {
		return nil
	}
	var ce *kafka.ConnectError
	if errors.As(err, &ce) {
		return ce
	}
	err = cause(err)
	if errors.Is(err, kerr.IllegalSaslState) {
		// A PLAINTEXT (or SSL) listener's answer to SaslHandshake: the
		// client speaks SASL to a listener that does not (F350).
		return &kafka.ConnectError{Failure: kafka.AuthFailed, Err: brokerMessage(err),
			Hint: " (the listener does not take SASL: check security.protocol in --command-config and the listener's port)"}
	}
	if errors.Is(err, kerr.SaslAuthenticationFailed) || errors.Is(err, kerr.UnsupportedSaslMechanism) {
		return &kafka.ConnectError{Failure: kafka.AuthFailed, Err: brokerMessage(err)}
	}
	var (
		verr   *tls.CertificateVerificationError
		ua     x509.UnknownAuthorityError
		he     x509.HostnameError
		ci     x509.CertificateInvalidError
		rhe    tls.RecordHeaderError
		alert  tls.AlertError
		eof    *kgo.ErrFirstReadEOF
		netErr *net.OpError
	)
	switch {
	case errors.As(err, &verr), errors.As(err, &ua), errors.As(err, &he), errors.As(err, &ci),
		errors.As(err, &rhe), errors.As(err, &alert):
		return &kafka.ConnectError{Failure: kafka.TLSFailed, Err: err, Hint: tlsHint(err)}
	case errors.As(err, &eof) && c.answered.Load():
		// franz-go guesses at a connection's first read; but this
		// cluster already answered a request over the listener, whose
		// brokers share its security: a lost answer (failure).
		return nil
	case errors.As(err, &eof):
		// franz-go tells which side closed when: right after the dial
		// (TLS client, plaintext listener), during ApiVersions (plaintext
		// client, TLS listener) or after the first request (SASL missing).
		if strings.Contains(eof.Error(), "SASL") {
			return &kafka.ConnectError{Failure: kafka.AuthFailed, Err: eof}
		}
		return &kafka.ConnectError{Failure: kafka.TLSFailed, Err: eof, Hint: tlsHint(eof)}
	case errors.As(err, &netErr) && strings.Contains(netErr.Error(), "remote error: tls"):
		return &kafka.ConnectError{Failure: kafka.TLSFailed, Err: err, Hint: tlsHint(err)}
	case strings.Contains(err.Error(), plaintextToTLS):
		// A Java TLS listener answers a plaintext request with a TLS alert
		// record, which franz-go reads as an oversized response; the error
		// is untyped, so its text is matched (pinned franz-go version).
		return &kafka.ConnectError{Failure: kafka.TLSFailed, Err: err, Hint: tlsHint(err)}
	}
	return nil
}

// plaintextToTLS is the end of franz-go's error for a TLS alert record read
// as a response (pkg/kgo broker.go, parseReadSize).
const plaintextToTLS = "is this a plaintext connection speaking to a tls endpoint?"

// cause strips the wrappers that say nothing the category does not: the
// router's kafka.UnavailableError, kadm's per-shard errors and franz-go's "unable
// to dial: " prefix.
func cause(err error) error {
	for {
		var (
			ue *kafka.UnavailableError
			se *kadm.ShardErrors
		)
		switch {
		case errors.As(err, &ue) && ue.Err != nil:
			err = ue.Err
		case errors.As(err, &se) && len(se.Errs) > 0 && se.Errs[0].Err != nil:
			err = se.Errs[0].Err
		default:
			return unwrapDial(err)
		}
	}
}

func unwrapDial(err error) error {
	if u := errors.Unwrap(err); u != nil && strings.HasPrefix(err.Error(), "unable to dial: ") {
		return u
	}
	return err
}

// brokerMessage turns franz-go's "<NAME>: <Kafka's description>: <broker
// message>" into "<NAME>: <broker message>" when the broker sent one.
func brokerMessage(err error) error {
	var ke *kerr.Error
	if !errors.As(err, &ke) {
		return err
	}
	if msg, ok := strings.CutPrefix(err.Error(), ke.Error()+": "); ok && msg != "" {
		return &saslError{kerr: ke, msg: ke.Message + ": " + msg}
	}
	return err
}

// saslError keeps errors.Is on the Kafka error while showing the broker's
// message.
type saslError struct {
	kerr *kerr.Error
	msg  string
}

func (e *saslError) Error() string { return e.msg }
func (e *saslError) Unwrap() error { return e.kerr }

// tlsHint points at the client property to check.
func tlsHint(err error) string {
	var (
		ua  x509.UnknownAuthorityError
		he  x509.HostnameError
		eof *kgo.ErrFirstReadEOF
	)
	switch {
	case errors.As(err, &ua):
		return " (check ssl.truststore.* in --command-config)"
	case errors.As(err, &he):
		return " (check the bootstrap host name, or set ssl.endpoint.identification.algorithm= to skip host name checks)"
	case errors.As(err, &eof), strings.Contains(err.Error(), plaintextToTLS):
		return " (check security.protocol in --command-config)"
	}
	return ""
}
