package describe

import (
	"context"
	"errors"
	"slices"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// Options select what to describe.
type Options struct {
	// Groups are described in this order; AllGroups lists them instead.
	Groups    []string
	AllGroups bool
	// Topology asks the broker for the KIP-1331 topology description.
	Topology bool
	// Members, State and Offsets select the other views; Offsets is the
	// default when none of the four is set. At most one may be set.
	Members, State, Offsets bool
	// StateValue is the value given to --state, which takes none here; nil
	// when there is none.
	StateValue *string
	// Verbose adds the verbose columns to the text views.
	Verbose bool
}

// View is what a describe prints about each group.
type View int

// The describe views of kafka-streams-groups.sh. The zero value is the
// topology view, the first one this tool had, so a Result built without a
// view keeps the topology document.
const (
	ViewTopology View = iota
	ViewOffsets
	ViewMembers
	ViewState
)

// View returns the selected view.
func (o Options) View() View {
	switch {
	case o.Topology:
		return ViewTopology
	case o.Members:
		return ViewMembers
	case o.State:
		return ViewState
	}
	return ViewOffsets
}

// Validate checks the options before any I/O, with the Java tool's
// messages in its order (StreamsGroupCommandOptions.checkArgs). The checks
// shared with other verbs (--group with --all-groups) are the command
// line's.
func (o Options) Validate() error {
	if !o.AllGroups && len(o.Groups) == 0 {
		return errors.New("Option [describe] takes one of these options: [all-groups], [group]")
	}
	n := 0
	for _, on := range []bool{o.Members, o.Offsets, o.State, o.Topology} {
		if on {
			n++
		}
	}
	if n > 1 {
		return errors.New("Option [describe] takes at most one of these options: [members], [offsets], [state], [topology]")
	}
	if o.State && o.StateValue != nil {
		return errors.New("Option [describe] does not take a value for [state]")
	}
	return nil
}

// Client is what Run needs from the admin client.
type Client interface {
	DescribeStreamsGroups(ctx context.Context, groups []string, includeTopology bool) []admin.DescribedGroup
	ListStreamsGroups(ctx context.Context) ([]admin.ListedGroup, error)
	// FetchCommittedOffsets and ListOffsets serve the offsets view.
	FetchCommittedOffsets(ctx context.Context, groups []string) []admin.GroupOffsets
	ListOffsets(ctx context.Context, tps []kafka.TopicPartition, timestamp int64) ([]admin.ListedOffset, error)
	// LoadTopics loads the partition leaders of topics, so that the two
	// ListOffsets the offsets view sends together do not each ask for
	// them; a failure is left for the ListOffsets to report.
	LoadTopics(ctx context.Context, topics []string)
}

// Result holds one Group per requested group, in request order.
type Result struct {
	Groups []*Group
	// View is the view the groups were described for.
	View View
}

// Failures lists the groups that could not be described and, in the
// topology view (the only health-aware one), those whose description is
// not AVAILABLE, in request order.
func (r *Result) Failures() []kafka.Failure {
	return kafka.Failures(r.Groups, func(g *Group) (string, error) {
		if g.Err == nil && r.View == ViewTopology && g.TopologyStatus != topology.Available {
			return g.Group, &kafka.StatusError{Group: g.Group, Status: g.TopologyStatus}
		}
		return g.Group, g.Err
	})
}

// Group is one described group, or the error that kept it from being
// described.
type Group struct {
	Group       string
	Coordinator *kafka.Broker
	kafka.StreamsGroup
	// Offsets are the rows of the offsets view, sorted by topic and
	// partition; nil in other views and for groups the view skips
	// (HasRows).
	Offsets []PartitionOffset
	// Err is set when the group could not be described.
	Err error
}

// Run describes the groups of opts, which passed Validate. Per-group
// failures are in each Group's Err; the returned error is for failures of
// the whole command, such as listing the groups. With AllGroups, Groups is
// ignored.
func Run(ctx context.Context, client Client, opts Options) (*Result, error) {
	ids, err := admin.RequestedGroups(ctx, client, opts.Groups, opts.AllGroups)
	if err != nil {
		return nil, err
	}
	res := &Result{Groups: make([]*Group, 0, len(ids)), View: opts.View()}
	if len(ids) == 0 {
		return res, nil
	}
	for _, d := range client.DescribeStreamsGroups(ctx, ids, opts.Topology) {
		res.Groups = append(res.Groups, build(d))
	}
	if opts.View() == ViewOffsets {
		fillOffsets(ctx, client, slices.DeleteFunc(slices.Clone(res.Groups), func(g *Group) bool { return g.Err != nil }))
	}
	return res, nil
}

// build turns one admin answer into a Group.
func build(d admin.DescribedGroup) *Group {
	g := &Group{Group: d.Group, Err: d.Err}
	if d.Coordinator != (kafka.Broker{}) {
		c := d.Coordinator
		g.Coordinator = &c
	}
	if d.Streams != nil {
		g.StreamsGroup = *d.Streams
	}
	return g
}
