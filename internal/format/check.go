package format

// The text of `kstreams-groups check`, in the Monitoring Plugins
// Development Guidelines' plugin output:
//
//	STREAMS <STATUS> - <summary> | <perfdata>
//	<one line per group, with -v>
//	<under it, with -v: one line per missing source topic and per
//	 partition committed past its log end>
//
// The summary names every group that is not OK and why ("word-count
// CRITICAL: lag 1500 > 1000; page-views WARNING: state Reconciling,
// expected Stable; 1 of 3 groups OK"); when every group is OK it says how
// many (one group: its state, members and lag). The performance data is
// the guidelines' 'label'=value[UOM];warn;crit;min;max, space-separated,
// per group in request order: lag, max_task_lag, members, moving_tasks,
// group_epoch, target_assignment_epoch and topology_epoch, with the
// check's thresholds in the warn and crit fields (members: "N:", fewer
// than N is critical) and trailing empty fields dropped. Values are plain
// counts (records, members, tasks), so no unit; a group that could not be
// checked has none. Group names are escaped (Escape) in the text, where
// "|" becomes "/" since a plugin's reader splits the line at the first
// "|"; a label escapes the group reversibly (labelEscape), and "'", "="
// and "|", which a label cannot hold, as \x27, \x3D and \x7C, so that
// two groups never share a label.
// When the records were read (a lag or time-lag threshold, --time-lag),
// lag is the record lag and 'G time_lag' follows, in seconds ("s"; U when
// not known) with the time-lag thresholds in seconds.

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/check"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// CheckText writes the plugin output of a check: the status line and, with
// verbose, one line per group.
func CheckText(w io.Writer, res *check.Result, verbose bool) error {
	var b strings.Builder
	b.WriteString("STREAMS " + res.Status.String() + " - " + checkSummary(res))
	if perf := Perfdata(res); perf != "" {
		b.WriteString(" | " + perf)
	}
	b.WriteByte('\n')
	if verbose {
		for _, g := range res.Groups {
			b.WriteString(checkGroupLine(g, res.Options.ShowsTimeLag()) + "\n")
			if g.Overview.Err != nil {
				continue
			}
			for _, topic := range g.Overview.MissingTopics() {
				b.WriteString("  " + pluginText(g.ID()) + ": source topic " + pluginText(topic) + " does not exist\n")
			}
			for _, p := range g.Overview.AheadPartitions() {
				fmt.Fprintf(&b, "  %s: %s-%d committed %d, past the log end %d (lag counted as 0)\n", pluginText(g.ID()), pluginText(p.Topic), p.Partition, *p.Committed, p.LogEnd)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// pluginText is a broker string in the plugin output: escaped, and no "|".
func pluginText(s string) string { return strings.ReplaceAll(Escape(s), "|", "/") }

// pluginMessage is pluginText for a message that may hold a broker's error
// message, cut as every verb cuts one (EscapeMessage).
func pluginMessage(s string) string { return strings.ReplaceAll(EscapeMessage(s), "|", "/") }

func checkSummary(res *check.Result) string {
	if res.Err != nil {
		return pluginMessage(res.Err.Error())
	}
	if len(res.Groups) == 0 {
		return "no streams groups"
	}
	var bad []string
	ok := 0
	for _, g := range res.Groups {
		if g.Status == check.OK {
			ok++
			continue
		}
		bad = append(bad, pluginText(g.ID())+" "+g.Status.String()+": "+problemsText(g))
	}
	switch {
	case len(bad) == 0 && len(res.Groups) == 1:
		return pluginText(res.Groups[0].ID()) + ": " + groupFacts(res.Groups[0], res.Options.ShowsTimeLag())
	case len(bad) == 0:
		return fmt.Sprintf("%d groups OK", ok)
	case len(res.Groups) > 1:
		bad = append(bad, fmt.Sprintf("%d of %d groups OK", ok, len(res.Groups)))
	}
	return strings.Join(bad, "; ")
}

func problemsText(g *check.Group) string {
	return strings.Join(mapAll(g.Problems, func(p check.Problem) string { return pluginMessage(p.Message) }), ", ")
}

// groupFacts is what the check read of a group: state, members, lag, the
// largest task lag, tasks moving and, when asked for, the description.
func groupFacts(g *check.Group, showsTimeLag bool) string {
	o := g.Overview
	facts := []string{pluginText(o.State), plural(len(o.Members), "member"), "lag " + strconv.FormatInt(g.Lag, 10)}
	if o.Time.Measured && showsTimeLag {
		facts = append(facts, "time lag "+TimeLagText(o.Time))
	}
	if t := g.LargestTask; t != nil && g.MaxTaskLag > 0 {
		facts = append(facts, "largest task lag "+strconv.FormatInt(g.MaxTaskLag, 10)+" ("+pluginText(t.String())+")")
	}
	facts = append(facts, plural(int(g.MovingTasks), "task")+" moving")
	if o.DescriptionStatus != topology.NotRequested {
		facts = append(facts, "description "+o.DescriptionStatus.String())
	}
	return strings.Join(facts, ", ")
}

// checkGroupLine is a group's line of the verbose output.
func checkGroupLine(g *check.Group, showsTimeLag bool) string {
	line := pluginText(g.ID()) + ": " + g.Status.String()
	if len(g.Problems) > 0 {
		line += " - " + problemsText(g)
	}
	if g.Overview.Err == nil {
		o := g.Overview
		line += fmt.Sprintf(" (%s, group epoch %d, target assignment epoch %d, topology epoch %d)", groupFacts(g, showsTimeLag), o.GroupEpoch, o.AssignmentEpoch, o.TopologyEpoch)
	}
	return line
}

// Perfdata is the performance data of a check, without the leading "|".
func Perfdata(res *check.Result) string {
	o := res.Options
	var out []string
	seen := map[string]bool{}
	for _, g := range res.Groups {
		if g.Overview.Err != nil || seen[g.ID()] {
			continue
		}
		seen[g.ID()] = true
		ov := g.Overview
		minMembers := ""
		if o.MinMembers != nil {
			minMembers = strconv.FormatInt(*o.MinMembers, 10) + ":"
		}
		for _, m := range []struct {
			name       string
			value      int64
			warn, crit string
			min        bool
		}{
			{"lag", g.Lag, threshold(o.LagWarning), threshold(o.LagCritical), true},
			{"max_task_lag", g.MaxTaskLag, threshold(o.TaskLagWarning), threshold(o.TaskLagCritical), true},
			{"members", int64(len(ov.Members)), "", minMembers, true},
			{"moving_tasks", g.MovingTasks, threshold(o.MaxMovingTasks), "", true},
			{"group_epoch", int64(ov.GroupEpoch), "", "", false},
			{"target_assignment_epoch", int64(ov.AssignmentEpoch), "", "", false},
			{"topology_epoch", int64(ov.TopologyEpoch), "", "", false},
		} {
			minimum := ""
			if m.min {
				minimum = "0"
			}
			out = append(out, perfValue(g.ID()+" "+m.name, strconv.FormatInt(m.value, 10), m.warn, m.crit, minimum))
		}
		if ov.Time.Measured && o.ShowsTimeLag() {
			// Seconds, as the guidelines' "s"; U when not known.
			v := "U"
			if ov.Time.Known {
				v = seconds(ov.Time.Lag) + "s"
			}
			out = append(out, perfValue(g.ID()+" time_lag", v, durThreshold(o.TimeLagWarning), durThreshold(o.TimeLagCritical), "0"))
		}
		if o.ChecksStandbys() {
			out = append(out, standbyPerfdata(g.ID(), ov.Coverage, o)...)
		}
	}
	return strings.Join(out, " ")
}

// standbyPerfdata is a group's standby coverage as performance data:
// stateful_tasks, min_task_standbys (the fewest standbys that count of a
// stateful task, with --min-standbys as "N:" in the warn or crit field;
// left out without stateful tasks), standbys_configured and
// tasks_below_configured_standbys (U when the configured number is not
// known) and colocated_standbys.
func standbyPerfdata(group string, c *overview.Coverage, o check.Options) []string {
	if c == nil {
		return nil
	}
	perf := func(name string, fields ...string) string { return perfValue(group+" "+name, fields...) }
	n := func(v int) string { return strconv.Itoa(v) }
	out := []string{perf("stateful_tasks", n(len(c.Tasks)), "", "", "0")}
	if least, ok := c.MinCounted(); ok {
		warn, crit := "", ""
		if o.MinStandbys != nil {
			t := strconv.FormatInt(*o.MinStandbys, 10) + ":"
			if o.StandbysCritical {
				crit = t
			} else {
				warn = t
			}
		}
		out = append(out, perf("min_task_standbys", n(least), warn, crit, "0"))
	}
	configured, below := "U", "U"
	if c.ConfiguredKnown {
		configured, below = strconv.FormatInt(c.Configured, 10), n(len(c.Short()))
	}
	out = append(out, perf("standbys_configured", configured, "", "", "0"), perf("tasks_below_configured_standbys", below, "", "", "0"),
		perf("colocated_standbys", n(c.Colocated()), "", "", "0"))
	return out
}

// perfValue is one label's performance data: the value, then warn, crit,
// min and max, without the empty fields at the end.
func perfValue(label string, fields ...string) string {
	for len(fields) > 1 && fields[len(fields)-1] == "" {
		fields = fields[:len(fields)-1]
	}
	return perfLabel(label) + "=" + strings.Join(fields, ";")
}

// seconds writes d in seconds to the millisecond, without trailing zeros.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Milliseconds())/1000, 'f', -1, 64)
}

func durThreshold(t *time.Duration) string {
	if t == nil {
		return ""
	}
	return seconds(*t)
}

// checkTimeLag is a check document's time lag, when it was asked for.
func checkTimeLag(o check.Options, tl overview.TimeLag) *TimeLagDoc {
	if !o.ShowsTimeLag() {
		return nil
	}
	return newTimeLagDoc(tl, false)
}

func threshold(t *int64) string {
	if t == nil {
		return ""
	}
	return strconv.FormatInt(*t, 10)
}

// perfLabel quotes a label, escaped reversibly (labelEscape), and "'", "="
// and "|", which cannot appear in one, as \x27, \x3D and \x7C.
func perfLabel(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	perfLabelQuoting.body(&b, s)
	b.WriteByte('\'')
	return b.String()
}

var perfLabelQuoting = newQuoting(`\'=|`, func(r rune, raw string) string {
	switch r {
	case '\'', '=', '|':
		return `\x` + hex2(byte(r))
	}
	return labelEscape(r, raw)
})

// CheckDoc is the document of a check.
type CheckDoc struct {
	// Status is OK, WARNING, CRITICAL or UNKNOWN; ExitCode its plugin code.
	Status   string          `json:"status" yaml:"status"`
	ExitCode int             `json:"exit_code" yaml:"exit_code"`
	Groups   []CheckGroupDoc `json:"groups" yaml:"groups"`
	// Error is a failure of the whole check (status UNKNOWN).
	Error *ErrorDoc `json:"error,omitempty" yaml:"error,omitempty"`
}

// CheckGroupDoc is one group's check; a group that could not be checked
// has group, coordinator (when known), status, problems and error only.
type CheckGroupDoc struct {
	Group       string            `json:"group" yaml:"group"`
	Coordinator *BrokerDoc        `json:"coordinator,omitempty" yaml:"coordinator,omitempty"`
	Status      string            `json:"status" yaml:"status"`
	Problems    []CheckProblemDoc `json:"problems" yaml:"problems"`
	// The values checked, nil for a group with an error.
	*CheckValuesDoc `json:",inline" yaml:",inline"`
	Error           *ErrorDoc `json:"error,omitempty" yaml:"error,omitempty"`
}

// CheckValuesDoc are the values a group was checked on.
type CheckValuesDoc struct {
	State       string `json:"state" yaml:"state"`
	MemberCount int    `json:"member_count" yaml:"member_count"`
	Lag         int64  `json:"lag" yaml:"lag"`
	MaxTaskLag  int64  `json:"max_task_lag" yaml:"max_task_lag"`
	MovingTasks int64  `json:"moving_tasks" yaml:"moving_tasks"`
	// TimeLag is present when the records were read; Lag is then the
	// record lag.
	TimeLag         *TimeLagDoc `json:"time_lag,omitempty" yaml:"time_lag,omitempty"`
	GroupEpoch      int32       `json:"group_epoch" yaml:"group_epoch"`
	AssignmentEpoch int32       `json:"assignment_epoch" yaml:"assignment_epoch"`
	TopologyEpoch   int32       `json:"topology_epoch" yaml:"topology_epoch"`
	// TopologyDescriptionStatus is NOT_REQUESTED unless the check was
	// asked --require-topology.
	TopologyDescriptionStatus string `json:"topology_description_status" yaml:"topology_description_status"`
	// StandbyCoverage is present with a standby condition
	// (--min-standbys, --require-configured-standbys).
	StandbyCoverage *StandbyCoverageDoc `json:"standby_coverage,omitempty" yaml:"standby_coverage,omitempty"`
}

// CheckProblemDoc is a condition a group crossed.
type CheckProblemDoc struct {
	Condition string `json:"condition" yaml:"condition"`
	Status    string `json:"status" yaml:"status"`
	Message   string `json:"message" yaml:"message"`
}

// NewCheckDoc builds the document of a check.
func NewCheckDoc(res *check.Result) CheckDoc {
	return CheckDoc{Status: res.Status.String(), ExitCode: int(res.Status), Error: NewErrorDoc(res.Err), Groups: mapAll(res.Groups, func(g *check.Group) CheckGroupDoc {
		o := g.Overview
		d := CheckGroupDoc{Group: g.ID(), Coordinator: NewBrokerDoc(o.Coordinator), Status: g.Status.String(), Error: NewErrorDoc(o.Err),
			Problems: mapAll(g.Problems, func(p check.Problem) CheckProblemDoc {
				return CheckProblemDoc{Condition: p.Condition, Status: p.Status.String(), Message: p.Message}
			})}
		if o.Err == nil {
			d.CheckValuesDoc = &CheckValuesDoc{State: o.State, MemberCount: len(o.Members), Lag: g.Lag, MaxTaskLag: g.MaxTaskLag, MovingTasks: g.MovingTasks, TimeLag: checkTimeLag(res.Options, o.Time),
				GroupEpoch: o.GroupEpoch, AssignmentEpoch: o.AssignmentEpoch, TopologyEpoch: o.TopologyEpoch, TopologyDescriptionStatus: o.DescriptionStatus.String()}
			if res.Options.ChecksStandbys() {
				d.StandbyCoverage = newStandbyCoverageDoc(o)
			}
		}
		return d
	})}
}

// CheckUsageLine is the status line of a check that could not start: a
// usage error, UNKNOWN.
func CheckUsageLine(err error) string { return "STREAMS UNKNOWN - " + pluginMessage(err.Error()) }
