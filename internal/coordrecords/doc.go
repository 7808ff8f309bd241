// Package coordrecords is the codec of the group coordinator's streams-group
// records in __consumer_offsets (Kafka 4.4's StreamsGroup*Key/Value
// schemas of the group-coordinator module): their keys and values, decoded
// and encoded, tombstones included. A record of a type it does not know,
// or of a value version newer than it knows, is told apart by a typed
// error, never read wrongly. Standard library only: the history verb reads
// these records and the playground writes them.
package coordrecords
