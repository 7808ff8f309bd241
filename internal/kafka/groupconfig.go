package kafka

import (
	"cmp"
	"strings"
)

// Group configs (KIP-848, KIP-1071): the per-group settings a Kafka 4.4
// broker keeps for a group and answers for the GROUP config resource
// (DescribeConfigs, IncrementalAlterConfigs, resource type 32). A key set
// on the group overrides the broker's group.* default named by its broker
// synonym. Under the streams protocol these decide the standbys, warm-ups,
// session and assignor of an application, whatever the application's own
// properties say (FINDINGS F185).

// ConfigSource is where a config's effective value comes from, named as
// Java's ConfigEntry.ConfigSource names it (kafka-configs.sh prints these).
type ConfigSource string

// The config sources a GROUP resource can answer with.
const (
	SourceGroup                ConfigSource = "DYNAMIC_GROUP_CONFIG"
	SourceDynamicBroker        ConfigSource = "DYNAMIC_BROKER_CONFIG"
	SourceDynamicDefaultBroker ConfigSource = "DYNAMIC_DEFAULT_BROKER_CONFIG"
	SourceStaticBroker         ConfigSource = "STATIC_BROKER_CONFIG"
	SourceDefault              ConfigSource = "DEFAULT_CONFIG"
	SourceUnknown              ConfigSource = "UNKNOWN"
)

// ConfigSynonym is one value a config could take, from the most to the
// least specific: the group's own, then the broker's (dynamic, static),
// then the built-in default.
type ConfigSynonym struct {
	Name string
	// Value is nil when the broker answers null (unset or sensitive).
	Value  *string
	Source ConfigSource
}

// GroupConfigEntry is one config of a group as DescribeConfigs answers it:
// the effective value and where it comes from.
type GroupConfigEntry struct {
	Name string
	// Value is the effective value; nil when the broker answers null.
	Value     *string
	Source    ConfigSource
	Sensitive bool
	ReadOnly  bool
	// Synonyms, most specific first, as the broker sent them (requested
	// with IncludeSynonyms).
	Synonyms []ConfigSynonym
}

// Dynamic tells whether the value is set on the group itself (what
// kafka-configs.sh --describe lists, and what outlives a DeleteGroups).
func (e GroupConfigEntry) Dynamic() bool { return e.Source == SourceGroup }

// Default is the synonym the value falls back to when the group's own
// setting is removed: the first synonym that is not the group's own.
func (e GroupConfigEntry) Default() (ConfigSynonym, bool) {
	for _, s := range e.Synonyms {
		if s.Source != SourceGroup {
			return s, true
		}
	}
	return ConfigSynonym{}, false
}

// GroupConfigs is the DescribeConfigs answer for one group.
type GroupConfigs struct {
	Group string
	// Entries are in CompareGroupConfigNames order: streams
	// keys first.
	Entries []GroupConfigEntry
	// Err is the error answered for the resource (a *Error), or the
	// request's when it got no answer.
	Err error
}

// Dynamic returns the entries set on the group itself.
func (g GroupConfigs) Dynamic() []GroupConfigEntry {
	var out []GroupConfigEntry
	for _, e := range g.Entries {
		if e.Dynamic() {
			out = append(out, e)
		}
	}
	return out
}

// Entry returns the entry named name.
func (g GroupConfigs) Entry(name string) (GroupConfigEntry, bool) {
	for _, e := range g.Entries {
		if e.Name == name {
			return e, true
		}
	}
	return GroupConfigEntry{}, false
}

// ConfigType is a config's type as Kafka's ConfigDef names it.
type ConfigType string

// The types of group configs.
const (
	TypeInt     ConfigType = "INT"
	TypeLong    ConfigType = "LONG"
	TypeBoolean ConfigType = "BOOLEAN"
	TypeString  ConfigType = "STRING"
	TypeList    ConfigType = "LIST"
)

// GroupConfigKey is one key Kafka 4.4.0's GroupConfig defines.
type GroupConfigKey struct {
	Name string
	Type ConfigType
	// Protocol is the group protocol the key applies to: "streams",
	// "consumer", "share" (the errors.deadletterqueue.* keys are share
	// groups').
	Protocol string
	// Broker is the broker config that supplies the value when the group
	// has none ("" when the key has no broker synonym).
	Broker string
	// Default is GroupConfig's own default, used when neither the group nor
	// the broker sets the key ("" for none).
	Default string
	// Internal keys (ConfigDef's internalConfig) are accepted by
	// IncrementalAlterConfigs, but a 4.4.0 broker answers them in
	// DescribeConfigs only when they are set on the group; unset, their
	// effective value (the broker's default) is not reported (FINDINGS
	// F401).
	Internal bool
	// Doc is Kafka's documentation of the key.
	Doc string
}

// The streams-protocol keys a tool most often needs.
const (
	StreamsNumStandbyReplicas    = "streams.num.standby.replicas"
	StreamsNumWarmupReplicas     = "streams.num.warmup.replicas"
	StreamsAcceptableRecoveryLag = "streams.acceptable.recovery.lag"
	StreamsTaskOffsetIntervalMs  = "streams.task.offset.interval.ms"
	StreamsAssignorName          = "streams.assignor.name"
	StreamsSessionTimeoutMs      = "streams.session.timeout.ms"
	StreamsHeartbeatIntervalMs   = "streams.heartbeat.interval.ms"
	StreamsRackAwareTags         = "streams.rack.aware.assignment.tags"
)

// GroupConfigKeys are the keys of Kafka 4.4.0's GroupConfig
// (org.apache.kafka.coordinator.group.GroupConfig, read from
// kafka-group-coordinator-4.4.0.jar's CONFIG_DEF and
// ALL_GROUP_CONFIG_SYNONYMS): the streams keys first, then the consumer,
// share and dead-letter-queue keys, each group in GroupConfig's order.
var GroupConfigKeys = []GroupConfigKey{
	{Name: StreamsSessionTimeoutMs, Type: TypeInt, Protocol: "streams", Broker: "group.streams.session.timeout.ms", Default: "45000",
		Doc: "The timeout to detect client failures when using the streams group protocol."},
	{Name: StreamsHeartbeatIntervalMs, Type: TypeInt, Protocol: "streams", Broker: "group.streams.heartbeat.interval.ms", Default: "5000",
		Doc: "The heartbeat interval given to the members."},
	{Name: StreamsNumStandbyReplicas, Type: TypeInt, Protocol: "streams", Broker: "group.streams.num.standby.replicas", Default: "0",
		Doc: "The number of standby replicas for each task."},
	{Name: "streams.initial.rebalance.delay.ms", Type: TypeInt, Protocol: "streams", Broker: "group.streams.initial.rebalance.delay.ms", Default: "3000",
		Doc: "The amount of time the group coordinator will wait for more streams clients to join a new group before performing the first rebalance. A longer delay means potentially fewer rebalances."},
	{Name: "streams.assignment.interval.ms", Type: TypeInt, Protocol: "streams", Broker: "group.streams.assignment.interval.ms", Default: "1000",
		Doc: "The interval between assignment updates for a streams group."},
	{Name: StreamsRackAwareTags, Type: TypeList, Protocol: "streams", Broker: "group.streams.rack.aware.assignment.tags", Default: "",
		Doc: "List of client tag keys used to distribute standby replicas across Kafka Streams instances. When configured, and the used broker-side assignor supports it, it will make a best-effort to distribute standby tasks over each client tag dimension."},
	{Name: "streams.assignor.offload.enable", Type: TypeBoolean, Protocol: "streams", Broker: "group.streams.assignor.offload.enable", Default: "true", Internal: true,
		Doc: "Whether to offload streams group assignment to a group coordinator background thread."},
	{Name: StreamsTaskOffsetIntervalMs, Type: TypeInt, Protocol: "streams", Broker: "group.streams.task.offset.interval.ms", Default: "60000", Internal: true,
		Doc: "The interval in which the warmup task changelog offsets on a client are updated on the broker. The offsets are sent with the next heartbeat after this time has passed."},
	{Name: StreamsNumWarmupReplicas, Type: TypeInt, Protocol: "streams", Broker: "group.streams.num.warmup.replicas", Default: "2", Internal: true,
		Doc: "The maximum number of warmup task replicas."},
	{Name: StreamsAcceptableRecoveryLag, Type: TypeLong, Protocol: "streams", Broker: "group.streams.acceptable.recovery.lag", Default: "10000", Internal: true,
		Doc: "The maximum acceptable lag (number of offsets to catch up) for a client to be considered caught-up enough to receive an active task assignment."},
	{Name: StreamsAssignorName, Type: TypeString, Protocol: "streams", Broker: "group.streams.assignors",
		Doc: "The task assignor to use for this streams group, selected by short name from the assignors registered via the broker configuration group.streams.assignors. When unset, the group defaults to the first assignor configured in the broker's group.streams.assignors setting. Changing the assignor does not trigger a rebalance for the group; the new assignor takes effect on the next rebalance."},

	{Name: "consumer.session.timeout.ms", Type: TypeInt, Protocol: "consumer", Broker: "group.consumer.session.timeout.ms", Default: "45000",
		Doc: "The timeout to detect client failures when using the consumer group protocol."},
	{Name: "consumer.heartbeat.interval.ms", Type: TypeInt, Protocol: "consumer", Broker: "group.consumer.heartbeat.interval.ms", Default: "5000",
		Doc: "The heartbeat interval given to the members of a consumer group."},
	{Name: "consumer.assignment.interval.ms", Type: TypeInt, Protocol: "consumer", Broker: "group.consumer.assignment.interval.ms", Default: "1000",
		Doc: "The interval between assignment updates for a consumer group."},
	{Name: "consumer.assignor.offload.enable", Type: TypeBoolean, Protocol: "consumer", Broker: "group.consumer.assignor.offload.enable", Default: "true", Internal: true,
		Doc: "Whether to offload consumer group assignment to a group coordinator background thread."},

	{Name: "share.session.timeout.ms", Type: TypeInt, Protocol: "share", Broker: "group.share.session.timeout.ms", Default: "45000",
		Doc: "The timeout to detect client failures when using the share group protocol."},
	{Name: "share.heartbeat.interval.ms", Type: TypeInt, Protocol: "share", Broker: "group.share.heartbeat.interval.ms", Default: "5000",
		Doc: "The heartbeat interval given to the members of a share group."},
	{Name: "share.record.lock.duration.ms", Type: TypeInt, Protocol: "share", Broker: "group.share.record.lock.duration.ms", Default: "30000",
		Doc: "The record acquisition lock duration in milliseconds for share groups."},
	{Name: "share.delivery.count.limit", Type: TypeInt, Protocol: "share", Broker: "group.share.delivery.count.limit", Default: "5",
		Doc: "The maximum number of delivery attempts for a record delivered to a share group."},
	{Name: "share.partition.max.record.locks", Type: TypeInt, Protocol: "share", Broker: "group.share.partition.max.record.locks", Default: "2000",
		Doc: "Share-group record lock limit per share-partition."},
	{Name: "share.auto.offset.reset", Type: TypeString, Protocol: "share", Default: "latest",
		Doc: "The strategy to initialize the share-partition start offset: earliest, latest or by_duration:<ISO8601 duration>."},
	{Name: "share.isolation.level", Type: TypeString, Protocol: "share", Default: "read_uncommitted",
		Doc: "Controls how to read records written transactionally: read_committed or read_uncommitted."},
	{Name: "share.renew.acknowledge.enable", Type: TypeBoolean, Protocol: "share", Default: "true",
		Doc: "Whether the renew acknowledge type is enabled for the share group."},
	{Name: "share.assignment.interval.ms", Type: TypeInt, Protocol: "share", Broker: "group.share.assignment.interval.ms", Default: "1000",
		Doc: "The interval between assignment updates for a share group."},
	{Name: "share.assignor.offload.enable", Type: TypeBoolean, Protocol: "share", Broker: "group.share.assignor.offload.enable", Default: "true", Internal: true,
		Doc: "Whether to offload share group assignment to a group coordinator background thread."},
	{Name: "errors.deadletterqueue.topic.name", Type: TypeString, Protocol: "share", Default: "",
		Doc: "The name of the topic to be used as the dead-letter queue (DLQ) topic for this share group. If blank (the default), the group does not have a DLQ topic."},
	{Name: "errors.deadletterqueue.copy.record.enable", Type: TypeBoolean, Protocol: "share", Default: "false",
		Doc: "When writing onto the dead-letter queue topic, whether to copy the original record onto the DLQ topic, or just write a record containing the context information headers."},
}

// LookupGroupConfigKey returns the key named name (exactly; Kafka's
// config names are case-sensitive).
func LookupGroupConfigKey(name string) (GroupConfigKey, bool) {
	for _, k := range GroupConfigKeys {
		if k.Name == name {
			return k, true
		}
	}
	return GroupConfigKey{}, false
}

// GroupConfigKeyFor names the group config a broker config name supplies
// the default of (group.streams.num.standby.replicas gives
// streams.num.standby.replicas), for a message that points a user who
// typed the broker's name at the group's.
func GroupConfigKeyFor(brokerName string) (GroupConfigKey, bool) {
	for _, k := range GroupConfigKeys {
		if k.Broker != "" && k.Broker == brokerName {
			return k, true
		}
	}
	return GroupConfigKey{}, false
}

// groupConfigRank orders names as GroupConfigKeys does (even ranks); an
// unknown name (a newer broker's) goes after the known keys of its
// protocol when it is a streams key, else after every known one (odd
// ranks).
func groupConfigRank(name string) int {
	streams := 0
	for i, k := range GroupConfigKeys {
		if k.Name == name {
			return 2 * i
		}
		if k.Protocol == "streams" {
			streams = i
		}
	}
	if strings.HasPrefix(name, "streams.") {
		return 2*streams + 1
	}
	return 2*len(GroupConfigKeys) + 1
}

// CompareGroupConfigNames orders config names streams keys first, in
// GroupConfigKeys' order; names it does not know (a newer broker's) come
// after the known keys (a streams one after the known streams keys), by
// name.
func CompareGroupConfigNames(a, b string) int {
	if c := cmp.Compare(groupConfigRank(a), groupConfigRank(b)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}
