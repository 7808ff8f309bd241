package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// Offsets never move where nobody asked (issue 19): each case commits with
// --execute and reads the committed offsets back.

// --shift-by saturates at the ends of int64, then the clamp to the log
// applies: a shift past the end never wraps around to the log start.
func TestResetOffsets_shiftBySaturates(t *testing.T) {
	t.Parallel()
	shift := func(n string) []string {
		return []string{"reset-offsets", "--group", "wc", "--all-input-topics", "--shift-by", n, "--execute"}
	}
	readBack := func(want ...string) func(t *testing.T, c *playground.Cluster) {
		return func(t *testing.T, c *playground.Cluster) {
			assert.Equal(t, append(want, wcBefore[2:]...), committedOf(c, "wc"))
		}
	}
	higher := func(req, tp string, to int) string {
		return "Warn: New offset (" + req + ") is higher than latest offset for topic partition " + tp + ". Value will be set to " + itoa(to) + ".\n"
	}
	lower := func(req, tp string, to int) string {
		return "Warn: New offset (" + req + ") is lower than earliest offset for topic partition " + tp + ". Value will be set to " + itoa(to) + ".\n"
	}
	runOffsetsCases(t, []offsetsCase{
		{name: "the largest shift is the log end", args: shift("9223372036854775807"),
			wantStdout: resetHeader + row("wc", "wc-input", 0, 20) + row("wc", "wc-input", 1, 10) + "\n",
			wantStderr: higher("9223372036854775807", "wc-input-0", 20) + higher("9223372036854775807", "wc-input-1", 10) + committedTwoWc,
			check:      readBack("wc-input-0=20", "wc-input-1=10")},
		{name: "a shift that overflows one partition only: both go to the end", args: shift("9223372036854775797"),
			// p0 is at 12 (12 + shift overflows), p1 at 7 (7 + shift does not).
			wantStdout: resetHeader + row("wc", "wc-input", 0, 20) + row("wc", "wc-input", 1, 10) + "\n",
			wantStderr: higher("9223372036854775807", "wc-input-0", 20) + higher("9223372036854775804", "wc-input-1", 10) + committedTwoWc,
			check:      readBack("wc-input-0=20", "wc-input-1=10")},
		{name: "the smallest shift is the log start", args: shift("-9223372036854775808"),
			wantStdout: resetHeader + row("wc", "wc-input", 0, 10) + row("wc", "wc-input", 1, 0) + "\n",
			wantStderr: lower("-9223372036854775796", "wc-input-0", 10) + lower("-9223372036854775801", "wc-input-1", 0) + committedTwoWc,
			check:      readBack("wc-input-0=10", "wc-input-1=0")},
	})
}

// A --to-datetime before 1970 is before every record: the log start, and
// the ListOffsets by timestamp asks for 0, never for a negative timestamp
// (-1 latest, -2 earliest, -3 max-timestamp to the broker).
func TestResetOffsets_datetimeBeforeTheEpoch(t *testing.T) {
	t.Parallel()
	var tests []offsetsCase
	for _, v := range []string{"1969-12-31T23:59:59.999", "1969-12-31T23:59:59.998", "1969-12-31T23:59:59.997", "1969-12-31T23:59:59.996Z", "1900-01-01T00:00:00.000+05:00"} {
		tests = append(tests, offsetsCase{name: v, args: []string{"reset-offsets", "--group", "wc", "--all-input-topics", "--to-datetime", v, "--execute"},
			wantStdout: resetHeader + row("wc", "wc-input", 0, 10) + row("wc", "wc-input", 1, 0) + "\n",
			wantStderr: committedTwoWc,
			check: func(t *testing.T, c *playground.Cluster) {
				assert.Equal(t, append([]string{"wc-input-0=10", "wc-input-1=0"}, wcBefore[2:]...), committedOf(c, "wc"))
				var sent []int64
				for _, r := range c.Requests() {
					if r.Key != keyListOffsets {
						continue
					}
					req, ok := r.Msg.(*kmsg.ListOffsetsRequest)
					require.True(t, ok, "a decoded ListOffsets")
					for _, tp := range req.Topics {
						for _, p := range tp.Partitions {
							if !slices.Contains(sent, p.Timestamp) {
								sent = append(sent, p.Timestamp)
							}
						}
					}
				}
				slices.Sort(sent)
				assert.Equal(t, []int64{-2, -1, 0}, sent, "the log start, the log end, and 0 for the time: no other negative timestamp")
			}})
	}
	runOffsetsCases(t, tests)
}

// hostileNames are group and topic names that an escaped CSV would turn
// into other names.
var hostileNames = []string{
	"nl\nx", "cr\rx", "crlf\r\nx", `q"x`, "c,x", "bidi\u202ex", "c1\u0085x", "bad\xffx",
	"esc\x1b[31mx", "\ufeffbom", " lead and trail ", "tab\tx", "a-name-well-over-twenty-four-characters\n",
}

// --export writes each name's exact bytes, and --from-file applies the plan
// to exactly the groups and topics it was made for, not to the groups
// named as the escaped text reads.
func TestResetOffsets_exportRoundTripOfHostileNames(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := offsetsCluster(t)
	groupArgs := []string{"--bootstrap-server", bootstrap(c)}
	for _, n := range hostileNames {
		decoy := format.Escape(n)
		for _, g := range []string{n, decoy} {
			if g == n || decoy != n {
				c.PutTopic(g, 1)
				c.SetLogOffsets(g, 0, 0, 9)
				c.PutStreamsGroup(playground.StreamsGroup{ID: g, State: "Empty", Topology: &playground.Topology{Subtopologies: []playground.Subtopology{{ID: "0", SourceTopics: []string{g}}}}})
				c.Commit(g, playground.Committed{Topic: g, Partition: 0, Offset: 5, LeaderEpoch: -1})
			}
		}
		// The decoy group also reads the hostile topic: a plan read back
		// under the escaped group name would find it.
		if decoy != n {
			c.Commit(decoy, playground.Committed{Topic: n, Partition: 0, Offset: 5, LeaderEpoch: -1})
		}
		groupArgs = append(groupArgs, "--group", n)
	}
	dir := t.TempDir()

	export := runCLI(t, append(slices.Clone(groupArgs), "--reset-offsets", "--all-input-topics", "--to-offset", "7", "--dry-run", "--export")...)
	require.Equal(t, 0, export.code, export.stderr)
	assert.Empty(t, export.stderr)
	plan := filepath.Join(dir, "plan.csv")
	require.NoError(t, os.WriteFile(plan, []byte(export.stdout), 0o644))

	apply := runCLI(t, append(slices.Clone(groupArgs), "--reset-offsets", "--from-file", plan, "--execute")...)
	require.Equal(t, 0, apply.code, apply.stderr)
	for _, n := range hostileNames {
		assert.Equal(t, []playground.Committed{{Topic: n, Partition: 0, Offset: 7, LeaderEpoch: -1}}, stripMeta(c.CommittedOffsets(n)), "group %q", n)
		if decoy := format.Escape(n); decoy != n {
			for _, o := range c.CommittedOffsets(decoy) {
				assert.EqualValues(t, 5, o.Offset, "group %q (the escaped name) is untouched", decoy)
			}
		}
	}

	// One group: three columns, the topic's exact bytes.
	for _, n := range []string{"nl\nx", "bad\xffx", "\ufeffbom"} {
		one := []string{"--bootstrap-server", bootstrap(c), "--reset-offsets", "--group", n}
		export := runCLI(t, append(slices.Clone(one), "--all-input-topics", "--to-offset", "3", "--dry-run", "--export")...)
		require.Equal(t, 0, export.code, export.stderr)
		require.NoError(t, os.WriteFile(plan, []byte(export.stdout), 0o644))
		apply := runCLI(t, append(one, "--from-file", plan, "--execute")...)
		require.Equal(t, 0, apply.code, apply.stderr)
		assert.Equal(t, []playground.Committed{{Topic: n, Partition: 0, Offset: 3, LeaderEpoch: -1}}, stripMeta(c.CommittedOffsets(n)), "group %q", n)
	}
}

func stripMeta(cs []playground.Committed) []playground.Committed {
	out := make([]playground.Committed, len(cs))
	for i, o := range cs {
		out[i] = playground.Committed{Topic: o.Topic, Partition: o.Partition, Offset: o.Offset, LeaderEpoch: o.LeaderEpoch}
	}
	return out
}

// The README's loop, export, edit, apply, works when partitions fall back
// to the log end: the Java tool's Warn: lines go to stderr, and stdout is
// only CSV.
func TestResetOffsets_readmeExportLoop(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := offsetsCluster(t)
	bs := []string{"--bootstrap-server", bootstrap(c)}
	// The README's command lines, for the stopped group wc.
	export := runCLI(t, append(slices.Clone(bs), "reset-offsets", "--group", "wc", "--all-input-topics", "--to-datetime", "2026-01-01T00:00:00Z", "--dry-run", "--export")...)
	require.Equal(t, 0, export.code, export.stderr)
	assert.Equal(t, "wc-input,0,20\nwc-input,1,10\n\n", export.stdout, "only CSV")
	assert.Equal(t, "Warn: Partition 0 from topic wc-input is empty. Falling back to latest known offset.\n"+
		"Warn: Partition 1 from topic wc-input is empty. Falling back to latest known offset.\n", export.stderr)

	// The edit: partition 1 goes back three records.
	edited := strings.Replace(export.stdout, "wc-input,1,10", "wc-input,1,7", 1)
	plan := filepath.Join(t.TempDir(), "plan.csv")
	require.NoError(t, os.WriteFile(plan, []byte(edited), 0o644))
	apply := runCLI(t, append(bs, "reset-offsets", "--group", "wc", "--from-file", plan, "--execute")...)
	require.Equal(t, 0, apply.code, apply.stderr)
	assert.Equal(t, resetHeader+row("wc", "wc-input", 0, 20)+row("wc", "wc-input", 1, 7)+"\n", apply.stdout)
	assert.Equal(t, append([]string{"wc-input-0=20", "wc-input-1=7"}, wcBefore[2:]...), committedOf(c, "wc"))
}

// --from-file skips a byte order mark at the start of the file (a
// spreadsheet's CSV) instead of making it part of the first topic.
func TestResetOffsets_fromFileByteOrderMark(t *testing.T) {
	t.Parallel()
	plan := filepath.Join(t.TempDir(), "plan.csv")
	require.NoError(t, os.WriteFile(plan, []byte("\ufeffwc-input,0,11\r\nwc-input,1,4\r\n"), 0o644))
	runOffsetsCases(t, []offsetsCase{
		{name: "three columns", args: []string{"reset-offsets", "--group", "wc", "--from-file", plan, "--execute"},
			wantStdout: resetHeader + row("wc", "wc-input", 0, 11) + row("wc", "wc-input", 1, 4) + "\n",
			wantStderr: committedTwoWc,
			check: func(t *testing.T, c *playground.Cluster) {
				assert.Equal(t, append([]string{"wc-input-0=11", "wc-input-1=4"}, wcBefore[2:]...), committedOf(c, "wc"))
			}},
	})
}

// A terminal never sees a name's raw bytes: an --export whose CSV names
// what Escape changes is refused there (escaped, the CSV would name
// another group), and written exactly into a pipe.
func TestResetOffsets_exportToATerminal(t *testing.T) {
	t.Parallel()
	c := offsetsCluster(t)
	n := "esc\x1b]0;title\x07x"
	c.PutTopic(n, 1)
	c.SetLogOffsets(n, 0, 0, 9)
	c.PutStreamsGroup(playground.StreamsGroup{ID: "wc-esc", State: "Empty", Topology: &playground.Topology{Subtopologies: []playground.Subtopology{{ID: "0", SourceTopics: []string{n}}}}})
	c.Commit("wc-esc", playground.Committed{Topic: n, Partition: 0, Offset: 5, LeaderEpoch: -1})
	args := []string{"--bootstrap-server", bootstrap(c), "reset-offsets", "--group", "wc-esc", "--all-input-topics", "--to-offset", "6", "--dry-run", "--export"}

	out, code := onTerminal(t, nil, args...)
	assert.Equal(t, exitUsage, code, out)
	assert.NotContains(t, out, "\x1b]", "no raw escape reaches the terminal")
	assert.Contains(t, out, "--export: the plan names '"+format.Escape(n)+"', which a terminal cannot show as it is: redirect stdout to a file (> plan.csv), which holds the exact bytes for --from-file")

	stdout, stderr, code := inPipe(t, nil, args...)
	assert.Equal(t, 0, code, stderr)
	assert.Equal(t, "\""+n+"\",0,6\n\n", stdout)

	// A CSV of plain names is written to a terminal as before.
	out, code = onTerminal(t, nil, "--bootstrap-server", bootstrap(c), "reset-offsets", "--group", "wc", "--all-input-topics", "--to-current", "--dry-run", "--export")
	assert.Equal(t, 0, code, out)
	assert.Equal(t, "wc-input,0,12\nwc-input,1,7\n\n", out)
}
