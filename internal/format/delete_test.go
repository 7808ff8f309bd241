package format

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	groupdelete "github.com/kstreams-groups/kstreams-groups/internal/delete"
	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

func deleteText(t *testing.T, res *groupdelete.Result) string {
	t.Helper()
	var b strings.Builder
	require.NoError(t, DeleteText(&b, res))
	return b.String()
}

func failedGroup(id string, code int16, msg string, stage groupdelete.Stage) *groupdelete.Group {
	return &groupdelete.Group{Group: id, Err: admin.NewClientKafkaError(code, msg), Stage: stage, DeleteGroupsVersion: 3}
}

// The texts kafka-streams-groups.sh 4.4.0 printed (e2e/testdata/real), with
// our error names in place of its exception classes.
func TestDeleteText(t *testing.T) {
	tests := []struct {
		name string
		res  *groupdelete.Result
		want string
	}{
		{
			name: "success",
			res:  &groupdelete.Result{Groups: []*groupdelete.Group{{Group: "fail-app", Deleted: true}}},
			want: "Deletion of requested streams groups ('fail-app') was successful.\n",
		},
		{
			name: "nothing to delete prints Kafka's line with no ids",
			res:  &groupdelete.Result{},
			want: "Deletion of requested streams groups ('') was successful.\n",
		},
		{
			name: "failures then successes",
			res: &groupdelete.Result{Groups: []*groupdelete.Group{
				{Group: "g1", Deleted: true},
				failedGroup("fail-app", 134, "Topology description plugin failed to delete the topology.", groupdelete.StageDeleteGroups),
				{Group: "g2", Deleted: true},
			}},
			want: "\nError: Deletion of some streams groups failed:\n" +
				"* Group 'fail-app' could not be deleted due to: GROUP_DELETION_FAILED: Topology description plugin failed to delete the topology.\n" +
				"\nThese streams groups were deleted successfully: 'g1', 'g2'.\n",
		},
		{
			name: "dry run with nothing passing",
			res: &groupdelete.Result{DryRun: true, Groups: []*groupdelete.Group{
				failedGroup("busy", 68, "Streams group 'busy' is not EMPTY.", groupdelete.StagePreCheck),
			}},
			want: "\nError: Deletion of some streams groups would fail:\n" +
				"* Group 'busy' could not be deleted due to: NON_EMPTY_GROUP: Streams group 'busy' is not EMPTY.\n" +
				"\nDry run: nothing was deleted. No streams group passed the pre-checks.\n",
		},
		{
			name: "internal topics whose group could not be described",
			res: &groupdelete.Result{Groups: []*groupdelete.Group{
				{Group: "g", Deleted: true, InternalTopics: &groupdelete.InternalTopics{Err: admin.NewKafkaError(15, nil)}},
			}},
			want: "\nError: Retrieving internal topics of the streams group 'g' failed due to COORDINATOR_NOT_AVAILABLE: The coordinator is not available.\n" +
				"Deletion of requested streams groups ('g') was successful.\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, deleteText(t, tc.res))
		})
	}
}

// Group names, topic names and broker messages come from other clients and
// the broker: control characters never reach the terminal raw.
func TestDeleteText_escapes(t *testing.T) {
	evil := "g\x1b[2J\r\nfake"
	res := &groupdelete.Result{Groups: []*groupdelete.Group{
		{Group: evil, Err: admin.NewKafkaError(134, ptrTo("bad\x1b]0;title\x07")), Stage: groupdelete.StageDeleteGroups},
		{Group: "ok", Deleted: true, InternalTopics: &groupdelete.InternalTopics{
			Inferred:    []string{"ok-x\x1b-changelog"},
			NotInferred: []string{"t\rx"},
			Failed:      []groupdelete.TopicFailure{{Topic: "ok-x\x1b-changelog", Err: admin.NewKafkaError(29, nil)}},
		}},
	}}
	out := deleteText(t, res)
	assert.NotContains(t, out, "\x1b")
	assert.NotContains(t, out, "\r")
	assert.NotContains(t, out, "\x07")
	golden.Assert(t, []byte(out))
}

func ptrTo(s string) *string { return &s }

func TestDeleteHints(t *testing.T) {
	unknown := admin.NewKafkaError(-1, nil)
	res := &groupdelete.Result{Groups: []*groupdelete.Group{
		{Group: "a", Err: unknown, Stage: groupdelete.StageDeleteGroups, DeleteGroupsVersion: 2, Coordinator: &kafka.Broker{ID: 4}},
		{Group: "b", Err: unknown, Stage: groupdelete.StageDeleteGroups, DeleteGroupsVersion: 3},
		{Group: "c", Deleted: true, DeleteGroupsVersion: 2},
	}}
	assert.Equal(t, []string{
		"hint: broker 4 answered DeleteGroups v2, which cannot report GROUP_DELETION_FAILED: the UNKNOWN_SERVER_ERROR for group 'a' may mean that the broker's topology description plugin failed to delete the group's topology",
	}, DeleteHints(res))

	doc := NewDeleteDoc(res)
	assert.Equal(t, "broker 4 answered DeleteGroups v2, which cannot report GROUP_DELETION_FAILED: the UNKNOWN_SERVER_ERROR for group 'a' may mean that the broker's topology description plugin failed to delete the group's topology", doc.Groups[0].Hint)
	assert.Empty(t, doc.Groups[1].Hint)
}
