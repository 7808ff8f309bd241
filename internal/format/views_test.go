package format

import (
	"bytes"
	"encoding/json"
	"io"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/describe"
	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/list"
)

func viewPtr[T any](v T) *T { return &v }

// viewGroups are the groups of the view goldens: a running word count as a
// real 4.4 broker describes it (e2e/FINDINGS.md), an Empty group, a
// NotReady group whose member has no tasks, a group with a long id and
// non-ASCII topic, and one that could not be described.
func viewGroups() []*describe.Group {
	coord := &kafka.Broker{ID: 1, Host: "127.0.0.1", Port: 36815}
	sticky := "sticky"
	wcTasks := func(a, b []int32) kafka.Assignment {
		return kafka.Assignment{Active: []kafka.Tasks{{SubtopologyID: "0", Partitions: a}, {SubtopologyID: "1", Partitions: b}}}
	}
	return []*describe.Group{
		{
			Group: "wc-app", Coordinator: coord, StreamsGroup: kafka.StreamsGroup{State: "Stable", GroupEpoch: 4, AssignmentEpoch: 4, AssignorName: &sticky, TopologyEpoch: 0,
				Members: []kafka.Member{
					{
						MemberID: "m_84aSGGQcS8bjuT9Z606g", MemberEpoch: 4, ClientHost: "/127.0.0.1",
						ClientID:  "wc-app-b1050f1a-df59-4475-b31f-ffd2fd5e1164-StreamThread-1-consumer",
						ProcessID: "b1050f1a-df59-4475-b31f-ffd2fd5e1164", ClientTags: []kafka.ClientTag{},
						Assignment: wcTasks([]int32{0, 2}, []int32{1}), TargetAssignment: wcTasks([]int32{0, 2}, []int32{1}),
					},
					{
						MemberID: "vPbwZTubTDaDJlXTssyIRQ", MemberEpoch: 4, ClientHost: "/127.0.0.1",
						ClientID:   "wc-app-fee6828d-0ff7-453a-b911-4f061471ef78-StreamThread-1-consumer",
						ProcessID:  "fee6828d-0ff7-453a-b911-4f061471ef78",
						ClientTags: []kafka.ClientTag{{Key: "zone", Value: "a"}}, UserEndpoint: &kafka.Endpoint{Host: "localhost", Port: 7070},
						Assignment: kafka.Assignment{
							Active:  []kafka.Tasks{{SubtopologyID: "0", Partitions: []int32{1}}},
							Standby: []kafka.Tasks{{SubtopologyID: "1", Partitions: []int32{1}}},
							Warmup:  []kafka.Tasks{{SubtopologyID: "1", Partitions: []int32{0, 2}}},
						},
						TargetAssignment: wcTasks([]int32{1}, []int32{0, 2}),
					},
				}},
			Offsets: []describe.PartitionOffset{
				{Topic: "wc-app-word-counts-repartition", Partition: 0, CurrentOffset: viewPtr[int64](36), LeaderEpoch: viewPtr[int32](0), LogEndOffset: 36},
				{Topic: "wc-app-word-counts-repartition", Partition: 1, CurrentOffset: viewPtr[int64](30), LeaderEpoch: viewPtr[int32](0), LogEndOffset: 36, Lag: 6},
				{Topic: "wc-input", Partition: 0, CurrentOffset: viewPtr[int64](10), LogEndOffset: 10},
				{Topic: "wc-input", Partition: 1, LogStartOffset: 2, LogEndOffset: 10, Lag: 8},
			},
		},
		{Group: "em-app", Coordinator: coord, StreamsGroup: kafka.StreamsGroup{State: "Empty", GroupEpoch: 4, AssignmentEpoch: 4, AssignorName: &sticky, TopologyEpoch: 0}},
		{
			Group: "nr-app", Coordinator: coord, StreamsGroup: kafka.StreamsGroup{State: "NotReady", GroupEpoch: 1, AssignmentEpoch: 0, TopologyEpoch: 0,
				Members: []kafka.Member{{MemberID: "x", MemberEpoch: 1, ClientID: "c", ProcessID: "p", IsClassic: true}}},
			Offsets: []describe.PartitionOffset{},
		},
		{
			Group: "a-very-long-application-id-for-widths", Coordinator: &kafka.Broker{ID: 12, Host: "broker-12.kafka.example.internal", Port: 19092},
			StreamsGroup: kafka.StreamsGroup{State: "Reconciling", GroupEpoch: 9, AssignmentEpoch: 8, AssignorName: viewPtr("a-custom-assignor-name"), TopologyEpoch: 2,
				Members: []kafka.Member{{MemberID: "m", MemberEpoch: 8, ClientID: "c", ProcessID: "p",
					Assignment: kafka.Assignment{Active: []kafka.Tasks{{SubtopologyID: "0", Partitions: []int32{0}}}}}}},
			Offsets: []describe.PartitionOffset{{Topic: "zählerstände", Partition: 0, LogEndOffset: 3, Lag: 3}},
		},
		{Group: "gone", Err: admin.NewKafkaError(69, viewPtr("Group gone not found."))},
	}
}

// renderViews writes every group that could be described, as the CLI does.
func renderViews(t *testing.T, view describe.View, verbose bool, st *Styles) []byte {
	var b bytes.Buffer
	for _, g := range viewGroups() {
		if g.Err != nil {
			continue
		}
		var err error
		switch view {
		case describe.ViewState:
			err = StateText(&b, g, verbose, st)
		case describe.ViewMembers:
			err = MembersText(&b, g, verbose, st)
		default:
			err = OffsetsText(&b, g, verbose, st)
		}
		require.NoError(t, err)
	}
	return b.Bytes()
}

var viewNames = map[string]describe.View{"state": describe.ViewState, "members": describe.ViewMembers, "offsets": describe.ViewOffsets}

func TestViewsText(t *testing.T) {
	for name, view := range viewNames {
		for _, verbose := range []bool{false, true} {
			n := name
			if verbose {
				n += " verbose"
			}
			t.Run(n, func(t *testing.T) {
				golden.Assert(t, renderViews(t, view, verbose, nil))
			})
		}
	}
}

var viewSGR = regexp.MustCompile("\x1b\\[[0-9;]*m")

func TestViewsText_color(t *testing.T) {
	for name, view := range viewNames {
		t.Run(name, func(t *testing.T) {
			colored := renderViews(t, view, true, NewStyles(true))
			assert.Equal(t, string(renderViews(t, view, true, nil)), viewSGR.ReplaceAllString(string(colored), ""), "color only adds escapes")
			golden.Assert(t, colored)
		})
	}
}

func TestViewsText_exactKafkaRows(t *testing.T) {
	// Byte-exact rows from the real 4.4.0 tool (e2e/FINDINGS.md), column by column.
	g := viewGroups()[0]
	var b bytes.Buffer
	require.NoError(t, StateText(&b, g, false, nil))
	assert.Equal(t, "GROUP           COORDINATOR (ID)          ASSIGNOR        STATE                     #MEMBERS\n"+
		"wc-app          127.0.0.1:36815 (1)       sticky          Stable                    2\n", b.String())
	b.Reset()
	require.NoError(t, StateText(&b, viewGroups()[1], true, nil))
	assert.Equal(t, "\nError: Streams group 'em-app' has no active members.\n"+
		"GROUP           COORDINATOR (ID)          ASSIGNOR        STATE                     GROUP-EPOCH     TARGET-ASSIGNMENT-EPOCH   #MEMBERS\n"+
		"em-app          127.0.0.1:36815 (1)       sticky          Empty                     4               4                         0\n", b.String())
	b.Reset()
	require.NoError(t, MembersText(&b, g, true, nil))
	lines := bytes.Split(b.Bytes(), []byte("\n"))
	assert.Equal(t, "GROUP           TARGET-ASSIGNMENT-EPOCH   TOPOLOGY-EPOCH MEMBER                 MEMBER-PROTOCOL MEMBER-EPOCH    PROCESS                              CLIENT-ID                                                           ASSIGNMENTS", string(lines[0]))
	assert.Equal(t, "wc-app          4                         0              m_84aSGGQcS8bjuT9Z606g streams         4               b1050f1a-df59-4475-b31f-ffd2fd5e1164 wc-app-b1050f1a-df59-4475-b31f-ffd2fd5e1164-StreamThread-1-consumer ACTIVE: 0:[0,2]; 1:[1]; TARGET-ACTIVE: 0:[0,2]; 1:[1]; ", string(lines[1]))
	b.Reset()
	require.NoError(t, OffsetsText(&b, g, true, nil))
	lines = bytes.Split(b.Bytes(), []byte("\n"))
	assert.Equal(t, "GROUP           TOPIC                          PARTITION  CURRENT-OFFSET  LEADER-EPOCH    LOG-END-OFFSET  OFFSET-LAG     ", string(lines[0]))
	assert.Equal(t, "wc-app          wc-input                       1          -               -               10              8              ", string(lines[4]))
	b.Reset()
	require.NoError(t, MembersText(&b, viewGroups()[2], false, nil))
	assert.Equal(t, "GROUP           MEMBER          PROCESS         CLIENT-ID       ASSIGNMENTS\nnr-app          x               p               c               \n", b.String(),
		"a member without tasks ends its line with the separator")
}

func TestViewsText_skippedGroups(t *testing.T) {
	empty := viewGroups()[1]
	dead := &describe.Group{Group: "d", StreamsGroup: kafka.StreamsGroup{State: "Dead", Members: []kafka.Member{{MemberID: "m"}}}}
	for _, g := range []*describe.Group{empty, dead} {
		var b bytes.Buffer
		require.NoError(t, MembersText(&b, g, true, nil))
		require.NoError(t, OffsetsText(&b, g, true, nil))
		assert.Empty(t, b.String(), "Kafka prints nothing, not even the notice")
	}
	var b bytes.Buffer
	require.NoError(t, StateText(&b, dead, false, nil))
	assert.Contains(t, b.String(), "\nError: Streams group 'd' does not exist.\nGROUP")
}

func TestViewsText_escapes(t *testing.T) {
	g := viewGroups()[0]
	g.Group = "evil\x1b]0;pwned\x07"
	g.Members[0].ClientID = "c\rX"
	g.Offsets[0].Topic = "t\x1b[2J"
	var b bytes.Buffer
	for _, view := range viewNames {
		switch view {
		case describe.ViewState:
			require.NoError(t, StateText(&b, g, true, nil))
		case describe.ViewMembers:
			require.NoError(t, MembersText(&b, g, true, nil))
		default:
			require.NoError(t, OffsetsText(&b, g, true, nil))
		}
	}
	assert.NotContains(t, b.String(), "\x1b")
	assert.NotContains(t, b.String(), "\r")
	assert.NotContains(t, b.String(), "\x07")
	assert.Contains(t, b.String(), `evil^[]0;pwned^G`)
}

func viewResult(view describe.View) *describe.Result {
	return &describe.Result{Groups: viewGroups(), View: view}
}

func TestViewsDocuments(t *testing.T) {
	for name, view := range viewNames {
		for _, o := range []Output{JSON, YAML} {
			t.Run(name+" "+string(o), func(t *testing.T) {
				var b bytes.Buffer
				require.NoError(t, Encode(&b, o, NewDescribeDoc(viewResult(view))))
				golden.Assert(t, b.Bytes())
			})
		}
	}
}

// JSON and YAML carry the same document.
func TestViewsDocuments_jsonEqualsYAML(t *testing.T) {
	decode := func(o Output, r io.Reader) any {
		var v any
		if o == JSON {
			require.NoError(t, json.NewDecoder(r).Decode(&v))
		} else {
			require.NoError(t, yaml.NewDecoder(r).Decode(&v))
		}
		return normalise(v)
	}
	for name, view := range viewNames {
		t.Run(name, func(t *testing.T) {
			var j, y bytes.Buffer
			require.NoError(t, Encode(&j, JSON, NewDescribeDoc(viewResult(view))))
			require.NoError(t, Encode(&y, YAML, NewDescribeDoc(viewResult(view))))
			assert.Equal(t, decode(JSON, &j), decode(YAML, &y))
		})
	}
	var j, y bytes.Buffer
	require.NoError(t, Encode(&j, JSON, NewListDoc(listResult(true))))
	require.NoError(t, Encode(&y, YAML, NewListDoc(listResult(true))))
	assert.Equal(t, decode(JSON, &j), decode(YAML, &y))
}

// normalise makes decoded JSON and YAML comparable (numbers, map types).
func normalise(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normalise(e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = normalise(e)
		}
		return x
	case int:
		return float64(x)
	}
	return v
}

func TestViewsDocuments_topologyUnchanged(t *testing.T) {
	var b bytes.Buffer
	res := &describe.Result{Groups: []*describe.Group{viewGroups()[0]}, View: describe.ViewTopology}
	require.NoError(t, Encode(&b, JSON, NewDescribeDoc(res)))
	assert.NotContains(t, b.String(), "member_count")
	assert.NotContains(t, b.String(), `"offsets"`)
	assert.NotContains(t, b.String(), `"members"`)
}

func listResult(withState bool) *list.Result {
	return &list.Result{WithState: withState, Groups: []list.Group{
		{Group: "a-very-long-application-id-for-widths", State: "Reconciling"},
		{Group: "em-app", State: "Empty"},
		{Group: "nr-app", State: "NotReady"},
		{Group: "wc-app", State: "Stable"},
	}}
}

func TestList(t *testing.T) {
	for _, tc := range []struct {
		name string
		res  *list.Result
		o    Output
		st   *Styles
	}{
		{name: "ids", res: listResult(false), o: Text},
		{name: "state", res: listResult(true), o: Text},
		{name: "state color", res: listResult(true), o: Text, st: NewStyles(true)},
		{name: "state none", res: &list.Result{WithState: true}, o: Text},
		{name: "none", res: &list.Result{}, o: Text},
		{name: "json", res: listResult(false), o: JSON},
		{name: "yaml", res: listResult(true), o: YAML},
		{name: "json none", res: &list.Result{}, o: JSON},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if tc.o == Text {
				require.NoError(t, ListText(&b, tc.res, tc.st))
			} else {
				require.NoError(t, Encode(&b, tc.o, NewListDoc(tc.res)))
			}
			golden.Assert(t, b.Bytes())
		})
	}
	var b bytes.Buffer
	require.NoError(t, ListText(&b, listResult(true), nil))
	assert.Equal(t, "GROUP                                 STATE\n", string(bytes.SplitAfter(b.Bytes(), []byte("\n"))[0]))
	short := &list.Result{WithState: true, Groups: []list.Group{{Group: "em-app", State: "Empty"}}}
	b.Reset()
	require.NoError(t, ListText(&b, short, nil))
	assert.Equal(t, "GROUP           STATE\nem-app          Empty\n", b.String(), "the real 4.4.0 tool's bytes")
}

func TestPadCountsUTF16(t *testing.T) {
	assert.Equal(t, "zähler   |", pad("zähler", 9)+"|")
	assert.Equal(t, "😀 |", pad("😀", 3)+"|", "a supplementary character is two Java chars")
	assert.Equal(t, "toolong", pad("toolong", 3), "never truncated")
}

// A group that could not be described holds its name, its coordinator when
// known, and its error: nothing else (zeroed epochs were written beside the
// error), in every view and both formats.
func TestViewsDocuments_errorGroupHoldsOnlyTheError(t *testing.T) {
	failed := &describe.Group{Group: "gone", Coordinator: &kafka.Broker{ID: 1, Host: "h", Port: 9092},
		Err: &kafka.Error{Code: 69, Name: "GROUP_ID_NOT_FOUND", Message: "Group gone not found."}}
	views := map[string]describe.View{"topology": describe.ViewTopology}
	for name, view := range viewNames {
		views[name] = view
	}
	for name, view := range views {
		for _, o := range []Output{JSON, YAML} {
			t.Run(name+" "+string(o), func(t *testing.T) {
				var b bytes.Buffer
				require.NoError(t, Encode(&b, o, NewDescribeDoc(&describe.Result{Groups: []*describe.Group{failed}, View: view})))
				var doc struct {
					Groups []map[string]any `json:"groups" yaml:"groups"`
				}
				if o == JSON {
					require.NoError(t, json.Unmarshal(b.Bytes(), &doc))
				} else {
					require.NoError(t, yaml.Unmarshal(b.Bytes(), &doc))
				}
				require.Len(t, doc.Groups, 1)
				keys := make([]string, 0, len(doc.Groups[0]))
				for k := range doc.Groups[0] {
					keys = append(keys, k)
				}
				assert.ElementsMatch(t, []string{"group", "coordinator", "error"}, keys, b.String())
			})
		}
	}
}

// Where Kafka's tool prints nothing (or only a header), one stderr line
// says why: an Empty group's offsets and members, a NotReady group whose
// member has no active task; not for a group that shows rows or failed.
func TestDescribeNotes(t *testing.T) {
	tests := map[describe.View][]string{
		describe.ViewOffsets: {
			"Streams group 'em-app' has no members: the offsets view shows only the partitions of members' active tasks (its committed offsets: reset-offsets --all-input-topics --to-current --dry-run).",
			"Streams group 'nr-app': no member has an active task, so the offsets view has no rows.",
		},
		describe.ViewMembers:  {"Streams group 'em-app' has no members: the members view has nothing to show."},
		describe.ViewState:    nil,
		describe.ViewTopology: nil,
	}
	for view, want := range tests {
		assert.Equal(t, want, DescribeNotes(viewResult(view)), "view %v", view)
	}
	dead := &describe.Result{View: describe.ViewOffsets, Groups: []*describe.Group{{Group: "d\x1b", StreamsGroup: kafka.StreamsGroup{State: "Dead"}}}}
	assert.Equal(t, []string{"Streams group 'd^[' is Dead: the offsets view has nothing to show."}, DescribeNotes(dead))
}

func TestListNotes(t *testing.T) {
	assert.Nil(t, ListNotes(listResult(true), nil))
	assert.Equal(t, []string{"The cluster has no streams group."}, ListNotes(&list.Result{}, nil))
	assert.Equal(t, []string{"No streams group is in state Empty or Dead."}, ListNotes(&list.Result{WithState: true}, []string{"Empty", "Dead"}))
}
