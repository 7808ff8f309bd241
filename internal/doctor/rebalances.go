package doctor

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/history"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// CheckRebalances is the check of the group's past rebalances, read from
// its coordinator's records (the history verb's reader).
const CheckRebalances = "rebalances"

// DefaultStormThreshold is how many rebalances in the last hour a group
// may have before doctor calls it a storm.
const DefaultStormThreshold = 10

// stormWindow is the span a storm is counted over.
const stormWindow = time.Hour

// rebalances adds the findings of the group's history: its last rebalance
// and why, a rebalance storm, and static members whose process id is new
// at every rejoin. The read only enriches the diagnosis: it gets half the
// time left (kafka.EnrichContext), and a topic that cannot be read is an
// unknown, never a failure. A client that cannot read logs gets none.
func rebalances(ctx context.Context, client Client, g *Group, opts Options) {
	hc, ok := client.(history.Client)
	if !ok {
		return
	}
	enrich, cancel := kafka.EnrichContext(ctx)
	defer cancel()
	res, err := history.Run(enrich, hc, history.Options{Group: g.Group, MaxBytes: history.DefaultMaxBytes})
	if err == nil && res != nil {
		err = res.Err
	}
	if err != nil {
		g.add(CheckRebalances, Info, "The history of a group is read from __consumer_offsets: it needs DESCRIBE and READ on that topic (kstreams-groups history --group "+g.Group+" says the same).",
			"the group's rebalances are unknown: cannot read %s: %s", history.OffsetsTopic, err)
		return
	}
	rebalanceFindings(g, res, opts)
}

// rebalanceFindings judges a history that was read.
func rebalanceFindings(g *Group, res *history.Result, opts Options) {
	switch {
	case len(res.Entries) > 0:
	case res.CompleteFrom.IsZero():
		g.add(CheckRebalances, OK, "", "no rebalance recorded: %s-%d, which holds the group's records, is empty", history.OffsetsTopic, res.Partition.Partition)
		return
	default:
		g.add(CheckRebalances, OK, "", "no rebalance since %s (the oldest record of the group's history that %s still holds)", stamp(res.CompleteFrom), history.OffsetsTopic)
		return
	}
	last := res.Entries[len(res.Entries)-1]
	g.add(CheckRebalances, Info, "", "last rebalance at %s (epoch %d, %s ago): %s", stamp(last.Time), last.GroupEpoch, ago(opts.now(), last.Time), CausesText(last.Causes))
	storm(g, res.Entries, opts)
	newProcessAtRejoin(g, res.Entries)
}

// storm warns of more rebalances in the last hour than the threshold,
// naming the member that caused most of them.
func storm(g *Group, entries []history.Entry, opts Options) {
	limit := opts.StormThreshold
	if limit <= 0 {
		limit = DefaultStormThreshold
	}
	from := opts.now().Add(-stormWindow)
	recent := 0
	caused := map[string]int{}
	names := map[string]string{}
	for _, e := range entries {
		if e.Time.Before(from) {
			continue
		}
		recent++
		seen := map[string]bool{}
		for _, c := range e.Causes {
			if c.Member == nil {
				continue
			}
			k := memberKey(c.Member)
			if !seen[k] {
				seen[k] = true
				caused[k]++
				names[k] = MemberText(c.Member)
			}
		}
	}
	if recent <= limit {
		return
	}
	most := ""
	if len(caused) > 0 {
		best := largest(caused)
		most = fmt.Sprintf(": %s caused most of them (%d)", names[best], caused[best])
	}
	g.add(CheckRebalances, Warning, "A group that rebalances this often spends its time moving tasks: find why the member leaves and joins (its log, its restarts, a session timeout shorter than its pauses: "+
		"kstreams-groups history --group "+g.Group+" --since 1h lists each rebalance with its causes).",
		"%d rebalances in the last hour, more than %d (a rebalance storm)%s", recent, limit, most)
}

// newProcessAtRejoin warns of a static member that comes back with a new
// process id every time: Kafka Streams keeps its process id in the state
// directory, so an instance without a persistent one (a stateless
// application in a fresh container) gets a new id at every start, and the
// assignor, which places tasks by process, loses their placement.
func newProcessAtRejoin(g *Group, entries []history.Entry) {
	lastProcess := map[string]string{}
	rejoins, changed := map[string]int{}, map[string]int{}
	for _, e := range entries {
		for _, c := range e.Causes {
			m := c.Member
			if m == nil || m.InstanceID == "" {
				continue
			}
			if c.Kind == history.MemberRejoined {
				rejoins[m.InstanceID]++
				if p, ok := lastProcess[m.InstanceID]; ok && p != m.ProcessID {
					changed[m.InstanceID]++
				}
			}
			lastProcess[m.InstanceID] = m.ProcessID
		}
	}
	var ids []string
	for _, id := range slices.Sorted(maps.Keys(rejoins)) {
		if rejoins[id] >= 2 && changed[id] == rejoins[id] {
			ids = append(ids, fmt.Sprintf("%s (%d rejoins)", id, rejoins[id]))
		}
	}
	if len(ids) > 0 {
		g.add(CheckStatic, Warning, "Give each instance a persistent state.dir (Kafka Streams keeps its process id there), so that it keeps its process id, and its tasks, across restarts.",
			"%s came back with a new process id at every rejoin: the assignor places tasks by process, so they lose their placement each time: %s",
			plural(len(ids), "static member"), list(ids))
	}
}

// memberKey is a member's identity across member ids: its instance id,
// else its process id, else its member id.
func memberKey(m *history.Member) string {
	switch {
	case m.InstanceID != "":
		return "i:" + m.InstanceID
	case m.ProcessID != "":
		return "p:" + m.ProcessID
	}
	return "m:" + m.MemberID
}

// MemberText names a member of a cause: its process, host and instance id
// (unescaped: the caller escapes).
func MemberText(m *history.Member) string {
	var parts []string
	if m.InstanceID != "" {
		parts = append(parts, "instance "+m.InstanceID)
	}
	if m.ProcessID != "" {
		parts = append(parts, "process "+m.ProcessID)
	}
	if m.Host != "" {
		parts = append(parts, "host "+m.Host)
	}
	if len(parts) == 0 {
		return "member " + m.MemberID
	}
	return strings.Join(parts, ", ")
}

// CausesText is an entry's causes on one line (unescaped).
func CausesText(cs []history.Cause) string {
	if len(cs) == 0 {
		return "no cause in the records"
	}
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		out = append(out, CauseText(c))
	}
	return strings.Join(out, "; ")
}

// CauseText is one cause: its kind, and whom or what it concerns.
func CauseText(c history.Cause) string {
	var what []string
	if c.Member != nil {
		what = append(what, MemberText(c.Member))
	}
	if c.Reason != "" {
		what = append(what, c.Reason)
	}
	if len(c.Changed) > 0 {
		what = append(what, strings.Join(c.Changed, ", "))
	}
	if len(c.Subtopologies) > 0 {
		what = append(what, "sub-topologies "+strings.Join(c.Subtopologies, ", "))
	}
	if len(c.Topics) > 0 {
		what = append(what, "topics "+strings.Join(c.Topics, ", "))
	}
	for _, k := range c.Configs {
		old, nw := "unset", "unset"
		if k.OldSet {
			old = k.Old
		}
		if k.NewSet {
			nw = k.New
		}
		what = append(what, fmt.Sprintf("%s %s -> %s", k.Key, old, nw))
	}
	if len(what) == 0 {
		return string(c.Kind)
	}
	return string(c.Kind) + " (" + strings.Join(what, ", ") + ")"
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") }

// ago is how long before now t was, to the second.
func ago(now, t time.Time) string {
	d := max(now.Sub(t).Truncate(time.Second), 0)
	return d.String()
}
