package playground

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestRPCs keeps the registration table honest: Kafka's names, a handler
// per key, a key every profile advertises and kmsg decodes.
func TestRPCs(t *testing.T) {
	t.Parallel()
	for key, r := range rpcs {
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
	assert.Equal(t, "9, 10, 16, 42 or 89", stateFaultKeys(), "STATE.md lists these keys under faults")
}
