package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// staticSeed is a group of two static members (group.instance.id), one of
// which left (member epoch -2) and still holds its task.
const staticSeed = `
topics:
  - {name: in, partitions: 2, end_offsets: [10, 10]}
streams_groups:
  - id: static-app
    state: Stable
    group_epoch: 4
    assignment_epoch: 4
    topology: {epoch: 0, subtopologies: [{id: "0", source_topics: [in]}]}
    members:
      - member_id: m-a
        member_epoch: -2
        instance_id: host-a-1
        client_id: static-app-a-StreamThread-1-consumer
        client_host: /10.0.0.1
        process_id: proc-a
        assignment: {active: {"0": [0]}}
        target_assignment: {active: {"0": [0]}}
      - member_id: m-b
        member_epoch: 4
        instance_id: host-b-1
        client_id: static-app-b-StreamThread-1-consumer
        client_host: /10.0.0.2
        process_id: proc-b
        assignment: {active: {"0": [1]}}
        target_assignment: {active: {"0": [1]}}
    committed_offsets:
      - {topic: in, partition: 0, offset: 2}
      - {topic: in, partition: 1, offset: 10}
`

func staticCluster(t *testing.T) *playground.Cluster {
	t.Helper()
	s, err := playground.ParseState([]byte(staticSeed))
	require.NoError(t, err)
	c, err := playground.StartStateWith(testPlayground, s)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// Static members: the overview and the documents show the instance id, the
// members text keeps the Java tool's columns, doctor names the member that
// left and still holds its task.
func TestStaticMembers(t *testing.T) {
	t.Parallel()
	isolate(t)
	bs := bootstrap(staticCluster(t))

	t.Run("overview text", func(t *testing.T) {
		r := runCLI(t, "--bootstrap-server", bs, "overview", "--group", "static-app")
		require.Equal(t, 0, r.code, r.stderr)
		assert.Contains(t, r.stdout, "        member   m-a\n        instance host-a-1 (left: holds its tasks until its session expires)\n        process  proc-a\n")
		assert.Contains(t, r.stdout, "        member   m-b\n        instance host-b-1\n        process  proc-b\n")
	})

	t.Run("overview json", func(t *testing.T) {
		r := runCLI(t, "--bootstrap-server", bs, "-o", "json", "overview", "--group", "static-app")
		require.Equal(t, 0, r.code, r.stderr)
		var doc struct {
			Groups []struct {
				Members []struct {
					MemberID   string  `json:"member_id"`
					InstanceID *string `json:"instance_id"`
				} `json:"members"`
			} `json:"groups"`
		}
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &doc), r.stdout)
		require.Len(t, doc.Groups, 1)
		require.Len(t, doc.Groups[0].Members, 2)
		require.NotNil(t, doc.Groups[0].Members[0].InstanceID)
		assert.Equal(t, "host-a-1", *doc.Groups[0].Members[0].InstanceID)
	})

	t.Run("members text keeps Kafka's columns", func(t *testing.T) {
		r := runCLI(t, "--bootstrap-server", bs, "--describe", "--members", "--group", "static-app")
		require.Equal(t, 0, r.code, r.stderr)
		assert.Contains(t, r.stdout, "GROUP           MEMBER          PROCESS         CLIENT-ID                            ASSIGNMENTS\n")
		assert.NotContains(t, r.stdout, "host-a-1")
		r = runCLI(t, "--bootstrap-server", bs, "-o", "json", "--describe", "--members", "--group", "static-app")
		require.Equal(t, 0, r.code, r.stderr)
		assert.Contains(t, r.stdout, `"instance_id": "host-a-1"`)
	})

	t.Run("doctor", func(t *testing.T) {
		r := runCLI(t, "--bootstrap-server", bs, "doctor", "--group", "static-app")
		assert.Equal(t, 1, r.code, r.stderr)
		assert.Contains(t, wrongLines(r.stdout), "WARNING  1 static member left the group (member epoch -2) and still holds its tasks until its session expires "+
			"(streams.session.timeout.ms = 45000 ms): nobody processes them meanwhile, their lag grows without a rebalance: instance host-a-1 (member m-a, process proc-a, 1 task)")
	})
}
