package main

import (
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// deleteConfigsCluster has two Empty groups, gone with two dynamic
// configs and plain with none.
func deleteConfigsCluster(t *testing.T) *playground.Cluster {
	t.Helper()
	c := startCluster(t, 1, playground.Kafka44)
	one := "1"
	c.PutStreamsGroup(playground.StreamsGroup{ID: "gone", State: "Empty"})
	c.PutStreamsGroup(playground.StreamsGroup{ID: "plain", State: "Empty"})
	c.SetGroupConfig("gone", "streams.num.standby.replicas", &one)
	c.SetGroupConfig("gone", "streams.num.warmup.replicas", &one)
	return c
}

// Deleting a group leaves its dynamic configs (FINDINGS F402): delete
// names them on stderr, stdout keeping Kafka's line.
func TestDeleteConfigs_remain(t *testing.T) {
	t.Parallel()
	isolate(t)
	for _, form := range [][]string{{"delete"}, {"--delete"}} {
		c := deleteConfigsCluster(t)
		r := runCLI(t, append(append([]string{"--bootstrap-server", bootstrap(c)}, form...), "--group", "gone", "--group", "plain")...)
		require.Equal(t, 0, r.code, r.stderr)
		assert.Equal(t, "Deletion of requested streams groups ('gone', 'plain') was successful.\n", r.stdout)
		assert.Equal(t, "note: the dynamic configs of the deleted streams group 'gone' remain on the broker (streams.num.standby.replicas=1, streams.num.warmup.replicas=1), and a new group 'gone' would inherit them: delete --delete-configs also deletes them\n", r.stderr)
		assert.Len(t, c.GroupConfigs("gone"), 2)
	}
}

func TestDeleteConfigs_delete(t *testing.T) {
	t.Parallel()
	isolate(t)

	t.Run("text", func(t *testing.T) {
		c := deleteConfigsCluster(t)
		r := runCLI(t, "--bootstrap-server", bootstrap(c), "--delete", "--group", "gone", "--group", "plain", "--delete-configs")
		require.Equal(t, 0, r.code, r.stderr)
		assert.Empty(t, r.stderr)
		assert.Equal(t, "Deletion of requested streams groups ('gone', 'plain') was successful.\n"+
			"Deletion of the dynamic configs of the streams groups ('gone') was successful.\n", r.stdout)
		assert.Empty(t, c.GroupConfigs("gone"))
	})

	t.Run("json", func(t *testing.T) {
		c := deleteConfigsCluster(t)
		r := runCLI(t, "--bootstrap-server", bootstrap(c), "-o", "json", "delete", "--group", "gone", "--group", "plain", "--delete-configs")
		require.Equal(t, 0, r.code, r.stderr)
		golden.Assert(t, []byte(regexp.MustCompile(`"port": \d+`).ReplaceAllString(r.stdout, `"port": 0`)))
	})

	for name, extra := range map[string][]string{"dry run": nil, "dry run with --delete-configs": {"--delete-configs"}} {
		t.Run(name, func(t *testing.T) {
			c := deleteConfigsCluster(t)
			r := runCLI(t, append([]string{"--bootstrap-server", bootstrap(c), "delete", "--group", "gone", "--group", "plain", "--dry-run"}, extra...)...)
			require.Equal(t, 0, r.code, r.stderr)
			assert.Empty(t, r.stderr)
			golden.Assert(t, []byte(r.stdout))
			assert.Len(t, c.GroupConfigs("gone"), 2, "a dry run deletes nothing")
		})
	}

	t.Run("refused", func(t *testing.T) {
		c := deleteConfigsCluster(t)
		msg := "Group authorization failed."
		c.InjectError(playground.Fault{Key: 44, ErrorCode: 30, ErrorMessage: &msg, Node: playground.AnyNode})
		r := runMode(t, c, true, 1, exitNotAuthorized, "", "delete", "--group", "gone", "--delete-configs")
		assert.Equal(t, "Deletion of requested streams groups ('gone') was successful.\n"+
			"Deletion of some dynamic group configs failed:\n"+
			"* Dynamic configs of the streams group 'gone' could not be deleted due to: GROUP_AUTHORIZATION_FAILED: Group authorization failed.\n", r.stdout)
		assert.Len(t, c.GroupConfigs("gone"), 2)
	})

	t.Run("only with --delete in the Kafka form", func(t *testing.T) {
		r := runCLI(t, "--bootstrap-server", "127.0.0.1:9", "--describe", "--group", "g", "--delete-configs")
		assert.Equal(t, exitUsage, r.code)
		assert.Contains(t, r.stderr, "Option(s) [delete-configs] are unavailable given other options on the command line")
	})
}

// A broker that does not offer DescribeConfigs (a Kafka-protocol broker
// without group configs): reading the configs only enriches delete's
// output, so the group is deleted at once and the unread configs are a
// note (issue 30), not a wait for --timeout ending in "DeleteGroups: timed
// out".
func TestDeleteConfigs_unsupported(t *testing.T) {
	isolate(t)
	c := deleteConfigsCluster(t)
	c.SetUnsupported(32)
	start := time.Now()
	r := runCLI(t, "--bootstrap-server", bootstrap(c), "--timeout", "8s", "delete", "--group", "gone")
	took := time.Since(start)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "Deletion of requested streams groups ('gone') was successful.\n", r.stdout)
	assert.Equal(t, "note: the dynamic configs of the deleted streams group 'gone' could not be read (DescribeConfigs: broker "+bootstrap(c)+
		" does not offer DescribeConfigs (its ApiVersions answer leaves it out); nothing was sent): any it had remain on the broker\n", r.stderr)
	assert.Less(t, took, 4*time.Second, "well under --timeout 8s")
	assert.False(t, c.HasGroup("gone"))

	// --delete-configs asks for the configs: their read failing is a
	// failure, after the group is deleted.
	c = deleteConfigsCluster(t)
	c.SetUnsupported(32)
	r = runCLI(t, "--bootstrap-server", bootstrap(c), "--timeout", "8s", "delete", "--group", "gone", "--delete-configs")
	assert.Equal(t, exitFailure, r.code, r.stdout+r.stderr)
	assert.Contains(t, r.stdout, "Deletion of requested streams groups ('gone') was successful.\n")
	assert.Contains(t, r.stdout, "does not offer DescribeConfigs")
}
