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
	assert.Contains(t, r.stdout, "Streams group 'evil^[]0;owned^G':\nTopologies:\n   Sub-topology: 0^[[2J\n"+
		"    Source: src^[]0;owned^G (topics: [in\\rOVERWRITTEN])\n"+
		"      --> proc\\n   Sub-topology: 99\n"+
		"    Processor: proc\\n   Sub-topology: 99 (stores: [store\\u009b31m])\n")
	assert.Contains(t, r.stdout, "\nError: No topology description is stored for streams group 'not-stored\\r^[[K'.\n")
	assert.Equal(t, "Error: streams group 'bad^[[2J': GROUP_ID_NOT_FOUND: boom^[[31m\\r\\nError: fake line\n", r.stderr)

	r = runCLI(t, "--bootstrap-server", bootstrap(c), "--describe", "--topology", "--group", "word-count")
	assert.Equal(t, result{stdout: wordCountText}, r, "ordinary names are byte-identical")
}
