// Package admin is the Kafka wire client of kstreams-groups. Its single job is
// to send the requests the CLI needs (one per API key of pinned, client.go)
// over franz-go at pinned protocol versions, route group requests to each
// group's coordinator with per-group retries, and return the answers as
// model values (streams.go) and typed errors. Every connection
// runs under a guard (wire.go) that keeps the ApiVersions table of its
// handshake and fails a response that breaks the framing. The connection's
// security comes from clientconfig's validated settings, which security.go
// maps onto franz-go (TLS, SASL, request timeout; the --debug log is
// subpackage wirelog). It never prints, never formats and never decides exit
// codes; franz-go is imported here, in admin's subpackages and in the
// playground broker, and in no other production package.
package admin
