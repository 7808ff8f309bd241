package format

// Display rules for --describe and --describe --offsets, as Kafka 4.4's
// kafka-streams-groups.sh prints them (StreamsGroupCommand.printOffsets,
// verified against the real 4.4.0 tool, e2e/FINDINGS.md):
//   - a group is printed only when it is not Dead and has members; an Empty
//     group prints nothing at all;
//   - one header row, then one row per partition of the source and
//     repartition-source topics of the members' active tasks, sorted by
//     topic and partition (the Java tool prints HashMap order);
//   - non-verbose columns: GROUP max(15, group), TOPIC max(15, longest
//     topic), PARTITION 10, OFFSET-LAG unpadded;
//   - verbose columns: GROUP, TOPIC, PARTITION (10), CURRENT-OFFSET,
//     LEADER-EPOCH, LOG-END-OFFSET and OFFSET-LAG, each 15 wide, the last
//     one padded too; a partition without a committed offset, or a commit
//     without a leader epoch, shows "-";
//   - lag is the log end offset minus the committed offset, or minus the
//     log start offset when nothing is committed.
// The shared rules of the table views are in table.go.

import (
	"io"
	"strconv"

	"github.com/kstreams-groups/kstreams-groups/internal/describe"
)

// OffsetsText writes one group of the offsets view.
func OffsetsText(w io.Writer, g *describe.Group, verbose bool, st *Styles) error {
	if !g.HasRows() {
		return nil
	}
	t := newTable(w, st)
	t.notice(g)
	group := Escape(g.Group)
	topics := mapAll(g.Offsets, func(o describe.PartitionOffset) string { return Escape(o.Topic) })
	gw, tw := width(15, group), width(15, topics...)
	heads := []string{"GROUP", "TOPIC", "PARTITION", "OFFSET-LAG"}
	widths := []int{gw, tw, 10, 0}
	if verbose {
		heads = []string{"GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LEADER-EPOCH", "LOG-END-OFFSET", "OFFSET-LAG"}
		widths = []int{gw, tw, 10, 15, 15, 15, 15}
	}
	t.header(columns(heads, widths, -1, heads))
	for i, o := range g.Offsets {
		lag := strconv.FormatInt(o.Lag, 10)
		cells := []string{group, topics[i], strconv.Itoa(int(o.Partition)), lag}
		if verbose {
			current, epoch := missing, missing
			if o.CurrentOffset != nil {
				current = strconv.FormatInt(*o.CurrentOffset, 10)
			}
			if o.LeaderEpoch != nil {
				epoch = strconv.Itoa(int(*o.LeaderEpoch))
			}
			cells = []string{group, topics[i], strconv.Itoa(int(o.Partition)), current, epoch, strconv.FormatInt(o.LogEndOffset, 10), lag}
		}
		t.row(columns(heads, widths, -1, cells), "")
	}
	return t.err
}

// OffsetDoc is one row of the offsets view in documents. current_offset
// and leader_epoch are null when unknown.
type OffsetDoc struct {
	Topic          string `json:"topic" yaml:"topic"`
	Partition      int32  `json:"partition" yaml:"partition"`
	CurrentOffset  *int64 `json:"current_offset" yaml:"current_offset"`
	LeaderEpoch    *int32 `json:"leader_epoch" yaml:"leader_epoch"`
	LogStartOffset int64  `json:"log_start_offset" yaml:"log_start_offset"`
	LogEndOffset   int64  `json:"log_end_offset" yaml:"log_end_offset"`
	Lag            int64  `json:"lag" yaml:"lag"`
}

func newOffsetDoc(o describe.PartitionOffset) OffsetDoc { return OffsetDoc(o) }
