// Package coordrecords is the codec of the group coordinator's streams-group
// records in __consumer_offsets (Kafka 4.4's StreamsGroup*Key/Value
// schemas of the group-coordinator module): their keys and values, decoded
// and encoded, tombstones included. A record of a type it does not know,
// or of a value version newer than it knows, is told apart by a typed
// error, never read wrongly. Standard library only: the history verb reads
// these records and the playground writes them.
//
// How a 4.4.0 coordinator writes them (testdata/history/real-4.4.0,
// e2e/FINDINGS.md F700-F708), which a writer must copy for history to read
// its log as it reads Kafka's: the records of one operation are one record
// batch, one timestamp; a new epoch's batch holds the member records that
// caused it (metadata, or for a removal the tombstones of its current
// assignment, target assignment and metadata), the topology, then the
// group metadata with the new epoch, then (when computed in the same
// heartbeat) the target assignment members and its metadata, then the
// member's current assignment. A group's first epoch is 2. A static
// member's rejoin is one batch: the old member id's tombstones, the new
// id's metadata copied from the old, its target and current assignment,
// its own metadata, then the new epoch when it changed.
package coordrecords
