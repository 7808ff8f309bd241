package topology

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseStatus(t *testing.T) {
	for b, want := range map[int8]string{0: "NOT_REQUESTED", 1: "NOT_STORED", 2: "ERROR", 3: "AVAILABLE"} {
		s, err := ParseStatus(b)
		require.NoError(t, err)
		assert.Equal(t, want, s.String())
	}
	for _, b := range []int8{4, -1, 127} {
		_, err := ParseStatus(b)
		assert.ErrorContains(t, err, "Unknown topology description status")
	}
}

func TestParseKind(t *testing.T) {
	for name, want := range map[string]Kind{"source": Source, "processor": Processor, "sink": Sink} {
		k, err := ParseKind(name)
		require.NoError(t, err)
		assert.Equal(t, want, k)
		assert.Equal(t, name, k.String())
	}
	_, err := ParseKind("widget")
	assert.EqualError(t, err, `unknown node type "widget" (want source, processor or sink)`)
}
