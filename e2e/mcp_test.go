//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"os/exec"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMCP runs `kstreams-groups mcp` (issue 35) on stdio, through the MCP SDK's client, against
// the shared 4.4.0 broker (groups mc-*):
//
//   - the overview and check tools answer, for a running application (mc-app, the word count),
//     the documents the CLI prints with -o json;
//   - reset_offsets called without an approval token changes nothing: refused when writes are
//     not allowed, a dry run when they are; the committed offsets of a stopped group (mc-reset)
//     read back unchanged.
func TestMCP(t *testing.T) {
	bin := OurBinary(t)
	start := time.Now()
	defer func() { logf("TestMCP total %s", time.Since(start).Round(time.Millisecond)) }()
	ctx := context.Background()
	b := SharedBroker(t, BrokerOptions{})
	app := StartApp(t, b, AppOptions{AppID: "mc-app", Topology: TopologyWordCount, TopicPrefix: "mc-"})
	require.NoError(t, createTopic(ctx, b, "mc-reset-input", 2))
	produceTo(t, b, "mc-reset-input", map[int32]int{0: 10, 1: 20})
	joinAndLeave(t, b, "mc-reset", "mc-reset-input")
	require.NoError(t, b.WaitGroupState(ctx, "mc-reset", "Empty", 30*time.Second, b.Proc))
	require.EqualValues(t, 0, ooAdminCommit(t, b, "mc-reset", "mc-reset-input", 0, 7))
	require.EqualValues(t, 0, ooAdminCommit(t, b, "mc-reset", "mc-reset-input", 1, 15))
	require.NoError(t, app.WaitGroupState(ctx, b, "Stable", 120*time.Second))
	_, err := app.WaitTopologyStatus(ctx, b, StatusAvailable, 60*time.Second)
	require.NoError(t, err)
	logf("TestMCP: groups ready after %s", time.Since(start).Round(time.Millisecond))

	session := func(t *testing.T, args ...string) *sdk.ClientSession {
		cmd := exec.Command(bin, append([]string{"mcp", "--bootstrap-server", b.Addr}, args...)...)
		cmd.Env = oursEnv(nil)
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "0"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
		require.NoError(t, err)
		t.Cleanup(func() { _ = cs.Close() })
		return cs
	}
	document := func(t *testing.T, res *sdk.CallToolResult) string {
		t.Helper()
		require.False(t, res.IsError, "%v", res.Content)
		b, err := json.Marshal(res.StructuredContent.(map[string]any)["document"])
		require.NoError(t, err)
		return string(b)
	}

	t.Run("overview and check answer the CLI's documents", func(t *testing.T) {
		cs := session(t)
		for _, c := range []struct {
			tool string
			args map[string]any
			cli  []string
		}{
			{"overview", map[string]any{"group": []string{"mc-app"}}, []string{"overview", "--group", "mc-app", "-o", "json"}},
			{"check", map[string]any{"group": []string{"mc-app"}, "require-topology": true}, []string{"check", "--group", "mc-app", "--require-topology", "-o", "json"}},
		} {
			// The app runs: its epochs may move between the two reads,
			// so a few tries.
			var want, got string
			for try := 0; try < 5; try++ {
				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: c.tool, Arguments: c.args})
				require.NoError(t, err, c.tool)
				got = document(t, res)
				r := RunOursOn(t, bin, b, c.cli...)
				require.NotEmpty(t, r.Stdout, r.Stderr)
				want = r.Stdout
				var w, g any
				require.NoError(t, json.Unmarshal([]byte(want), &w))
				require.NoError(t, json.Unmarshal([]byte(got), &g))
				if assert.ObjectsAreEqual(w, g) {
					break
				}
				time.Sleep(time.Second)
			}
			assert.JSONEq(t, want, got, c.tool)
			assert.Contains(t, got, `"group":"mc-app"`, c.tool)
		}
	})

	t.Run("reset_offsets without a token changes nothing", func(t *testing.T) {
		before, err := committedOffsets(ctx, b, "mc-reset", func(string) bool { return true })
		require.NoError(t, err)
		require.Equal(t, map[string]int64{"mc-reset-input-0": 7, "mc-reset-input-1": 15}, before)
		args := map[string]any{"group": []string{"mc-reset"}, "input-topic": []string{"mc-reset-input"}, "to-earliest": true}

		// Writes not allowed: not listed, and a call is refused.
		res, err := session(t).CallTool(ctx, &sdk.CallToolParams{Name: "reset_offsets", Arguments: args})
		if err == nil {
			assert.True(t, res.IsError, "%v", res.Content)
		}
		// Writes allowed, no token: a dry run, whose plan is to-earliest (0).
		res, err = session(t, "--allow-writes").CallTool(ctx, &sdk.CallToolParams{Name: "reset_offsets", Arguments: args})
		require.NoError(t, err)
		require.False(t, res.IsError, "%v", res.Content)
		sc := res.StructuredContent.(map[string]any)
		assert.Equal(t, true, sc["dry_run"])
		assert.NotEmpty(t, sc["_approval_token"])
		assert.Contains(t, document(t, res), `"mc-reset-input"`)

		after, err := committedOffsets(ctx, b, "mc-reset", func(string) bool { return true })
		require.NoError(t, err)
		assert.Equal(t, before, after, "the committed offsets read back unchanged")
	})
}
