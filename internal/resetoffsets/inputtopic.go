package resetoffsets

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// InputTopic is one --input-topic value: a topic and the partitions given
// with it (topic:0,1,2), nil for every partition of the topic.
type InputTopic struct {
	Topic      string
	Partitions []int32
}

// ParseInputTopics parses --input-topic values as kafka-streams-groups.sh
// does (GroupOffsetsResetter.parseTopicsWithPartitions): a value holding a
// colon must be exactly "topic:partitions", the partitions a comma list of
// integers (Java's String.split rules: trailing empty parts vanish, nothing
// is trimmed). The errors are the Java tool's messages, byte for byte.
// Values naming the same topic are kept apart; Partitions merges them.
func ParseInputTopics(values []string) ([]InputTopic, error) {
	var out []InputTopic
	for _, v := range values {
		if !strings.Contains(v, ":") {
			out = append(out, InputTopic{Topic: v})
			continue
		}
		parts := javaSplit(v, ":")
		if len(parts) != 2 {
			return nil, fmt.Errorf("Invalid topic arg '%s', expected topic name and partitions", v)
		}
		it := InputTopic{Topic: parts[0], Partitions: []int32{}}
		for _, p := range javaSplit(parts[1], ",") {
			n, err := strconv.ParseInt(p, 10, 32)
			if err != nil {
				return nil, fmt.Errorf("Invalid partition '%s' specified in topic arg '%s''", p, v)
			}
			it.Partitions = append(it.Partitions, int32(n))
		}
		out = append(out, it)
	}
	return out, nil
}

// javaSplit is Java's String.split with a literal separator: trailing empty
// strings are removed (so "t:" splits into just "t").
func javaSplit(s, sep string) []string {
	parts := strings.Split(s, sep)
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// BareTopics lists the topics given without partitions, each once, in
// order: their partitions come from the cluster.
func BareTopics(topics []InputTopic) []string {
	var names []string
	for _, t := range topics {
		if t.Partitions == nil {
			names = append(names, t.Topic)
		}
	}
	return dedupe(names)
}

// Topics lists every topic named, each once, in order.
func Topics(topics []InputTopic) []string {
	names := make([]string, 0, len(topics))
	for _, t := range topics {
		names = append(names, t.Topic)
	}
	return dedupe(names)
}

// Partitions returns the partitions of topics, sorted and each once (a
// repeated partition is merged, where the Java tool fails with "Duplicate
// key"); all gives the partition numbers of the topics named bare.
func Partitions(topics []InputTopic, all map[string][]int32) []kafka.TopicPartition {
	var out []kafka.TopicPartition
	for _, t := range topics {
		ps := t.Partitions
		if ps == nil {
			ps = all[t.Topic]
		}
		for _, p := range ps {
			out = append(out, kafka.TopicPartition{Topic: t.Topic, Partition: p})
		}
	}
	slices.SortFunc(out, kafka.CompareTopicPartitions)
	return slices.Compact(out)
}

// SourcePartitions is --all-input-topics: the committed partitions of the
// topics the group's subtopologies read as source topics (repartition
// topics are left out, as in kafka-streams-groups.sh), sorted. A partition
// that was never committed is not part of it.
func SourcePartitions(subs []kafka.Subtopology, committed []kafka.TopicPartition) []kafka.TopicPartition {
	var sources []string
	for _, s := range subs {
		sources = append(sources, s.SourceTopics...)
	}
	var out []kafka.TopicPartition
	for _, tp := range committed {
		if slices.Contains(sources, tp.Topic) {
			out = append(out, tp)
		}
	}
	slices.SortFunc(out, kafka.CompareTopicPartitions)
	return slices.Compact(out)
}
