package admin

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// The offsets view of --describe needs two more requests: OffsetFetch for a
// group's committed offsets (routed to the coordinator like
// StreamsGroupDescribe, many groups per request) and ListOffsets for the
// earliest and latest offsets of partitions (sharded by kgo to the
// partition leaders).

// CommittedOffset is one offset a group committed.
type CommittedOffset struct {
	kafka.TopicPartition
	Offset int64
	// LeaderEpoch is the leader epoch the offset was committed with, or -1
	// when the committer did not know it.
	LeaderEpoch int32
	// Err is a partition-level error code of the answer, if any.
	Err error
}

// Committed tells whether the partition has a committed offset: answered
// without an error (the Java admin client skips the partitions that are)
// and not -1, Kafka's "no offset".
func (o CommittedOffset) Committed() bool { return o.Err == nil && o.Offset >= 0 }

// GroupOffsets is one group's OffsetFetch answer.
type GroupOffsets struct {
	Group       string
	Coordinator kafka.Broker
	// Offsets are sorted by topic and partition.
	Offsets []CommittedOffset
	Err     error
}

// Committed indexes the offsets the group committed by partition, leaving
// out, as the Java admin client does, a partition answered with an error
// or without an offset (-1).
func (g GroupOffsets) Committed() map[kafka.TopicPartition]CommittedOffset {
	out := make(map[kafka.TopicPartition]CommittedOffset, len(g.Offsets))
	for _, o := range g.Offsets {
		if o.Committed() {
			out[o.TopicPartition] = o
		}
	}
	return out
}

// offsetFetchAPI is the request name used in messages.
const offsetFetchAPI = "OffsetFetch"

// offsetFetchVersion is the OffsetFetch version sent: v8 batches groups, v9
// adds the member id and epoch that streams groups check (null and -1 mean
// an admin fetch, StreamsGroup.validateOffsetFetch), and v10 would answer
// topic ids instead of names, which would cost a Metadata round trip.
const offsetFetchVersion = 9

// offsetFetchV9 caps OffsetFetch at v9 for this request only: kgo picks
// min(request max, broker max, client max), and the client's table keeps
// v10 for other uses.
type offsetFetchV9 struct{ *kmsg.OffsetFetchRequest }

func (offsetFetchV9) MaxVersion() int16 { return offsetFetchVersion }

// FetchCommittedOffsets fetches every committed offset of groups at their
// coordinators: one OffsetFetch per coordinator node for all its groups,
// with the routing and retries of StreamsGroupDescribe. The result has one
// entry per requested group, in request order.
func (c *Client) FetchCommittedOffsets(ctx context.Context, groups []string) []GroupOffsets {
	call := groupCall[[]CommittedOffset]{
		api:  offsetFetchAPI,
		gate: c.versionGate(9, 8, offsetFetchAPI, "committed offsets of several groups"),
		send: func(ctx context.Context, b *kgo.Broker, gs []string) (answers[[]CommittedOffset], error) {
			req := kmsg.NewPtrOffsetFetchRequest()
			for _, g := range gs {
				rg := kmsg.NewOffsetFetchRequestGroup()
				rg.Group = g
				rg.MemberID = nil   // an admin fetch: no member id ...
				rg.MemberEpoch = -1 // ... and no epoch
				rg.Topics = nil     // null: every committed partition
				req.Groups = append(req.Groups, rg)
			}
			resp, err := request[*kmsg.OffsetFetchResponse](ctx, b, offsetFetchV9{req}, offsetFetchAPI)
			if err != nil {
				return nil, err
			}
			return offsetFetchRows(resp), nil
		},
	}
	return groupOffsets(groups, route(ctx, c, groups, call))
}

// groupOffsets are the routed offsets of groups, in request order.
func groupOffsets(groups []string, res map[string]*routed[[]CommittedOffset]) []GroupOffsets {
	out := make([]GroupOffsets, len(groups))
	for i, g := range groups {
		r := res[g]
		out[i] = GroupOffsets{Group: g, Coordinator: r.coordinator, Offsets: r.row, Err: r.err}
	}
	return out
}

// offsetFetchRows splits an OffsetFetch v8+ answer per group. A top-level
// error code (which v8+ brokers leave at 0) applies to every group.
func offsetFetchRows(resp *kmsg.OffsetFetchResponse) answers[[]CommittedOffset] {
	got := make(answers[[]CommittedOffset], len(resp.Groups))
	for _, g := range resp.Groups {
		code := g.ErrorCode
		if code == 0 {
			code = resp.ErrorCode
		}
		var offs []CommittedOffset
		for _, t := range g.Topics {
			for _, p := range t.Partitions {
				co := CommittedOffset{TopicPartition: kafka.TopicPartition{Topic: t.Topic, Partition: p.Partition}, Offset: p.Offset, LeaderEpoch: p.LeaderEpoch}
				if p.ErrorCode != 0 {
					co.Err = NewKafkaError(p.ErrorCode, nil)
				}
				offs = append(offs, co)
			}
		}
		slices.SortFunc(offs, func(a, b CommittedOffset) int {
			return kafka.CompareTopicPartitions(a.TopicPartition, b.TopicPartition)
		})
		got.add(g.Group, offs, code, nil)
	}
	return got
}

// ListOffsets timestamps (KIP-79): the log start and the log end.
const (
	// EarliestTimestamp asks for the log start offset.
	EarliestTimestamp int64 = -2
	// LatestTimestamp asks for the log end offset (high watermark with
	// READ_UNCOMMITTED).
	LatestTimestamp int64 = -1
)

// ListedOffset is one partition's ListOffsets answer.
type ListedOffset struct {
	kafka.TopicPartition
	Offset      int64
	LeaderEpoch int32
	// Leader is the node that answered (the partition's leader, which a
	// Fetch of it goes to); -1 when none did.
	Leader int32
	Err    error
}

// ListOffsets asks the partition leaders for the offset at timestamp
// (EarliestTimestamp or LatestTimestamp) of each partition, one request per
// leader (kgo shards ListOffsets by leader and retries leadership changes).
// It uses READ_UNCOMMITTED, as kafka-streams-groups.sh's admin client does,
// so the log end offset is the high watermark. The result is sorted and has
// one entry per distinct partition; a partition that failed carries its
// error. The error is for failures of the whole request.
func (c *Client) ListOffsets(ctx context.Context, tps []kafka.TopicPartition, timestamp int64) ([]ListedOffset, error) {
	want := slices.Clone(tps)
	slices.SortFunc(want, kafka.CompareTopicPartitions)
	want = slices.Compact(want)
	if len(want) == 0 {
		return nil, nil
	}
	req := c.listOffsetsRequest(want, timestamp)

	// Each answer goes straight to its place in want's order (serve asks
	// for 50,000 partitions a cycle: no index of them is built); a
	// partition answered twice keeps the last answer, one not asked for
	// is ignored.
	out := make([]ListedOffset, len(want))
	answered := make([]bool, len(want))
	put := func(lo ListedOffset) {
		if i, ok := slices.BinarySearchFunc(want, lo.TopicPartition, kafka.CompareTopicPartitions); ok {
			// The name asked for: the answer's copy is let go.
			lo.TopicPartition = want[i]
			out[i], answered[i] = lo, true
		}
	}
	var shardErr error
	for _, shard := range c.cl.RequestSharded(ctx, req) {
		if shard.Err != nil {
			// kgo reports a topic it could not map to a leader (or a broker
			// it could not reach) as a shard with the request's partitions.
			shardErr = c.listOffsetsShardError(shard.Err, brokerAddr(shard.Meta))
			putShardError(shard.Req, shardErr, put)
			continue
		}
		resp, ok := shard.Resp.(*kmsg.ListOffsetsResponse)
		if !ok {
			return nil, &kafka.MalformedError{Reason: fmt.Sprintf("ListOffsets answered with %T", shard.Resp)}
		}
		putAnswers(resp, shard.Meta.NodeID, put)
	}
	for i, tp := range want {
		if answered[i] {
			continue
		}
		err := shardErr
		if err == nil {
			err = &kafka.MalformedError{Reason: fmt.Sprintf("ListOffsets has no answer for %s-%d", tp.Topic, tp.Partition)}
		}
		out[i] = ListedOffset{TopicPartition: tp, Offset: -1, LeaderEpoch: -1, Leader: -1, Err: err}
	}
	return out, nil
}

// listOffsetsRequest builds one ListOffsets of the sorted partitions want
// at timestamp, and notes their topics as ones whose metadata the client
// keeps (ForgetTopicMetadata lets them go).
func (c *Client) listOffsetsRequest(want []kafka.TopicPartition, timestamp int64) *kmsg.ListOffsetsRequest {
	req := kmsg.NewPtrListOffsetsRequest()
	req.ReplicaID = -1
	req.IsolationLevel = 0
	topicRuns(len(want), func(i int) string { return want[i].Topic }, func(topic string, from, to int) {
		c.keepMetadata(topic)
		rt := kmsg.NewListOffsetsRequestTopic()
		rt.Topic = topic
		rt.Partitions = make([]kmsg.ListOffsetsRequestTopicPartition, 0, to-from)
		for _, tp := range want[from:to] {
			rp := kmsg.NewListOffsetsRequestTopicPartition()
			rp.Partition = tp.Partition
			rp.CurrentLeaderEpoch = -1
			rp.Timestamp = timestamp
			rp.MaxNumOffsets = 1
			rt.Partitions = append(rt.Partitions, rp)
		}
		req.Topics = append(req.Topics, rt)
	})
	return req
}

// putShardError gives err to every partition of a shard's request.
func putShardError(req kmsg.Request, err error, put func(ListedOffset)) {
	sreq, ok := req.(*kmsg.ListOffsetsRequest)
	if !ok {
		return
	}
	for _, t := range sreq.Topics {
		for _, p := range t.Partitions {
			put(ListedOffset{TopicPartition: kafka.TopicPartition{Topic: t.Topic, Partition: p.Partition}, Offset: -1, LeaderEpoch: -1, Leader: -1, Err: err})
		}
	}
}

// putAnswers gives each partition of one leader's answer its offset or
// error.
func putAnswers(resp *kmsg.ListOffsetsResponse, leader int32, put func(ListedOffset)) {
	for _, t := range resp.Topics {
		for _, p := range t.Partitions {
			lo := ListedOffset{TopicPartition: kafka.TopicPartition{Topic: t.Topic, Partition: p.Partition}, Offset: p.Offset, LeaderEpoch: p.LeaderEpoch, Leader: leader}
			if p.ErrorCode != 0 {
				lo.Err = NewKafkaError(p.ErrorCode, nil)
			}
			put(lo)
		}
	}
}

// LoadTopics loads the partition metadata (the leaders) of topics into
// kgo's cache, unless it is there already (MetadataMinAge), so that the
// ListOffsets of these topics sent together next find it there: each
// would otherwise send its own Metadata request, as neither sees the
// other's answer in the cache in time. A failure is not reported: each
// ListOffsets then asks again and reports what it finds, as without this
// call.
func (c *Client) LoadTopics(ctx context.Context, topics []string) {
	if len(topics) == 0 {
		return
	}
	for _, t := range topics {
		c.keepMetadata(t)
	}
	_, _ = c.cl.RequestCachedMetadata(ctx, metadataRequest(topics), 0)
}

// keepMetadata notes topic as one whose partition metadata kgo keeps
// (ForgetTopicMetadata lets it go).
func (c *Client) keepMetadata(topic string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sharded == nil {
		c.sharded = map[string]struct{}{}
	}
	c.sharded[topic] = struct{}{}
}

// ForgetTopicMetadata lets go of the partition metadata that kgo keeps
// for the topics ListOffsets asked for. kgo uses it for MetadataMinAge (5
// seconds: both ListOffsets of a lag read it once) but keeps it after it
// expired; serve, which reads the offsets of every partition of every
// group once per interval, would hold the metadata of all its topics (some
// 15 MB for 50,000 partitions) from one cycle to the next for nothing.
func (c *Client) ForgetTopicMetadata() {
	c.mu.Lock()
	topics := slices.Collect(maps.Keys(c.sharded))
	c.sharded = nil
	c.mu.Unlock()
	c.cl.PurgeTopicsFromClient(topics...)
}

// listOffsetsShardError types what kgo reported for a failed shard sent to
// the broker at addr.
func (c *Client) listOffsetsShardError(err error, addr string) error {
	var ke *kerr.Error
	if errors.As(err, &ke) {
		return NewKafkaError(ke.Code, nil)
	}
	fe, permanent := c.failure(err, addr, "ListOffsets")
	if permanent {
		return fe
	}
	return c.unavailable("ListOffsets", fe, nil)
}

// IndexListedOffsets indexes a ListOffsets answer by partition, passing
// the request's error through.
func IndexListedOffsets(los []ListedOffset, err error) (map[kafka.TopicPartition]ListedOffset, error) {
	if err != nil {
		return nil, err
	}
	out := make(map[kafka.TopicPartition]ListedOffset, len(los))
	for _, lo := range los {
		out[lo.TopicPartition] = lo
	}
	return out, nil
}
