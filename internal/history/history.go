package history

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	cr "github.com/kstreams-groups/kstreams-groups/internal/coordrecords"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// DefaultMaxBytes is the default byte budget of one read: a
// __consumer_offsets partition of a busy cluster holds tens of megabytes
// of offset commits, read in about a second.
const DefaultMaxBytes = 256 << 20

// Options are the history verb's.
type Options struct {
	Group string
	// Since and Until (zero: none) keep the entries at or after Since and
	// at or before Until; the whole log is read either way, since the
	// state before Since is what the first entry is compared with.
	Since, Until time.Time
	// MaxBytes is the budget of record-batch bytes read (0: none).
	MaxBytes int64
}

// Validate checks the options.
func (o Options) Validate() error {
	switch {
	case o.Group == "":
		return errors.New("history needs --group")
	case !o.Since.IsZero() && !o.Until.IsZero() && o.Until.Before(o.Since):
		return fmt.Errorf("--until %s is before --since %s", o.Until.UTC().Format(time.RFC3339), o.Since.UTC().Format(time.RFC3339))
	case o.MaxBytes < 0:
		return errors.New("--max-bytes: want a size of 1 byte or more")
	}
	return nil
}

// Client is what history asks of the cluster.
type Client interface {
	DescribeTopics(ctx context.Context, topics []string) ([]admin.TopicInfo, error)
	ReadLog(ctx context.Context, q admin.LogRead, fn func(admin.LogRecord) error) (admin.LogReadStats, error)
}

// Stats count what a read saw.
type Stats struct {
	// LogStart is the partition's first offset, End its high watermark,
	// Next the offset after the last read; Bytes the bytes fetched.
	LogStart, End, Next, Bytes int64
	// Budget tells that the byte budget stopped the read before End.
	Budget bool
	// Records are the records read (every group's), GroupRecords the
	// group's streams-group records among them, Tombstones those deleted.
	Records, GroupRecords, Tombstones int64
	// UnknownTypes are records of a type Kafka 4.4.0 does not define
	// (any group's: their keys cannot be read); NewerVersions the group's
	// records of a value version newer than 0; Malformed the group's
	// records that do not decode. All skipped.
	UnknownTypes, NewerVersions, Malformed int64
}

// Result is the group's history.
type Result struct {
	Group     string
	Partition kafka.TopicPartition
	Entries   []Entry
	// CompleteFrom is the time from which the history is complete: the
	// first record after the last hole in the partition's offsets
	// (compaction), or the log's first record (CompleteFromStart, when
	// the log has no hole). Zero when the log holds no record.
	CompleteFrom      time.Time
	CompleteFromStart bool
	// FirstEpoch is the group's epoch at CompleteFrom, 0 when the group
	// had none (or no record of it was read before).
	FirstEpoch int32
	// Epoch is the group's epoch at the end of the read (0: none seen).
	Epoch int32
	Stats Stats
	// Err is what kept the history from being read: the topic not
	// readable (TOPIC_AUTHORIZATION_FAILED: DESCRIBE and READ on
	// __consumer_offsets), the cluster unreachable.
	Err error
}

// Failures lists the read's failure, if any.
func (r *Result) Failures() []kafka.Failure {
	if r.Err == nil {
		return nil
	}
	return []kafka.Failure{{Group: r.Group, Err: r.Err}}
}

// Run reads the group's history once.
func Run(ctx context.Context, c Client, opts Options) (*Result, error) {
	return NewReader(opts).Read(ctx, c)
}

// Reader reads a group's history and, read again, only what the log
// gained since (--watch): it keeps the timeline between reads, never the
// records.
type Reader struct {
	opts      Options
	tp        kafka.TopicPartition
	located   bool
	next      int64
	tl        *timeline
	stats     Stats
	complete  int64 // offset of the first record after the last gap; -1: none read
	completeT time.Time
	noGap     bool
	firstEp   int32
}

// NewReader is a reader of opts' group from the log's start.
func NewReader(opts Options) *Reader {
	return &Reader{opts: opts, next: admin.EarliestTimestamp, tl: newTimeline(), complete: -1, noGap: true}
}

// Read reads the log from where the last read stopped to its end (or the
// byte budget, each read having its own) and returns the history so far.
func (h *Reader) Read(ctx context.Context, c Client) (*Result, error) {
	res := &Result{Group: h.opts.Group}
	if !h.located {
		tp, err := locate(ctx, c, h.opts.Group)
		if err != nil {
			res.Err = err
			return res, nil
		}
		h.tp, h.located = tp, true
	}
	res.Partition = h.tp
	group := []byte(h.opts.Group)
	st, err := c.ReadLog(ctx, admin.LogRead{TopicPartition: h.tp, From: h.next, MaxBytes: h.opts.MaxBytes}, func(r admin.LogRecord) error {
		h.record(r, group)
		return nil
	})
	if st.Next > h.next {
		h.next = st.Next
	}
	h.stats.LogStart, h.stats.End, h.stats.Next, h.stats.Budget = st.LogStart, st.End, h.next, st.Budget
	h.stats.Bytes += st.Bytes
	res.Err = err
	h.result(res)
	return res, nil
}

// locate finds the group's partition of __consumer_offsets.
func locate(ctx context.Context, c Client, group string) (kafka.TopicPartition, error) {
	tis, err := c.DescribeTopics(ctx, []string{OffsetsTopic})
	if err != nil {
		return kafka.TopicPartition{}, err
	}
	if len(tis) != 1 || tis[0].Err != nil {
		if len(tis) == 1 {
			return kafka.TopicPartition{}, tis[0].Err
		}
		return kafka.TopicPartition{}, &kafka.MalformedError{Reason: "Metadata has no answer for " + OffsetsTopic}
	}
	n := len(tis[0].Partitions)
	if n == 0 {
		return kafka.TopicPartition{}, &kafka.MalformedError{Reason: OffsetsTopic + " has no partitions"}
	}
	return kafka.TopicPartition{Topic: OffsetsTopic, Partition: Partition(group, n)}, nil
}

// record takes one record of the partition: the group's streams-group
// records are decoded and folded, every other one only counted.
func (h *Reader) record(r admin.LogRecord, group []byte) {
	h.stats.Records++
	if r.Gap || h.complete < 0 {
		h.complete, h.completeT = r.Offset, time.UnixMilli(r.Timestamp).UTC()
		h.noGap = h.noGap && !r.Gap
		h.firstEp = h.tl.epochNow()
		if r.Gap {
			h.tl.gap()
		}
	}
	g, ok := cr.GroupOf(r.Key)
	if !ok {
		// Another type's record, not read further (and not allocated
		// for: most of the partition is offset commits).
		if t, ok := cr.TypeOf(r.Key); !ok || !cr.Known(t) {
			h.stats.UnknownTypes++
		}
		return
	}
	if string(g) != string(group) {
		return
	}
	h.stats.GroupRecords++
	k, err := cr.DecodeKey(r.Key)
	if err != nil {
		h.stats.Malformed++
		return
	}
	v, err := cr.DecodeValue(k.Type, r.Value)
	var uv *cr.UnknownVersionError
	switch {
	case errors.As(err, &uv):
		h.stats.NewerVersions++
		return
	case err != nil:
		h.stats.Malformed++
		return
	case v == nil:
		h.stats.Tombstones++
	}
	h.tl.add(Record{Offset: r.Offset, Batch: r.Batch, Time: time.UnixMilli(r.Timestamp).UTC(), Key: k, Value: v})
}

// epochNow is the group's epoch as the timeline stands (0: none).
func (t *timeline) epochNow() int32 {
	if t.meta == nil {
		return 0
	}
	return t.meta.Epoch
}

// result fills res with the entries after the last gap, within the
// options' times.
func (h *Reader) result(res *Result) {
	res.Stats = h.stats
	res.Epoch = h.tl.epochNow()
	if h.complete >= 0 {
		res.CompleteFrom, res.CompleteFromStart, res.FirstEpoch = h.completeT, h.noGap, h.firstEp
	}
	res.Entries = []Entry{}
	for i, e := range h.tl.entries {
		switch {
		case h.complete >= 0 && !h.noGap && h.tl.batches[i] < h.complete:
			// Its write began before the last gap: records of it may be gone.
		case !h.opts.Since.IsZero() && e.Time.Before(h.opts.Since):
		case !h.opts.Until.IsZero() && e.Time.After(h.opts.Until):
		default:
			res.Entries = append(res.Entries, e)
		}
	}
}
