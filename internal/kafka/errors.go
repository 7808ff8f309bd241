package kafka

import (
	"context"
	"errors"
	"fmt"

	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// Category is what kind of failure an error is. Classify decides it, and
// both the exit code (cmd) and the documents' error names (format) come
// from it, so the two can never disagree.
type Category int

// The categories, one per detailed exit code.
const (
	// Failed is any failure not listed below.
	Failed Category = iota
	// NotStored: a topology description is NOT_STORED.
	NotStored
	// DescriptionError: a topology description is ERROR (the plugin failed).
	DescriptionError
	// GroupNotFound: no such group, or not a streams group.
	GroupNotFound
	// NotAuthorized: an ACL or SASL refused the request.
	NotAuthorized
	// Unavailable: the cluster or coordinator could not be reached or did
	// not answer in time.
	Unavailable
	// BrokerTooOld: the broker lacks the protocol version a request needs.
	BrokerTooOld
	// NotDeleted: a group could not be deleted.
	NotDeleted
	// GroupActive: offsets were not changed because the group has members
	// (RefusedError RefusedActive, or GROUP_SUBSCRIBED_TO_TOPIC).
	GroupActive
	// NoResetPlan: nothing could be planned for a group (RefusedNoPlan).
	NoResetPlan
	// NotInternalTopic: --delete-internal-topic named a topic that is not
	// an internal topic of the group (RefusedNotInternal).
	NotInternalTopic
	// ConfigRefused: the broker refused a group config change
	// (INVALID_CONFIG: a value outside its bounds); nothing was changed.
	ConfigRefused
)

// Sentinels for errors.Is, one per category the typed errors map onto.
var (
	// ErrGroupNotFound: the group does not exist or is not a streams group
	// (Kafka answers GROUP_ID_NOT_FOUND for both).
	ErrGroupNotFound = errors.New("group not found")
	// ErrNotAuthorized: an ACL refused the request, or SASL failed.
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
	// ErrGroupActive: the group has members, so its offsets were left alone.
	ErrGroupActive = errors.New("group is active")
	// ErrNoResetPlan: nothing could be planned for the group.
	ErrNoResetPlan = errors.New("no reset plan")
	// ErrNotInternalTopic: a topic to delete is not an internal topic of the
	// group.
	ErrNotInternalTopic = errors.New("not an internal topic")
	// ErrConfigRefused: the broker refused a group config change.
	ErrConfigRefused = errors.New("config change refused")
)

// Class is the classification of one error.
type Class struct {
	Category Category
	// Name is Kafka's error name when Kafka answered a code (for example
	// GROUP_ID_NOT_FOUND), else the name of the kind of failure:
	// NOT_STORED, ERROR (also for a description ERROR), UNAVAILABLE,
	// BROKER_TOO_OLD, MALFORMED_RESPONSE, AUTHENTICATION_FAILED,
	// TLS_FAILED.
	Name string
	// Code is Kafka's error code, when Kafka answered one.
	Code *int16
	// Message is the error's text.
	Message string
}

// Classify is the one classification of an error, for exit codes and
// documents. nil classifies as a zero Class.
func Classify(err error) Class {
	if err == nil {
		return Class{}
	}
	c := Class{Category: Failed, Name: "ERROR", Message: err.Error()}
	var (
		se *StatusError
		ke *Error
		ce *ConnectError
		re *RefusedError
	)
	switch {
	case errors.As(err, &se):
		switch se.Status {
		case topology.NotStored:
			c.Category, c.Name = NotStored, "NOT_STORED"
		case topology.Error:
			c.Category = DescriptionError
		}
		return c
	case errors.As(err, &re):
		c.Name = re.Reason.name()
	case errors.As(err, &ke):
		code := ke.Code
		c.Code, c.Name = &code, ke.Name
	case errors.As(err, &ce):
		c.Name = ce.Failure.name()
	case errors.Is(err, ErrBrokerTooOld):
		c.Name = "BROKER_TOO_OLD"
	case errors.Is(err, ErrUnavailable), errors.Is(err, context.DeadlineExceeded):
		c.Name = "UNAVAILABLE"
	case errors.Is(err, ErrMalformedResponse):
		c.Name = "MALFORMED_RESPONSE"
	}
	for _, m := range categories {
		if errors.Is(err, m.err) {
			c.Category = m.category
			break
		}
	}
	return c
}

// categories map the sentinels onto the categories, the first match
// counting.
var categories = []struct {
	err      error
	category Category
}{
	{ErrGroupNotFound, GroupNotFound},
	{ErrNotAuthorized, NotAuthorized},
	{ErrBrokerTooOld, BrokerTooOld},
	{ErrUnavailable, Unavailable},
	{context.DeadlineExceeded, Unavailable},
	{ErrDeletionFailed, NotDeleted},
	{ErrGroupActive, GroupActive},
	{ErrNoResetPlan, NoResetPlan},
	{ErrNotInternalTopic, NotInternalTopic},
	{ErrConfigRefused, ConfigRefused},
}

// Kafka error codes the categories and the verbs name.
const (
	CodeUnknownServerError         int16 = -1 // UNKNOWN_SERVER_ERROR
	CodeUnknownTopicOrPartition    int16 = 3
	CodeLeaderNotAvailable         int16 = 5
	CodeCoordinatorLoadInProgress  int16 = 14
	CodeCoordinatorNotAvailable    int16 = 15
	CodeNotCoordinator             int16 = 16
	CodeIllegalGeneration          int16 = 22
	CodeInvalidGroupID             int16 = 24
	CodeUnknownMemberID            int16 = 25
	CodeRebalanceInProgress        int16 = 27
	CodeTopicAuthorizationFailed   int16 = 29
	CodeGroupAuthorizationFailed   int16 = 30
	CodeClusterAuthorizationFailed int16 = 31
	CodeUnsupportedVersion         int16 = 35
	CodeInvalidConfig              int16 = 40
	CodeSaslAuthenticationFailed   int16 = 58
	CodeNonEmptyGroup              int16 = 68
	CodeGroupIDNotFound            int16 = 69
	CodeGroupSubscribedToTopic     int16 = 86
	CodeStaleMemberEpoch           int16 = 113
	CodeGroupDeletionFailed        int16 = 134
)

// Error is a Kafka error code answered for one group (or partition), with
// the broker's ErrorMessage when it sent one.
type Error struct {
	Code int16
	// Name is Kafka's error name, e.g. GROUP_ID_NOT_FOUND.
	Name string
	// Message is the broker's ErrorMessage, or Kafka's default text for the
	// code when the broker sent none.
	Message string
	// FromBroker tells whether Message came from the broker.
	FromBroker bool
}

func (e *Error) Error() string { return e.Name + ": " + e.Message }

// Is maps Kafka codes onto the error categories.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrGroupNotFound:
		return e.Code == CodeGroupIDNotFound
	case ErrNotAuthorized:
		return e.Code == CodeGroupAuthorizationFailed || e.Code == CodeTopicAuthorizationFailed ||
			e.Code == CodeClusterAuthorizationFailed || e.Code == CodeSaslAuthenticationFailed
	case ErrUnavailable:
		return IsCoordinatorRetriable(e.Code)
	case ErrBrokerTooOld:
		return e.Code == CodeUnsupportedVersion
	case ErrDeletionFailed:
		return e.Code == CodeGroupDeletionFailed || e.Code == CodeNonEmptyGroup
	case ErrGroupActive:
		return e.Code == CodeGroupSubscribedToTopic
	case ErrConfigRefused:
		return e.Code == CodeInvalidConfig
	}
	return false
}

// IsCoordinatorRetriable tells the codes of group requests that mean: find
// the coordinator again and retry.
func IsCoordinatorRetriable(code int16) bool {
	return code == CodeNotCoordinator || code == CodeCoordinatorNotAvailable || code == CodeCoordinatorLoadInProgress
}

// StatusError is a topology description that is not AVAILABLE, a failure
// of --describe --topology.
type StatusError struct {
	Group  string
	Status topology.Status
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("topology description of streams group '%s' is %s", e.Group, e.Status)
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

// UnsupportedAPIError is a request the broker's ApiVersions answer does not
// offer (or offers at no version the client speaks): nothing was sent, and
// no retry can change that.
type UnsupportedAPIError struct {
	// Broker is the host:port asked, "" when unknown.
	Broker string
	// API is the Kafka request name, e.g. DescribeConfigs.
	API string
	// Offered tells that the broker lists the request, at versions
	// Min..Max none of which the client speaks.
	Offered  bool
	Min, Max int16
}

func (e *UnsupportedAPIError) Error() string {
	broker := "the broker"
	if e.Broker != "" {
		broker = "broker " + e.Broker
	}
	api := e.API
	if api == "" {
		api = "the request"
	}
	if e.Offered {
		return fmt.Sprintf("%s: %s offers only v%d-v%d of %s, none of which this client speaks; nothing was sent", e.API, broker, e.Min, e.Max, api)
	}
	return fmt.Sprintf("%s: %s does not offer %s (its ApiVersions answer leaves it out); nothing was sent", e.API, broker, api)
}

// Is matches ErrBrokerTooOld: the broker lacks what the request needs.
func (e *UnsupportedAPIError) Is(target error) bool { return target == ErrBrokerTooOld }

// UnavailableError wraps what kept a request from being answered: a network
// error, a coordinator error that outlived its retries, or the deadline.
type UnavailableError struct {
	// Op names what failed, e.g. "StreamsGroupDescribe".
	Op  string
	Err error
	// Last is the last retriable error seen before Err ended the retries.
	Last error
	// Stuck says, when the deadline ended it, the step that was stuck
	// ("connecting to h:p (TCP…)", "waiting for h:p to answer ApiVersions
	// v4…"): often not Op itself but the connection under it.
	Stuck string
}

func (e *UnavailableError) Error() string {
	s := e.Op + ": " + e.Err.Error()
	if errors.Is(e.Err, context.DeadlineExceeded) {
		s = e.Op + ": timed out"
		if e.Stuck != "" {
			s += " " + e.Stuck
		}
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

// ProtocolError is an answer that breaks Kafka's wire protocol: a frame
// size that is negative or over the client's limit, a correlation id that
// does not match the request, a body that ends before its message does.
// No retry can fix a broker that sends it, so it is reported at once, as a
// MALFORMED_RESPONSE.
type ProtocolError struct {
	// Broker is the broker's host:port, "" when unknown.
	Broker string
	// API names the request answered, e.g. "StreamsGroupDescribe v1"; ""
	// when unknown.
	API string
	// Reason says what was wrong.
	Reason string
}

func (e *ProtocolError) Error() string {
	to := ""
	if e.API != "" {
		to = " to " + e.API
	}
	return "invalid response from " + brokerName(e.Broker) + to + ": " + e.Reason
}

// Is matches ErrMalformedResponse.
func (e *ProtocolError) Is(target error) bool { return target == ErrMalformedResponse }

// LostAnswerError is a request whose connection closed before its answer
// came, or with Partial in the middle of it: the broker may or may not have
// acted on it. It is retried; when --timeout ends the retries it is the
// last error of an UnavailableError.
type LostAnswerError struct {
	// Broker is the broker's host:port, "" when unknown.
	Broker string
	// API names the request, "" when unknown.
	API     string
	Partial bool
}

func (e *LostAnswerError) Error() string {
	what := e.API
	if what == "" {
		what = "the request"
	}
	if e.Partial {
		return brokerName(e.Broker) + " closed the connection in the middle of its answer to " + what
	}
	return brokerName(e.Broker) + " closed the connection without answering " + what
}

// Is matches ErrUnavailable.
func (e *LostAnswerError) Is(target error) bool { return target == ErrUnavailable }

// brokerName names a broker by its address in messages.
func brokerName(addr string) string {
	if addr == "" {
		return "a broker"
	}
	return "broker " + addr
}

// ConnectFailure says which part of the connection set-up failed.
type ConnectFailure int

const (
	// AuthFailed: SASL authentication failed (ErrNotAuthorized).
	AuthFailed ConnectFailure = iota + 1
	// TLSFailed: the TLS handshake failed or one side does not use TLS
	// (ErrUnavailable).
	TLSFailed
)

func (f ConnectFailure) name() string {
	if f == AuthFailed {
		return "AUTHENTICATION_FAILED"
	}
	return "TLS_FAILED"
}

// ConnectError is a connection set-up failure that retrying cannot fix.
type ConnectError struct {
	Failure ConnectFailure
	Err     error
	// Hint names the client property to check, e.g. " (check
	// ssl.truststore.* in --command-config)"; it may be empty.
	Hint string
}

func (e *ConnectError) Error() string {
	if e.Failure == AuthFailed {
		return "authentication failed: " + e.Err.Error() + e.Hint
	}
	return "TLS connection failed: " + e.Err.Error() + e.Hint
}

// Unwrap exposes the cause.
func (e *ConnectError) Unwrap() error { return e.Err }

// Is maps the failure onto ErrNotAuthorized or ErrUnavailable.
func (e *ConnectError) Is(target error) bool {
	switch target {
	case ErrNotAuthorized:
		return e.Failure == AuthFailed
	case ErrUnavailable:
		return e.Failure == TLSFailed
	}
	return false
}

// Failure is one part of a verb's result that did not succeed, usually a
// group; a verb's Result lists them in request order (Failures), and the
// first one decides the exit code.
type Failure struct {
	Group string
	Err   error
}

// UnreachableError is a cluster none of whose bootstrap servers could be
// reached at all: every one refused the connection (or its name does not
// resolve), a few times in a row, and no broker ever connected. It is
// reported after a few quick retries instead of at --timeout: a port typo
// would otherwise wait the whole timeout in silence.
type UnreachableError struct {
	// Servers are the bootstrap addresses, each with why it failed, in
	// the order given.
	Servers []ServerFailure
}

// ServerFailure is one bootstrap address and why it could not be reached.
type ServerFailure struct {
	Addr   string
	Reason string
}

func (e *UnreachableError) Error() string {
	s := "no bootstrap server could be reached: "
	for i, f := range e.Servers {
		if i > 0 {
			s += ", "
		}
		s += f.Addr + " (" + f.Reason + ")"
	}
	return s + "; check the host and port of --bootstrap-server and that the broker is running"
}

// Is matches ErrUnavailable.
func (e *UnreachableError) Is(target error) bool { return target == ErrUnavailable }

// Failures lists, in order, the failure of each item that has one: failed
// says the item's group and its error, nil when it succeeded.
func Failures[T any](items []T, failed func(T) (group string, err error)) []Failure {
	var out []Failure
	for _, it := range items {
		if group, err := failed(it); err != nil {
			out = append(out, Failure{Group: group, Err: err})
		}
	}
	return out
}
