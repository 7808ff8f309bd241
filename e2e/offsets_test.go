//go:build e2e

package e2e

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestOffsets runs our --reset-offsets and --delete-offsets side by side with the real 4.4.0
// StreamsGroupCommand on the same groups of one 4.4.0 broker:
//
//   - oo-wc: the word count, stopped (Empty) after it committed wc-input p0 (offsets 5..19 after
//     DeleteRecords moved its log start to 5) and p1 (0..9); p2 is empty and never committed.
//     Record i of p0 and p1 was written at 2020-01-01T00:00Z + i hours;
//   - oo-live: the word count, running (Stable);
//   - oo-ds: the stateless dynamicsink topology, stopped.
//
// For each scenario the --dry-run tables agree once the Java rows are sorted, --export CSVs agree
// as sets of lines, and after our --execute the Java tool reads back the offsets we planned
// (--reset-offsets --to-current --dry-run; its --describe prints nothing for an Empty group), as
// does OffsetFetch. The deliberate differences (README) are checked on both tools.
func TestOffsets(t *testing.T) {
	bin := OurBinary(t)
	start := time.Now()
	defer func() { logf("TestOffsets total %s", time.Since(start).Round(time.Millisecond)) }()
	ctx := context.Background()

	b := SharedBroker(t, BrokerOptions{Plugin: PluginInMemory})
	keep := map[string]string{"retention.ms": "-1"} // the 2020 timestamps must not expire
	for name, parts := range map[string]int32{"wc-input": 3, "side": 1, "pt-input-a": 1, "pt-input-b": 1} {
		require.NoError(t, ooCreateTopic(ctx, b, name, parts, keep), name)
	}
	t0 := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	ooProduce(t, b, "wc-input", 0, t0, 20)
	ooProduce(t, b, "wc-input", 1, t0, 10)
	ooProduce(t, b, "pt-input-a", 0, t0, 3)
	ooProduce(t, b, "pt-input-b", 0, t0, 2)
	ooDeleteRecords(t, b, "wc-input", 0, 5)

	apps := map[string]*App{
		"oo-wc":   StartApp(t, b, AppOptions{AppID: "oo-wc", Topology: TopologyWordCount}),
		"oo-live": StartApp(t, b, AppOptions{AppID: "oo-live", Topology: TopologyWordCount}),
		"oo-ds":   StartApp(t, b, AppOptions{AppID: "oo-ds", Topology: TopologyDynamicSink}),
	}
	wcDone := map[string]int64{"wc-input-0": 20, "wc-input-1": 10}
	for id, want := range map[string]map[string]int64{"oo-wc": wcDone, "oo-live": wcDone, "oo-ds": {"pt-input-a-0": 3, "pt-input-b-0": 2}} {
		require.NoError(t, ooWaitCommitted(ctx, b, apps[id], want), id)
	}
	require.NoError(t, apps["oo-live"].WaitGroupState(ctx, b, "Stable", 60*time.Second))
	ooWaitRepartition(ctx, b, "oo-wc", 30*time.Second)
	for _, id := range []string{"oo-wc", "oo-ds"} {
		require.NoError(t, apps[id].Stop(), id)
		require.NoError(t, b.WaitGroupState(ctx, id, "Empty", 30*time.Second, b.Proc), id)
	}
	logf("TestOffsets: groups ready after %s", time.Since(start).Round(time.Millisecond))

	t.Run("OffsetFetch v10 names topics by id", func(t *testing.T) {
		// What kversion.Stable() lets franz-go send to a 4.4 broker (F105): no topic names.
		req := kmsg.NewPtrOffsetFetchRequest()
		rg := kmsg.NewOffsetFetchRequestGroup()
		rg.Group, rg.MemberEpoch = "oo-wc", -1
		req.Groups = []kmsg.OffsetFetchRequestGroup{rg}
		kr, err := b.Client().Broker(1).Request(ctx, req)
		require.NoError(t, err)
		resp := kr.(*kmsg.OffsetFetchResponse)
		require.EqualValues(t, 10, resp.Version)
		require.NotEmpty(t, resp.Groups[0].Topics)
		for _, tp := range resp.Groups[0].Topics {
			assert.Empty(t, tp.Topic)
			assert.NotEqual(t, [16]byte{}, tp.TopicID)
		}
	})

	run := func(t *testing.T, args ...string) (java, ours ToolResult) {
		t.Helper()
		ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
		defer cancel()
		all := append([]string{"--bootstrap-server", b.Addr}, args...)
		java, err := RunStreamsGroupCommand(ctx, all...)
		require.NoError(t, err)
		ours = RunOurs(ctx, bin, all...)
		logf("java %-100s exit=%d %s; ours exit=%d %s", strings.Join(args, " "), java.ExitCode, java.Duration.Round(time.Millisecond), ours.ExitCode, ours.Duration.Round(time.Millisecond))
		require.NotEqual(t, -1, ours.ExitCode, ours.Stderr)
		return java, ours
	}
	ours := func(t *testing.T, args ...string) ToolResult {
		t.Helper()
		ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		defer cancel()
		r := RunOurs(ctx, bin, append([]string{"--bootstrap-server", b.Addr}, args...)...)
		logf("ours %-100s exit=%d %s", strings.Join(args, " "), r.ExitCode, r.Duration.Round(time.Millisecond))
		require.NotEqual(t, -1, r.ExitCode, r.Stderr)
		return r
	}
	java := func(t *testing.T, args ...string) ToolResult {
		t.Helper()
		ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
		defer cancel()
		r, err := RunStreamsGroupCommand(ctx, append([]string{"--bootstrap-server", b.Addr}, args...)...)
		require.NoError(t, err)
		logf("java %-100s exit=%d %s", strings.Join(args, " "), r.ExitCode, r.Duration.Round(time.Millisecond))
		return r
	}
	// same requires the same table (Java rows sorted) and exit 0 from both.
	same := func(t *testing.T, wantTable string, args ...string) (javaRes, oursRes ToolResult) {
		t.Helper()
		j, o := run(t, args...)
		assert.Equal(t, 0, j.ExitCode, "java stderr: %s", j.Stderr)
		assert.Equal(t, 0, o.ExitCode, "ours stderr: %s", o.Stderr)
		assert.Equal(t, sortedPlan(j.Stdout), o.Stdout, "our table is the Java tool's with sorted rows")
		if wantTable != "" {
			assert.Equal(t, wantTable, o.Stdout)
		}
		return j, o
	}
	dry := func(scope ...string) []string {
		return append([]string{"--reset-offsets", "--group", "oo-wc", "--dry-run"}, scope...)
	}
	wcAll := append(dry(), "--all-input-topics")

	t.Run("scenarios", func(t *testing.T) {
		same(t, planTable(planRow("oo-wc", "wc-input", 0, 5), planRow("oo-wc", "wc-input", 1, 0)), append(wcAll, "--to-earliest")...)
		same(t, planTable(planRow("oo-wc", "wc-input", 0, 20), planRow("oo-wc", "wc-input", 1, 10)), append(wcAll, "--to-latest")...)
		same(t, planTable(planRow("oo-wc", "wc-input", 0, 20), planRow("oo-wc", "wc-input", 1, 10)), append(wcAll, "--to-current")...)
		same(t, planTable(planRow("oo-wc", "wc-input", 0, 12)), append(dry("--input-topic", "wc-input:0"), "--to-offset", "12")...)
		same(t, planTable(planRow("oo-wc", "wc-input", 0, 17), planRow("oo-wc", "wc-input", 1, 7)), append(wcAll, "--shift-by", "-3")...)
		// A repartition topic named works (Kafka Streams purges it, so its log start moves).
		// Its three partitions are committed once the app's second subtopology has read them
		// (setup waits for that, up to a limit); otherwise both tools say it is not part of
		// the group.
		j, o := run(t, append(dry("--input-topic", "oo-wc-word-counts-repartition"), "--to-earliest")...)
		assert.Equal(t, sortedPlan(j.Stdout), o.Stdout)
		if strings.Contains(o.Stdout, "not part of the group") {
			assert.Equal(t, 1, o.ExitCode)
			logf("oo-wc had not committed every repartition partition when it stopped")
		} else {
			assert.Equal(t, 0, o.ExitCode, o.Stderr)
			assert.Equal(t, 3, strings.Count(o.Stdout, "\noo-wc                          oo-wc-word-counts-repartition  "), o.Stdout)
		}
		same(t, planTable(planRow("oo-wc", "wc-input", 0, 20), planRow("oo-wc", "wc-input", 1, 10)), append(wcAll, "--input-topic", "oo-wc-word-counts-repartition", "--to-latest")...)
	})

	t.Run("clamping both ways", func(t *testing.T) {
		j, o := same(t, planTable(planRow("oo-wc", "wc-input", 0, 20), planRow("oo-wc", "wc-input", 1, 10)), append(wcAll, "--to-offset", "100")...)
		for _, p := range []string{"wc-input-0. Value will be set to 20.", "wc-input-1. Value will be set to 10."} {
			msg := "New offset (100) is higher than latest offset for topic partition " + p
			assert.Contains(t, j.Stderr, "WARN "+msg+" (org.apache.kafka.tools.GroupOffsetsResetter)")
			assert.Contains(t, o.Stderr, "Warn: "+msg+"\n")
		}
		j, o = same(t, planTable(planRow("oo-wc", "wc-input", 0, 5), planRow("oo-wc", "wc-input", 1, 2)), append(wcAll, "--to-offset", "2")...)
		msg := "New offset (2) is lower than earliest offset for topic partition wc-input-0. Value will be set to 5."
		assert.Contains(t, j.Stderr, "WARN "+msg)
		assert.Equal(t, "Warn: "+msg+"\n", o.Stderr)
		_, o = same(t, planTable(planRow("oo-wc", "wc-input", 0, 5), planRow("oo-wc", "wc-input", 1, 0)), append(wcAll, "--shift-by", "-100")...)
		assert.Equal(t, 2, strings.Count(o.Stderr, "is lower than earliest offset"))
	})

	t.Run("datetime and duration", func(t *testing.T) {
		fallback := "\nWarn: Partition 1 from topic wc-input is empty. Falling back to latest known offset.\n"
		same(t, fallback+planTable(planRow("oo-wc", "wc-input", 0, 12), planRow("oo-wc", "wc-input", 1, 10)), append(wcAll, "--to-datetime", "2020-01-01T12:00:00.000")...)
		same(t, planTable(planRow("oo-wc", "wc-input", 0, 7), planRow("oo-wc", "wc-input", 1, 7)), append(wcAll, "--to-datetime", "2020-01-01T09:00:00.000+02:00")...)
		same(t, planTable(planRow("oo-wc", "wc-input", 0, 5), planRow("oo-wc", "wc-input", 1, 0)), append(wcAll, "--to-datetime", "2019-06-01T00:00:00.000Z")...)
		// now minus D is 2020-01-01T12:30Z for both runs (they are seconds apart).
		d := fmt.Sprintf("PT%dS", int64(time.Since(t0.Add(12*time.Hour+30*time.Minute)).Seconds()))
		same(t, fallback+planTable(planRow("oo-wc", "wc-input", 0, 13), planRow("oo-wc", "wc-input", 1, 10)), append(wcAll, "--by-duration", d)...)

		// Deliberate: ISO 8601 readings. The Java tool drops the minutes of +0530.
		j, o := run(t, append(wcAll, "--to-datetime", "2020-01-01T09:30:00.000+0530")...)
		assert.Equal(t, planTable(planRow("oo-wc", "wc-input", 0, 5), planRow("oo-wc", "wc-input", 1, 5)), sortedPlan(j.Stdout), "Java reads 04:30Z: the records of 05:00")
		assert.Equal(t, planTable(planRow("oo-wc", "wc-input", 0, 5), planRow("oo-wc", "wc-input", 1, 4)), o.Stdout, "ISO 8601: 04:00Z (p0 starts at 5)")
		// Seconds without milliseconds: the Java tool fails, we accept.
		j, o = run(t, append(wcAll, "--to-datetime", "2020-01-01T03:00:00")...)
		assert.Equal(t, 1, j.ExitCode)
		assert.Contains(t, j.Stdout, `Error: Executing streams group command failed due to java.text.ParseException: Unparseable date: "2020-01-01T03:00:00Z"`)
		assert.Equal(t, 0, o.ExitCode, o.Stderr)
		assert.Equal(t, planTable(planRow("oo-wc", "wc-input", 0, 5), planRow("oo-wc", "wc-input", 1, 3)), o.Stdout)
	})

	t.Run("export and from-file round trip", func(t *testing.T) {
		j, o := run(t, append(wcAll, "--to-current", "--export")...)
		assert.Equal(t, 0, j.ExitCode)
		assert.Equal(t, sortedLines(j.Stdout), sortedLines(o.Stdout))
		assert.Equal(t, "wc-input,0,20\nwc-input,1,10\n\n", o.Stdout)
		two := []string{"--reset-offsets", "--group", "oo-wc", "--group", "oo-ds", "--all-input-topics", "--shift-by", "-1", "--dry-run"}
		j, o = run(t, append(two, "--export")...)
		assert.Equal(t, sortedLines(j.Stdout), sortedLines(o.Stdout), "four columns with two groups")
		assert.Equal(t, "oo-wc,wc-input,0,19\noo-wc,wc-input,1,9\noo-ds,pt-input-a,0,2\noo-ds,pt-input-b,0,1\n\n", o.Stdout)

		dir := t.TempDir()
		ourFile, javaFile := filepath.Join(dir, "ours.csv"), filepath.Join(dir, "java.csv")
		require.NoError(t, os.WriteFile(ourFile, []byte(o.Stdout), 0o644))
		require.NoError(t, os.WriteFile(javaFile, []byte(j.Stdout), 0o644))
		table := planTable(planRow("oo-wc", "wc-input", 0, 19), planRow("oo-wc", "wc-input", 1, 9), planRow("oo-ds", "pt-input-a", 0, 2), planRow("oo-ds", "pt-input-b", 0, 1))
		from := []string{"--reset-offsets", "--group", "oo-wc", "--group", "oo-ds", "--dry-run", "--from-file"}
		j, _ = run(t, append(from, ourFile)...)
		assert.Equal(t, table, sortedPlan(j.Stdout), "the Java tool reads our export")
		o = ours(t, append(from, javaFile)...)
		assert.Equal(t, table, o.Stdout, "we read the Java tool's export")
		assert.Equal(t, 0, o.ExitCode, o.Stderr)
	})

	t.Run("an active group", func(t *testing.T) {
		active := "\nError: Assignments can only be reset if the group 'oo-live' is inactive, but the current state is Stable.\n"
		j, o := run(t, "--reset-offsets", "--group", "oo-live", "--group", "oo-wc", "--all-input-topics", "--to-earliest", "--execute")
		assert.Equal(t, 0, j.ExitCode, "the Java tool exits 0 (and resets oo-wc)")
		assert.Equal(t, sortedPlan(j.Stdout), o.Stdout)
		assert.Equal(t, active+planTable(planRow("oo-wc", "wc-input", 0, 5), planRow("oo-wc", "wc-input", 1, 0)), o.Stdout)
		assert.Equal(t, 1, o.ExitCode, "deliberate: a group left alone fails the command")
		assert.Equal(t, "Committed the new offsets of 2 partitions for streams group 'oo-wc'.\n", o.Stderr)
		assert.Equal(t, wcDone, ooFetch(t, b, "oo-live"), "the active group's offsets are untouched")
		assert.Equal(t, 10, ours(t, "reset-offsets", "--group", "oo-live", "--all-input-topics", "--to-earliest", "--dry-run", "--detailed-exit-codes").ExitCode)

		// The broker refuses an admin commit to a group with members: the answer our
		// "the group became active" report rests on (F101).
		assert.Equal(t, kerr.UnknownMemberID.Code, ooAdminCommit(t, b, "oo-live", "wc-input", 0, 1))
	})

	t.Run("execute and read back", func(t *testing.T) {
		o := ours(t, "--reset-offsets", "--group", "oo-wc", "--input-topic", "wc-input:0", "--input-topic", "wc-input:1", "--to-offset", "8", "--execute")
		assert.Equal(t, 0, o.ExitCode, o.Stderr)
		want := planTable(planRow("oo-wc", "wc-input", 0, 8), planRow("oo-wc", "wc-input", 1, 8))
		assert.Equal(t, want, o.Stdout)
		j := java(t, "--reset-offsets", "--group", "oo-wc", "--all-input-topics", "--to-current", "--dry-run")
		assert.Equal(t, want, sortedPlan(j.Stdout), "the Java tool reads back what we committed")
		assert.Equal(t, map[string]int64{"wc-input-0": 8, "wc-input-1": 8}, ooFetch(t, b, "oo-wc"))

		o = ours(t, "reset-offsets", "--group", "oo-wc", "--all-input-topics", "--to-datetime", "2020-01-01T06:00:00.000Z", "--execute")
		assert.Equal(t, 0, o.ExitCode, o.Stderr)
		assert.Equal(t, map[string]int64{"wc-input-0": 6, "wc-input-1": 6}, ooFetch(t, b, "oo-wc"))
		j = java(t, "--reset-offsets", "--group", "oo-wc", "--all-input-topics", "--to-latest", "--execute")
		assert.Equal(t, 0, j.ExitCode)
		o = ours(t, "reset-offsets", "--group", "oo-wc", "--all-input-topics", "--to-current", "--dry-run")
		assert.Equal(t, planTable(planRow("oo-wc", "wc-input", 0, 20), planRow("oo-wc", "wc-input", 1, 10)), o.Stdout, "and we read back the Java tool's commit")
	})

	// Issue 19: offsets never move where nobody asked. oo-wc starts at p0 20, p1 10 (the Java
	// tool's --to-latest above); p0 holds 5..19 (2020-01-01T05:00Z + i h), p1 0..9.
	t.Run("issue 19 edges", func(t *testing.T) {
		start := time.Now()
		defer func() { logf("issue 19 edges took %s", time.Since(start).Round(time.Millisecond)) }()
		wcAllRows := func(p0, p1 int64) string {
			return planTable(planRow("oo-wc", "wc-input", 0, p0), planRow("oo-wc", "wc-input", 1, p1))
		}
		o := ours(t, "reset-offsets", "--group", "oo-wc", "--all-input-topics", "--to-offset", "8", "--execute")
		require.Equal(t, 0, o.ExitCode, o.Stderr)
		require.Equal(t, map[string]int64{"wc-input-0": 8, "wc-input-1": 8}, ooFetch(t, b, "oo-wc"))

		// --shift-by Long.MAX_VALUE: the Java tool wraps to the log start (F300); we saturate.
		j := java(t, append(wcAll, "--shift-by", "9223372036854775807")...)
		assert.Equal(t, wcAllRows(5, 0), sortedPlan(j.Stdout), "the Java tool wraps around to the log start")
		o = ours(t, "reset-offsets", "--group", "oo-wc", "--all-input-topics", "--shift-by", "9223372036854775807", "--execute")
		assert.Equal(t, 0, o.ExitCode, o.Stderr)
		assert.Equal(t, wcAllRows(20, 10), o.Stdout)
		assert.Equal(t, map[string]int64{"wc-input-0": 20, "wc-input-1": 10}, ooFetch(t, b, "oo-wc"), "read back: the log end")

		// --to-datetime before 1970: the Java tool sends -1, -3 (F301); we search from 0.
		j = java(t, append(wcAll, "--to-datetime", "1969-12-31T23:59:59.999")...)
		assert.Equal(t, wcAllRows(20, 10), sortedPlan(j.Stdout), "Java: -1 is latest")
		o = ours(t, "reset-offsets", "--group", "oo-wc", "--all-input-topics", "--to-datetime", "1969-12-31T23:59:59.999", "--execute")
		assert.Equal(t, 0, o.ExitCode, o.Stderr)
		assert.Equal(t, wcAllRows(5, 0), o.Stdout)
		assert.Equal(t, map[string]int64{"wc-input-0": 5, "wc-input-1": 0}, ooFetch(t, b, "oo-wc"), "read back: the log start")

		// The README's export, edit, apply loop with a partition that falls back to the log end.
		dir := t.TempDir()
		exportArgs := append(slices.Clone(wcAll), "--to-datetime", "2020-01-01T12:00:00.000", "--export")
		j, o = run(t, exportArgs...)
		warn := "Warn: Partition 1 from topic wc-input is empty. Falling back to latest known offset."
		assert.Equal(t, "\n"+warn+"\n"+"wc-input,0,12\nwc-input,1,10\n\n", j.Stdout, "the Java tool's Warn: line is in its CSV (F302)")
		assert.Equal(t, "wc-input,0,12\nwc-input,1,10\n\n", o.Stdout, "ours is only CSV")
		assert.Equal(t, warn+"\n", o.Stderr)
		javaCSV, ourCSV := filepath.Join(dir, "java-plan.csv"), filepath.Join(dir, "our-plan.csv")
		require.NoError(t, os.WriteFile(javaCSV, []byte(j.Stdout), 0o644))
		require.NoError(t, os.WriteFile(ourCSV, []byte(strings.Replace(o.Stdout, "wc-input,1,10", "wc-input,1,9", 1)), 0o644))
		j = java(t, "--reset-offsets", "--group", "oo-wc", "--from-file", javaCSV, "--dry-run")
		logf("java --from-file of its own export: exit %d, stdout %q, stderr %q", j.ExitCode, j.Stdout, firstLine(j.Stderr))
		assert.Equal(t, 1, j.ExitCode, "the Java tool cannot read back its own export")
		o = ours(t, "reset-offsets", "--group", "oo-wc", "--from-file", ourCSV, "--execute")
		assert.Equal(t, 0, o.ExitCode, o.Stderr)
		assert.Equal(t, wcAllRows(12, 9), o.Stdout)
		assert.Equal(t, map[string]int64{"wc-input-0": 12, "wc-input-1": 9}, ooFetch(t, b, "oo-wc"), "read back: the edited plan")

		// Jackson's CSV of a group id holding a carriage return, a quote and a comma: a group that
		// does not exist, which the Java tool treats as inactive, planned from a file (F303).
		hostile := "oo-cr\rq\"x,y"
		hostileCSV := filepath.Join(dir, "hostile.csv")
		require.NoError(t, os.WriteFile(hostileCSV, []byte("\"oo-cr\rq\"\"x,y\",wc-input,0,7\noo-wc,wc-input,0,12\n"), 0o644))
		j = java(t, "--reset-offsets", "--group", hostile, "--group", "oo-wc", "--from-file", hostileCSV, "--dry-run", "--export")
		logf("java --export of %q: exit %d, stdout %q", hostile, j.ExitCode, j.Stdout)
		assert.Equal(t, 0, j.ExitCode)
		assert.Contains(t, j.Stdout, "\"oo-cr\rq\"\"x,y\",wc-input,0,7\n", "Jackson reads and writes the exact bytes, quoted")

		// --delete-offsets with partition -1 or an empty topic: the Java tool sends them, and a 4.4.0
		// broker answers UNKNOWN_TOPIC_OR_PARTITION or the admin client refuses the name (F304); we
		// refuse both before connecting.
		before := ooFetch(t, b, "oo-wc")
		for topic, want := range map[string]string{
			"wc-input:-1": "\nwc-input        -          Error: org.apache.kafka.common.errors.UnknownTopicOrPartitionException: This server does not host this topic-partition.\n",
			"":            "\n                -          Error: org.apache.kafka.common.errors.InvalidTopicException: The given topic name '' cannot be represented in a request.\n",
		} {
			j, o := run(t, "--delete-offsets", "--group", "oo-wc", "--input-topic", topic)
			logf("java --delete-offsets --input-topic %q: exit %d, stdout %q", topic, j.ExitCode, j.Stdout)
			assert.Equal(t, 0, j.ExitCode, topic)
			assert.True(t, strings.HasSuffix(j.Stdout, want), "%q: %q", topic, j.Stdout)
			assert.Equal(t, 2, o.ExitCode, topic)
			assert.Empty(t, o.Stdout, topic)
			o = ours(t, "delete-offsets", "--group", "oo-wc", "--input-topic", topic)
			assert.Equal(t, 2, o.ExitCode, topic)
		}
		assert.Equal(t, before, ooFetch(t, b, "oo-wc"), "nothing real was deleted")
	})

	t.Run("groups that are not streams groups", func(t *testing.T) {
		j, o := run(t, "--reset-offsets", "--group", "nosuch", "--input-topic", "wc-input:0", "--to-earliest", "--dry-run")
		assert.Equal(t, 0, j.ExitCode)
		assert.Equal(t, "\nError: One or more topics are not part of the group 'nosuch'.\n"+planTable(), j.Stdout, "the Java tool treats a missing group as inactive")
		assert.Equal(t, 1, o.ExitCode)
		assert.Equal(t, "\n", o.Stdout)
		assert.Equal(t, "Error: streams group 'nosuch': GROUP_ID_NOT_FOUND: Group nosuch not found.\n", o.Stderr)
	})

	t.Run("internal topics", func(t *testing.T) {
		internal := []string{"oo-wc-word-counts-repartition", "oo-wc-word-counts-changelog"}
		// --delete --delete-internal-topic: refused by the 4.4 tool, accepted here.
		j, o := run(t, "--delete", "--group", "oo-wc", "--delete-internal-topic", internal[1], "--dry-run")
		assert.Equal(t, 1, j.ExitCode)
		assert.Equal(t, "Option [delete-internal-topic] takes [reset-offsets] when [execute] is used.", firstLine(j.Stderr))
		assert.Equal(t, "Dry run: nothing was deleted. These streams groups passed the pre-checks and would be deleted: 'oo-wc'.\n"+
			"Dry run: these internal topics would be deleted with the streams group 'oo-wc': '"+internal[1]+"'.\n", o.Stdout)
		assert.Equal(t, 0, o.ExitCode, o.Stderr)

		// A user topic is refused before anything is committed; the Java tool deletes it.
		before := ooFetch(t, b, "oo-wc")
		o = ours(t, "--reset-offsets", "--group", "oo-wc", "--all-input-topics", "--to-earliest", "--execute", "--delete-internal-topic", "side", "--detailed-exit-codes")
		assert.Equal(t, 12, o.ExitCode, o.Stderr)
		assert.Equal(t, "Error: --delete-internal-topic 'side' is not an internal topic of streams group 'oo-wc' (its internal topics: '"+internal[0]+"', '"+internal[1]+"'); nothing was changed\n", o.Stderr)
		assert.Equal(t, before, ooFetch(t, b, "oo-wc"))
		assert.Contains(t, listTopics(t, b), "side")
		j = java(t, "--reset-offsets", "--group", "oo-wc", "--all-input-topics", "--to-current", "--execute", "--delete-internal-topic", "side")
		assert.Equal(t, 0, j.ExitCode)
		require.NoError(t, ooWaitTopicGone(t, b, "side"), "the Java tool deletes the user topic (F102)")

		// Stateless: we report nothing to delete; the Java tool commits, then fails (F103).
		j = java(t, "--reset-offsets", "--group", "oo-ds", "--all-input-topics", "--to-current", "--execute", "--delete-all-internal-topics")
		assert.Equal(t, 1, j.ExitCode)
		assert.Contains(t, j.Stdout, `Error: Executing streams group command failed due to Cannot invoke "java.util.List.isEmpty()" because "internalTopics" is null`)
		o = ours(t, "--reset-offsets", "--group", "oo-ds", "--all-input-topics", "--to-earliest", "--execute", "--delete-all-internal-topics")
		assert.Equal(t, 0, o.ExitCode, o.Stderr)
		assert.Equal(t, planTable(planRow("oo-ds", "pt-input-a", 0, 0), planRow("oo-ds", "pt-input-b", 0, 0)), o.Stdout)
		assert.Equal(t, "Committed the new offsets of 2 partitions for streams group 'oo-ds'.\nStreams group 'oo-ds' has no internal topics: nothing to delete.\n", o.Stderr)

		o = ours(t, "reset-offsets", "--group", "oo-wc", "--all-input-topics", "--to-earliest", "--execute", "--delete-all-internal-topics")
		assert.Equal(t, 0, o.ExitCode, o.Stderr)
		assert.Equal(t, "Committed the new offsets of 2 partitions for streams group 'oo-wc'.\n"+
			"Deleted the internal topics of streams group 'oo-wc': '"+internal[0]+"', '"+internal[1]+"'.\n", o.Stderr)
		for _, tp := range internal {
			require.NoError(t, ooWaitTopicGone(t, b, tp))
		}
		assert.Contains(t, listTopics(t, b), "wc-input")
		assert.Contains(t, listTopics(t, b), "oo-live-word-counts-changelog", "another group's topics stay")

		// Deleting them again: the Java tool's message for topics that do not exist.
		j, o = run(t, "--reset-offsets", "--group", "oo-wc", "--all-input-topics", "--to-current", "--execute", "--delete-all-internal-topics")
		assert.Equal(t, 0, j.ExitCode)
		assert.Equal(t, sortedPlan(j.Stdout), o.Stdout)
		assert.True(t, strings.HasPrefix(o.Stdout, "\nError: Deleting internal topics for group 'oo-wc' failed because the topics do not exist.\n"), o.Stdout)
		assert.Equal(t, 1, o.ExitCode, "deliberate: a topic that could not be deleted fails the command")
	})

	t.Run("delete offsets", func(t *testing.T) {
		subscribed := "Error: org.apache.kafka.common.errors.GroupSubscribedToTopicException: Deleting offsets of a topic is forbidden while the consumer group is actively subscribed to it."
		j, o := run(t, "--delete-offsets", "--group", "oo-live", "--all-input-topics")
		assert.Equal(t, 0, j.ExitCode)
		assert.Equal(t, j.Stdout, o.Stdout, "byte for byte, rows included")
		assert.Equal(t, "\nError: Encountered some partition-level error, see the follow-up details.\n"+
			"\nTOPIC           PARTITION  STATUS         "+
			"\nwc-input        0          "+subscribed+
			"\nwc-input        1          "+subscribed+"\n", o.Stdout)
		assert.Equal(t, 1, o.ExitCode, "deliberate: not every partition was deleted")
		assert.Equal(t, wcDone, ooFetch(t, b, "oo-live"))

		o = ours(t, "delete-offsets", "--group", "oo-wc", "--all-input-topics", "--detailed-exit-codes")
		assert.Equal(t, 0, o.ExitCode, o.Stderr)
		assert.Equal(t, "Request succeeded for deleting offsets from group oo-wc.\n\nTOPIC           PARTITION  STATUS         "+
			"\nwc-input        0          Successful     \nwc-input        1          Successful     \n", o.Stdout)
		assert.Empty(t, ooFetch(t, b, "oo-wc"), "the input offsets are gone (the repartition topic is too: its topic was deleted)")
		j, o = run(t, "--delete-offsets", "--group", "oo-wc", "--input-topic", "wc-input:0", "--input-topic", "nosuch-topic", "--input-topic", "wc-input:1")
		assert.Equal(t, j.Stdout, o.Stdout, "byte for byte")
		assert.Contains(t, o.Stdout, "\nnosuch-topic    -          Error: org.apache.kafka.common.errors.UnknownTopicOrPartitionException: This server does not host this topic-partition.")
		assert.Equal(t, 0, j.ExitCode)
		assert.Equal(t, 1, o.ExitCode)

		j, o = run(t, "--delete-offsets", "--group", "nogroup", "--input-topic", "wc-input:0")
		assert.Equal(t, "\nError: The group id does not exist.\n\nTOPIC           PARTITION  STATUS         "+
			"\nwc-input        0          Error: org.apache.kafka.common.errors.GroupIdNotFoundException: The group id does not exist.\n", j.Stdout)
		assert.Empty(t, o.Stdout, "deliberate: refused before anything is sent")
		assert.Equal(t, "Error: streams group 'nogroup': GROUP_ID_NOT_FOUND: Group nogroup not found.\n", o.Stderr)
	})

	t.Run("validation", func(t *testing.T) {
		for _, args := range [][]string{
			{"--reset-offsets", "--group", "oo-wc", "--to-earliest", "--all-input-topics"},
			{"--reset-offsets", "--group", "oo-wc", "--dry-run", "--execute"},
			{"--reset-offsets", "--group", "oo-wc", "--dry-run", "--shift-by", "1", "--to-offset", "1"},
			{"--reset-offsets", "--group", "oo-wc", "--dry-run", "--to-earliest", "--delete-all-internal-topics"},
			{"--describe", "--group", "oo-wc", "--dry-run"},
			{"--delete", "--group", "oo-wc", "--input-topic", "wc-input"},
			{"--delete-offsets", "--group", "a", "--group", "b", "--all-input-topics"},
			{"--reset-offsets", "--group", "oo-wc", "--dry-run", "--to-offset", "abc", "--all-input-topics"},
		} {
			j, o := run(t, args...)
			assert.Equal(t, 1, j.ExitCode, "%v", args)
			assert.Equal(t, 2, o.ExitCode, "%v", args)
			assert.Equal(t, firstLine(j.Stderr), firstLine(o.Stderr), "%v", args)
		}
	})
}

// planRow is one row of the Java tool's reset table (%-30s %-30s %-10s %-15s).
func planRow(group, topic string, partition int, offset int64) string {
	return fmt.Sprintf("\n%-30s %-30s %-10d %-15d", group, topic, partition, offset)
}

// planTable is the whole table: the header and rows, each after a line feed, and a last one.
func planTable(rows ...string) string {
	return fmt.Sprintf("\n%-30s %-30s %-10s %-15s", "GROUP", "TOPIC", "PARTITION", "NEW-OFFSET") + strings.Join(rows, "") + "\n"
}

var planHeader = regexp.MustCompile(`(?m)^GROUP {26}TOPIC {26}PARTITION  NEW-OFFSET {5}$`)

// planGroups is the order in which this test names groups on every command line, so our
// rows come in that order (request order); the Java tool prints its groups in hash order.
var planGroups = []string{"oo-live", "oo-wc", "oo-ds"}

// sortedPlan sorts the Java tool's plan rows as we print them: by group in request order, then
// topic, then partition. The lines before the header stay as they are.
func sortedPlan(s string) string {
	loc := planHeader.FindStringIndex(s)
	if loc == nil {
		return s
	}
	head, body := s[:loc[1]], strings.Trim(s[loc[1]:], "\n")
	if body == "" {
		return s
	}
	rows := strings.Split(body, "\n")
	key := func(r string) (int, string, int) {
		f := strings.Fields(r)
		p, _ := strconv.Atoi(f[2])
		return slices.Index(planGroups, f[0]), f[1], p
	}
	slices.SortFunc(rows, func(a, b string) int {
		ga, ta, pa := key(a)
		gb, tb, pb := key(b)
		return cmp.Or(cmp.Compare(ga, gb), strings.Compare(ta, tb), cmp.Compare(pa, pb))
	})
	return head + "\n" + strings.Join(rows, "\n") + "\n"
}

func ooCreateTopic(ctx context.Context, b *Broker, name string, partitions int32, configs map[string]string) error {
	req := kmsg.NewPtrCreateTopicsRequest()
	rt := kmsg.NewCreateTopicsRequestTopic()
	rt.Topic, rt.NumPartitions, rt.ReplicationFactor = name, partitions, 1
	for k, v := range configs {
		rt.Configs = append(rt.Configs, kmsg.CreateTopicsRequestTopicConfig{Name: k, Value: kmsg.StringPtr(v)})
	}
	req.Topics = append(req.Topics, rt)
	req.TimeoutMillis = 10000
	resp, err := req.RequestWith(ctx, b.Client())
	if err != nil {
		return err
	}
	return kerr.ErrorForCode(resp.Topics[0].ErrorCode)
}

// ooProduce writes n records to one partition, record i timestamped t0 + i hours.
func ooProduce(t *testing.T, b *Broker, topic string, partition int32, t0 time.Time, n int) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(b.Addr), kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.DisableIdempotentWrite())
	require.NoError(t, err)
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for i := range n {
		r := &kgo.Record{Topic: topic, Partition: partition, Timestamp: t0.Add(time.Duration(i) * time.Hour), Value: fmt.Appendf(nil, "record %d of %s", i, topic)}
		require.NoError(t, cl.ProduceSync(ctx, r).FirstErr())
	}
}

// ooDeleteRecords moves a partition's log start offset to before.
func ooDeleteRecords(t *testing.T, b *Broker, topic string, partition int32, before int64) {
	t.Helper()
	req := kmsg.NewPtrDeleteRecordsRequest()
	rt := kmsg.NewDeleteRecordsRequestTopic()
	rt.Topic = topic
	rt.Partitions = []kmsg.DeleteRecordsRequestTopicPartition{{Partition: partition, Offset: before}}
	req.Topics, req.TimeoutMillis = []kmsg.DeleteRecordsRequestTopic{rt}, 10000
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := req.RequestWith(ctx, b.Client())
	require.NoError(t, err)
	p := resp.Topics[0].Partitions[0]
	require.NoError(t, kerr.ErrorForCode(p.ErrorCode))
	require.Equal(t, before, p.LowWatermark)
}

// ooFetch returns a group's committed offsets (OffsetFetch v9, as an admin client), as
// "topic-partition" → offset.
func ooFetch(t *testing.T, b *Broker, group string) map[string]int64 {
	t.Helper()
	out, err := ooFetchErr(context.Background(), b, group)
	require.NoError(t, err)
	return out
}

func ooFetchErr(ctx context.Context, b *Broker, group string) (map[string]int64, error) {
	return committedOffsets(ctx, b, group, func(topic string) bool {
		return strings.HasPrefix(topic, "wc-input") || strings.HasPrefix(topic, "pt-input")
	})
}

// ooWaitCommitted waits until the app's group committed want (its input topics only).
func ooWaitCommitted(ctx context.Context, b *Broker, a *App, want map[string]int64) error {
	deadline := time.Now().Add(120 * time.Second)
	var last map[string]int64
	for time.Now().Before(deadline) {
		if err := exited([]*Process{a.Proc, b.Proc}); err != nil {
			return err
		}
		got, err := ooFetchErr(ctx, b, a.AppID)
		if err == nil && fmt.Sprint(got) == fmt.Sprint(want) {
			return nil
		}
		last = got
		time.Sleep(300 * time.Millisecond)
	}
	return fmt.Errorf("group %s committed %v, want %v\n%s", a.AppID, last, want, logTail(a.Proc.LogPath, 2000))
}

// ooWaitRepartition waits, up to limit, until group has committed all three partitions of its
// repartition topic (its second subtopology read them); a partition that got no record never
// is, so this only makes the repartition scenario likely, not certain.
func ooWaitRepartition(ctx context.Context, b *Broker, group string, limit time.Duration) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		req := kmsg.NewPtrOffsetFetchRequest()
		rg := kmsg.NewOffsetFetchRequestGroup()
		rg.Group, rg.MemberEpoch = group, -1
		req.Groups = []kmsg.OffsetFetchRequestGroup{rg}
		if kr, err := b.Client().Broker(1).Request(ctx, ooV9{req}); err == nil {
			n := 0
			for _, tp := range kr.(*kmsg.OffsetFetchResponse).Groups[0].Topics {
				if strings.HasSuffix(tp.Topic, "-repartition") {
					n += len(tp.Partitions)
				}
			}
			if n == 3 {
				return
			}
		}
		time.Sleep(300 * time.Millisecond)
	}
	logf("%s: not every repartition partition committed after %s", group, limit)
}

// ooAdminCommit sends the admin client's OffsetCommit (v9, generation -1, empty member id) and
// returns the partition's error code.
func ooAdminCommit(t *testing.T, b *Broker, group, topic string, partition int32, offset int64) int16 {
	t.Helper()
	req := kmsg.NewPtrOffsetCommitRequest()
	req.Group, req.Generation, req.MemberID = group, -1, ""
	rt := kmsg.NewOffsetCommitRequestTopic()
	rt.Topic = topic
	rt.Partitions = []kmsg.OffsetCommitRequestTopicPartition{{Partition: partition, Offset: offset, LeaderEpoch: -1, Metadata: kmsg.StringPtr("")}}
	req.Topics = []kmsg.OffsetCommitRequestTopic{rt}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	kr, err := b.Client().Broker(1).Request(ctx, ooV9{req})
	require.NoError(t, err)
	return kr.(*kmsg.OffsetCommitResponse).Topics[0].Partitions[0].ErrorCode
}

// ooV9 caps OffsetFetch and OffsetCommit at v9, the last versions that name topics (v10 uses
// topic ids), as the Java admin client and our binary send them.
type ooV9 struct{ kmsg.Request }

func (ooV9) MaxVersion() int16 { return 9 }

func ooWaitTopicGone(t *testing.T, b *Broker, topic string) error {
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if !slices.Contains(listTopics(t, b), topic) {
			return nil
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("topic %s still exists", topic)
}
