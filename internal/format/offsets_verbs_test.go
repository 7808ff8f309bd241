package format

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	groupdelete "github.com/kstreams-groups/kstreams-groups/internal/delete"
	"github.com/kstreams-groups/kstreams-groups/internal/deleteoffsets"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/resetoffsets"
)

// Jackson's CsvEncoder quoting, as the 4.4.0 tool's --export writes
// (e2e/FINDINGS.md: every value over 24 characters is quoted).
func TestCSVValue(t *testing.T) {
	for in, want := range map[string]string{
		"oo-sl-in-exactly-24-char":  "oo-sl-in-exactly-24-char",
		"oo-sl-in-exactly-25-chars": `"oo-sl-in-exactly-25-chars"`,
		"wc_input.v2":               "wc_input.v2",
		"a b":                       `"a b"`,
		"a,b":                       `"a,b"`,
		`a"b`:                       `"a""b"`,
		"a+b":                       `"a+b"`,
		"a-b/c":                     "a-b/c",
		"":                          "",
		"ééééééééééééééééééééééééé": `"ééééééééééééééééééééééééé"`,
	} {
		assert.Equal(t, want, csvValue(in), in)
	}
}

// The exported CSV reads back into the same plan.
func TestResetOffsetsCSV_roundTrip(t *testing.T) {
	res := &resetoffsets.Result{Groups: []*resetoffsets.Group{
		{Group: "g, one", Described: true, Partitions: []resetoffsets.Partition{{TopicPartition: kafka.TopicPartition{Topic: "a-topic-longer-than-24-chars", Partition: 3}, New: 7}}},
		{Group: "h", Described: true, Partitions: []resetoffsets.Partition{{TopicPartition: kafka.TopicPartition{Topic: "t", Partition: 0}, New: -1}}},
	}}
	var b strings.Builder
	require.NoError(t, ResetOffsetsCSV(&b, res))
	assert.Equal(t, "\"g, one\",\"a-topic-longer-than-24-chars\",3,7\nh,t,0,-1\n\n", b.String())
	f, err := resetoffsets.ParsePlanFile([]byte(b.String()), "plan.csv", "")
	require.NoError(t, err)
	assert.Equal(t, []string{"g, one", "h"}, f.Groups)
	p, _ := f.Plan("g, one")
	assert.Equal(t, resetoffsets.FileOffset{TopicPartition: kafka.TopicPartition{Topic: "a-topic-longer-than-24-chars", Partition: 3}, Offset: 7, Line: 1}, p[0])

	res.SingleGroup, res.Groups = true, res.Groups[1:]
	b.Reset()
	require.NoError(t, ResetOffsetsCSV(&b, res))
	assert.Equal(t, "t,0,-1\n\n", b.String())
}

// Every name reads back as itself, whatever bytes it holds: the CSV is
// exact (no escaping), quoted where a byte needs it.
func TestResetOffsetsCSV_exactNames(t *testing.T) {
	names := []string{"nl\nx", "cr\rx", "crlf\r\nx", "q\"x", `"`, "c,x", "bidi\u202ex", "c1\u0085x", "bad\xffx", "\xff",
		"esc\x1b[31mx", "\ufeffbom", "\ufeff", " lead", "trail ", "tab\tx", "", "zw\u200bx", "nul\x00x", "del\x7fx", "\\n"}
	for _, single := range []bool{false, true} {
		res := &resetoffsets.Result{SingleGroup: single}
		for i, n := range names {
			g := n
			if single {
				g = "only"
			}
			if single && i > 0 {
				res.Groups[0].Partitions = append(res.Groups[0].Partitions, resetoffsets.Partition{TopicPartition: kafka.TopicPartition{Topic: n, Partition: int32(i)}, New: int64(i)})
				continue
			}
			res.Groups = append(res.Groups, &resetoffsets.Group{Group: g, Described: true, Partitions: []resetoffsets.Partition{{TopicPartition: kafka.TopicPartition{Topic: n, Partition: int32(i)}, New: int64(i)}}})
		}
		var b strings.Builder
		require.NoError(t, ResetOffsetsCSV(&b, res))
		only := ""
		if single {
			only = "only"
		}
		f, err := resetoffsets.ParsePlanFile([]byte(b.String()), "plan.csv", only)
		require.NoError(t, err, "%q", b.String())
		for _, g := range res.Groups {
			p, ok := f.Plan(g.Group)
			require.True(t, ok, "group %q", g.Group)
			require.Len(t, p, len(g.Partitions))
			for i, want := range g.Partitions {
				assert.Equal(t, want.TopicPartition, p[i].TopicPartition, "group %q", g.Group)
				assert.Equal(t, want.New, p[i].Offset)
			}
		}
		assert.Len(t, f.Groups, len(res.Groups))
	}
}

// A terminal is not given names Escape would change.
func TestResetCSVUnprintable(t *testing.T) {
	res := &resetoffsets.Result{Groups: []*resetoffsets.Group{
		{Group: "ok", Partitions: []resetoffsets.Partition{{TopicPartition: kafka.TopicPartition{Topic: "t\x1b"}}, {TopicPartition: kafka.TopicPartition{Topic: "t\x1b", Partition: 1}}}},
		{Group: "g\n", Partitions: []resetoffsets.Partition{{TopicPartition: kafka.TopicPartition{Topic: "fine, really"}}}},
	}}
	assert.Equal(t, []string{"t\x1b", "g\n"}, ResetCSVUnprintable(res))
	res.SingleGroup = true
	assert.Equal(t, []string{"t\x1b"}, ResetCSVUnprintable(res), "one group: its name is not in the CSV")
}

// The table: an empty result is one line feed, a described group without
// rows still brings the header, names are escaped, long names overflow.
func TestResetOffsetsText(t *testing.T) {
	var b strings.Builder
	require.NoError(t, ResetOffsetsText(&b, &resetoffsets.Result{}))
	assert.Equal(t, "\n", b.String())

	b.Reset()
	res := &resetoffsets.Result{Groups: []*resetoffsets.Group{
		{Group: "gone", Err: admin.NewKafkaError(kafka.CodeGroupIDNotFound, nil)},
		{Group: "a\x1bgroup-with-a-name-longer-than-thirty", Described: true, State: "Empty",
			Partitions: []resetoffsets.Partition{{TopicPartition: kafka.TopicPartition{Topic: "t", Partition: 12}, New: 1234567890123456}}},
	}}
	require.NoError(t, ResetOffsetsText(&b, res))
	assert.Equal(t, "\nGROUP                          TOPIC                          PARTITION  NEW-OFFSET     "+
		"\na^[group-with-a-name-longer-than-thirty t                              12         1234567890123456\n", b.String())
}

func TestResetNotices(t *testing.T) {
	res := &resetoffsets.Result{Execute: true, Groups: []*resetoffsets.Group{{
		Group: "g", Described: true, State: "Empty", Committed: true,
		InternalTopics: &groupdelete.InternalTopics{Inferred: []string{"g-a-changelog", "g-b-repartition"}, Failed: []groupdelete.TopicFailure{{Topic: "g-a-changelog", Err: admin.NewKafkaError(kafka.CodeUnsupportedVersion, nil)}}},
	}, {
		Group: "h", Described: true, State: "Empty", Committed: true,
		InternalTopics: &groupdelete.InternalTopics{Inferred: []string{"h-x-changelog"}, Failed: []groupdelete.TopicFailure{{Topic: "h-x-changelog", Err: admin.NewKafkaError(kafka.CodeTopicAuthorizationFailed, nil)}}},
	}}}
	var b strings.Builder
	writeResetNotices(&b, res)
	assert.Equal(t, "\nError: Deleting internal topics is not supported by the broker version.\nInternal topics: (g-a-changelog,g-b-repartition).\nUse 'kafka-topics.sh' to delete the group's internal topics.\n"+
		"\nError: Deleting internal topics for group 'h' failed due to TOPIC_AUTHORIZATION_FAILED: Not authorized to access topics: [Topic authorization failed.]\n", b.String())
}

// Rows sort as the Java tool sorts them: by the string topic+partition.
func TestDeleteOffsetsText_order(t *testing.T) {
	tp := func(topic string, p int32) kafka.TopicPartition {
		return kafka.TopicPartition{Topic: topic, Partition: p}
	}
	res := &deleteoffsets.Result{Group: "g", Rows: []deleteoffsets.Row{
		{TopicPartition: tp("t", 2)}, {TopicPartition: tp("t", 10)}, {TopicPartition: tp("t1", 1)}, {TopicPartition: tp("nosuch", -1), Err: admin.NewKafkaError(3, nil)},
	}}
	var b strings.Builder
	require.NoError(t, DeleteOffsetsText(&b, res))
	assert.Equal(t, "Request succeeded for deleting offsets from group g.\n"+
		"\nTOPIC           PARTITION  STATUS         "+
		"\nnosuch          -          Error: org.apache.kafka.common.errors.UnknownTopicOrPartitionException: This server does not host this topic-partition."+
		"\nt               10         Successful     "+
		"\nt1              1          Successful     "+
		"\nt               2          Successful     \n", b.String())

	for code, want := range map[int16]string{
		kafka.CodeInvalidGroupID:          "\nError: The group id is invalid.\n",
		kafka.CodeGroupIDNotFound:         "\nError: The group id does not exist.\n",
		kafka.CodeNonEmptyGroup:           "\nError: The group is not empty.\n",
		kafka.CodeUnknownTopicOrPartition: "\nError: Encountered some partition-level error, see the follow-up details.\n",
		kafka.CodeNotCoordinator:          "\nError: Encountered some unknown error: NOT_COORDINATOR\n",
	} {
		assert.Equal(t, want, deleteOffsetsFirstLine(&deleteoffsets.Result{Group: "g", GroupErr: admin.NewKafkaError(code, nil)}), code)
	}
	assert.Equal(t, "\nError: Encountered some unknown error: UNAVAILABLE\n", deleteOffsetsFirstLine(&deleteoffsets.Result{GroupErr: &kafka.UnavailableError{Op: "OffsetDelete", Err: kafka.ErrUnavailable}}))
	assert.Equal(t, "Error: OFFSET_METADATA_TOO_LARGE: The metadata field of the offset request was too large.", "Error: "+javaStatus(admin.NewKafkaError(12, nil)), "a code the table lacks keeps Kafka's name")
}

// Under --export the lines the Java tool prints between its CSV lines are
// stderr lines, escaped; the CSV itself holds none of them.
func TestResetExportNotes(t *testing.T) {
	res := &resetoffsets.Result{Groups: []*resetoffsets.Group{{Group: "g\x1b", Described: true,
		Partitions: []resetoffsets.Partition{
			{TopicPartition: kafka.TopicPartition{Topic: "t\n", Partition: 1}, New: 9, NoRecordAfter: true},
			{TopicPartition: kafka.TopicPartition{Topic: "t", Partition: 2}, New: 3}},
		InternalTopics: &groupdelete.InternalTopics{NotInferred: []string{"shared-changelog"}}}}}
	assert.Equal(t, []string{
		`Warn: Partition 1 from topic t\n is empty. Falling back to latest known offset.`,
		"Warn: The internal topic 'shared-changelog' is not inferred as internal and thus will not be deleted with the group 'g^['.",
	}, ResetExportNotes(res))
	var b strings.Builder
	require.NoError(t, ResetOffsetsCSV(&b, res))
	assert.Equal(t, "\"g\x1b\",\"t\n\",1,9\n\"g\x1b\",t,2,3\n\n", b.String())
}

// A dry run whose plan has no partition, and a delete-offsets with no
// partition to delete, say why on stderr; Kafka's stdout (a header) stays.
func TestEmptyPlanNotes(t *testing.T) {
	res := &resetoffsets.Result{Groups: []*resetoffsets.Group{
		{Group: "empty-plan", Described: true},
		{Group: "planned", Described: true, Partitions: []resetoffsets.Partition{{TopicPartition: kafka.TopicPartition{Topic: "t"}, New: 1}}},
		{Group: "refused", Described: true, Err: &kafka.RefusedError{Reason: kafka.RefusedNoPlan, Group: "refused", FromFile: true}},
		{Group: "not-described"},
	}}
	assert.Equal(t, []string{"The plan of streams group 'empty-plan' is empty: it has no committed offset on the partitions selected."}, ResetNotes(res))
	res.Execute = true
	assert.NotContains(t, strings.Join(ResetNotes(res), "\n"), "The plan of", "--execute says what it committed instead")

	assert.Equal(t, []string{"Nothing to delete for streams group 'g': it has no committed offset on the partitions selected."},
		DeleteOffsetsNotes(&deleteoffsets.Result{Group: "g"}))
	assert.Nil(t, DeleteOffsetsNotes(&deleteoffsets.Result{Group: "g", Rows: []deleteoffsets.Row{{TopicPartition: kafka.TopicPartition{Topic: "t"}}}}))
	assert.Nil(t, DeleteOffsetsNotes(&deleteoffsets.Result{Group: "g", Err: kafka.ErrUnavailable}))
}
