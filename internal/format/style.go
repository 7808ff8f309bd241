package format

// Colors of text output. Color is for a person at a terminal: it marks what
// the eye looks for first (the kind of each topology node, a group's state,
// an error) and never carries information that the plain text lacks. The
// command decides once whether color is on (a terminal, no NO_COLOR, no
// --no-color, TERM not dumb, a text -o) and builds Styles with NewStyles;
// every color is switched on or off per instance, so this package never
// reads or writes fatih/color's global NoColor and goldens can force color
// on. A nil *Styles means plain text. JSON and YAML are never colored.
//
// Colored text differs from plain text only by SGR escape sequences
// (ESC [ ... m) around unchanged bytes: TestTopology_colorOnlyAddsEscapes
// strips them and compares.

import (
	"strings"

	"github.com/fatih/color"
)

// Styles are the colors of one invocation's text output.
type Styles struct {
	// Error marks "Error:" on error lines and the ERROR status message.
	Error *color.Color
	// Warning marks the NOT_STORED status message.
	Warning *color.Color
	// Header marks "Topologies:", "Sub-topology: ..." and group headers.
	Header *color.Color
	// Source, Processor and Sink mark the kind of a topology node.
	Source, Processor, Sink *color.Color
	// Node marks a node's name where the node is defined.
	Node *color.Color
	// Stable, Busy and Trouble mark group states: Stable; Assigning and
	// Reconciling; NotReady and Dead. Empty stays plain.
	Stable, Busy, Trouble *color.Color
	// Added, Removed and Hunk mark the lines of a diff as git diff does:
	// added lines green, removed lines red, hunk headers cyan.
	Added, Removed, Hunk *color.Color
	// Lag marks a lag above zero in the overview, LargestLag the group's
	// largest task lag, Moving a task whose target holders differ.
	Lag, LargestLag, Moving *color.Color

	enabled bool
}

// NewStyles returns the styles of text output with color on or off.
func NewStyles(enabled bool) *Styles {
	s := &Styles{
		Error:      color.New(color.FgRed, color.Bold),
		Warning:    color.New(color.FgYellow),
		Header:     color.New(color.Bold),
		Source:     color.New(color.FgGreen),
		Processor:  color.New(color.FgCyan),
		Sink:       color.New(color.FgMagenta),
		Node:       color.New(color.Bold),
		Stable:     color.New(color.FgGreen),
		Busy:       color.New(color.FgYellow),
		Trouble:    color.New(color.FgRed),
		Added:      color.New(color.FgGreen),
		Removed:    color.New(color.FgRed),
		Hunk:       color.New(color.FgCyan),
		Lag:        color.New(color.FgYellow),
		LargestLag: color.New(color.FgRed, color.Bold),
		Moving:     color.New(color.FgMagenta),
		enabled:    enabled,
	}
	for _, c := range s.all() {
		if enabled {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
	}
	return s
}

func (s *Styles) all() []*color.Color {
	return []*color.Color{s.Error, s.Warning, s.Header, s.Source, s.Processor, s.Sink, s.Node, s.Stable, s.Busy, s.Trouble, s.Added, s.Removed, s.Hunk, s.Lag, s.LargestLag, s.Moving}
}

// Enabled reports whether the styles color anything. It is false for nil.
func (s *Styles) Enabled() bool { return s != nil && s.enabled }

// Paint returns text in color c, or text unchanged when s is nil, color is
// off or c is nil. text is written as given: escape broker strings first.
func (s *Styles) Paint(c *color.Color, text string) string {
	if !s.Enabled() || c == nil || text == "" {
		return text
	}
	return c.Sprint(text)
}

// State returns the color of a group state (as Kafka names it), or nil.
func (s *Styles) State(state string) *color.Color {
	if s == nil {
		return nil
	}
	switch strings.ToLower(state) {
	case "stable":
		return s.Stable
	case "assigning", "reconciling":
		return s.Busy
	case "not_ready", "notready", "dead":
		return s.Trouble
	}
	return nil
}

// PaintState returns text (for example a padded table cell holding state)
// in the color of state. Pad before painting so that column widths count
// only visible characters.
func (s *Styles) PaintState(state, text string) string {
	return s.Paint(s.State(state), text)
}

// ErrorLabel is "Error:" in the error color, for error lines on stderr.
func (s *Styles) ErrorLabel() string { return s.Paint(s.orPlain().Error, "Error:") }

// span is a color's opening and closing escape sequences, computed once per
// document so that the topology writer does not format them per node.
type span struct{ on, off string }

func (s *Styles) span(c *color.Color) span {
	if !s.Enabled() || c == nil {
		return span{}
	}
	// fatih/color has no accessor for its sequences: paint a marker and
	// split around it (the sequences are ESC [ digits ; m, never "x").
	p := c.Sprint("x")
	i := strings.IndexByte(p, 'x')
	return span{on: p[:i], off: p[i+1:]}
}

// plain is what a nil *Styles stands for: no color.
var plain Styles

// orPlain is s, or plain when s is nil, so that callers holding a nil
// *Styles can read its colors.
func (s *Styles) orPlain() *Styles {
	if s == nil {
		return &plain
	}
	return s
}
