package overview

import (
	"context"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/history"
)

// Rebalance is what a group's history says of its last rebalance.
type Rebalance struct {
	// Last is the last rebalance; nil when the history holds none.
	Last *history.Entry
	// Since is when the history is complete from (zero: the group's
	// partition of __consumer_offsets is empty): no rebalance since, when
	// Last is nil.
	Since time.Time
	// Err is why the history could not be read (the topic not readable:
	// TOPIC_AUTHORIZATION_FAILED); the overview is complete without it.
	Err error
}

// readRebalances reads the history of each group given (those described
// without error), one after the other, when the client can read logs. It
// reads only their ids and returns what it found by group, for the caller
// to set once the reads beside it are done. The read only enriches the
// overview: ctx is the enrichment's, and a failure is the group's
// Rebalance.Err, never the group's.
func readRebalances(ctx context.Context, client Client, groups []*Group) map[*Group]*Rebalance {
	hc, ok := client.(history.Client)
	if !ok {
		return nil
	}
	out := make(map[*Group]*Rebalance, len(groups))
	for _, g := range groups {
		r := &Rebalance{}
		res, err := history.Run(ctx, hc, history.Options{Group: g.Group, MaxBytes: history.DefaultMaxBytes})
		switch {
		case err != nil:
			r.Err = err
		case res.Err != nil:
			r.Err = res.Err
		default:
			r.Since = res.CompleteFrom
			if n := len(res.Entries); n > 0 {
				last := res.Entries[n-1]
				r.Last = &last
			}
		}
		out[g] = r
	}
	return out
}
