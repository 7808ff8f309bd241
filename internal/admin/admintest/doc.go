// Package admintest is test support for the Kafka client: Hostile, a
// scriptable misbehaving broker that answers like a playground cluster
// until a rule makes it close the connection, lose or hold back an answer,
// or break the wire protocol (a size over the client's limit, a negative
// size, a wrong correlation id, a truncated body); Silent, a listener that
// accepts and never answers; and NeverAccepts (Linux), one whose TCP connect
// never completes. Only tests import it.
package admintest
