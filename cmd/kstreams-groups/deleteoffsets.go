package main

// The delete-offsets verb: --delete-offsets and `delete-offsets`. stdout is
// Kafka's first line and TOPIC PARTITION STATUS table.

import (
	"context"
	"io"

	"github.com/kstreams-groups/kstreams-groups/internal/deleteoffsets"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

func (a *app) deleteOffsetsVerb() *verb {
	return &verb{
		name:       "delete-offsets",
		actionHelp: "Delete offsets of streams group. Supports one streams group at a time, and multiple topics.",
		flags: table(groupFlag.withHelp("The streams group whose offsets to delete (exactly one)."),
			allInputTopicsFlag, inputTopicFlag),
		short: "Delete committed offsets of a Kafka Streams group",
		long: `Delete committed offsets of one Kafka Streams group, as
kafka-streams-groups.sh --delete-offsets does, with OffsetDelete to the group's
coordinator: for every committed partition of the topology's source topics
(--all-input-topics), or for the topics and partitions named (--input-topic T,
every partition of T, or T:0,1). The application then starts those partitions
from its auto.offset.reset position. The broker refuses the topics an active
group reads (GROUP_SUBSCRIBED_TO_TOPIC), so stop the application first.

stdout is Kafka's first line and TOPIC PARTITION STATUS table. A group that
does not exist or is not a streams group is refused before anything is sent.
Unlike kafka-streams-groups.sh, the exit status is 0 only when every partition
was deleted.`,
		exits: clusterExits(exitNotFound, exitGroupActive),
		example: `  # Forget where a stopped application was in its input topics
  kstreams-groups delete-offsets --group orders-app --all-input-topics

  # Only two partitions of one topic, as JSON
  kstreams-groups --delete-offsets --group orders-app --input-topic orders:0,1 -o json`,
		parse: func(v flagValues) job {
			opts := deleteoffsets.Options{Groups: groupFlag.get(v), AllInputTopics: allInputTopicsFlag.get(v), InputTopics: inputTopicFlag.get(v)}
			var req deleteoffsets.Request
			return job{opts: opts, validate: opts.Validate,
				prepare: func(context.Context) (err error) { req, err = opts.Prepare(); return err },
				run:     func(ctx context.Context) error { return a.deleteOffsets(ctx, req) }}
		},
	}
}

// deleteOffsets runs the delete-offsets verb.
func (a *app) deleteOffsets(ctx context.Context, req deleteoffsets.Request) error {
	p := printer[*deleteoffsets.Result]{
		text: func(w io.Writer, res *deleteoffsets.Result, _ *format.Styles) error {
			return format.DeleteOffsetsText(w, res)
		},
		doc: func(res *deleteoffsets.Result) any { return format.NewDeleteOffsetsDoc(res) },
		line: func(res *deleteoffsets.Result, f kafka.Failure, o format.Output) string {
			if res.Err == nil && !o.Machine() {
				return "" // Kafka's table shows each partition's error
			}
			return a.groupErrorLine(f.Group, f.Err)
		},
		notes: format.DeleteOffsetsNotes,
	}
	return runVerb(a, ctx, p, func(ctx context.Context, c client) (*deleteoffsets.Result, error) {
		return deleteoffsets.Run(ctx, c, req)
	})
}
