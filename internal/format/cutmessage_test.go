package format

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

// TestCutMessage: a document's message is cut as EscapeMessage cuts one,
// but not escaped (the document's encoder escapes it), the note naming
// where it is whole.
func TestCutMessage(t *testing.T) {
	assert.Equal(t, "short \x1b", CutMessage("short \x1b", "elsewhere"))
	exact := strings.Repeat("é", MaxMessage)
	assert.Equal(t, exact, CutMessage(exact, "elsewhere"))

	long := strings.Repeat("\x1b", 999) + "é" + strings.Repeat("y", 4<<20)
	got := CutMessage(long, "check -o json shows it whole")
	assert.Equal(t, strings.Repeat("\x1b", 999)+"é [cut: the message has 4195304 characters; check -o json shows it whole]", got)
	assert.True(t, utf8.ValidString(got))
}
