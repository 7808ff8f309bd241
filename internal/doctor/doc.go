// Package doctor is the doctor verb: for each requested streams group it
// explains why the group's topology description (KIP-1331) is not
// AVAILABLE, or why the group is unhealthy, as findings with hints. It
// reads the group (StreamsGroupDescribe), its coordinator's ApiVersions
// (StreamsGroupDescribe v1 and the topology update API, key 93) and the
// coordinator's broker config naming the description plugin
// (DescribeConfigs), and derives: an old broker, no plugin, no members,
// members on the classic protocol or on another topology epoch (a rolling
// upgrade), a plugin that fails (ERROR), and NOT_STORED with everything
// else healthy (push disabled, or not yet happened). With the groups'
// streams configs and the broker's group.streams.* bounds it also judges
// the standby coverage (none configured, not placed and why, co-located),
// the session timeout and heartbeat interval, and warm-ups a 4.4 broker
// never places (standbys.go). It never prints, never formats and never
// exits.
package doctor
