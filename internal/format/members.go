package format

// Display rules for --describe --members, as Kafka 4.4's
// kafka-streams-groups.sh prints them (StreamsGroupCommand.printMembers,
// verified against the real 4.4.0 tool, e2e/FINDINGS.md):
//   - a group is printed only when it is not Dead and has members; an Empty
//     group prints nothing at all (no notice either);
//   - one header row, then one row per member (sorted by member id; the
//     Java tool prints the broker's order);
//   - non-verbose columns: GROUP max(15, group), MEMBER, PROCESS and
//     CLIENT-ID each max(15, longest value), ASSIGNMENTS unpadded;
//   - verbose columns: GROUP, TARGET-ASSIGNMENT-EPOCH (25), TOPOLOGY-EPOCH
//     (15) glued to MEMBER without a space (the Java format string has
//     none), MEMBER-PROTOCOL (15, classic or streams), MEMBER-EPOCH (15),
//     PROCESS, CLIENT-ID, ASSIGNMENTS; the two epochs are the group's;
//   - the assignment text lists, for each non-empty kind in the order
//     ACTIVE, STANDBY, WARMUP (verbose: then TARGET-ACTIVE, TARGET-STANDBY,
//     TARGET-WARMUP), "<KIND>: " and "<subtopology>:[p1,p2]; " per
//     subtopology, trailing space included, in the broker's order (a 4.4
//     broker sorts subtopology ids as strings: 10 before 2); a member
//     without tasks has an empty cell, so its line ends in a space.
// The shared rules of the table views are in table.go.

import (
	"io"
	"strconv"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/describe"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// MembersText writes one group of --describe --members.
func MembersText(w io.Writer, g *describe.Group, verbose bool, st *Styles) error {
	if !g.HasRows() {
		return nil
	}
	t := newTable(w, st)
	t.notice(g)
	group := Escape(g.Group)
	ids, procs, clients := make([]string, len(g.Members)), make([]string, len(g.Members)), make([]string, len(g.Members))
	for i := range g.Members {
		m := &g.Members[i]
		ids[i], procs[i], clients[i] = Escape(m.MemberID), Escape(m.ProcessID), Escape(m.ClientID)
	}
	gw, mw, pw, cw := width(15, group), width(15, ids...), width(15, procs...), width(15, clients...)
	heads := []string{"GROUP", "MEMBER", "PROCESS", "CLIENT-ID", "ASSIGNMENTS"}
	widths := []int{gw, mw, pw, cw, 0}
	glued := -1
	if verbose {
		heads = []string{"GROUP", "TARGET-ASSIGNMENT-EPOCH", "TOPOLOGY-EPOCH", "MEMBER", "MEMBER-PROTOCOL", "MEMBER-EPOCH", "PROCESS", "CLIENT-ID", "ASSIGNMENTS"}
		widths = []int{gw, 25, 15, mw, 15, 15, pw, cw, 0}
		glued = 2 // TOPOLOGY-EPOCH runs into MEMBER
	}
	t.header(columns(heads, widths, glued, heads))
	for i := range g.Members {
		m := &g.Members[i]
		cells := []string{group, ids[i], procs[i], clients[i], AssignmentText(m, false)}
		if verbose {
			cells = []string{group, strconv.Itoa(int(g.AssignmentEpoch)), strconv.Itoa(int(g.TopologyEpoch)),
				ids[i], m.Protocol(), strconv.Itoa(int(m.MemberEpoch)), procs[i], clients[i], AssignmentText(m, true)}
		}
		t.row(columns(heads, widths, glued, cells), "")
	}
	return t.err
}

// AssignmentText is the ASSIGNMENTS cell of a member; verbose adds the
// target assignment.
func AssignmentText(m *kafka.Member, verbose bool) string {
	var b strings.Builder
	writeTasks(&b, "ACTIVE", m.Assignment.Active)
	writeTasks(&b, "STANDBY", m.Assignment.Standby)
	writeTasks(&b, "WARMUP", m.Assignment.Warmup)
	if verbose {
		writeTasks(&b, "TARGET-ACTIVE", m.TargetAssignment.Active)
		writeTasks(&b, "TARGET-STANDBY", m.TargetAssignment.Standby)
		writeTasks(&b, "TARGET-WARMUP", m.TargetAssignment.Warmup)
	}
	return b.String()
}

func writeTasks(b *strings.Builder, kind string, tasks []kafka.Tasks) {
	if len(tasks) == 0 {
		return
	}
	b.WriteString(kind)
	b.WriteString(": ")
	for _, t := range tasks {
		b.WriteString(Escape(t.SubtopologyID))
		b.WriteString(":[")
		for i, p := range t.Partitions {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(int(p)))
		}
		b.WriteString("]; ")
	}
}

// MemberDoc is one member in documents. Every field is always present;
// --verbose changes only the text view.
type MemberDoc struct {
	MemberID    string  `json:"member_id" yaml:"member_id"`
	MemberEpoch int32   `json:"member_epoch" yaml:"member_epoch"`
	InstanceID  *string `json:"instance_id" yaml:"instance_id"`
	RackID      *string `json:"rack_id" yaml:"rack_id"`
	ClientID    string  `json:"client_id" yaml:"client_id"`
	ClientHost  string  `json:"client_host" yaml:"client_host"`
	ProcessID   string  `json:"process_id" yaml:"process_id"`
	// MemberProtocol is "streams", or "classic" for a member not yet
	// upgraded.
	MemberProtocol string       `json:"member_protocol" yaml:"member_protocol"`
	TopologyEpoch  int32        `json:"topology_epoch" yaml:"topology_epoch"`
	UserEndpoint   *EndpointDoc `json:"user_endpoint" yaml:"user_endpoint"`
	// ClientTags are sorted by key.
	ClientTags []ClientTagDoc `json:"client_tags" yaml:"client_tags"`
	// Assignments are sorted by subtopology and partition, as the model is.
	Assignment       AssignmentDoc `json:"assignment" yaml:"assignment"`
	TargetAssignment AssignmentDoc `json:"target_assignment" yaml:"target_assignment"`
}

// EndpointDoc is a member's interactive-query endpoint.
type EndpointDoc struct {
	Host string `json:"host" yaml:"host"`
	Port uint16 `json:"port" yaml:"port"`
}

// newEndpointDoc is a member's user endpoint; nil when it has none.
func newEndpointDoc(e *kafka.Endpoint) *EndpointDoc {
	if e == nil {
		return nil
	}
	return &EndpointDoc{Host: e.Host, Port: e.Port}
}

// ClientTagDoc is one client tag.
type ClientTagDoc struct {
	Key   string `json:"key" yaml:"key"`
	Value string `json:"value" yaml:"value"`
}

// AssignmentDoc is a member's tasks by kind; every list is present.
type AssignmentDoc struct {
	Active  []TasksDoc `json:"active" yaml:"active"`
	Standby []TasksDoc `json:"standby" yaml:"standby"`
	Warmup  []TasksDoc `json:"warmup" yaml:"warmup"`
}

// TasksDoc is the tasks of one subtopology, one per partition.
type TasksDoc struct {
	SubtopologyID string  `json:"subtopology_id" yaml:"subtopology_id"`
	Partitions    []int32 `json:"partitions" yaml:"partitions"`
}

func newMemberDocs(ms []kafka.Member) []MemberDoc {
	out := make([]MemberDoc, 0, len(ms))
	for i := range ms {
		m := &ms[i]
		out = append(out, MemberDoc{
			MemberID: m.MemberID, MemberEpoch: m.MemberEpoch, InstanceID: m.InstanceID, RackID: m.RackID,
			ClientID: m.ClientID, ClientHost: m.ClientHost, ProcessID: m.ProcessID,
			MemberProtocol: m.Protocol(), TopologyEpoch: m.TopologyEpoch, UserEndpoint: newEndpointDoc(m.UserEndpoint),
			ClientTags:       mapAll(m.ClientTags, func(t kafka.ClientTag) ClientTagDoc { return ClientTagDoc(t) }),
			Assignment:       newAssignmentDoc(m.Assignment),
			TargetAssignment: newAssignmentDoc(m.TargetAssignment),
		})
	}
	return out
}

// newAssignmentDoc has every task list and partition list non-nil, so that
// documents show [] rather than null.
func newAssignmentDoc(a kafka.Assignment) AssignmentDoc {
	return AssignmentDoc{Active: mapAll(a.Active, newTasksDoc), Standby: mapAll(a.Standby, newTasksDoc), Warmup: mapAll(a.Warmup, newTasksDoc)}
}

func newTasksDoc(t kafka.Tasks) TasksDoc {
	ps := t.Partitions
	if ps == nil {
		ps = []int32{}
	}
	return TasksDoc{SubtopologyID: t.SubtopologyID, Partitions: ps}
}
