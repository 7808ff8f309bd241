package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

const (
	deleteOffsetsHeader = "\nTOPIC           PARTITION  STATUS         "
	subscribedStatus    = "Error: org.apache.kafka.common.errors.GroupSubscribedToTopicException: Deleting offsets of a topic is forbidden while the consumer group is actively subscribed to it."
)

func statusRow(topic, partition, status string) string {
	return statusRowW(15, topic, partition, status)
}

func statusRowW(width int, topic, partition, status string) string {
	return "\n" + padN(topic, width) + " " + padN(partition, 10) + " " + padN(status, 15)
}

// --delete-offsets prints the Java tool's first line and table byte for
// byte (../shared/reference/kafka-streams-groups-offsets.md §2.5, checked
// on a real broker by e2e/offsets_test.go); only the exit status differs.
func TestDeleteOffsets(t *testing.T) {
	t.Parallel()
	runOffsetsCases(t, []offsetsCase{
		{name: "all input topics of an Empty group", args: []string{"--delete-offsets", "--group", "wc", "--all-input-topics"},
			wantStdout: "Request succeeded for deleting offsets from group wc.\n" + deleteOffsetsHeader +
				statusRow("wc-input", "0", "Successful") + statusRow("wc-input", "1", "Successful") + "\n",
			check: func(t *testing.T, c *playground.Cluster) {
				assert.Equal(t, wcBefore[2:], committedOf(c, "wc"), "the repartition topic keeps its offsets")
				assert.Equal(t, 1, keysSent(c, keyOffsetDelete))
			}},
		{name: "the subcommand, a topic and a partition", args: []string{"delete-offsets", "--group", "wc", "--input-topic", "wc-input:1", "--input-topic", "wc-word-counts-repartition"},
			wantStdout: "Request succeeded for deleting offsets from group wc.\n" + statusRowW(26, "TOPIC", "PARTITION", "STATUS") +
				statusRowW(26, "wc-input", "1", "Successful") + statusRowW(26, "wc-word-counts-repartition", "0", "Successful") +
				statusRowW(26, "wc-word-counts-repartition", "1", "Successful") + statusRowW(26, "wc-word-counts-repartition", "2", "Successful") + "\n",
			check: func(t *testing.T, c *playground.Cluster) {
				assert.Equal(t, []string{"wc-input-0=12"}, committedOf(c, "wc"))
			}},
		{name: "an active group: GROUP_SUBSCRIBED_TO_TOPIC", args: []string{"--delete-offsets", "--group", "wc-live", "--all-input-topics"},
			wantStdout: "\nError: Encountered some partition-level error, see the follow-up details.\n" + deleteOffsetsHeader +
				statusRow("wc-input", "0", subscribedStatus) + statusRow("wc-input", "1", subscribedStatus) + "\n",
			wantCode: 1, wantDetailed: exitGroupActive,
			check: func(t *testing.T, c *playground.Cluster) { assert.Len(t, c.CommittedOffsets("wc-live"), 2) }},
		{name: "a topic that cannot be described gets a row and is not sent", args: []string{"--delete-offsets", "--group", "wc", "--input-topic", "nosuch-topic", "--input-topic", "wc-input:1"},
			wantStdout: "Request succeeded for deleting offsets from group wc.\n" + deleteOffsetsHeader +
				statusRow("nosuch-topic", "-", "Error: org.apache.kafka.common.errors.UnknownTopicOrPartitionException: This server does not host this topic-partition.") +
				statusRow("wc-input", "1", "Successful") + "\n",
			wantCode: 1, wantDetailed: 1},
		{name: "a partition without an offset succeeds", args: []string{"--delete-offsets", "--group", "wc", "--input-topic", "wc-input:2", "--input-topic", "side:0"},
			wantStdout: "Request succeeded for deleting offsets from group wc.\n" + deleteOffsetsHeader +
				statusRow("side", "0", "Successful") + statusRow("wc-input", "2", "Successful") + "\n"},
		{name: "nothing committed: an empty table", args: []string{"--delete-offsets", "--group", "wc", "--all-input-topics"},
			setup: func(t *testing.T, c *playground.Cluster) {
				r := runCLI(t, "--bootstrap-server", bootstrap(c), "--delete-offsets", "--group", "wc", "--all-input-topics")
				assert.Equal(t, 0, r.code, r.stderr)
			},
			wantStdout: "Request succeeded for deleting offsets from group wc.\n" + deleteOffsetsHeader + "\n",
			wantStderr: "Nothing to delete for streams group 'wc': it has no committed offset on the partitions selected.\n",
			check: func(t *testing.T, c *playground.Cluster) {
				assert.Zero(t, keysSent(c, keyOffsetDelete), "nothing to send")
			}},
		{name: "a group that does not exist is refused before anything is sent", args: []string{"--delete-offsets", "--group", "nogroup", "--input-topic", "wc-input"},
			wantStderr: "Error: streams group 'nogroup': GROUP_ID_NOT_FOUND: Group nogroup not found.\n",
			wantCode:   1, wantDetailed: exitNotFound,
			check: func(t *testing.T, c *playground.Cluster) { assert.Zero(t, keysSent(c, keyOffsetDelete)) }},
		{name: "a classic group is refused", args: []string{"--delete-offsets", "--group", "legacy-consumer", "--input-topic", "wc-input:0"},
			wantStderr: "Error: streams group 'legacy-consumer': GROUP_ID_NOT_FOUND: Group legacy-consumer is not a streams group.\n",
			wantCode:   1, wantDetailed: exitNotFound},
		{name: "a group error answered by the broker", args: []string{"--delete-offsets", "--group", "wc", "--input-topic", "wc-input:0,1"},
			setup: func(t *testing.T, c *playground.Cluster) {
				c.InjectError(playground.Fault{Key: keyOffsetDelete, Group: "wc", ErrorCode: kerr.GroupAuthorizationFailed.Code, Node: playground.AnyNode})
			},
			wantStdout: "\nError: Group authorization failed.\n" + deleteOffsetsHeader +
				statusRow("wc-input", "0", "Error: org.apache.kafka.common.errors.GroupAuthorizationException: Group authorization failed.") +
				statusRow("wc-input", "1", "Error: org.apache.kafka.common.errors.GroupAuthorizationException: Group authorization failed.") + "\n",
			wantCode: 1, wantDetailed: exitNotAuthorized},
		{name: "json", args: []string{"--delete-offsets", "--group", "wc-live", "--input-topic", "wc-input:0", "--input-topic", "side:0", "--input-topic", "nosuch", "-o", "json"},
			wantGolden: true,
			wantStderr: "Error: streams group 'wc-live': GROUP_SUBSCRIBED_TO_TOPIC: Deleting offsets of a topic is forbidden while the consumer group is actively subscribed to it.\n",
			wantCode:   1, wantDetailed: exitGroupActive},
	})
}

// --delete takes --delete-internal-topic, which the 4.4 docs promise and
// the 4.4 tool refuses, with the same rule as --reset-offsets: only the
// group's inferred internal topics.
func TestDelete_namedInternalTopic(t *testing.T) {
	t.Parallel()
	runOffsetsCases(t, []offsetsCase{
		{name: "one internal topic is deleted with its group", args: []string{"--delete", "--group", "wc", "--delete-internal-topic", "wc-word-counts-changelog"},
			wantStdout: "Deletion of requested streams groups ('wc') was successful.\n" +
				"Deletion of associated internal topics of the streams groups ('wc') was successful.\n",
			check: func(t *testing.T, c *playground.Cluster) {
				assert.False(t, c.HasGroup("wc"))
				assert.False(t, c.HasTopic("wc-word-counts-changelog"))
				assert.True(t, c.HasTopic("wc-word-counts-repartition"))
			}},
		{name: "a user topic is refused and nothing is deleted", args: []string{"delete", "--group", "wc", "--delete-internal-topic", "side"},
			wantStderr: "Error: --delete-internal-topic 'side' is not an internal topic of streams group 'wc' (its internal topics: 'wc-word-counts-repartition', 'wc-word-counts-changelog'); nothing was changed\n",
			wantCode:   1, wantDetailed: exitNotInternal,
			check: func(t *testing.T, c *playground.Cluster) {
				assert.True(t, c.HasGroup("wc"))
				assert.True(t, c.HasTopic("side"))
			}},
		{name: "a dry run names it", args: []string{"delete", "--group", "wc", "--group", "ds", "--dry-run", "--delete-internal-topic", "wc-word-counts-repartition"},
			wantStdout: "Dry run: nothing was deleted. These streams groups passed the pre-checks and would be deleted: 'wc', 'ds'.\n" +
				"Dry run: these internal topics would be deleted with the streams group 'wc': 'wc-word-counts-repartition'.\n",
			check: func(t *testing.T, c *playground.Cluster) { assert.True(t, c.HasTopic("wc-word-counts-repartition")) }},
	})
}
