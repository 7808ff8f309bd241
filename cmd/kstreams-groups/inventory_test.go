package main

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// inventoryCluster has a live group "wc" and the orphaned changelog of a
// deleted application "gone", written long enough ago for any --min-age.
func inventoryCluster(t *testing.T) *playground.Cluster {
	t.Helper()
	c, err := playground.Start(playground.Config{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	c.PutTopicSpec(playground.TopicSpec{Name: "in", Partitions: 1})
	c.PutTopicSpec(playground.TopicSpec{Name: "wc-counts-changelog", Partitions: 1, Configs: map[string]string{"cleanup.policy": "compact"}})
	c.PutStreamsGroup(playground.StreamsGroup{ID: "wc", State: "Stable", Topology: &playground.Topology{Epoch: 1, Subtopologies: []playground.Subtopology{
		{ID: "0", SourceTopics: []string{"in"}, StateChangelogTopics: []playground.TopicInfo{{Name: "wc-counts-changelog", Configs: map[string]string{"cleanup.policy": "compact"}}}},
	}}})
	// LogAppendTime: its record time is when the broker wrote it, so
	// its age is known.
	c.PutTopicSpec(playground.TopicSpec{Name: "gone-store-changelog", Partitions: 1, Bytes: []int64{2048},
		Configs: map[string]string{"message.timestamp.type": "LogAppendTime"}})
	c.SetLogOffsets("gone-store-changelog", 0, 0, 1)
	c.SetRecordTimestamps("gone-store-changelog", 0, []int64{1_600_000_000_000})
	return c
}

func TestInventory_cli(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := inventoryCluster(t)
	bs := c.Addrs()[0]

	r := runCLI(t, "inventory", "--bootstrap-server", bs)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "GROUP wc (Stable)")
	assert.Contains(t, r.stdout, "gone-store-changelog  gone")

	r = runCLI(t, "inventory", "--bootstrap-server", bs, "--orphans", "--delete", "-o", "json")
	require.Equal(t, 0, r.code, r.stderr)
	var d struct {
		Cleanup struct {
			Execute bool `json:"execute"`
			Topics  []struct{ Topic, Outcome string }
		} `json:"cleanup"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &d))
	assert.False(t, d.Cleanup.Execute, "a dry run by default")
	require.Len(t, d.Cleanup.Topics, 1)
	assert.Equal(t, "would_delete", d.Cleanup.Topics[0].Outcome)
	assert.True(t, c.HasTopic("gone-store-changelog"))

	r = runCLI(t, "inventory", "--bootstrap-server", bs, "--orphans", "--delete", "--execute")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "deleted       gone-store-changelog")
	assert.False(t, c.HasTopic("gone-store-changelog"))
	assert.True(t, c.HasTopic("wc-counts-changelog"))

	r = runCLI(t, "inventory", "--bootstrap-server", bs, "-o", "prometheus")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "kstreams_inventory_orphaned_bytes_total 0\n")
}

func TestInventory_cliNotDeletedExit(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := inventoryCluster(t)
	c.SetRecordTimestamps("gone-store-changelog", 0, []int64{9_000_000_000_000}) // in the future: too young
	r := runCLI(t, "inventory", "--bootstrap-server", c.Addrs()[0], "--orphans", "--delete", "--execute", "--detailed-exit-codes")
	assert.Equal(t, exitNotDeleted, r.code, r.stdout)
	assert.Contains(t, r.stderr, "Error: internal topic gone-store-changelog not deleted: its newest record")
	assert.NotContains(t, r.stderr, "Error: Error:", "one label (issue 30, W13)")
	assert.True(t, c.HasTopic("gone-store-changelog"))
}

// TestInventory_cliIncomplete (issue 30, W7): a run that could not read a
// part of the cluster is not a success: exit 1 (with
// --detailed-exit-codes, the code of why), the part named on stderr.
func TestInventory_cliIncomplete(t *testing.T) {
	t.Parallel()
	isolate(t)
	denied := "denied"
	for _, tc := range []struct {
		name   string
		args   []string
		break_ func(c *playground.Cluster)
		stderr string
	}{
		{"a streams group not described, under --orphans", []string{"--orphans"}, func(c *playground.Cluster) {
			c.PutStreamsGroup(playground.StreamsGroup{ID: "brk", State: "Stable"})
			c.InjectError(playground.Fault{Key: 89, Group: "brk", ErrorCode: kerr.GroupAuthorizationFailed.Code, ErrorMessage: &denied, Node: playground.AnyNode})
		}, "Error: could not read the streams group brk: "},
		{"committed offsets not read", nil, func(c *playground.Cluster) {
			c.PutGroup("reader", "consumer", "consumer", "Stable")
			c.InjectError(playground.Fault{Key: 10, Group: "reader", ErrorCode: kerr.GroupAuthorizationFailed.Code, ErrorMessage: &denied, Node: playground.AnyNode})
		}, "Error: could not read the committed offsets of group reader: "},
		{"the groups with configs not listed", nil, func(c *playground.Cluster) {
			c.SetRawResponse(74, playground.AnyNode, func(v int16) []byte {
				resp := kmsg.NewPtrListConfigResourcesResponse()
				resp.Version, resp.ErrorCode = v, kerr.ClusterAuthorizationFailed.Code
				return resp.AppendTo(nil)
			}, 0)
		}, "Error: could not read the groups with dynamic configs (ListConfigResources): "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := inventoryCluster(t)
			tc.break_(c)
			args := append([]string{"inventory", "--bootstrap-server", c.Addrs()[0]}, tc.args...)
			r := runCLI(t, args...)
			assert.Equal(t, exitFailure, r.code, r.stderr)
			assert.Contains(t, r.stderr, tc.stderr)
			assert.Contains(t, r.stdout, "note: could not read ")
			r = runCLI(t, append(args, "--detailed-exit-codes")...)
			assert.Equal(t, exitNotAuthorized, r.code, r.stderr)
		})
	}
}

func TestInventory_usage(t *testing.T) {
	t.Parallel()
	isolate(t)
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--delete"}, "Option [delete] takes [orphans]"},
		{[]string{"--orphans", "--execute"}, "Option [execute] takes [delete]"},
		{[]string{"--orphans", "--delete", "--dry-run", "--execute"}, "Option [dry-run] can't be used with option [execute]"},
		{[]string{"--orphans", "--delete", "--min-age", "soon"}, `--min-age: "soon" is not a duration`},
		{[]string{"--orphans", "--delete", "--min-age", "-1h"}, "--min-age must not be negative"},
		{[]string{"--orphans", "--configs"}, "Option [configs] takes [delete]"},
		{[]string{"--orphans", "--min-age", "1h"}, "Option [min-age] takes [delete]"},
		{[]string{"--min-age", "0"}, "Option [min-age] takes [delete]"},
		{[]string{"--orphans", "--dry-run"}, "Option [dry-run] takes [delete]"},
		{[]string{"--group", "a", "--all-groups"}, `Option "[group]" can't be used with option "[all-groups]"`},
	} {
		r := runCLI(t, append([]string{"inventory", "--bootstrap-server", "127.0.0.1:9"}, tc.args...)...)
		assert.Equal(t, 2, r.code, "%v: %s", tc.args, r.stderr)
		assert.Contains(t, r.stderr, tc.msg, tc.args)
	}
}

// A broker that does not offer DescribeLogDirs: the sizes only enrich the
// inventory, which comes at once with the orphan still listed and the
// sizes named as unread (issue 30), not after --timeout.
func TestInventory_sizesUnsupported(t *testing.T) {
	isolate(t)
	c := inventoryCluster(t)
	c.SetUnsupported(35) // DescribeLogDirs
	start := time.Now()
	r := runCLI(t, "inventory", "--bootstrap-server", c.Addrs()[0], "--timeout", "8s", "-o", "json")
	assert.Less(t, time.Since(start), 4*time.Second, "well under --timeout 8s")
	var d struct {
		Unread []string `json:"unread"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &d), r.stderr)
	assert.Contains(t, d.Unread, "the sizes (DescribeLogDirs): DescribeLogDirs: broker "+c.Addrs()[0]+" does not offer DescribeLogDirs (its ApiVersions answer leaves it out); nothing was sent")
	assert.Contains(t, r.stdout, "gone-store-changelog")
}
