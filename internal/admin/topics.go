package admin

import (
	"context"
	"fmt"
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// TopicInfo is one topic as Metadata describes it.
type TopicInfo struct {
	Topic string
	// Partitions are sorted by number.
	Partitions []PartitionInfo
	// Err is the topic's error, e.g. UNKNOWN_TOPIC_OR_PARTITION.
	Err error
}

// PartitionInfo is one partition and its leader (-1: none).
type PartitionInfo struct {
	Partition int32
	Leader    int32
}

// DescribeTopics lists the partitions and leaders of topics with one
// Metadata request (v13, topic names), in the order asked, each topic
// once; the error is for a request that got no answer, sorted like every
// request's (Client.failure): a broken answer or a set-up failure as
// such, anything else as the cluster being unavailable.
func (c *Client) DescribeTopics(ctx context.Context, topics []string) ([]TopicInfo, error) {
	names := dedup(topics)
	if len(names) == 0 {
		return nil, nil
	}
	shard := c.cl.RequestSharded(ctx, metadataRequest(names))[0] // one broker answers Metadata
	if shard.Err != nil {
		fe, permanent := c.failure(shard.Err, brokerAddr(shard.Meta), "Metadata")
		if permanent {
			return nil, fe
		}
		return nil, c.unavailable("Metadata", fe, nil)
	}
	resp, ok := shard.Resp.(*kmsg.MetadataResponse)
	if !ok {
		return nil, &kafka.MalformedError{Reason: fmt.Sprintf("Metadata answered with %T", shard.Resp)}
	}
	got := map[string]TopicInfo{}
	for _, t := range resp.Topics {
		if t.Topic == nil {
			continue
		}
		ti := TopicInfo{Topic: *t.Topic}
		if t.ErrorCode != 0 {
			ti.Err = NewKafkaError(t.ErrorCode, nil)
		}
		for _, p := range t.Partitions {
			ti.Partitions = append(ti.Partitions, PartitionInfo{Partition: p.Partition, Leader: p.Leader})
		}
		slices.SortFunc(ti.Partitions, func(a, b PartitionInfo) int { return int(a.Partition) - int(b.Partition) })
		got[ti.Topic] = ti
	}
	return inOrder(names, got, func(n string) TopicInfo {
		return TopicInfo{Topic: n, Err: &kafka.MalformedError{Reason: "Metadata has no answer for topic '" + n + "'"}}
	}), nil
}

// inOrder is got's entry for each of names, in order; missing makes the
// entry of a name the answer left out.
func inOrder[T any](names []string, got map[string]T, missing func(name string) T) []T {
	out := make([]T, len(names))
	for i, n := range names {
		v, ok := got[n]
		if !ok {
			v = missing(n)
		}
		out[i] = v
	}
	return out
}

// metadataRequest is a Metadata request for topics.
func metadataRequest(topics []string) *kmsg.MetadataRequest {
	req := kmsg.NewPtrMetadataRequest()
	for _, t := range topics {
		rt := kmsg.NewMetadataRequestTopic()
		rt.Topic = kmsg.StringPtr(t)
		req.Topics = append(req.Topics, rt)
	}
	return req
}
