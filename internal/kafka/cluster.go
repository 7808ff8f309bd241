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
