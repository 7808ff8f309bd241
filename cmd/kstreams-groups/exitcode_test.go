package main

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

func TestExitCodeFor(t *testing.T) {
	t.Parallel()
	notFound := admin.NewKafkaError(69, nil)
	tests := []struct {
		name             string
		err              error
		want, wantDetail int
	}{
		{"success", nil, 0, 0},
		{"usage", usageErrorf("bad"), 2, 2},
		{"wrapped usage", fmt.Errorf("x: %w", usageErrorf("bad")), 2, 2},
		{"not stored", &outcomeError{causes: []error{&kafka.StatusError{Group: "g", Status: topology.NotStored}}}, 1, 3},
		{"error status", &outcomeError{causes: []error{&kafka.StatusError{Group: "g", Status: topology.Error}}}, 1, 4},
		{"not requested status", &outcomeError{causes: []error{&kafka.StatusError{Group: "g", Status: topology.NotRequested}}}, 1, 1},
		{"group not found", &outcomeError{causes: []error{notFound}}, 1, 5},
		{"group authorization", admin.NewKafkaError(30, nil), 1, 6},
		{"topic authorization", admin.NewKafkaError(29, nil), 1, 6},
		{"coordinator unavailable", admin.NewKafkaError(15, nil), 1, 7},
		{"timed out", &kafka.UnavailableError{Op: "x", Err: context.DeadlineExceeded}, 1, 7},
		{"bare deadline", context.DeadlineExceeded, 1, 7},
		{"broker too old", &kafka.BrokerTooOldError{API: "StreamsGroupDescribe", Need: 1, Have: 0}, 1, 8},
		{"unsupported version code", admin.NewKafkaError(35, nil), 1, 8},
		{"deletion failed", admin.NewKafkaError(134, nil), 1, 9},
		{"non-empty group", admin.NewKafkaError(68, nil), 1, 9},
		{"malformed", &kafka.MalformedError{Reason: "x"}, 1, 1},
		{"group active", &outcomeError{causes: []error{&kafka.RefusedError{Reason: kafka.RefusedActive, Group: "g", State: "Stable"}}}, 1, 10},
		{"group became active", &kafka.RefusedError{Reason: kafka.RefusedActive, Group: "g", Cause: admin.NewKafkaError(25, nil)}, 1, 10},
		{"subscribed to the topic", admin.NewKafkaError(86, nil), 1, 10},
		{"no reset plan", &kafka.RefusedError{Reason: kafka.RefusedNoPlan, Group: "g", FromFile: true}, 1, 11},
		{"not an internal topic", &kafka.RefusedError{Reason: kafka.RefusedNotInternal, Group: "g", Topics: []string{"t"}}, 1, 12},
		{"config refused", admin.NewKafkaError(40, nil), 1, 13},
		{"unknown server error", admin.NewKafkaError(-1, nil), 1, 1},
		{"anything else", fmt.Errorf("boom"), 1, 1},
		{
			"first failing group in request order wins",
			&outcomeError{causes: []error{&kafka.StatusError{Group: "a", Status: topology.Error}, notFound, &kafka.StatusError{Group: "c", Status: topology.NotStored}}},
			1, 4,
		},
		{
			"first failing group is an error",
			&outcomeError{causes: []error{notFound, &kafka.StatusError{Group: "b", Status: topology.Error}}},
			1, 5,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, exitCodeFor(tc.err, false), "default mode")
			assert.Equal(t, tc.wantDetail, exitCodeFor(tc.err, true), "--detailed-exit-codes")
		})
	}
}

// The README's exit status table must say what the code does.
func TestREADMEExitCodes(t *testing.T) {
	t.Parallel()
	s := readDocs(t)
	start, end := strings.Index(s, "<!-- exit-codes:start -->"), strings.Index(s, "<!-- exit-codes:end -->")
	require.True(t, start >= 0 && end > start, "README lacks the exit-codes markers")
	row := regexp.MustCompile(`^\|\s*(\d+)\s*\|\s*(default|detailed)\s*\|\s*(.+?)\s*\|$`)
	var got []exitStatus
	for _, line := range strings.Split(s[start:end], "\n") {
		m := row.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		code, _ := strconv.Atoi(m[1])
		got = append(got, exitStatus{Code: code, Detailed: m[2] == "detailed", Meaning: m[3]})
	}
	assert.Equal(t, exitStatuses, got, "README exit status table and exitStatuses differ")
	assert.Len(t, exitStatuses, 16)
	signals := exitStatuses[len(exitStatuses)-2:] // 128 + the signal, last
	assert.Equal(t, []int{130, 143}, []int{signals[0].Code, signals[1].Code})
	for i, s := range exitStatuses[:len(exitStatuses)-2] {
		assert.Equal(t, i, s.Code, "codes are listed in order without gaps")
	}
	assert.Equal(t, []int{exitOK, exitFailure, exitUsage, exitNotStored, exitDescError, exitNotFound, exitNotAuthorized, exitUnavailable, exitTooOld, exitNotDeleted, exitGroupActive, exitNoResetPlan, exitNotInternal, exitConfigRefused},
		[]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13})
}
