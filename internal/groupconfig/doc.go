// Package groupconfig is the config verb: the group configs a Kafka 4.4
// broker keeps for a streams group (streams.num.standby.replicas, the
// session timeout, the assignor, ...), each with its effective value and
// where it comes from, and their change with IncrementalAlterConfigs:
// validated by the broker only (--dry-run) or applied and read back
// (--execute). A key that is not a group config is refused before
// anything is sent. It never prints, never formats and never decides exit
// codes; it imports admin and the models only.
package groupconfig
