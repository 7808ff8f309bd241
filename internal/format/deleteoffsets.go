package format

// Display rules for --delete-offsets. The text is kafka-streams-groups.sh's
// byte for byte (StreamsGroupCommand.deleteOffsets of 4.4.0, checked
// against the real tool in e2e/offsets_test.go):
//
//  1. the first line, from the request's outcome: "Request succeeded for
//     deleting offsets from group <g>." when nothing failed; else a blank
//     line and "Error: " with the Java Errors message for a group error
//     (INVALID_GROUP_ID, GROUP_ID_NOT_FOUND, GROUP_AUTHORIZATION_FAILED,
//     NON_EMPTY_GROUP), "Encountered some partition-level error, see the
//     follow-up details." for GROUP_SUBSCRIBED_TO_TOPIC,
//     TOPIC_AUTHORIZATION_FAILED and UNKNOWN_TOPIC_OR_PARTITION, or
//     "Encountered some unknown error: <NAME>". A topic that could not be
//     described was not sent and does not change the line;
//  2. the table "%n%-Ts %-10s %-15s" (T the longest topic, at least 15):
//     TOPIC PARTITION STATUS, one row per partition sorted by the string
//     topic+partition as the Java tool sorts them (so "t10" before "t2"),
//     "-" for a topic that could not be described, "Successful" or
//     "Error: <Java exception class>: <message>"; then one line feed.
//
// A group that is not a streams group is refused before anything is sent
// (a deliberate difference; the Java tool sends the request and prints the
// GROUP_ID_NOT_FOUND table): nothing is printed on stdout, the error goes to
// stderr.

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/deleteoffsets"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// javaError is how the Java admin client names a Kafka error: the
// exception class Errors maps the code to and Errors' default message.
type javaError struct{ class, message string }

// javaErrors are the codes OffsetDelete and Metadata answer for a group's
// offsets, as org.apache.kafka.common.protocol.Errors names them.
var javaErrors = map[int16]javaError{
	kafka.CodeUnknownServerError:        {"UnknownServerException", "The server experienced an unexpected error when processing the request."},
	kafka.CodeUnknownTopicOrPartition:   {"UnknownTopicOrPartitionException", "This server does not host this topic-partition."},
	kafka.CodeLeaderNotAvailable:        {"LeaderNotAvailableException", "There is no leader for this topic-partition as we are in the middle of a leadership election."},
	kafka.CodeCoordinatorLoadInProgress: {"CoordinatorLoadInProgressException", "The coordinator is loading and hence can't process requests."},
	kafka.CodeCoordinatorNotAvailable:   {"CoordinatorNotAvailableException", "The coordinator is not available."},
	kafka.CodeNotCoordinator:            {"NotCoordinatorException", "This is not the correct coordinator."},
	kafka.CodeInvalidGroupID:            {"InvalidGroupIdException", "The group id is invalid."},
	kafka.CodeTopicAuthorizationFailed:  {"TopicAuthorizationException", "Topic authorization failed."},
	kafka.CodeGroupAuthorizationFailed:  {"GroupAuthorizationException", "Group authorization failed."},
	kafka.CodeNonEmptyGroup:             {"GroupNotEmptyException", "The group is not empty."},
	kafka.CodeGroupIDNotFound:           {"GroupIdNotFoundException", "The group id does not exist."},
	kafka.CodeGroupSubscribedToTopic:    {"GroupSubscribedToTopicException", "Deleting offsets of a topic is forbidden while the consumer group is actively subscribed to it."},
}

// javaStatus is an error as the Java tool's STATUS column prints it: the
// ExecutionException's message, "<class>: <message>". An error the table
// above does not know keeps Kafka's name and the message.
func javaStatus(err error) string {
	var ke *kafka.Error
	if errors.As(err, &ke) {
		if je, ok := javaErrors[ke.Code]; ok {
			return "org.apache.kafka.common.errors." + je.class + ": " + je.message
		}
	}
	return Escape(err.Error())
}

// DeleteOffsetsText writes a delete-offsets result as
// kafka-streams-groups.sh prints it.
func DeleteOffsetsText(w io.Writer, res *deleteoffsets.Result) error {
	if res.Err != nil {
		return nil // refused before anything was sent: stderr says why
	}
	var b strings.Builder
	b.WriteString(deleteOffsetsFirstLine(res))
	width := 15
	for _, r := range res.Rows {
		width = max(width, javaLen(Escape(r.Topic)))
	}
	rows := slices.Clone(res.Rows)
	key := func(r deleteoffsets.Row) string { return r.Topic + strconv.Itoa(int(r.Partition)) }
	slices.SortStableFunc(rows, func(a, b deleteoffsets.Row) int { return cmp.Compare(key(a), key(b)) })
	fmt.Fprintf(&b, "\n%s %s %s", pad("TOPIC", width), pad("PARTITION", 10), pad("STATUS", 15))
	for _, r := range rows {
		partition, status := strconv.Itoa(int(r.Partition)), "Successful"
		if r.Partition == deleteoffsets.NoPartition {
			partition = "-"
		}
		if r.Err != nil {
			status = "Error: " + javaStatus(r.Err)
		}
		fmt.Fprintf(&b, "\n%s %s %s", pad(Escape(r.Topic), width), pad(partition, 10), pad(status, 15))
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// deleteOffsetsFirstLine is the Java tool's first line, from the group's
// error or else the first failed partition that was sent.
func deleteOffsetsFirstLine(res *deleteoffsets.Result) string {
	top := res.GroupErr
	for _, r := range res.Rows {
		if top == nil && r.Err != nil && r.Partition != deleteoffsets.NoPartition {
			top = r.Err
		}
	}
	if top == nil {
		return fmt.Sprintf("Request succeeded for deleting offsets from group %s.\n", Escape(res.Group))
	}
	var ke *kafka.Error
	if !errors.As(top, &ke) {
		return "\nError: Encountered some unknown error: " + kafka.Classify(top).Name + "\n"
	}
	switch ke.Code {
	case kafka.CodeInvalidGroupID, kafka.CodeGroupIDNotFound, kafka.CodeGroupAuthorizationFailed, kafka.CodeNonEmptyGroup:
		return "\nError: " + javaErrors[ke.Code].message + "\n"
	case kafka.CodeGroupSubscribedToTopic, kafka.CodeTopicAuthorizationFailed, kafka.CodeUnknownTopicOrPartition:
		return "\nError: Encountered some partition-level error, see the follow-up details.\n"
	}
	return "\nError: Encountered some unknown error: " + ke.Name + "\n"
}

// DeleteOffsetsDoc is the JSON and YAML document of --delete-offsets.
type DeleteOffsetsDoc struct {
	Group       string     `json:"group" yaml:"group"`
	Coordinator *BrokerDoc `json:"coordinator,omitempty" yaml:"coordinator,omitempty"`
	// Result is "deleted" (every partition), "failed" (some or all) or
	// "refused" (nothing was sent: not a streams group).
	Result string `json:"result" yaml:"result"`
	// Error is the group's error: why nothing was sent, or the group-level
	// error OffsetDelete answered.
	Error *ErrorDoc `json:"error,omitempty" yaml:"error,omitempty"`
	// Partitions are sorted by topic and partition.
	Partitions []DeleteOffsetsPartitionDoc `json:"partitions" yaml:"partitions"`
}

// DeleteOffsetsPartitionDoc is one partition's outcome.
type DeleteOffsetsPartitionDoc struct {
	Topic string `json:"topic" yaml:"topic"`
	// Partition is null for a topic that could not be described.
	Partition *int32 `json:"partition" yaml:"partition"`
	// Result is "deleted" or "failed".
	Result string    `json:"result" yaml:"result"`
	Error  *ErrorDoc `json:"error,omitempty" yaml:"error,omitempty"`
}

// NewDeleteOffsetsDoc builds the document of a delete-offsets result.
func NewDeleteOffsetsDoc(res *deleteoffsets.Result) DeleteOffsetsDoc {
	doc := DeleteOffsetsDoc{Group: res.Group, Coordinator: NewBrokerDoc(res.Coordinator), Result: DeleteResultDeleted, Partitions: []DeleteOffsetsPartitionDoc{}}
	switch {
	case res.Err != nil:
		doc.Result, doc.Error = "refused", NewErrorDoc(res.Err)
	case res.GroupErr != nil:
		doc.Result, doc.Error = DeleteResultFailed, NewErrorDoc(res.GroupErr)
	}
	for _, r := range res.Rows {
		pd := DeleteOffsetsPartitionDoc{Topic: r.Topic, Result: DeleteResultDeleted}
		if r.Partition != deleteoffsets.NoPartition {
			p := r.Partition
			pd.Partition = &p
		}
		if r.Err != nil {
			pd.Result, pd.Error = DeleteResultFailed, NewErrorDoc(r.Err)
			doc.Result = DeleteResultFailed
		}
		doc.Partitions = append(doc.Partitions, pd)
	}
	return doc
}
