package main

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// inventoryCluster has a live group "wc" and the orphaned changelog of a
// deleted application "gone", old enough for any --min-age.
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
	c.PutTopicSpec(playground.TopicSpec{Name: "gone-store-changelog", Partitions: 1, Bytes: []int64{2048}})
	c.SetLogOffsets("gone-store-changelog", 0, 0, 1)
	c.SetRecordTimestamps("gone-store-changelog", 0, []int64{1_600_000_000_000})
	return c
}

func TestInventory_cli(t *testing.T) {
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
	isolate(t)
	c := inventoryCluster(t)
	c.SetRecordTimestamps("gone-store-changelog", 0, []int64{9_000_000_000_000}) // in the future: too young
	r := runCLI(t, "inventory", "--bootstrap-server", c.Addrs()[0], "--orphans", "--delete", "--execute", "--detailed-exit-codes")
	assert.Equal(t, exitNotDeleted, r.code, r.stdout)
	assert.Contains(t, r.stderr, "internal topic gone-store-changelog not deleted: its newest record")
	assert.True(t, c.HasTopic("gone-store-changelog"))
}

func TestInventory_usage(t *testing.T) {
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
	assert.Contains(t, d.Unread, "sizes: DescribeLogDirs: broker "+c.Addrs()[0]+" does not offer DescribeLogDirs (its ApiVersions answer leaves it out); nothing was sent")
	assert.Contains(t, r.stdout, "gone-store-changelog")
}
