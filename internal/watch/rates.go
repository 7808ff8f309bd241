package watch

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/overview"
)

// Progress is where a sub-topology stands in one sample: the sum over its
// tasks' source partitions of the resume offset (committed, else the log
// start) and of the log end. Only a sample that read the records
// (overview --time-lag) has it.
type Progress struct {
	Subtopology   string
	Position, End int64
}

// progress sums a measured overview group's sub-topologies.
func progress(g *overview.Group) []Progress {
	if !g.Time.Measured {
		return nil
	}
	var out []Progress
	for _, st := range g.Subtopologies {
		p := Progress{Subtopology: st.ID}
		for _, t := range st.Tasks {
			for _, o := range t.Offsets {
				pos := o.LogStart
				if o.Committed != nil {
					pos = *o.Committed
				}
				p.Position, p.End = sat(p.Position, pos), sat(p.End, o.LogEnd)
			}
		}
		out = append(out, p)
	}
	return out
}

func sat(a, b int64) int64 {
	if b > 0 && a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// Rate is a sub-topology's pace between two samples.
type Rate struct {
	Group, Subtopology string
	// Consume is the records (offsets) it processed per second, Input
	// the records its sources received per second; Lag is its offset lag
	// now.
	Consume, Input float64
	Lag            int64
	// CatchUp is the time to process the lag at Consume - Input; Behind
	// tells that the lag does not shrink at these rates (Input at least
	// Consume) while there is lag.
	CatchUp time.Duration
	Behind  bool
}

func (r Rate) String() string {
	s := fmt.Sprintf("sub-topology %s consumes %s/s, input %s/s", r.Subtopology, rate(r.Consume), rate(r.Input))
	switch {
	case r.Lag <= 0:
		return s + ", caught up"
	case r.Behind:
		return s + ", falling behind"
	}
	return s + ", catches up in about " + r.CatchUp.Round(time.Second).String()
}

func rate(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// Rates compares two samples' progress: one Rate per sub-topology present
// in both, for groups described in both, in the current sample's order.
// Nothing when the samples are not apart in time (At) or have no progress.
func Rates(prev, cur Snapshot) []Rate {
	dt := cur.At.Sub(prev.At).Seconds()
	if dt <= 0 {
		return nil
	}
	before := map[string]map[string]Progress{}
	for _, g := range prev.Groups {
		if _, dup := before[g.ID]; dup || g.Err != "" {
			continue
		}
		m := map[string]Progress{}
		for _, p := range g.Progress {
			m[p.Subtopology] = p
		}
		before[g.ID] = m
	}
	var out []Rate
	seen := map[string]bool{}
	for _, g := range cur.Groups {
		if seen[g.ID] || g.Err != "" {
			continue
		}
		seen[g.ID] = true
		for _, p := range g.Progress {
			was, ok := before[g.ID][p.Subtopology]
			if !ok {
				continue
			}
			// Offsets only grow; a reset or a deleted partition makes a
			// difference negative, which is no rate.
			r := Rate{Group: g.ID, Subtopology: p.Subtopology, Lag: max(p.End-p.Position, 0),
				Consume: max(float64(p.Position-was.Position), 0) / dt, Input: max(float64(p.End-was.End), 0) / dt}
			if r.Lag > 0 {
				if gain := r.Consume - r.Input; gain > 0 {
					r.CatchUp = time.Duration(float64(r.Lag) / gain * float64(time.Second))
				} else {
					r.Behind = true
				}
			}
			out = append(out, r)
		}
	}
	return out
}
