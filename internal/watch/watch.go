package watch

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/check"
	"github.com/kstreams-groups/kstreams-groups/internal/describe"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// Snapshot is one sample's groups, in request order.
type Snapshot struct {
	Groups []Group
	// At is when the sample was taken (for Rates); set by the caller.
	At time.Time
}

// Group is what a sample tells about one group.
type Group struct {
	ID string
	// Err is the text of the error that kept the group from being
	// described; the other fields are then empty.
	Err             string
	State           string
	GroupEpoch      int32
	AssignmentEpoch int32
	TopologyEpoch   int32
	// Members are the member ids, sorted, with their client ids.
	Members []Member
	// Owners maps each task (S_P) to the member running it actively.
	Owners map[string]string
	// Moving are the tasks whose target holders differ from their current
	// ones, in task order (compareTasks).
	Moving []string
	// Lag is the group's total lag; nil when the view does not read it.
	Lag *int64
	// Description is the topology description status; NotRequested when
	// the view did not ask for it.
	Description topology.Status
	// Status is the check's status of the group; "" outside check.
	Status string
	// Progress is where each sub-topology stands, for Rates; nil unless
	// the sample read the records (overview --time-lag).
	Progress []Progress
	// Standbys maps each stateful task (S_P) to its standbys that count
	// (overview's coverage); nil when the view has no coverage.
	// Configured is streams.num.standby.replicas, nil when not known.
	Standbys   map[string]int
	Configured *int64
}

// Member is a member of a group.
type Member struct {
	ID, ClientID string
}

// FromOverview is the snapshot of an overview.
func FromOverview(res *overview.Result) Snapshot {
	var s Snapshot
	for _, g := range res.Groups {
		s.Groups = append(s.Groups, fromOverviewGroup(g))
	}
	return s
}

// fromOverviewGroup reads the overview's join: its tasks already hold
// their holders.
func fromOverviewGroup(g *overview.Group) Group {
	if g.Err != nil {
		return Group{ID: g.Group, Err: g.Err.Error()}
	}
	lag := g.Lag
	out := Group{ID: g.Group, State: g.State, GroupEpoch: g.GroupEpoch, AssignmentEpoch: g.AssignmentEpoch,
		TopologyEpoch: g.TopologyEpoch, Description: g.DescriptionStatus, Lag: &lag, Progress: progress(g)}
	var tasks []*overview.Task
	for _, st := range g.Subtopologies {
		tasks = append(tasks, st.Tasks...)
	}
	out.addTasks(g.Members, tasks)
	if c := g.Coverage; c != nil {
		out.Standbys = map[string]int{}
		for _, tc := range c.Tasks {
			out.Standbys[tc.Task.String()] = tc.Counted
		}
		if c.ConfiguredKnown {
			n := c.Configured
			out.Configured = &n
		}
	}
	return out
}

// FromCheck is the snapshot of a check: the overview of each group and its
// status.
func FromCheck(res *check.Result) Snapshot {
	var s Snapshot
	for _, g := range res.Groups {
		sg := fromOverviewGroup(g.Overview)
		sg.Status = g.Status.String()
		if !res.Options.ShowsTimeLag() {
			// A lag threshold reads the records too; the pace is shown
			// only when the time lag was asked for.
			sg.Progress = nil
		}
		s.Groups = append(s.Groups, sg)
	}
	return s
}

// FromDescribe is the snapshot of a describe, whatever its view; the lag
// is known in the offsets view only.
func FromDescribe(res *describe.Result) Snapshot {
	var s Snapshot
	for _, g := range res.Groups {
		if g.Err != nil {
			s.Groups = append(s.Groups, Group{ID: g.Group, Err: g.Err.Error()})
			continue
		}
		sg := fromStreams(g.Group, &g.StreamsGroup)
		if res.View == describe.ViewOffsets && g.Offsets != nil {
			var lag int64
			for _, o := range g.Offsets {
				lag = overview.AddLag(lag, o.Lag)
			}
			sg.Lag = &lag
		}
		s.Groups = append(s.Groups, sg)
	}
	return s
}

func fromStreams(id string, g *kafka.StreamsGroup) Group {
	out := Group{ID: id, State: g.State, GroupEpoch: g.GroupEpoch, AssignmentEpoch: g.AssignmentEpoch,
		TopologyEpoch: g.TopologyEpoch, Description: g.TopologyStatus}
	out.addTasks(g.Members, overview.Holders(g.Members))
	return out
}

// addTasks adds the members and, from tasks (whose holders are indexes
// into members), each task's active owner and the tasks moving.
func (out *Group) addTasks(members []kafka.Member, tasks []*overview.Task) {
	for _, m := range members {
		out.Members = append(out.Members, Member{ID: m.MemberID, ClientID: m.ClientID})
	}
	slices.SortFunc(out.Members, func(a, b Member) int { return strings.Compare(a.ID, b.ID) })
	out.Owners = map[string]string{}
	for _, t := range tasks {
		if len(t.Active) > 0 {
			out.Owners[t.String()] = members[t.Active[0]].MemberID
		}
		if t.Moving() {
			out.Moving = append(out.Moving, t.String())
		}
	}
	slices.SortFunc(out.Moving, compareTasks)
}

// Change is one difference between two samples of a group.
type Change struct {
	Group string
	// Text says what changed, with broker strings unescaped.
	Text string
}

func (c Change) String() string { return c.Group + ": " + c.Text }

// Changes lists what changed from prev to cur, group by group in cur's
// order: a group that appeared, failed or recovered; the state, the
// epochs, the description status and the check's status; members that
// joined or left; tasks whose active owner changed; the tasks moving when
// that set changed; the standbys configured and each stateful task's
// standbys that count, when they changed; the lag when it rose.
func Changes(prev, cur Snapshot) []Change {
	before := map[string]Group{}
	for _, g := range prev.Groups {
		if _, dup := before[g.ID]; !dup {
			before[g.ID] = g
		}
	}
	var out []Change
	seen := map[string]bool{}
	for _, g := range cur.Groups {
		if seen[g.ID] {
			continue
		}
		seen[g.ID] = true
		add := func(format string, args ...any) {
			out = append(out, Change{Group: g.ID, Text: fmt.Sprintf(format, args...)})
		}
		p, ok := before[g.ID]
		if !availability(p, ok, g, add) {
			continue
		}
		statusChanges(p, g, add)
		memberChanges(p, g, add)
		taskChanges(p, g, add)
		standbyChanges(p, g, add)
		if p.Lag != nil && g.Lag != nil && *g.Lag > *p.Lag {
			add("lag %d -> %d (+%d)", *p.Lag, *g.Lag, *g.Lag-*p.Lag)
		}
	}
	for _, g := range prev.Groups {
		if !seen[g.ID] {
			seen[g.ID] = true
			out = append(out, Change{Group: g.ID, Text: "gone"})
		}
	}
	return out
}

// availability adds a group that appeared (there is no previous sample:
// ok is false), failed or recovered, and tells whether both samples
// describe it, so that the rest can be compared.
func availability(p Group, ok bool, g Group, add func(format string, args ...any)) bool {
	switch {
	case !ok:
		add("appeared")
	case g.Err != "" && p.Err != g.Err:
		add("fails: %s", g.Err)
	case g.Err != "":
	case p.Err != "":
		add("described again")
	default:
		return true
	}
	return false
}

// statusChanges adds the changes of the check's status, the state, the
// epochs and the description status.
func statusChanges(p, g Group, add func(format string, args ...any)) {
	if p.Status != g.Status && g.Status != "" {
		add("check %s -> %s", p.Status, g.Status)
	}
	if p.State != g.State {
		add("state %s -> %s", p.State, g.State)
	}
	for _, e := range []struct {
		name    string
		was, is int32
	}{{"group epoch", p.GroupEpoch, g.GroupEpoch}, {"target assignment epoch", p.AssignmentEpoch, g.AssignmentEpoch}, {"topology epoch", p.TopologyEpoch, g.TopologyEpoch}} {
		if e.was != e.is {
			add("%s %d -> %d", e.name, e.was, e.is)
		}
	}
	if p.Description != g.Description {
		add("topology description %s -> %s", p.Description, g.Description)
	}
}

// memberChanges adds the members that joined, in g's order, then the ones
// that left, in p's.
func memberChanges(p, g Group, add func(format string, args ...any)) {
	ids := func(ms []Member) map[string]bool {
		out := make(map[string]bool, len(ms))
		for _, m := range ms {
			out[m.ID] = true
		}
		return out
	}
	was, is := ids(p.Members), ids(g.Members)
	for _, m := range g.Members {
		if !was[m.ID] {
			add("member %s joined (%s)", m.ID, clientID(m))
		}
	}
	for _, m := range p.Members {
		if !is[m.ID] {
			add("member %s left (%s)", m.ID, clientID(m))
		}
	}
}

// taskChanges adds the tasks whose active owner changed, in task order,
// and the tasks moving when that set changed.
func taskChanges(p, g Group, add func(format string, args ...any)) {
	for _, t := range slices.SortedFunc(maps.Keys(g.Owners), compareTasks) {
		if was, ok := p.Owners[t]; ok && was != g.Owners[t] {
			add("task %s moved from %s to %s", t, was, g.Owners[t])
		}
	}
	if !slices.Equal(p.Moving, g.Moving) {
		if len(g.Moving) == 0 {
			add("no task moving")
		} else {
			add("%s moving: %s", plural(len(g.Moving), "task"), strings.Join(g.Moving, ", "))
		}
	}
}

// standbyChanges adds the changes of the standby coverage: the configured
// number, and the stateful tasks whose standbys that count changed (up to
// maxTasksNamed named, then how many more).
func standbyChanges(p, g Group, add func(format string, args ...any)) {
	if p.Configured != nil && g.Configured != nil && *p.Configured != *g.Configured {
		add("standbys configured %d -> %d", *p.Configured, *g.Configured)
	}
	if p.Standbys == nil || g.Standbys == nil {
		return
	}
	var changed []string
	for _, t := range slices.SortedFunc(maps.Keys(g.Standbys), compareTasks) {
		if was, ok := p.Standbys[t]; ok && was != g.Standbys[t] {
			changed = append(changed, fmt.Sprintf("task %s standbys %d -> %d", t, was, g.Standbys[t]))
		}
	}
	for i, c := range changed {
		if i == maxTasksNamed {
			add("standbys of %d more tasks changed", len(changed)-maxTasksNamed)
			break
		}
		add("%s", c)
	}
}

// maxTasksNamed is how many tasks' standby changes are named one by one.
const maxTasksNamed = 3

func clientID(m Member) string {
	if m.ClientID == "" {
		return "no client id"
	}
	return m.ClientID
}

// compareTasks orders S_P by subtopology (numeric ids numerically), then
// partition.
func compareTasks(a, b string) int {
	as, ap := splitTask(a)
	bs, bp := splitTask(b)
	return cmp.Or(kafka.CompareSubtopologyIDs(as, bs), cmp.Compare(ap, bp))
}

func splitTask(t string) (string, int) {
	i := strings.LastIndexByte(t, '_')
	p, _ := strconv.Atoi(t[i+1:])
	return t[:i], p
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
