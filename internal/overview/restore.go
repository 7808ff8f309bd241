package overview

import "github.com/kstreams-groups/kstreams-groups/internal/kafka"

// Restoration progress. A member reports, per task it has state for, the
// cumulative offset of its copy of the task's changelogs (TaskOffsets) and
// the changelogs' cumulative end offset (TaskEndOffsets). A copy's lag is
// the task's end offset (the largest any member reports) minus its
// offset: for an active task, what it still restores; for a standby, how
// far it is behind; for a warm-up, how far it has to catch up. Kafka
// Streams reports a running, caught-up active task as -2
// (Task.LATEST_OFFSET): lag 0. Nothing reported is unknown, never 0; a
// 4.4.0 broker reports nothing (FINDINGS F420).

// latestOffset is Kafka Streams' Task.LATEST_OFFSET: a running active task.
const latestOffset = -2

// The kinds of a task's copies.
const (
	CopyActive  = "active"
	CopyStandby = "standby"
	CopyWarmup  = "warmup"
)

// CopyProgress is one copy of a task and its restoration progress.
type CopyProgress struct {
	Member int
	Kind   string
	// Reported tells that the member reported an offset for the task and
	// an end offset is known; Offset, End and Lag are set only then.
	Reported    bool
	Offset, End int64
	Lag         int64
	// Within tells that Lag is within streams.acceptable.recovery.lag
	// (WithinKnown false when that is not known).
	Within, WithinKnown bool
}

type taskKey struct {
	sub  string
	part int32
}

// progressIndex is every member's reported offsets and the tasks' end
// offsets.
type progressIndex struct {
	offsets []map[taskKey]int64
	end     map[taskKey]int64
}

func newProgressIndex(members []kafka.Member) *progressIndex {
	ix := &progressIndex{offsets: make([]map[taskKey]int64, len(members)), end: map[taskKey]int64{}}
	for i := range members {
		ix.offsets[i] = map[taskKey]int64{}
		for _, o := range members[i].TaskOffsets {
			ix.offsets[i][taskKey{o.SubtopologyID, o.Partition}] = o.Offset
		}
		for _, o := range members[i].TaskEndOffsets {
			k := taskKey{o.SubtopologyID, o.Partition}
			if e, ok := ix.end[k]; !ok || o.Offset > e {
				ix.end[k] = o.Offset
			}
		}
	}
	return ix
}

// copies lists the progress of t's copies: active, standbys, warm-ups.
func (ix *progressIndex) copies(t *Task, c *Coverage) []CopyProgress {
	k := taskKey{t.Subtopology, t.Partition}
	var out []CopyProgress
	add := func(kind string, members []int) {
		for _, m := range members {
			cp := CopyProgress{Member: m, Kind: kind}
			off, ok := ix.offsets[m][k]
			end, endOK := ix.end[k]
			switch {
			case ok && off == latestOffset:
				cp.Reported, cp.Offset, cp.End = true, off, end
			case ok && endOK && off >= 0:
				cp.Reported, cp.Offset, cp.End = true, off, end
				cp.Lag, _ = lagFrom(end, off)
			}
			if cp.Reported && c.AcceptableLagKnown {
				cp.Within, cp.WithinKnown = cp.Lag <= c.AcceptableLag, true
			}
			out = append(out, cp)
		}
	}
	add(CopyActive, t.Active)
	add(CopyStandby, t.Standby)
	add(CopyWarmup, t.Warmup)
	return out
}
