//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestStandbys runs the standby coverage of overview, check and doctor against a real 4.4.0
// broker: one application sb-app (e2e.OverviewApp, a word count with one stateful
// sub-topology of 4 tasks) with two instances, whose group has streams.num.standby.replicas=1
// set by the test before the application starts (the application's own num.standby.replicas
// is ignored, F185). The instances run on one machine: their client host is the same, their
// application.server hosts differ (sb-a.test, sb-b.test), which is what coverage compares when
// an instance sets one (docs/standbys.md). With both running every stateful task has its
// standby on the other instance (full coverage, check --min-standbys 1 OK); with one stopped,
// no task can have one (coverage missing, the reason too few processes, check WARNING). In
// between, the members' reported task offsets give each standby's changelog lag (F420).
func TestStandbys(t *testing.T) {
	bin := OurBinary(t)
	start := time.Now()
	defer func() { logf("TestStandbys total %s", time.Since(start).Round(time.Millisecond)) }()
	ctx := context.Background()

	b := SharedBroker(t, BrokerOptions{Plugin: PluginInMemory})
	require.NoError(t, createTopic(ctx, b, "sb-ov-input", 4))
	// Before the group exists: the broker accepts configs of a group it does not know (F400).
	// The report interval of task offsets as low as the broker allows, so that an empty
	// TaskOffsets below is not for want of time.
	streamsConfigs := brokerConfigs(t, b, "group.streams.")
	logf("TestStandbys: the broker reports %v", streamsConfigs)
	// F421: the broker's internal group.streams.* configs (the minimum task offset interval,
	// the warm-up and recovery-lag defaults) are not reported; 15000 is Kafka's minimum.
	minInterval := "15000"
	if v, ok := streamsConfigs["group.streams.min.task.offset.interval.ms"]; ok {
		minInterval = v
	}
	// Warm-ups and the acceptable recovery lag set too: their broker defaults cannot be read (F421).
	alterGroupConfigs(t, b, "sb-app", map[string]string{"streams.num.standby.replicas": "1", "streams.task.offset.interval.ms": minInterval,
		"streams.num.warmup.replicas": "2", "streams.acceptable.recovery.lag": "10000"})

	pause := filepath.Join(b.Dir, "sb-pause") // never created: the instances run freely
	var procs []*Process
	for _, inst := range []string{"a", "b"} {
		port, err := FreePort()
		require.NoError(t, err)
		procs = append(procs, startOverviewInstance(t, b, "sb-app", inst, fmt.Sprintf("sb-%s.test:%d", inst, port), pause, "topic-prefix=sb-"))
	}
	require.NoError(t, b.WaitGroupState(ctx, "sb-app", "Stable", 120*time.Second, append(procs, b.Proc)...))
	stable := time.Now()
	produceTo(t, b, "sb-ov-input", map[int32]int{0: 10, 1: 10, 2: 10, 3: 10})

	full := pollDoc(t, "sb-app", time.Second, func() standbyDoc { return standbyJSON(t, bin, b, "sb-app") }, func(d standbyDoc) string {
		c := d.Coverage
		switch {
		case d.MemberCount != 2:
			return fmt.Sprintf("%d members", d.MemberCount)
		case d.State != "Stable":
			return "state " + d.State
		case c == nil || c.StatefulTasks != 4:
			return "not 4 stateful tasks"
		case c.TasksShort != 0:
			return fmt.Sprintf("%d tasks short of standbys", c.TasksShort)
		}
		return ""
	})
	logf("TestStandbys: full coverage after %s", time.Since(start).Round(time.Millisecond))

	t.Run("full coverage", func(t *testing.T) {
		c := full.Coverage
		require.NotNil(t, c.ConfiguredStandbys)
		assert.Equal(t, int64(1), *c.ConfiguredStandbys)
		assert.Equal(t, 0, c.TasksWithoutStandby)
		assert.Equal(t, 0, c.ColocatedStandbys)
		assert.Equal(t, 2, c.Processes)
		assert.Equal(t, 2, c.Hosts, "two application.server hosts")
		for _, task := range c.Tasks {
			assert.Equal(t, 1, task.StandbysCounted, task.ID)
			assert.Empty(t, task.Reason, task.ID)
		}
		r := RunOursOn(t, bin, b, "overview", "--group", "sb-app")
		require.Equal(t, 0, r.ExitCode, r.Stderr)
		assert.Contains(t, r.Stdout, "  Standbys:      1 (set on the group)\n")
		assert.Contains(t, r.Stdout, "  Coverage:      all 4 stateful tasks have 1 standby\n")
		assert.Contains(t, r.Stdout, "  Assignor:      sticky\n")
		assert.Contains(t, r.Stdout, "  Warm-ups:      2 (set on the group)\n")
		assert.Contains(t, r.Stdout, "  Recovery lag:  up to 10000 records acceptable (set on the group)\n")
		r = RunOursOn(t, bin, b, "check", "--group", "sb-app", "--min-standbys", "1", "--require-configured-standbys")
		assert.Equal(t, 0, r.ExitCode, r.Stdout)
		assert.True(t, strings.HasPrefix(r.Stdout, "STREAMS OK - "), r.Stdout)
		assert.Contains(t, r.Stdout, "'sb-app min_task_standbys'=1;1:;;0")
		assert.Contains(t, r.Stdout, "'sb-app standbys_configured'=1;;;0")
		r = RunOursOn(t, bin, b, "doctor", "--group", "sb-app")
		assert.Contains(t, r.Stdout, "ok       all 4 stateful tasks have 1 standby on another process and host\n")
		assert.Contains(t, r.Stdout, "info     streams.num.warmup.replicas is 2 but no task has a warm-up: a 4.4 broker", "F186")
		r = RunOursOn(t, bin, b, "check", "--group", "sb-app", "-o", "prometheus")
		assert.Contains(t, r.Stdout, "kstreams_group_standbys_configured{group=\"sb-app\"} 1\n")
		assert.Contains(t, r.Stdout, "kstreams_group_tasks_without_standby{group=\"sb-app\"} 0\n")
	})

	t.Run("restoration progress as the members report it", func(t *testing.T) {
		// F420: with streams.task.offset.interval.ms at 15 s on the group, a 4.4.0 broker
		// answers TaskOffsets and TaskEndOffsets once the members have reported them: each
		// member its standby tasks, each with the end offset it sees.
		wait, err := strconv.Atoi(minInterval)
		require.NoError(t, err)
		time.Sleep(time.Until(stable.Add(time.Duration(wait)*time.Millisecond + 5*time.Second)))
		g, err := b.DescribeStreamsGroup(ctx, "sb-app", false)
		require.NoError(t, err)
		require.Len(t, g.Members, 2)
		reported := map[string]bool{} // member/S_P with an offset
		ends := map[string]bool{}     // S_P with an end offset
		for _, m := range g.Members {
			for _, o := range m.TaskOffsets {
				reported[m.MemberID+"/"+o.SubtopologyID+"_"+strconv.Itoa(int(o.Partition))] = true
			}
			for _, o := range m.TaskEndOffsets {
				ends[o.SubtopologyID+"_"+strconv.Itoa(int(o.Partition))] = true
			}
			logf("TestStandbys: member %s client host %q endpoint %s:%d active %v standby %v: task offsets %v, end offsets %v",
				m.MemberID, m.ClientHost, m.UserEndpoint.Host, m.UserEndpoint.Port, m.Assignment.ActiveTasks, m.Assignment.StandbyTasks, m.TaskOffsets, m.TaskEndOffsets)
		}
		require.NotEmpty(t, reported, "no member reported task offsets")
		d := standbyJSON(t, bin, b, "sb-app")
		assert.True(t, d.Coverage.RestorationReported)
		for _, task := range d.Coverage.Tasks {
			for _, cp := range task.Copies {
				if reported[cp.Member+"/"+task.ID] && ends[task.ID] {
					assert.Equal(t, "standby", cp.Kind, "%s on %s: only standby tasks are reported (F420)", task.ID, cp.Member)
					if assert.NotNil(t, cp.ChangelogLag, "%s %s on %s", task.ID, cp.Kind, cp.Member) {
						logf("TestStandbys: %s %s on %s: changelog lag %d", task.ID, cp.Kind, cp.Member, *cp.ChangelogLag)
					}
				} else {
					assert.Nil(t, cp.ChangelogLag, "%s %s on %s: not reported is null, never 0", task.ID, cp.Kind, cp.Member)
				}
			}
		}
		r := RunOursOn(t, bin, b, "overview", "--group", "sb-app")
		assert.Contains(t, r.Stdout, "  Restoration:   changelog lag per copy, as the members report it (below each sub-topology)\n")
		assert.Contains(t, r.Stdout, "    Changelog lag (acceptable 10000):\n")
	})

	t.Run("one instance stopped: coverage missing, check WARNING", func(t *testing.T) {
		require.NoError(t, procs[1].Stop(20*time.Second))
		missing := pollDoc(t, "sb-app", time.Second, func() standbyDoc { return standbyJSON(t, bin, b, "sb-app") }, func(d standbyDoc) string {
			c := d.Coverage
			switch {
			case d.MemberCount != 1:
				return fmt.Sprintf("%d members", d.MemberCount)
			case d.State != "Stable":
				return "state " + d.State
			case c == nil || c.StatefulTasks != 4:
				return "not 4 stateful tasks held"
			case c.TasksShort != 4:
				return fmt.Sprintf("%d tasks short", c.TasksShort)
			}
			return ""
		})
		logf("TestStandbys: coverage missing after %s", time.Since(start).Round(time.Millisecond))
		for _, task := range missing.Coverage.Tasks {
			assert.Equal(t, 0, task.StandbysCounted, task.ID)
			assert.Equal(t, "processes", task.Reason, task.ID)
			assert.Equal(t, "only 1 process for 2 copies: the active and 1 standby", task.ReasonText, task.ID)
		}
		r := RunOursOn(t, bin, b, "overview", "--group", "sb-app")
		assert.Contains(t, r.Stdout, "  Coverage:      4 of 4 stateful tasks have fewer than 1 standby\n"+
			"                 only 1 process for 2 copies: the active and 1 standby: 1_0, 1_1, 1_2 and 1 more\n")
		r = RunOursOn(t, bin, b, "check", "--group", "sb-app", "--min-standbys", "1")
		assert.Equal(t, 1, r.ExitCode, r.Stdout)
		assert.True(t, strings.HasPrefix(r.Stdout, "STREAMS WARNING - sb-app WARNING: 4 of 4 stateful tasks with fewer than 1 standby: 1_0 has 0, 1_1 has 0, 1_2 has 0 and 1 more (only 1 process for 2 copies: the active and 1 standby)"), r.Stdout)
		r = RunOursOn(t, bin, b, "check", "--group", "sb-app", "--min-standbys", "1", "--standbys-critical")
		assert.Equal(t, 2, r.ExitCode, r.Stdout)
		r = RunOursOn(t, bin, b, "doctor", "--group", "sb-app")
		assert.Equal(t, 1, r.ExitCode, r.Stdout)
		assert.Contains(t, r.Stdout, "WARNING  4 of 4 stateful tasks have fewer than the 1 standby configured: 1_0, 1_1, 1_2 and 1 more (only 1 process for 2 copies: the active and 1 standby)\n")
	})
}

// standbyDoc is the part of our overview document TestStandbys reads.
type standbyDoc struct {
	State       string `json:"state"`
	MemberCount int    `json:"member_count"`
	Coverage    *struct {
		ConfiguredStandbys  *int64 `json:"configured_standbys"`
		StatefulTasks       int    `json:"stateful_tasks"`
		TasksWithoutStandby int    `json:"tasks_without_standby"`
		TasksShort          int    `json:"tasks_short"`
		ColocatedStandbys   int    `json:"colocated_standbys"`
		Processes           int    `json:"processes"`
		Hosts               int    `json:"hosts"`
		RestorationReported bool   `json:"restoration_reported"`
		Tasks               []struct {
			ID              string `json:"id"`
			StandbysCounted int    `json:"standbys_counted"`
			Reason          string `json:"reason"`
			ReasonText      string `json:"reason_text"`
			Copies          []struct {
				Member       string `json:"member"`
				Kind         string `json:"kind"`
				ChangelogLag *int64 `json:"changelog_lag"`
			} `json:"copies"`
		} `json:"tasks"`
	} `json:"standby_coverage"`
}

func standbyJSON(t *testing.T, bin string, b *Broker, group string) standbyDoc {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r := RunOurs(ctx, bin, "--bootstrap-server", b.Addr, "overview", "--group", group, "-o", "json")
	require.Equal(t, 0, r.ExitCode, r.Stderr)
	var doc struct {
		Groups []standbyDoc `json:"groups"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.Stdout), &doc), r.Stdout)
	require.Len(t, doc.Groups, 1)
	return doc.Groups[0]
}

// brokerConfigs reads the broker's configs whose names start with prefix (DescribeConfigs of
// its BROKER resource, every config).
func brokerConfigs(t *testing.T, b *Broker, prefix string) map[string]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req := kmsg.NewPtrDescribeConfigsRequest()
	res := kmsg.NewDescribeConfigsRequestResource()
	res.ResourceType, res.ResourceName = kmsg.ConfigResourceTypeBroker, "1" // node.id of the harness broker
	req.Resources = append(req.Resources, res)
	resp, err := req.RequestWith(ctx, b.Client())
	require.NoError(t, err)
	require.Len(t, resp.Resources, 1)
	require.NoError(t, kerr.ErrorForCode(resp.Resources[0].ErrorCode))
	out := map[string]string{}
	for _, c := range resp.Resources[0].Configs {
		if strings.HasPrefix(c.Name, prefix) && c.Value != nil {
			out[c.Name] = *c.Value
		}
	}
	return out
}

// alterGroupConfigs sets configs on a group (IncrementalAlterConfigs, SET).
func alterGroupConfigs(t *testing.T, b *Broker, group string, kv map[string]string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req := kmsg.NewPtrIncrementalAlterConfigsRequest()
	res := kmsg.NewIncrementalAlterConfigsRequestResource()
	res.ResourceType, res.ResourceName = kmsg.ConfigResourceTypeGroupConfig, group
	for k, v := range kv {
		c := kmsg.NewIncrementalAlterConfigsRequestResourceConfig()
		c.Name, c.Op, c.Value = k, kmsg.IncrementalAlterConfigOpSet, kmsg.StringPtr(v)
		res.Configs = append(res.Configs, c)
	}
	req.Resources = append(req.Resources, res)
	resp, err := req.RequestWith(ctx, b.Client())
	require.NoError(t, err)
	require.Len(t, resp.Resources, 1)
	msg := ""
	if m := resp.Resources[0].ErrorMessage; m != nil {
		msg = *m
	}
	require.NoError(t, kerr.ErrorForCode(resp.Resources[0].ErrorCode), msg)
}
