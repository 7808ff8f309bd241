package playground

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestRPCs keeps the registration table honest: Kafka's names, a handler
// per key, a key every profile advertises and kmsg decodes.
func TestRPCs(t *testing.T) {
	t.Parallel()
	for key, r := range rpcs() {
		assert.Equal(t, kmsg.NameForKey(key), r.name, "key %d", key)
		assert.NotNil(t, r.handle, "key %d (%s)", key, r.name)
		assert.NotNil(t, kmsg.RequestForKey(key), "key %d (%s)", key, r.name)
		for _, p := range Profiles() {
			vs, err := p.versions()
			if assert.NoError(t, err) {
				_, ok := vs.LookupMaxKeyVersion(key)
				assert.True(t, ok, "profile %s does not advertise key %d (%s)", p, key, r.name)
			}
		}
	}
	assert.Regexp(t, `^(\d+, )*\d+ or \d+$`, stateFaultKeys(), "as in 9, 10, 16, 42 or 89")
}

// TestRPCs_StateDoc keeps the faults table of STATE.md in step with the
// keys a state file may fault.
func TestRPCs_StateDoc(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("STATE.md")
	require.NoError(t, err)
	var row string
	for _, l := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(l, "| `key` |") {
			row = l
		}
	}
	require.NotEmpty(t, row, "STATE.md has no faults key row")
	for key, r := range rpcs() {
		if r.stateFaults {
			assert.Contains(t, row, fmt.Sprintf("`%d`", key), "STATE.md: faults key %d (%s)", key, r.name)
			assert.Contains(t, row, fmt.Sprintf("%d %s", key, r.name), "STATE.md: what a fault of key %d (%s) does", key, r.name)
		}
	}
}
