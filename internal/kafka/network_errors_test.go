package kafka

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNetworkErrors(t *testing.T) {
	tests := []struct {
		err      error
		text     string
		name     string
		category Category
	}{
		{&ProtocolError{Broker: "h:9092", API: "StreamsGroupDescribe v1", Reason: "negative response size -16"},
			"invalid response from broker h:9092 to StreamsGroupDescribe v1: negative response size -16", "MALFORMED_RESPONSE", Failed},
		{&ProtocolError{Reason: "the answer ends before its message does"},
			"invalid response from a broker: the answer ends before its message does", "MALFORMED_RESPONSE", Failed},
		{&LostAnswerError{Broker: "h:9092", API: "DeleteGroups"},
			"broker h:9092 closed the connection without answering DeleteGroups", "UNAVAILABLE", Unavailable},
		{&LostAnswerError{API: "ListGroups", Partial: true},
			"a broker closed the connection in the middle of its answer to ListGroups", "UNAVAILABLE", Unavailable},
		{&UnavailableError{Op: "DeleteGroups", Err: context.DeadlineExceeded, Last: &LostAnswerError{Broker: "h:1", API: "DeleteGroups"}},
			"DeleteGroups: timed out (last error: broker h:1 closed the connection without answering DeleteGroups)", "UNAVAILABLE", Unavailable},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.text, tt.err.Error())
		c := Classify(tt.err)
		assert.Equal(t, tt.name, c.Name, tt.text)
		assert.Equal(t, tt.category, c.Category, tt.text)
	}
}
