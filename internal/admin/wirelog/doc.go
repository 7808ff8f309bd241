// Package wirelog is the --debug log of kstreams-groups' Kafka client. Its
// single job is to write one line per request and response (API name,
// version, correlation id, size, broker and round trip), decoded from the
// Kafka frame headers on the wire because franz-go's hooks do not carry the
// version, plus franz-go's own log lines and each connection's TLS and
// set-up outcome. It plugs into franz-go as a dialer, a hook and a logger
// (see Opts). Bodies are never decoded, so the credentials in
// SaslAuthenticate never reach the log, and every line passes through the
// caller's redact function as a second line of defence. It writes only to
// the io.Writer it is given.
package wirelog
