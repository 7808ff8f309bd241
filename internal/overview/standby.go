package overview

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
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
// hosts, fewer racks (distinct values of the client tags the broker's
// group.streams.rack.aware.assignment.tags names, when it names some), a
// warm-up of the task still
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
	// RackTags are the coordinator's group.streams.rack.aware.assignment.tags,
	// the client tag keys rack-aware assignment spreads copies over; nil
	// when none are configured or they were not read.
	RackTags []string
}

// BrokerRackTags is the broker config naming the client tags of
// rack-aware standby assignment.
const BrokerRackTags = "group.streams.rack.aware.assignment.tags"

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
	n, err := strconv.ParseInt(strings.TrimSpace(v.Value), 10, 64)
	return n, err == nil
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
	NotColocated    Colocation = ""
	SameProcess     Colocation = "process"
	SameHost        Colocation = "host"
	SameStandbyProc Colocation = "standby-process"
	SameStandbyHost Colocation = "standby-host"
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
	// hosts and values of the rack-aware tags (Racks 0 when the broker
	// configures no rack-aware assignment tags).
	Processes, Hosts, Racks int
	// ProgressReported tells that some member reported task offsets
	// (TaskOffsets or TaskEndOffsets); a 4.4.0 broker reports none.
	ProgressReported bool
	// AcceptableLag is streams.acceptable.recovery.lag, when known.
	AcceptableLag      int64
	AcceptableLagKnown bool
}

// WithoutStandby counts the stateful tasks with no standby that counts.
func (c *Coverage) WithoutStandby() int { return len(c.Below(1)) }

// Short lists the stateful tasks with fewer counted standbys than
// configured (none when the configured number is not known).
func (c *Coverage) Short() []*TaskCoverage {
	if !c.ConfiguredKnown {
		return nil
	}
	return c.Below(c.Configured)
}

// Below lists the stateful tasks with fewer than n counted standbys.
func (c *Coverage) Below(n int64) []*TaskCoverage {
	var out []*TaskCoverage
	for _, t := range c.Tasks {
		if int64(t.Counted) < n {
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

// rackOf is a member's values of the rack-aware tag keys, as one value.
func rackOf(m *kafka.Member, keys []string) string {
	var parts []string
	for _, k := range keys {
		v := ""
		for _, t := range m.ClientTags {
			if t.Key == k {
				v = t.Value
			}
		}
		parts = append(parts, k+"="+v)
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
		if s != nil && slices.ContainsFunc(m.ClientTags, func(t kafka.ClientTag) bool { return slices.Contains(s.RackTags, t.Key) }) {
			racks[rackOf(m, s.RackTags)] = true // a member without the tags is in no rack
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
		standbys := "standbys"
		if c.Configured == 1 {
			standbys = "standby"
		}
		return fmt.Sprintf("%s for %d copies: the active and %d %s", countOf(c.Processes, "process", "processes"), copies, c.Configured, standbys)
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
	DescribeGroupConfigs(ctx context.Context, groups []string) []kafka.GroupConfigs
}

// BrokerConfigReader reads a broker's configs: the group.streams.*
// defaults a GROUP resource does not answer (FINDINGS F401) and the
// rack-aware assignment tags. A client without it leaves them unknown.
type BrokerConfigReader interface {
	DescribeBrokerConfigs(ctx context.Context, b kafka.Broker, names []string) ([]kafka.BrokerConfig, error)
}

// brokerDefaults are the broker configs whose group keys a 4.4.0 GROUP
// resource answers only when the group sets them.
var brokerDefaults = map[string]string{
	ConfigWarmups:               "group.streams.num.warmup.replicas",
	ConfigAcceptableRecoveryLag: "group.streams.acceptable.recovery.lag",
}

// SettingsFrom reads a group's DescribeConfigs answer: each key's
// effective value, "group" when set on the group, else "default".
func SettingsFrom(gc kafka.GroupConfigs) *Settings {
	s := &Settings{Values: map[string]Setting{}, Err: gc.Err}
	if gc.Err != nil {
		return s
	}
	for _, e := range gc.Entries {
		if e.Value == nil {
			continue
		}
		src := "default"
		if e.Dynamic() {
			src = "group"
		}
		s.Values[e.Name] = Setting{Value: *e.Value, Source: src}
	}
	return s
}

// ReadSettings reads the settings of groups: their group configs, and,
// when a client can and coord is set, the broker's defaults of the keys
// the groups do not answer and its rack-aware tags (one DescribeConfigs
// each). A client without SettingsReader gets nil.
func ReadSettings(ctx context.Context, client any, groups []string, coord *kafka.Broker) map[string]*Settings {
	r, ok := client.(SettingsReader)
	if !ok || len(groups) == 0 {
		return nil
	}
	out := map[string]*Settings{}
	for _, gc := range r.DescribeGroupConfigs(ctx, groups) {
		out[gc.Group] = SettingsFrom(gc)
	}
	br, ok := client.(BrokerConfigReader)
	if !ok || coord == nil {
		return out
	}
	names := []string{BrokerRackTags}
	for _, k := range slices.Sorted(maps.Keys(brokerDefaults)) {
		names = append(names, brokerDefaults[k])
	}
	configs, err := br.DescribeBrokerConfigs(ctx, *coord, names)
	if err != nil {
		return out // the defaults stay unknown
	}
	values := map[string]string{}
	for _, c := range configs {
		if c.Value != nil {
			values[c.Name] = *c.Value
		}
	}
	for _, s := range out {
		if s.Err != nil {
			continue
		}
		for key, broker := range brokerDefaults {
			if _, set := s.Values[key]; !set {
				if v, ok := values[broker]; ok {
					s.Values[key] = Setting{Value: v, Source: "default"}
				}
			}
		}
		s.RackTags = SplitList(values[BrokerRackTags])
	}
	return out
}

// settingsGroups are the ids of groups, whose settings are read, and the
// coordinator of the first.
func settingsGroups(groups []*Group) (ids []string, coord *kafka.Broker) {
	for _, g := range groups {
		ids = append(ids, g.Group)
		if coord == nil {
			coord = g.Coordinator
		}
	}
	return ids, coord
}

// Join is a described group's overview without offsets (no lag): its
// sub-topologies, tasks (in partition order) and standby coverage under
// settings (nil: not read). doctor diagnoses with it.
func Join(d admin.DescribedGroup, s *Settings) *Group {
	g := build(d)
	if g.Err != nil {
		return g
	}
	for _, st := range g.Subtopologies {
		slices.SortFunc(st.Tasks, func(a, b *Task) int { return cmp.Compare(a.Partition, b.Partition) })
	}
	g.Settings = s
	g.Coverage = computeCoverage(g, s)
	return g
}

// SplitList reads a broker's list config: comma-separated, blanks left
// out.
func SplitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}
