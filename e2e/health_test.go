//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/format/promtest"
)

// hcInput is TestHealth's OverviewApp input (topic-prefix=hc-), its own on the shared broker.
const hcInput = "hc-ov-input"

// TestHealth runs `kstreams-groups check` and `doctor` (issue 15) against real brokers and Kafka
// Streams 4.4.0 applications, on the run's shared brokers (SharedBroker), one per broker config the
// causes need:
//
//   - A, 4.4.0 with Kafka's in-memory plugin: hc-app (e2e.OverviewApp, pausable, so its lag
//     builds up and holds still) is checked Stable (OK), paused with 30 records produced (a lag
//     threshold below the real lag: CRITICAL), and stopped (Empty); hc-nopush
//     (topology.description.push.enabled=false) is diagnosed as NOT_STORED with everything else
//     healthy;
//   - B, 4.4.0 without a plugin: hc-np is diagnosed as "no plugin configured", read from the
//     broker with DescribeConfigs;
//   - C, 4.3.1: hc-old is diagnosed as "broker older than 4.4"; check works there without
//     --require-topology and is UNKNOWN with it.
func TestHealth(t *testing.T) {
	bin := OurBinary(t)
	start := time.Now()
	defer func() { logf("TestHealth total %s", time.Since(start).Round(time.Millisecond)) }()
	ctx := context.Background()
	run := func(t *testing.T, b *Broker, args ...string) ToolResult { return RunOursOn(t, bin, b, args...) }

	// Broker A and its two applications; B and C start while the applications come up.
	a := SharedBroker(t, BrokerOptions{})
	require.NoError(t, createTopic(ctx, a, hcInput, 4))
	pause := filepath.Join(a.Dir, "hc-pause")
	port, err := FreePort()
	require.NoError(t, err)
	hc := startOverviewInstance(t, a, "hc-app", "a", "localhost:"+strconv.Itoa(port), pause, "topic-prefix=hc-")
	nopush := StartApp(t, a, AppOptions{AppID: "hc-nopush", Topology: TopologyWordCount, DisablePush: true, TopicPrefix: "hc-"})
	b := SharedBroker(t, BrokerOptions{Plugin: PluginNone})
	np := StartApp(t, b, AppOptions{AppID: "hc-np", Topology: TopologyWordCount, TopicPrefix: "hc-"})
	c := SharedBroker(t, BrokerOptions{Version: Kafka43})
	old := StartApp(t, c, AppOptions{AppID: "hc-old", Topology: TopologyWordCount, TopicPrefix: "hc-"})
	logf("TestHealth: three brokers up after %s", time.Since(start).Round(time.Millisecond))

	require.NoError(t, a.WaitGroupState(ctx, "hc-app", "Stable", 120*time.Second, hc, a.Proc))
	_, err = a.WaitTopologyStatus(ctx, "hc-app", StatusAvailable, 60*time.Second, hc, a.Proc)
	require.NoError(t, err)
	produceTo(t, a, hcInput, map[int32]int{0: 5, 1: 5, 2: 5, 3: 5})
	checkDoc := func(t *testing.T, b *Broker, group string, notYet func(checkGroupDoc) string) checkGroupDoc {
		t.Helper()
		deadline := time.Now().Add(90 * time.Second)
		last := ""
		for time.Now().Before(deadline) {
			r := run(t, b, "-o", "json", "check", "--group", group)
			var doc struct {
				Groups []checkGroupDoc `json:"groups"`
			}
			require.NoError(t, json.Unmarshal([]byte(r.Stdout), &doc), r.Stdout)
			require.Len(t, doc.Groups, 1)
			if last = notYet(doc.Groups[0]); last == "" {
				return doc.Groups[0]
			}
			time.Sleep(500 * time.Millisecond)
		}
		t.Fatalf("group %s: still %s after 90 s", group, last)
		return checkGroupDoc{}
	}
	checkDoc(t, a, "hc-app", func(g checkGroupDoc) string {
		switch {
		case g.State != "Stable":
			return "state " + g.State
		case g.Lag != 0:
			return fmt.Sprintf("lag %d", g.Lag)
		case g.MovingTasks != 0:
			return fmt.Sprintf("%d tasks moving", g.MovingTasks)
		}
		return ""
	})
	logf("TestHealth: hc-app settled after %s", time.Since(start).Round(time.Millisecond))

	t.Run("check a Stable group", func(t *testing.T) {
		r := run(t, a, "check", "--group", "hc-app", "--require-topology", "--min-members", "1", "--lag-warning", "0", "--lag-critical", "10", "--max-moving-tasks", "0", "-v", "--time-lag=false")
		require.Equal(t, 0, r.ExitCode, "stdout: %s\nstderr: %s", r.Stdout, r.Stderr)
		assert.Regexp(t, `^STREAMS OK - hc-app: Stable, 1 member, lag 0, 0 tasks moving, description AVAILABLE \| 'hc-app lag'=0;0;10;0 'hc-app max_task_lag'=0;;;0 'hc-app members'=1;;1:;0 'hc-app moving_tasks'=0;0;;0 'hc-app group_epoch'=\d+ 'hc-app target_assignment_epoch'=\d+ 'hc-app topology_epoch'=0\nhc-app: OK \(`, r.Stdout)
		assert.Empty(t, r.Stderr)

		// OverviewApp sets streams.num.standby.replicas=1 on its group, and
		// hc-app runs one instance: doctor's one finding is that no standby
		// can be placed (issue 22), everything else is ok.
		r = run(t, a, "doctor", "--group", "hc-app")
		require.Equal(t, 1, r.ExitCode, r.Stdout)
		assert.Contains(t, r.Stdout, "ok       topology description plugin org.apache.kafka.server.streams.InMemoryTopologyDescriptionPlugin is configured on coordinator 1 (STATIC_BROKER_CONFIG)\n")
		assert.Contains(t, r.Stdout, "ok       coordinator 1 speaks StreamsGroupDescribe up to v1 and StreamsGroupTopologyDescriptionUpdate (key 93) up to v0: Apache Kafka 4.4 or newer\n")
		assert.Contains(t, r.Stdout, "  WARNING  4 of 4 stateful tasks have fewer than the 1 standby configured: 1_0, 1_1, 1_2 and 1 more (only 1 process for 2 copies: the active and 1 standby)\n")
		assert.True(t, strings.HasSuffix(r.Stdout, "0 problems, 1 warning.\n"), r.Stdout)

		r = run(t, a, "check", "--group", "hc-app", "--watch", "--interval", "200ms", "--count", "2")
		require.Equal(t, 0, r.ExitCode, r.Stdout)
		assert.Equal(t, 2, strings.Count(r.Stdout, "STREAMS OK - hc-app"), r.Stdout)
		assert.NotContains(t, r.Stdout, "\x1b")
	})

	t.Run("check with a lag threshold below the real lag", func(t *testing.T) {
		require.NoError(t, os.WriteFile(pause, nil, 0o644))
		t.Cleanup(func() { _ = os.Remove(pause) })
		produceTo(t, a, hcInput, map[int32]int{0: 20, 1: 10})
		checkDoc(t, a, "hc-app", func(g checkGroupDoc) string {
			if g.Lag != 30 {
				return fmt.Sprintf("lag %d", g.Lag)
			}
			return ""
		})
		r := run(t, a, "check", "--group", "hc-app", "--lag-warning", "5", "--lag-critical", "29", "--task-lag-warning", "19")
		require.Equal(t, 2, r.ExitCode, "stdout: %s\nstderr: %s", r.Stdout, r.Stderr)
		assert.True(t, strings.HasPrefix(r.Stdout, "STREAMS CRITICAL - hc-app CRITICAL: lag 30 > 29, task 0_0 lag 20 > 19 | 'hc-app lag'=30;5;29;0 'hc-app max_task_lag'=20;19;;0 "), r.Stdout)
		r = run(t, a, "check", "--group", "hc-app", "--lag-critical", "30")
		assert.Equal(t, 0, r.ExitCode, "a lag equal to the threshold is OK: %s", r.Stdout)

		r = run(t, a, "-o", "prometheus", "check", "--group", "hc-app", "--lag-critical", "29")
		require.Equal(t, 2, r.ExitCode, r.Stderr)
		fams := promtest.Parse(t, r.Stdout)
		assert.EqualValues(t, 30, promtest.Value(t, fams, "kstreams_group_lag", "group", "hc-app"))
		assert.EqualValues(t, 20, promtest.Value(t, fams, "kstreams_task_lag", "group", "hc-app", "subtopology", "0", "partition", "0"))
		assert.EqualValues(t, 1, promtest.Value(t, fams, "kstreams_group_state", "group", "hc-app", "state", "Stable"))
		assert.EqualValues(t, 2, promtest.Value(t, fams, "kstreams_check_status"))
		r = run(t, a, "-o", "prometheus", "overview", "--group", "hc-app")
		require.Equal(t, 0, r.ExitCode, r.Stderr)
		fams = promtest.Parse(t, r.Stdout)
		assert.EqualValues(t, 1, promtest.Value(t, fams, "kstreams_group_topology_description_status", "group", "hc-app", "status", "AVAILABLE"))
		r = run(t, a, "-o", "prometheus", "list", "--state")
		require.Equal(t, 0, r.ExitCode, r.Stderr)
		promtest.Parse(t, r.Stdout)
	})

	t.Run("doctor on a group that does not push", func(t *testing.T) {
		require.NoError(t, nopush.WaitGroupState(ctx, a, "Stable", 90*time.Second))
		r := run(t, a, "doctor", "--group", "hc-nopush")
		require.Equal(t, 1, r.ExitCode, "stdout: %s\nstderr: %s", r.Stdout, r.Stderr)
		assert.Equal(t, []string{"WARNING  the topology description is NOT_STORED although everything else is healthy: the clients have topology.description.push.enabled=false, or the push has not happened yet (it follows the first heartbeats, within seconds)"},
			wrongFindings(r.Stdout), r.Stdout)
	})

	t.Run("doctor on a broker without a plugin", func(t *testing.T) {
		logDescribeConfigs(t, b)
		require.NoError(t, np.WaitGroupState(ctx, b, "Stable", 90*time.Second))
		r := run(t, b, "doctor", "--group", "hc-np")
		require.Equal(t, 1, r.ExitCode, "stdout: %s\nstderr: %s", r.Stdout, r.Stderr)
		assert.Equal(t, []string{
			"PROBLEM  no topology description plugin is configured on coordinator 1 (group.streams.topology.description.plugin.class is not set): the broker stores no description, so every group's is NOT_STORED",
			"PROBLEM  the topology description is NOT_STORED because no plugin is configured to store it",
		}, wrongFindings(r.Stdout), r.Stdout)
		r = run(t, b, "check", "--group", "hc-np", "--require-topology")
		assert.Equal(t, 2, r.ExitCode)
		assert.Contains(t, r.Stdout, "hc-np CRITICAL: topology description NOT_STORED")
	})

	t.Run("doctor and check on a 4.3.1 broker", func(t *testing.T) {
		logDescribeConfigs(t, c)
		require.NoError(t, old.WaitGroupState(ctx, c, "Stable", 90*time.Second))
		r := run(t, c, "doctor", "--group", "hc-old")
		require.Equal(t, 1, r.ExitCode, "stdout: %s\nstderr: %s", r.Stdout, r.Stderr)
		assert.Equal(t, []string{"PROBLEM  coordinator 1 speaks StreamsGroupDescribe up to v0 only, and not the topology update API (key 93): it is older than Apache Kafka 4.4 and stores no topology description (KIP-1331)"},
			wrongFindings(r.Stdout), r.Stdout)
		assert.Contains(t, r.Stdout, "description NOT_REQUESTED")
		r = run(t, c, "check", "--group", "hc-old", "--min-members", "1")
		assert.Equal(t, 0, r.ExitCode, "check needs no KIP-1331 without --require-topology: %s %s", r.Stdout, r.Stderr)
		assert.True(t, strings.HasPrefix(r.Stdout, "STREAMS OK - hc-old: Stable, 1 member, "), r.Stdout)
		r = run(t, c, "check", "--group", "hc-old", "--require-topology")
		assert.Equal(t, 3, r.ExitCode)
		assert.Equal(t, "STREAMS UNKNOWN - hc-old UNKNOWN: --require-topology cannot be checked: topology descriptions: broker 1 supports only v0 of StreamsGroupDescribe, v1 is needed (Apache Kafka 4.4 or newer)\n", r.Stdout)
	})

	t.Run("check after the application stopped", func(t *testing.T) {
		_ = os.Remove(pause)
		require.NoError(t, hc.Stop(20*time.Second))
		require.NoError(t, a.WaitGroupState(ctx, "hc-app", "Empty", 30*time.Second, a.Proc))
		r := run(t, a, "check", "--group", "hc-app")
		require.Equal(t, 1, r.ExitCode, r.Stdout)
		assert.True(t, strings.HasPrefix(r.Stdout, "STREAMS WARNING - hc-app WARNING: state Empty, expected Stable | 'hc-app lag'="), r.Stdout)
		r = run(t, a, "check", "--group", "hc-app", "--min-members", "1")
		require.Equal(t, 2, r.ExitCode, r.Stdout)
		assert.True(t, strings.HasPrefix(r.Stdout, "STREAMS CRITICAL - hc-app CRITICAL: state Empty, expected Stable, 0 members, at least 1 expected | "), r.Stdout)
		r = run(t, a, "doctor", "--group", "hc-app")
		assert.Equal(t, 1, r.ExitCode)
		assert.Contains(t, wrongFindings(r.Stdout), "PROBLEM  the group has no members (Empty): nobody runs the application, so nobody can push a topology description")
	})
}

// checkGroupDoc is the part of our check document the test reads.
type checkGroupDoc struct {
	Group       string `json:"group"`
	Status      string `json:"status"`
	State       string `json:"state"`
	Lag         int64  `json:"lag"`
	MovingTasks int64  `json:"moving_tasks"`
}

// wrongFindings are the WARNING and PROBLEM lines of doctor's text.
func wrongFindings(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "  WARNING ") || strings.HasPrefix(l, "  PROBLEM ") {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	return lines
}

// logDescribeConfigs logs what the broker answers DescribeConfigs for the plugin class (FINDINGS).
func logDescribeConfigs(t *testing.T, b *Broker) {
	t.Helper()
	req := kmsg.NewPtrDescribeConfigsRequest()
	res := kmsg.NewDescribeConfigsRequestResource()
	res.ResourceType, res.ResourceName = kmsg.ConfigResourceTypeBroker, "1"
	res.ConfigNames = []string{"group.streams.topology.description.plugin.class"}
	req.Resources = append(req.Resources, res)
	resp, err := req.RequestWith(context.Background(), b.Client())
	require.NoError(t, err)
	out, err := json.Marshal(resp.Resources)
	require.NoError(t, err)
	logf("TestHealth: %s DescribeConfigs v%d of the plugin class: %s", b.Version, resp.Version, out)
}
