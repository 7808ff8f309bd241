// Package snapshot holds what serve's collector read from one cluster in
// one cycle: the immutable value that every /metrics scrape, /api/v1
// document and web page is answered from, with each group's bounded lag
// history and its timeline of changes. It is the contract between the
// collector (internal/serve) and the web page (internal/serve/web); it
// sends no request and renders nothing.
package snapshot

import (
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/check"
	"github.com/kstreams-groups/kstreams-groups/internal/list"
)

// Cluster is one cluster's latest state. A Cluster is never modified
// after the collector publishes it: a new cycle publishes a new value,
// so readers share it without locks.
type Cluster struct {
	// Name is the profile name (the `cluster` label), or "default"
	// without --profile.
	Name string
	// Taken is when the last cycle ended, successful or not.
	Taken time.Time
	// LastSuccess is when the last successful cycle ended (zero before
	// the first one).
	LastSuccess time.Time
	// Stale is set when the last cycle failed: Check and List are then
	// the last good cycle's, and Error says why the new one failed.
	Stale bool
	Error string
	// StaleGroups are the groups of a good cycle whose data is the last
	// good cycle's, with the reason: the listing omitted them and their
	// coordinator could not describe them yet (loading __consumer_offsets
	// after a restart, moved, not available). Nil when there is none.
	StaleGroups map[string]string
	// CycleSeconds is how long the last cycle took.
	CycleSeconds float64
	// Check is the last good cycle's `check` result: every group's
	// overview join (members, sub-topologies, nodes, tasks, lag, time
	// lag, standby coverage) and its status. Nil before the first
	// successful cycle.
	Check *check.Result
	// List is the last good cycle's `list --state` result.
	List *list.Result
	// History holds each group's samples, oldest first, at most an hour
	// at the sampling interval.
	History map[string][]Sample
	// Events holds each group's changes (watch.Changes between cycles),
	// oldest first, bounded.
	Events map[string][]Event
}

// Sample is one cycle's lag of a group.
type Sample struct {
	Time time.Time
	// Lag is the group's lag in records (check's judged lag).
	Lag int64
	// TimeLagSeconds is the group's time lag; HasTimeLag is false when
	// it was not measured.
	TimeLagSeconds float64
	HasTimeLag     bool
}

// Event is one change of a group seen between two cycles.
type Event struct {
	Time time.Time
	Text string
	// Causes are a rebalance's causes, one line each, for an event read
	// back from the group's history (backfill.go); nil for a change seen
	// between cycles.
	Causes []string
}

// Source gives the latest snapshot of every served cluster, in the order
// of the --profile flags.
type Source interface {
	Clusters() []*Cluster
}
