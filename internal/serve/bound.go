package serve

// A broker can send an error message of any length (a 4-million-character
// describe error was seen), and a snapshot is kept for a whole interval
// and served in every /api/v1 document, every group's timeline and log
// line: each message a cycle keeps is cut as the CLI's text output cuts
// one (format.CutMessage), saying where the whole one is.

import (
	"context"
	"errors"

	"github.com/kstreams-groups/kstreams-groups/internal/check"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
)

// wholeMessage says where a cut message is whole: the CLI reads the same
// groups and prints their errors whole in its documents.
const wholeMessage = "kstreams-groups check -o json shows it whole"

// cutMessage is a message as a snapshot keeps it.
func cutMessage(s string) string { return format.CutMessage(s, wholeMessage) }

// boundCheck cuts, in place, the messages of a cycle's fresh check
// result: every group's errors (its description's, its configs', its
// time lags') and its problems. It must not be given a published result.
func boundCheck(res *check.Result) {
	for _, g := range res.Groups {
		for i := range g.Problems {
			g.Problems[i].Message = cutMessage(g.Problems[i].Message)
		}
		boundGroup(g.Overview)
	}
}

func boundGroup(o *overview.Group) {
	o.Err = boundError(o.Err)
	if o.Settings != nil {
		o.Settings.Err = boundError(o.Settings.Err)
	}
	o.Time.Err = boundError(o.Time.Err)
	for _, st := range o.Subtopologies {
		st.Time.Err = boundError(st.Time.Err)
		for _, t := range st.Tasks {
			t.Time.Err = boundError(t.Time.Err)
			for i := range t.Offsets {
				t.Offsets[i].Time.Err = boundError(t.Offsets[i].Time.Err)
			}
		}
	}
}

// boundError is err when its text is short enough, else a cutError of it.
func boundError(err error) error {
	if err == nil {
		return nil
	}
	text := err.Error()
	cut := cutMessage(text)
	if cut == text {
		return err
	}
	return newCutError(err, cut)
}

// cutError is an error whose text was too long to keep: its text cut,
// and what the documents, the metrics and the next cycle classify it by
// (kafka.Classify, errors.Is), without the long texts: copies of the
// typed errors it holds, their own texts cut, and the sentinels it is. (A
// check holds no kafka.RefusedError: that is the offset verbs'.)
type cutError struct {
	text   string
	causes []error
}

func (e *cutError) Error() string   { return e.text }
func (e *cutError) Unwrap() []error { return e.causes }

// sentinels are the errors errors.Is may ask a kept error about.
var sentinels = []error{
	kafka.ErrGroupNotFound, kafka.ErrNotAuthorized, kafka.ErrUnavailable, kafka.ErrBrokerTooOld, kafka.ErrDeletionFailed,
	kafka.ErrMalformedResponse, kafka.ErrGroupActive, kafka.ErrNoResetPlan, kafka.ErrNotInternalTopic, kafka.ErrConfigRefused,
	context.DeadlineExceeded, context.Canceled,
}

func newCutError(err error, text string) *cutError {
	e := &cutError{text: text}
	var (
		ke *kafka.Error
		se *kafka.StatusError
		ce *kafka.ConnectError
	)
	if errors.As(err, &ke) {
		c := *ke
		c.Message = cutMessage(c.Message)
		e.causes = append(e.causes, &c)
	}
	if errors.As(err, &se) {
		// A group id and a status: nothing long.
		e.causes = append(e.causes, se)
	}
	if errors.As(err, &ce) {
		c := *ce
		c.Err = errors.New(cutMessage(ce.Err.Error()))
		e.causes = append(e.causes, &c)
	}
	for _, s := range sentinels {
		if errors.Is(err, s) {
			e.causes = append(e.causes, s)
		}
	}
	return e
}
