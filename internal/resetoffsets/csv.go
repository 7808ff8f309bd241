package resetoffsets

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
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
// given (singleGroup) and the first line reads so, else
// "group,topic,partition,offset" on every line. Values may be quoted, as
// the Java tool quotes every value longer than 24 characters; CRLF line
// ends and blank lines are accepted. Unlike the Java tool, a line with the
// wrong number of columns or an unreadable number is an error naming the
// line, and a partition repeated with another offset is an error (the same
// offset twice is merged).
func ParsePlanFile(data []byte, singleGroup string) (*PlanFile, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	r.ReuseRecord = false
	type row struct {
		fields []string
		line   int
	}
	var rows []row
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("--from-file: %w", err)
		}
		line, _ := r.FieldPos(0)
		rows = append(rows, row{fields: rec, line: line})
	}
	three := singleGroup != "" && len(rows) > 0 && len(rows[0].fields) == 3 && numeric(rows[0].fields[1], rows[0].fields[2])
	f := &PlanFile{plans: map[string][]FileOffset{}}
	seen := map[string]map[kafka.TopicPartition]FileOffset{}
	for _, rw := range rows {
		fields := rw.fields
		var group string
		switch {
		case three && len(fields) == 3:
			group = singleGroup
		case three:
			return nil, fmt.Errorf("--from-file: line %d: want 3 columns (topic,partition,offset) as on line 1, got %d", rw.line, len(fields))
		case len(fields) == 4:
			group, fields = fields[0], fields[1:]
		case len(fields) == 3:
			return nil, fmt.Errorf("--from-file: line %d: want 4 columns (group,topic,partition,offset), got 3; a file of topic,partition,offset lines needs exactly one --group", rw.line)
		default:
			return nil, fmt.Errorf("--from-file: line %d: want 4 columns (group,topic,partition,offset), got %d", rw.line, len(fields))
		}
		p, err := strconv.ParseInt(strings.TrimSpace(fields[1]), 10, 32)
		if err != nil {
			return nil, fmt.Errorf("--from-file: line %d: partition %q is not a number", rw.line, fields[1])
		}
		o, err := strconv.ParseInt(strings.TrimSpace(fields[2]), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("--from-file: line %d: offset %q is not a number", rw.line, fields[2])
		}
		fo := FileOffset{TopicPartition: kafka.TopicPartition{Topic: fields[0], Partition: int32(p)}, Offset: o, Line: rw.line}
		if seen[group] == nil {
			seen[group] = map[kafka.TopicPartition]FileOffset{}
			f.Groups = append(f.Groups, group)
		}
		if prev, dup := seen[group][fo.TopicPartition]; dup {
			if prev.Offset != fo.Offset {
				return nil, fmt.Errorf("--from-file: line %d: %s-%d of group '%s' is already on line %d with offset %d, not %d", rw.line, fo.Topic, fo.Partition, group, prev.Line, prev.Offset, fo.Offset)
			}
			continue
		}
		seen[group][fo.TopicPartition] = fo
		f.plans[group] = append(f.plans[group], fo)
	}
	return f, nil
}

func numeric(partition, offset string) bool {
	_, err1 := strconv.ParseInt(strings.TrimSpace(partition), 10, 32)
	_, err2 := strconv.ParseInt(strings.TrimSpace(offset), 10, 64)
	return err1 == nil && err2 == nil
}
