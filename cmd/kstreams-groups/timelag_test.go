package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/admin/admintest"
	"github.com/kstreams-groups/kstreams-groups/internal/format/promtest"
	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// timeLagCluster is the playground seeded with seed/timelag.yaml, whose
// record timestamps are relative to the fake clock's 2026-12-01T10:00Z.
func timeLagCluster(t *testing.T) *playground.Cluster {
	return seededCluster(t, "../../internal/playground/seed/timelag.yaml")
}

func TestOverviewTimeLag(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := timeLagCluster(t)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"text", []string{"--group", "shop"}},
		{"idle eos", []string{"--group", "idle-eos"}},
		{"snappy", []string{"--group", "snappy-app"}},
		{"json", []string{"--group", "shop", "-o", "json"}},
		{"yaml idle eos", []string{"--group", "idle-eos", "-o", "yaml"}},
		{"shop.mmd", []string{"--group", "shop", "-o", "mermaid"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLIWith(t, deps{clock: newFakeClock(nil)}, append([]string{"--bootstrap-server", bootstrap(c), "overview", "--time-lag"}, tc.args...)...)
			require.Equal(t, 0, r.code, r.stderr)
			assert.Empty(t, r.stderr)
			golden.Assert(t, stableOverview(c, r.stdout))
		})
	}
}

// The figures of the seed, read from the document: the time lag is now
// minus the first unprocessed record's time, the largest per task,
// sub-topology and group; records are counted without the aborted
// transaction and its marker.
func TestOverviewTimeLag_figures(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := timeLagCluster(t)
	r := runCLIWith(t, deps{clock: newFakeClock(nil)}, "--bootstrap-server", bootstrap(c), "overview", "--time-lag", "--group", "shop", "--group", "idle-eos", "-o", "json")
	require.Equal(t, 0, r.code, r.stderr)
	var doc struct {
		Groups []struct {
			Group         string `json:"group"`
			TimeLag       tlDoc  `json:"time_lag"`
			Subtopologies []struct {
				ID      string `json:"id"`
				TimeLag tlDoc  `json:"time_lag"`
				Tasks   []struct {
					ID      string `json:"id"`
					TimeLag tlDoc  `json:"time_lag"`
					Offsets []struct {
						Topic     string `json:"topic"`
						Partition int32  `json:"partition"`
						Lag       int64  `json:"lag"`
						TimeLag   tlDoc  `json:"time_lag"`
					} `json:"offsets"`
				} `json:"tasks"`
			} `json:"subtopologies"`
		} `json:"groups"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &doc))
	type fig struct {
		offsetLag, ms, records int64
		exact                  bool
		tsType                 string
	}
	got := map[string]fig{}
	for _, g := range doc.Groups {
		for _, st := range g.Subtopologies {
			for _, task := range st.Tasks {
				for _, o := range task.Offsets {
					got[g.Group+"/"+o.Topic+"-"+itoa(int(o.Partition))] = fig{o.Lag, ms(o.TimeLag), o.TimeLag.Records, o.TimeLag.RecordsExact, o.TimeLag.TimestampType}
				}
			}
		}
	}
	assert.Equal(t, map[string]fig{
		"shop/orders-0":     {8, 240_000, 8, true, "CreateTime"},
		"shop/orders-1":     {4, 3_600_000, 4, true, "CreateTime"}, // never committed: from the log start
		"shop/orders-2":     {0, 0, 0, true, ""},                   // caught up: nothing read
		"shop/events-0":     {6, 60_000, 6, true, "LogAppendTime"}, // offset 2 (70s old) shares a batch appended with offset 3, 60s ago
		"shop/events-1":     {4, 0, 0, true, "LogAppendTime"},      // an aborted transaction and its marker
		"shop/clicks-0":     {9900, 7_200_500, 9900, false, "CreateTime"},
		"idle-eos/events-0": {0, 0, 0, true, ""},
		"idle-eos/events-1": {4, 0, 0, true, "LogAppendTime"},
	}, got)
	assert.Equal(t, int64(7_200_500), ms(doc.Groups[0].TimeLag), "the group's is its largest")
	assert.Equal(t, int64(3_600_000), ms(doc.Groups[0].Subtopologies[0].TimeLag))
	assert.Equal(t, int64(0), ms(doc.Groups[1].TimeLag))
	assert.Equal(t, int64(0), doc.Groups[1].TimeLag.Records)
	// One Fetch per leader (two nodes).
	assert.LessOrEqual(t, len(requestsWithKey(c, 1)), 2)
}

type tlDoc struct {
	Milliseconds  *int64 `json:"milliseconds"`
	Records       int64  `json:"records"`
	RecordsExact  bool   `json:"records_exact"`
	TimestampType string `json:"timestamp_type"`
}

func ms(d tlDoc) int64 {
	if d.Milliseconds == nil {
		return -1
	}
	return *d.Milliseconds
}

func requestsWithKey(c *playground.Cluster, key int16) []playground.Request {
	var out []playground.Request
	for _, r := range c.Requests() {
		if f, ok := r.Msg.(*kmsg.FetchRequest); ok && len(f.Topics) == 1 && f.Topics[0].Topic == playground.OffsetsTopic {
			continue // the overview's history read, not the time lag's
		}
		if r.Key == key {
			out = append(out, r)
		}
	}
	return out
}

func TestCheckTimeLag(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := timeLagCluster(t)
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		// Offset lag 4 (an aborted transaction and its marker), nothing
		// to process: OK.
		{"idle eos lag-critical 0", []string{"--group", "idle-eos", "--expect-state", "Empty", "--lag-critical", "0", "-v"}, 0},
		{"time lag warning", []string{"--group", "shop", "--time-lag-warning", "30m", "--time-lag-critical", "3h"}, 1},
		{"time lag critical", []string{"--group", "shop", "--time-lag-critical", "1h", "-v"}, 2},
		{"equal is not above", []string{"--group", "snappy-app", "--expect-state", "Empty", "--time-lag-critical", "1s"}, 0},
		{"seconds", []string{"--group", "shop", "--group", "idle-eos", "--expect-state", "Stable,Empty", "--time-lag-warning", "7200", "--time-lag-critical", "7201"}, 1},
		{"time lag without thresholds json", []string{"--group", "idle-eos", "--expect-state", "Empty", "--time-lag", "-o", "json"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLIWith(t, deps{clock: newFakeClock(nil)}, append([]string{"--bootstrap-server", bootstrap(c), "check"}, tc.args...)...)
			assert.Equal(t, tc.code, r.code, r.stderr)
			golden.Assert(t, stableOverview(c, r.stdout))
		})
	}
}

func TestCheckTimeLag_usage(t *testing.T) {
	t.Parallel()
	isolate(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--time-lag-warning", "5m", "--time-lag-critical", "1m"}, "--time-lag-warning 5m0s is above --time-lag-critical 1m0s"},
		{[]string{"--time-lag-critical", "soon"}, `--time-lag-critical: want a duration such as 90s, 5m or 1h30m (or whole seconds), 0 or more, got "soon"`},
		{[]string{"--time-lag-warning", "-5s"}, `--time-lag-warning: want a duration`},
	} {
		r := runCLI(t, append([]string{"--bootstrap-server", "127.0.0.1:9", "check", "--group", "g"}, tc.args...)...)
		assert.Equal(t, 3, r.code, "a usage error is UNKNOWN")
		assert.Contains(t, r.stderr, tc.want)
	}
}

// The time lag in -o prometheus: seconds, the group's and each
// sub-topology's, per partition only with --partition-metrics; the
// exposition parses (expfmt) and, where promtool is installed, passes
// promtool check metrics.
func TestPrometheusTimeLag(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := timeLagCluster(t)
	for _, tc := range []struct {
		name       string
		args       []string
		partitions bool
	}{
		{"overview", []string{"overview", "--time-lag", "--group", "shop", "--group", "idle-eos"}, false},
		{"overview partitions", []string{"overview", "--time-lag", "--partition-metrics", "--group", "shop"}, true},
		{"check", []string{"check", "--group", "shop", "--time-lag-critical", "3h"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLIWith(t, deps{clock: newFakeClock(nil)}, append([]string{"--bootstrap-server", bootstrap(c), "-o", "prometheus"}, tc.args...)...)
			require.Equal(t, 0, r.code, r.stderr)
			golden.Assert(t, []byte(r.stdout))
			fams := promtest.Parse(t, r.stdout)
			assert.InDelta(t, 7200.5, promtest.Value(t, fams, "kstreams_group_lag_seconds", "group", "shop"), 1e-9)
			assert.InDelta(t, 3600, promtest.Value(t, fams, "kstreams_subtopology_lag_seconds", "group", "shop", "subtopology", "0"), 1e-9)
			assert.Equal(t, tc.partitions, promtest.Has(fams, "kstreams_partition_lag_seconds", "group", "shop", "subtopology", "0", "topic", "orders", "partition", "0"))
			if tc.partitions {
				assert.InDelta(t, 240, promtest.Value(t, fams, "kstreams_partition_lag_seconds", "group", "shop", "subtopology", "0", "topic", "orders", "partition", "0"), 1e-9)
			}
			promtest.Promtool(t, r.stdout)
		})
	}
	// Without the time lag asked, no family.
	r := runCLIWith(t, deps{clock: newFakeClock(nil)}, "--bootstrap-server", bootstrap(c), "-o", "prometheus", "check", "--group", "shop", "--lag-critical", "100000", "--time-lag=false")
	require.Equal(t, 0, r.code, r.stderr)
	assert.False(t, promtest.Has(promtest.Parse(t, r.stdout), "kstreams_group_lag_seconds", "group", "shop"))
}

// A broker that never answers Fetch: the overview keeps its offsets and
// says in one line why the records were not read; check's time-lag
// threshold is UNKNOWN, with the reason.
func TestTimeLag_fetchNeverAnswered(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := timeLagCluster(t)
	h := admintest.Start(t, c, admintest.Rule{Key: 1, Action: admintest.Hang})
	r := runCLIWith(t, deps{clock: newFakeClock(nil)}, "--bootstrap-server", h.Bootstrap(), "--timeout", "1500", "overview", "--time-lag", "--group", "idle-eos")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "  Lag:           4 (largest task 0_1: 4)\n")
	assert.Contains(t, r.stdout, "  Time lag:      -, at most 4 records to process (offset lag, an upper bound) (records not read: Fetch: timed out)\n")

	r = runCLIWith(t, deps{clock: newFakeClock(nil)}, "--bootstrap-server", h.Bootstrap(), "--timeout", "1500", "check", "--group", "idle-eos", "--expect-state", "Empty", "--time-lag-critical", "1m")
	assert.Equal(t, 3, r.code, r.stderr)
	assert.Contains(t, r.stdout, "STREAMS UNKNOWN - idle-eos UNKNOWN: time lag cannot be measured: Fetch: timed out |")
}

// The time lag only enriches the overview: a broker that never answers
// Fetch holds it for at most half of --timeout, and the overview with its
// offset lag is printed then, not at the deadline (issue 30).
func TestTimeLag_fetchNeverAnsweredHoldsHalfTheTimeout(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := timeLagCluster(t)
	h := admintest.Start(t, c, admintest.Rule{Key: 1, Action: admintest.Hang})
	// The Fetch's wait ends at about half of --timeout (3 s), the
	// deadline is 6 s: the bound sits between the two, 2 s past the half
	// (the other requests answer at once, but a loaded machine slows
	// them) and 1 s before the deadline, which a wait for the whole
	// --timeout cannot beat.
	const timeout = 6 * time.Second
	start := time.Now()
	r := runCLIWith(t, deps{clock: newFakeClock(nil)}, "--bootstrap-server", h.Bootstrap(), "--timeout", timeout.String(), "overview", "--group", "idle-eos")
	took := time.Since(start)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "(records not read: Fetch: timed out)")
	assert.Less(t, took, timeout-time.Second, "the Fetch's wait ends at about half of --timeout, well before it")
}

// overview --watch --time-lag: from the second sample on, each
// sub-topology's pace since the last one and the time to catch up.
func TestWatchTimeLagRates(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := timeLagCluster(t)
	clk := newFakeClock(func(n int) {
		if n == 1 {
			// In 2s: orders-0 grows by 10 (20 -> 30), shop commits 16 more
			// (12 -> 28); 2 left at 8/s gained.
			c.SetLogOffsets("orders", 0, 0, 30)
			c.Commit("shop", playground.Committed{Topic: "orders", Partition: 0, Offset: 28, LeaderEpoch: -1})
		}
	})
	r := runCLIWith(t, deps{clock: clk}, "--bootstrap-server", bootstrap(c), "overview", "--group", "shop", "--time-lag", "--watch", "--interval", "2s", "--count", "2")
	require.Equal(t, 0, r.code, r.stderr)
	first, second, ok := strings.Cut(r.stdout, "sample 2\n")
	require.True(t, ok, r.stdout)
	assert.NotContains(t, first, "rate:")
	assert.Contains(t, second, "rate: shop: sub-topology 0 consumes 8.0/s, input 5.0/s, catches up in about 2s\n")
	assert.Contains(t, second, "rate: shop: sub-topology 1 consumes 0.0/s, input 0.0/s, falling behind\n")
}

// overview and check measure the time lag unless --time-lag=false: the
// Fetch is sent and the figures shown by default, and neither without.
func TestTimeLag_onByDefault(t *testing.T) {
	t.Parallel()
	isolate(t)
	for _, tc := range []struct {
		name       string
		args       []string
		fetch      bool
		shown, not string
	}{
		{"overview default", []string{"overview", "--group", "shop"}, true, "  Time lag:      ", ""},
		{"overview off", []string{"overview", "--group", "shop", "--time-lag=false"}, false, "", "Time lag"},
		{"check default", []string{"check", "--group", "shop"}, true, "'shop time_lag'=", ""},
		{"check off", []string{"check", "--group", "shop", "--time-lag=false"}, false, "", "time_lag"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := timeLagCluster(t)
			r := runCLIWith(t, deps{clock: newFakeClock(nil)}, append([]string{"--bootstrap-server", bootstrap(c)}, tc.args...)...)
			require.Equal(t, 0, r.code, r.stderr)
			assert.Empty(t, r.stderr)
			if tc.fetch {
				assert.NotEmpty(t, requestsWithKey(c, 1), "the records are read")
				assert.Contains(t, r.stdout, tc.shown)
			} else {
				assert.Empty(t, requestsWithKey(c, 1), "no Fetch")
				assert.NotContains(t, r.stdout, tc.not)
			}
		})
	}
}

// A principal that may DESCRIBE a topic but not READ it (Fetch answers
// TOPIC_AUTHORIZATION_FAILED) gets the offset lag and one note naming the
// topic and the ACL, never an error: overview and check exit as without
// the refusal.
func TestTimeLag_readDenied(t *testing.T) {
	t.Parallel()
	isolate(t)
	data, err := os.ReadFile("../../internal/playground/seed/timelag.yaml")
	require.NoError(t, err)
	s, err := playground.ParseState(append(data, "faults:\n  - {key: 1, topic: orders, error_code: 29}\n"...))
	require.NoError(t, err)
	c, err := playground.StartStateWith(testPlayground, s)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	note := "note: no time lag for topic 'orders': this principal may not read it (the offset lag is shown); " +
		"the time lag needs the ACL ALLOW READ on TOPIC 'orders' (kafka-acls.sh --add --operation Read --topic 'orders' --allow-principal ...)\n"
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"overview", []string{"overview", "--group", "shop"}, "Sub-topology 0: 3 tasks, lag 12 (largest task 0_0: 8), time lag -"},
		{"overview json", []string{"overview", "--group", "shop", "-o", "json"}, `"group": "shop"`},
		{"check", []string{"check", "--group", "shop", "-v"}, "STREAMS OK - shop: Stable, 1 member, lag 9918"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLIWith(t, deps{clock: newFakeClock(nil)}, append([]string{"--bootstrap-server", bootstrap(c)}, tc.args...)...)
			require.Equal(t, 0, r.code, r.stderr)
			assert.Equal(t, note, r.stderr, "one note, on stderr")
			assert.Contains(t, r.stdout, tc.want)
		})
	}
}

// A broker that does not offer Fetch: the time lag only enriches the
// overview, so the overview is printed at once with the time lag unknown
// and the reason, not after --timeout (issue 30).
func TestOverviewTimeLag_fetchUnsupported(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := timeLagCluster(t)
	c.SetUnsupported(1)
	start := time.Now()
	r := runCLIWith(t, deps{clock: newFakeClock(nil)}, "--bootstrap-server", bootstrap(c), "--timeout", "8s", "overview", "--time-lag", "--group", "shop", "-o", "json")
	assert.Less(t, time.Since(start), 4*time.Second, "well under --timeout 8s")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, `does not offer Fetch (its ApiVersions answer leaves it out)`)
	var doc struct {
		Groups []struct {
			Group   string `json:"group"`
			TimeLag tlDoc  `json:"time_lag"`
		} `json:"groups"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &doc))
	require.Len(t, doc.Groups, 1)
	assert.Nil(t, doc.Groups[0].TimeLag.Milliseconds, "not known")
}

// futureCluster: group fut has committed offset 0 of in-0, whose 100
// records are first (stamped first) then 99 stamped rest.
func futureCluster(t *testing.T, first, rest int64) *playground.Cluster {
	t.Helper()
	ts := []string{fmt.Sprint(first)}
	for range 99 {
		ts = append(ts, fmt.Sprint(rest))
	}
	s, err := playground.ParseState(fmt.Appendf(nil, `topics:
  - {name: in, partitions: 1, end_offsets: [100], timestamps: [[%s]]}
streams_groups:
  - id: fut
    state: Stable
    group_epoch: 1
    assignment_epoch: 1
    topology: {epoch: 0, subtopologies: [{id: "0", source_topics: [in]}]}
    members:
      - member_id: m-1
        member_epoch: 1
        process_id: p-1
        assignment: {active: {"0": [0]}}
        target_assignment: {active: {"0": [0]}}
    committed_offsets:
      - {topic: in, partition: 0, offset: 0}
`, strings.Join(ts, ",")))
	require.NoError(t, err)
	c, err := playground.StartState(s)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// W4 of issue 30: a record stamped in the future at the committed offset is
// no time lag of 0 while the 99 records after it are 10 days old; the time
// lag is theirs. 2^63-1 is no time either; when no later record has a
// plausible time, the time lag is unknown, with the reason.
func TestCheckTimeLag_future(t *testing.T) {
	t.Parallel()
	isolate(t)
	now := newFakeClock(nil).Now()
	old := now.Add(-240 * time.Hour).UnixMilli()
	for _, tc := range []struct {
		name        string
		first, rest int64
		code        int
		want        string
	}{
		{"ten days ahead", now.Add(240 * time.Hour).UnixMilli(), old, 2, "STREAMS CRITICAL - fut CRITICAL: time lag 240h0m0s > 1h0m0s |"},
		{"2^63-1", math.MaxInt64, old, 2, "STREAMS CRITICAL - fut CRITICAL: time lag 240h0m0s > 1h0m0s |"},
		{"nothing plausible", math.MaxInt64, now.Add(2 * time.Hour).UnixMilli(), 3,
			"STREAMS UNKNOWN - fut UNKNOWN: time lag cannot be measured: the record at offset 0 is stamped 9223372036854775807 ms since the epoch, after now beyond the 1m0s clock-skew allowance, and no later record up to the log end has a plausible time (100 skipped) |"},
		{"within the allowance", now.Add(30 * time.Second).UnixMilli(), old, 0, "STREAMS OK - fut: Stable, 1 member, lag 100, time lag 0s,"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := futureCluster(t, tc.first, tc.rest)
			r := runCLIWith(t, deps{clock: newFakeClock(nil)}, "--bootstrap-server", bootstrap(c), "check", "--group", "fut", "--time-lag-critical", "1h")
			assert.Equal(t, tc.code, r.code, r.stdout+r.stderr)
			assert.True(t, strings.HasPrefix(r.stdout, tc.want), r.stdout)
		})
	}

	c := futureCluster(t, math.MaxInt64, old)
	r := runCLIWith(t, deps{clock: newFakeClock(nil)}, "--bootstrap-server", bootstrap(c), "overview", "--time-lag", "--group", "fut", "-o", "json")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, `"milliseconds": 864000000,`)
	assert.Contains(t, r.stdout, `"first_record_timestamp": `+fmt.Sprint(old)+`,`)
	assert.Contains(t, r.stdout, `"future_records": 1`)
}
