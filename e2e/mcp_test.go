//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMCP (issue 35) runs `kstreams-groups mcp` as an assistant does, a process on stdio,
// through the MCP SDK's own client, against a real 4.4.0 broker and a running word count:
// the overview and check tools answer the documents the commands print with -o json; then,
// the application stopped (Empty), a reset_offsets call without a token (a dry run) and one
// with a forged token change nothing: the committed offsets read back unchanged.
func TestMCP(t *testing.T) {
	bin := OurBinary(t)
	ctx := context.Background()
	b := SharedBroker(t, BrokerOptions{Plugin: PluginInMemory})
	app := StartApp(t, b, AppOptions{AppID: "mcp-app", Topology: TopologyWordCount, TopicPrefix: "mcp-"})
	require.NoError(t, app.WaitGroupState(ctx, b, "Stable", 120*time.Second))
	_, err := app.WaitTopologyStatus(ctx, b, StatusAvailable, 60*time.Second)
	require.NoError(t, err)
	produceTo(t, b, "mcp-wc-input", map[int32]int{0: 20})

	cmd := exec.Command(bin, "mcp", "--bootstrap-server", b.Addr, "--allow-writes")
	cmd.Env = oursEnv(nil)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	call := func(tool string, args map[string]any) (map[string]any, *sdk.CallToolResult, error) {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			return nil, nil, err
		}
		b, _ := json.Marshal(res.StructuredContent)
		var s map[string]any
		require.NoError(t, json.Unmarshal(b, &s))
		return s, res, nil
	}

	// The same documents as the commands (the time lag left out: its age moves between two
	// reads), once the word count has committed what was produced.
	for _, tc := range []struct {
		tool string
		args map[string]any
		cli  []string
	}{
		{"overview", map[string]any{"group": []any{"mcp-app"}, "time-lag": false}, []string{"overview", "--group", "mcp-app", "--time-lag=false", "-o", "json"}},
		{"check", map[string]any{"group": []any{"mcp-app"}, "time-lag": false, "lag-warning": "1000"}, []string{"check", "--group", "mcp-app", "--time-lag=false", "--lag-warning", "1000", "-o", "json"}},
	} {
		var got, want string
		deadline := time.Now().Add(60 * time.Second)
		for {
			s, res, err := call(tc.tool, tc.args)
			require.NoError(t, err, tc.tool)
			require.False(t, res.IsError, "%s: %v", tc.tool, res.Content)
			doc, _ := json.Marshal(s["document"])
			got = string(doc)
			want = RunOursOn(t, bin, b, tc.cli...).Stdout
			if jsonEqual(got, want) || time.Now().After(deadline) {
				break
			}
			time.Sleep(time.Second)
		}
		assert.JSONEq(t, want, got, tc.tool)
	}

	// The documents may match before the application's first commit: the
	// reset below needs offsets to leave unchanged, so wait for them.
	all := func(string) bool { return true }
	require.Eventually(t, func() bool {
		o, err := committedOffsets(ctx, b, "mcp-app", all)
		return err == nil && len(o) > 0
	}, 60*time.Second, 300*time.Millisecond, "mcp-app commits its offsets")
	require.NoError(t, app.Stop())
	require.NoError(t, b.WaitGroupState(ctx, "mcp-app", "Empty", 60*time.Second))
	before, err := committedOffsets(ctx, b, "mcp-app", all)
	require.NoError(t, err)
	require.NotEmpty(t, before)
	args := map[string]any{"group": []any{"mcp-app"}, "all-input-topics": true, "to-earliest": true}
	s, res, err := call("reset_offsets", args)
	require.NoError(t, err)
	require.False(t, res.IsError, "%v", res.Content)
	assert.Equal(t, true, s["dry_run"])
	assert.NotEmpty(t, s["_approval_token"])
	args["_approval_token"] = "e30.0000000000000000000000000000000000000000000000000000000000000000"
	_, _, err = call("reset_offsets", args)
	var je *jsonrpc.Error
	require.True(t, errors.As(err, &je), "%v", err)
	assert.Equal(t, int64(-32042), je.Code)
	after, err := committedOffsets(ctx, b, "mcp-app", all)
	require.NoError(t, err)
	assert.Equal(t, before, after, "a dry run and a refused token change no committed offset")
}

func jsonEqual(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return string(xb) == string(yb)
}
