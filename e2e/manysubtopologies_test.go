//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestManySubtopologiesMembers runs --describe --members (and --verbose) of our binary and the
// real 4.4.0 StreamsGroupCommand on a group with 12 subtopologies (e2e.ManySubtopologies, two
// instances, two partitions per input topic, so each member's tasks span many subtopologies).
// A 4.4.0 broker sends the task lists sorted by subtopology id as a string ("10" before "2"),
// and the Java tool prints them as received: every line, task lists included, must be
// byte-identical (members are compared as a multiset: we sort them, the Java tool keeps the
// broker's order). One broker, one group, about a minute.
func TestManySubtopologiesMembers(t *testing.T) {
	bin := OurBinary(t)
	start := time.Now()
	defer func() { logf("TestManySubtopologiesMembers total %s", time.Since(start).Round(time.Millisecond)) }()
	ctx := context.Background()

	b := SharedBroker(t, BrokerOptions{Plugin: PluginInMemory})
	for i := range 12 {
		require.NoError(t, createTopic(ctx, b, fmt.Sprintf("ms-in-%d", i), 2))
	}
	startMany(t, b, "ms-app", "a")
	startMany(t, b, "ms-app", "b")
	require.NoError(t, b.WaitGroupState(ctx, "ms-app", "Stable", 120*time.Second, b.Proc))
	waitTasksSettled(t, bin, b, "ms-app", 2, 24)
	logf("TestManySubtopologiesMembers: group ready after %s", time.Since(start).Round(time.Millisecond))

	t.Run("the broker sends subtopology ids sorted as strings", func(t *testing.T) {
		// The group can be Stable with its tasks all on the first member for
		// a moment after the second joins: wait until both hold several.
		g, err := b.DescribeStreamsGroup(ctx, "ms-app", false)
		for deadline := time.Now().Add(60 * time.Second); ; {
			require.NoError(t, err)
			spread := len(g.Members) == 2
			for _, m := range g.Members {
				spread = spread && len(m.TargetAssignment.ActiveTasks) > 2
			}
			if spread || time.Now().After(deadline) {
				break
			}
			time.Sleep(250 * time.Millisecond)
			g, err = b.DescribeStreamsGroup(ctx, "ms-app", false)
		}
		for _, m := range g.Members {
			var ids []string
			for _, task := range m.TargetAssignment.ActiveTasks {
				ids = append(ids, task.SubtopologyID)
			}
			assert.True(t, slices.IsSorted(ids), "string order: %v", ids)
			assert.Greater(t, len(ids), 2)
			logf("TestManySubtopologiesMembers: member %s active subtopologies on the wire: %v", m.MemberID, ids)
		}
	})
	bs := []string{"--bootstrap-server", b.Addr}
	for _, view := range [][]string{{"--describe", "--members", "--group", "ms-app"}, {"--describe", "--members", "--verbose", "--group", "ms-app"}} {
		name := strings.Join(view, " ")
		t.Run(name, func(t *testing.T) {
			java, ours := runBoth(t, bin, "many "+name, append(bs, view...)...)
			assert.Equal(t, java.ExitCode, ours.ExitCode, "exit code")
			assert.Equal(t, sortedLines(java.Stdout), sortedLines(ours.Stdout), "stdout lines\njava:\n%s\nours:\n%s", java.Stdout, ours.Stdout)
			assert.Empty(t, java.Stderr)
			assert.Empty(t, ours.Stderr)
			assert.Contains(t, ours.Stdout, "; 10:[", "a task list of both members spans subtopology 10")
			for _, line := range strings.Split(ours.Stdout, "\n") {
				if i, j := strings.Index(line, " 10:["), strings.Index(line, " 2:["); i >= 0 && j >= 0 {
					assert.Less(t, i, j, "10 before 2, as the broker sends them: %s", line)
				}
			}
		})
	}
}

// startMany starts one instance of e2e.TopologyApp with the many topology.
func startMany(t *testing.T, b *Broker, appID, instance string) *Process {
	t.Helper()
	cp, err := Classpath(Kafka44)
	require.NoError(t, err)
	name := appID + "-" + instance
	stateDir := filepath.Join(b.Dir, "state-"+name)
	require.NoError(t, os.MkdirAll(stateDir, 0o755))
	jvm := []string{"-Xmx200m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true",
		"-Dlog4j2.configurationFile=" + filepath.Join(HarnessDir(), "config", "app-log4j2.properties")}
	p, err := StartJava("app-"+name, filepath.Join(b.Dir, "app-"+name+".log"), cp, jvm, "e2e.TopologyApp",
		"bootstrap="+b.Addr, "app-id="+appID, "topology=many", "state-dir="+stateDir)
	require.NoError(t, err)
	t.Cleanup(func() { _ = p.Stop(20 * time.Second) })
	return p
}

// waitTasksSettled waits, through our own JSON document, until group has members members
// whose assignment is the target one at the group's assignment epoch and which own tasks
// active tasks between them.
func waitTasksSettled(t *testing.T, bin string, b *Broker, group string, members, tasks int) {
	t.Helper()
	type assignment struct {
		Active []struct {
			Partitions []int32 `json:"partitions"`
		} `json:"active"`
	}
	deadline := time.Now().Add(120 * time.Second)
	last := ""
	for time.Now().Before(deadline) {
		g := describeJSON(t, bin, b, "--members", group).Groups[0]
		settled, n := len(g.Members) == members, 0
		for _, m := range g.Members {
			settled = settled && m.MemberEpoch == g.AssignmentEpoch && string(m.Assignment) == string(m.TargetAssignment)
			var a assignment
			require.NoError(t, json.Unmarshal(m.Assignment, &a))
			for _, task := range a.Active {
				n += len(task.Partitions)
			}
		}
		if settled && n == tasks {
			return
		}
		last = fmt.Sprintf("%d members, %d active tasks", len(g.Members), n)
		time.Sleep(time.Second)
	}
	t.Fatalf("group %s did not settle: %s", group, last)
}
