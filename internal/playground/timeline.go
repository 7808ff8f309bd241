package playground

import (
	"context"
	"fmt"
	"time"
)

// StateTimeline is a state file's scripted change: steps that replace
// streams groups of the seed while the playground runs (Cluster.Play), so
// that a rebalance can be watched as it happens. Load ignores it: tests
// that load a seed see it as it is written.
type StateTimeline struct {
	// Repeat starts the steps again after the last one. Each round adds
	// the growth of the group and assignment epochs over the previous
	// round to every epoch the steps give, so that epochs only rise, as
	// a broker's do.
	Repeat bool        `yaml:"repeat"`
	Steps  []StateStep `yaml:"steps"`
}

// StateStep replaces the streams groups with the given ids, After the
// previous step (or the start).
type StateStep struct {
	After         string         `yaml:"after"` // a Go duration: "10s"
	StreamsGroups []StreamsGroup `yaml:"streams_groups"`
}

// minStepGap keeps a repeating timeline from spinning.
const minStepGap = 100 * time.Millisecond

// validateTimeline checks a timeline against the seed's streams groups.
func validateTimeline(s *State, p *problems) {
	if s.Timeline == nil {
		return
	}
	if len(s.Timeline.Steps) == 0 {
		p.add("timeline: steps is empty")
	}
	seed := map[string]bool{}
	for _, g := range s.StreamsGroups {
		seed[g.ID] = true
	}
	for i := range s.Timeline.Steps {
		step := &s.Timeline.Steps[i]
		where := fmt.Sprintf("timeline.steps[%d]", i)
		if d, err := time.ParseDuration(step.After); err != nil || d < minStepGap {
			p.add("%s: after %q: want a duration of at least %s, such as 10s", where, step.After, minStepGap)
		}
		if len(step.StreamsGroups) == 0 {
			p.add("%s: streams_groups is empty", where)
		}
		ids := map[string]bool{}
		for j := range step.StreamsGroups {
			g := &step.StreamsGroups[j]
			w := fmt.Sprintf("%s.streams_groups[%d]", where, j)
			p.unique(ids, w, "id", "group id", g.ID)
			if g.ID != "" {
				w = fmt.Sprintf("%s (%s)", w, g.ID)
				if !seed[g.ID] {
					p.add("%s: not a streams group of the seed (a step replaces one)", w)
				}
			}
			g.validate(w, p)
		}
	}
}

// Play runs s's timeline, if it has one, until ctx ends or (without
// Repeat) the last step is done. It returns at once when there is none.
func (c *Cluster) Play(ctx context.Context, s *State) {
	if s.Timeline == nil || len(s.Timeline.Steps) == 0 {
		return
	}
	steps := s.Timeline.Steps
	growth := epochGrowth(s)
	for round := int32(0); ; round++ {
		for _, step := range steps {
			d, _ := time.ParseDuration(step.After) // validated
			t := time.NewTimer(max(d, minStepGap))
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
			for _, g := range step.StreamsGroups {
				c.PutStreamsGroup(g.shiftEpochs(round * growth[g.ID]))
			}
		}
		if !s.Timeline.Repeat {
			return
		}
	}
}

// epochGrowth is, per group a timeline changes, how far one round moves
// its group epoch: from the seed's to the last step's that names it.
func epochGrowth(s *State) map[string]int32 {
	out := map[string]int32{}
	for _, g := range s.StreamsGroups {
		last := g.GroupEpoch
		for _, step := range s.Timeline.Steps {
			for _, sg := range step.StreamsGroups {
				if sg.ID == g.ID {
					last = sg.GroupEpoch
				}
			}
		}
		out[g.ID] = max(last-g.GroupEpoch, 0)
	}
	return out
}

// shiftEpochs is g with every epoch of the group and its members raised by
// n.
func (g StreamsGroup) shiftEpochs(n int32) StreamsGroup {
	if n == 0 {
		return g
	}
	g.GroupEpoch += n
	g.AssignmentEpoch += n
	members := make([]Member, len(g.Members))
	for i, m := range g.Members {
		m.MemberEpoch += n
		members[i] = m
	}
	g.Members = members
	return g
}
