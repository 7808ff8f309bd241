package format

// Display rules for --describe --state, as Kafka 4.4's
// kafka-streams-groups.sh prints them (StreamsGroupCommand.printStates,
// verified against the real 4.4.0 tool, e2e/FINDINGS.md):
//   - an Empty group first gets "\nError: Streams group '<g>' has no active
//     members.\n", a Dead group "\nError: Streams group '<g>' does not
//     exist.\n" (Kafka's printError, on stdout); then the table is printed
//     anyway;
//   - one header row and one row per group, every group its own table;
//   - columns (table.go): GROUP max(15, group), COORDINATOR (ID)
//     max(25, "host:port (id)"), ASSIGNOR max(15, assignor) (KIP-1357, new
//     in 4.4; empty when the broker names none), STATE 25, then #MEMBERS
//     unpadded; --verbose puts GROUP-EPOCH (15) and TARGET-ASSIGNMENT-EPOCH
//     (25) before #MEMBERS.

import (
	"io"
	"strconv"

	"github.com/kstreams-groups/kstreams-groups/internal/describe"
)

// CoordinatorText is Kafka's "host:port (id)" for a coordinator, or "-"
// when it is unknown.
func CoordinatorText(g *describe.Group) string {
	if g.Coordinator == nil {
		return missing
	}
	c := g.Coordinator
	return c.Host + ":" + strconv.Itoa(int(c.Port)) + " (" + strconv.Itoa(int(c.ID)) + ")"
}

// stateText is a state as the Java tool's GroupState prints it: "Unknown"
// when the broker sent none.
func stateText(s string) string {
	if s == "" {
		return "Unknown"
	}
	return Escape(s)
}

// StateText writes one group of --describe --state.
func StateText(w io.Writer, g *describe.Group, verbose bool, st *Styles) error {
	t := newTable(w, st)
	t.notice(g)
	group, coord := Escape(g.Group), Escape(CoordinatorText(g))
	assignor := ""
	if g.AssignorName != nil {
		assignor = Escape(*g.AssignorName)
	}
	members := strconv.Itoa(len(g.Members))
	cols := []column{
		{width: width(15, group), head: "GROUP", cell: group},
		{width: width(25, coord), head: "COORDINATOR (ID)", cell: coord},
		{width: width(15, assignor), head: "ASSIGNOR", cell: assignor},
		{width: 25, head: "STATE", cell: stateText(g.State), state: true},
	}
	if verbose {
		cols = append(cols,
			column{width: 15, head: "GROUP-EPOCH", cell: strconv.Itoa(int(g.GroupEpoch))},
			column{width: 25, head: "TARGET-ASSIGNMENT-EPOCH", cell: strconv.Itoa(int(g.AssignmentEpoch))})
	}
	cols = append(cols, column{head: "#MEMBERS", cell: members})
	t.header(cols)
	t.row(cols, g.State)
	return t.err
}

// addViewFields fills the document fields of the state, members and
// offsets views. These views never ask for the topology description, so
// its status (NOT_REQUESTED) is left out.
func addViewFields(d *GroupDoc, g *describe.Group, view describe.View) {
	if view == describe.ViewTopology {
		return
	}
	d.TopologyDescriptionStatus = ""
	n := len(g.Members)
	d.MemberCount = &n
	switch view {
	case describe.ViewMembers:
		ms := newMemberDocs(g.Members)
		d.Members = &ms
	case describe.ViewOffsets:
		os := mapAll(g.Offsets, newOffsetDoc)
		d.Offsets = &os
	}
}
