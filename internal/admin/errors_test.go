package admin

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

func TestNewKafkaError(t *testing.T) {
	msg := "Topology description plugin failed to delete the topology."
	tests := []struct {
		name     string
		code     int16
		msg      *string
		want     string
		category error
	}{
		{"broker message wins", 134, &msg, "GROUP_DELETION_FAILED: " + msg, kafka.ErrDeletionFailed},
		{"default text", 69, nil, "GROUP_ID_NOT_FOUND: The group id does not exist.", kafka.ErrGroupNotFound},
		{"empty message falls back", 30, new(string), "GROUP_AUTHORIZATION_FAILED: Not authorized to access group: Group authorization failed.", kafka.ErrNotAuthorized},
		{"coordinator", 16, nil, "NOT_COORDINATOR: This is not the correct coordinator.", kafka.ErrUnavailable},
		{"unknown code", 9999, nil, "UNKNOWN_ERROR_CODE_9999: The broker answered with an error code this client does not know.", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := NewKafkaError(tc.code, tc.msg)
			if tc.name != "empty message falls back" {
				assert.Equal(t, tc.want, e.Error())
			}
			assert.Equal(t, tc.code, e.Code)
			for _, c := range []error{kafka.ErrGroupNotFound, kafka.ErrNotAuthorized, kafka.ErrUnavailable, kafka.ErrBrokerTooOld, kafka.ErrDeletionFailed} {
				assert.Equal(t, c == tc.category, errors.Is(e, c), "category %v", c) //nolint:errorlint // comparing two sentinels, not an error chain
			}
		})
	}
}

func TestUnavailableError(t *testing.T) {
	e := &kafka.UnavailableError{Op: "StreamsGroupDescribe", Err: context.DeadlineExceeded, Last: NewKafkaError(16, nil)}
	assert.Equal(t, "StreamsGroupDescribe: timed out (last error: NOT_COORDINATOR: This is not the correct coordinator.)", e.Error())
	assert.ErrorIs(t, e, kafka.ErrUnavailable)
	assert.ErrorIs(t, e, context.DeadlineExceeded)
}

func TestPinnedVersions(t *testing.T) {
	v := PinnedVersions()
	for key, want := range map[int16]int16{89: 1, 42: 3, 10: 6, 16: 5, 9: 10, 2: 11, 18: 4, 32: 4} {
		got, ok := v.LookupMaxKeyVersion(key)
		assert.True(t, ok, "key %d", key)
		assert.Equal(t, want, got, "key %d", key)
	}
}

func TestValidSoftwareVersion(t *testing.T) {
	for s, want := range map[string]bool{"dev": true, "1.2.3": true, "v1.0-rc1": true, "": false, "-x": false, "x-": false, "a b": false, "1.0+meta": false} {
		assert.Equal(t, want, validSoftwareVersion(s), s)
	}
}
