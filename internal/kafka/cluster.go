package kafka

import (
	"cmp"
	"net"
	"strconv"
)

// Broker identifies a broker, for example a group's coordinator.
type Broker struct {
	ID   int32
	Host string
	Port int32
}

// Addr is the broker's host:port, as a client dials it.
func (b Broker) Addr() string { return net.JoinHostPort(b.Host, strconv.Itoa(int(b.Port))) }

// TopicPartition names one partition.
type TopicPartition struct {
	Topic     string
	Partition int32
}

// CompareTopicPartitions orders by topic, then partition number.
func CompareTopicPartitions(a, b TopicPartition) int {
	if c := cmp.Compare(a.Topic, b.Topic); c != 0 {
		return c
	}
	return cmp.Compare(a.Partition, b.Partition)
}

// APIVersion is one request a broker speaks, from its ApiVersions answer.
type APIVersion struct {
	Key      int16
	Name     string
	Min, Max int16
}

// BrokerAPIs is the ApiVersions answer of one broker.
type BrokerAPIs struct {
	Broker Broker
	// APIs are sorted by key.
	APIs []APIVersion
}

// Max is the highest version of key the broker speaks; ok is false when it
// does not speak key at all.
func (b *BrokerAPIs) Max(key int16) (max int16, ok bool) {
	for _, a := range b.APIs {
		if a.Key == key {
			return a.Max, true
		}
	}
	return 0, false
}

// BrokerConfig is one config of a broker, from DescribeConfigs.
type BrokerConfig struct {
	Name string
	// Value is nil when the config is unset (or sensitive).
	Value *string
	// Source is where the value comes from, in Kafka's words
	// (STATIC_BROKER_CONFIG, DEFAULT_CONFIG, DYNAMIC_BROKER_CONFIG, ...).
	Source    string
	Sensitive bool
}
