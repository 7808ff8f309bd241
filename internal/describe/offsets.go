package describe

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// The offsets view (kafka-streams-groups.sh --describe [--offsets]): one
// row per partition of the source and repartition-source topics of the
// subtopologies in the members' active tasks, with the group's committed
// offset, the partition's log end offset and the lag. As in the Java tool,
// the lag is log end minus committed offset, or log end minus log start
// when nothing is committed (StreamsGroupCommand.getOffsets).
//
// All offsets-view groups are fetched together: one OffsetFetch per
// coordinator for their committed offsets and two ListOffsets per partition
// leader (earliest, latest) for the union of their partitions. These go out
// together (fetchLogOffsets).

// PartitionOffset is one row of the offsets view.
type PartitionOffset struct {
	Topic     string
	Partition int32
	// CurrentOffset is the committed offset; nil when the group committed
	// none for this partition.
	CurrentOffset *int64
	// LeaderEpoch is the leader epoch of the committed offset; nil when
	// there is none or the committer did not send one.
	LeaderEpoch    *int32
	LogStartOffset int64
	LogEndOffset   int64
	Lag            int64
}

// HasRows tells whether the members and offsets views print a group: the
// Java tool skips a Dead group and a group without members (isGroupStateValid).
func (g *Group) HasRows() bool {
	return g.State != string(kafka.StateDead) && len(g.Members) > 0
}

// activePartitions returns the partitions the members' active tasks read,
// sorted, or an error naming a subtopology the group's topology lacks (the
// Java tool's IllegalArgumentException).
func activePartitions(g *Group) ([]kafka.TopicPartition, error) {
	topics := map[string][]string{}
	for _, s := range g.Subtopologies {
		topics[s.ID] = append(slices.Clone(s.SourceTopics), s.RepartitionSourceTopics...)
	}
	var out []kafka.TopicPartition
	for _, m := range g.Members {
		for _, t := range m.Assignment.Active {
			ts, ok := topics[t.SubtopologyID]
			if !ok {
				return nil, &kafka.MalformedError{Reason: fmt.Sprintf("Subtopology %s not found in group description!", t.SubtopologyID)}
			}
			for _, topic := range ts {
				for _, p := range t.Partitions {
					out = append(out, kafka.TopicPartition{Topic: topic, Partition: p})
				}
			}
		}
	}
	slices.SortFunc(out, kafka.CompareTopicPartitions)
	return slices.Compact(out), nil
}

// fillOffsets computes the offsets view of groups (all described without
// error); a group whose offsets cannot be fetched gets Err.
func fillOffsets(ctx context.Context, client Client, groups []*Group) {
	type want struct {
		g   *Group
		tps []kafka.TopicPartition
	}
	var wants []want
	var ids []string
	var all []kafka.TopicPartition
	for _, g := range groups {
		if !g.HasRows() {
			continue
		}
		tps, err := activePartitions(g)
		if err != nil {
			g.Err = err
			continue
		}
		g.Offsets = []PartitionOffset{}
		if len(tps) == 0 {
			continue // members without active tasks: nothing to fetch
		}
		wants = append(wants, want{g: g, tps: tps})
		ids = append(ids, g.Group)
		all = append(all, tps...)
	}
	if len(wants) == 0 {
		return
	}

	got := fetchLogOffsets(ctx, client, ids, all)

	for _, w := range wants {
		co := got.committed[w.g.Group]
		if err := cmp.Or(co.Err, got.errE, got.errL); err != nil {
			w.g.Err = err
			continue
		}
		mine := co.Committed()
		for _, tp := range w.tps {
			start, end := got.earliest[tp], got.latest[tp]
			if start.Err != nil || end.Err != nil {
				w.g.Err = cmp.Or(start.Err, end.Err)
				w.g.Offsets = nil
				break
			}
			row := PartitionOffset{Topic: tp.Topic, Partition: tp.Partition, LogStartOffset: start.Offset, LogEndOffset: end.Offset, Lag: end.Offset - start.Offset}
			if c, ok := mine[tp]; ok {
				off := c.Offset
				row.CurrentOffset = &off
				row.Lag = end.Offset - off
				if c.LeaderEpoch >= 0 {
					epoch := c.LeaderEpoch
					row.LeaderEpoch = &epoch
				}
			}
			w.g.Offsets = append(w.g.Offsets, row)
		}
	}
}

// logOffsets are the answers fillOffsets builds the rows from.
type logOffsets struct {
	committed        map[string]admin.GroupOffsets
	earliest, latest map[kafka.TopicPartition]admin.ListedOffset
	errE, errL       error
}

// fetchLogOffsets sends the offsets view's requests, overlapping those that
// do not depend on one another: the OffsetFetch (to the coordinators) goes
// out with the Metadata of the topics, then the log starts' and the log
// ends' ListOffsets (to the partition leaders) go out together. After the
// describe, that is three round trips in series (Metadata, the leaders'
// connection, ListOffsets) instead of five: BenchmarkDescribeViews in
// internal/admin (issue 32; figures in CHANGELOG.md).
func fetchLogOffsets(ctx context.Context, client Client, groups []string, tps []kafka.TopicPartition) logOffsets {
	var out logOffsets
	var wg sync.WaitGroup
	wg.Go(func() {
		out.committed = map[string]admin.GroupOffsets{}
		for _, co := range client.FetchCommittedOffsets(ctx, groups) {
			out.committed[co.Group] = co
		}
	})
	client.LoadTopics(ctx, topicsOf(tps))
	wg.Go(func() {
		out.earliest, out.errE = admin.IndexListedOffsets(client.ListOffsets(ctx, tps, admin.EarliestTimestamp))
	})
	out.latest, out.errL = admin.IndexListedOffsets(client.ListOffsets(ctx, tps, admin.LatestTimestamp))
	wg.Wait()
	return out
}

// topicsOf returns the distinct topics of tps, sorted.
func topicsOf(tps []kafka.TopicPartition) []string {
	out := make([]string, 0, len(tps))
	for _, tp := range tps {
		out = append(out, tp.Topic)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
