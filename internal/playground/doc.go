// Package playground is a Kafka cluster on loopback that speaks the Apache
// Kafka 4.3 and 4.4 protocol and serves an in-memory model of streams
// groups, so that `kstreams-groups playground` lets every command be tried
// without a Kafka installation and the protocol-level tests run the real
// client code against it over real TCP. The model holds KIP-1071 streams
// groups (members, assignments, topology, the KIP-1331 description and its
// status), groups of other types, topics with log offsets and records,
// committed offsets, group configs and injected faults; it answers the RPCs
// of one table (rpcs.go) as a real 4.3 or 4.4 broker does, decoding and
// encoding with franz-go's kmsg types, and closes the connection on any
// other request or frame it does not understand, never the process. The
// command loads the model from a seed (the state file of STATE.md, parsed by
// ParseState; the built-in one is seed/default.yaml); tests steer it through
// the Go API and inspect what the client sent with Requests. It imports no
// client code and writes nothing to stdout or stderr (Config.Logf, when set,
// gets its diagnostics).
package playground
