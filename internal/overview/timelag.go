package overview

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// Time lag and record lag. The offset lag (end minus committed) counts
// every offset, transaction markers and aborted records included, and says
// nothing of time. For each partition a task reads, from where the
// application resumes (its committed offset, else the log start):
//
//   - the time lag is now minus the timestamp of the first record a
//     read_committed consumer would process next (no marker, no aborted
//     record); 0 when there is none, that is, caught up;
//   - the record lag is the number of such records up to the log end,
//     counted when the offset lag is at most admin.RecordCountBound; above
//     it, the offset lag stands as an upper bound (Exact false).
//
// A task's, a subtopology's and a group's time lag is the largest of
// theirs (never a sum: two partitions four minutes behind are four
// minutes behind); their record lag is a sum, saturating.

// ClockSkewAllowance is how far after now a record's timestamp may be and
// still be taken as its time (a lag of 0): clocks kept by NTP agree within
// well under a second, and a minute covers one drifting between syncs. A
// record stamped further ahead (a producer's clock far off, a bogus time
// such as 2^63-1) says nothing of how far behind the application is: its
// time lag comes from the next records with a plausible time, or is
// unknown (FutureTimestampError). A lag of 0 there would hide the records
// behind it, however old.
const ClockSkewAllowance = time.Minute

// FutureTimestampError is why a partition's time lag is unknown: the first
// record to process is stamped after now plus ClockSkewAllowance, and no
// later record read up to the log end has a plausible time.
type FutureTimestampError struct {
	Offset int64
	// Timestamp (ms since the epoch) is the record's.
	Timestamp int64
	// Records counts the records skipped for their time, the first
	// included.
	Records int64
}

func (e *FutureTimestampError) Error() string {
	when := fmt.Sprintf("%d ms since the epoch", e.Timestamp)
	if t := time.UnixMilli(e.Timestamp).UTC(); t.Year() <= 9999 {
		when = t.Format("2006-01-02T15:04:05.000Z")
	}
	return fmt.Sprintf("the record at offset %d is stamped %s, after now beyond the %s clock-skew allowance, and no later record up to the log end has a plausible time (%d skipped)",
		e.Offset, when, ClockSkewAllowance, e.Records)
}

// TimeLag is a time lag and a record lag.
type TimeLag struct {
	// Measured tells that the records were read (Options.TimeLag); the
	// other fields are zero otherwise.
	Measured bool
	// Known tells that Lag is a time (at the partition: a record with a
	// timestamp was read, or there is none to process; above it: every
	// partition's is known). Lag is never negative.
	Known bool
	Lag   time.Duration
	// Timestamp is the time (ms since the epoch) of the first unprocessed
	// record, -1 when there is none or it has none; TimestampType is its
	// topic's, CreateTime or LogAppendTime ("" unknown). Partition only.
	Timestamp     int64
	TimestampType string
	// Future counts the records skipped for their time at a partition
	// whose first record to process is stamped in the future
	// (ClockSkewAllowance); Timestamp is then the first later record's.
	Future int64
	// Records is the record lag; Exact tells it was counted, else it is
	// the offset lag, an upper bound.
	Records int64
	Exact   bool
	// Err is why a partition's time lag is not known, when it is an
	// error (Known false without Err: the record has no timestamp, or an
	// open transaction holds the next records); above the partition, the
	// first of its partitions' errors.
	Err error
}

// RecordReader is what the time lag needs from the client, besides
// Client; a client without it gets no time lag.
type RecordReader interface {
	FetchFirstRecords(ctx context.Context, qs []admin.FirstRecordQuery) ([]admin.FirstRecord, admin.FetchStats, error)
}

// fillTimeLag reads the first unprocessed record of every partition of the
// groups that have offsets (one Fetch per leader, see
// admin.FetchFirstRecords) and fills their time lag; it returns the Fetch
// requests sent. A partition that cannot be read has an unknown time lag
// and its error; the group keeps its offsets. leaders are the partitions'
// leaders that ListOffsets met (fillLag): the Fetch goes to them without
// a Metadata request.
//
// pre, when set, holds reads made ahead (readAhead): a partition read
// there from the same offset to the same end takes that answer, and only
// the others are fetched now.
func fillTimeLag(ctx context.Context, client Client, groups []*Group, leaders leaderOf, now func() time.Time, pre *prefetch) int {
	rr, ok := client.(RecordReader)
	if !ok {
		return 0
	}
	plan := planReads(groups, leaders, plausibleUntil(now), pre)
	var got []admin.FirstRecord
	var stats admin.FetchStats
	var err error
	if len(plan.qs) > 0 {
		got, stats, err = rr.FetchFirstRecords(ctx, plan.qs)
	}
	at := now()
	for i, row := range plan.early {
		row.Time = partitionTimeLag(at, *row, plan.earlyGot[i])
	}
	for i, row := range plan.rows {
		fr := admin.FirstRecord{Err: err}
		if err == nil && i < len(got) {
			fr = got[i]
		}
		row.Time = partitionTimeLag(at, *row, fr)
	}
	for _, g := range groups {
		if g.Err == nil {
			aggregate(g)
		}
	}
	if pre != nil {
		stats.Requests += pre.stats.Requests
	}
	return stats.Requests
}

// readPlan is what fillTimeLag reads: the rows to read now with their
// queries, and those the read ahead answered (most or none), with their
// answers.
type readPlan struct {
	qs          []admin.FirstRecordQuery
	rows, early []*PartitionLag
	earlyGot    []admin.FirstRecord
}

// planReads sorts the offset rows of the groups into those the read ahead
// answered and those to read now, from the committed offset (else the log
// start) to the log end, at the leader ListOffsets met when known.
func planReads(groups []*Group, leaders leaderOf, latest int64, pre *prefetch) readPlan {
	n := 0
	eachOffset(groups, func(*PartitionLag) { n++ })
	var p readPlan
	if pre != nil {
		p.early, p.earlyGot = make([]*PartitionLag, 0, n), make([]admin.FirstRecord, 0, n)
	} else {
		p.qs, p.rows = make([]admin.FirstRecordQuery, 0, n), make([]*PartitionLag, 0, n)
	}
	eachOffset(groups, func(row *PartitionLag) {
		from := row.LogStart
		if row.Committed != nil {
			from = max(*row.Committed, row.LogStart)
		}
		q := admin.FirstRecordQuery{TopicPartition: row.TopicPartition, From: from, End: row.LogEnd, Count: row.LogEnd-from <= admin.RecordCountBound, Latest: latest}
		if fr, ok := pre.answer(q); ok {
			p.early, p.earlyGot = append(p.early, row), append(p.earlyGot, fr)
			return
		}
		if leaders != nil {
			q.Leader, q.LeaderKnown = leaders(row.TopicPartition)
		}
		p.qs, p.rows = append(p.qs, q), append(p.rows, row)
	})
	return p
}

// eachOffset calls fn with every offset row of the groups without error.
func eachOffset(groups []*Group, fn func(*PartitionLag)) {
	for _, g := range groups {
		if g.Err != nil {
			continue
		}
		for _, st := range g.Subtopologies {
			for _, t := range st.Tasks {
				for i := range t.Offsets {
					fn(&t.Offsets[i])
				}
			}
		}
	}
}

// prefetch is the time lag's Fetch sent ahead, while the log starts are
// asked (readAhead): its queries, sorted by partition and offsets, and
// their answers.
type prefetch struct {
	qs    []admin.FirstRecordQuery
	got   []admin.FirstRecord
	stats admin.FetchStats
}

// readAhead reads, for the groups whose offsets were fetched, every
// partition a task reads from its committed offset up to the log end
// ListOffsets gave, so that the Fetch and the log starts' ListOffsets are
// out at once (a round trip less on the time lag's way). What it reads is
// what fillTimeLag would ask once the log starts are known, for every
// committed offset at or after its log start; a partition never
// committed is read from its log start, so when a group has one, nothing
// is read ahead (a second Fetch per leader would follow). nil when
// nothing was read or the read failed as a whole (fillTimeLag then reads
// everything, and says why).
func readAhead(ctx context.Context, rr RecordReader, groups []*Group, committed map[string]partitionIndex[admin.CommittedOffset], latest partitionIndex[admin.ListedOffset], now func() time.Time) *prefetch {
	plausible := plausibleUntil(now)
	n := 0
	for _, g := range groups {
		for _, st := range g.Subtopologies {
			n += len(st.Tasks) * len(st.Sources)
		}
	}
	qs := make([]admin.FirstRecordQuery, 0, n)
	for _, g := range groups {
		if g.Err != nil {
			continue
		}
		for _, st := range g.Subtopologies {
			for _, t := range st.Tasks {
				for _, src := range st.Sources {
					tp := kafka.TopicPartition{Topic: src.Topic, Partition: t.Partition}
					end := latest.at(tp)
					if end.Err != nil {
						continue // not a row of the overview, or the group fails
					}
					c, ok := committed[g.Group].get(tp)
					if !ok {
						return nil
					}
					qs = append(qs, admin.FirstRecordQuery{TopicPartition: tp, From: c.Offset, End: end.Offset, Count: end.Offset-c.Offset <= admin.RecordCountBound,
						Leader: end.Leader, LeaderKnown: end.Leader >= 0, Latest: plausible})
				}
			}
		}
	}
	if len(qs) == 0 {
		return nil
	}
	slices.SortFunc(qs, compareQueries)
	qs = slices.CompactFunc(qs, func(a, b admin.FirstRecordQuery) bool { return compareQueries(a, b) == 0 })
	got, stats, err := rr.FetchFirstRecords(ctx, qs)
	if err != nil || len(got) != len(qs) {
		return nil
	}
	return &prefetch{qs: qs, got: got, stats: stats}
}

// plausibleUntil is the latest plausible record time (ms) at now.
func plausibleUntil(now func() time.Time) int64 {
	return now().Add(ClockSkewAllowance).UnixMilli()
}

// compareQueries orders queries by partition, then by what is read.
func compareQueries(a, b admin.FirstRecordQuery) int {
	return cmp.Or(kafka.CompareTopicPartitions(a.TopicPartition, b.TopicPartition),
		cmp.Compare(a.From, b.From), cmp.Compare(a.End, b.End))
}

// answer is the read ahead's answer for q: one read of the same partition
// between the same offsets (a count asked as q asks it, since Count
// follows from them).
func (p *prefetch) answer(q admin.FirstRecordQuery) (admin.FirstRecord, bool) {
	if p == nil {
		return admin.FirstRecord{}, false
	}
	i, ok := slices.BinarySearchFunc(p.qs, q, compareQueries)
	if !ok || p.qs[i].Count != q.Count {
		return admin.FirstRecord{}, false
	}
	return p.got[i], true
}

// partitionTimeLag is one partition's figures from its read.
func partitionTimeLag(now time.Time, row PartitionLag, fr admin.FirstRecord) TimeLag {
	tl := TimeLag{Measured: true, Timestamp: -1, TimestampType: fr.TimestampType, Records: max(row.Lag, 0)}
	switch {
	case fr.Err != nil:
		tl.Err = fr.Err
		return tl
	case fr.Found:
		tl.Timestamp, tl.Future = fr.Timestamp, fr.Future
		tl.Lag, tl.Known = admin.TimeLag(now, fr.Timestamp)
		if fr.Future > 0 && !tl.Known {
			tl.Err = &FutureTimestampError{Offset: fr.Offset, Timestamp: fr.FutureTimestamp, Records: fr.Future}
		}
	case !fr.Pending:
		// Nothing to process: caught up, or only markers and aborted
		// records follow.
		tl.Known = true
	}
	if fr.Counted {
		tl.Records, tl.Exact = fr.Records, true
	}
	return tl
}

// aggregate fills the tasks', subtopologies' and group's time lag: the
// largest, known when every part is; records summed.
func aggregate(g *Group) {
	none := TimeLag{Measured: true, Known: true, Exact: true, Timestamp: -1}
	g.Time = none
	for _, st := range g.Subtopologies {
		st.Time = none
		for _, t := range st.Tasks {
			t.Time = none
			for _, row := range t.Offsets {
				t.Time = merge(t.Time, row.Time)
			}
			st.Time = merge(st.Time, t.Time)
		}
		g.Time = merge(g.Time, st.Time)
	}
}

func merge(a, b TimeLag) TimeLag {
	a.Lag = max(a.Lag, b.Lag)
	a.Known = a.Known && b.Known
	a.Exact = a.Exact && b.Exact
	a.Records = AddLag(a.Records, b.Records)
	if a.Err == nil {
		a.Err = b.Err // the first partition's, to say why
	}
	return a
}

// DeniedTopics are the topics, sorted, whose records the principal may not
// read: a Fetch of one of their partitions answered
// TOPIC_AUTHORIZATION_FAILED (no READ ACL; DESCRIBE, which the offsets
// need, was granted). Their time lag is unknown and their offset lag
// stands: the caller says so once per topic rather than failing.
func DeniedTopics(groups []*Group) []string {
	measured := slices.DeleteFunc(slices.Clone(groups), func(g *Group) bool { return g == nil || !g.Time.Measured })
	var out []string
	eachOffset(measured, func(row *PartitionLag) {
		var ke *kafka.Error
		if errors.As(row.Time.Err, &ke) && ke.Code == kafka.CodeTopicAuthorizationFailed {
			out = append(out, row.Topic)
		}
	})
	slices.Sort(out)
	return slices.Compact(out)
}
