package kafka

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParseState(t *testing.T) {
	for _, s := range States {
		got, ok := ParseState(string(s))
		assert.True(t, ok)
		assert.Equal(t, s, got)
	}
	got, ok := ParseState("notready")
	assert.True(t, ok)
	assert.Equal(t, StateNotReady, got)
	_, ok = ParseState("not_ready")
	assert.False(t, ok, "the broker's filter spelling is not a state name")
	assert.Equal(t, []string{"Empty", "NotReady", "Stable", "Assigning", "Reconciling", "Dead"}, StateNames())
}
