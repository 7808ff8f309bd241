// Package playground is a Kafka cluster on loopback that speaks the Apache
// Kafka 4.3 and 4.4 protocol and serves an in-memory model of streams
// groups. That is its single job. It is product code: `kstreams-groups
// playground` serves it so every command can be tried without a Kafka
// installation, and the protocol-level tests of the CLI and its packages run
// the real client code against it over real TCP.
//
// The model holds KIP-1071 streams groups (members, assignments, topology,
// the KIP-1331 topology description and its status), groups of other types,
// topics with log offsets, committed offsets, and injected error codes. It
// answers exactly the RPCs kstreams-groups sends, each registered in one
// table (rpcs.go): ApiVersions, Metadata, FindCoordinator, ListGroups,
// StreamsGroupDescribe, OffsetFetch, ListOffsets, DeleteGroups and
// DeleteTopics, the way a real 4.3 or 4.4 broker answers them. ApiVersions
// advertises the chosen profile's whole table; any other request closes the
// connection.
//
// Every node of a Cluster listens on its own port and speaks the wire
// protocol: size-prefixed frames, request header v1/v2, response header
// v0/v1. Requests are decoded and responses encoded with franz-go's kmsg
// types; frames it does not understand close the connection, never the
// process. The playground command loads the model from a seed file (the
// state file format of STATE.md, parsed by ParseState; the built-in seed is
// seed/default.yaml). Tests steer it through the Go API (groups,
// coordinator placement, injected error codes, raw response bodies) and
// inspect what the client sent with Requests.
//
// The package imports no cobra, viper or other CLI code and writes nothing to
// stdout or stderr; diagnostics go to Config.Logf when it is set.
package playground
