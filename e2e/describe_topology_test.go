//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDescribeTopology runs our binary and the real 4.4.0 StreamsGroupCommand side by side on the
// same groups of real brokers and requires the results kafka-streams-groups.sh users rely on to
// be the same: stdout byte for byte and the exit code, except for the deliberate differences in
// the README (group errors go to stderr as one line; several groups get a header line each).
//
// One 4.4.0 broker with the fault-injecting plugin serves every 4.4 scenario, with all apps
// started together: on 2 cores a broker start and an app start cost more than all the tool runs.
func TestDescribeTopology(t *testing.T) {
	bin := OurBinary(t)
	start := time.Now()
	defer func() { logf("TestDescribeTopology total %s", time.Since(start).Round(time.Millisecond)) }()

	t.Run("kafka44", func(t *testing.T) {
		ctx := context.Background()
		b := StartBroker(t, BrokerOptions{Plugin: PluginFailing})
		// sf-app's pushes fail permanently (plugin setTopology future fails), so its group
		// exists with no description ever stored: the "before any push" state, held still.
		// The line stays in the fault file for the whole test.
		const pushFails = "set ^sf-app$"
		require.NoError(t, b.SetFaults(pushFails))
		apps := map[string]*App{}
		for _, o := range []AppOptions{
			{AppID: "wc-app", Topology: TopologyWordCount},
			{AppID: "gs-app", Topology: TopologyGlobalStore},
			{AppID: "ds-app", Topology: TopologyDynamicSink},
			{AppID: "ns-app", Topology: TopologyWordCount, DisablePush: true},
			{AppID: "sf-app", Topology: TopologyWordCount},
		} {
			apps[o.AppID] = StartApp(t, b, o)
		}
		appStart := time.Now()
		for _, id := range []string{"wc-app", "gs-app", "ds-app"} {
			if _, err := apps[id].WaitTopologyStatus(ctx, b, StatusAvailable, 90*time.Second); err != nil {
				t.Fatalf("%v\n%s", err, logTail(apps[id].Proc.LogPath, 3000))
			}
			logf("%s AVAILABLE %s after the apps were launched", id, time.Since(appStart).Round(time.Millisecond))
		}
		for _, id := range []string{"ns-app", "sf-app"} {
			if err := apps[id].WaitGroupState(ctx, b, "Stable", 60*time.Second); err != nil {
				t.Fatalf("%v\n%s", err, logTail(apps[id].Proc.LogPath, 3000))
			}
			if _, err := apps[id].WaitTopologyStatus(ctx, b, StatusNotStored, 10*time.Second); err != nil {
				t.Fatalf("%v", err)
			}
		}
		// NOT_STORED alone could also mean "not pushed yet"; wait for the client's own report
		// that the push was refused (FINDINGS F60), so sf-app is the failed-push case for sure.
		require.NoError(t, waitLogLine(apps["sf-app"].Proc.LogPath, "Topology description push failed with STREAMS_TOPOLOGY_DESCRIPTION_UPDATE_FAILED", 30*time.Second))
		s := &sideBySide{bin: bin, bootstrap: b.Addr}

		for _, id := range []string{"wc-app", "gs-app", "ds-app"} {
			t.Run("available/"+apps[id].Topology, func(t *testing.T) {
				java, ours := s.both(t, "--describe", "--topology", "--group", id)
				requireSameStdout(t, java.Stdout, ours.Stdout)
				require.Equal(t, 0, java.ExitCode, "java stderr: %s", java.Stderr)
				require.Equal(t, 0, ours.ExitCode, "ours stderr: %s", ours.Stderr)
				assert.Empty(t, ours.Stderr)
				require.True(t, strings.HasPrefix(java.Stdout, "Topologies:\n"), "java stdout: %q", java.Stdout)

				sub := s.ours(t, "describe", "--topology", "--group", id)
				requireSameStdout(t, java.Stdout, sub.Stdout)
				require.Equal(t, 0, sub.ExitCode, "subcommand stderr: %s", sub.Stderr)

				det := s.ours(t, "--describe", "--topology", "--group", id, "--detailed-exit-codes")
				require.Equal(t, 0, det.ExitCode, "detailed stderr: %s", det.Stderr)

				js := s.ours(t, "--describe", "--topology", "--group", id, "-o", "json")
				require.Equal(t, 0, js.ExitCode, "json stderr: %s", js.Stderr)
				require.Equal(t, javaNodes(java.Stdout), jsonNodes(t, js.Stdout, id))
			})
		}

		// NOT_STORED: push disabled, and a group whose pushes fail (nothing ever stored).
		for _, id := range []string{"ns-app", "sf-app"} {
			t.Run("not-stored/"+id, func(t *testing.T) {
				java, ours := s.both(t, "--describe", "--topology", "--group", id)
				requireSameStdout(t, java.Stdout, ours.Stdout)
				require.Equal(t, fmt.Sprintf("\nError: No topology description is stored for streams group '%s'.\n", id), java.Stdout)
				require.Equal(t, 1, java.ExitCode)
				require.Equal(t, 1, ours.ExitCode, "ours stderr: %s", ours.Stderr)
				assert.Empty(t, ours.Stderr)
				det := s.ours(t, "--describe", "--topology", "--group", id, "--detailed-exit-codes")
				requireSameStdout(t, java.Stdout, det.Stdout)
				require.Equal(t, 3, det.ExitCode, "detailed stderr: %s", det.Stderr)
			})
		}

		// A group that does not exist, a classic group and a KIP-848 consumer group: all answer
		// GROUP_ID_NOT_FOUND. The Java tool prints its exception on stdout (and a stack trace on
		// stderr); we print one stderr line with the broker's message (README "Deliberate
		// differences"), which must be the same message the Java exception carries.
		jg := &groundTruth{t: t}
		stopClassic := jg.joinConsumerGroup(b, "classic-group", false)
		stopConsumer := jg.joinConsumerGroup(b, "consumer-group", true)
		for _, id := range []string{"no-such-group", "classic-group", "consumer-group"} {
			t.Run("group-error/"+id, func(t *testing.T) {
				java, ours := s.both(t, "--describe", "--topology", "--group", id)
				require.Equal(t, 1, java.ExitCode)
				prefix := "\nError: Executing streams group command failed due to org.apache.kafka.common.errors.GroupIdNotFoundException: "
				require.True(t, strings.HasPrefix(java.Stdout, prefix), "java stdout: %q", java.Stdout)
				brokerMsg := strings.TrimSuffix(strings.TrimPrefix(java.Stdout, prefix), "\n")

				require.Equal(t, 1, ours.ExitCode, "ours stderr: %s", ours.Stderr)
				require.Empty(t, ours.Stdout)
				line := requireOneLine(t, ours.Stderr)
				logf("ours stderr: %q", line)
				assert.Contains(t, line, "'"+id+"'")
				assert.Contains(t, line, "GROUP_ID_NOT_FOUND")
				assert.Contains(t, line, brokerMsg)

				det := s.ours(t, "--describe", "--topology", "--group", id, "--detailed-exit-codes")
				require.Equal(t, 5, det.ExitCode, "detailed stderr: %s", det.Stderr)
			})
		}
		stopClassic()
		stopConsumer()

		// Several groups: the Java tool prints the blocks back to back; we put a header line
		// before each (deliberate difference), so without those lines the bytes must match.
		t.Run("several-groups", func(t *testing.T) {
			groups := []string{"wc-app", "ns-app", "gs-app"}
			args := []string{"--describe", "--topology"}
			for _, g := range groups {
				args = append(args, "--group", g)
			}
			java, ours := s.both(t, args...)
			requireSameStdout(t, java.Stdout, withoutHeaders(ours.Stdout, groups))
			require.Equal(t, 1, java.ExitCode)
			require.Equal(t, java.ExitCode, ours.ExitCode, "ours stderr: %s", ours.Stderr)
			assert.Empty(t, ours.Stderr)
			for _, g := range groups {
				assert.Contains(t, ours.Stdout, "Streams group '"+g+"':\n")
			}
			// the first group that did not succeed is ns-app (NOT_STORED)
			det := s.ours(t, append(args, "--detailed-exit-codes")...)
			require.Equal(t, 3, det.ExitCode, "detailed stderr: %s", det.Stderr)
		})

		// ERROR: the plugin's getTopology future fails for wc-app (kept last: it changes wc-app).
		t.Run("error", func(t *testing.T) {
			require.NoError(t, b.SetFaults(pushFails, "get ^wc-app$"))
			t.Cleanup(func() { _ = b.SetFaults(pushFails) })
			_, err := b.WaitTopologyStatus(ctx, "wc-app", StatusError, 10*time.Second)
			require.NoError(t, err)
			java, ours := s.both(t, "--describe", "--topology", "--group", "wc-app")
			requireSameStdout(t, java.Stdout, ours.Stdout)
			require.Equal(t, "\nError: The broker failed to fetch the topology description for streams group 'wc-app'. See the broker logs for details.\n", java.Stdout)
			require.Equal(t, 1, java.ExitCode)
			require.Equal(t, 1, ours.ExitCode, "ours stderr: %s", ours.Stderr)
			assert.Empty(t, ours.Stderr)
			det := s.ours(t, "--describe", "--topology", "--group", "wc-app", "--detailed-exit-codes")
			requireSameStdout(t, java.Stdout, det.Stdout)
			require.Equal(t, 4, det.ExitCode, "detailed stderr: %s", det.Stderr)
		})

		for _, a := range apps {
			_ = a.Stop()
		}
	})

	// Apache Kafka 4.3.1 has StreamsGroupDescribe v0 only. Neither tool sends the request (the
	// Java client fails serializing includeTopologyDescription, F28; ours checks ApiVersions), so
	// the group need not exist and no app is started.
	t.Run("kafka43", func(t *testing.T) {
		b := SharedBroker(t, BrokerOptions{Version: Kafka43})
		s := &sideBySide{bin: bin, bootstrap: b.Addr}
		java, ours := s.both(t, "--describe", "--topology", "--group", "old-app")
		require.Equal(t, 1, java.ExitCode)
		require.Contains(t, java.Stdout, "UnsupportedVersionException")
		require.Equal(t, 1, ours.ExitCode, "ours stderr: %s", ours.Stderr)
		require.Empty(t, ours.Stdout)
		line := requireOneLine(t, ours.Stderr)
		logf("ours stderr: %q", line)
		assert.Contains(t, line, "Apache Kafka 4.4 or newer")
		det := s.ours(t, "--describe", "--topology", "--group", "old-app", "--detailed-exit-codes")
		require.Equal(t, 8, det.ExitCode, "detailed stderr: %s", det.Stderr)
	})
}

// waitLogLine polls a process log until it contains want.
func waitLogLine(path, want string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), want) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: no line with %q after %s\n%s", path, want, timeout, logTail(path, 2000))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// sideBySide runs the Java tool and our binary against one broker. Every run gets
// --bootstrap-server appended, so scenarios list only what they are about.
type sideBySide struct {
	bin       string
	bootstrap string
}

func (s *sideBySide) args(args []string) []string {
	return append(append([]string{}, args...), "--bootstrap-server", s.bootstrap)
}

// both runs the Java tool, then ours, with the same arguments.
func (s *sideBySide) both(t *testing.T, args ...string) (java, ours ToolResult) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	java, err := RunStreamsGroupCommand(ctx, s.args(args)...)
	require.NoError(t, err)
	logf("java %-60s exit=%d %s", strings.Join(args, " "), java.ExitCode, java.Duration.Round(time.Millisecond))
	ours = s.ours(t, args...)
	return java, ours
}

// ours runs our binary only.
func (s *sideBySide) ours(t *testing.T, args ...string) ToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	r := RunOurs(ctx, s.bin, s.args(args)...)
	logf("ours %-60s exit=%d %s", strings.Join(args, " "), r.ExitCode, r.Duration.Round(time.Millisecond))
	require.NotEqual(t, -1, r.ExitCode, "our binary did not exit normally: %s", r.Stderr)
	return r
}

// requireSameStdout fails with the first differing line (quoted, so spaces and line feeds
// show) and both outputs in full.
func requireSameStdout(t *testing.T, java, ours string) {
	t.Helper()
	if java == ours {
		return
	}
	jl, ol := strings.SplitAfter(java, "\n"), strings.SplitAfter(ours, "\n")
	i := 0
	for i < len(jl) && i < len(ol) && jl[i] == ol[i] {
		i++
	}
	at := func(l []string) string {
		if i < len(l) {
			return fmt.Sprintf("%q", l[i])
		}
		return "<end>"
	}
	t.Fatalf("stdout differs from kafka-streams-groups.sh at line %d:\n java: %s\n ours: %s\n--- java (%d bytes)\n%q\n--- ours (%d bytes)\n%q",
		i+1, at(jl), at(ol), len(java), java, len(ours), ours)
}

// requireOneLine returns s without its line feed and fails unless s is exactly one line.
func requireOneLine(t *testing.T, s string) string {
	t.Helper()
	require.True(t, strings.HasSuffix(s, "\n") && strings.Count(s, "\n") == 1, "want one stderr line, got %q", s)
	return strings.TrimSuffix(s, "\n")
}

// withoutHeaders drops our "Streams group '<id>':" lines for the given groups.
func withoutHeaders(s string, groups []string) string {
	headers := map[string]bool{}
	for _, g := range groups {
		headers["Streams group '"+g+"':\n"] = true
	}
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if !headers[l] {
			b.WriteString(l)
		}
	}
	return b.String()
}

// nodeRef is a node's kind and name, in printed order.
type nodeRef struct{ Kind, Name string }

var javaNodeLine = regexp.MustCompile(`(?m)^    (Source|Processor|Sink): (\S+) `)

// javaNodes lists the nodes of the Java tool's topology text in printed order.
func javaNodes(text string) []nodeRef {
	var out []nodeRef
	for _, m := range javaNodeLine.FindAllStringSubmatch(text, -1) {
		out = append(out, nodeRef{strings.ToLower(m[1]), m[2]})
	}
	return out
}

// jsonNodes lists the nodes of our -o json document in the text view's order (subtopologies,
// then global stores: source, processor).
func jsonNodes(t *testing.T, doc, group string) []nodeRef {
	t.Helper()
	type node struct{ Name, Type string }
	var d struct {
		Groups []struct {
			Group                     string `json:"group"`
			TopologyDescriptionStatus string `json:"topology_description_status"`
			TopologyDescription       *struct {
				Subtopologies []struct{ Nodes []node }           `json:"subtopologies"`
				GlobalStores  []struct{ Source, Processor node } `json:"global_stores"`
			} `json:"topology_description"`
		} `json:"groups"`
	}
	require.NoError(t, json.Unmarshal([]byte(doc), &d), "our -o json: %s", doc)
	require.Len(t, d.Groups, 1)
	g := d.Groups[0]
	require.Equal(t, group, g.Group)
	require.Equal(t, "AVAILABLE", g.TopologyDescriptionStatus)
	require.NotNil(t, g.TopologyDescription)
	var out []nodeRef
	for _, s := range g.TopologyDescription.Subtopologies {
		for _, n := range s.Nodes {
			out = append(out, nodeRef{n.Type, n.Name})
		}
	}
	for _, gs := range g.TopologyDescription.GlobalStores {
		out = append(out, nodeRef{gs.Source.Type, gs.Source.Name}, nodeRef{gs.Processor.Type, gs.Processor.Name})
	}
	return out
}
