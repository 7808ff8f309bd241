package serve

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/kstreams-groups/kstreams-groups/internal/check"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/list"
	"github.com/kstreams-groups/kstreams-groups/internal/serve/snapshot"
	"github.com/kstreams-groups/kstreams-groups/internal/watch"
)

// Client is what a cycle needs from the admin client: check's requests
// (the overview's) and list's.
type Client interface {
	check.Client
	list.Client
	Close()
}

// metadataForgetter is a client that can let go of the topic metadata it
// keeps between requests (admin.Client.ForgetTopicMetadata).
type metadataForgetter interface{ ForgetTopicMetadata() }

// Bounds of what a Collector keeps in memory.
const (
	// HistoryWindow is how far back a group's samples go.
	HistoryWindow = time.Hour
	// MaxHistory bounds a group's samples whatever the interval.
	MaxHistory = 3600
	// MaxEvents bounds a group's timeline.
	MaxEvents = 200
	// maxBackoff caps the back-off of a cluster that is down.
	maxBackoff = 5 * time.Minute
)

// Config is one cluster's collector.
type Config struct {
	// Name is the cluster label: the profile, or "default".
	Name string
	// NewClient builds the cluster's client; a cycle after a failure
	// builds a new one.
	NewClient func(ctx context.Context) (Client, error)
	// Check are the groups (Groups, or AllGroups) and the conditions of
	// each cycle's check.
	Check check.Options
	// Interval is the time between the starts of two cycles; Timeout
	// bounds one cycle.
	Interval, Timeout time.Duration
	// Metrics choose the optional families (the time lag is the
	// check's, Check.ShowsTimeLag).
	Metrics format.PrometheusOptions
	// MaxSeries caps the cluster's group series (0: no cap): past it the
	// families below group level are dropped whole, those with the most
	// labels first; the group-level ones are always kept (capFamilies).
	MaxSeries int
	Logger    *slog.Logger
	// Now and After are the clock (time.Now and time.After when nil).
	Now   func() time.Time
	After func(time.Duration) <-chan time.Time
}

// Collector reads one cluster every interval and publishes its snapshot.
// Its methods are safe for concurrent use; Cycle and Run must not run
// concurrently with each other.
type Collector struct {
	cfg    Config
	log    *slog.Logger
	cur    atomic.Pointer[published]
	client Client
	// prev is the last good cycle's watch snapshot, for the changes.
	prev *watch.Snapshot
	// fails counts the cycles failed in a row.
	fails int
	// followers are the groups' histories read so far (backfill.go).
	followers map[string]*follower
	// closeOnce guards Close.
	closeOnce sync.Once
}

// published is what a cycle leaves for the readers: the snapshot, its
// group metric families (cluster label added, capped) and the counters.
type published struct {
	// gen counts the publications, for the scrape cache.
	gen      uint64
	snap     *snapshot.Cluster
	families []*dto.MetricFamily
	series   int
	// errors counts failed cycles, dropped the series dropped by the cap,
	// both since the start.
	errors, dropped uint64
}

// NewCollector returns the collector of cfg; nothing is read before Cycle
// or Run.
func NewCollector(cfg Config) *Collector {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.After == nil {
		cfg.After = time.After
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	c := &Collector{cfg: cfg, log: cfg.Logger.With("cluster", cfg.Name)}
	c.cur.Store(&published{snap: &snapshot.Cluster{Name: cfg.Name}})
	return c
}

// Name is the cluster's name.
func (c *Collector) Name() string { return c.cfg.Name }

// Snapshot is the latest published snapshot; before the first cycle it
// has only the name.
func (c *Collector) Snapshot() *snapshot.Cluster { return c.cur.Load().snap }

// Ready tells whether a cycle has succeeded.
func (c *Collector) Ready() bool { return !c.Snapshot().LastSuccess.IsZero() }

// Run runs a cycle every interval until ctx ends, backing off while the
// cluster fails (Backoff). It never stops on an error.
func (c *Collector) Run(ctx context.Context) {
	defer c.Close()
	for {
		started := c.cfg.Now()
		_ = c.Cycle(ctx)
		if ctx.Err() != nil {
			return
		}
		// A cycle that took longer than its back-off starts the next at
		// once: no wait, never a negative one.
		wait := max(0, Backoff(c.cfg.Interval, c.fails)-c.cfg.Now().Sub(started))
		if c.fails > 0 {
			c.log.Warn("cycle failed", "error", c.Snapshot().Error, "failures", c.fails, "retry_in", wait.Round(time.Millisecond).String())
		}
		select {
		case <-ctx.Done():
			return
		case <-c.cfg.After(wait):
		}
	}
}

// Close closes the cluster's client.
func (c *Collector) Close() {
	c.closeOnce.Do(func() {
		if c.client != nil {
			c.client.Close()
			c.client = nil
		}
	})
}

// Backoff is the time from the start of a cycle to the next after fails
// cycles failed in a row: the interval, doubled for each failure past the
// first, at most eight intervals or five minutes (whichever is less, and
// never less than the interval).
func Backoff(interval time.Duration, fails int) time.Duration {
	ceiling := max(interval, min(8*interval, maxBackoff))
	d := interval
	for i := 1; i < fails && d < ceiling; i++ {
		d *= 2
	}
	return min(d, ceiling)
}

// Cycle reads the cluster once, within the timeout, and publishes the
// snapshot: a new one, or on failure the last good one marked stale with
// the reason. The error is the cycle's failure.
func (c *Collector) Cycle(ctx context.Context) error {
	start := c.cfg.Now()
	cctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	old := c.cur.Load()
	lres, cres, staleGroups, err := c.read(cctx, old.snap)
	if ctx.Err() != nil {
		// Stopping: nothing to publish, and no failure to count.
		return ctx.Err()
	}
	end := c.cfg.Now()
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			err = &timeoutError{err: err, timeout: c.cfg.Timeout}
		}
		c.fails++
		if c.client != nil {
			// A new connection next time: the cluster may come back
			// elsewhere, or its brokers with new ids.
			c.client.Close()
			c.client = nil
		}
		snap := *old.snap
		snap.Taken, snap.CycleSeconds = end, end.Sub(start).Seconds()
		snap.Stale, snap.Error = true, cutMessage(err.Error())
		c.cur.Store(&published{gen: old.gen + 1, snap: &snap, families: old.families, series: old.series, errors: old.errors + 1, dropped: old.dropped})
		return err
	}
	if c.fails > 0 {
		c.log.Info("cycle succeeded again", "after_failures", c.fails)
	}
	c.fails = 0
	snap := &snapshot.Cluster{Name: c.cfg.Name, Taken: end, LastSuccess: end, CycleSeconds: end.Sub(start).Seconds(), Check: cres, List: lres, StaleGroups: staleGroups}
	cur := watch.FromCheck(cres)
	cur.At = start
	var changes []watch.Change
	if c.prev != nil {
		changes = watch.Changes(*c.prev, cur)
	}
	c.prev = &cur
	snap.History, snap.Events = c.timelines(old.snap, cres, staleGroups, changes, end)
	for id, back := range c.backfill(cctx, cres, end) {
		if own, ok := snap.Events[id]; ok {
			snap.Events[id] = withBackfill(back, own)
		}
	}
	fams, series, dropped := capFamilies(format.CheckPromFamilies(cres, c.cfg.Metrics, format.PromLabel("cluster", c.cfg.Name)), c.cfg.MaxSeries)
	if dropped > 0 {
		c.log.Warn("series dropped by --max-series", "series", series, "dropped", dropped)
	}
	c.log.Debug("cycle", "groups", len(cres.Groups), "seconds", snap.CycleSeconds, "series", series)
	c.cur.Store(&published{gen: old.gen + 1, snap: snap, families: fams, series: series, errors: old.errors, dropped: old.dropped + uint64(dropped)})
	return nil
}

// read is one cycle's requests: the groups with their states, then the
// check of the groups (all those listed, or the configured ones). Without
// --group, the groups of the last good cycle that the listing omits are
// checked too (carry): a 4.4.0 coordinator still loading
// __consumer_offsets after a restart lists without them (F570, F590).
func (c *Collector) read(ctx context.Context, last *snapshot.Cluster) (*list.Result, *check.Result, map[string]string, error) {
	if c.client == nil {
		cl, err := c.cfg.NewClient(ctx)
		if err != nil {
			return nil, nil, nil, err
		}
		c.client = cl
	}
	lres, err := list.Run(ctx, c.client, list.Options{WithState: true})
	if err != nil {
		return nil, nil, nil, err
	}
	opts := c.cfg.Check
	var carried map[string]bool
	if opts.AllGroups {
		// The groups just listed: one ListGroups a cycle, and the list
		// and the check agree.
		opts.AllGroups, opts.Groups = false, make([]string, 0, len(lres.Groups))
		listed := make(map[string]bool, len(lres.Groups))
		for _, g := range lres.Groups {
			opts.Groups = append(opts.Groups, g.Group)
			listed[g.Group] = true
		}
		if last.Check != nil {
			for _, g := range last.Check.Groups {
				if id := g.ID(); !listed[id] && !carried[id] {
					if carried == nil {
						carried = map[string]bool{}
					}
					carried[id] = true
					opts.Groups = append(opts.Groups, id)
				}
			}
			// In the listing's order, as if listed.
			slices.Sort(opts.Groups)
		}
	}
	cres, err := check.Run(ctx, c.client, opts)
	if err != nil {
		return nil, nil, nil, err
	}
	// Before anything keeps a message: the carried groups' reasons, the
	// snapshot, the changes.
	boundCheck(cres)
	cres.Options.Groups, cres.Options.AllGroups = c.cfg.Check.Groups, c.cfg.Check.AllGroups
	if f, ok := c.client.(metadataForgetter); ok {
		// The next cycle is an interval away: its metadata then is new.
		f.ForgetTopicMetadata()
	}
	if err := ctx.Err(); err != nil {
		// Groups cut short by the timeout would read as failures of
		// theirs: the cycle failed.
		return nil, nil, nil, err
	}
	var stale map[string]string
	if len(carried) > 0 {
		stale = settleCarried(last, lres, cres, carried)
	}
	return lres, cres, stale, nil
}

// settleCarried decides the carried groups of a cycle, in place: a group
// the broker says is gone (GROUP_ID_NOT_FOUND, or Dead) is dropped; one
// whose coordinator is not ready (loading, moved, not available) keeps the
// last good cycle's data and is returned as stale with the reason; any
// other answer is the group's, as for a listed group. The kept ones are
// added to the listing too, so the list and the check still agree.
func settleCarried(last *snapshot.Cluster, lres *list.Result, cres *check.Result, carried map[string]bool) map[string]string {
	prev := make(map[string]*check.Group, len(last.Check.Groups))
	for _, g := range last.Check.Groups {
		prev[g.ID()] = g
	}
	prevState := map[string]string{}
	if last.List != nil {
		for _, g := range last.List.Groups {
			prevState[g.Group] = g.State
		}
	}
	var stale map[string]string
	kept := cres.Groups[:0]
	cres.Status = check.OK
	for _, g := range cres.Groups {
		id := g.ID()
		if carried[id] {
			ov := g.Overview
			switch p := prev[id]; {
			case errors.Is(ov.Err, kafka.ErrGroupNotFound), ov.Err == nil && kafka.StateDead.Is(ov.State):
				continue
			case ov.Err != nil && errors.Is(ov.Err, kafka.ErrUnavailable) && p != nil && p.Overview.Err == nil:
				if stale == nil {
					stale = map[string]string{}
				}
				stale[id] = ov.Err.Error()
				g = p
			}
			state := prevState[id]
			if g.Overview.Err == nil {
				state = g.Overview.State
			}
			if state == "" {
				state = "Unknown"
			}
			lres.Groups = append(lres.Groups, list.Group{Group: id, State: state})
			carried[id] = false
		}
		kept = append(kept, g)
		cres.Status = check.Worst(cres.Status, g.Status)
	}
	clear(cres.Groups[len(kept):])
	cres.Groups = kept
	slices.SortStableFunc(lres.Groups, func(a, b list.Group) int { return strings.Compare(a.Group, b.Group) })
	return stale
}

// timelines are the history and the events of this cycle: the previous
// ones of the groups still checked, with this cycle's sample and changes
// appended (no sample for a stale group: its data is not new), each
// bounded. A new slice may share its start with the
// previous snapshot's: appending writes past every published length only.
func (c *Collector) timelines(old *snapshot.Cluster, cres *check.Result, stale map[string]string, changes []watch.Change, at time.Time) (map[string][]snapshot.Sample, map[string][]snapshot.Event) {
	keep := min(MaxHistory, max(1, int((HistoryWindow+c.cfg.Interval-1)/max(c.cfg.Interval, time.Millisecond))))
	history := make(map[string][]snapshot.Sample, len(cres.Groups))
	events := make(map[string][]snapshot.Event, len(cres.Groups))
	for _, g := range cres.Groups {
		id := g.ID()
		if _, dup := history[id]; dup {
			continue
		}
		h := old.History[id]
		if _, kept := stale[id]; g.Overview.Err == nil && !kept {
			s := snapshot.Sample{Time: at, Lag: g.Lag}
			if t := g.Overview.Time; t.Measured && t.Known {
				s.TimeLagSeconds, s.HasTimeLag = t.Lag.Seconds(), true
			}
			h = appendBounded(h, s, keep)
		}
		history[id] = h
		events[id] = old.Events[id]
	}
	for _, ch := range changes {
		if _, ok := events[ch.Group]; ok {
			events[ch.Group] = appendBounded(events[ch.Group], snapshot.Event{Time: at, Text: ch.Text}, MaxEvents)
		}
	}
	return history, events
}

// appendBounded appends v to s and keeps the last n values. It never
// writes inside s's length, so a published slice never changes.
func appendBounded[T any](s []T, v T, n int) []T {
	if len(s) >= n {
		s = s[len(s)-n+1:]
	}
	if len(s) == cap(s) {
		// A fresh array: the dropped start is released. Doubling while
		// the window fills; once full, room for a quarter more, so that
		// a window sliding a value a cycle is copied every n/4 cycles
		// and an hour of 2,000 groups' samples takes 1.25 times its
		// size, not twice.
		c := max(4, 2*len(s))
		if c > n {
			c = n + max(1, n/4)
		}
		s = append(make([]T, 0, c), s...)
	}
	return append(s, v)
}

// timeoutError is a cycle that ran out of --timeout.
type timeoutError struct {
	err     error
	timeout time.Duration
}

func (e *timeoutError) Error() string {
	return e.err.Error() + " (--timeout " + e.timeout.String() + ")"
}
func (e *timeoutError) Unwrap() error { return e.err }

// Collectors are the served clusters, in the order of --profile: a
// snapshot.Source.
type Collectors []*Collector

// Clusters is the latest snapshot of every cluster.
func (cs Collectors) Clusters() []*snapshot.Cluster {
	out := make([]*snapshot.Cluster, len(cs))
	for i, c := range cs {
		out[i] = c.Snapshot()
	}
	return out
}

// generation changes whenever a cluster publishes.
func (cs Collectors) generation() uint64 {
	var g uint64
	for _, c := range cs {
		g += c.cur.Load().gen
	}
	return g
}

// Ready tells whether every cluster has had a successful cycle.
func (cs Collectors) Ready() bool {
	return !slices.ContainsFunc(cs, func(c *Collector) bool { return !c.Ready() })
}

var _ snapshot.Source = Collectors(nil)
