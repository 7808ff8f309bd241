// Package deleteoffsets is the --delete-offsets verb of
// kafka-streams-groups.sh (and `kstreams-groups delete-offsets`): its single
// job is to delete one streams group's committed offsets for its input
// topics (--all-input-topics) or the topics and partitions named
// (--input-topic), with OffsetDelete to the group's coordinator, as Apache
// Kafka 4.4's tool does. Options.Validate holds the Java tool's checks and
// messages; Run returns a Result with one row per partition.
package deleteoffsets
