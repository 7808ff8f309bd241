// Package inventory is the inventory verb: for each streams group, the
// internal topics it declares (KIP-1071: changelogs and repartition topics
// with the partition count, replication factor and configs the
// application expects) against the cluster's real topics, every difference
// a finding; the size on disk and newest record of each topic; the
// orphans, topics named as a Kafka Streams internal topic that no live
// application declares, with why each is believed orphaned; and, only
// when asked, their deletion, each re-checked just before. It reads the
// whole cluster in batched requests (ListGroups, one Metadata, one
// DescribeConfigs, DescribeLogDirs per broker, OffsetFetch per
// coordinator, ListOffsets and Fetch per leader). It never prints, never
// formats and never decides exit codes.
package inventory
