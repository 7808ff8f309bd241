package serve

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/check"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/history"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/serve/snapshot"
)

// BackfillWindow is how far back the rebalances read from a group's
// history go into its timeline when serve first sees the group: a
// restarted serve still shows the last hours.
const BackfillWindow = 6 * time.Hour

// follower is what serve keeps of a group's history between cycles: its
// reader (which keeps the group's state, never the records) and where the
// timeline stands.
type follower struct {
	reader *history.Reader
	// epoch is the group epoch of the last cycle; offset the last entry
	// put in the timeline (-1: none).
	epoch  int32
	offset int64
}

// backfill reads, for each group of the cycle first seen, its history in
// __consumer_offsets, and returns its rebalances of the last
// BackfillWindow as events, with their causes; for a group seen before
// whose epoch moved since the last cycle, it reads on from where it
// stopped and returns the new rebalances. The read only enriches the
// timeline: it gets half of the time the cycle has left, and a group
// whose history cannot be read (no READ on the topic) gets no events, a
// debug log line, and is not read again. A client that cannot read logs
// backfills nothing.
func (c *Collector) backfill(ctx context.Context, cres *check.Result, now time.Time) map[string][]snapshot.Event {
	hc, ok := c.client.(history.Client)
	if !ok {
		return nil
	}
	if c.followers == nil {
		c.followers = map[string]*follower{}
	}
	enrich, cancel := kafka.EnrichContext(ctx)
	defer cancel()
	out := map[string][]snapshot.Event{}
	checked := map[string]bool{}
	for _, g := range cres.Groups {
		id := g.ID()
		checked[id] = true
		f, seen := c.followers[id]
		switch {
		case g.Overview.Err != nil || enrich.Err() != nil:
			continue
		case !seen:
			f = &follower{reader: history.NewReader(history.Options{Group: id, Since: now.Add(-BackfillWindow), MaxBytes: history.DefaultMaxBytes}), offset: -1}
			c.followers[id] = f
		case f.reader == nil || f.epoch == g.Overview.GroupEpoch:
			continue // unreadable, or no rebalance since the last cycle
		}
		f.epoch = g.Overview.GroupEpoch
		out[id] = f.read(enrich, hc)
		if f.reader == nil {
			c.log.Debug("history not read", "group", id)
		}
	}
	for id := range c.followers {
		if !checked[id] {
			delete(c.followers, id) // a group gone is forgotten
		}
	}
	return out
}

// read reads the group's history on and returns its rebalances not yet in
// the timeline; a history that cannot be read drops the reader.
func (f *follower) read(ctx context.Context, hc history.Client) []snapshot.Event {
	res, err := f.reader.Read(ctx, hc)
	if err == nil && res.Err != nil {
		err = res.Err
	}
	if err != nil {
		f.reader = nil
		return nil
	}
	var out []snapshot.Event
	for _, e := range res.Entries {
		if e.Offset <= f.offset {
			continue
		}
		f.offset = e.Offset
		out = append(out, snapshot.Event{Time: e.Time, Text: fmt.Sprintf("rebalance: group epoch %d -> %d", e.PreviousEpoch, e.GroupEpoch), Causes: format.CauseLines(e.Causes)})
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
