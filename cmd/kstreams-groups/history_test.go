package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The docs' table of history's exit codes is historyExitStatuses.
func TestREADMEHistoryExitCodes(t *testing.T) {
	t.Parallel()
	var want [][]string
	for _, s := range historyExitStatuses {
		want = append(want, []string{itoa(s.Code), s.Meaning})
	}
	assert.Equal(t, want, readmeTable(t, "history-exit-codes"))
}
