package format

import (
	"bytes"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/check"
	"github.com/kstreams-groups/kstreams-groups/internal/format/promtest"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/list"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

func count(v int64) *int64 { return &v }

func checkResult(opts check.Options, groups ...*overview.Group) *check.Result {
	res := &check.Result{Status: check.OK, Options: opts}
	for _, g := range groups {
		cg := check.Evaluate(g, opts)
		res.Groups = append(res.Groups, cg)
		res.Status = check.Worst(res.Status, cg.Status)
	}
	return res
}

func checkedGroup(id, state string, lag int64) *overview.Group {
	t := &overview.Task{TaskID: overview.TaskID{Subtopology: "0", Partition: 1}, Active: []int{0}, TargetActive: []int{0}, Lag: lag}
	return &overview.Group{Group: id, State: state, GroupEpoch: 4, AssignmentEpoch: 4, TopologyEpoch: 1,
		Members:       []kafka.Member{{MemberID: "m"}},
		Subtopologies: []*overview.Subtopology{{ID: "0", Tasks: []*overview.Task{t}, Lag: lag, MaxTaskLag: lag}},
		Lag:           lag, Largest: t}
}

func checkText(t *testing.T, res *check.Result, verbose bool) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, CheckText(&b, res, verbose))
	return b.String()
}

func TestCheckText(t *testing.T) {
	opts := check.Options{LagWarning: count(50), LagCritical: count(100), MinMembers: count(1)}
	ok := checkResult(opts, checkedGroup("a", "Stable", 10))
	assert.Equal(t, "STREAMS OK - a: Stable, 1 member, lag 10, largest task lag 10 (0_1), 0 tasks moving | "+
		"'a lag'=10;50;100;0 'a max_task_lag'=10;;;0 'a members'=1;;1:;0 'a moving_tasks'=0;;;0 'a group_epoch'=4 'a target_assignment_epoch'=4 'a topology_epoch'=1\n",
		checkText(t, ok, false))

	two := checkResult(opts, checkedGroup("a", "Stable", 10), checkedGroup("b", "Stable", 0))
	assert.Regexp(t, `^STREAMS OK - 2 groups OK \| 'a lag'=10;50;100;0 .* 'b topology_epoch'=1\n$`, checkText(t, two, false))

	bad := checkResult(opts, checkedGroup("a", "Stable", 10), checkedGroup("b", "Reconciling", 70), checkedGroup("c", "Stable", 101))
	got := checkText(t, bad, true)
	assert.Regexp(t, `^STREAMS CRITICAL - b WARNING: state Reconciling, expected Stable, lag 70 > 50; c CRITICAL: lag 101 > 100; 1 of 3 groups OK \| `, got)
	assert.Contains(t, got, "\na: OK (Stable, 1 member, lag 10, largest task lag 10 (0_1), 0 tasks moving, group epoch 4, target assignment epoch 4, topology epoch 1)\n")
	assert.Contains(t, got, "\nb: WARNING - state Reconciling, expected Stable, lag 70 > 50 (Reconciling, 1 member, lag 70")
	assert.Contains(t, got, "\nc: CRITICAL - lag 101 > 100 (")

	missing := &overview.Group{Group: "nope", Err: errors.New("GROUP_ID_NOT_FOUND: Group nope not found.")}
	failed := checkResult(check.Options{}, missing)
	assert.Equal(t, "STREAMS UNKNOWN - nope UNKNOWN: cannot be checked: GROUP_ID_NOT_FOUND: Group nope not found.\nnope: UNKNOWN - cannot be checked: GROUP_ID_NOT_FOUND: Group nope not found.\n",
		checkText(t, failed, true), "no perfdata for a group that could not be checked")

	assert.Equal(t, "STREAMS UNKNOWN - cannot list / the groups\n", checkText(t, check.Failed(errors.New("cannot list | the groups"), check.Options{}), false))
	assert.Equal(t, "STREAMS OK - no streams groups\n", checkText(t, &check.Result{Status: check.OK}, false))

	g := checkedGroup("a", "Stable", 0)
	g.DescriptionStatus = topology.Available
	assert.Contains(t, checkText(t, checkResult(check.Options{RequireTopology: true}, g), false), "0 tasks moving, description AVAILABLE |")
}

// A hostile group name cannot break the status line, the perfdata or the
// terminal.
func TestCheckText_hostileNames(t *testing.T) {
	res := checkResult(check.Options{LagCritical: count(0)}, checkedGroup("ev'il=|\x1b]0;x\x07\n", "Stable\x1b[2J", 5))
	got := checkText(t, res, true)
	assert.NotContains(t, got, "\x1b")
	assert.NotContains(t, got, "\x07")
	assert.Equal(t, 2, bytes.Count([]byte(got), []byte("\n")), "two lines, the escaped newline included")
	line, _, _ := bytes.Cut([]byte(got), []byte("\n"))
	assert.Equal(t, 1, bytes.Count(line, []byte("|")), "one | separates text and perfdata")
	assert.Contains(t, string(line), `'ev\x27il\x3D\x7C\x1B]0;x\x07\x0A lag'=5;;0;0`)
	assert.Contains(t, string(line), "STREAMS CRITICAL - ev'il=/^[]0;x^G\\n CRITICAL: state Stable^[[2J, expected Stable, lag 5 > 0")
}

func TestCheckDoc(t *testing.T) {
	res := checkResult(check.Options{MinMembers: count(2)}, checkedGroup("a", "Stable", 3), &overview.Group{Group: "nope", Err: &kafka.Error{Code: 69, Name: "GROUP_ID_NOT_FOUND", Message: "Group nope not found."}})
	var b bytes.Buffer
	require.NoError(t, Encode(&b, JSON, NewCheckDoc(res)))
	for _, want := range []string{`"status": "CRITICAL"`, `"exit_code": 2`, `"condition": "min-members"`, `"message": "1 member, at least 2 expected"`,
		`"topology_description_status": "NOT_REQUESTED"`, `"name": "GROUP_ID_NOT_FOUND"`, `"max_task_lag": 3`} {
		assert.Contains(t, b.String(), want)
	}
}

func TestPrometheus(t *testing.T) {
	g := checkedGroup("a", "Reconciling", 7)
	g.Subtopologies[0].Tasks[0].TargetActive = nil // moving
	evil := checkedGroup("ev\"il\\\n\xff", "Stable", 1)
	missing := &overview.Group{Group: "nope", Err: errors.New("not found")}
	ov := &overview.Result{Groups: []*overview.Group{g, evil, missing, g}}

	var b bytes.Buffer
	require.NoError(t, OverviewPrometheusWith(&b, ov, PrometheusOptions{TimeLag: true}))
	fams := promtest.Parse(t, b.String())
	assert.EqualValues(t, 1, promtest.Value(t, fams, "kstreams_group_state", "group", "a", "state", "Reconciling"))
	assert.EqualValues(t, 0, promtest.Value(t, fams, "kstreams_group_state", "group", "a", "state", "Stable"))
	assert.Len(t, fams["kstreams_group_state"].GetMetric(), 12, "six states for each of two described groups")
	assert.EqualValues(t, 0, promtest.Value(t, fams, "kstreams_group_up", "group", "nope"))
	assert.EqualValues(t, 1, promtest.Value(t, fams, "kstreams_group_up", "group", "a"))
	assert.EqualValues(t, 1, promtest.Value(t, fams, "kstreams_group_moving_tasks", "group", "a"))
	assert.EqualValues(t, 7, promtest.Value(t, fams, "kstreams_task_lag", "group", "a", "subtopology", "0", "partition", "1"))
	assert.EqualValues(t, 7, promtest.Value(t, fams, "kstreams_subtopology_lag", "group", "a", "subtopology", "0"))
	assert.EqualValues(t, 1, promtest.Value(t, fams, "kstreams_group_topology_description_status", "group", "a", "status", "NOT_REQUESTED"))
	assert.EqualValues(t, 4, promtest.Value(t, fams, "kstreams_group_target_assignment_epoch", "group", "a"))
	assert.EqualValues(t, 1, promtest.Value(t, fams, "kstreams_group_lag", "group", `ev"il\\\x0A\xFF`), "escaped labels read back")
	assert.Len(t, fams["kstreams_group_lag"].GetMetric(), 2, "a group asked twice is written once")
	assert.Contains(t, b.String(), `kstreams_group_lag{group="ev\"il\\\\\\x0A\\xFF"} 1`)

	b.Reset()
	res := checkResult(check.Options{LagCritical: count(5)}, g, evil, missing)
	require.NoError(t, CheckPrometheusWith(&b, res, PrometheusOptions{}))
	fams = promtest.Parse(t, b.String())
	assert.EqualValues(t, 2, promtest.Value(t, fams, "kstreams_check_group_status", "group", "a"))
	assert.EqualValues(t, 0, promtest.Value(t, fams, "kstreams_check_group_status", "group", `ev"il\\\x0A\xFF`))
	assert.EqualValues(t, 3, promtest.Value(t, fams, "kstreams_check_group_status", "group", "nope"))
	assert.EqualValues(t, 2, promtest.Value(t, fams, "kstreams_check_status"))

	b.Reset()
	require.NoError(t, CheckPrometheusWith(&b, check.Failed(errors.New("unreachable"), check.Options{}), PrometheusOptions{}))
	fams = promtest.Parse(t, b.String())
	assert.Len(t, fams, 1)
	assert.EqualValues(t, 3, promtest.Value(t, fams, "kstreams_check_status"))
}

// A group or state name a terminal would obey (ESC, BEL, CR, C1, bidi)
// reaches the exposition as visible text; it still parses and reads back.
func TestPrometheus_hostileNames(t *testing.T) {
	ov := &overview.Result{Groups: []*overview.Group{checkedGroup("ev\x1b]0;x\x07il\r\u202e\u0085", "Stable\x1b[2J", 3)}}
	var b bytes.Buffer
	require.NoError(t, OverviewPrometheusWith(&b, ov, PrometheusOptions{TimeLag: true}))
	for _, c := range []string{"\x1b", "\x07", "\r", "\u202e", "\u0085"} {
		assert.NotContains(t, b.String(), c)
	}
	fams := promtest.Parse(t, b.String())
	assert.EqualValues(t, 3, promtest.Value(t, fams, "kstreams_group_lag", "group", `ev\x1B]0;x\x07il\x0D\x{202E}\x{0085}`))
	assert.EqualValues(t, 1, promtest.Value(t, fams, "kstreams_group_state", "group", `ev\x1B]0;x\x07il\x0D\x{202E}\x{0085}`, "state", `Stable\x1B[2J`))
}

func TestListPrometheus(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, ListPrometheus(&b, &list.Result{WithState: true, Groups: []list.Group{{Group: "a", State: "Empty"}, {Group: "b", State: "Unknown"}}}))
	fams := promtest.Parse(t, b.String())
	assert.Len(t, fams, 1)
	assert.EqualValues(t, 1, promtest.Value(t, fams, "kstreams_group_state", "group", "a", "state", "Empty"))
	assert.EqualValues(t, 0, promtest.Value(t, fams, "kstreams_group_state", "group", "b", "state", "Empty"))
	assert.EqualValues(t, 1, promtest.Value(t, fams, "kstreams_group_state", "group", "b", "state", "Unknown"), "a state the broker names otherwise")
}
