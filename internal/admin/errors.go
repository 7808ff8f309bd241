package admin

import (
	"errors"
	"fmt"

	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// NewKafkaError builds the error for a non-zero code and an optional
// broker message, naming the code as Kafka does.
func NewKafkaError(code int16, msg *string) *kafka.Error {
	e := &kafka.Error{Code: code}
	var ke *kerr.Error
	if errors.As(kerr.ErrorForCode(code), &ke) && ke.Code == code {
		e.Name, e.Message = ke.Message, ke.Description
	} else {
		e.Name, e.Message = fmt.Sprintf("UNKNOWN_ERROR_CODE_%d", code), "The broker answered with an error code this client does not know."
	}
	if msg != nil && *msg != "" {
		e.Message, e.FromBroker = *msg, true
	}
	return e
}

// NewClientKafkaError is a Kafka error decided by this client rather than
// answered by a broker: the code's name with the client's own message.
func NewClientKafkaError(code int16, msg string) *kafka.Error {
	e := NewKafkaError(code, nil)
	e.Message = msg
	return e
}
