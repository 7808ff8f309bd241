package resetoffsets

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// Every input the 4.4.0 tool's Utils.getDateTime accepts is accepted (the
// Java column is what the real method returned, called on the harness
// classpath); where Java reads the value otherwise, ISO 8601 decides.
func TestParseDateTime(t *testing.T) {
	tests := []struct {
		in   string
		want string // RFC 3339 with milliseconds, "" for an error
		java string // what the Java tool reads, where it differs
	}{
		{"2020-01-01T05:00:00.000", "2020-01-01T05:00:00.000Z", ""},
		{"2020-01-01T05:00:00.000Z", "2020-01-01T05:00:00.000Z", ""},
		{"2020-01-01T05:00:00.000+02:00", "2020-01-01T03:00:00.000Z", ""},
		{"2020-01-01T05:00:00.000-08:00", "2020-01-01T13:00:00.000Z", ""},
		{"2020-01-01T05:00:00.000+05:30", "2019-12-31T23:30:00.000Z", ""},
		{"2020-01-01T05:00:00.000+0200", "2020-01-01T03:00:00.000Z", ""},
		{"2020-01-01T05:00:00.000+02", "2020-01-01T03:00:00.000Z", ""},
		{"2020-01-01T05:00:00.000+0530", "2019-12-31T23:30:00.000Z", "2020-01-01T00:00:00.000Z"},
		{"2020-01-01T05:00:00.000-0530", "2020-01-01T10:30:00.000Z", "2020-01-01T10:00:00.000Z"},
		{"2020-01-01T05:00:00.5", "2020-01-01T05:00:00.500Z", "2020-01-01T05:00:00.005Z"},
		{"2020-01-01T05:00:00.05", "2020-01-01T05:00:00.050Z", "2020-01-01T05:00:00.005Z"},
		{"2020-01-01T05:00:00.0005", "2020-01-01T05:00:00.000Z", "2020-01-01T05:00:00.005Z"},
		{"2020-01-01T05:00:00.999", "2020-01-01T05:00:00.999Z", ""},
		{"2020-1-1T5:0:0.0", "2020-01-01T05:00:00.000Z", ""},
		{"02020-001-01T05:00:00.000", "2020-01-01T05:00:00.000Z", ""},
		{"2020-01-01T05:00:00.000 ", "2020-01-01T05:00:00.000Z", ""},
		{" 2020-01-01T05:00:00.000", "2020-01-01T05:00:00.000Z", ""},
		{"2020-01-01T05:00:00.000 Z", "2020-01-01T05:00:00.000Z", ""},
		{"2020-01-01T05:00:00.000 +02:00", "2020-01-01T03:00:00.000Z", ""},
		{"2020-01-01T05:00:00.000+02:00trailing", "2020-01-01T03:00:00.000Z", ""},
		{"2020-01-01T05:00:00.000Zjunk", "2020-01-01T05:00:00.000Z", ""},
		{"2020-01-01T05:00:00.000+02:60", "2020-01-01T03:00:00.000Z", ""},
		{"2020-01-01T05:00:00.000+02:0", "2020-01-01T03:00:00.000Z", ""},
		// Accepted here, refused by the Java tool.
		{"2020-01-01T05:00:00", "2020-01-01T05:00:00.000Z", "error"},
		{"2020-01-01T05:00:00Z", "2020-01-01T05:00:00.000Z", "error"},
		{"2020-01-01T05:00:00.123456", "2020-01-01T05:00:00.123Z", "error"},
		{"2020-01-01T05:00:00,250", "2020-01-01T05:00:00.250Z", "error"},
		{"2020-01-01t05:00:00.000z", "2020-01-01T05:00:00.000Z", "error"},
		{"2020-01-01T05:00:00.1000", "2020-01-01T05:00:00.100Z", "error"},
		// Refused by both.
		{"2020-01-01", "", ""},
		{"2020-01-01 T05:00:00.000", "", ""},
		{"2020-01-01T25:00:00.000", "", ""},
		{"2020-02-30T05:00:00.000", "", ""},
		{"2020-01-01T05:00:60.000", "", ""},
		{"2020-01-01T05:00:00.000x", "", ""},
		{"2020-01-01T05:00:00.000TZ", "", ""},
		{"2020-01-01T05:00:00.000+5", "", ""},
		{"2020-01-01T05:00:00.000+2:00", "", ""},
		{"2020-01-01T05:00:00.000+24:00", "", ""},
		{"2020-01-01T05:00:00.000+", "", ""},
		{"2020-01-01T05:00:00.-1", "", ""},
		{"+2020-01-01T05:00:00.000", "", ""},
		{"2020-01-01T05:00", "", ""},
		{"", "", ""},
	}
	for _, tc := range tests {
		got, err := ParseDateTime(tc.in)
		if tc.want == "" {
			assert.Error(t, err, "%q", tc.in)
			if err != nil {
				assert.Contains(t, err.Error(), "Invalid --to-datetime '"+tc.in+"'")
			}
			continue
		}
		if assert.NoError(t, err, "%q", tc.in) {
			assert.Equal(t, tc.want, got.Format("2006-01-02T15:04:05.000Z07:00"), "%q (Java: %s)", tc.in, tc.java)
		}
	}
}

// java.time.Duration.parse's grammar, in milliseconds.
func TestParseDuration(t *testing.T) {
	ok := map[string]int64{
		"PT1H":            3_600_000,
		"pt1h":            3_600_000,
		"-PT1H":           -3_600_000,
		"+PT1H":           3_600_000,
		"P1D":             86_400_000,
		"P1DT2H3M4.5S":    86_400_000 + 2*3_600_000 + 3*60_000 + 4_500,
		"PT-1H30M":        -3_600_000 + 30*60_000,
		"PT1.S":           1000,
		"PT0.0001S":       0,
		"PT-0.5S":         -500,
		"-P-1D":           86_400_000,
		"PT1,25S":         1250,
		"P100000000D":     100_000_000 * 86_400_000,
		"PT100000000000H": 100_000_000_000 * 3_600_000,
	}
	for in, want := range ok {
		got, err := ParseDuration(in)
		if assert.NoError(t, err, in) {
			assert.Equal(t, want, got, in)
		}
	}
	for _, in := range []string{"", "P", "PT", "P1DT", "P1Y", "P1M", "1h", "PT1H ", "PT1.0000000001S", "P9999999999999999999D", "P1W"} {
		_, err := ParseDuration(in)
		assert.EqualError(t, err, "Invalid --by-duration '"+in+"': Text cannot be parsed to a Duration (want PnDTnHnMnS, e.g. PT1H30M or P1D)", in)
	}
}

func TestParseInputTopics(t *testing.T) {
	got, err := ParseInputTopics([]string{"a", "b:0,2", "c:1,", "d:+3", "e:-1"})
	require.NoError(t, err)
	assert.Equal(t, []InputTopic{{Topic: "a"}, {Topic: "b", Partitions: []int32{0, 2}}, {Topic: "c", Partitions: []int32{1}}, {Topic: "d", Partitions: []int32{3}}, {Topic: "e", Partitions: []int32{-1}}}, got)

	for in, want := range map[string]string{
		"t:":             "Invalid topic arg 't:', expected topic name and partitions",
		":":              "Invalid topic arg ':', expected topic name and partitions",
		"t:0:1":          "Invalid topic arg 't:0:1', expected topic name and partitions",
		"t::0":           "Invalid topic arg 't::0', expected topic name and partitions",
		"t:a":            "Invalid partition 'a' specified in topic arg 't:a''",
		"t:0-1":          "Invalid partition '0-1' specified in topic arg 't:0-1''",
		"t:0, 1":         "Invalid partition ' 1' specified in topic arg 't:0, 1''",
		"t:0,,1":         "Invalid partition '' specified in topic arg 't:0,,1''",
		"t:999999999999": "Invalid partition '999999999999' specified in topic arg 't:999999999999''",
	} {
		_, err := ParseInputTopics([]string{"ok", in})
		assert.EqualError(t, err, want, in)
	}

	topics := []InputTopic{{Topic: "t", Partitions: []int32{1, 0}}, {Topic: "u"}, {Topic: "t", Partitions: []int32{1}}, {Topic: "u"}}
	assert.Equal(t, []string{"u"}, BareTopics(topics))
	assert.Equal(t, []string{"t", "u"}, Topics(topics))
	assert.Equal(t, []kafka.TopicPartition{{Topic: "t", Partition: 0}, {Topic: "t", Partition: 1}, {Topic: "u", Partition: 0}, {Topic: "u", Partition: 1}},
		Partitions(topics, map[string][]int32{"u": {1, 0}}), "sorted, repeated partitions merged")
}

func TestSourcePartitions(t *testing.T) {
	subs := []kafka.Subtopology{
		{ID: "0", SourceTopics: []string{"in"}, RepartitionSinkTopics: []string{"g-r-repartition"}},
		{ID: "1", RepartitionSourceTopics: []string{"g-r-repartition"}, SourceTopics: []string{"table"}},
	}
	committed := []kafka.TopicPartition{{Topic: "table", Partition: 0}, {Topic: "g-r-repartition", Partition: 0}, {Topic: "in", Partition: 1}, {Topic: "other", Partition: 0}}
	assert.Equal(t, []kafka.TopicPartition{{Topic: "in", Partition: 1}, {Topic: "table", Partition: 0}}, SourcePartitions(subs, committed))
}

func TestParsePlanFile(t *testing.T) {
	f, err := ParsePlanFile([]byte("t,0,5\nt,1,6\r\n\n\"long-topic-name-over-24-chars\",0,1\nt,0,5\n"), "plan.csv", "g")
	require.NoError(t, err)
	assert.Equal(t, []string{"g"}, f.Groups)
	p, ok := f.Plan("g")
	require.True(t, ok)
	assert.Equal(t, []FileOffset{{TopicPartition: kafka.TopicPartition{Topic: "t", Partition: 0}, Offset: 5, Line: 1}, {TopicPartition: kafka.TopicPartition{Topic: "t", Partition: 1}, Offset: 6, Line: 2},
		{TopicPartition: kafka.TopicPartition{Topic: "long-topic-name-over-24-chars", Partition: 0}, Offset: 1, Line: 4}}, p)
	_, ok = f.Plan("h")
	assert.False(t, ok)

	f, err = ParsePlanFile([]byte("g,t,0,5\n\"h, i\",t,0,-3\ng,u,2, 7\n"), "plan.csv", "")
	require.NoError(t, err)
	assert.Equal(t, []string{"g", "h, i"}, f.Groups)
	p, _ = f.Plan("h, i")
	assert.Equal(t, int64(-3), p[0].Offset)
	p, _ = f.Plan("g")
	assert.Equal(t, int64(7), p[1].Offset, "blanks around numbers are allowed")

	f, err = ParsePlanFile([]byte("g,t,0,5\n"), "plan.csv", "g")
	require.NoError(t, err, "one group, but the first line has four columns: four columns")
	assert.Equal(t, []string{"g"}, f.Groups)

	f, err = ParsePlanFile(nil, "plan.csv", "g")
	require.NoError(t, err)
	assert.Empty(t, f.Groups)

	for _, tc := range []struct{ data, single, want string }{
		{"topic,partition,offset\n", "g", `--from-file: plan.csv:1: partition "partition" is not a decimal integer`},
		{"t,0,1\ng,t,0,1\n", "g", "--from-file: plan.csv:2: want 3 columns (topic,partition,offset) as on line 1, got 4"},
		{"g,t,x,1\n", "", `--from-file: plan.csv:1: partition "x" is not a decimal integer`},
		{"g,t,0,1.5\n", "", `--from-file: plan.csv:1: offset "1.5" is not a decimal integer`},
		{"g,t,0\n", "", "--from-file: plan.csv:1: want 4 columns (group,topic,partition,offset), got 3; a file of topic,partition,offset lines needs exactly one --group"},
		{"g,t,0,1,2\n", "", "--from-file: plan.csv:1: want 4 columns (group,topic,partition,offset), got 5"},
		{"g,t,0,1\ng,t,0,2\n", "", "--from-file: plan.csv:2: t-0 of group 'g' is already on line 1 with offset 1, not 2"},
		{"g,t,0,1\ng,\"t,0,1\n", "", "--from-file: plan.csv:2: a quoted value is not closed"},
		{"g,\"t\"x,0,1\n", "", "--from-file: plan.csv:1: text after the closing quote of a value"},
		// A bad number on a three-column line of a one-group file is
		// reported as such, not as a file that needs one --group.
		{"t,0,5\nt,1,1e3\n", "g", `--from-file: plan.csv:2: offset "1e3" is not a decimal integer`},
		{"t,0x10,5\n", "g", `--from-file: plan.csv:1: partition "0x10" is not a decimal integer`},
		{"t,0,1e3\n", "g", `--from-file: plan.csv:1: offset "1e3" is not a decimal integer`},
		{"t,0,9223372036854775808\n", "g", `--from-file: plan.csv:1: offset "9223372036854775808" is out of range (-9223372036854775808 to 9223372036854775807)`},
		{"t,2147483648,0\n", "g", `--from-file: plan.csv:1: partition "2147483648" is out of range (-2147483648 to 2147483647)`},
		{"t,,0\n", "g", "--from-file: plan.csv:1: partition is empty"},
		{"t,0,\n", "g", "--from-file: plan.csv:1: offset is empty"},
		{"t,-1,0\n", "g", "--from-file: plan.csv:1: partition -1 is negative"},
		{"g,t,-1,0\n", "", "--from-file: plan.csv:1: partition -1 is negative"},
		{"\"g\nh\",t,0,1\n\"a\",b\n", "", "--from-file: plan.csv:3: want 4 columns (group,topic,partition,offset), got 2"},
	} {
		_, err := ParsePlanFile([]byte(tc.data), "plan.csv", tc.single)
		assert.EqualError(t, err, tc.want, tc.data)
	}
}

// Quoted values hold their bytes exactly, whatever they are; a byte order
// mark at the start is not part of the first name.
func TestParsePlanFile_exactBytes(t *testing.T) {
	names := []string{"nl\nx", "cr\rx", "crlf\r\nx", "q\"x", "c,x", "bidi\u202ex", "c1\u0085x", "bad\xffx", "esc\x1b[31mx", "nul\x00x", "tab\tx", ""}
	var data strings.Builder
	data.WriteString("\uFEFF")
	for i, n := range names {
		q := `"` + strings.ReplaceAll(n, `"`, `""`) + `"`
		fmt.Fprintf(&data, "%s,%s,%d,%d\r\n", q, q, i, i)
	}
	f, err := ParsePlanFile([]byte(data.String()), "plan.csv", "")
	require.NoError(t, err)
	assert.Equal(t, names, f.Groups)
	for i, n := range names {
		p, ok := f.Plan(n)
		require.True(t, ok, "%q", n)
		assert.Equal(t, []FileOffset{{TopicPartition: kafka.TopicPartition{Topic: n, Partition: int32(i)}, Offset: int64(i), Line: p[0].Line}}, p)
	}

	f, err = ParsePlanFile([]byte("\uFEFFt,0,5\n"), "plan.csv", "g")
	require.NoError(t, err, "the byte order mark does not make the first line four columns or the topic another")
	p, _ := f.Plan("g")
	assert.Equal(t, "t", p[0].Topic)
	assert.Equal(t, 1, p[0].Line)

	f, err = ParsePlanFile([]byte("\"a\nb\",t,0,1\ng,\"t\n\n\",1,2\n\ng,t,2,3\n"), "plan.csv", "")
	require.NoError(t, err)
	p, _ = f.Plan("g")
	assert.Equal(t, []int{3, 7}, []int{p[0].Line, p[1].Line}, "a record's line is where it starts, line feeds in values counted")
}

func TestValidate(t *testing.T) {
	s := func(v string) *string { return &v }
	tests := []struct {
		opts Options
		want string
	}{
		{Options{DryRun: true, Execute: true}, "Option [reset-offsets] only accepts one of [execute] and [dry-run]"},
		{Options{Groups: []string{"g"}}, "Option [reset-offsets] takes the option: [execute] or [dry-run]"},
		{Options{DryRun: true}, "Option [reset-offsets] takes one of these options: [all-groups], [group]"},
		{Options{AllGroups: true, DryRun: true, ToEarliest: true, ToLatest: true}, `Option "[to-earliest]" can't be used with option "[to-latest]"`},
		{Options{AllGroups: true, DryRun: true, ShiftBy: s("1"), ToOffset: s("1")}, `Option "[to-offset]" can't be used with option "[shift-by]"`},
		{Options{AllGroups: true, DryRun: true, FromFile: s("f"), ToCurrent: true}, `Option "[to-current]" can't be used with option "[from-file]"`},
		{Options{AllGroups: true, DryRun: true, FromFile: s("f"), ToCurrent: true, ByDuration: s("PT1H")}, `Option "[by-duration]" can't be used with option "[to-current]"`},
		{Options{AllGroups: true, DryRun: true}, ""},
	}
	for _, tc := range tests {
		err := tc.opts.Validate()
		if tc.want == "" {
			assert.NoError(t, err)
			continue
		}
		assert.EqualError(t, err, tc.want)
	}
}

func TestPrepare(t *testing.T) {
	s := func(v string) *string { return &v }
	noFile := func(string) ([]byte, error) { return nil, &os.PathError{Op: "open", Path: "x", Err: os.ErrNotExist} }
	r, err := Options{Groups: []string{"g", "g"}, AllInputTopics: true, InputTopics: []string{"bad:"}, ToOffset: s("-5"), Execute: true}.Prepare(noFile)
	require.NoError(t, err, "--all-input-topics wins: --input-topic is not parsed")
	assert.Equal(t, Request{Groups: []string{"g"}, AllInputTopics: true, Scenario: ToOffset, Offset: -5, Execute: true}, r, "two --group values: no single group")

	r, err = Options{Groups: []string{"g"}, InputTopics: []string{"t:1"}, ToDatetime: s("2020-01-01T00:00:00.000"), DryRun: true}.Prepare(noFile)
	require.NoError(t, err)
	assert.Equal(t, int64(1577836800000), r.Timestamp)
	assert.True(t, r.SingleGroup)
	assert.Equal(t, []InputTopic{{Topic: "t", Partitions: []int32{1}}}, r.InputTopics)

	r, err = Options{AllGroups: true, InputTopics: []string{"t"}, FromFile: s("plan.csv"), DryRun: true}.Prepare(func(string) ([]byte, error) { return []byte("g,t,0,1\n"), nil })
	require.NoError(t, err)
	assert.Nil(t, r.InputTopics, "the file replaces the scope")
	assert.Equal(t, []string{"g"}, r.File.Groups)

	r, err = Options{Groups: []string{"g"}, AllInputTopics: true, ByDuration: s("PT1H"), DryRun: true}.Prepare(noFile)
	require.NoError(t, err)
	r.Now = func() time.Time { return time.UnixMilli(10_000_000) }
	ts, ok := targetTime(r)
	assert.True(t, ok)
	assert.Equal(t, int64(10_000_000-3_600_000), ts)

	_, err = Options{Groups: []string{"g"}, FromFile: s("x"), DryRun: true}.Prepare(noFile)
	assert.EqualError(t, err, "--from-file: cannot read x: file does not exist")
	_, err = Options{Groups: []string{"g"}, FromFile: s("x"), DryRun: true}.Prepare(func(string) ([]byte, error) { return nil, errors.New("boom") })
	assert.EqualError(t, err, "--from-file: cannot read x: boom")
}
