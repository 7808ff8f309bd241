package format

// Display rules of `kstreams-groups overview` (a view of ours; Kafka's tool
// has none), for a person at an 80-column terminal:
//   - one block per group in request order, separated by a blank line; a
//     group that failed prints nothing here (its error goes to stderr);
//   - the head: state, member count, coordinator, epochs, the last
//     rebalance and its causes (when the history was read:
//     overview_rebalance.go), the description
//     status (with a note when it is not AVAILABLE: the nodes are then
//     unknown, everything else comes from the group's topology), the
//     group's lag and its largest task;
//   - members, sorted by member id, are named m1, m2, ... in the task rows;
//     each is listed with its user endpoint (application.server), client
//     host, member, instance (a static member's group.instance.id; "left"
//     when it left and holds its tasks until its session expires), process
//     and client ids, one per line;
//   - sub-topologies in id order, each with its sources (repartition
//     topics marked, each with its lag), sinks, repartition sinks, stores
//     with their changelogs and, from an AVAILABLE description, its nodes in
//     the broker's order; then one row per task in partition order: the
//     members holding it active, standby and warm-up, its lag right-aligned
//     and, when target and current assignment differ, "moving:" with the
//     target holders that differ;
//   - lag is end offset minus committed offset, summed over the task's
//     source partitions (log start instead of a committed offset that does
//     not exist, as the offsets view does); a committed offset past the log
//     end counts as 0 and is named: in the head ("Ahead:", one partition a
//     line) and in its task's row ("ahead: T-P"); a source topic that does
//     not exist is named in the head ("Missing:") and in the sources;
//   - standby coverage, the group's streams settings and restoration
//     progress: standby.go;
//   - --store: one row per partition of the store's sub-topology, with the
//     host (user endpoint, else client host) of the active, standby and
//     warm-up copies;
//   - broker strings are escaped; with color, headers are bold, a lag above
//     zero is yellow, the largest task's lag red and "moving" magenta, all
//     added around unchanged text.

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// OverviewText writes the text of an overview (or, with a store, of the
// store view).
func OverviewText(w io.Writer, res *overview.Result, st *Styles) error {
	t := newTable(w, st)
	first := true
	for _, g := range res.Groups {
		if g.Err != nil {
			continue
		}
		if !first {
			t.write("\n")
		}
		first = false
		if g.Store != nil {
			writeStoreView(t, g)
		} else {
			writeOverview(t, g)
		}
	}
	return t.err
}

// MemberRef is a member's short name in the task rows: m1, m2, ...
func MemberRef(i int) string { return "m" + strconv.Itoa(i+1) }

func refs(ms []int) string {
	if len(ms) == 0 {
		return missing
	}
	return strings.Join(mapAll(ms, MemberRef), ",")
}

// memberHost is where a member's instance is reached: its user endpoint
// (application.server), else its client host.
func memberHost(m *kafka.Member) string {
	if m.UserEndpoint != nil {
		return Escape(m.UserEndpoint.Host) + ":" + strconv.Itoa(int(m.UserEndpoint.Port))
	}
	if m.ClientHost == "" {
		return missing
	}
	return Escape(m.ClientHost)
}

func writeOverview(t *tableWriter, g *overview.Group) {
	st := t.st
	head := fmt.Sprintf("Streams group '%s'", Escape(g.Group))
	t.write(st.Paint(st.orPlain().Header, head) + ": " + st.PaintState(g.State, Escape(g.State)) + ", " + plural(len(g.Members), "member") + "\n")
	label := func(name string) string { return "  " + pad(name+":", 15) }
	if g.Coordinator != nil {
		t.write(label("Coordinator") + Escape(g.Coordinator.Host) + ":" + strconv.Itoa(int(g.Coordinator.Port)) + " (" + strconv.Itoa(int(g.Coordinator.ID)) + ")\n")
	}
	t.write(label("Epochs") + fmt.Sprintf("group %d, target assignment %d, topology %d\n", g.GroupEpoch, g.AssignmentEpoch, g.TopologyEpoch))
	writeRebalanceHead(t, g, label)
	status := g.DescriptionStatus.String()
	switch g.DescriptionStatus {
	case topology.Available:
	case topology.Error:
		status = st.Paint(st.orPlain().Error, status) + " (nodes unknown: the broker failed to fetch the description)"
	default:
		status = st.Paint(st.orPlain().Warning, status) + " (nodes unknown: no description is stored)"
	}
	t.write(label("Description") + status + "\n")
	writeStandbyHead(t, g, label)
	lag := st.paintLag(g.Lag, false)
	if g.Largest != nil && g.Largest.Lag > 0 {
		lag += " (largest task " + Escape(g.Largest.String()) + ": " + st.paintLag(g.Largest.Lag, g.Largest.Lag > 0) + ")"
	}
	t.write(label("Lag") + lag + "\n")
	var missing, ahead []string
	for _, topic := range g.MissingTopics() {
		missing = append(missing, st.Paint(st.orPlain().Error, Escape(topic))+" (source topic does not exist: lag unknown)")
	}
	for _, p := range g.AheadPartitions() {
		ahead = append(ahead, st.Paint(st.orPlain().Warning, partitionName(p))+fmt.Sprintf(" committed %d, past the log end %d (lag counted as 0)", *p.Committed, p.LogEnd))
	}
	writeList(t, label("Missing"), missing)
	writeList(t, label("Ahead"), ahead)
	if g.Time.Measured {
		line := TimeLagText(g.Time) + ", " + recordsText(g.Time)
		if g.Time.Err != nil {
			line += " (records not read: " + Escape(g.Time.Err.Error()) + ")"
		}
		t.write(label("Time lag") + line + "\n")
	}
	if len(g.GlobalStores) > 0 {
		gs := mapAll(g.GlobalStores, func(s *topology.GlobalStore) string {
			return escapedList(s.Processor.Stores) + " (from " + escapedList(s.Source.Topics) + ")"
		})
		t.write(label("Global stores") + strings.Join(gs, "; ") + "\n")
	}

	if len(g.Members) > 0 {
		t.write("\n  " + st.Paint(st.orPlain().Header, "Members:") + "\n")
	}
	for i := range g.Members {
		m := &g.Members[i]
		t.write("    " + pad(MemberRef(i), 4) + memberHost(m))
		if m.UserEndpoint != nil && m.ClientHost != "" {
			t.write("  (client host " + Escape(m.ClientHost) + ")")
		}
		t.write("\n")
		t.write("        member   " + Escape(m.MemberID) + "\n")
		if m.InstanceID != nil {
			t.write("        instance " + Escape(*m.InstanceID) + leftNote(m) + "\n")
		}
		t.write("        process  " + Escape(m.ProcessID) + "\n")
		t.write("        client   " + Escape(m.ClientID) + "\n")
	}
	for _, s := range g.Subtopologies {
		writeSubtopology(t, g, s)
	}
}

// leftStaticEpoch is the member epoch of a static member that left: the
// coordinator keeps it, and its tasks, until its session expires.
const leftStaticEpoch = -2

func leftNote(m *kafka.Member) string {
	if m.MemberEpoch == leftStaticEpoch {
		return " (left: holds its tasks until its session expires)"
	}
	return ""
}

func writeSubtopology(t *tableWriter, g *overview.Group, s *overview.Subtopology) {
	st := t.st
	head := "\n  " + st.Paint(st.orPlain().Header, "Sub-topology "+Escape(s.ID)) + ": " + plural(len(s.Tasks), "task") + ", lag " + st.paintLag(s.Lag, false)
	if largest := largestTask(s); largest != nil {
		head += " (largest task " + Escape(largest.String()) + ": " + st.paintLag(largest.Lag, false) + ")"
	}
	if s.Time.Measured {
		head += ", time lag " + TimeLagText(s.Time)
	}
	t.write(head + "\n")
	label := func(name string) string { return "    " + pad(name+":", 19) }
	var srcs []string
	for _, src := range s.Sources {
		note := "lag " + st.paintLag(src.Lag, false)
		if src.Missing {
			note = st.Paint(st.orPlain().Error, "does not exist")
		}
		if src.Repartition {
			note = "repartition, " + note
		}
		srcs = append(srcs, Escape(src.Topic)+" ("+note+")")
	}
	writeList(t, label("Sources"), srcs)
	sinks := mapAll(s.Sinks, Escape)
	if s.DynamicSink {
		sinks = append(sinks, "(dynamic: topic chosen per record)")
	}
	writeList(t, label("Sinks"), sinks)
	writeList(t, label("Repartition sinks"), mapAll(s.RepartitionSinks, Escape))
	var stores []string
	for _, x := range s.Stores {
		c := "no changelog"
		if x.Changelog != "" {
			c = "changelog " + Escape(x.Changelog)
		}
		stores = append(stores, Escape(x.Name)+" ("+c+")")
	}
	writeList(t, label("Stores"), stores)
	if s.Nodes != nil {
		writeList(t, label("Nodes"), mapAll(s.Nodes, func(n *topology.Node) string { return pad(kindLabel(n.Kind), 10) + Escape(n.Name) }))
	}
	if len(s.Tasks) == 0 {
		t.write("    No tasks are assigned.\n")
		return
	}
	ids, act, stb, wrm, lags, times := []string{"TASK"}, []string{"ACTIVE"}, []string{"STANDBY"}, []string{"WARM-UP"}, []string{"LAG"}, []string{"TIME LAG"}
	for _, task := range s.Tasks {
		ids = append(ids, Escape(task.String()))
		act, stb, wrm = append(act, refs(task.Active)), append(stb, refs(task.Standby)), append(wrm, refs(task.Warmup))
		lags = append(lags, strconv.FormatInt(task.Lag, 10))
		times = append(times, TimeLagText(task.Time))
	}
	wi, wa, ws, ww, wl, wt := width(6, ids...), width(0, act...), width(0, stb...), width(0, wrm...), width(8, lags...), width(0, times...)
	timeHead := ""
	if s.Time.Measured {
		timeHead = " " + padLeft("TIME LAG", wt)
	}
	t.write("    " + st.Paint(st.orPlain().Header, pad("TASK", wi)+" "+pad("ACTIVE", wa)+" "+pad("STANDBY", ws)+" "+pad("WARM-UP", ww)+" "+padLeft("LAG", wl)+timeHead) + "\n")
	for i, task := range s.Tasks {
		row := "    " + pad(ids[i+1], wi) + " " + pad(act[i+1], wa) + " " + pad(stb[i+1], ws) + " " + pad(wrm[i+1], ww) + " " +
			st.paintLag2(task.Lag, padLeft(lags[i+1], wl), g.Largest == task && task.Lag > 0)
		if s.Time.Measured {
			row += " " + padLeft(times[i+1], wt)
		}
		if task.Moving() {
			row += "  " + st.Paint(st.orPlain().Moving, "moving: "+movingText(task))
		}
		var ahead []string
		for _, p := range task.Offsets {
			if p.Ahead > 0 {
				ahead = append(ahead, partitionName(p))
			}
		}
		if len(ahead) > 0 {
			row += "  " + st.Paint(st.orPlain().Warning, "ahead: "+strings.Join(ahead, ","))
		}
		row += coverageNote(g, task, st)
		t.write(row + "\n")
	}
	writeRestoration(t, g, s)
}

// partitionName is a source partition as T-P, escaped.
func partitionName(p overview.PartitionLag) string {
	return Escape(p.Topic) + "-" + strconv.Itoa(int(p.Partition))
}

// largestTask is the subtopology's task with the largest lag above zero
// (the first among equals), or nil.
func largestTask(s *overview.Subtopology) *overview.Task {
	var out *overview.Task
	for _, t := range s.Tasks {
		if t.Lag > 0 && (out == nil || t.Lag > out.Lag) {
			out = t
		}
	}
	return out
}

// movingText names the target holders that differ from the current ones.
func movingText(t *overview.Task) string {
	var parts []string
	if !slices.Equal(t.Active, t.TargetActive) {
		parts = append(parts, "active -> "+refs(t.TargetActive))
	}
	if !slices.Equal(t.Standby, t.TargetStandby) {
		parts = append(parts, "standby -> "+refs(t.TargetStandby))
	}
	if !slices.Equal(t.Warmup, t.TargetWarmup) {
		parts = append(parts, "warm-up -> "+refs(t.TargetWarmup))
	}
	return strings.Join(parts, ", ")
}

func writeStoreView(t *tableWriter, g *overview.Group) {
	st := t.st
	v := g.Store
	c := "none"
	if v.Changelog != "" {
		c = Escape(v.Changelog)
	}
	t.write(st.Paint(st.orPlain().Header, fmt.Sprintf("Streams group '%s'", Escape(g.Group))) + ": store " + Escape(v.Name) + "\n")
	t.write("  " + pad("Sub-topology:", 15) + Escape(v.Subtopology) + "\n")
	t.write("  " + pad("Changelog:", 15) + c + "\n\n")
	if len(v.Tasks) == 0 {
		t.write("  No tasks are assigned.\n")
		return
	}
	hosts := func(ms []int) string {
		if len(ms) == 0 {
			return missing
		}
		return strings.Join(mapAll(ms, func(i int) string { return memberHost(&g.Members[i]) + " (" + MemberRef(i) + ")" }), ", ")
	}
	parts, tasks, act, stb, wrm := []string{"PARTITION"}, []string{"TASK"}, []string{"ACTIVE"}, []string{"STANDBY"}, []string{"WARM-UP"}
	for _, task := range v.Tasks {
		parts, tasks = append(parts, strconv.Itoa(int(task.Partition))), append(tasks, Escape(task.String()))
		act, stb, wrm = append(act, hosts(task.Active)), append(stb, hosts(task.Standby)), append(wrm, hosts(task.Warmup))
	}
	wp, wt, wa, ws := width(0, parts...), width(0, tasks...), width(0, act...), width(0, stb...)
	for i := range parts {
		line := "  " + pad(parts[i], wp) + " " + pad(tasks[i], wt) + " " + pad(act[i], wa) + " " + pad(stb[i], ws) + " " + wrm[i]
		line = strings.TrimRight(line, " ")
		if i == 0 {
			line = st.Paint(st.orPlain().Header, line)
		}
		t.write(line + "\n")
	}
}

// writeList writes label then the items, one per line under each other.
func writeList(t *tableWriter, label string, items []string) {
	if len(items) == 0 {
		return
	}
	indent := strings.Repeat(" ", javaLen(label))
	for i, it := range items {
		if i == 0 {
			t.write(label + it + "\n")
		} else {
			t.write(indent + it + "\n")
		}
	}
}

// kindLabel is a node kind as Kafka's text names it: Source, Processor,
// Sink.
func kindLabel(k topology.Kind) string {
	switch k {
	case topology.Source:
		return "Source"
	case topology.Processor:
		return "Processor"
	case topology.Sink:
		return "Sink"
	}
	return k.String()
}

func escapedList(xs []string) string { return strings.Join(mapAll(SortedSet(xs), Escape), ", ") }

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// padLeft right-aligns s in a field of n characters.
func padLeft(s string, n int) string {
	if l := javaLen(s); l < n {
		return strings.Repeat(" ", n-l) + s
	}
	return s
}

// paintLag is a lag number, yellow above zero (red when largest).
func (s *Styles) paintLag(lag int64, largest bool) string {
	return s.paintLag2(lag, strconv.FormatInt(lag, 10), largest)
}

// paintLag2 paints text (lag, maybe padded) by the value of lag.
func (s *Styles) paintLag2(lag int64, text string, largest bool) string {
	if s == nil || lag <= 0 {
		return text
	}
	c := s.Lag
	if largest {
		c = s.LargestLag
	}
	trimmed := strings.TrimLeft(text, " ")
	return text[:len(text)-len(trimmed)] + s.Paint(c, trimmed)
}

// TimeLagText is a time lag in human units (4m12s, 3h5m, 2d1h); a time
// lag not known is "-", or ">=" and the largest known one when some part
// of it is known.
func TimeLagText(tl overview.TimeLag) string {
	switch {
	case !tl.Measured:
		return ""
	case tl.Known:
		return HumanDuration(tl.Lag)
	case tl.Lag > 0:
		return ">=" + HumanDuration(tl.Lag)
	}
	return missing
}

// recordsText is the record lag: exact, or an upper bound.
func recordsText(tl overview.TimeLag) string {
	if tl.Exact {
		return plural(int(min(tl.Records, int64(math.MaxInt32))), "record") + " to process"
	}
	return "at most " + plural(int(min(tl.Records, int64(math.MaxInt32))), "record") + " to process (offset lag, an upper bound)"
}

// HumanDuration writes d in its two largest units: 850ms, 42s, 4m12s,
// 3h5m, 2d1h; whole units leave the smaller out (4m, 3h).
func HumanDuration(d time.Duration) string {
	if d < time.Second {
		if d <= 0 {
			return "0s"
		}
		return strconv.FormatInt(d.Milliseconds(), 10) + "ms"
	}
	two := func(a int64, ua string, b int64, ub string) string {
		out := strconv.FormatInt(a, 10) + ua
		if b > 0 {
			out += strconv.FormatInt(b, 10) + ub
		}
		return out
	}
	s := int64(d / time.Second)
	switch {
	case s < 60:
		return strconv.FormatInt(s, 10) + "s"
	case s < 3600:
		return two(s/60, "m", s%60, "s")
	case s < 86400:
		return two(s/3600, "h", s%3600/60, "m")
	}
	return two(s/86400, "d", s%86400/3600, "h")
}

// TimeLagDeniedNotes are the lines, one per topic, for the topics whose
// records the principal may not read (overview.DeniedTopics): the time lag
// of their partitions is unknown, their offset lag is shown, and the note
// names the ACL that would give the time lag.
func TimeLagDeniedNotes(topics []string) []string {
	out := make([]string, 0, len(topics))
	for _, t := range topics {
		n := Escape(t)
		out = append(out, "note: no time lag for topic '"+n+"': this principal may not read it (the offset lag is shown); "+
			"the time lag needs the ACL ALLOW READ on TOPIC '"+n+"' (kafka-acls.sh --add --operation Read --topic '"+n+"' --allow-principal ...)")
	}
	return out
}
