package format_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/upgrade"
)

// A group id, a file name and a broker's message reach the terminal
// escaped, in the step lines, the end of an apply run and verify's text.
func TestUpgradeApplyText_escapes(t *testing.T) {
	t.Parallel()
	evil := "g\x1b[2J\r\n"
	res := &upgrade.ApplyResult{Group: evil, New: "new\x1b.txt", Execute: true, Export: "f\x07.csv", Stopped: upgrade.StoppedDeleted,
		Err:   errors.New("broker says \x1b[31mred"),
		Steps: []upgrade.Step{{Kind: upgrade.StepExport, Done: true, Detail: "written to f\x07.csv"}, {Kind: upgrade.StepCommit, Err: errors.New("\x1b]8;;x")}}}
	var b bytes.Buffer
	for _, s := range res.Steps {
		b.WriteString(format.UpgradeStepLine(s, format.NewStyles(false)))
	}
	require.NoError(t, format.UpgradeApplyText(&b, res, format.NewStyles(false)))
	for _, line := range format.UpgradeApplyNext(res) {
		b.WriteString(line + "\n")
	}
	v := &upgrade.VerifyResult{Group: evil, Outcome: upgrade.VerifyFailed, Type: "streams", State: "Stable\x1b", Reason: "x\x1by",
		OldTopics: []string{"t\x1b"}, StaleOffsets: []kafka.TopicPartition{{Topic: "s\x1b", Partition: 1}},
		Backwards: []upgrade.OffsetDiff{{TopicPartition: kafka.TopicPartition{Topic: "b\x1b"}, Want: 4, Got: -1}}, Checked: 1}
	require.NoError(t, format.UpgradeVerifyText(&b, v, format.NewStyles(false)))
	out := b.String()
	assert.NotContains(t, out, "\x1b")
	assert.NotContains(t, out, "\x07")
	assert.NotContains(t, out, "\r")
	assert.Contains(t, out, "To finish: kstreams-groups upgrade apply --resume ")
	for _, line := range strings.Split(out, "\n") {
		assert.False(t, strings.HasPrefix(line, "[2J"), "a name's line feed split a line: %q", line)
	}
}
