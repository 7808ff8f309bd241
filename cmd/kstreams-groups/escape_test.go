package main

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kstreams-groups/kstreams-groups/internal/playground"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// hostileTopology names every node, topic and store with a string that
// would take over a terminal if printed raw.
func hostileTopology() *topology.Description {
	return tt.Desc([]*topology.Subtopology{tt.Sub("0\x1b[2J",
		tt.Src("src\x1b]0;owned\x07", []string{"in\rOVERWRITTEN"}, "proc\n   Sub-topology: 99"),
		tt.Proc("proc\n   Sub-topology: 99", []string{"store\u009b31m"}, "sink"),
		tt.Sink("sink", "out\x1b[8m"))})
}

// controlChars lists the control characters in s other than line feeds.
func controlChars(s string) []rune {
	var out []rune
	for _, r := range s {
		if r < 0x20 && r != '\n' || r >= 0x7f && r <= 0x9f {
			out = append(out, r)
		}
	}
	return out
}

// Through the test broker, end to end: hostile group, node, topic and store
// names and a hostile broker error message never put a control character
// on stdout or stderr, while the ordinary group prints Kafka's exact text.
func TestHostileNames(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := startCluster(t, 1, playground.Kafka44)
	c.PutStreamsGroup(streamsGroup("word-count", tt.WordCount()))
	c.PutStreamsGroup(streamsGroup("evil\x1b]0;owned\x07", hostileTopology()))
	c.PutStreamsGroup(streamsGroup("not-stored\r\x1b[K", nil))
	msg := "boom\x1b[31m\r\nError: fake line"
	c.InjectError(playground.Fault{Key: keyStreamsGroupDescribe, Group: "bad\x1b[2J", ErrorCode: 69, ErrorMessage: &msg, Node: playground.AnyNode})
	c.PutStreamsGroup(streamsGroup("bad\x1b[2J", nil))

	r := runCLI(t, "--bootstrap-server", bootstrap(c), "--describe", "--topology", "--all-groups")
	assert.Equal(t, 1, r.code)
	assert.Empty(t, controlChars(r.stdout), "stdout: %q", r.stdout)
	assert.Empty(t, controlChars(r.stderr), "stderr: %q", r.stderr)
	// The topology text uses backslash escapes only, so that it reads back.
	assert.Contains(t, r.stdout, "Streams group 'evil^[]0;owned^G':\nTopologies:\n   Sub-topology: 0\\x1b[2J\n"+
		"    Source: src\\x1b]0;owned\\x07 (topics: [in\\rOVERWRITTEN])\n"+
		"      --> proc\\n   Sub-topology: 99\n"+
		"    Processor: proc\\n   Sub-topology: 99 (stores: [store\\u009b31m])\n")
	assert.Contains(t, r.stdout, "\nError: No topology description is stored for streams group 'not-stored\\r^[[K'.\n")
	assert.Equal(t, "Error: streams group 'bad^[[2J': GROUP_ID_NOT_FOUND: boom^[[31m\\r\\nError: fake line\n", r.stderr)

	r = runCLI(t, "--bootstrap-server", bootstrap(c), "--describe", "--topology", "--group", "word-count")
	assert.Equal(t, result{stdout: wordCountText}, r, "ordinary names are byte-identical")
}

// The offset verbs, end to end: a hostile group, input topic and internal
// topics reach stdout and stderr escaped, in the plan, the
// clamping warnings, the commit and deletion notes, the refusal of
// --delete-internal-topic and the delete-offsets table.
func TestHostileNames_offsetVerbs(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := startCluster(t, 1, playground.Kafka44)
	const (
		group     = "evil\x1b]0;owned\x07"
		topic     = "in\x1b[2J\u202e"
		changelog = group + "-s\x1b[K-changelog"
	)
	c.PutTopic(topic, 1)
	c.PutTopic(changelog, 1)
	c.PutStreamsGroup(playground.StreamsGroup{ID: group, State: "Empty", Topology: &playground.Topology{Subtopologies: []playground.Subtopology{{
		ID: "0", SourceTopics: []string{topic}, StateChangelogTopics: []playground.TopicInfo{{Name: changelog}, {Name: "x\x1b[31m-changelog"}}}}}})
	c.SetLogOffsets(topic, 0, 0, 10)
	c.Commit(group, playground.Committed{Topic: topic, Partition: 0, Offset: 3, LeaderEpoch: -1})

	const escGroup, escTopic = "evil^[]0;owned^G", `in^[[2J\u202e`
	reset := []string{"--reset-offsets", "--group", group, "--all-input-topics"}

	// --export is the exception: its CSV holds the exact bytes, so that
	// --from-file reads back the same topic (issue 19), and only into a
	// file or a pipe (a terminal gets a usage error instead:
	// TestResetOffsets_exportToATerminal). Its stderr is escaped as ever.
	r := runCLI(t, append([]string{"--bootstrap-server", bootstrap(c)}, append(reset, "--to-offset", "100", "--dry-run", "--export")...)...)
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "\""+topic+"\",0,10\n\n", r.stdout)
	assert.Equal(t, "Warn: New offset (100) is higher than latest offset for topic partition "+escTopic+"-0. Value will be set to 10.\n", r.stderr)

	for _, tc := range []struct {
		args     []string
		wantCode int
		want     string // escaped, in stdout or stderr
	}{
		{append(reset, "--to-offset", "100", "--dry-run"), 0, "topic partition " + escTopic + "-0. Value will be set to 10."},
		{append(reset, "--to-earliest", "--execute", "--delete-internal-topic", "side\x1b[2J"), 1, "--delete-internal-topic 'side^[[2J' is not an internal topic of streams group '" + escGroup + "'"},
		{append(reset, "--to-earliest", "--execute", "--delete-all-internal-topics"), 0, "Deleted the internal topics of streams group '" + escGroup + "': '" + escGroup + "-s^[[K-changelog'."},
		{[]string{"--delete-offsets", "--group", group, "--input-topic", topic, "--input-topic", "nosuch\x1b[1m"}, 1, "\nnosuch^[[1m     -          Error: "},
	} {
		r := runCLI(t, append([]string{"--bootstrap-server", bootstrap(c)}, tc.args...)...)
		assert.Equal(t, tc.wantCode, r.code, "%q: %s", tc.args, r.stderr)
		assert.Contains(t, r.stdout+r.stderr, tc.want, "%q", tc.args)
		assert.Empty(t, controlChars(r.stdout), "stdout: %q", r.stdout)
		assert.Empty(t, controlChars(r.stderr), "stderr: %q", r.stderr)
	}

}
