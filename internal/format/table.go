package format

// Shared rules of the Kafka table views (--list --state, --describe
// --state/--members/--offsets):
//   - a cell is Java's "%-Ns": left-justified and padded with spaces to N,
//     never truncated; N counts UTF-16 units, as Java's String.length does,
//     so non-ASCII names line up as in the Java tool; a width of 0 means
//     the cell is written as is (Java's "%s");
//   - cells are separated by one space unless a column says otherwise (the
//     Java tool's verbose members format has none between TOPOLOGY-EPOCH
//     and MEMBER);
//   - broker strings (group, member, process and client ids, hosts,
//     topics, assignor) are escaped before their width is measured, so a
//     control character cannot break the alignment or the terminal;
//   - "-" stands for an unknown value, as in the Java tool's offsets view;
//   - with color, the header row is bold and a state cell takes its state's
//     color; the padding is computed before painting, so the visible text
//     is the same.

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf16"

	"github.com/kstreams-groups/kstreams-groups/internal/describe"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// missing is the Java tool's MISSING_COLUMN_VALUE.
const missing = "-"

// column is one column of a table: its width, header and this row's value.
type column struct {
	width      int
	head, cell string
	// glued suppresses the space after the column.
	glued bool
	// state marks a cell holding a group state, colored by it.
	state bool
}

// columns makes a row of cells under heads and widths; the column at index
// glued (-1: none) runs into the next.
func columns(heads []string, widths []int, glued int, cells []string) []column {
	cols := make([]column, len(cells))
	for i := range cells {
		cols[i] = column{width: widths[i], head: heads[i], cell: cells[i], glued: i == glued}
	}
	return cols
}

// tableWriter writes the rows of one table and keeps the first error.
type tableWriter struct {
	w   io.Writer
	st  *Styles
	err error
}

func newTable(w io.Writer, st *Styles) *tableWriter { return &tableWriter{w: w, st: st} }

func (t *tableWriter) write(s string) {
	if t.err == nil {
		_, t.err = io.WriteString(t.w, s)
	}
}

// header writes the header row, bold with color.
func (t *tableWriter) header(cols []column) {
	var b strings.Builder
	for i, c := range cols {
		b.WriteString(pad(c.head, c.width))
		if i < len(cols)-1 && !c.glued {
			b.WriteByte(' ')
		}
	}
	t.write(t.st.Paint(t.st.orPlain().Header, b.String()) + "\n")
}

// row writes a data row; a state cell takes the color of state.
func (t *tableWriter) row(cols []column, state string) {
	var b strings.Builder
	for i, c := range cols {
		cell := pad(c.cell, c.width)
		if c.state {
			cell = t.st.PaintState(state, cell)
		}
		b.WriteString(cell)
		if i < len(cols)-1 && !c.glued {
			b.WriteByte(' ')
		}
	}
	b.WriteByte('\n')
	t.write(b.String())
}

// notice writes Kafka's empty or dead group line (printError: a blank line,
// then "Error: ..."), or nothing for other states.
func (t *tableWriter) notice(g *describe.Group) {
	if msg := EmptyGroupNotice(g); msg != "" {
		t.write("\n" + t.st.Paint(t.st.orPlain().Warning, "Error: "+msg) + "\n")
	}
}

// EmptyGroupNotice is Kafka's text for a Dead or Empty group
// (StreamsGroupCommand.maybePrintEmptyGroupState), or "".
func EmptyGroupNotice(g *describe.Group) string {
	switch g.State {
	case string(kafka.StateDead):
		return fmt.Sprintf("Streams group '%s' does not exist.", Escape(g.Group))
	case string(kafka.StateEmpty):
		return fmt.Sprintf("Streams group '%s' has no active members.", Escape(g.Group))
	}
	return ""
}

// width is max(min, the Java length of each of vals).
func width(minimum int, vals ...string) int {
	w := minimum
	for _, v := range vals {
		w = max(w, javaLen(v))
	}
	return w
}

// pad left-justifies s in a field of n UTF-16 units (Java's "%-ns").
func pad(s string, n int) string {
	l := javaLen(s)
	if l >= n {
		return s
	}
	return s + strings.Repeat(" ", n-l)
}

// javaLen is Java's String.length: UTF-16 code units.
func javaLen(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}
