package main

import (
	"encoding/json"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/format/promtest"
	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// lagCluster serves testdata/lag.yaml: lag that sums used to hide, a
// missing source topic, names that used to collide.
func lagCluster(t *testing.T) *playground.Cluster {
	return seededCluster(t, "testdata/lag.yaml")
}

// Lag must not lie (issue 19): a committed offset past the log end does not
// cancel another task's lag and is shown as what it is; sums do not wrap
// around; a source topic that does not exist is named, CRITICAL in check.
func TestLag_mustNotLie(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := lagCluster(t)
	bs := bootstrap(c)

	t.Run("committed past the log end", func(t *testing.T) {
		r := runCLI(t, "--bootstrap-server", bs, "check", "--group", "truncated", "--lag-critical", "5000")
		assert.Equal(t, 2, r.code, "one task is 10,000 behind: it used to read lag 0, OK")
		assert.True(t, strings.HasPrefix(r.stdout, "STREAMS CRITICAL - truncated CRITICAL: 1 partition committed past the log end (lag counted as 0): in-0 at 10010 > 10, lag 10000 > 5000 | 'truncated lag'=10000;;5000;0 "), r.stdout)

		r = runCLI(t, "--bootstrap-server", bs, "check", "--group", "truncated", "-v")
		assert.Equal(t, 1, r.code, "a WARNING without any threshold")
		golden.Assert(t, []byte(r.stdout))
		assert.Contains(t, r.stdout, "\n  truncated: in-0 committed 10010, past the log end 10 (lag counted as 0)\n", "its own line in the long text")

		r = runCLI(t, "--bootstrap-server", bs, "overview", "--group", "truncated")
		assert.Equal(t, 0, r.code, r.stderr)
		goldenAs(t, "overview", string(stableOverview(c, r.stdout)))

		r = runCLI(t, "--bootstrap-server", bs, "-o", "json", "overview", "--group", "truncated")
		assert.Equal(t, 0, r.code, r.stderr)
		var doc struct {
			Groups []struct {
				Lag           int64 `json:"lag"`
				Subtopologies []struct {
					Lag   int64 `json:"lag"`
					Tasks []struct {
						Lag     int64 `json:"lag"`
						Offsets []struct {
							Lag   int64  `json:"lag"`
							Ahead *int64 `json:"ahead_of_log_end"`
						} `json:"offsets"`
					} `json:"tasks"`
				} `json:"subtopologies"`
			} `json:"groups"`
		}
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &doc), r.stdout)
		g := doc.Groups[0]
		assert.EqualValues(t, 10000, g.Lag)
		assert.EqualValues(t, 10000, g.Subtopologies[0].Lag)
		t0 := g.Subtopologies[0].Tasks[0]
		assert.EqualValues(t, 0, t0.Lag)
		require.NotNil(t, t0.Offsets[0].Ahead)
		assert.EqualValues(t, 10000, *t0.Offsets[0].Ahead)
		assert.Nil(t, g.Subtopologies[0].Tasks[1].Offsets[0].Ahead, "present only when ahead")

		r = runCLI(t, "--bootstrap-server", bs, "-o", "yaml", "overview", "--group", "truncated")
		assert.Contains(t, r.stdout, "ahead_of_log_end: 10000\n")

		r = runCLI(t, "--bootstrap-server", bs, "-o", "prometheus", "overview", "--group", "truncated")
		fams := promtest.Parse(t, r.stdout)
		assert.EqualValues(t, 10000, promtest.Value(t, fams, "kstreams_group_lag", "group", "truncated"))
		assert.EqualValues(t, 1, promtest.Value(t, fams, "kstreams_group_partitions_ahead", "group", "truncated"))
	})

	t.Run("sums saturate", func(t *testing.T) {
		r := runCLI(t, "--bootstrap-server", bs, "check", "--group", "overflow", "--lag-critical", "5000")
		assert.Equal(t, 2, r.code, "two partitions 2^63-1 behind used to read -2, OK")
		assert.Contains(t, r.stdout, "overflow CRITICAL: lag 9223372036854775807 > 5000 | 'overflow lag'=9223372036854775807;;5000;0 ")

		r = runCLI(t, "--bootstrap-server", bs, "-o", "prometheus", "overview", "--group", "overflow")
		// Saturated, not wrapped to a negative sum: 2^63-1 as the float
		// every Prometheus value is (expfmt writes 9.223372036854776e+18).
		fams := promtest.Parse(t, r.stdout)
		assert.EqualValues(t, float64(math.MaxInt64), promtest.Value(t, fams, "kstreams_group_lag", "group", "overflow"))
		assert.EqualValues(t, float64(math.MaxInt64), promtest.Value(t, fams, "kstreams_subtopology_lag", "group", "overflow", "subtopology", "0"))
	})

	t.Run("a source topic that does not exist", func(t *testing.T) {
		r := runCLI(t, "--bootstrap-server", bs, "check", "--group", "orphan")
		assert.Equal(t, 2, r.code, "it used to read OK")
		assert.True(t, strings.HasPrefix(r.stdout, "STREAMS CRITICAL - orphan CRITICAL: source topic gone does not exist | "), r.stdout)

		r = runCLI(t, "--bootstrap-server", bs, "-o", "json", "check", "--group", "orphan")
		assert.Contains(t, r.stdout, `"condition": "source-topic"`)

		r = runCLI(t, "--bootstrap-server", bs, "overview", "--group", "orphan")
		assert.Equal(t, 0, r.code, r.stderr)
		goldenAs(t, "overview", string(stableOverview(c, r.stdout)))

		r = runCLI(t, "--bootstrap-server", bs, "-o", "json", "overview", "--group", "orphan")
		assert.Contains(t, r.stdout, `"topic": "gone",
              "repartition": false,
              "lag": 0,
              "missing": true`)

		r = runCLI(t, "--bootstrap-server", bs, "describe", "--offsets", "--group", "orphan")
		assert.Equal(t, 1, r.code, "describe of the same group fails: check agrees now")
		assert.Contains(t, r.stderr, "UNKNOWN_TOPIC_OR_PARTITION")
	})
}

// Names that used to give one perfdata label (a'b, a_b, a=b) or one
// Prometheus series (a CR, and the text \x0D) give one each, and the
// exposition passes the Prometheus parser and promtool.
func TestLag_collidingNames(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := lagCluster(t)
	names := []string{"a'b", "a_b", "a=b", "c\rx", `c\x0Dx`}
	args := []string{"--bootstrap-server", bootstrap(c), "check"}
	for _, n := range names {
		args = append(args, "--group", n)
	}

	r := runCLI(t, args...)
	assert.Equal(t, 0, r.code, r.stdout)
	labels := regexp.MustCompile(`'([^']*) lag'=`).FindAllStringSubmatch(r.stdout, -1)
	require.Len(t, labels, len(names), r.stdout)
	got := map[string]bool{}
	for _, l := range labels {
		got[l[1]] = true
	}
	assert.Equal(t, map[string]bool{`a\x27b`: true, "a_b": true, `a\x3Db`: true, `c\x0Dx`: true, `c\\x0Dx`: true}, got)

	r = runCLI(t, append([]string{"-o", "prometheus"}, args...)...)
	assert.Equal(t, 0, r.code, r.stderr)
	fams := promtest.Parse(t, r.stdout)
	require.Len(t, fams["kstreams_group_lag"].GetMetric(), len(names), r.stdout)
	for _, v := range []string{"a'b", "a_b", "a=b", `c\x0Dx`, `c\\x0Dx`} {
		assert.True(t, promtest.Has(fams, "kstreams_group_lag", "group", v), "series for %q:\n%s", v, r.stdout)
	}
	promtest.Promtool(t, r.stdout)
}

// check and doctor cut a broker's error message as every verb does
// (format.EscapeMessage): a 1 MB message used to give a 7 MB status line.
// The message rides a fault of the playground, as in
// TestHostile_longBrokerMessages; JSON keeps it whole.
func TestHostile_longBrokerMessagesCheckDoctor(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := startCluster(t, 1, playground.Kafka44)
	long := "no\x1b[2J" + strings.Repeat("m", 1<<20)
	c.PutStreamsGroup(streamsGroup("g", nil))
	c.InjectError(playground.Fault{Key: keyStreamsGroupDescribe, Group: "g", ErrorCode: 69, ErrorMessage: &long, Node: playground.AnyNode})
	head := "GROUP_ID_NOT_FOUND: no^[[2J"
	cut := func(prefix string) string {
		return prefix + head + strings.Repeat("m", 1000-len(prefix)-len(head)) + " [cut: the message has " + itoa(len(prefix)+len(head)+1<<20) + " characters; -o json shows it whole]"
	}

	// runHostile takes exit 2 for a usage error; check's 2 is CRITICAL.
	r := runCLI(t, "--bootstrap-server", bootstrap(c), "check", "--group", "g", "-v")
	assert.Equal(t, 2, r.code)
	noRawControlBytes(t, "stdout", r.stdout)
	assert.Equal(t, "STREAMS CRITICAL - g CRITICAL: "+cut("")+"\ng: CRITICAL - "+cut("")+"\n", r.stdout)
	assert.Less(t, len(r.stdout), 3000)

	r = runCLI(t, "--bootstrap-server", bootstrap(c), "-o", "json", "check", "--group", "g")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stdout, `"message": "GROUP_ID_NOT_FOUND: no\u001b[2J`+strings.Repeat("m", 1<<20)+`"`, "JSON keeps it whole")

	r = runHostile(t, hostileCase{args: []string{"--bootstrap-server", bootstrap(c), "doctor", "--group", "g"}, code: 1})
	assert.Contains(t, r.stdout, "\n  PROBLEM  "+cut("there is no streams group g: ")+"\n")
	assert.Less(t, len(r.stdout), 4000)

	// The message of a DescribeConfigs answer, in doctor's plugin finding.
	c.InjectError(playground.Fault{Key: 32, ErrorCode: 31, ErrorMessage: &long, Node: playground.AnyNode})
	c.PutStreamsGroup(streamsGroup("h", nil))
	r = runHostile(t, hostileCase{args: []string{"--bootstrap-server", bootstrap(c), "doctor", "--group", "h"}, code: 1})
	assert.Contains(t, r.stdout, "cannot read group.streams.topology.description.plugin.class of coordinator 0: CLUSTER_AUTHORIZATION_FAILED: no^[[2Jmmm")
	assert.Contains(t, r.stdout, " characters; -o json shows it whole]\n")
	assert.Less(t, len(r.stdout), 4000)
}
