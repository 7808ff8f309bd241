package admin

import (
	"context"
	"fmt"
	"slices"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// The offset verbs change offsets with the group coordinator's own
// requests, as kafka-streams-groups.sh does (its admin client has no
// streams-specific request for them): OffsetCommit for --reset-offsets
// --execute and OffsetDelete for --delete-offsets, both routed like
// StreamsGroupDescribe (route.go).

// OffsetToCommit is one new offset of a partition.
type OffsetToCommit struct {
	kafka.TopicPartition
	Offset int64
}

// GroupCommit is the offsets to commit for one group.
type GroupCommit struct {
	Group   string
	Offsets []OffsetToCommit
}

// PartitionError is one partition's outcome; Err is nil on success.
type PartitionError struct {
	kafka.TopicPartition
	Err error
}

// CommitResult is one group's OffsetCommit outcome.
type CommitResult struct {
	Group       string
	Coordinator kafka.Broker
	// Partitions are the answered partitions, sorted, each with its error.
	Partitions []PartitionError
	// Err is the group's failure: the request could not be routed or
	// answered, a partition's error (the first in partition order), or a
	// partition the answer left out.
	Err error
}

const offsetCommitAPI = "OffsetCommit"

// CommitOffsets commits each group's offsets at its coordinator with
// OffsetCommit v9 (topic names) as an admin client does (commitOnce). A
// streams group accepts such a commit only while it has no members
// (StreamsGroup.validateOffsetCommit); a group with members answers
// UNKNOWN_MEMBER_ID. One request per group, through the router (a group
// whose every partition answers NOT_COORDINATOR is retried). The result
// has one entry per group, in order.
func (c *Client) CommitOffsets(ctx context.Context, commits []GroupCommit) []CommitResult {
	byGroup := make(map[string]GroupCommit, len(commits))
	groups := make([]string, 0, len(commits))
	for _, gc := range commits {
		if _, dup := byGroup[gc.Group]; !dup {
			groups = append(groups, gc.Group)
		}
		byGroup[gc.Group] = gc
	}
	call := groupCall[[]PartitionError]{
		api: offsetCommitAPI,
		send: func(ctx context.Context, b *kgo.Broker, gs []string) (answers[[]PartitionError], error) {
			got := make(answers[[]PartitionError], len(gs))
			for _, g := range gs {
				resp, err := commitOnce(ctx, b, byGroup[g])
				if err != nil {
					return nil, err
				}
				got[g] = commitRows(resp)
			}
			return got, nil
		},
	}
	res := route(ctx, c, groups, call)
	out := make([]CommitResult, 0, len(commits))
	for _, gc := range commits {
		r := res[gc.Group]
		cr := CommitResult{Group: gc.Group, Coordinator: r.coordinator, Partitions: r.row, Err: r.err}
		if cr.Err == nil {
			cr.Err = commitFailure(gc.Offsets, cr.Partitions)
		}
		out = append(out, cr)
	}
	return out
}

// commitFailure is a group's failure from the partitions its OffsetCommit
// answered (sorted): the first partition error, else a *kafka.MalformedError
// for the first partition sent that the answer left out (a commit is only
// known to have happened where the broker said so), else nil.
func commitFailure(sent []OffsetToCommit, answered []PartitionError) error {
	got := make(map[kafka.TopicPartition]bool, len(answered))
	for _, p := range answered {
		if p.Err != nil {
			return p.Err
		}
		got[p.TopicPartition] = true
	}
	tps := make([]kafka.TopicPartition, 0, len(sent))
	for _, o := range sent {
		tps = append(tps, o.TopicPartition)
	}
	slices.SortFunc(tps, kafka.CompareTopicPartitions)
	for _, tp := range tps {
		if !got[tp] {
			return &kafka.MalformedError{Reason: fmt.Sprintf("OffsetCommit has no answer for %s-%d", tp.Topic, tp.Partition)}
		}
	}
	return nil
}

// commitOnce sends one group's OffsetCommit to b: GenerationIdOrMemberEpoch
// -1, an empty member id, no instance id, and per partition leader epoch -1
// and empty metadata. OffsetCommit sets absolute offsets, so a resend after
// a lost answer changes nothing.
func commitOnce(ctx context.Context, b *kgo.Broker, gc GroupCommit) (*kmsg.OffsetCommitResponse, error) {
	req := kmsg.NewPtrOffsetCommitRequest()
	req.Group = gc.Group
	req.Generation = -1 // GenerationIdOrMemberEpoch: an admin commit
	req.MemberID = ""
	req.InstanceID = nil
	offsets := slices.Clone(gc.Offsets)
	slices.SortFunc(offsets, func(a, b OffsetToCommit) int { return kafka.CompareTopicPartitions(a.TopicPartition, b.TopicPartition) })
	topicRuns(len(offsets), func(i int) string { return offsets[i].Topic }, func(topic string, from, to int) {
		rt := kmsg.NewOffsetCommitRequestTopic()
		rt.Topic = topic
		for _, o := range offsets[from:to] {
			rp := kmsg.NewOffsetCommitRequestTopicPartition()
			rp.Partition = o.Partition
			rp.Offset = o.Offset
			rp.LeaderEpoch = -1
			rp.Metadata = kmsg.StringPtr("")
			rt.Partitions = append(rt.Partitions, rp)
		}
		req.Topics = append(req.Topics, rt)
	})
	return request[*kmsg.OffsetCommitResponse](ctx, b, req, offsetCommitAPI)
}

// commitRows turns an OffsetCommit answer into partition outcomes and the
// group's code for the router: OffsetCommit has no group-level error, so
// a coordinator error that every partition carries counts as the group's
// (the Java admin client retries those the same way).
func commitRows(resp *kmsg.OffsetCommitResponse) answer[[]PartitionError] {
	var rows []PartitionError
	var common int16
	first := true
	for _, t := range resp.Topics {
		for _, p := range t.Partitions {
			if first {
				common, first = p.ErrorCode, false
			} else if common != p.ErrorCode {
				common = 0
			}
			rows = append(rows, newPartitionError(t.Topic, p.Partition, p.ErrorCode))
		}
	}
	sortPartitionErrors(rows)
	if !kafka.IsCoordinatorRetriable(common) {
		common = 0
	}
	return answer[[]PartitionError]{row: rows, code: common}
}

func newPartitionError(topic string, partition int32, code int16) PartitionError {
	pe := PartitionError{TopicPartition: kafka.TopicPartition{Topic: topic, Partition: partition}}
	if code != 0 {
		pe.Err = NewKafkaError(code, nil)
	}
	return pe
}

func sortPartitionErrors(ps []PartitionError) {
	slices.SortFunc(ps, func(a, b PartitionError) int { return kafka.CompareTopicPartitions(a.TopicPartition, b.TopicPartition) })
}

// topicRuns calls add once per run of one topic in a slice of n entries
// sorted by topic, with the topic and the run's index range [from, to):
// the topics of a request, each with its partitions.
func topicRuns(n int, topic func(i int) string, add func(topic string, from, to int)) {
	for i := 0; i < n; {
		j := i + 1
		for j < n && topic(j) == topic(i) {
			j++
		}
		add(topic(i), i, j)
		i = j
	}
}
