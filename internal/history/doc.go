// Package history is the history verb: a streams group's rebalances read
// back from the group coordinator's own records in __consumer_offsets
// (the partition Kafka computes for the group id), oldest first. Each new
// group epoch is one entry with its causes (members joined, removed,
// rejoined or changed, the topology, the topics' partitions, the
// assignment configs), what the target assignment moved, and how long the
// members took to reach it. The log is compacted: the history is complete
// from the first record after the last hole in its offsets, and nothing
// before it is made up. It reads one partition with one Fetch at a time,
// within a byte budget, keeping nothing of the other groups' records; it
// never joins a group and never commits. It never prints and never exits.
package history
