package format

// The text of `kstreams-groups doctor`: per diagnosed group a header line
// (coordinator, state, members, topology epoch, description status), one
// line per finding with its severity in a column (ok, info, WARNING,
// PROBLEM; colored green, plain, yellow and red on a terminal), the hint
// indented under it, and a closing count ("Nothing is wrong." or "1
// problem, 2 warnings."). A group that could not be diagnosed is left out
// (its error goes to stderr). Broker strings are escaped, and a finding
// or hint that holds a broker's error message is cut as every verb cuts
// one (EscapeMessage).

import (
	"fmt"
	"io"
	"strings"

	"github.com/fatih/color"

	"github.com/kstreams-groups/kstreams-groups/internal/doctor"
)

// DoctorText writes the diagnosis of each group.
func DoctorText(w io.Writer, res *doctor.Result, st *Styles) error {
	var b strings.Builder
	for _, g := range res.Groups {
		if g.Err != nil {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		header := "Streams group '" + Escape(g.Group) + "'"
		if g.Coordinator != nil {
			header += fmt.Sprintf(" (coordinator %d, %s)", g.Coordinator.ID, Escape(g.Coordinator.Addr()))
		}
		if s := g.Streams; s != nil {
			header += fmt.Sprintf(": %s, %s, topology epoch %d, description %s", st.PaintState(s.State, Escape(s.State)), plural(len(s.Members), "member"), s.TopologyEpoch, s.TopologyStatus)
		}
		b.WriteString(st.Paint(st.orPlain().Header, header) + "\n")
		problems, warnings := 0, 0
		for _, f := range g.Findings {
			label, c := severityLabel(f.Severity, st)
			b.WriteString("  " + st.Paint(c, pad(label, 8)) + " " + EscapeMessage(f.Message) + "\n")
			if f.Hint != "" {
				b.WriteString("           hint: " + EscapeMessage(f.Hint) + "\n")
			}
			switch f.Severity {
			case doctor.Problem:
				problems++
			case doctor.Warning:
				warnings++
			}
		}
		if problems+warnings == 0 {
			b.WriteString("Nothing is wrong.\n")
		} else {
			b.WriteString(plural(problems, "problem") + ", " + plural(warnings, "warning") + ".\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func severityLabel(s doctor.Severity, st *Styles) (string, *color.Color) {
	if st == nil {
		st = NewStyles(false)
	}
	switch s {
	case doctor.OK:
		return "ok", st.Stable
	case doctor.Warning:
		return "WARNING", st.Warning
	case doctor.Problem:
		return "PROBLEM", st.Error
	}
	return "info", nil
}

// DoctorDoc is the document of doctor.
type DoctorDoc struct {
	// Wrong tells whether a finding is a warning or a problem (exit 1).
	Wrong  bool             `json:"wrong" yaml:"wrong"`
	Groups []DoctorGroupDoc `json:"groups" yaml:"groups"`
}

// DoctorGroupDoc is one group's diagnosis; a group that could not be
// diagnosed has group, coordinator (when known) and error only.
type DoctorGroupDoc struct {
	Group       string     `json:"group" yaml:"group"`
	Coordinator *BrokerDoc `json:"coordinator,omitempty" yaml:"coordinator,omitempty"`
	// State and the rest are absent when the group was not described (it
	// does not exist).
	State                     string             `json:"state,omitempty" yaml:"state,omitempty"`
	MemberCount               *int               `json:"member_count,omitempty" yaml:"member_count,omitempty"`
	TopologyEpoch             *int32             `json:"topology_epoch,omitempty" yaml:"topology_epoch,omitempty"`
	TopologyDescriptionStatus string             `json:"topology_description_status,omitempty" yaml:"topology_description_status,omitempty"`
	Findings                  []DoctorFindingDoc `json:"findings" yaml:"findings"`
	Error                     *ErrorDoc          `json:"error,omitempty" yaml:"error,omitempty"`
}

// DoctorFindingDoc is one finding; severity is ok, info, warning or problem.
type DoctorFindingDoc struct {
	Check    string `json:"check" yaml:"check"`
	Severity string `json:"severity" yaml:"severity"`
	Message  string `json:"message" yaml:"message"`
	Hint     string `json:"hint,omitempty" yaml:"hint,omitempty"`
}

// NewDoctorDoc builds the document of a diagnosis.
func NewDoctorDoc(res *doctor.Result) DoctorDoc {
	return DoctorDoc{Wrong: res.Wrong(), Groups: mapAll(res.Groups, func(g *doctor.Group) DoctorGroupDoc {
		d := DoctorGroupDoc{Group: g.Group, Coordinator: NewBrokerDoc(g.Coordinator), Error: NewErrorDoc(g.Err),
			Findings: mapAll(g.Findings, func(f doctor.Finding) DoctorFindingDoc {
				return DoctorFindingDoc{Check: f.Check, Severity: f.Severity.String(), Message: f.Message, Hint: f.Hint}
			})}
		if s := g.Streams; s != nil {
			n, e := len(s.Members), s.TopologyEpoch
			d.State, d.MemberCount, d.TopologyEpoch, d.TopologyDescriptionStatus = s.State, &n, &e, s.TopologyStatus.String()
		}
		return d
	})}
}
