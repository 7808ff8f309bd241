package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// configCluster is a playground with a static broker default (as a
// server.properties sets it), app with one standby and one warm-up set on
// the group, and other with nothing set.
func configCluster(t *testing.T) *playground.Cluster {
	t.Helper()
	c := startCluster(t, 2, playground.Kafka44)
	fifty, one := "50000", "1"
	c.SetBrokerConfig("group.streams.session.timeout.ms", &fifty)
	c.PutStreamsGroup(playground.StreamsGroup{ID: "app", State: "Stable"})
	c.PutStreamsGroup(playground.StreamsGroup{ID: "other", State: "Empty"})
	c.SetGroupConfig("app", "streams.num.standby.replicas", &one)
	c.SetGroupConfig("app", "streams.num.warmup.replicas", &one)
	return c
}

func TestGroupConfig_describe(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := configCluster(t)
	bs := bootstrap(c)

	t.Run("text", func(t *testing.T) {
		r := runCLI(t, "--bootstrap-server", bs, "config", "--group", "app", "--group", "other")
		require.Equal(t, 0, r.code, r.stderr)
		assert.Empty(t, r.stderr)
		assert.Contains(t, r.stdout, "All configs for group app are:\n  streams.session.timeout.ms=50000 sensitive=false synonyms={STATIC_BROKER_CONFIG:group.streams.session.timeout.ms=50000, DEFAULT_CONFIG:group.streams.session.timeout.ms=45000}\n")
		assert.Contains(t, r.stdout, "  streams.num.standby.replicas=1 sensitive=false synonyms={DYNAMIC_GROUP_CONFIG:streams.num.standby.replicas=1, DEFAULT_CONFIG:group.streams.num.standby.replicas=0}\n")
		golden.Assert(t, []byte(r.stdout))
	})

	t.Run("dynamic, as kafka-configs.sh prints it", func(t *testing.T) {
		r := runCLI(t, "--bootstrap-server", bs, "config", "--all-groups", "--dynamic")
		require.Equal(t, 0, r.code, r.stderr)
		assert.Equal(t, "Dynamic configs for group app are:\n"+
			"  streams.num.standby.replicas=1 sensitive=false synonyms={DYNAMIC_GROUP_CONFIG:streams.num.standby.replicas=1, DEFAULT_CONFIG:group.streams.num.standby.replicas=0}\n"+
			"  streams.num.warmup.replicas=1 sensitive=false synonyms={DYNAMIC_GROUP_CONFIG:streams.num.warmup.replicas=1, DEFAULT_CONFIG:group.streams.num.warmup.replicas=2}\n"+
			"\nDynamic configs for group other are:\n", r.stdout)
	})

	t.Run("json", func(t *testing.T) {
		r := runCLI(t, "--bootstrap-server", bs, "-o", "json", "config", "--group", "app")
		require.Equal(t, 0, r.code, r.stderr)
		var doc struct {
			Mode   string `json:"mode"`
			Groups []struct {
				Outcome string `json:"outcome"`
				Configs []struct {
					Name    string `json:"name"`
					Value   string `json:"value"`
					Source  string `json:"source"`
					Dynamic bool   `json:"dynamic"`
				} `json:"configs"`
				Unreported []string `json:"unreported"`
			} `json:"groups"`
		}
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &doc))
		assert.Equal(t, "describe", doc.Mode)
		g := doc.Groups[0]
		assert.Equal(t, "described", g.Outcome)
		assert.Equal(t, "streams.session.timeout.ms", g.Configs[0].Name, "streams keys first")
		assert.Equal(t, []string{"streams.assignor.offload.enable", "streams.task.offset.interval.ms", "streams.acceptable.recovery.lag"}, g.Unreported)
		golden.Assert(t, []byte(r.stdout))
	})
}

func TestGroupConfig_change(t *testing.T) {
	t.Parallel()
	isolate(t)

	t.Run("dry run", func(t *testing.T) {
		c := configCluster(t)
		r := runCLI(t, "--bootstrap-server", bootstrap(c), "config", "--group", "app", "--group", "other",
			"--set", "streams.num.standby.replicas=2", "--delete-config", "streams.num.warmup.replicas", "--dry-run")
		require.Equal(t, 0, r.code, r.stderr)
		assert.Empty(t, r.stderr)
		golden.Assert(t, []byte(r.stdout))
		assert.Equal(t, "1", c.GroupConfigs("app")["streams.num.standby.replicas"], "nothing changed")
		assert.Equal(t, "1", c.GroupConfigs("app")["streams.num.warmup.replicas"])
		assert.Empty(t, c.GroupConfigs("other"))
	})

	t.Run("execute reads back", func(t *testing.T) {
		c := configCluster(t)
		r := runCLI(t, "--bootstrap-server", bootstrap(c), "config", "--group", "app",
			"--set", "streams.num.standby.replicas=2", "--delete-config", "streams.num.warmup.replicas", "--execute")
		require.Equal(t, 0, r.code, r.stderr)
		assert.Equal(t, "Completed updating config for group app.\n"+
			"  streams.num.standby.replicas: 1 (DYNAMIC_GROUP_CONFIG) -> 2 (DYNAMIC_GROUP_CONFIG)\n"+
			"  streams.num.warmup.replicas: 1 (DYNAMIC_GROUP_CONFIG) -> not reported by the broker\n", r.stdout)
		assert.Equal(t, map[string]string{"streams.num.standby.replicas": "2"}, c.GroupConfigs("app"))
	})

	t.Run("a group that does not exist yet takes configs", func(t *testing.T) {
		// Kafka keeps group configs apart from groups (FINDINGS F400):
		// setting them before the application first starts is how its first
		// assignment gets standbys.
		c := configCluster(t)
		r := runCLI(t, "--bootstrap-server", bootstrap(c), "-o", "json", "config", "--group", "new-app", "--set", "streams.num.standby.replicas=1", "--execute")
		require.Equal(t, 0, r.code, r.stderr)
		assert.Equal(t, map[string]string{"streams.num.standby.replicas": "1"}, c.GroupConfigs("new-app"))
		golden.Assert(t, []byte(r.stdout))
	})

	t.Run("over the broker's maximum", func(t *testing.T) {
		c := configCluster(t)
		three := "3"
		c.SetBrokerConfig("group.streams.max.standby.replicas", &three)
		for _, mode := range []string{"--dry-run", "--execute"} {
			r := runMode(t, c, true, 1, exitConfigRefused, "Error: group 'app': INVALID_CONFIG:",
				"config", "--group", "app", "--group", "other", "--set", "streams.num.standby.replicas=4", mode)
			// On stderr too, one line per group (W12 of issue 30).
			assert.Equal(t, "Error: group 'app': INVALID_CONFIG: streams.num.standby.replicas must be less than or equal to 3\n"+
				"Error: group 'other': INVALID_CONFIG: streams.num.standby.replicas must be less than or equal to 3\n", r.stderr)
			assert.Equal(t, "Error: the broker refused the changes for group app, nothing was changed: INVALID_CONFIG: streams.num.standby.replicas must be less than or equal to 3\n\n"+
				"Error: the broker refused the changes for group other, nothing was changed: INVALID_CONFIG: streams.num.standby.replicas must be less than or equal to 3\n", r.stdout)
		}
		assert.Equal(t, "1", c.GroupConfigs("app")["streams.num.standby.replicas"], "nothing changed")

		r := runCLI(t, "--bootstrap-server", bootstrap(c), "-o", "json", "config", "--group", "app", "--set", "streams.num.standby.replicas=4", "--dry-run")
		assert.Equal(t, 1, r.code)
		assert.Equal(t, "Error: group 'app': INVALID_CONFIG: streams.num.standby.replicas must be less than or equal to 3\n", r.stderr)
		assert.Contains(t, r.stdout, `"outcome": "refused"`)
		assert.Contains(t, r.stdout, `"after": null`)
	})

	t.Run("refused before anything is sent", func(t *testing.T) {
		c := configCluster(t)
		c.ResetRequests()
		for _, args := range [][]string{
			{"--set", "group.streams.num.standby.replicas=1", "--execute"},
			{"--set", "num.standby.replicas=1", "--dry-run"},
			{"--set", "streams.num.standby.replicas=1"},
			{"--delete-config", "streams.num.standby.replicas", "--dry-run", "--execute"},
		} {
			r := runCLI(t, append([]string{"--bootstrap-server", bootstrap(c), "config", "--group", "app"}, args...)...)
			assert.Equal(t, exitUsage, r.code, "%v: %s", args, r.stderr)
			assert.Empty(t, r.stdout)
		}
		assert.Empty(t, c.Requests(), "nothing was sent")
	})
}

// Each usage error of config, one line on stderr, exit 2.
func TestGroupConfig_usage(t *testing.T) {
	t.Parallel()
	isolate(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"config"}, "Option [config] takes one of these options: [all-groups], [group]"},
		{[]string{"config", "--group", "g", "--all-groups"}, `Option "[group]" can't be used with option "[all-groups]"`},
		{[]string{"config", "--group", "g", "--set", "streams.num.standby.replicas=1"}, "Option [config] with --set or --delete-config takes the option: [execute] or [dry-run]"},
		{[]string{"config", "--group", "g", "--execute"}, "--dry-run and --execute need a change: --set KEY=VALUE or --delete-config KEY"},
		{[]string{"config", "--all-groups", "--set", "streams.num.standby.replicas=1", "--execute"}, "--set and --delete-config change the groups named with --group, not --all-groups"},
		{[]string{"config", "--group", "g", "--set", "x"}, `--set "x": want KEY=VALUE`},
		{[]string{"config", "--group", "g", "--delete-config", "foo", "--execute"}, `"foo" is not a group config of Apache Kafka 4.4 (kstreams-groups config --group G shows them)`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := runCLI(t, append([]string{"--bootstrap-server", "127.0.0.1:9"}, tc.args...)...)
			assert.Equal(t, exitUsage, r.code)
			assert.Equal(t, tc.want+"\nRun 'kstreams-groups config --help' for usage.\n", r.stderr)
			assert.Empty(t, r.stdout)
		})
	}
}

func TestGroupConfig_complete(t *testing.T) {
	t.Parallel()
	isolate(t)
	got, directive := complete(t, "config", "--group", "g", "--set", "streams.num.s")
	assert.Equal(t, []string{"streams.num.standby.replicas=\tThe number of standby replicas for each task."}, got)
	assert.Equal(t, ":6", directive, "no space after KEY=, no files")
	got, directive = complete(t, "config", "--group", "g", "--delete-config", "streams.num.w")
	assert.Equal(t, []string{"streams.num.warmup.replicas\tThe maximum number of warmup task replicas."}, got)
	assert.Equal(t, noFiles, directive)
}

// Broker strings are escaped before a terminal sees them.
func TestGroupConfig_escapes(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := startCluster(t, 1, playground.Kafka44)
	evil, tags := "evil\x1b[2J", "zone\x1b]0;x\x07"
	c.SetGroupConfig(evil, "streams.rack.aware.assignment.tags", &tags)
	r := runCLI(t, "--bootstrap-server", bootstrap(c), "config", "--group", evil, "--dynamic")
	require.Equal(t, 0, r.code, r.stderr)
	assert.NotContains(t, r.stdout, "\x1b")
	assert.NotContains(t, r.stdout, "\x07")
	assert.Contains(t, r.stdout, "Dynamic configs for group evil^[[2J are:\n  streams.rack.aware.assignment.tags=zone^[]0;x^G ")
}
