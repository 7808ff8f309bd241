package kafka

import (
	"slices"
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

func TestCompareSubtopologyIDs(t *testing.T) {
	ids := []string{"b", "10", "2", "a", "01", "1"}
	slices.SortFunc(ids, CompareSubtopologyIDs)
	assert.Equal(t, []string{"01", "1", "2", "10", "a", "b"}, ids)
}
