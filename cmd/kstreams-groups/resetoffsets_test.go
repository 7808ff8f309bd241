package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

const (
	keyListOffsets  = 2
	keyOffsetCommit = 8
	keyOffsetFetch  = 9
	keyOffsetDelete = 47
	resetHeader     = "\nGROUP                          TOPIC                          PARTITION  NEW-OFFSET     "
	wcRow           = "\nwc                             wc-input                       "
	warnP1FallsBack = "\nWarn: Partition 1 from topic wc-input is empty. Falling back to latest known offset.\n"
	notPartOfWc     = "\nError: One or more topics are not part of the group 'wc'.\n"
	wcLiveIsActive  = "\nError: Assignments can only be reset if the group 'wc-live' is inactive, but the current state is Stable.\n"
	committedTwoWc  = "Committed the new offsets of 2 partitions for streams group 'wc'.\n"
)

// offsetsCluster is the playground seeded with seed/offsets.yaml: the
// word count application of the reference notes stopped (wc, Empty:
// wc-input p0 committed at 12 of 10..20, p1 at 7 of 0..10, p2 empty and
// never committed) and running (wc-live, Stable), and the stateless ds.
func offsetsCluster(t *testing.T) *playground.Cluster {
	return seededCluster(t, "../../internal/playground/seed/offsets.yaml")
}

// row is one row of Kafka's plan table.
func row(group, topic string, partition, offset int) string {
	return "\n" + pad30(group) + " " + pad30(topic) + " " + padN(itoa(partition), 10) + " " + padN(itoa(offset), 15)
}

func pad30(s string) string { return padN(s, 30) }

func padN(s string, n int) string {
	if len(s) >= n {
		return s
	}
	return s + strings.Repeat(" ", n-len(s))
}

// committedOf returns a group's committed offsets as "topic-p=offset".
func committedOf(c *playground.Cluster, group string) []string {
	var out []string
	for _, o := range c.CommittedOffsets(group) {
		out = append(out, o.Topic+"-"+itoa(int(o.Partition))+"="+itoa(int(o.Offset)))
	}
	return out
}

func keysSent(c *playground.Cluster, key int16) int {
	n := 0
	for _, r := range c.Requests() {
		if r.Key == key {
			n++
		}
	}
	return n
}

var wcBefore = []string{"wc-input-0=12", "wc-input-1=7", "wc-word-counts-repartition-0=36", "wc-word-counts-repartition-1=30", "wc-word-counts-repartition-2=24"}

type offsetsCase struct {
	name         string
	args         []string
	setup        func(t *testing.T, c *playground.Cluster)
	wantStdout   string // exact, unless wantGolden
	wantGolden   bool
	wantStderr   string // exact
	wantCode     int
	wantDetailed int
	check        func(t *testing.T, c *playground.Cluster)
}

// runOffsetsCases runs each case twice, without and with
// --detailed-exit-codes, each time on a fresh offsetsCluster, and checks
// stdout, stderr, the exit code and the cluster afterwards.
func runOffsetsCases(t *testing.T, tests []offsetsCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			isolate(t)
			for _, detailed := range []bool{false, true} {
				c := offsetsCluster(t)
				if tc.setup != nil {
					tc.setup(t, c)
				}
				c.ResetRequests()
				args := append([]string{"--bootstrap-server", bootstrap(c)}, tc.args...)
				want := tc.wantCode
				if detailed {
					args, want = append(args, "--detailed-exit-codes"), tc.wantDetailed
				}
				r := runCLI(t, args...)
				assert.Equal(t, want, r.code, "exit code (detailed=%v); stderr: %s", detailed, r.stderr)
				if tc.wantGolden {
					golden.Assert(t, []byte(randomPorts.ReplaceAllString(r.stdout, "${1}PORT")))
				} else {
					assert.Equal(t, tc.wantStdout, r.stdout, "stdout")
				}
				assert.Equal(t, tc.wantStderr, r.stderr, "stderr")
				if tc.check != nil {
					tc.check(t, c)
				}
			}
		})
	}
}

func unchanged(t *testing.T, c *playground.Cluster) {
	t.Helper()
	assert.Equal(t, wcBefore, committedOf(c, "wc"), "nothing is committed")
	assert.Zero(t, keysSent(c, keyOffsetCommit), "no OffsetCommit is sent")
}

// Every scope and scenario, as the real 4.4.0 tool prints them
// (../shared/reference/kafka-streams-groups-offsets.md §1.8 has the same
// seed's live output, checked again by e2e/offsets_test.go).
func TestResetOffsets_scopesAndScenarios(t *testing.T) {
	t.Parallel()
	dry := func(args ...string) []string {
		return append([]string{"--reset-offsets", "--group", "wc"}, append(args, "--dry-run")...)
	}
	runOffsetsCases(t, []offsetsCase{
		{name: "all input topics: the committed partitions of the source topics", args: dry("--all-input-topics", "--to-earliest"),
			wantStdout: resetHeader + row("wc", "wc-input", 0, 10) + row("wc", "wc-input", 1, 0) + "\n", check: unchanged},
		{name: "the subcommand prints the same", args: []string{"reset-offsets", "--group", "wc", "--all-input-topics", "--to-earliest", "--dry-run"},
			wantStdout: resetHeader + row("wc", "wc-input", 0, 10) + row("wc", "wc-input", 1, 0) + "\n"},
		{name: "one partition to an offset", args: dry("--input-topic", "wc-input:0", "--to-offset", "12"),
			wantStdout: resetHeader + row("wc", "wc-input", 0, 12) + "\n"},
		{name: "a topic with a partition the group never committed", args: dry("--input-topic", "wc-input", "--to-earliest"),
			wantStdout: notPartOfWc + resetHeader + "\n", wantCode: 1, wantDetailed: exitNoResetPlan},
		{name: "an uncommitted partition named", args: dry("--input-topic", "wc-input:2", "--to-earliest"),
			wantStdout: notPartOfWc + resetHeader + "\n", wantCode: 1, wantDetailed: exitNoResetPlan},
		{name: "a repartition topic named is reset", args: dry("--input-topic", "wc-word-counts-repartition", "--to-earliest"),
			wantStdout: resetHeader + row("wc", "wc-word-counts-repartition", 0, 0) + row("wc", "wc-word-counts-repartition", 1, 0) + row("wc", "wc-word-counts-repartition", 2, 0) + "\n"},
		{name: "all input topics win over input topic", args: dry("--all-input-topics", "--input-topic", "wc-word-counts-repartition", "--to-latest"),
			wantStdout: resetHeader + row("wc", "wc-input", 0, 20) + row("wc", "wc-input", 1, 10) + "\n"},
		{name: "repeated partitions are merged", args: dry("--input-topic", "wc-input:1", "--input-topic", "wc-input:1,0", "--input-topic", "wc-input:0", "--to-current"),
			wantStdout: resetHeader + row("wc", "wc-input", 0, 12) + row("wc", "wc-input", 1, 7) + "\n"},
		{name: "a partition the topic lacks", args: dry("--input-topic", "wc-input:5", "--input-topic", "wc-input:7", "--to-earliest"),
			wantStderr: "Error: UNKNOWN_TOPIC_OR_PARTITION: The partitions \"wc-input-5,wc-input-7\" do not exist\n", wantCode: 1, wantDetailed: 1, check: unchanged},
		{name: "a topic that does not exist", args: dry("--input-topic", "nosuch", "--to-earliest"),
			wantStderr: "Error: UNKNOWN_TOPIC_OR_PARTITION: Topic 'nosuch' does not exist.\n", wantCode: 1, wantDetailed: 1},
		{name: "to latest", args: dry("--all-input-topics", "--to-latest"),
			wantStdout: resetHeader + row("wc", "wc-input", 0, 20) + row("wc", "wc-input", 1, 10) + "\n"},
		{name: "to current", args: dry("--all-input-topics", "--to-current"),
			wantStdout: resetHeader + row("wc", "wc-input", 0, 12) + row("wc", "wc-input", 1, 7) + "\n"},
		{name: "shift by inside the log", args: dry("--all-input-topics", "--shift-by", "3"),
			wantStdout: resetHeader + row("wc", "wc-input", 0, 15) + row("wc", "wc-input", 1, 10) + "\n"},
		{name: "shift by past the log end is clamped", args: dry("--all-input-topics", "--shift-by", "5"),
			wantStdout: resetHeader + row("wc", "wc-input", 0, 17) + row("wc", "wc-input", 1, 10) + "\n",
			wantStderr: "Warn: New offset (12) is higher than latest offset for topic partition wc-input-1. Value will be set to 10.\n"},
		{name: "shift by before the log start is clamped", args: dry("--all-input-topics", "--shift-by", "-5"),
			wantStdout: resetHeader + row("wc", "wc-input", 0, 10) + row("wc", "wc-input", 1, 2) + "\n",
			wantStderr: "Warn: New offset (7) is lower than earliest offset for topic partition wc-input-0. Value will be set to 10.\n"},
		{name: "to offset clamped both ways", args: dry("--input-topic", "wc-input:0", "--input-topic", "wc-input:1", "--to-offset", "15"),
			wantStdout: resetHeader + row("wc", "wc-input", 0, 15) + row("wc", "wc-input", 1, 10) + "\n",
			wantStderr: "Warn: New offset (15) is higher than latest offset for topic partition wc-input-1. Value will be set to 10.\n"},
		{name: "a negative offset is clamped to the log start", args: dry("--all-input-topics", "--to-offset", "-5"),
			wantStdout: resetHeader + row("wc", "wc-input", 0, 10) + row("wc", "wc-input", 1, 0) + "\n",
			wantStderr: "Warn: New offset (-5) is lower than earliest offset for topic partition wc-input-0. Value will be set to 10.\n" +
				"Warn: New offset (-5) is lower than earliest offset for topic partition wc-input-1. Value will be set to 0.\n"},
		{name: "to datetime without a zone is UTC", args: dry("--all-input-topics", "--to-datetime", "2020-01-01T05:00:00.000"),
			wantStdout: warnP1FallsBack + resetHeader + row("wc", "wc-input", 0, 15) + row("wc", "wc-input", 1, 10) + "\n"},
		{name: "to datetime with a zone", args: dry("--all-input-topics", "--to-datetime", "2020-01-01T05:00:00.000+02:00"),
			wantStdout: resetHeader + row("wc", "wc-input", 0, 13) + row("wc", "wc-input", 1, 8) + "\n"},
		{name: "to datetime seconds without milliseconds", args: dry("--all-input-topics", "--to-datetime", "2020-01-01T05:00:00Z"),
			wantStdout: warnP1FallsBack + resetHeader + row("wc", "wc-input", 0, 15) + row("wc", "wc-input", 1, 10) + "\n"},
		{name: "a colon-less offset keeps its minutes, as ISO 8601 reads it", args: dry("--all-input-topics", "--to-datetime", "2020-01-01T07:30:00.000+0530"),
			// 02:00Z; the Java tool reads +05 and finds the records of 02:30Z: 13 and 8.
			wantStdout: resetHeader + row("wc", "wc-input", 0, 12) + row("wc", "wc-input", 1, 7) + "\n"},
		{name: "to datetime before every record", args: dry("--all-input-topics", "--to-datetime", "2000-01-01T00:00:00.000"),
			wantStdout: resetHeader + row("wc", "wc-input", 0, 10) + row("wc", "wc-input", 1, 0) + "\n"},
		{name: "by duration into the future falls back to the log end", args: dry("--all-input-topics", "--by-duration", "-PT1H"),
			wantStdout: "\nWarn: Partition 0 from topic wc-input is empty. Falling back to latest known offset.\n" + warnP1FallsBack +
				resetHeader + row("wc", "wc-input", 0, 20) + row("wc", "wc-input", 1, 10) + "\n"},
		{name: "by duration", args: dry("--all-input-topics", "--by-duration", "PT2H30M"),
			setup: func(t *testing.T, c *playground.Cluster) {
				// p0 10..19 written an hour apart up to an hour ago; p1 0..9 up to ten hours ago.
				now := time.Now().UnixMilli()
				var p0, p1 []int64
				for i := range 10 {
					p0 = append(p0, now-int64(10-i)*time.Hour.Milliseconds())
					p1 = append(p1, now-int64(19-i)*time.Hour.Milliseconds())
				}
				c.SetRecordTimestamps("wc-input", 0, p0)
				c.SetRecordTimestamps("wc-input", 1, p1)
			},
			wantStdout: warnP1FallsBack + resetHeader + row("wc", "wc-input", 0, 18) + row("wc", "wc-input", 1, 10) + "\n"},
		{name: "by duration in days, lower case", args: dry("--all-input-topics", "--by-duration", "p3650d"),
			wantStdout: resetHeader + row("wc", "wc-input", 0, 10) + row("wc", "wc-input", 1, 0) + "\n"},
	})
}

// Which groups are reset, and the deliberate differences around them.
func TestResetOffsets_groups(t *testing.T) {
	t.Parallel()
	runOffsetsCases(t, []offsetsCase{
		{name: "an active group is left alone and fails the command after the others",
			args:       []string{"--reset-offsets", "--group", "wc-live", "--group", "wc", "--all-input-topics", "--to-earliest", "--dry-run"},
			wantStdout: wcLiveIsActive + resetHeader + row("wc", "wc-input", 0, 10) + row("wc", "wc-input", 1, 0) + "\n",
			wantCode:   1, wantDetailed: exitGroupActive},
		{name: "an active group alone prints the header",
			args:       []string{"--reset-offsets", "--group", "wc-live", "--input-topic", "wc-input", "--to-earliest", "--execute"},
			wantStdout: wcLiveIsActive + resetHeader + "\n",
			wantCode:   1, wantDetailed: exitGroupActive,
			check: func(t *testing.T, c *playground.Cluster) {
				assert.Zero(t, keysSent(c, keyOffsetCommit))
				assert.Zero(t, keysSent(c, keyListOffsets), "nothing is planned for it")
				assert.Equal(t, []string{"wc-input-0=20", "wc-input-1=10"}, committedOf(c, "wc-live"))
			}},
		{name: "a group that does not exist is refused before anything is sent",
			args:       []string{"--reset-offsets", "--group", "nosuch", "--from-file", "/dev/null", "--execute"},
			wantStdout: "\n", wantStderr: "Error: streams group 'nosuch': GROUP_ID_NOT_FOUND: Group nosuch not found.\n",
			wantCode: 1, wantDetailed: exitNotFound,
			check: func(t *testing.T, c *playground.Cluster) {
				assert.False(t, c.HasGroup("nosuch"), "the Java tool's commit would create a classic group")
				assert.Zero(t, keysSent(c, keyOffsetCommit))
			}},
		{name: "a classic group is refused",
			args:       []string{"--reset-offsets", "--group", "legacy-consumer", "--group", "wc", "--all-input-topics", "--to-earliest", "--execute"},
			wantStdout: resetHeader + row("wc", "wc-input", 0, 10) + row("wc", "wc-input", 1, 0) + "\n",
			wantStderr: "Error: streams group 'legacy-consumer': GROUP_ID_NOT_FOUND: Group legacy-consumer is not a streams group.\n" + committedTwoWc,
			wantCode:   1, wantDetailed: exitNotFound,
			check: func(t *testing.T, c *playground.Cluster) {
				assert.Equal(t, 1, keysSent(c, keyOffsetCommit), "one commit, for wc")
				assert.Empty(t, c.CommittedOffsets("legacy-consumer"))
			}},
		{name: "all groups are the streams groups sorted by id",
			args:       []string{"--reset-offsets", "--all-groups", "--all-input-topics", "--to-latest", "--dry-run"},
			wantStdout: wcLiveIsActive + resetHeader + row("ds", "pt-input-a", 0, 8) + row("ds", "pt-input-b", 0, 4) + row("wc", "wc-input", 0, 20) + row("wc", "wc-input", 1, 10) + "\n",
			wantCode:   1, wantDetailed: exitGroupActive},
		{name: "a repeated group counts once",
			args:       []string{"--reset-offsets", "--group", "wc", "--group", "wc", "--all-input-topics", "--to-latest", "--dry-run"},
			wantStdout: resetHeader + row("wc", "wc-input", 0, 20) + row("wc", "wc-input", 1, 10) + "\n"},
		{name: "a group whose commit finds it active: the group became active",
			args: []string{"--reset-offsets", "--group", "wc", "--all-input-topics", "--to-earliest", "--execute"},
			setup: func(t *testing.T, c *playground.Cluster) {
				// What a real broker answers an admin commit for a group that gained a member.
				c.InjectError(playground.Fault{Key: keyOffsetCommit, Group: "wc", ErrorCode: kerr.UnknownMemberID.Code, Node: playground.AnyNode})
			},
			wantStdout: resetHeader + row("wc", "wc-input", 0, 10) + row("wc", "wc-input", 1, 0) + "\n",
			wantStderr: "Error: streams group 'wc' became active before its offsets were committed, so the broker refused the commit (UNKNOWN_MEMBER_ID: The coordinator is not aware of this member.); nothing was committed\n",
			wantCode:   1, wantDetailed: exitGroupActive,
			check: func(t *testing.T, c *playground.Cluster) { assert.Equal(t, wcBefore, committedOf(c, "wc")) }},
	})
}

// --execute commits the plan; the table is the same as the dry run's.
func TestResetOffsets_execute(t *testing.T) {
	t.Parallel()
	runOffsetsCases(t, []offsetsCase{
		{name: "commit", args: []string{"--reset-offsets", "--group", "wc", "--all-input-topics", "--to-offset", "15", "--execute"},
			wantStdout: resetHeader + row("wc", "wc-input", 0, 15) + row("wc", "wc-input", 1, 10) + "\n",
			wantStderr: "Warn: New offset (15) is higher than latest offset for topic partition wc-input-1. Value will be set to 10.\n" + committedTwoWc,
			check: func(t *testing.T, c *playground.Cluster) {
				assert.Equal(t, []string{"wc-input-0=15", "wc-input-1=10", "wc-word-counts-repartition-0=36", "wc-word-counts-repartition-1=30", "wc-word-counts-repartition-2=24"}, committedOf(c, "wc"))
				for _, o := range c.CommittedOffsets("wc")[:2] {
					assert.EqualValues(t, -1, o.LeaderEpoch, "the admin client's commit")
				}
				r := runCLI(t, "--bootstrap-server", bootstrap(c), "--reset-offsets", "--group", "wc", "--all-input-topics", "--to-current", "--dry-run")
				assert.Equal(t, resetHeader+row("wc", "wc-input", 0, 15)+row("wc", "wc-input", 1, 10)+"\n", r.stdout, "read back as the e2e test does")
			}},
		{name: "delete all internal topics after the commit", args: []string{"reset-offsets", "--group", "wc", "--all-input-topics", "--to-earliest", "--execute", "--delete-all-internal-topics"},
			wantStdout: resetHeader + row("wc", "wc-input", 0, 10) + row("wc", "wc-input", 1, 0) + "\n",
			wantStderr: committedTwoWc + "Deleted the internal topics of streams group 'wc': 'wc-word-counts-repartition', 'wc-word-counts-changelog'.\n",
			check: func(t *testing.T, c *playground.Cluster) {
				assert.False(t, c.HasTopic("wc-word-counts-repartition"))
				assert.False(t, c.HasTopic("wc-word-counts-changelog"))
				assert.True(t, c.HasTopic("wc-input"))
				assert.True(t, c.HasTopic("wc-live-word-counts-changelog"), "another group's topics stay")
			}},
		{name: "a stateless group has nothing to delete, and succeeds", args: []string{"--reset-offsets", "--group", "ds", "--all-input-topics", "--to-earliest", "--execute", "--delete-all-internal-topics"},
			wantStdout: resetHeader + row("ds", "pt-input-a", 0, 0) + row("ds", "pt-input-b", 0, 0) + "\n",
			wantStderr: "Committed the new offsets of 2 partitions for streams group 'ds'.\nStreams group 'ds' has no internal topics: nothing to delete.\n"},
		{name: "delete one internal topic", args: []string{"--reset-offsets", "--group", "wc", "--all-input-topics", "--to-earliest", "--execute", "--delete-internal-topic", "wc-word-counts-changelog"},
			wantStdout: resetHeader + row("wc", "wc-input", 0, 10) + row("wc", "wc-input", 1, 0) + "\n",
			wantStderr: committedTwoWc + "Deleted the internal topics of streams group 'wc': 'wc-word-counts-changelog'.\n",
			check: func(t *testing.T, c *playground.Cluster) {
				assert.False(t, c.HasTopic("wc-word-counts-changelog"))
				assert.True(t, c.HasTopic("wc-word-counts-repartition"))
			}},
		{name: "a user topic is refused before anything is committed", args: []string{"--reset-offsets", "--group", "wc", "--all-input-topics", "--to-earliest", "--execute", "--delete-internal-topic", "side"},
			wantStderr: "Error: --delete-internal-topic 'side' is not an internal topic of streams group 'wc' (its internal topics: 'wc-word-counts-repartition', 'wc-word-counts-changelog'); nothing was changed\n",
			wantCode:   1, wantDetailed: exitNotInternal,
			check: func(t *testing.T, c *playground.Cluster) {
				unchanged(t, c)
				assert.True(t, c.HasTopic("side"))
			}},
		{name: "another group's internal topic is refused", args: []string{"--reset-offsets", "--group", "wc", "--all-input-topics", "--to-earliest", "--execute", "--delete-internal-topic", "wc-word-counts-changelog", "--delete-internal-topic", "wc-live-word-counts-changelog"},
			wantStderr: "Error: --delete-internal-topic 'wc-live-word-counts-changelog' is not an internal topic of streams group 'wc' (its internal topics: 'wc-word-counts-repartition', 'wc-word-counts-changelog'); nothing was changed\n",
			wantCode:   1, wantDetailed: exitNotInternal, check: unchanged},
		{name: "delete all internal topics takes priority over the named ones", args: []string{"--reset-offsets", "--group", "wc", "--all-input-topics", "--to-earliest", "--execute", "--delete-all-internal-topics", "--delete-internal-topic", "side"},
			wantStdout: resetHeader + row("wc", "wc-input", 0, 10) + row("wc", "wc-input", 1, 0) + "\n",
			wantStderr: committedTwoWc + "Deleted the internal topics of streams group 'wc': 'wc-word-counts-repartition', 'wc-word-counts-changelog'.\n",
			check:      func(t *testing.T, c *playground.Cluster) { assert.True(t, c.HasTopic("side")) }},
		{name: "internal topics already gone", args: []string{"--reset-offsets", "--group", "wc", "--all-input-topics", "--to-earliest", "--execute", "--delete-all-internal-topics"},
			setup: func(t *testing.T, c *playground.Cluster) {
				c.RemoveTopic("wc-word-counts-changelog")
			},
			wantStdout: "\nError: Deleting internal topics for group 'wc' failed because the topics do not exist.\n" +
				resetHeader + row("wc", "wc-input", 0, 10) + row("wc", "wc-input", 1, 0) + "\n",
			wantStderr: committedTwoWc + "Deleted the internal topics of streams group 'wc': 'wc-word-counts-repartition'.\n",
			wantCode:   1, wantDetailed: 1,
			check: func(t *testing.T, c *playground.Cluster) {
				assert.False(t, c.HasTopic("wc-word-counts-repartition"), "the others are deleted")
			}},
		{name: "a topic the topology names that is not inferred as internal is left alone",
			args: []string{"--reset-offsets", "--group", "odd", "--all-input-topics", "--to-earliest", "--execute", "--delete-all-internal-topics"},
			setup: func(t *testing.T, c *playground.Cluster) {
				c.PutTopic("odd-store-changelog", 1)
				c.PutTopic("shared-changelog", 1)
				c.PutStreamsGroup(playground.StreamsGroup{ID: "odd", State: "Empty", Topology: &playground.Topology{Subtopologies: []playground.Subtopology{
					{ID: "0", SourceTopics: []string{"side"}, StateChangelogTopics: []playground.TopicInfo{{Name: "odd-store-changelog"}, {Name: "shared-changelog"}}}}}})
				c.Commit("odd", playground.Committed{Topic: "side", Partition: 0, Offset: 4, LeaderEpoch: -1})
			},
			wantStdout: "\nError: The internal topic 'shared-changelog' is not inferred as internal and thus will not be deleted with the group 'odd'.\n" +
				resetHeader + row("odd", "side", 0, 0) + "\n",
			wantStderr: "Committed the new offset of 1 partition for streams group 'odd'.\nDeleted the internal topics of streams group 'odd': 'odd-store-changelog'.\n",
			check:      func(t *testing.T, c *playground.Cluster) { assert.True(t, c.HasTopic("shared-changelog")) }},
		{name: "export with execute commits and prints the CSV", args: []string{"--reset-offsets", "--group", "wc", "--all-input-topics", "--to-latest", "--execute", "--export"},
			wantStdout: "wc-input,0,20\nwc-input,1,10\n\n", wantStderr: committedTwoWc,
			check: func(t *testing.T, c *playground.Cluster) { assert.Equal(t, "wc-input-0=20", committedOf(c, "wc")[0]) }},
	})
}

// --export writes the Java tool's CSV and --from-file reads it back, 3 or
// 4 columns, quoted or not.
func TestResetOffsets_exportAndFromFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		return p
	}
	three := file("three.csv", "wc-input,0,11\r\nwc-input,1,99\r\n\r\n")
	four := file("four.csv", "wc,wc-input,0,13\n\"ds\",\"pt-input-a\",0,2\nother,x,0,1\n")
	runOffsetsCases(t, []offsetsCase{
		{name: "export one group: three columns", args: []string{"--reset-offsets", "--group", "wc", "--all-input-topics", "--to-earliest", "--dry-run", "--export"},
			wantStdout: "wc-input,0,10\nwc-input,1,0\n\n"},
		{name: "export two groups: four columns", args: []string{"--reset-offsets", "--group", "wc", "--group", "ds", "--all-input-topics", "--to-current", "--dry-run", "--export"},
			wantStdout: "wc,wc-input,0,12\nwc,wc-input,1,7\nds,pt-input-a,0,3\nds,pt-input-b,0,4\n\n"},
		{name: "export: stdout is only CSV, the Java tool's lines go to stderr", args: []string{"--reset-offsets", "--group", "wc", "--group", "wc-live", "--all-input-topics", "--to-datetime", "2020-01-01T05:00:00.000", "--dry-run", "--export"},
			wantStdout: "wc,wc-input,0,15\nwc,wc-input,1,10\n\n",
			wantStderr: "Error: the offsets of streams group 'wc-live' can only be changed while it is Empty, but its state is Stable\n" +
				"Warn: Partition 1 from topic wc-input is empty. Falling back to latest known offset.\n",
			wantCode: 1, wantDetailed: exitGroupActive},
		{name: "from a three-column file (CRLF) with clamping", args: []string{"--reset-offsets", "--group", "wc", "--from-file", three, "--dry-run"},
			wantStdout: resetHeader + row("wc", "wc-input", 0, 11) + row("wc", "wc-input", 1, 10) + "\n",
			wantStderr: "Warn: New offset (99) is higher than latest offset for topic partition wc-input-1. Value will be set to 10.\n"},
		{name: "from a four-column file with quotes", args: []string{"--reset-offsets", "--group", "wc", "--group", "ds", "--from-file", four, "--execute"},
			wantStdout: resetHeader + row("wc", "wc-input", 0, 13) + row("ds", "pt-input-a", 0, 2) + "\n",
			wantStderr: "Committed the new offset of 1 partition for streams group 'wc'.\nCommitted the new offset of 1 partition for streams group 'ds'.\n",
			check: func(t *testing.T, c *playground.Cluster) {
				assert.Equal(t, []string{"pt-input-a-0=2", "pt-input-b-0=4"}, committedOf(c, "ds"))
				assert.Equal(t, "wc-input-0=13", committedOf(c, "wc")[0])
			}},
		{name: "a group the file lacks fails the command", args: []string{"--reset-offsets", "--group", "wc", "--group", "wc-live", "--group", "ds", "--from-file", file("wc.csv", "wc,wc-input,1,3\n"), "--dry-run"},
			wantStdout: wcLiveIsActive + "\nError: No reset plan for group ds found.\n" + resetHeader + row("wc", "wc-input", 1, 3) + "\n",
			wantCode:   1, wantDetailed: exitGroupActive},
		{name: "no plan for the only group", args: []string{"--reset-offsets", "--group", "ds", "--from-file", four, "--group", "x", "--dry-run"},
			setup: func(t *testing.T, c *playground.Cluster) {
				c.PutStreamsGroup(playground.StreamsGroup{ID: "x", State: "Empty"})
			},
			wantStdout: "\nError: No reset plan for group x found.\n" + resetHeader + row("ds", "pt-input-a", 0, 2) + "\n",
			wantCode:   1, wantDetailed: exitNoResetPlan},
	})

	// Round trip: the export of a plan is read back into the same plan.
	t.Run("round trip", func(t *testing.T) {
		isolate(t)
		c := offsetsCluster(t)
		long := "a-topic-name-longer-than-24-chars"
		c.PutTopic(long, 2)
		c.SetLogOffsets(long, 0, 0, 9)
		c.SetLogOffsets(long, 1, 0, 9)
		c.PutStreamsGroup(playground.StreamsGroup{ID: "g w", State: "Empty", Topology: &playground.Topology{Subtopologies: []playground.Subtopology{{ID: "0", SourceTopics: []string{long, "wc-input"}}}}})
		c.Commit("g w", playground.Committed{Topic: long, Partition: 1, Offset: 5, LeaderEpoch: -1})
		c.Commit("g w", playground.Committed{Topic: "wc-input", Partition: 0, Offset: 18, LeaderEpoch: -1})
		plan := []string{"--bootstrap-server", bootstrap(c), "--reset-offsets", "--group", "g w", "--group", "wc", "--all-input-topics", "--shift-by", "1", "--dry-run"}
		table := runCLI(t, plan...)
		require.Equal(t, 0, table.code, table.stderr)
		export := runCLI(t, append(plan, "--export")...)
		require.Equal(t, 0, export.code, export.stderr)
		assert.Equal(t, "\"g w\",\""+long+"\",1,6\n\"g w\",wc-input,0,19\nwc,wc-input,0,13\nwc,wc-input,1,8\n\n", export.stdout,
			"Jackson quotes values over 24 characters and values with a space")
		p := file("plan.csv", export.stdout)
		back := runCLI(t, "--bootstrap-server", bootstrap(c), "--reset-offsets", "--group", "g w", "--group", "wc", "--from-file", p, "--dry-run")
		assert.Equal(t, table, back)
		again := runCLI(t, "--bootstrap-server", bootstrap(c), "--reset-offsets", "--group", "g w", "--group", "wc", "--from-file", p, "--dry-run", "--export")
		assert.Equal(t, export, again)
	})
}

// -o json|yaml: per partition the committed, new, log start and log end
// offsets, and why a new offset is not the one asked for.
func TestResetOffsets_documents(t *testing.T) {
	t.Parallel()
	runOffsetsCases(t, []offsetsCase{
		{name: "json", args: []string{"--reset-offsets", "--group", "wc", "--group", "wc-live", "--group", "nosuch", "--all-input-topics", "--to-offset", "15", "--dry-run", "-o", "json"},
			wantGolden: true,
			wantStderr: "Error: the offsets of streams group 'wc-live' can only be changed while it is Empty, but its state is Stable\n" +
				"Error: streams group 'nosuch': GROUP_ID_NOT_FOUND: Group nosuch not found.\n" +
				"Warn: New offset (15) is higher than latest offset for topic partition wc-input-1. Value will be set to 10.\n",
			wantCode: 1, wantDetailed: exitGroupActive},
		{name: "yaml", args: []string{"reset-offsets", "--group", "wc", "--all-input-topics", "--to-datetime", "2020-01-01T05:00:00Z", "--execute", "--delete-all-internal-topics", "-o", "yaml"},
			wantGolden: true,
			wantStderr: committedTwoWc + "Deleted the internal topics of streams group 'wc': 'wc-word-counts-repartition', 'wc-word-counts-changelog'.\n"},
		{name: "json of a file without the group", args: []string{"reset-offsets", "--group", "wc", "--from-file", "/dev/null", "--dry-run", "-o", "json"},
			wantGolden: true,
			wantStderr: "Error: --from-file has no reset plan for streams group 'wc'\n",
			wantCode:   1, wantDetailed: exitNoResetPlan},
	})
}

// Planning sends as few requests as it can: one StreamsGroupDescribe per
// coordinator, one OffsetFetch per coordinator, and per kind (log start,
// log end, timestamp) one ListOffsets per partition leader, for all groups
// together; each group's coordinator is looked up once.
func TestResetOffsets_requests(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := offsetsCluster(t)
	c.ResetRequests()
	r := runCLI(t, "--bootstrap-server", bootstrap(c), "--reset-offsets", "--group", "wc", "--group", "ds", "--group", "wc-live",
		"--all-input-topics", "--to-datetime", "2020-01-01T05:00:00Z", "--execute")
	require.Equal(t, 1, r.code, r.stderr)
	perKey := map[int16]int{}
	leaders := map[int32]bool{}
	for _, req := range c.Requests() {
		perKey[req.Key]++
		if req.Key == keyListOffsets {
			leaders[req.Node] = true
		}
	}
	assert.Equal(t, 1, perKey[keyFindCoordinator], "one FindCoordinator for describe, fetch and commit")
	assert.Equal(t, 3, perKey[keyStreamsGroupDescribe], "one describe per coordinator (wc on 0, wc-live on 1, ds on 2)")
	assert.Equal(t, 2, perKey[keyOffsetFetch], "the Empty groups' coordinators only")
	assert.Equal(t, 3*len(leaders), perKey[keyListOffsets], "start, end and timestamp, once per leader")
	assert.Equal(t, 2, perKey[keyOffsetCommit], "one commit per reset group")
}
