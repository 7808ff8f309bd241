package resetoffsets

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// PlanFile is a parsed --from-file reset plan: per group, the offsets in
// file order, each partition once.
type PlanFile struct {
	// Groups lists the groups in the order of their first line.
	Groups []string
	plans  map[string][]FileOffset
}

// FileOffset is one line of a plan file.
type FileOffset struct {
	kafka.TopicPartition
	Offset int64
	// Line is the line number, for messages.
	Line int
}

// Plan returns a group's offsets and whether the file has any for it.
func (f *PlanFile) Plan(group string) ([]FileOffset, bool) {
	p, ok := f.plans[group]
	return p, ok
}

// ParsePlanFile reads the CSV that kafka-streams-groups.sh --export writes
// and --from-file reads (GroupOffsetsResetter.parseResetPlan, Jackson CSV
// without a header): "topic,partition,offset" when exactly one --group was
// given (singleGroup) and the first line has three columns, else
// "group,topic,partition,offset" on every line. name is the file's name in
// messages. Values are read as RFC 4180 has them: a quoted value holds its
// bytes exactly (line feeds, carriage returns, commas, control characters,
// invalid UTF-8; a quote doubled), so a name --export wrote reads back as
// the same name. A UTF-8 byte order mark at the start is skipped, CRLF line
// ends and blank lines are accepted. Unlike the Java tool, a line with the
// wrong number of columns or a bad number is an error naming file:line,
// and a partition repeated with another offset is an error (the same
// offset twice is merged).
func ParsePlanFile(data []byte, name, singleGroup string) (*PlanFile, error) {
	rows, err := readCSV(data)
	if err != nil {
		return nil, fmt.Errorf("--from-file: %s:%w", name, err)
	}
	at := func(line int, format string, args ...any) error {
		return fmt.Errorf("--from-file: %s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	three := singleGroup != "" && len(rows) > 0 && len(rows[0].fields) == 3
	f := &PlanFile{plans: map[string][]FileOffset{}}
	seen := map[string]map[kafka.TopicPartition]FileOffset{}
	for _, rw := range rows {
		fields := rw.fields
		var group string
		switch {
		case three && len(fields) == 3:
			group = singleGroup
		case three:
			return nil, at(rw.line, "want 3 columns (topic,partition,offset) as on line %d, got %d", rows[0].line, len(fields))
		case len(fields) == 4:
			group, fields = fields[0], fields[1:]
		case len(fields) == 3:
			return nil, at(rw.line, "want 4 columns (group,topic,partition,offset), got 3; a file of topic,partition,offset lines needs exactly one --group")
		default:
			return nil, at(rw.line, "want 4 columns (group,topic,partition,offset), got %d", len(fields))
		}
		p, err := planNumber("partition", fields[1], 32)
		if err == nil && p < 0 {
			err = fmt.Errorf("partition %d is negative", p)
		}
		if err != nil {
			return nil, at(rw.line, "%v", err)
		}
		o, err := planNumber("offset", fields[2], 64)
		if err != nil {
			return nil, at(rw.line, "%v", err)
		}
		fo := FileOffset{TopicPartition: kafka.TopicPartition{Topic: fields[0], Partition: int32(p)}, Offset: o, Line: rw.line}
		if seen[group] == nil {
			seen[group] = map[kafka.TopicPartition]FileOffset{}
			f.Groups = append(f.Groups, group)
		}
		if prev, dup := seen[group][fo.TopicPartition]; dup {
			if prev.Offset != fo.Offset {
				return nil, at(rw.line, "%s-%d of group '%s' is already on line %d with offset %d, not %d", fo.Topic, fo.Partition, group, prev.Line, prev.Offset, fo.Offset)
			}
			continue
		}
		seen[group][fo.TopicPartition] = fo
		f.plans[group] = append(f.plans[group], fo)
	}
	return f, nil
}

// planNumber reads a partition or offset: a decimal integer of bits bits,
// blanks around it allowed. The error says what is wrong with it.
func planNumber(what, v string, bits int) (int64, error) {
	t := strings.TrimSpace(v)
	n, err := strconv.ParseInt(t, 10, bits)
	switch {
	case t == "":
		return 0, fmt.Errorf("%s is empty", what)
	case errors.Is(err, strconv.ErrRange):
		lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
		if bits == 32 {
			lo, hi = math.MinInt32, math.MaxInt32
		}
		return 0, fmt.Errorf("%s %q is out of range (%d to %d)", what, v, lo, hi)
	case err != nil:
		return 0, fmt.Errorf("%s %q is not a decimal integer", what, v)
	}
	return n, nil
}

// csvRow is one record of a plan file and the line it starts on.
type csvRow struct {
	fields []string
	line   int
}

// readCSV splits data into records as RFC 4180 does, byte for byte: a
// quoted value runs to its closing quote whatever it holds ("" is a
// quote), an unquoted one to the next comma or line end (a CR before the
// line feed is the line end's). encoding/csv is not used because it turns
// a CRLF inside quotes into LF, which would make "a\r\nb" read back as
// another name. Empty lines are skipped; a leading UTF-8 byte order mark
// too (spreadsheets write one). An error starts with the line number.
func readCSV(data []byte) ([]csvRow, error) {
	sc := csvScanner{s: strings.TrimPrefix(string(data), "\uFEFF"), line: 1}
	var rows []csvRow
	for sc.i < len(sc.s) {
		start := sc.line
		fields, quoted, err := sc.record(start)
		if err != nil {
			return nil, err
		}
		if len(fields) == 1 && fields[0] == "" && !quoted {
			continue // an empty line ("" is a record of its own)
		}
		rows = append(rows, csvRow{fields: fields, line: start})
	}
	return rows, nil
}

// csvScanner is readCSV's place in the text: the byte offset and the line.
type csvScanner struct {
	s    string
	i    int
	line int
}

// record reads the values up to the end of a line (outside quotes);
// quoted tells whether any value was quoted.
func (sc *csvScanner) record(start int) (fields []string, quoted bool, err error) {
	for {
		var v string
		if sc.i < len(sc.s) && sc.s[sc.i] == '"' {
			quoted = true
			if v, err = sc.quoted(start); err != nil {
				return nil, false, err
			}
		} else {
			v = sc.plain()
		}
		fields = append(fields, v)
		if sc.i < len(sc.s) && sc.s[sc.i] == ',' {
			sc.i++
			continue
		}
		if sc.i < len(sc.s) { // the line feed
			sc.i++
			sc.line++
		}
		return fields, quoted, nil
	}
}

// quoted reads a value from its opening quote to its closing one ("" is
// a quote), then checks that the value ends there.
func (sc *csvScanner) quoted(start int) (string, error) {
	var b strings.Builder
	sc.i++
	for {
		j := strings.IndexByte(sc.s[sc.i:], '"')
		if j < 0 {
			return "", fmt.Errorf("%d: a quoted value is not closed", start)
		}
		b.WriteString(sc.s[sc.i : sc.i+j])
		sc.line += strings.Count(sc.s[sc.i:sc.i+j], "\n")
		sc.i += j + 1
		if sc.i < len(sc.s) && sc.s[sc.i] == '"' {
			b.WriteByte('"')
			sc.i++
			continue
		}
		break
	}
	rest := sc.s[sc.i:]
	if rest != "" && rest[0] != ',' && rest[0] != '\n' && !strings.HasPrefix(rest, "\r\n") {
		return "", fmt.Errorf("%d: text after the closing quote of a value", sc.line)
	}
	if strings.HasPrefix(rest, "\r\n") {
		sc.i++
	}
	return b.String(), nil
}

// plain reads an unquoted value up to the next comma or line end (a CR
// before the line feed is the line end's).
func (sc *csvScanner) plain() string {
	j := strings.IndexAny(sc.s[sc.i:], ",\n")
	if j < 0 {
		j = len(sc.s) - sc.i
	}
	v := sc.s[sc.i : sc.i+j]
	if sc.i+j < len(sc.s) && sc.s[sc.i+j] == '\n' {
		v = strings.TrimSuffix(v, "\r")
	}
	sc.i += j
	return v
}
