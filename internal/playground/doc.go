// Package playground is a Kafka-protocol test broker on loopback. Its single
// job is to answer the handful of RPCs kstreams-groups sends (ApiVersions,
// Metadata, FindCoordinator, ListGroups, DeleteGroups, OffsetFetch, ListOffsets
// and the KIP-1071/KIP-1331 StreamsGroupDescribe) the way an Apache Kafka 4.3 or
// 4.4 cluster does, from
// an in-memory model of streams groups, so CLI tests and the playground
// command can run the real client code over real TCP without a Kafka
// installation.
//
// Every node of a Cluster listens on its own port and speaks the wire
// protocol: size-prefixed frames, request header v1/v2, response header
// v0/v1. Requests are decoded and responses encoded with franz-go's kmsg
// types; frames the fake does not understand close the connection, never
// the process. Tests steer the cluster through its Go API (groups,
// coordinator placement, injected error codes, raw response bodies) and
// inspect what the client sent with Requests. The playground loads the same
// model from a YAML state file (see STATE.md and ParseState).
//
// The package imports no cobra, viper or other CLI code and writes nothing to
// stdout or stderr; diagnostics go to Config.Logf when it is set.
package playground
