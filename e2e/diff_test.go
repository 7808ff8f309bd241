//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDiff runs `kstreams-groups diff` against running Kafka Streams 4.4.0 applications on one real
// 4.4.0 broker (issue 16): a running group's stored topology against its own Topology#describe()
// text, against the builds of DiffTopologies.java a team might deploy next (a filter() inserted
// upstream of an unnamed aggregation; the same with the store pinned to its generated name; the
// store given a name of its own), and two running groups against each other (blue/green), on
// the same cluster and through --new-bootstrap-server.
func TestDiff(t *testing.T) {
	bin := OurBinary(t)
	start := time.Now()
	defer func() { logf("TestDiff total %s", time.Since(start).Round(time.Millisecond)) }()
	ctx := context.Background()

	b := StartBroker(t, BrokerOptions{})
	apps := map[string]*App{}
	for _, o := range []AppOptions{
		{AppID: "df-blue", Topology: "diff-base"},
		{AppID: "df-green", Topology: "diff-base"},
		{AppID: "df-next", Topology: "diff-filter"},
		{AppID: "hn-app", Topology: "hostile-names"},
	} {
		apps[o.AppID] = StartApp(t, b, o)
	}
	appStart := time.Now()
	// The variants' describe() texts, printed by the real 4.4.0 jars without a broker, while the
	// applications start.
	dir := t.TempDir()
	texts := map[string]string{}
	for _, v := range []string{"diff-base", "diff-filter", "diff-pinned", "diff-named"} {
		res, err := RunJavaTool(ctx, Kafka44, "e2e.TopologyApp", "topology="+v, "describe-only=true")
		require.NoError(t, err)
		require.Equal(t, 0, res.ExitCode, "describe-only %s: %s", v, res.Stderr)
		text := res.Stdout
		// Kafka Streams 4.4 warns about every internal resource left unnamed when it builds the
		// topology (FINDINGS F203): the unnamed store, its changelog and repartition topic.
		unnamed := strings.Contains(res.Stderr, "Following state store(s) has not been named: KSTREAM-AGGREGATE-STATE-STORE-")
		assert.Equal(t, v == "diff-base" || v == "diff-filter", unnamed, "%s stderr: %s", v, res.Stderr)
		texts[v] = filepath.Join(dir, v+".txt")
		require.NoError(t, os.WriteFile(texts[v], []byte(text), 0o644))
		// The unit tests' copies (internal/diff, testdata) are what the jars print.
		checked, err := os.ReadFile(filepath.Join(E2EDir(), "testdata", "diff", v+".txt"))
		require.NoError(t, err)
		require.Equal(t, string(checked), text, "e2e/testdata/diff/%s.txt is stale: copy the describe-only output", v)
	}
	for _, id := range []string{"df-blue", "df-green", "df-next", "hn-app"} {
		if _, err := apps[id].WaitTopologyStatus(ctx, b, StatusAvailable, 90*time.Second); err != nil {
			t.Fatalf("%v\n%s", err, logTail(apps[id].Proc.LogPath, 3000))
		}
		logf("%s AVAILABLE %s after the apps were launched", id, time.Since(appStart).Round(time.Millisecond))
	}
	diff := func(t *testing.T, args ...string) ToolResult {
		t.Helper()
		r := RunOurs(ctx, bin, append([]string{"--bootstrap-server", b.Addr, "diff"}, args...)...)
		logf("diff %s: exit %d in %s", strings.Join(args, " "), r.ExitCode, r.Duration.Round(time.Millisecond))
		return r
	}
	kinds := func(t *testing.T, r ToolResult) []string {
		t.Helper()
		var doc struct {
			Outcome  string `json:"outcome"`
			Findings []struct {
				Severity, Kind, Old, New string
			} `json:"findings"`
		}
		require.NoError(t, json.Unmarshal([]byte(r.Stdout), &doc), r.Stdout)
		var out []string
		for _, f := range doc.Findings {
			out = append(out, f.Severity+" "+f.Kind+" "+f.Old+" > "+f.New)
		}
		return out
	}

	t.Run("own describe text", func(t *testing.T) {
		// What the running application printed itself, and what describe-only prints: the same.
		own, err := apps["df-blue"].Describe()
		require.NoError(t, err)
		base, err := os.ReadFile(texts["diff-base"])
		require.NoError(t, err)
		require.Equal(t, string(base), own)
		r := diff(t, "group:df-blue", apps["df-blue"].DescribeOut)
		require.Equal(t, 0, r.ExitCode, "stdout: %s\nstderr: %s", r.Stdout, r.Stderr)
		// The stored description, as describe --topology prints it, differs from the text in node
		// order and internal topic prefixes only; saved, it compares the same with --application-id.
		stored := RunOurs(ctx, bin, "--bootstrap-server", b.Addr, "describe", "--topology", "--group", "df-blue")
		require.Equal(t, 0, stored.ExitCode, stored.Stderr)
		capture := filepath.Join(E2EDir(), "testdata", "diff", "stored-df-blue.txt")
		if os.Getenv("E2E_CAPTURE") == "1" {
			require.NoError(t, os.WriteFile(capture, []byte(stored.Stdout), 0o644))
		}
		want, err := os.ReadFile(capture)
		require.NoError(t, err)
		require.Equal(t, string(want), stored.Stdout, "the stored description changed; re-capture with E2E_CAPTURE=1")
		require.NotEqual(t, own, stored.Stdout)
		saved := filepath.Join(t.TempDir(), "stored.txt")
		require.NoError(t, os.WriteFile(saved, []byte(stored.Stdout), 0o644))
		r = RunOurs(ctx, bin, "diff", saved, apps["df-blue"].DescribeOut, "--application-id", "df-blue")
		require.Equal(t, 0, r.ExitCode, "no broker needed for two files; stdout: %s\nstderr: %s", r.Stdout, r.Stderr)
		assert.Empty(t, r.Stderr)
		assert.Contains(t, r.Stdout, "No differences: the topologies are the same after normalisation.")
		assert.Contains(t, r.Stdout, `internal topics without the prefix "df-blue-"`)
	})

	// F330: the Processor API takes any string as a node name. Kafka's tool prints such names as
	// they are, and so do we, but for what a terminal does not show (U+200B here); our text, read
	// back, is the application's topology again.
	t.Run("processor api names", func(t *testing.T) {
		const id = "hn-app"
		java, err := RunStreamsGroupCommand(ctx, "--bootstrap-server", b.Addr, "--describe", "--topology", "--group", id)
		require.NoError(t, err)
		require.Equal(t, 0, java.ExitCode, "java stderr: %s", java.Stderr)
		for _, line := range []string{
			"    Source: src: \"in\" [0] (topics: [hn-input])\n      --> [1], p, p, [1]\n",
			"    Processor: p, [1] (stores: [st: [1] \"x\"])\n",
			"    Processor: q: \"z\" (stores: [])\n      --> p\u200b: [zw]\n      <-- [1], p, p, [1]\n",
			"    Sink: sink, out: [\"x\"] (topic: hn-output)\n",
		} {
			require.Contains(t, java.Stdout, line, "the Java tool prints the names as they are")
		}
		ours := RunOurs(ctx, bin, "--bootstrap-server", b.Addr, "--describe", "--topology", "--group", id)
		require.Equal(t, 0, ours.ExitCode, "ours stderr: %s", ours.Stderr)
		assert.Empty(t, ours.Stderr)
		// Byte for byte Kafka's, but for the zero-width space, which ours shows escaped.
		requireSameStdout(t, strings.ReplaceAll(java.Stdout, "\u200b", `\u200b`), ours.Stdout)
		require.Contains(t, ours.Stdout, `p\u200b: [zw]`)

		// describe --topology | render gives the same text, from a file and from stdin.
		saved := filepath.Join(t.TempDir(), "hn-app.txt")
		require.NoError(t, os.WriteFile(saved, []byte(ours.Stdout), 0o644))
		r := RunOurs(ctx, bin, "render", saved)
		require.Equal(t, 0, r.ExitCode, "render stderr: %s", r.Stderr)
		require.Equal(t, ours.Stdout, r.Stdout)
		r = RunOursStdin(ctx, bin, ours.Stdout, "render", "-")
		require.Equal(t, 0, r.ExitCode, "render - stderr: %s", r.Stderr)
		require.Equal(t, ours.Stdout, r.Stdout)
		js := RunOursStdin(ctx, bin, ours.Stdout, "render", "-o", "json")
		require.Equal(t, 0, js.ExitCode, "render -o json stderr: %s", js.Stderr)
		var doc struct {
			Subtopologies []struct {
				Nodes []struct {
					Name       string   `json:"name"`
					Successors []string `json:"successors"`
				} `json:"nodes"`
			} `json:"subtopologies"`
		}
		require.NoError(t, json.Unmarshal([]byte(js.Stdout), &doc), js.Stdout)
		require.NotEmpty(t, doc.Subtopologies)
		got := map[string][]string{}
		for _, n := range doc.Subtopologies[0].Nodes {
			got[n.Name] = n.Successors
		}
		assert.Equal(t, []string{"[1]", "p", "p, [1]"}, got[`src: "in" [0]`])
		assert.Equal(t, []string{"p\u200b: [zw]"}, got[`q: "z"`], "the name read back exactly")

		// The unit tests' copy of Topology#describe() (internal/topoparse) is what the app printed.
		own, err := apps[id].Describe()
		require.NoError(t, err)
		checked, err := os.ReadFile(filepath.Join(E2EDir(), "testdata", "streams-describe", "hostile-names.txt"))
		require.NoError(t, err)
		require.Equal(t, string(checked), own, "e2e/testdata/streams-describe/hostile-names.txt is stale")

		// diff of the group against its own text: saved, on stdin, and Topology#describe()'s.
		for _, side := range []string{saved, "-", apps[id].DescribeOut} {
			r := RunOursStdin(ctx, bin, ours.Stdout, "--bootstrap-server", b.Addr, "diff", "group:"+id, side)
			logf("diff group:%s %s: exit %d", id, side, r.ExitCode)
			require.Equal(t, 0, r.ExitCode, "diff against %s; stdout: %s\nstderr: %s", side, r.Stdout, r.Stderr)
			assert.Contains(t, r.Stdout, "No differences")
		}
	})

	t.Run("filter upstream of an unnamed aggregation", func(t *testing.T) {
		r := diff(t, "group:df-blue", texts["diff-filter"], "-o", "json")
		require.Equal(t, 3, r.ExitCode, "stderr: %s", r.Stderr)
		got := kinds(t, r)
		const store3, store4 = "KSTREAM-AGGREGATE-STATE-STORE-0000000003", "KSTREAM-AGGREGATE-STATE-STORE-0000000004"
		for _, want := range []string{
			"breaking store-renamed " + store3 + " > " + store4,
			"breaking changelog-renamed " + store3 + "-changelog > " + store4 + "-changelog",
			"breaking repartition-renamed " + store3 + "-repartition > " + store4 + "-repartition",
			"warning generated-name-shifted " + store3 + " > " + store4,
			"info processor-added  > KSTREAM-FILTER-0000000001",
		} {
			assert.Contains(t, got, want)
		}
		text := diff(t, "group:df-blue", texts["diff-filter"])
		require.Equal(t, 3, text.ExitCode)
		assert.Contains(t, text.Stdout, "Upgrade safety: 3 breaking, 8 warnings, 1 info\n")
		assert.Contains(t, text.Stdout, "\n--- OLD group:df-blue\n+++ NEW "+texts["diff-filter"]+"\n")
		assert.NotContains(t, text.Stdout, "\x1b[", "no color in a pipe")
	})

	t.Run("store pinned with Materialized.as", func(t *testing.T) {
		// The filter inserted as above, the store named as diff-base generated it: state, changelog
		// and repartition topic are kept; only the nodes' generated names shift.
		r := diff(t, "group:df-blue", texts["diff-pinned"], "-o", "json")
		require.Equal(t, 1, r.ExitCode, "stderr: %s", r.Stderr)
		for _, f := range kinds(t, r) {
			assert.False(t, strings.HasPrefix(f, "breaking"), f)
		}
		assert.Contains(t, kinds(t, r), "warning generated-name-shifted KSTREAM-AGGREGATE-0000000004 > KSTREAM-AGGREGATE-0000000003")
		require.Equal(t, 3, diff(t, "group:df-blue", texts["diff-pinned"], "--fail-on", "warning").ExitCode)
	})

	t.Run("store named", func(t *testing.T) {
		// Naming the store df-counts is a rename like any other: breaking (FINDINGS F204).
		r := diff(t, "group:df-blue", texts["diff-named"], "-o", "json")
		require.Equal(t, 3, r.ExitCode, "stderr: %s", r.Stderr)
		got := kinds(t, r)
		assert.Contains(t, got, "breaking store-renamed KSTREAM-AGGREGATE-STATE-STORE-0000000003 > df-counts")
		assert.Contains(t, got, "breaking changelog-renamed KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog > df-counts-changelog")
		assert.Contains(t, got, "breaking repartition-renamed KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition > df-counts-repartition")
	})

	t.Run("blue green", func(t *testing.T) {
		r := diff(t, "group:df-blue", "group:df-green")
		require.Equal(t, 0, r.ExitCode, "stdout: %s\nstderr: %s", r.Stdout, r.Stderr)
		// NEW through its own client (the same broker here: the flags, not a second cluster).
		r = diff(t, "group:df-blue", "group:df-green", "--new-bootstrap-server", b.Addr)
		require.Equal(t, 0, r.ExitCode, "stdout: %s\nstderr: %s", r.Stdout, r.Stderr)
		// Both sides groups: the changelogs are the coordinators' lists, and still renamed.
		r = diff(t, "group:df-blue", "group:df-next", "-o", "json")
		require.Equal(t, 3, r.ExitCode, "stderr: %s", r.Stderr)
		assert.Contains(t, kinds(t, r), "breaking changelog-renamed KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog > KSTREAM-AGGREGATE-STATE-STORE-0000000004-changelog")
	})

	t.Run("a side that cannot be fetched", func(t *testing.T) {
		r := diff(t, "group:no-such-group", texts["diff-base"])
		require.Equal(t, 2, r.ExitCode)
		assert.Empty(t, r.Stdout)
		assert.Contains(t, r.Stderr, "Error: OLD group:no-such-group: ")
		assert.Contains(t, r.Stderr, "GROUP_ID_NOT_FOUND")
	})

	t.Run("internal topics on the broker", func(t *testing.T) {
		// What normalisation relies on (FINDINGS F200, F201): the stored description names the
		// repartition topic with the application id prefix, the KIP-1071 topology lists the
		// changelog as <application.id>-<store>-changelog, and the broker created both.
		g, err := b.DescribeStreamsGroup(ctx, "df-blue", true)
		require.NoError(t, err)
		const store = "KSTREAM-AGGREGATE-STATE-STORE-0000000003"
		var changelogs, repartition []string
		for _, s := range g.Topology.Subtopologies {
			for _, c := range s.StateChangelogTopics {
				changelogs = append(changelogs, c.Topic)
			}
			repartition = append(repartition, s.RepartitionSinkTopics...)
		}
		assert.Equal(t, []string{"df-blue-" + store + "-changelog"}, changelogs)
		assert.Equal(t, []string{"df-blue-" + store + "-repartition"}, repartition)
		var sinks []string
		for _, s := range g.TopologyDescription.Subtopologies {
			for _, n := range s.Nodes {
				if n.SinkTopic != nil {
					sinks = append(sinks, *n.SinkTopic)
				}
			}
		}
		slices.Sort(sinks)
		assert.Equal(t, []string{"df-blue-" + store + "-repartition", "df-output"}, sinks)
		topics := listTopics(t, b)
		for _, want := range []string{"df-blue-" + store + "-changelog", "df-blue-" + store + "-repartition", "df-next-KSTREAM-AGGREGATE-STATE-STORE-0000000004-changelog"} {
			assert.Contains(t, topics, want)
		}
	})
}
