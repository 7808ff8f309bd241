package admin

import (
	"context"
	"slices"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// DeletedOffsets is a group's OffsetDelete outcome.
type DeletedOffsets struct {
	Group       string
	Coordinator kafka.Broker
	// Err is the group-level error (GROUP_ID_NOT_FOUND, an authorization
	// failure, a routing failure); the partitions then carry no answer.
	Err error
	// Partitions are the answered partitions, sorted, each with its error
	// (GROUP_SUBSCRIBED_TO_TOPIC while the group reads the topic).
	Partitions []PartitionError
}

const offsetDeleteAPI = "OffsetDelete"

// DeleteOffsets deletes the committed offsets of tps in group with
// OffsetDelete (key 47, v0) at the group's coordinator, through the router.
// A partition that has no committed offset is answered as a success.
func (c *Client) DeleteOffsets(ctx context.Context, group string, tps []kafka.TopicPartition) DeletedOffsets {
	want := slices.Clone(tps)
	slices.SortFunc(want, kafka.CompareTopicPartitions)
	want = slices.Compact(want)
	call := groupCall[[]PartitionError]{
		api: offsetDeleteAPI,
		send: func(ctx context.Context, b *kgo.Broker, gs []string) (answers[[]PartitionError], error) {
			got := make(answers[[]PartitionError], len(gs))
			for _, g := range gs {
				req := kmsg.NewPtrOffsetDeleteRequest()
				req.Group = g
				topicRuns(len(want), func(i int) string { return want[i].Topic }, func(topic string, from, to int) {
					rt := kmsg.NewOffsetDeleteRequestTopic()
					rt.Topic = topic
					for _, tp := range want[from:to] {
						rp := kmsg.NewOffsetDeleteRequestTopicPartition()
						rp.Partition = tp.Partition
						rt.Partitions = append(rt.Partitions, rp)
					}
					req.Topics = append(req.Topics, rt)
				})
				// Deleting what is already gone succeeds, so a resend is safe.
				resp, err := request[*kmsg.OffsetDeleteResponse](ctx, b, req, offsetDeleteAPI)
				if err != nil {
					return nil, err
				}
				var ps []PartitionError
				for _, t := range resp.Topics {
					for _, p := range t.Partitions {
						ps = append(ps, newPartitionError(t.Topic, p.Partition, p.ErrorCode))
					}
				}
				sortPartitionErrors(ps)
				got[g] = answer[[]PartitionError]{row: ps, code: resp.ErrorCode}
			}
			return got, nil
		},
	}
	r := route(ctx, c, []string{group}, call)[group]
	return DeletedOffsets{Group: group, Coordinator: r.coordinator, Err: r.err, Partitions: r.row}
}
