//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ConfigCommandClass is the main class behind kafka-configs.sh in Kafka 4.4.0 (kafka-tools jar;
// kafka.admin.ConfigCommand is gone).
const ConfigCommandClass = "org.apache.kafka.tools.ConfigCommand"

// TestGroupConfig (issue 22, FINDINGS F400–F403) runs `config` and `delete --delete-configs`
// against one real 4.4.0 broker (the harness's server.properties set some group.streams.*
// defaults, so they are STATIC_BROKER_CONFIG), side by side with the real kafka-configs.sh:
// the same keys and values, a value set by ours read back by the Java tool and one set by the
// Java tool read by ours, the broker's refusal of a value over its maximum, and what deleting a
// group leaves. No application: the groups are joined and left by hand (joinAndLeave).
func TestGroupConfig(t *testing.T) {
	bin := OurBinary(t)
	start := time.Now()
	defer func() { logf("TestGroupConfig total %s", time.Since(start).Round(time.Millisecond)) }()
	ctx := context.Background()
	broker := SharedBroker(t, BrokerOptions{})
	run := func(t *testing.T, args ...string) ToolResult { return RunOursOn(t, bin, broker, args...) }
	java := func(t *testing.T, args ...string) ToolResult {
		t.Helper()
		tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		defer cancel()
		r, err := RunJavaTool(tctx, Kafka44, ConfigCommandClass, append([]string{"--bootstrap-server", broker.Addr}, args...)...)
		require.NoError(t, err)
		logf("%s: kafka-configs.sh %s: exit %d in %s", t.Name(), strings.Join(args, " "), r.ExitCode, r.Duration.Round(time.Millisecond))
		return r
	}
	require.NoError(t, createTopic(ctx, broker, "gc-input", 1))
	joinAndLeave(t, broker, "gc-app", "gc-input")
	joinAndLeave(t, broker, "gc-gone", "gc-input")
	require.NoError(t, broker.WaitGroupState(ctx, "gc-app", "Empty", 30*time.Second, broker.Proc))
	require.NoError(t, broker.WaitGroupState(ctx, "gc-gone", "Empty", 30*time.Second, broker.Proc))
	logf("TestGroupConfig: groups ready after %s", time.Since(start).Round(time.Millisecond))

	t.Run("set by ours, read by kafka-configs.sh", func(t *testing.T) {
		r := run(t, "config", "--group", "gc-app", "--set", "streams.num.standby.replicas=1", "--set", "streams.num.warmup.replicas=1", "--execute")
		require.Equal(t, 0, r.ExitCode, r.Stderr)
		assert.Equal(t, "Completed updating config for group gc-app.\n"+
			"  streams.num.standby.replicas: 0 (DEFAULT_CONFIG: group.streams.num.standby.replicas) -> 1 (DYNAMIC_GROUP_CONFIG)\n"+
			"  streams.num.warmup.replicas: not reported by the broker -> 1 (DYNAMIC_GROUP_CONFIG)\n", r.Stdout)

		j := java(t, "--describe", "--entity-type", "groups", "--entity-name", "gc-app")
		require.Equal(t, 0, j.ExitCode, j.Stderr)
		assert.Contains(t, j.Stdout, "  streams.num.standby.replicas=1 sensitive=false synonyms={DYNAMIC_GROUP_CONFIG:streams.num.standby.replicas=1, DEFAULT_CONFIG:group.streams.num.standby.replicas=0}\n")
		assert.Contains(t, j.Stdout, "  streams.num.warmup.replicas=1 sensitive=false synonyms={DYNAMIC_GROUP_CONFIG:streams.num.warmup.replicas=1, DEFAULT_CONFIG:group.streams.num.warmup.replicas=2}\n")
	})

	t.Run("set by kafka-configs.sh, read by ours", func(t *testing.T) {
		j := java(t, "--alter", "--entity-type", "groups", "--entity-name", "gc-app", "--add-config", "streams.heartbeat.interval.ms=2000")
		require.Equal(t, 0, j.ExitCode, j.Stderr)
		assert.Equal(t, "Completed updating config for group gc-app.\n", j.Stdout)

		r := run(t, "-o", "json", "config", "--group", "gc-app")
		require.Equal(t, 0, r.ExitCode, r.Stderr)
		var doc struct {
			Groups []struct {
				Configs []struct {
					Name     string `json:"name"`
					Value    string `json:"value"`
					Source   string `json:"source"`
					Dynamic  bool   `json:"dynamic"`
					Synonyms []struct {
						Name, Value, Source string
					} `json:"synonyms"`
				} `json:"configs"`
			} `json:"groups"`
		}
		require.NoError(t, json.Unmarshal([]byte(r.Stdout), &doc))
		var found bool
		for _, c := range doc.Groups[0].Configs {
			if c.Name == "streams.heartbeat.interval.ms" {
				found = true
				assert.Equal(t, "2000", c.Value)
				assert.Equal(t, "DYNAMIC_GROUP_CONFIG", c.Source)
				assert.True(t, c.Dynamic)
				require.Len(t, c.Synonyms, 3, "the group's, the static broker config's, the default")
				assert.Equal(t, "STATIC_BROKER_CONFIG", c.Synonyms[1].Source)
				assert.Equal(t, "group.streams.heartbeat.interval.ms", c.Synonyms[1].Name)
			}
		}
		assert.True(t, found, r.Stdout)
	})

	t.Run("the same keys and values as kafka-configs.sh", func(t *testing.T) {
		// --dynamic is kafka-configs.sh --describe byte for byte.
		j := java(t, "--describe", "--entity-type", "groups", "--entity-name", "gc-app")
		r := run(t, "config", "--group", "gc-app", "--dynamic")
		require.Equal(t, 0, r.ExitCode, r.Stderr)
		assert.Equal(t, j.Stdout, r.Stdout)

		// The full view holds kafka-configs.sh --all's lines, in our order (streams keys first).
		j = java(t, "--describe", "--all", "--entity-type", "groups", "--entity-name", "gc-app")
		require.Equal(t, 0, j.ExitCode, j.Stderr)
		r = run(t, "config", "--group", "gc-app")
		require.Equal(t, 0, r.ExitCode, r.Stderr)
		javaLines, ourLines := configLines(j.Stdout), configLines(r.Stdout)
		assert.Equal(t, "All configs for group gc-app are:", strings.SplitN(j.Stdout, "\n", 2)[0])
		assert.Equal(t, "All configs for group gc-app are:", strings.SplitN(r.Stdout, "\n", 2)[0])
		assert.ElementsMatch(t, javaLines, ourLines)
		assert.True(t, strings.HasPrefix(ourLines[0], "  streams."), ourLines[0])
		assert.Contains(t, r.Stdout, "\nNot reported by the broker unless set on the group (the broker's group.streams.* defaults apply): streams.assignor.offload.enable, streams.task.offset.interval.ms, streams.acceptable.recovery.lag\n")
	})

	t.Run("a group that neither exists nor has configs", func(t *testing.T) {
		j := java(t, "--describe", "--entity-type", "groups", "--entity-name", "gc-nothing")
		assert.Equal(t, "The group 'gc-nothing' doesn't exist and doesn't have dynamic config.\n", j.Stdout)
		r := run(t, "config", "--group", "gc-nothing", "--dynamic")
		require.Equal(t, 0, r.ExitCode, r.Stderr)
		assert.Equal(t, "Dynamic configs for group gc-nothing are:\n", r.Stdout, "a deliberate difference (README)")
	})

	t.Run("dry run over the broker's maximum", func(t *testing.T) {
		r := run(t, "config", "--group", "gc-app", "--set", "streams.num.standby.replicas=3", "--dry-run", "--detailed-exit-codes")
		assert.Equal(t, 13, r.ExitCode, r.Stderr)
		assert.Equal(t, "Error: the broker refused the changes for group gc-app, nothing was changed: INVALID_CONFIG: streams.num.standby.replicas must be less than or equal to 2\n", r.Stdout)
		j := java(t, "--alter", "--entity-type", "groups", "--entity-name", "gc-app", "--add-config", "streams.num.standby.replicas=3")
		assert.Equal(t, 1, j.ExitCode)
		assert.Contains(t, j.Stderr, "InvalidConfigurationException: streams.num.standby.replicas must be less than or equal to 2\n", "the same broker message")

		r = run(t, "config", "--group", "gc-app", "--set", "streams.num.standby.replicas=2", "--dry-run")
		require.Equal(t, 0, r.ExitCode, r.Stderr)
		assert.Equal(t, "Dry run for group gc-app: the broker accepts these changes (nothing was changed):\n"+
			"  streams.num.standby.replicas: 1 (DYNAMIC_GROUP_CONFIG) -> 2 (DYNAMIC_GROUP_CONFIG)\n", r.Stdout)
		r = run(t, "config", "--group", "gc-app", "--dynamic")
		assert.Contains(t, r.Stdout, "  streams.num.standby.replicas=1 ", "the dry run changed nothing")

		r = run(t, "config", "--group", "gc-app", "--set", "streams.session.timeout.ms=100", "--dry-run")
		assert.Equal(t, 1, r.ExitCode)
		assert.Equal(t, "Error: the broker refused the changes for group gc-app, nothing was changed: INVALID_CONFIG: streams.session.timeout.ms must be in the range 6000 to 60000 inclusive.\n", r.Stdout)
	})

	t.Run("not a group config: refused before anything is sent", func(t *testing.T) {
		r := run(t, "--debug", "config", "--group", "gc-app", "--set", "group.streams.num.standby.replicas=1", "--execute")
		assert.Equal(t, 2, r.ExitCode)
		assert.Contains(t, r.Stderr, `"group.streams.num.standby.replicas" is the broker's default, not a group config: the group's own is "streams.num.standby.replicas"`)
		assert.NotContains(t, r.Stderr, "IncrementalAlterConfigs", "nothing sent")
		j := java(t, "--alter", "--entity-type", "groups", "--entity-name", "gc-app", "--add-config", "group.streams.num.standby.replicas=1")
		assert.Contains(t, j.Stderr, "Unknown group config name: group.streams.num.standby.replicas", "what the broker would have said")
	})

	t.Run("delete leaves the configs, --delete-configs removes them", func(t *testing.T) {
		// F402: DeleteGroups keeps the group's dynamic configs.
		r := run(t, "delete", "--group", "gc-app")
		require.Equal(t, 0, r.ExitCode, r.Stderr)
		assert.Equal(t, "Deletion of requested streams groups ('gc-app') was successful.\n", r.Stdout)
		assert.Contains(t, r.Stderr, "note: the dynamic configs of the deleted streams group 'gc-app' remain on the broker (streams.heartbeat.interval.ms=2000, streams.num.standby.replicas=1, streams.num.warmup.replicas=1)")
		j := java(t, "--describe", "--entity-type", "groups", "--entity-name", "gc-app")
		assert.Contains(t, j.Stdout, "Dynamic configs for group gc-app are:\n  streams.heartbeat.interval.ms=2000 ", "still there after the delete")

		r = run(t, "config", "--group", "gc-gone", "--set", "streams.num.standby.replicas=1", "--execute")
		require.Equal(t, 0, r.ExitCode, r.Stderr)
		r = run(t, "delete", "--group", "gc-gone", "--delete-configs")
		require.Equal(t, 0, r.ExitCode, r.Stderr)
		assert.Equal(t, "Deletion of requested streams groups ('gc-gone') was successful.\n"+
			"Deletion of the dynamic configs of the streams groups ('gc-gone') was successful.\n", r.Stdout)
		assert.Empty(t, r.Stderr)
		j = java(t, "--describe", "--entity-type", "groups", "--entity-name", "gc-gone")
		assert.Equal(t, "The group 'gc-gone' doesn't exist and doesn't have dynamic config.\n", j.Stdout)
	})
}

// configLines are the "  NAME=VALUE ..." lines of a config text.
func configLines(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "  ") {
			lines = append(lines, l)
		}
	}
	return slices.Clip(lines)
}
