package format

// Display rules for --list, as Kafka 4.4's kafka-streams-groups.sh prints
// them (StreamsGroupCommand.listGroups and printGroupInfo, verified against
// the real 4.4.0 tool, e2e/FINDINGS.md):
//   - without --state: one group id per line, nothing at all when there are
//     no streams groups;
//   - with --state (with or without a state list): the header
//     "GROUP<pad> STATE" and one "<group><pad> <state>" line per group,
//     GROUP max(15, longest id) wide; the header is printed even when no
//     group matches;
//   - groups are sorted by id, where the Java tool prints HashMap order.
// Group ids are escaped; with color the header is bold and each state is
// colored.

import (
	"io"

	"github.com/kstreams-groups/kstreams-groups/internal/list"
)

// ListText writes a list result as kafka-streams-groups.sh lays it out.
func ListText(w io.Writer, res *list.Result, st *Styles) error {
	t := newTable(w, st)
	ids := mapAll(res.Groups, func(g list.Group) string { return Escape(g.Group) })
	if !res.WithState {
		for _, id := range ids {
			t.write(id + "\n")
		}
		return t.err
	}
	gw := width(15, ids...)
	t.header([]column{{width: gw, head: "GROUP"}, {head: "STATE"}})
	for i, g := range res.Groups {
		t.row([]column{{width: gw, cell: ids[i]}, {cell: stateText(g.State), state: true}}, g.State)
	}
	return t.err
}

// ListDoc is the document of --list.
type ListDoc struct {
	Groups []ListedGroupDoc `json:"groups" yaml:"groups"`
}

// ListedGroupDoc is one listed streams group. The state is always present,
// with or without --state.
type ListedGroupDoc struct {
	Group string `json:"group" yaml:"group"`
	State string `json:"state" yaml:"state"`
}

// NewListDoc builds the document of a list result.
func NewListDoc(res *list.Result) ListDoc {
	return ListDoc{Groups: mapAll(res.Groups, func(g list.Group) ListedGroupDoc { return ListedGroupDoc{Group: g.Group, State: g.State} })}
}
