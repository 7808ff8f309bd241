// Package overview is the overview verb: for each requested streams group it
// joins what kafka-streams-groups.sh shows in three views, the topology
// (--describe --topology), the task owners (--describe --members) and the
// lag (--describe --offsets), into one model per sub-topology and task:
// which member runs task S_P actively, which hold it as standby or warm-up,
// whether it is moving, and how far behind it is. It builds that Result from
// one StreamsGroupDescribe v1 per coordinator, one OffsetFetch per group and
// ListOffsets per partition leader. Every lag sum goes through AddLag: a
// committed offset past the log end counts as 0 (and is kept as Ahead), a
// sum stops at MaxInt64; a source topic that does not exist is Missing,
// not 0. It also reads the groups' streams configs (DescribeConfigs of the
// GROUP resources, standby.go) and computes each stateful task's standby
// coverage and, from the members' reported task offsets, each copy's
// changelog lag (restore.go). It never prints, never formats and never
// decides exit codes.
package overview
