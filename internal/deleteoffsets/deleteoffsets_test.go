package deleteoffsets

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/resetoffsets"
)

func TestValidateAndPrepare(t *testing.T) {
	const need = "Option [delete-offsets] takes the [group] and one of these options: [all-input-topics], [input-topic]"
	assert.EqualError(t, Options{AllInputTopics: true}.Validate(), need)
	assert.EqualError(t, Options{Groups: []string{"g"}}.Validate(), need)
	assert.EqualError(t, Options{Groups: []string{"a", "b", "a"}, InputTopics: []string{"t"}}.Validate(),
		"Option [delete-offsets] supports only one [group] at a time, but found: [a, b, a]")
	assert.NoError(t, Options{Groups: []string{"g"}, InputTopics: []string{"t"}}.Validate())

	r, err := Options{Groups: []string{"g"}, InputTopics: []string{"t:0,1", "u"}}.Prepare()
	require.NoError(t, err)
	assert.Equal(t, Request{Group: "g", InputTopics: []resetoffsets.InputTopic{{Topic: "t", Partitions: []int32{0, 1}}, {Topic: "u"}}}, r)
	r, err = Options{Groups: []string{"g"}, AllInputTopics: true, InputTopics: []string{"bad:"}}.Prepare()
	require.NoError(t, err, "--all-input-topics wins")
	assert.True(t, r.AllInputTopics)
	_, err = Options{Groups: []string{"g"}, InputTopics: []string{"t:x"}}.Prepare()
	assert.EqualError(t, err, "Invalid partition 'x' specified in topic arg 't:x''")

	// What the broker answers with no error, so the Java tool says
	// "Successful" although nothing was deleted.
	for v, want := range map[string]string{
		"t:-1":          "--input-topic 't:-1': partition -1 is negative",
		"t:0,-2":        "--input-topic 't:0,-2': partition -2 is negative",
		"":              "--input-topic '': the topic name is empty",
		":0":            "--input-topic ':0': the topic name is empty",
		":-1":           "--input-topic ':-1': the topic name is empty",
		"t:-2147483648": "--input-topic 't:-2147483648': partition -2147483648 is negative",
	} {
		_, err = Options{Groups: []string{"g"}, InputTopics: []string{"ok", v}}.Prepare()
		assert.EqualError(t, err, want, v)
	}
}

// The failure that decides the exit code is the one the Java tool's first
// line reports: the group's, else the first failed partition sent.
func TestFailures(t *testing.T) {
	tp := func(topic string, p int32) kafka.TopicPartition {
		return kafka.TopicPartition{Topic: topic, Partition: p}
	}
	unknown := admin.NewKafkaError(kafka.CodeUnknownTopicOrPartition, nil)
	subscribed := admin.NewKafkaError(kafka.CodeGroupSubscribedToTopic, nil)
	res := &Result{Group: "g", Rows: []Row{{TopicPartition: tp("a", NoPartition), Err: unknown}, {TopicPartition: tp("b", 0)}, {TopicPartition: tp("c", 0), Err: subscribed}}}
	assert.Equal(t, []kafka.Failure{{Group: "g", Err: subscribed}}, res.Failures())
	res.Rows = res.Rows[:2]
	assert.Equal(t, []kafka.Failure{{Group: "g", Err: unknown}}, res.Failures())
	res.Rows = res.Rows[1:]
	assert.Empty(t, res.Failures())
	res.GroupErr = unknown
	assert.Equal(t, []kafka.Failure{{Group: "g", Err: unknown}}, res.Failures())
}
