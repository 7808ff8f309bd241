package serve

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/check"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/history"
	"github.com/kstreams-groups/kstreams-groups/internal/serve/snapshot"
)

// BackfillWindow is how far back the rebalances read from a group's
// history go into its timeline when serve first sees the group: a
// restarted serve still shows the last hours.
const BackfillWindow = 6 * time.Hour

// backfill reads, for each group of the cycle not read before, its
// history in __consumer_offsets, and returns its rebalances of the last
// BackfillWindow as events, with their causes. The read only enriches the
// timeline: it gets half of the time the cycle has left, and a group
// whose history cannot be read (no READ on the topic) gets no events, a
// debug log line, and is not read again. A client that cannot read logs
// backfills nothing.
func (c *Collector) backfill(ctx context.Context, cres *check.Result, now time.Time) map[string][]snapshot.Event {
	hc, ok := c.client.(history.Client)
	if !ok {
		return nil
	}
	if c.backfilled == nil {
		c.backfilled = map[string]bool{}
	}
	// Half the time left, as admin.EnrichContext gives it (serve does not
	// import admin).
	enrich, cancel := context.WithCancel(ctx)
	if dl, ok := ctx.Deadline(); ok {
		cancel()
		enrich, cancel = context.WithTimeout(ctx, time.Until(dl)/2)
	}
	defer cancel()
	out := map[string][]snapshot.Event{}
	for _, g := range cres.Groups {
		id := g.ID()
		if c.backfilled[id] || g.Overview.Err != nil || enrich.Err() != nil {
			continue
		}
		c.backfilled[id] = true
		res, err := history.Run(enrich, hc, history.Options{Group: id, Since: now.Add(-BackfillWindow), MaxBytes: history.DefaultMaxBytes})
		if err == nil && res.Err != nil {
			err = res.Err
		}
		if err != nil {
			c.log.Debug("history not read", "group", id, "error", err)
			continue
		}
		for _, e := range res.Entries {
			out[id] = append(out[id], snapshot.Event{Time: e.Time, Text: fmt.Sprintf("rebalance: group epoch %d -> %d", e.PreviousEpoch, e.GroupEpoch), Causes: format.CauseLines(e.Causes)})
		}
	}
	return out
}

// withBackfill puts a group's backfilled events before its own, oldest
// first, within MaxEvents (the newest kept).
func withBackfill(back, own []snapshot.Event) []snapshot.Event {
	if len(back) == 0 {
		return own
	}
	all := slices.Concat(back, own)
	slices.SortStableFunc(all, func(a, b snapshot.Event) int { return a.Time.Compare(b.Time) })
	if len(all) > MaxEvents {
		all = all[len(all)-MaxEvents:]
	}
	return all
}
