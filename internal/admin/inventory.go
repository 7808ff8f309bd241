package admin

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// What inventory reads of a whole cluster, each in as few requests as the
// protocol allows: every group of every type (one ListGroups per broker),
// every topic with its partitions and replicas (one Metadata), the configs
// of many topics (one DescribeConfigs: any broker answers for topics), and
// the size of every replica (one DescribeLogDirs per broker, all topics).

// AnyGroup is one group of any type from ListGroups.
type AnyGroup struct {
	Group string
	// Type is the broker's group type: classic, consumer, share or
	// streams ("" from a broker too old to say).
	Type         string
	ProtocolType string
	State        string
}

// ListAllGroups lists the groups of every type on every broker, sorted by
// id, retrying connection errors until ctx ends.
func (c *Client) ListAllGroups(ctx context.Context) ([]AnyGroup, error) {
	listed, err := c.listGroups(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]AnyGroup, 0, len(listed))
	for _, g := range listed {
		out = append(out, AnyGroup{Group: g.Group, Type: strings.ToLower(g.GroupType), ProtocolType: g.ProtocolType, State: g.State})
	}
	return out, nil
}

// ClusterTopic is one topic of the cluster as Metadata describes it.
type ClusterTopic struct {
	Topic string
	// Partitions is the partition count; ReplicationFactor the most
	// replicas any partition has.
	Partitions        int32
	ReplicationFactor int16
	Internal          bool
}

// ClusterTopics is what one Metadata request for every topic answers.
type ClusterTopics struct {
	Brokers []kafka.Broker
	// Topics are sorted by name.
	Topics []ClusterTopic
}

// ListAllTopics describes every topic of the cluster with one Metadata
// request (null topics: all of them).
func (c *Client) ListAllTopics(ctx context.Context) (*ClusterTopics, error) {
	var resp *kmsg.MetadataResponse
	err := c.retry(ctx, "Metadata", func() (string, error) {
		req := kmsg.NewPtrMetadataRequest()
		req.Topics = nil
		return requestShards(ctx, c, req, "Metadata", func(_ kgo.BrokerMetadata, r *kmsg.MetadataResponse) { resp = r })
	})
	if err != nil {
		return nil, err
	}
	out := &ClusterTopics{}
	for _, b := range resp.Brokers {
		out.Brokers = append(out.Brokers, kafka.Broker{ID: b.NodeID, Host: b.Host, Port: b.Port})
	}
	slices.SortFunc(out.Brokers, func(a, b kafka.Broker) int { return int(a.ID) - int(b.ID) })
	for _, t := range resp.Topics {
		if t.Topic == nil || t.ErrorCode != 0 {
			continue
		}
		ct := ClusterTopic{Topic: *t.Topic, Partitions: int32(len(t.Partitions)), Internal: t.IsInternal}
		for _, p := range t.Partitions {
			ct.ReplicationFactor = max(ct.ReplicationFactor, int16(len(p.Replicas)))
		}
		out.Topics = append(out.Topics, ct)
	}
	slices.SortFunc(out.Topics, func(a, b ClusterTopic) int { return strings.Compare(a.Topic, b.Topic) })
	return out, nil
}

// TopicConfig is one config of a topic as DescribeConfigs reports it.
type TopicConfig struct {
	Name  string
	Value *string
	// Source is the broker's source name: DYNAMIC_TOPIC_CONFIG,
	// DEFAULT_CONFIG, STATIC_BROKER_CONFIG, …
	Source string
}

// TopicConfigs is one topic's DescribeConfigs answer.
type TopicConfigs struct {
	Topic   string
	Configs []TopicConfig
	Err     error
}

// DescribeTopicConfigs reads the configs names (all when nil) of topics
// with one DescribeConfigs request of TOPIC resources (any broker answers
// for topics), in the order asked.
func (c *Client) DescribeTopicConfigs(ctx context.Context, topics []string, names []string) ([]TopicConfigs, error) {
	if len(topics) == 0 {
		return nil, nil
	}
	var resources []kmsg.DescribeConfigsResponseResource
	err := c.retry(ctx, describeConfigsAPI, func() (string, error) {
		req := kmsg.NewPtrDescribeConfigsRequest()
		for _, t := range topics {
			res := kmsg.NewDescribeConfigsRequestResource()
			res.ResourceType, res.ResourceName, res.ConfigNames = kmsg.ConfigResourceTypeTopic, t, names
			req.Resources = append(req.Resources, res)
		}
		resources = nil
		return requestShards(ctx, c, req, describeConfigsAPI, func(_ kgo.BrokerMetadata, r *kmsg.DescribeConfigsResponse) {
			resources = append(resources, r.Resources...)
		})
	})
	if err != nil {
		return nil, err
	}
	got := map[string]TopicConfigs{}
	for _, r := range resources {
		tc := TopicConfigs{Topic: r.ResourceName}
		if r.ErrorCode != 0 {
			tc.Err = NewKafkaError(r.ErrorCode, r.ErrorMessage)
		}
		for _, e := range r.Configs {
			tc.Configs = append(tc.Configs, TopicConfig{Name: e.Name, Value: clonePtr(e.Value), Source: e.Source.String()})
		}
		got[tc.Topic] = tc
	}
	return inOrder(topics, got, func(t string) TopicConfigs {
		return TopicConfigs{Topic: t, Err: &kafka.MalformedError{Reason: "DescribeConfigs has no answer for topic '" + t + "'"}}
	}), nil
}

// ReplicaSize is the size of one replica of a partition on one broker.
type ReplicaSize struct {
	kafka.TopicPartition
	Broker int32
	Bytes  int64
}

// LogDirSizes is what DescribeLogDirs answered: the size of every replica
// (future replicas, the target of a move between directories, left out)
// and the brokers that could not answer.
type LogDirSizes struct {
	Replicas []ReplicaSize
	// Failed are the brokers (or directories) that answered with an
	// error, so sizes are missing for their replicas.
	Failed []error
}

// DescribeLogDirs asks every broker (one request each, null topics: all)
// for the size of its replicas.
func (c *Client) DescribeLogDirs(ctx context.Context) (*LogDirSizes, error) {
	var out *LogDirSizes
	err := c.retry(ctx, "DescribeLogDirs", func() (string, error) {
		out = &LogDirSizes{}
		req := kmsg.NewPtrDescribeLogDirsRequest()
		req.Topics = nil
		return requestShards(ctx, c, req, "DescribeLogDirs", func(m kgo.BrokerMetadata, r *kmsg.DescribeLogDirsResponse) { out.add(m.NodeID, r) })
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// add takes one broker's answer: its replicas' sizes, or its failures.
func (out *LogDirSizes) add(broker int32, r *kmsg.DescribeLogDirsResponse) {
	if r.ErrorCode != 0 {
		out.Failed = append(out.Failed, fmt.Errorf("broker %d: %w", broker, NewKafkaError(r.ErrorCode, nil)))
		return
	}
	for _, d := range r.Dirs {
		if d.ErrorCode != 0 {
			out.Failed = append(out.Failed, fmt.Errorf("broker %d, directory %s: %w", broker, d.Dir, NewKafkaError(d.ErrorCode, nil)))
			continue
		}
		for _, t := range d.Topics {
			for _, p := range t.Partitions {
				if !p.IsFuture {
					out.Replicas = append(out.Replicas, ReplicaSize{TopicPartition: kafka.TopicPartition{Topic: t.Topic, Partition: p.Partition}, Broker: broker, Bytes: p.Size})
				}
			}
		}
	}
}

// ListGroupConfigResources lists the groups that have dynamic configs
// (ListConfigResources v1, KIP-1142, of GROUP resources: Apache Kafka 4.1
// and newer), whether or not the groups exist: a deleted group's configs
// stay (FINDINGS F402). One request to any broker.
func (c *Client) ListGroupConfigResources(ctx context.Context) ([]string, error) {
	var resp *kmsg.ListConfigResourcesResponse
	err := c.retry(ctx, "ListConfigResources", func() (string, error) {
		req := kmsg.NewPtrListConfigResourcesRequest()
		req.ResourceTypes = []int8{int8(kmsg.ConfigResourceTypeGroupConfig)}
		return requestShards(ctx, c, req, "ListConfigResources", func(_ kgo.BrokerMetadata, r *kmsg.ListConfigResourcesResponse) { resp = r })
	})
	if err != nil {
		return nil, err
	}
	if resp.ErrorCode != 0 {
		return nil, NewKafkaError(resp.ErrorCode, nil)
	}
	var out []string
	for _, r := range resp.ConfigResources {
		if r.Type == int8(kmsg.ConfigResourceTypeGroupConfig) {
			out = append(out, r.Name)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// describeShareOffsetsAPI names DescribeShareGroupOffsets in messages.
const describeShareOffsetsAPI = "DescribeShareGroupOffsets"

// FetchShareGroupOffsets reads the start offsets of share groups (KIP-932:
// DescribeShareGroupOffsets, key 90, null topics: every topic), routed to
// their coordinators as OffsetFetch is. A partition with a start offset
// (not -1) counts as committed. One entry per requested group, in order.
func (c *Client) FetchShareGroupOffsets(ctx context.Context, groups []string) []GroupOffsets {
	call := groupCall[[]CommittedOffset]{
		api:  describeShareOffsetsAPI,
		gate: c.versionGate(90, 0, describeShareOffsetsAPI, "share group offsets"),
		send: func(ctx context.Context, b *kgo.Broker, gs []string) (answers[[]CommittedOffset], error) {
			req := kmsg.NewPtrDescribeShareGroupOffsetsRequest()
			for _, g := range gs {
				rg := kmsg.NewDescribeShareGroupOffsetsRequestGroup()
				rg.GroupID, rg.Topics = g, nil
				req.Groups = append(req.Groups, rg)
			}
			resp, err := request[*kmsg.DescribeShareGroupOffsetsResponse](ctx, b, req, describeShareOffsetsAPI)
			if err != nil {
				return nil, err
			}
			got := answers[[]CommittedOffset]{}
			for _, g := range resp.Groups {
				var offs []CommittedOffset
				for _, t := range g.Topics {
					for _, p := range t.Partitions {
						co := CommittedOffset{TopicPartition: kafka.TopicPartition{Topic: t.Topic, Partition: p.Partition}, Offset: p.StartOffset, LeaderEpoch: p.LeaderEpoch}
						if p.ErrorCode != 0 {
							co.Err = NewKafkaError(p.ErrorCode, p.ErrorMessage)
						}
						offs = append(offs, co)
					}
				}
				got.add(g.GroupID, offs, g.ErrorCode, g.ErrorMessage)
			}
			return got, nil
		},
	}
	return groupOffsets(groups, route(ctx, c, groups, call))
}
