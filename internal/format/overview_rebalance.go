package format

// The overview's "Rebalanced:" head line and its document: the group's
// last rebalance as its history tells it (overview.Rebalance), with its
// causes as history's text names them; "unknown" with the reason when the
// history cannot be read; nothing when it was not read.

import (
	"slices"
	"strconv"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/history"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
)

// writeRebalanceHead writes the head line of g's last rebalance.
func writeRebalanceHead(t *tableWriter, g *overview.Group, label func(string) string) {
	r := g.Rebalance
	if r == nil {
		return
	}
	t.write(label("Rebalanced") + rebalanceText(g, r) + "\n")
}

// rebalanceText is a group's last rebalance on one line: when, the epochs
// and the causes; or since when there was none; or why it is unknown.
func rebalanceText(g *overview.Group, r *overview.Rebalance) string {
	switch {
	case r.Err != nil:
		return "unknown (cannot read " + history.OffsetsTopic + ": " + Escape(r.Err.Error()) + ")"
	case r.Last != nil:
		e := r.Last
		return e.Time.UTC().Format(historyTime) + ", epoch " + strconv.Itoa(int(e.PreviousEpoch)) + " -> " + strconv.Itoa(int(e.GroupEpoch)) + ": " + overviewCauses(g, e.Causes)
	case r.Since.IsZero():
		return "none recorded"
	}
	return "not since " + r.Since.UTC().Format(historyTime) + " (where the history starts)"
}

// overviewCauses are a rebalance's causes, short: each kind once, in the
// order met, with whom it concerns (a member still in the group by its
// name in the view, m1, m2, ...; another by its instance or process id)
// or what (configs, sub-topologies); `history` has the rest.
func overviewCauses(g *overview.Group, cs []history.Cause) string {
	if len(cs) == 0 {
		return "no cause in the records"
	}
	var kinds []history.CauseKind
	what := map[history.CauseKind][]string{}
	for _, c := range cs {
		if _, ok := what[c.Kind]; !ok {
			kinds = append(kinds, c.Kind)
			what[c.Kind] = nil
		}
		if s := causeSubject(g, c); s != "" {
			what[c.Kind] = append(what[c.Kind], s)
		}
	}
	out := make([]string, 0, len(kinds))
	for _, k := range kinds {
		s := string(k)
		if len(what[k]) > 0 {
			s += " " + strings.Join(what[k], ", ")
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}

// causeSubject is whom or what a cause concerns, escaped.
func causeSubject(g *overview.Group, c history.Cause) string {
	m := c.Member
	if m == nil {
		if c.Kind == history.PartitionsChanged {
			return ""
		}
		return causeText(c)
	}
	for i := range g.Members {
		if g.Members[i].MemberID == m.MemberID {
			return MemberRef(i)
		}
	}
	switch {
	case m.InstanceID != "":
		return "instance " + Escape(m.InstanceID)
	case m.ProcessID != "":
		return "process " + Escape(m.ProcessID)
	}
	return "member " + Escape(m.MemberID)
}

// LastRebalanceDoc is a group's last rebalance in the overview's
// document; `history` has the whole entry.
type LastRebalanceDoc struct {
	// Time, GroupEpoch, PreviousEpoch and Causes are the last rebalance's;
	// Time is null when the history holds none (or could not be read).
	Time          *string `json:"time" yaml:"time"`
	GroupEpoch    int32   `json:"group_epoch" yaml:"group_epoch"`
	PreviousEpoch int32   `json:"previous_epoch" yaml:"previous_epoch"`
	// Causes are the kinds of its causes, in the order met, each once;
	// Summary is the text view's line.
	Causes  []string `json:"causes" yaml:"causes"`
	Summary string   `json:"summary" yaml:"summary"`
	// CompleteFrom is when the history is complete from; null when the
	// group's partition is empty or could not be read.
	CompleteFrom *string `json:"complete_from" yaml:"complete_from"`
	// Error is why the history could not be read; null when it was.
	Error *ErrorDoc `json:"error" yaml:"error"`
}

func newLastRebalanceDoc(g *overview.Group) *LastRebalanceDoc {
	r := g.Rebalance
	if r == nil {
		return nil
	}
	d := &LastRebalanceDoc{Causes: []string{}, Summary: rebalanceText(g, r)}
	if r.Err != nil {
		d.Error = NewErrorDoc(r.Err)
		return d
	}
	if e := r.Last; e != nil {
		t := e.Time.UTC().Format(historyTime)
		d.Time, d.GroupEpoch, d.PreviousEpoch = &t, e.GroupEpoch, e.PreviousEpoch
		for _, c := range e.Causes {
			if !slices.Contains(d.Causes, string(c.Kind)) {
				d.Causes = append(d.Causes, string(c.Kind))
			}
		}
	}
	if !r.Since.IsZero() {
		s := r.Since.UTC().Format(historyTime)
		d.CompleteFrom = &s
	}
	return d
}

// CauseLines are a rebalance's causes, one line each: its kind and what
// history's text says of it (escaped).
func CauseLines(cs []history.Cause) []string {
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		s := string(c.Kind)
		if what := causeText(c); what != "" {
			s += " " + what
		}
		out = append(out, s)
	}
	return out
}
