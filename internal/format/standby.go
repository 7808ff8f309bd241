package format

// Standby coverage and restoration progress in the overview (docs/standbys.md).
// Text display rules:
//   - the group head gains the assignor, the effective standby and warm-up
//     counts and the acceptable recovery lag, each with where its value
//     comes from (set on the group, or the broker's default); "unknown"
//     with the reason when the group configs cannot be read;
//   - "Coverage:" says how many stateful tasks have the configured number
//     of standbys that count, then one line per reason why some have
//     fewer (naming up to three tasks and how many more), then one line
//     per kind of co-location (a standby on its active's process or host,
//     named with its member);
//   - "Restoration:" says "not reported by this broker" when no member
//     reported task offsets (never 0); else each stateful sub-topology
//     lists, per task, each copy's changelog lag, marked when above the
//     acceptable recovery lag;
//   - a stateful task's row notes "standbys N/M" when fewer count than
//     configured, and "co-located: mK (host)" for a standby that does not
//     count.

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/overview"
)

// maxTasksNamed is how many tasks a coverage line names before "and N
// more".
const maxTasksNamed = 3

// standbySettingText is a setting's value and where it comes from.
func standbySettingText(s *overview.Settings, name string) string {
	v, ok := s.Get(name)
	if !ok {
		return "unknown (not set on the group; the broker does not report its default)"
	}
	return Escape(v.Value) + " (" + sourceText(v.Source) + ")"
}

func sourceText(source string) string {
	switch source {
	case "group":
		return "set on the group"
	case "default":
		return "broker default"
	case "":
		return "source unknown"
	}
	return Escape(source)
}

// writeStandbyHead writes the head lines of the standby settings and
// coverage.
func writeStandbyHead(t *tableWriter, g *overview.Group, label func(string) string) {
	st := t.st
	assignor := ""
	if g.AssignorName != nil {
		assignor = Escape(*g.AssignorName)
	} else if v, ok := g.Settings.Get(overview.ConfigAssignor); ok {
		assignor = Escape(v.Value) + " (" + sourceText(v.Source) + ")"
	}
	if assignor != "" {
		t.write(label("Assignor") + assignor + "\n")
	}
	switch s := g.Settings; {
	case s == nil:
	case s.Err != nil:
		t.write(label("Standbys") + st.Paint(st.orPlain().Warning, "unknown") + " (cannot read the group configs: " + Escape(s.Err.Error()) + ")\n")
	default:
		t.write(label("Standbys") + standbySettingText(s, overview.ConfigStandbys) + "\n")
		t.write(label("Warm-ups") + standbySettingText(s, overview.ConfigWarmups) + "\n")
		lag := standbySettingText(s, overview.ConfigAcceptableRecoveryLag)
		if v, ok := s.Get(overview.ConfigAcceptableRecoveryLag); ok {
			lag = "up to " + Escape(v.Value) + " records acceptable (" + sourceText(v.Source) + ")"
		}
		t.write(label("Recovery lag") + lag + "\n")
	}
	c := g.Coverage
	if c == nil || len(c.Tasks) == 0 {
		return
	}
	lines := append(coverageLines(st, c), colocationLines(st, c)...)
	writeList(t, label("Coverage"), lines)
	restoration := "not reported by this broker"
	if c.ProgressReported {
		restoration = "changelog lag per copy, as the members report it (below each sub-topology)"
	}
	t.write(label("Restoration") + restoration + "\n")
}

// coverageLines are the coverage lines of the tasks with fewer standbys
// than configured, by reason.
func coverageLines(st *Styles, c *overview.Coverage) []string {
	n := len(c.Tasks)
	short := c.Short()
	switch {
	case !c.ConfiguredKnown:
		return []string{fmt.Sprintf("%s, %d without a standby that counts (configured number unknown)", plural(n, "stateful task"), c.WithoutStandby())}
	case c.Configured == 0:
		return []string{plural(n, "stateful task") + ", " + st.Paint(st.orPlain().Warning, "no standbys configured") + ": a failover restores from the changelog"}
	case len(short) == 0:
		return []string{fmt.Sprintf("all %s have %s", plural(n, "stateful task"), plural(int(c.Configured), "standby"))}
	}
	lines := []string{st.Paint(st.orPlain().Warning, fmt.Sprintf("%d of %d stateful tasks", len(short), n)) +
		fmt.Sprintf(" have fewer than %s", plural(int(c.Configured), "standby"))}
	for _, reason := range reasonOrder {
		var ids []string
		for _, tc := range short {
			if tc.Reason == reason {
				ids = append(ids, Escape(tc.Task.String()))
			}
		}
		if len(ids) > 0 {
			lines = append(lines, Escape(c.ReasonText(reason))+": "+namedList(ids))
		}
	}
	return lines
}

// colocationLines name the standbys that do not count, by where they sit.
func colocationLines(st *Styles, c *overview.Coverage) []string {
	var lines []string
	for _, kind := range colocationOrder {
		var named []string
		for _, tc := range c.Tasks {
			for _, sb := range tc.Standbys {
				if sb.Colocated == kind {
					named = append(named, Escape(tc.Task.String())+" ("+MemberRef(sb.Member)+")")
				}
			}
		}
		if len(named) > 0 {
			lines = append(lines, st.Paint(st.orPlain().Warning, "standby "+kind.Describe())+", not counted: "+namedList(named))
		}
	}
	return lines
}

// reasonOrder is the order of the coverage's reason lines.
var reasonOrder = []string{overview.ReasonProcesses, overview.ReasonHosts, overview.ReasonRacks, overview.ReasonWarmups, overview.ReasonAssignor}

// colocationOrder is the order of the co-location lines.
var colocationOrder = []overview.Colocation{overview.SameProcess, overview.SameHost, overview.SameStandbyProc, overview.SameStandbyHost}

// namedList names up to maxTasksNamed items and how many more.
func namedList(items []string) string {
	if len(items) <= maxTasksNamed {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:maxTasksNamed], ", ") + " and " + strconv.Itoa(len(items)-maxTasksNamed) + " more"
}

// taskCoverage finds a task's coverage; nil for a stateless task.
func taskCoverage(g *overview.Group, t *overview.Task) *overview.TaskCoverage {
	if g.Coverage == nil {
		return nil
	}
	i := slices.IndexFunc(g.Coverage.Tasks, func(tc *overview.TaskCoverage) bool { return tc.Task == t })
	if i < 0 {
		return nil
	}
	return g.Coverage.Tasks[i]
}

// coverageNote is a task row's note: its standbys short of the configured
// number and those that do not count.
func coverageNote(g *overview.Group, t *overview.Task, st *Styles) string {
	tc := taskCoverage(g, t)
	if tc == nil {
		return ""
	}
	var parts []string
	if c := g.Coverage; c.ConfiguredKnown && int64(tc.Counted) < c.Configured {
		parts = append(parts, fmt.Sprintf("standbys %d/%d", tc.Counted, c.Configured))
	}
	for _, sb := range tc.Standbys {
		if sb.Colocated != overview.NotColocated {
			parts = append(parts, "co-located: "+MemberRef(sb.Member)+" ("+string(sb.Colocated)+")")
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "  " + st.Paint(st.orPlain().Warning, strings.Join(parts, ", "))
}

// writeRestoration writes the changelog lag of the copies of a stateful
// sub-topology's tasks, when the members report it.
func writeRestoration(t *tableWriter, g *overview.Group, s *overview.Subtopology) {
	c := g.Coverage
	if c == nil || !c.ProgressReported {
		return
	}
	var rows []string
	for _, task := range s.Tasks {
		tc := taskCoverage(g, task)
		if tc == nil {
			continue
		}
		copies := mapAll(tc.Copies, func(cp overview.CopyProgress) string { return copyText(cp, t.st) })
		rows = append(rows, pad(Escape(task.String()), 6)+" "+strings.Join(copies, "; "))
	}
	if len(rows) == 0 {
		return
	}
	head := "    Changelog lag"
	if c.AcceptableLagKnown {
		head += " (acceptable " + strconv.FormatInt(c.AcceptableLag, 10) + ")"
	}
	t.write(head + ":\n")
	for _, r := range rows {
		t.write("    " + r + "\n")
	}
}

// kindWord is a copy's kind in the text.
func kindWord(kind string) string {
	if kind == overview.CopyWarmup {
		return "warm-up"
	}
	return kind
}

// copyText is one copy's changelog lag: "m1 active 0", "m2 standby 40",
// "m3 warm-up 400 (above acceptable)", "m2 standby not reported".
func copyText(cp overview.CopyProgress, st *Styles) string {
	out := MemberRef(cp.Member) + " " + kindWord(cp.Kind) + " "
	if !cp.Reported {
		return out + "not reported"
	}
	out += strconv.FormatInt(cp.Lag, 10)
	if cp.Kind == overview.CopyActive && cp.Lag > 0 {
		out += " restoring"
	}
	if cp.WithinKnown && !cp.Within {
		out += " " + st.Paint(st.orPlain().Warning, "(above acceptable)")
	}
	return out
}

// StandbyCoverageDoc is a group's standby coverage (docs/standbys.md).
// configured_standbys is null when the group configs could not be read
// (settings_error says why, when they were asked for); restoration_reported
// false means no member reported task offsets: every copy's lag is then
// null, never 0.
type StandbyCoverageDoc struct {
	ConfiguredStandbys    *int64              `json:"configured_standbys" yaml:"configured_standbys"`
	SettingsError         string              `json:"settings_error,omitempty" yaml:"settings_error,omitempty"`
	AcceptableRecoveryLag *int64              `json:"acceptable_recovery_lag" yaml:"acceptable_recovery_lag"`
	StatefulTasks         int                 `json:"stateful_tasks" yaml:"stateful_tasks"`
	TasksWithoutStandby   int                 `json:"tasks_without_standby" yaml:"tasks_without_standby"`
	TasksShort            int                 `json:"tasks_short" yaml:"tasks_short"`
	ColocatedStandbys     int                 `json:"colocated_standbys" yaml:"colocated_standbys"`
	Processes             int                 `json:"processes" yaml:"processes"`
	Hosts                 int                 `json:"hosts" yaml:"hosts"`
	Racks                 int                 `json:"racks" yaml:"racks"`
	RestorationReported   bool                `json:"restoration_reported" yaml:"restoration_reported"`
	Tasks                 []StandbyTaskDoc    `json:"tasks" yaml:"tasks"`
	Settings              []StreamsSettingDoc `json:"settings" yaml:"settings"`
}

// StreamsSettingDoc is one effective streams group config: value and
// source ("group" or "default").
type StreamsSettingDoc struct {
	Name   string `json:"name" yaml:"name"`
	Value  string `json:"value" yaml:"value"`
	Source string `json:"source" yaml:"source"`
}

// StandbyTaskDoc is one stateful task's coverage; reason (with
// reason_text) is set when fewer standbys count than configured.
type StandbyTaskDoc struct {
	ID              string            `json:"id" yaml:"id"`
	StandbysCounted int               `json:"standbys_counted" yaml:"standbys_counted"`
	Standbys        []StandbyCopyDoc  `json:"standbys" yaml:"standbys"`
	Reason          string            `json:"reason,omitempty" yaml:"reason,omitempty"`
	ReasonText      string            `json:"reason_text,omitempty" yaml:"reason_text,omitempty"`
	Copies          []CopyProgressDoc `json:"copies" yaml:"copies"`
}

// StandbyCopyDoc is one standby; colocated (absent when it counts) is
// process, host, standby-process or standby-host.
type StandbyCopyDoc struct {
	Member    string `json:"member" yaml:"member"`
	Colocated string `json:"colocated,omitempty" yaml:"colocated,omitempty"`
}

// CopyProgressDoc is one copy's restoration progress: kind active,
// standby or warmup; offsets and lag null when not reported.
type CopyProgressDoc struct {
	Member              string `json:"member" yaml:"member"`
	Kind                string `json:"kind" yaml:"kind"`
	ChangelogOffset     *int64 `json:"changelog_offset" yaml:"changelog_offset"`
	ChangelogEndOffset  *int64 `json:"changelog_end_offset" yaml:"changelog_end_offset"`
	ChangelogLag        *int64 `json:"changelog_lag" yaml:"changelog_lag"`
	WithinAcceptableLag *bool  `json:"within_acceptable_lag" yaml:"within_acceptable_lag"`
}

// newStandbyCoverageDoc is nil without a coverage.
func newStandbyCoverageDoc(g *overview.Group) *StandbyCoverageDoc {
	c := g.Coverage
	if c == nil {
		return nil
	}
	d := &StandbyCoverageDoc{StatefulTasks: len(c.Tasks), TasksWithoutStandby: c.WithoutStandby(), TasksShort: len(c.Short()),
		ColocatedStandbys: c.Colocated(), Processes: c.Processes, Hosts: c.Hosts, Racks: c.Racks, RestorationReported: c.ProgressReported,
		Settings: []StreamsSettingDoc{}, Tasks: mapAll(c.Tasks, func(tc *overview.TaskCoverage) StandbyTaskDoc { return standbyTaskDoc(g, tc) })}
	if c.ConfiguredKnown {
		n := c.Configured
		d.ConfiguredStandbys = &n
	}
	if c.AcceptableLagKnown {
		n := c.AcceptableLag
		d.AcceptableRecoveryLag = &n
	}
	if s := g.Settings; s != nil {
		if s.Err != nil {
			d.SettingsError = s.Err.Error()
		}
		d.Settings = mapAll(slices.Sorted(maps.Keys(s.Values)), func(name string) StreamsSettingDoc {
			return StreamsSettingDoc{Name: name, Value: s.Values[name].Value, Source: s.Values[name].Source}
		})
	}
	return d
}

// standbyTaskDoc is one stateful task's standbys and copies.
func standbyTaskDoc(g *overview.Group, tc *overview.TaskCoverage) StandbyTaskDoc {
	td := StandbyTaskDoc{ID: tc.Task.String(), StandbysCounted: tc.Counted, Reason: tc.Reason,
		Standbys: mapAll(tc.Standbys, func(sb overview.StandbyCopy) StandbyCopyDoc {
			return StandbyCopyDoc{Member: g.Members[sb.Member].MemberID, Colocated: string(sb.Colocated)}
		}),
		Copies: mapAll(tc.Copies, func(cp overview.CopyProgress) CopyProgressDoc {
			cd := CopyProgressDoc{Member: g.Members[cp.Member].MemberID, Kind: cp.Kind}
			if cp.Reported {
				off, end, lag := cp.Offset, cp.End, cp.Lag
				cd.ChangelogOffset, cd.ChangelogEndOffset, cd.ChangelogLag = &off, &end, &lag
				if cp.WithinKnown {
					w := cp.Within
					cd.WithinAcceptableLag = &w
				}
			}
			return cd
		})}
	if tc.Reason != "" {
		td.ReasonText = g.Coverage.ReasonText(tc.Reason)
	}
	return td
}
