package deleteoffsets

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/resetoffsets"
)

// Options are the --delete-offsets options as given.
type Options struct {
	// Groups must hold exactly one group; --all-groups does not count.
	Groups []string
	// AllInputTopics and InputTopics select the partitions; AllInputTopics
	// wins when both are given, as in the Java tool.
	AllInputTopics bool
	InputTopics    []string
}

// Validate checks the options before any I/O with kafka-streams-groups.sh's
// messages (StreamsGroupCommandOptions.checkDeleteOffsetsArgs).
func (o Options) Validate() error {
	if !o.AllInputTopics && len(o.InputTopics) == 0 || len(o.Groups) == 0 {
		return errors.New("Option [delete-offsets] takes the [group] and one of these options: [all-input-topics], [input-topic]")
	}
	if len(o.Groups) > 1 {
		return fmt.Errorf("Option [delete-offsets] supports only one [group] at a time, but found: [%s]", strings.Join(o.Groups, ", "))
	}
	return nil
}

// Request is a validated delete-offsets invocation.
type Request struct {
	Group          string
	AllInputTopics bool
	InputTopics    []resetoffsets.InputTopic
}

// Prepare parses the --input-topic values (topic:0,1 works here too), with
// the Java tool's messages; a failure is a usage error. Unlike the Java
// tool, an empty topic name and a negative partition are refused: no such
// partition can hold an offset (a 4.4.0 broker answers
// UNKNOWN_TOPIC_OR_PARTITION, a broker that does not check says nothing
// and the row read "Successful"), so they are typing mistakes.
func (o Options) Prepare() (Request, error) {
	r := Request{Group: o.Groups[0], AllInputTopics: o.AllInputTopics}
	if !o.AllInputTopics {
		topics, err := resetoffsets.ParseInputTopics(o.InputTopics)
		if err != nil {
			return Request{}, err
		}
		for i, t := range topics {
			if t.Topic == "" {
				return Request{}, fmt.Errorf("--input-topic '%s': the topic name is empty", o.InputTopics[i])
			}
			for _, p := range t.Partitions {
				if p < 0 {
					return Request{}, fmt.Errorf("--input-topic '%s': partition %d is negative", o.InputTopics[i], p)
				}
			}
		}
		r.InputTopics = topics
	}
	return r, nil
}

// Client is what Run needs from the admin client.
type Client interface {
	DescribeStreamsGroups(ctx context.Context, groups []string, includeTopology bool) []admin.DescribedGroup
	FetchCommittedOffsets(ctx context.Context, groups []string) []admin.GroupOffsets
	DescribeTopics(ctx context.Context, topics []string) ([]admin.TopicInfo, error)
	DeleteOffsets(ctx context.Context, group string, tps []kafka.TopicPartition) admin.DeletedOffsets
}

// NoPartition is the partition of a row for a topic that could not be
// described: the Java tool's -1, printed "-".
const NoPartition int32 = -1

// Row is one partition's outcome.
type Row struct {
	kafka.TopicPartition
	// Err is nil when the offset was deleted (or there was none).
	Err error
}

// Result is the outcome for the group.
type Result struct {
	Group       string
	Coordinator *kafka.Broker
	// Err is set when nothing was asked: the group could not be described
	// as a streams group, or its offsets could not be fetched.
	Err error
	// GroupErr is the group-level error OffsetDelete answered; every row
	// sent then carries it.
	GroupErr error
	// Rows are sorted by topic and partition.
	Rows []Row
}

// Failures lists the group's failure: why nothing was sent, the group
// error OffsetDelete answered, else the first failed partition sent (the
// one the Java tool's first line reports), else the first topic that could
// not be described.
func (r *Result) Failures() []kafka.Failure {
	err := cmp.Or(r.Err, r.GroupErr)
	for _, sent := range []bool{true, false} {
		for _, row := range r.Rows {
			if err == nil && row.Err != nil && (row.Partition != NoPartition) == sent {
				err = row.Err
			}
		}
	}
	if err == nil {
		return nil
	}
	return []kafka.Failure{{Group: r.Group, Err: err}}
}

// Run deletes the offsets of req. The group is described first (one
// StreamsGroupDescribe): a group that does not exist or is not a streams
// group is refused before anything is deleted. Its state is not checked:
// the broker refuses topics an active group reads
// (GROUP_SUBSCRIBED_TO_TOPIC). --all-input-topics is the committed
// partitions of the group's source topics (one OffsetFetch); a topic named
// bare is every partition of it (one Metadata request), and a topic that
// cannot be described gets a row of its own and is not sent.
func Run(ctx context.Context, client Client, req Request) (*Result, error) {
	res := &Result{Group: req.Group}
	d := client.DescribeStreamsGroups(ctx, []string{req.Group}, false)[0]
	if d.Coordinator != (kafka.Broker{}) {
		c := d.Coordinator
		res.Coordinator = &c
	}
	if d.Err != nil {
		res.Err = d.Err
		return res, nil
	}

	var send []kafka.TopicPartition
	if req.AllInputTopics {
		co := client.FetchCommittedOffsets(ctx, []string{req.Group})[0]
		if co.Err != nil {
			res.Err = co.Err
			return res, nil
		}
		var committed []kafka.TopicPartition
		for _, o := range co.Offsets {
			if o.Committed() {
				committed = append(committed, o.TopicPartition)
			}
		}
		send = resetoffsets.SourcePartitions(d.Streams.Subtopologies, committed)
	} else {
		parts, err := topicPartitions(ctx, client, req.InputTopics, res)
		if err != nil {
			return nil, err
		}
		send = resetoffsets.Partitions(req.InputTopics, parts)
	}
	if len(send) > 0 {
		deleteRows(ctx, client, req.Group, send, res)
	}
	slices.SortFunc(res.Rows, func(a, b Row) int { return kafka.CompareTopicPartitions(a.TopicPartition, b.TopicPartition) })
	return res, nil
}

// topicPartitions returns the partitions of each topic named bare in
// --input-topic (one Metadata request); a topic that cannot be described
// gets a row of its own in res.
func topicPartitions(ctx context.Context, client Client, inputTopics []resetoffsets.InputTopic, res *Result) (map[string][]int32, error) {
	parts := map[string][]int32{}
	bare := resetoffsets.BareTopics(inputTopics)
	if len(bare) == 0 {
		return parts, nil
	}
	infos, err := client.DescribeTopics(ctx, bare)
	if err != nil {
		return nil, err
	}
	for _, ti := range infos {
		if ti.Err != nil {
			res.Rows = append(res.Rows, Row{TopicPartition: kafka.TopicPartition{Topic: ti.Topic, Partition: NoPartition}, Err: ti.Err})
			continue
		}
		parts[ti.Topic] = []int32{}
		for _, p := range ti.Partitions {
			parts[ti.Topic] = append(parts[ti.Topic], p.Partition)
		}
	}
	return parts, nil
}

// deleteRows sends one OffsetDelete for send and gives each partition its
// row: the group's error, the partition's, or a malformed answer.
func deleteRows(ctx context.Context, client Client, group string, send []kafka.TopicPartition, res *Result) {
	deleted := client.DeleteOffsets(ctx, group, send)
	answered := map[kafka.TopicPartition]error{}
	for _, p := range deleted.Partitions {
		answered[p.TopicPartition] = p.Err
	}
	res.GroupErr = deleted.Err
	for _, tp := range send {
		row := Row{TopicPartition: tp, Err: deleted.Err}
		if row.Err == nil {
			err, ok := answered[tp]
			if !ok {
				err = &kafka.MalformedError{Reason: fmt.Sprintf("OffsetDelete has no answer for %s-%d", tp.Topic, tp.Partition)}
			}
			row.Err = err
		}
		res.Rows = append(res.Rows, row)
	}
}
