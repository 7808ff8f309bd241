package upgrade

import (
	"context"
	"errors"
	"fmt"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/diff"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// Stdin is NEW spelled "-": a description read from standard input.
const Stdin = diff.Stdin

// Options are one upgrade plan invocation.
type Options struct {
	// Group is the streams group (its id is the application id).
	Group string
	// New is NEW as given: a file, or Stdin.
	New string
}

// Validate checks the options before anything is read or fetched.
func (o Options) Validate() error {
	switch {
	case o.Group == "":
		return errors.New("upgrade needs the streams group: --group GROUP")
	case o.New == "":
		return errors.New("upgrade takes one argument, NEW: a file with the new topology description, or - for stdin")
	}
	return nil
}

// Client is what Run needs from the admin client: the group's description
// with its topology, its committed offsets, and the partitions and offsets
// of the internal topics the migration would leave.
type Client interface {
	DescribeStreamsGroups(ctx context.Context, groups []string, includeTopology bool) []admin.DescribedGroup
	FetchCommittedOffsets(ctx context.Context, groups []string) []admin.GroupOffsets
	DescribeTopics(ctx context.Context, topics []string) ([]admin.TopicInfo, error)
	ListOffsets(ctx context.Context, tps []kafka.TopicPartition, timestamp int64) ([]admin.ListedOffset, error)
}

// Sources are where Run reads from: the group's cluster and the reader of
// NEW (diff's: the command hands in the one reader of topology files).
type Sources struct {
	Client Client
	// Read reads NEW (Stdin for standard input) into a description.
	Read func(file string) (*topology.Description, error)
}

// Result is one plan, or why there is none.
type Result struct {
	Group string
	// New is NEW as given.
	New string
	// Plan is nil when Err is set.
	Plan *Plan
	// Err is why no plan could be made: NEW unreadable, the group not
	// described or its topology not stored, its offsets not read.
	Err error
}

// Failures lists the group's failure, if any.
func (r *Result) Failures() []kafka.Failure {
	return kafka.Failures([]*Result{r}, func(r *Result) (string, error) { return r.Group, r.Err })
}

// Outcome is what the plan says to a script; a result without a plan has
// none and reports AcceptedAsIs (its failure decides the exit).
func (r *Result) Outcome() Verdict {
	if r.Plan == nil {
		return AcceptedAsIs
	}
	return r.Plan.Verdict
}

// NewError is why NEW could not be read.
type NewError struct {
	File string
	Err  error
}

func (e *NewError) Error() string { return fmt.Sprintf("NEW %s: %v", e.File, e.Err) }
func (e *NewError) Unwrap() error { return e.Err }

// Run reads NEW, fetches the group's description with its topology and its
// committed offsets, asks the broker's rule (diff's) whether it accepts
// NEW for the group, and, when it refuses, looks up the partitions and
// offsets of the internal topics the migration leaves: the end offsets of
// the repartition topics NEW renames or drops, and the size of the
// changelogs of the stores whose state is lost. The error is for failures
// of the whole command: a ctx cancelled (a signal) returns its cause.
func Run(ctx context.Context, src Sources, opts Options) (*Result, error) {
	res := &Result{Group: opts.Group, New: opts.New}
	newDesc, err := src.Read(opts.New)
	if err != nil {
		res.Err = &NewError{File: opts.New, Err: err}
		return res, nil
	}
	g, offsets, err := fetchGroup(ctx, src.Client, opts.Group)
	if err == nil {
		var c *diff.Comparison
		c, err = diff.CompareContext(ctx, diff.Input{Description: g.Topology, ApplicationID: opts.Group, Subtopologies: g.Subtopologies},
			diff.Input{Description: newDesc, ApplicationID: opts.Group})
		if err == nil {
			in := Answers{Group: opts.Group, Streams: g, Offsets: offsets, New: newDesc, Comparison: c}
			if c.Refused() {
				in.Topics, in.Starts, in.Ends = lookUp(ctx, src.Client, in.Lookups())
			}
			res.Plan = Build(in)
		}
	}
	if ctx.Err() != nil && errors.Is(ctx.Err(), context.Canceled) {
		return nil, context.Cause(ctx)
	}
	res.Err = err
	return res, nil
}

// fetchGroup describes the group with its topology (as diff fetches a
// group side) and fetches its committed offsets.
func fetchGroup(ctx context.Context, client Client, group string) (*kafka.StreamsGroup, []admin.CommittedOffset, error) {
	sg, err := diff.DescribeGroup(ctx, client, group)
	switch {
	case err != nil:
		return nil, nil, err
	case sg.TopologyStatus == topology.Available:
	case len(sg.Subtopologies) > 0:
		// No description stored: the topology the broker keeps is what
		// its verdict compares, and it names every topic.
		g := *sg
		g.Topology = fromRecord(group, g.Subtopologies)
		sg = &g
	default:
		return nil, nil, &kafka.StatusError{Group: group, Status: sg.TopologyStatus}
	}
	offs := client.FetchCommittedOffsets(ctx, []string{group})
	if err := answerErr(offs, func(g admin.GroupOffsets) error { return g.Err }, "OffsetFetch"); err != nil {
		return nil, nil, err
	}
	return sg, offs[0].Offsets, nil
}

// lookUp reads the partitions of topics and their log start and end
// offsets. What fails is left out: Build reads a topic or partition
// without an answer as unknown (never as drained).
func lookUp(ctx context.Context, client Client, topics []string) ([]admin.TopicInfo, []admin.ListedOffset, []admin.ListedOffset) {
	if len(topics) == 0 {
		return nil, nil, nil
	}
	infos, err := client.DescribeTopics(ctx, topics)
	if err != nil {
		return nil, nil, nil
	}
	var tps []kafka.TopicPartition
	for _, t := range infos {
		if t.Err != nil {
			continue
		}
		for _, p := range t.Partitions {
			tps = append(tps, kafka.TopicPartition{Topic: t.Topic, Partition: p.Partition})
		}
	}
	starts, _ := client.ListOffsets(ctx, tps, admin.EarliestTimestamp)
	ends, _ := client.ListOffsets(ctx, tps, admin.LatestTimestamp)
	return infos, starts, ends
}
