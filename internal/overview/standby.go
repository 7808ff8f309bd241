package overview

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// Standby coverage. Under the streams protocol the broker places standbys,
// as many per stateful task as the group's streams.num.standby.replicas
// says (FINDINGS F185). A stateful task is a task of a sub-topology with a
// changelog: the broker's assignor gives standbys to those only. For each,
// coverage counts the standbys that would survive the loss of the active's
// machine:
//
//   - a standby on the active's process (member process id) does not count;
//   - nor one on the active's host: the application.server host when the
//     member sets one (what the instance says about itself: the client host
//     the broker sees may be a proxy's or a NAT's), else the client host;
//   - nor a second standby on a process or host that an earlier standby of
//     the task already holds.
//
// When fewer count than are configured, the reason is the first that
// applies: fewer processes than copies (active plus standbys), fewer
// hosts, fewer racks (distinct client-tag values, when the members report
// client tags for rack-aware assignment), a warm-up of the task still
// running (or a standby still being added), else the assignor did not
// place them.

// The names of the group configs coverage reads, and of the broker
// defaults behind them.
const (
	ConfigStandbys              = "streams.num.standby.replicas"
	ConfigWarmups               = "streams.num.warmup.replicas"
	ConfigAcceptableRecoveryLag = "streams.acceptable.recovery.lag"
	ConfigAssignor              = "streams.assignor.name"
	ConfigSessionTimeout        = "streams.session.timeout.ms"
	ConfigHeartbeatInterval     = "streams.heartbeat.interval.ms"
)

// Setting is one effective group config: its value and where it comes
// from.
type Setting struct {
	Value string
	// Source is where the value comes from: "group" (set on the group) or
	// "default" (the broker's group.streams.* default).
	Source string
}

// Settings are the group's effective streams configs, by name; nil when
// they were not read (Err says why, when they could not be).
type Settings struct {
	Values map[string]Setting
	Err    error
}

// Int reads a setting as a whole number; ok is false when it is missing
// or not a number.
func (s *Settings) Int(name string) (int64, bool) {
	if s == nil {
		return 0, false
	}
	v, found := s.Values[name]
	if !found {
		return 0, false
	}
	var n int64
	if _, err := fmt.Sscan(strings.TrimSpace(v.Value), &n); err != nil {
		return 0, false
	}
	return n, true
}

// Get is a setting; ok is false when it is missing.
func (s *Settings) Get(name string) (Setting, bool) {
	if s == nil {
		return Setting{}, false
	}
	v, ok := s.Values[name]
	return v, ok
}

// Colocation says why a standby does not count.
type Colocation string

// The colocations of a standby with its active (or an earlier standby).
const (
	NotColocated      Colocation = ""
	SameProcess       Colocation = "process"
	SameHost          Colocation = "host"
	SameStandbyProc   Colocation = "standby-process"
	SameStandbyHost   Colocation = "standby-host"
)

// Describe says what a colocation means, for messages.
func (c Colocation) Describe() string {
	switch c {
	case SameProcess:
		return "on the same process as the active"
	case SameHost:
		return "on the same host as the active"
	case SameStandbyProc:
		return "on the same process as another standby"
	case SameStandbyHost:
		return "on the same host as another standby"
	}
	return ""
}

// The reasons fewer standbys count than are configured.
const (
	ReasonProcesses = "processes"
	ReasonHosts     = "hosts"
	ReasonRacks     = "racks"
	ReasonWarmups   = "warmups"
	ReasonAssignor  = "assignor"
)

// StandbyCopy is one standby of a task.
type StandbyCopy struct {
	Member int
	// Colocated says why it does not count; NotColocated when it does.
	Colocated Colocation
}

// TaskCoverage is the coverage of one stateful task.
type TaskCoverage struct {
	Task *Task
	// Standbys are its standbys in the current assignment, by member.
	Standbys []StandbyCopy
	// Counted is how many of them count.
	Counted int
	// Reason is why fewer count than configured (Reason*), "" when the
	// configured number is met or not known.
	Reason string
	// Copies are its copies' restoration progress, active first, then
	// standbys, then warm-ups (restore.go).
	Copies []CopyProgress
}

// Colocated counts the standbys that do not count.
func (t *TaskCoverage) Colocated() int { return len(t.Standbys) - t.Counted }

// Coverage is the group's standby coverage.
type Coverage struct {
	// Configured is the effective streams.num.standby.replicas;
	// ConfiguredKnown false when it could not be read.
	Configured      int64
	ConfiguredKnown bool
	// Tasks are the stateful tasks the members hold, in sub-topology and
	// partition order.
	Tasks []*TaskCoverage
	// Processes, Hosts and Racks count the group's distinct processes,
	// hosts and client-tag sets (Racks 0 when no member reports tags).
	Processes, Hosts, Racks int
	// ProgressReported tells that some member reported task offsets
	// (TaskOffsets or TaskEndOffsets); a 4.4.0 broker reports none.
	ProgressReported bool
	// AcceptableLag is streams.acceptable.recovery.lag, when known.
	AcceptableLag      int64
	AcceptableLagKnown bool
}

// WithoutStandby counts the stateful tasks with no standby that counts.
func (c *Coverage) WithoutStandby() int {
	n := 0
	for _, t := range c.Tasks {
		if t.Counted == 0 {
			n++
		}
	}
	return n
}

// Short lists the stateful tasks with fewer counted standbys than
// configured (none when the configured number is not known).
func (c *Coverage) Short() []*TaskCoverage {
	var out []*TaskCoverage
	if !c.ConfiguredKnown {
		return nil
	}
	for _, t := range c.Tasks {
		if int64(t.Counted) < c.Configured {
			out = append(out, t)
		}
	}
	return out
}

// Colocated counts the standbys, over all tasks, that do not count.
func (c *Coverage) Colocated() int {
	n := 0
	for _, t := range c.Tasks {
		n += t.Colocated()
	}
	return n
}

// MinCounted is the fewest counted standbys of a stateful task; ok is false
// without stateful tasks.
func (c *Coverage) MinCounted() (n int, ok bool) {
	for i, t := range c.Tasks {
		if i == 0 || t.Counted < n {
			n = t.Counted
		}
	}
	return n, len(c.Tasks) > 0
}

// Stateful tells whether the sub-topology has a changelog: the broker's
// assignor places standbys for such sub-topologies only.
func (s *Subtopology) Stateful() bool {
	return slices.ContainsFunc(s.Stores, func(st Store) bool { return st.Changelog != "" })
}

// HostOf is where a member runs, for colocation: its application.server
// host when it sets one, else its client host (without the leading "/"
// the broker writes); "" when neither is known.
func HostOf(m *kafka.Member) string {
	if m.UserEndpoint != nil && m.UserEndpoint.Host != "" {
		return strings.ToLower(m.UserEndpoint.Host)
	}
	return strings.ToLower(strings.TrimPrefix(m.ClientHost, "/"))
}

// rackOf is a member's client tags as one value; "" without tags.
func rackOf(m *kafka.Member) string {
	var parts []string
	for _, t := range m.ClientTags {
		parts = append(parts, t.Key+"="+t.Value)
	}
	return strings.Join(parts, ",")
}

// computeCoverage builds the group's coverage from its tasks, members and
// settings.
func computeCoverage(g *Group, s *Settings) *Coverage {
	c := &Coverage{}
	c.Configured, c.ConfiguredKnown = s.Int(ConfigStandbys)
	c.AcceptableLag, c.AcceptableLagKnown = s.Int(ConfigAcceptableRecoveryLag)
	procs, hosts, racks := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for i := range g.Members {
		m := &g.Members[i]
		procs[m.ProcessID] = true
		hosts[HostOf(m)] = true
		if r := rackOf(m); r != "" {
			racks[r] = true
		}
		if len(m.TaskOffsets) > 0 || len(m.TaskEndOffsets) > 0 {
			c.ProgressReported = true
		}
	}
	c.Processes, c.Hosts, c.Racks = len(procs), len(hosts), len(racks)
	progress := newProgressIndex(g.Members)
	for _, st := range g.Subtopologies {
		if !st.Stateful() {
			continue
		}
		for _, t := range st.Tasks {
			if len(t.Active)+len(t.Standby)+len(t.Warmup) == 0 {
				continue // not held: a stopped application's committed task
			}
			tc := &TaskCoverage{Task: t}
			tc.Standbys, tc.Counted = placeStandbys(g.Members, t)
			if c.ConfiguredKnown && int64(tc.Counted) < c.Configured {
				tc.Reason = c.reason(t)
			}
			tc.Copies = progress.copies(t, c)
			c.Tasks = append(c.Tasks, tc)
		}
	}
	return c
}

// placeStandbys judges each standby of t: whether it counts, or on what it
// is colocated.
func placeStandbys(members []kafka.Member, t *Task) ([]StandbyCopy, int) {
	activeProcs, activeHosts := map[string]bool{}, map[string]bool{}
	for _, a := range t.Active {
		activeProcs[members[a].ProcessID] = true
		activeHosts[HostOf(&members[a])] = true
	}
	seenProcs, seenHosts := map[string]bool{}, map[string]bool{}
	var out []StandbyCopy
	counted := 0
	for _, i := range t.Standby {
		m := &members[i]
		p, h := m.ProcessID, HostOf(m)
		cp := StandbyCopy{Member: i}
		switch {
		case activeProcs[p]:
			cp.Colocated = SameProcess
		case h != "" && activeHosts[h]:
			cp.Colocated = SameHost
		case seenProcs[p]:
			cp.Colocated = SameStandbyProc
		case h != "" && seenHosts[h]:
			cp.Colocated = SameStandbyHost
		default:
			counted++
		}
		seenProcs[p], seenHosts[h] = true, true
		out = append(out, cp)
	}
	return out, counted
}

// reason is why a task has fewer counted standbys than configured: the
// first of too few processes, hosts or racks for the copies, a warm-up or
// standby of the task still being placed, or the assignor.
func (c *Coverage) reason(t *Task) string {
	copies := c.Configured + 1
	switch {
	case int64(c.Processes) < copies:
		return ReasonProcesses
	case int64(c.Hosts) < copies:
		return ReasonHosts
	case c.Racks > 0 && int64(c.Racks) < copies:
		return ReasonRacks
	case len(t.Warmup) > 0 || len(t.TargetWarmup) > 0 || !slices.Equal(t.Standby, t.TargetStandby):
		return ReasonWarmups
	}
	return ReasonAssignor
}

// ReasonText says a reason in words, with the counts that make it.
func (c *Coverage) ReasonText(reason string) string {
	copies := c.Configured + 1
	switch reason {
	case ReasonProcesses:
		return fmt.Sprintf("%s for %d copies (active and %d standby)", countOf(c.Processes, "process", "processes"), copies, c.Configured)
	case ReasonHosts:
		return fmt.Sprintf("%s for %d copies: standbys on the active's host do not count", countOf(c.Hosts, "host", "hosts"), copies)
	case ReasonRacks:
		return fmt.Sprintf("%s (client tags) for %d copies", countOf(c.Racks, "rack", "racks"), copies)
	case ReasonWarmups:
		return "warm-ups still running: the standby is being placed"
	case ReasonAssignor:
		return "the assignor did not place them"
	}
	return reason
}

func countOf(n int, one, many string) string {
	if n == 1 {
		return "only 1 " + one
	}
	return fmt.Sprintf("only %d %s", n, many)
}

// SettingsReader is what the group configs need from the client, besides
// Client; a client without it gets no settings.
type SettingsReader interface {
	GroupSettings(ctx context.Context, groups []string) map[string]*Settings
}

// fillSettings reads the settings of the groups described without error.
func fillSettings(ctx context.Context, client Client, groups []*Group) {
	r, ok := client.(SettingsReader)
	if !ok {
		return
	}
	var ids []string
	for _, g := range groups {
		if g.Err == nil {
			ids = append(ids, g.Group)
		}
	}
	if len(ids) == 0 {
		return
	}
	got := r.GroupSettings(ctx, ids)
	for _, g := range groups {
		if g.Err == nil {
			g.Settings = got[g.Group]
		}
	}
}
