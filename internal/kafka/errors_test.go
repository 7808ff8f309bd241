package kafka

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

func TestClassify(t *testing.T) {
	code := func(c int16) *int16 { return &c }
	kafkaErr := func(c int16, name string) *Error { return &Error{Code: c, Name: name, Message: "m"} }
	tests := []struct {
		name string
		err  error
		want Class
	}{
		{"nil", nil, Class{}},
		{"not stored", &StatusError{Group: "g", Status: topology.NotStored}, Class{Category: NotStored, Name: "NOT_STORED"}},
		{"description error", &StatusError{Group: "g", Status: topology.Error}, Class{Category: DescriptionError, Name: "ERROR"}},
		{"not requested", &StatusError{Group: "g", Status: topology.NotRequested}, Class{Category: Failed, Name: "ERROR"}},
		{"group not found", kafkaErr(CodeGroupIDNotFound, "GROUP_ID_NOT_FOUND"), Class{Category: GroupNotFound, Name: "GROUP_ID_NOT_FOUND", Code: code(69)}},
		{"group authorization", kafkaErr(CodeGroupAuthorizationFailed, "GROUP_AUTHORIZATION_FAILED"), Class{Category: NotAuthorized, Name: "GROUP_AUTHORIZATION_FAILED", Code: code(30)}},
		{"topic authorization", kafkaErr(CodeTopicAuthorizationFailed, "TOPIC_AUTHORIZATION_FAILED"), Class{Category: NotAuthorized, Name: "TOPIC_AUTHORIZATION_FAILED", Code: code(29)}},
		{"cluster authorization", kafkaErr(CodeClusterAuthorizationFailed, "CLUSTER_AUTHORIZATION_FAILED"), Class{Category: NotAuthorized, Name: "CLUSTER_AUTHORIZATION_FAILED", Code: code(31)}},
		{"coordinator not available", kafkaErr(CodeCoordinatorNotAvailable, "COORDINATOR_NOT_AVAILABLE"), Class{Category: Unavailable, Name: "COORDINATOR_NOT_AVAILABLE", Code: code(15)}},
		{"unsupported version", kafkaErr(CodeUnsupportedVersion, "UNSUPPORTED_VERSION"), Class{Category: BrokerTooOld, Name: "UNSUPPORTED_VERSION", Code: code(35)}},
		{"deletion failed", kafkaErr(CodeGroupDeletionFailed, "GROUP_DELETION_FAILED"), Class{Category: NotDeleted, Name: "GROUP_DELETION_FAILED", Code: code(134)}},
		{"non-empty group", kafkaErr(CodeNonEmptyGroup, "NON_EMPTY_GROUP"), Class{Category: NotDeleted, Name: "NON_EMPTY_GROUP", Code: code(68)}},
		{"unknown server error", kafkaErr(CodeUnknownServerError, "UNKNOWN_SERVER_ERROR"), Class{Category: Failed, Name: "UNKNOWN_SERVER_ERROR", Code: code(-1)}},
		{"sasl", &ConnectError{Failure: AuthFailed, Err: errors.New("bad password")}, Class{Category: NotAuthorized, Name: "AUTHENTICATION_FAILED"}},
		{"tls", &ConnectError{Failure: TLSFailed, Err: errors.New("x509"), Hint: " (check)"}, Class{Category: Unavailable, Name: "TLS_FAILED"}},
		{"unavailable", &UnavailableError{Op: "x", Err: errors.New("refused")}, Class{Category: Unavailable, Name: "UNAVAILABLE"}},
		{"timed out", &UnavailableError{Op: "x", Err: context.DeadlineExceeded}, Class{Category: Unavailable, Name: "UNAVAILABLE"}},
		{"bare deadline", context.DeadlineExceeded, Class{Category: Unavailable, Name: "UNAVAILABLE"}},
		{"too old", &BrokerTooOldError{API: "StreamsGroupDescribe", Need: 1}, Class{Category: BrokerTooOld, Name: "BROKER_TOO_OLD"}},
		{"malformed", &MalformedError{Reason: "r"}, Class{Category: Failed, Name: "MALFORMED_RESPONSE"}},
		{"wrapped", fmt.Errorf("ctx: %w", kafkaErr(CodeGroupIDNotFound, "GROUP_ID_NOT_FOUND")), Class{Category: GroupNotFound, Name: "GROUP_ID_NOT_FOUND", Code: code(69)}},
		{"unavailable after a coordinator error", &UnavailableError{Op: "x", Err: context.DeadlineExceeded, Last: kafkaErr(CodeNotCoordinator, "NOT_COORDINATOR")}, Class{Category: Unavailable, Name: "UNAVAILABLE"}},
		{"group active", &RefusedError{Reason: RefusedActive, Group: "g", State: "Stable"}, Class{Category: GroupActive, Name: "GROUP_ACTIVE"}},
		{"became active", &RefusedError{Reason: RefusedActive, Group: "g", Cause: kafkaErr(CodeUnknownMemberID, "UNKNOWN_MEMBER_ID")}, Class{Category: GroupActive, Name: "GROUP_ACTIVE"}},
		{"subscribed to topic", kafkaErr(CodeGroupSubscribedToTopic, "GROUP_SUBSCRIBED_TO_TOPIC"), Class{Category: GroupActive, Name: "GROUP_SUBSCRIBED_TO_TOPIC", Code: code(86)}},
		{"no reset plan", &RefusedError{Reason: RefusedNoPlan, Group: "g", FromFile: true}, Class{Category: NoResetPlan, Name: "NO_RESET_PLAN"}},
		{"not internal", &RefusedError{Reason: RefusedNotInternal, Group: "g", Topics: []string{"t"}}, Class{Category: NotInternalTopic, Name: "NOT_INTERNAL_TOPIC"}},
		{"config refused", kafkaErr(CodeInvalidConfig, "INVALID_CONFIG"), Class{Category: ConfigRefused, Name: "INVALID_CONFIG", Code: code(40)}},
		{"anything else", errors.New("boom"), Class{Category: Failed, Name: "ERROR"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Classify(tc.err)
			if tc.err != nil {
				tc.want.Message = tc.err.Error()
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestErrorTexts(t *testing.T) {
	assert.Equal(t, "x: timed out (last error: NOT_COORDINATOR: m)", (&UnavailableError{Op: "x", Err: context.DeadlineExceeded, Last: &Error{Name: "NOT_COORDINATOR", Message: "m"}}).Error())
	assert.Equal(t, "topology descriptions: broker 2 supports only v0 of StreamsGroupDescribe, v1 is needed (Apache Kafka 4.4 or newer)",
		(&BrokerTooOldError{NodeID: 2, API: "StreamsGroupDescribe", Need: 1, Have: 0, Feature: "topology descriptions"}).Error())
	assert.Equal(t, "TLS connection failed: x509 (check ssl.truststore.*)", (&ConnectError{Failure: TLSFailed, Err: errors.New("x509"), Hint: " (check ssl.truststore.*)"}).Error())
	assert.Equal(t, "authentication failed: bad", (&ConnectError{Failure: AuthFailed, Err: errors.New("bad")}).Error())
	assert.Equal(t, "topology description of streams group 'g' is NOT_STORED", (&StatusError{Group: "g", Status: topology.NotStored}).Error())
}

func TestRefusedErrorTexts(t *testing.T) {
	assert.Equal(t, "the offsets of streams group 'g' can only be changed while it is Empty, but its state is Stable",
		(&RefusedError{Reason: RefusedActive, Group: "g", State: "Stable"}).Error())
	assert.Equal(t, "streams group 'g' became active before its offsets were committed, so the broker refused the commit (UNKNOWN_MEMBER_ID: m); nothing was committed",
		(&RefusedError{Reason: RefusedActive, Group: "g", Cause: &Error{Name: "UNKNOWN_MEMBER_ID", Message: "m"}}).Error())
	assert.Equal(t, "--from-file has no reset plan for streams group 'g'", (&RefusedError{Reason: RefusedNoPlan, Group: "g", FromFile: true}).Error())
	assert.Equal(t, "streams group 'g' has no committed offset for t-2, t-3, so nothing was reset",
		(&RefusedError{Reason: RefusedNoPlan, Group: "g", Topics: []string{"t-2", "t-3"}}).Error())
	assert.Equal(t, "--delete-internal-topic 'side' is not an internal topic of streams group 'g' (its internal topics: 'g-a-changelog'); nothing was changed",
		(&RefusedError{Reason: RefusedNotInternal, Group: "g", Topics: []string{"side"}, Internal: []string{"g-a-changelog"}}).Error())
	assert.Equal(t, "--delete-internal-topic 'a', 'b' are not internal topics of streams group 'g' (its internal topics: none); nothing was changed",
		(&RefusedError{Reason: RefusedNotInternal, Group: "g", Topics: []string{"a", "b"}}).Error())
	assert.ErrorIs(t, &RefusedError{Reason: RefusedActive, Cause: ErrUnavailable}, ErrUnavailable, "the cause is exposed")
}

// Failures keeps, in order, the items that failed, with their group.
func TestFailures(t *testing.T) {
	type item struct {
		id  string
		err error
	}
	boom, bang := errors.New("boom"), errors.New("bang")
	items := []item{{"a", nil}, {"b", boom}, {"c", nil}, {"d", bang}}
	got := Failures(items, func(i item) (string, error) { return i.id, i.err })
	assert.Equal(t, []Failure{{Group: "b", Err: boom}, {Group: "d", Err: bang}}, got)
	assert.Nil(t, Failures(items[:1], func(i item) (string, error) { return i.id, i.err }))
}
