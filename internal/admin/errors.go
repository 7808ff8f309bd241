package admin

import (
	"context"
	"errors"
	"fmt"

	"github.com/twmb/franz-go/pkg/kerr"
)

// Error categories. Typed errors match them with errors.Is, so callers never
// look at Kafka error codes.
var (
	// ErrGroupNotFound: the group does not exist or is not a streams group
	// (Kafka answers GROUP_ID_NOT_FOUND for both).
	ErrGroupNotFound = errors.New("group not found")
	// ErrNotAuthorized: an ACL refused the request.
	ErrNotAuthorized = errors.New("not authorized")
	// ErrUnavailable: the cluster or the coordinator could not be reached or
	// answered, within the timeout.
	ErrUnavailable = errors.New("cluster unavailable")
	// ErrBrokerTooOld: the broker does not speak the protocol version a
	// feature needs.
	ErrBrokerTooOld = errors.New("broker too old")
	// ErrDeletionFailed: the broker refused to delete a group.
	ErrDeletionFailed = errors.New("group deletion failed")
	// ErrMalformedResponse: the broker's answer broke the protocol's rules.
	ErrMalformedResponse = errors.New("malformed response")
)

// KafkaError is a Kafka error code returned for one group, with the broker's
// per-group ErrorMessage when it sent one.
type KafkaError struct {
	Code int16
	// Name is Kafka's error name, e.g. GROUP_ID_NOT_FOUND.
	Name string
	// Message is the broker's ErrorMessage, or Kafka's default text for the
	// code when the broker sent none.
	Message string
	// FromBroker tells whether Message came from the broker.
	FromBroker bool
}

// NewKafkaError builds the error for a non-zero code and an optional message.
func NewKafkaError(code int16, msg *string) *KafkaError {
	e := &KafkaError{Code: code}
	if ke, ok := kerr.ErrorForCode(code).(*kerr.Error); ok && (ke.Code == code) {
		e.Name, e.Message = ke.Message, ke.Description
	} else {
		e.Name, e.Message = fmt.Sprintf("UNKNOWN_ERROR_CODE_%d", code), "The broker answered with an error code this client does not know."
	}
	if msg != nil && *msg != "" {
		e.Message, e.FromBroker = *msg, true
	}
	return e
}

func (e *KafkaError) Error() string { return e.Name + ": " + e.Message }

// Is maps Kafka codes onto the error categories.
func (e *KafkaError) Is(target error) bool {
	switch target {
	case ErrGroupNotFound:
		return e.Code == kerr.GroupIDNotFound.Code
	case ErrNotAuthorized:
		return e.Code == kerr.GroupAuthorizationFailed.Code || e.Code == kerr.TopicAuthorizationFailed.Code ||
			e.Code == kerr.ClusterAuthorizationFailed.Code || e.Code == kerr.SaslAuthenticationFailed.Code
	case ErrUnavailable:
		return isCoordinatorRetriable(e.Code)
	case ErrBrokerTooOld:
		return e.Code == kerr.UnsupportedVersion.Code
	case ErrDeletionFailed:
		return e.Code == kerr.GroupDeletionFailed.Code || e.Code == kerr.NonEmptyGroup.Code
	}
	return false
}

// Retriable codes of group requests: find the coordinator again and retry.
func isCoordinatorRetriable(code int16) bool {
	return code == kerr.NotCoordinator.Code || code == kerr.CoordinatorNotAvailable.Code ||
		code == kerr.CoordinatorLoadInProgress.Code
}

// BrokerTooOldError says which broker lacks which protocol version.
type BrokerTooOldError struct {
	NodeID int32
	// API is the Kafka request name, e.g. StreamsGroupDescribe.
	API        string
	Need, Have int16
	// Feature explains what needs the version, for the user.
	Feature string
}

func (e *BrokerTooOldError) Error() string {
	have := fmt.Sprintf("only v%d", e.Have)
	if e.Have < 0 {
		have = "no version"
	}
	return fmt.Sprintf("%s: broker %d supports %s of %s, v%d is needed (Apache Kafka 4.4 or newer)", e.Feature, e.NodeID, have, e.API, e.Need)
}

// Is matches ErrBrokerTooOld.
func (e *BrokerTooOldError) Is(target error) bool { return target == ErrBrokerTooOld }

// UnavailableError wraps what kept a request from being answered: a network
// error, a coordinator error that outlived its retries, or the deadline.
type UnavailableError struct {
	// Op names what failed, e.g. "StreamsGroupDescribe".
	Op  string
	Err error
	// Last is the last retriable error seen before Err ended the retries.
	Last error
}

func (e *UnavailableError) Error() string {
	s := e.Op + ": " + e.Err.Error()
	if errors.Is(e.Err, context.DeadlineExceeded) {
		s = e.Op + ": timed out"
	}
	if e.Last != nil {
		s += " (last error: " + e.Last.Error() + ")"
	}
	return s
}

// Unwrap exposes the cause.
func (e *UnavailableError) Unwrap() error { return e.Err }

// Is matches ErrUnavailable.
func (e *UnavailableError) Is(target error) bool { return target == ErrUnavailable }

// MalformedError is a broker answer that breaks the protocol's rules.
type MalformedError struct{ Reason string }

func (e *MalformedError) Error() string { return "malformed response from the broker: " + e.Reason }

// Is matches ErrMalformedResponse.
func (e *MalformedError) Is(target error) bool { return target == ErrMalformedResponse }
