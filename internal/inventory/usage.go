package inventory

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// newestTries is how many offsets below the end a partition's newest
// record is looked for: the last offset is a transaction's commit marker
// in an exactly-once application's topics, and the record before it is
// usually the transaction's last. Past that the time is unknown.
const newestTries = 3

// usageOf reads the size on disk (one DescribeLogDirs per broker) and the
// newest record time (ListOffsets, then Fetch at the end offset − 1, − 2,
// − 3 as time lag reads records) of topics. unread names what could not
// be read.
func usageOf(ctx context.Context, client Client, s *snapshot, topics []string) (map[string]Usage, []*UnreadError, error) {
	out := map[string]Usage{}
	topics = slices.Compact(slices.Sorted(slices.Values(topics)))
	if len(topics) == 0 {
		return out, nil, nil
	}
	var unread []*UnreadError
	dirs, err := client.DescribeLogDirs(ctx)
	if err != nil {
		unread = append(unread, &UnreadError{What: "the sizes (DescribeLogDirs)", Err: err})
	} else {
		for _, f := range dirs.Failed {
			unread = append(unread, &UnreadError{What: "the sizes (DescribeLogDirs)", Err: f})
		}
		wanted := make(map[string]bool, len(topics))
		for _, t := range topics {
			wanted[t] = true
		}
		largest := map[kafka.TopicPartition]int64{}
		for _, rs := range dirs.Replicas {
			if !wanted[rs.Topic] {
				continue
			}
			u := out[rs.Topic]
			u.Bytes += rs.Bytes
			u.SizeKnown = true
			out[rs.Topic] = u
			largest[rs.TopicPartition] = max(largest[rs.TopicPartition], rs.Bytes)
		}
		for tp, n := range largest {
			u := out[tp.Topic]
			u.CopyBytes += n
			out[tp.Topic] = u
		}
	}
	for _, t := range topics {
		u := out[t]
		u.Copies = s.topics[t].ReplicationFactor
		out[t] = u
	}
	newest, err := newestRecords(ctx, client, s, topics)
	if err != nil {
		return nil, nil, err
	}
	for t, n := range newest {
		u := out[t]
		u.Empty, u.Newest, u.Unknown, u.CreateTime = n.Empty, n.Newest, n.Unknown, n.CreateTime
		out[t] = u
	}
	return out, unread, nil
}

// newest is a topic's newest record.
type newest struct {
	Empty      bool
	Newest     *time.Time
	Unknown    int
	CreateTime int
}

// part is a non-empty partition's log, from start to end.
type part struct {
	tp         kafka.TopicPartition
	start, end int64
}

// newestRecords reads the newest record of every partition of topics.
func newestRecords(ctx context.Context, client Client, s *snapshot, topics []string) (map[string]newest, error) {
	out, open, err := logRanges(ctx, client, s, topics)
	if err != nil {
		return nil, err
	}
	for try := int64(1); try <= newestTries && len(open) > 0; try++ {
		var qs []admin.FirstRecordQuery
		var asked []part
		for _, p := range open {
			if from := p.end - try; from >= p.start {
				qs = append(qs, admin.FirstRecordQuery{TopicPartition: p.tp, From: from, End: p.end})
				asked = append(asked, p)
			} else {
				out[p.tp.Topic] = out[p.tp.Topic].unknown()
			}
		}
		if len(qs) == 0 {
			break
		}
		recs, _, err := client.FetchFirstRecords(ctx, qs)
		if err != nil {
			return nil, err
		}
		open = open[:0]
		for i, rec := range recs {
			n, again := out[rec.Topic].add(rec, try < newestTries)
			out[rec.Topic] = n
			if again {
				open = append(open, asked[i]) // a marker or an aborted record: one further back
			}
		}
	}
	return out, nil
}

// logRanges reads the log start and end of every partition of topics:
// each topic's newest, empty until a partition holds records (or could
// not be read: unknown), and the partitions that hold records.
func logRanges(ctx context.Context, client Client, s *snapshot, topics []string) (map[string]newest, []part, error) {
	var tps []kafka.TopicPartition
	for _, t := range topics {
		for p := range s.topics[t].Partitions {
			tps = append(tps, kafka.TopicPartition{Topic: t, Partition: p})
		}
	}
	starts, err := admin.IndexListedOffsets(client.ListOffsets(ctx, tps, admin.EarliestTimestamp))
	if err != nil {
		return nil, nil, err
	}
	ends, err := admin.IndexListedOffsets(client.ListOffsets(ctx, tps, admin.LatestTimestamp))
	if err != nil {
		return nil, nil, err
	}
	out := map[string]newest{}
	for _, t := range topics {
		out[t] = newest{Empty: true}
	}
	var open []part
	for _, tp := range tps {
		st, en := starts[tp], ends[tp]
		switch {
		case st.Err != nil || en.Err != nil:
			out[tp.Topic] = out[tp.Topic].unknown()
		case en.Offset > st.Offset:
			n := out[tp.Topic]
			n.Empty = false
			out[tp.Topic] = n
			open = append(open, part{tp, st.Offset, en.Offset})
		}
	}
	return out, open, nil
}

// unknown counts a non-empty partition whose newest record is unknown.
func (n newest) unknown() newest {
	n.Empty = false
	n.Unknown++
	return n
}

// add counts the record read as a partition's newest; again tells to
// look one record further back (a marker or an aborted record was there,
// and tries remain).
func (n newest) add(rec admin.FirstRecord, triesLeft bool) (newest, bool) {
	switch {
	case rec.Found && rec.Timestamp >= 0:
		ts := time.UnixMilli(rec.Timestamp).UTC()
		if n.Newest == nil || ts.After(*n.Newest) {
			n.Newest = &ts
		}
		if rec.TimestampType != admin.LogAppendTime {
			n.CreateTime++
		}
	case rec.Err == nil && !rec.Pending && !rec.Found && triesLeft:
		return n, true
	default:
		n.Unknown++
	}
	return n, false
}

// age tells whether u's data was written at least minAge before now, and
// if not, why. Only the broker's log append time tells when a record was
// written: a record's CreateTime is its producer's (for Kafka Streams'
// changelog and repartition records, the input's event time, which may
// be years old or in the future), so a topic whose newest record carries
// one has an unknown age and is kept. An empty topic has no record that
// could be too young: it holds nothing that a deletion would lose, so it
// counts as old enough. minAge 0 deletes regardless of age.
func age(u Usage, now time.Time, minAge time.Duration) (string, bool) {
	switch {
	case minAge == 0, u.Empty:
		return "", true
	case !u.NewestKnown():
		return fmt.Sprintf("the newest record of %d partitions could not be read, so its age is unknown", u.Unknown), false
	case u.CreateTime > 0:
		return fmt.Sprintf("its age is unknown: the newest record of %d partitions carries its producer's time (message.timestamp.type=CreateTime), not when it was written; --min-age 0 deletes it regardless of age", u.CreateTime), false
	case now.Sub(*u.Newest) < minAge:
		return fmt.Sprintf("its newest record (appended %s) is younger than --min-age %s", u.Newest.Format(time.RFC3339), minAge), false
	}
	return "", true
}
