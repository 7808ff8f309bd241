package kafka

import "cmp"

// Broker identifies a broker, for example a group's coordinator.
type Broker struct {
	ID   int32
	Host string
	Port int32
}

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
