//go:build linux

package main

// Clients no one here wrote, against the playground: the official MCP
// inspector's --cli mode on `kstreams-groups mcp` (stdio), and the
// official conformance suite's server scenarios on `serve --mcp`'s /mcp.
// Both are Node programs pinned in tools/mcp with Node 22 itself (make
// mcp-clients, which .ci/run runs): without them a local run skips, CI
// fails.

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// mcpClientsDir holds the pinned clients and their Node.
var mcpClientsDir = filepath.Join("..", "..", "tools", "mcp", "node_modules")

// nodeProgram is a command running the Node program at path (under
// tools/mcp/node_modules) with the pinned Node, or a skip (a fatal
// failure under CI) when make mcp-clients has not installed it.
func nodeProgram(t *testing.T, ctx context.Context, path string, args ...string) *exec.Cmd {
	t.Helper()
	node, err := filepath.Abs(filepath.Join(mcpClientsDir, ".bin", "node"))
	require.NoError(t, err)
	prog, err := filepath.Abs(filepath.Join(mcpClientsDir, path))
	require.NoError(t, err)
	for _, p := range []string{node, prog} {
		if _, err := os.Stat(p); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("the MCP clients are not installed (%v): .ci/run runs make mcp-clients", err)
			}
			t.Skipf("the MCP clients are not installed (%v): run make mcp-clients (needs npm; installs Node 22 in tools/mcp)", err)
		}
	}
	cmd := exec.CommandContext(ctx, node, append([]string{prog}, args...)...)
	home := t.TempDir()
	// An empty home (the inspector keeps a catalog there), no colours.
	cmd.Env = []string{"HOME=" + home, "XDG_CONFIG_HOME=" + home, "PATH=" + filepath.Dir(node) + ":" + os.Getenv("PATH"), "NO_COLOR=1", "CI=1"}
	cmd.Dir = home
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// inspector runs the inspector's --cli against `kstreams-groups mcp`
// (this test binary as the CLI) on the playground bs and decodes its
// JSON answer.
func inspector(t *testing.T, bs string, args ...string) map[string]any {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	line := append([]string{"--cli", "--format", "json", "-q", "-e", runAsCLIEnv + "=1"}, args...)
	line = append(line, "--", exe, "mcp", "--bootstrap-server", bs)
	cmd := nodeProgram(t, ctx, "@modelcontextprotocol/inspector/clients/launcher/build/index.js", line...)
	out, err := cmd.Output()
	var stderr []byte
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		stderr = ee.Stderr
	}
	require.NoError(t, err, "inspector %v: %s%s", args, out, stderr)
	var answer map[string]any
	require.NoError(t, json.Unmarshal(out, &answer), "%s", out)
	return answer
}

// The inspector lists the read tools (none mutating without
// --allow-writes) and calls overview: its document is the CLI's; it lists
// the resources and reads a group's topology: the CLI's text.
func TestMCPInspector_listsToolsAndCallsOverview(t *testing.T) {
	t.Parallel()
	pg, err := playground.StartStateWith(testPlayground, playground.DefaultState())
	require.NoError(t, err)
	defer pg.Close()
	bs := bootstrap(pg)

	listed := inspector(t, bs, "--method", "tools/list")
	var names []string
	tools, _ := listed["result"].(map[string]any)["tools"].([]any)
	for _, e := range tools {
		tool := e.(map[string]any)
		names = append(names, tool["name"].(string))
		assert.NotEmpty(t, tool["description"], tool["name"])
		assert.Equal(t, "object", tool["inputSchema"].(map[string]any)["type"], tool["name"])
	}
	assert.Subset(t, names, []string{"list", "describe", "overview", "check", "standby_coverage", "doctor", "diff", "config", "inventory"})
	for _, w := range []string{"reset_offsets", "delete_offsets", "delete", "config_set", "inventory_cleanup"} {
		assert.NotContains(t, names, w, "a write listed without --allow-writes")
	}

	called := inspector(t, bs, "--method", "tools/call", "--tool-name", "overview", "--tool-args-json", `{"group":["word-count"]}`)
	res := called["result"].(map[string]any)
	assert.NotEqual(t, true, res["isError"], "%v", res)
	text := res["content"].([]any)[0].(map[string]any)["text"].(string)
	assert.Contains(t, text, "word-count (Stable)")
	got, err := json.Marshal(res["structuredContent"].(map[string]any)["document"])
	require.NoError(t, err)
	cli := runCLI(t, "--bootstrap-server", bs, "overview", "--group", "word-count", "-o", "json")
	require.Equal(t, 0, cli.code, cli.stderr)
	assert.JSONEq(t, cli.stdout, string(got), "the tool's document is the CLI's")

	// The resources: listed, and the topology read as the command prints it.
	listed = inspector(t, bs, "--method", "resources/list")
	var uris []string
	for _, e := range listed["result"].(map[string]any)["resources"].([]any) {
		uris = append(uris, e.(map[string]any)["uri"].(string))
	}
	assert.Contains(t, uris, "kstreams-groups://default/word-count/topology.png")
	read := inspector(t, bs, "--method", "resources/read", "--uri", "kstreams-groups://default/word-count/topology")
	contents := read["result"].(map[string]any)["contents"].([]any)
	require.Len(t, contents, 1)
	topo := runCLI(t, "--bootstrap-server", bs, "describe", "--topology", "--group", "word-count")
	assert.Equal(t, topo.stdout, contents[0].(map[string]any)["text"])
}

// mcpConformanceScenarios are the conformance suite's server scenarios
// that need no tools, resources or prompts of the suite's own (those are
// named test_*): each must pass with every check SUCCESS.
var mcpConformanceScenarios = []string{
	"server-initialize", "ping", "tools-list", "resources-list", "server-sse-multiple-streams", "dns-rebinding-protection",
}

// The conformance suite's scenarios against serve --mcp on 127.0.0.1.
func TestMCPConformance_serveHTTP(t *testing.T) {
	t.Parallel()
	pg, err := playground.StartStateWith(testPlayground, playground.DefaultState())
	require.NoError(t, err)
	defer pg.Close()
	s := startServe(t, "--bootstrap-server", bootstrap(pg), "--mcp")
	url := "http://" + s.addr + "/mcp"
	for _, sc := range mcpConformanceScenarios {
		out := t.TempDir()
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		cmd := nodeProgram(t, ctx, "@modelcontextprotocol/conformance/dist/index.js", "server", "--url", url, "--scenario", sc, "-o", out)
		b, err := cmd.CombinedOutput()
		cancel()
		require.NoError(t, err, "%s:\n%s\nserve: %s", sc, b, s.stderr.String())
		files, err := filepath.Glob(filepath.Join(out, "*", "checks.json"))
		require.NoError(t, err)
		require.Len(t, files, 1, "%s: one result\n%s", sc, b)
		raw, err := os.ReadFile(files[0])
		require.NoError(t, err)
		var checks []struct{ ID, Status, ErrorMessage string }
		require.NoError(t, json.Unmarshal(raw, &checks))
		require.NotEmpty(t, checks, sc)
		for _, c := range checks {
			assert.Equal(t, "SUCCESS", c.Status, "%s: %s: %s", sc, c.ID, c.ErrorMessage)
			t.Logf("conformance %s: %s %s", sc, c.ID, c.Status)
		}
	}
}
