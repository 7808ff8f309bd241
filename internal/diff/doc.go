// Package diff is the diff verb: the upgrade-safety check between a running
// Kafka Streams topology and the one about to be deployed. Given two sides
// (the stored KIP-1331 description of a streams group, or a description read
// from a file) it normalises both (internal topics without the
// application.id prefix, nodes by name, global stores by source topic and
// store), matches sub-topologies by content rather than by number, matches
// nodes by name and then by their place in the graph, and lists what changed
// and what that does to a running application's state: findings with a
// severity (breaking, warning, info). When OLD is a group it also says
// whether the group's broker accepts NEW's topology at all (broker.go: a
// Kafka 4.4 coordinator refuses any change to the topics it keeps). It never prints, never formats, never
// reads files itself (the command hands it a reader) and never decides exit
// codes.
package diff
