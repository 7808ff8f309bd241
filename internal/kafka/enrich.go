package kafka

import (
	"context"
	"time"
)

// EnrichContext bounds a read that only enriches a result (a deleted
// group's configs, the time lag, the last rebalance, serve's backfilled
// timeline) to half the time ctx has left, so that a broker that never
// answers it leaves the other half to what was asked for; without a
// deadline it is ctx's (issue 30). Here, beside the errors' classes, so
// that every package that reads (admin's clients and serve alike) takes
// the same rule.
func EnrichContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if dl, ok := ctx.Deadline(); ok {
		return context.WithTimeout(ctx, time.Until(dl)/2)
	}
	return context.WithCancel(ctx)
}
