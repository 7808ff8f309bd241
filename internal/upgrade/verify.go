package upgrade

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/diff"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// upgrade verify checks, after the operator started the new version, that
// the migration ended where it should: the group is a streams group that
// holds NEW's topology (diff's broker rule finds nothing it would refuse),
// it is Stable, and every exported offset only moved forward. An old
// instance that joined first leaves the group on the old topology (the new
// one is then refused again, upgrade-migration fact 5); an application
// started before the commit re-read its inputs from the earliest offset:
// its offsets are below the export until its first commit, and after it
// only the journal tells (apply's last step is the delete, yet a streams
// group holds the id: FINDINGS F652). Until the new version has joined and
// settled, the answer is "not yet", and --wait keeps asking.

// VerifyOptions are one upgrade verify invocation.
type VerifyOptions struct {
	// Options are the group and NEW.
	Options
	// Wait is how long to keep asking while the answer is "not yet"; 0
	// asks once.
	Wait time.Duration
	// Interval is the time between two asks within Wait; 0 means a second.
	Interval time.Duration
	// Journal is apply's journal (from --export FILE): the exported
	// offsets and what the migration left; nil checks no offsets.
	Journal *Journal
}

// VerifyClient is what verify needs from the admin client.
type VerifyClient interface {
	DescribeStreamsGroups(ctx context.Context, groups []string, includeTopology bool) []admin.DescribedGroup
	FetchCommittedOffsets(ctx context.Context, groups []string) []admin.GroupOffsets
	ListAllGroups(ctx context.Context) ([]admin.AnyGroup, error)
}

// VerifyOutcome is verify's answer.
type VerifyOutcome string

// The outcomes of verify.
const (
	// Verified: a Stable streams group on NEW's topology, no offset moved
	// backwards.
	Verified VerifyOutcome = "verified"
	// NotYet: the new version has not joined or not settled yet.
	NotYet VerifyOutcome = "not-yet"
	// VerifyFailed: the group holds another topology, an offset moved
	// backwards, or the id is another kind of group.
	VerifyFailed VerifyOutcome = "failed"
)

// VerifyResult is what verify found in its last ask.
type VerifyResult struct {
	Group   string
	Outcome VerifyOutcome
	// Type and State are the group's as listed ("" when absent).
	Type, State string
	// Members is the streams group's member count.
	Members int
	// Reason says why the outcome is not Verified, and what to do.
	Reason string
	// OldTopology tells the group holds a topology the broker would refuse
	// NEW for: an instance of another version joined first.
	OldTopology bool
	// Refused are the differences between the group's topology and NEW.
	Refused []Refusal
	// Checked is how many exported offsets were compared.
	Checked int
	// Backwards are the exported partitions whose offset is now below the
	// export (Got -1: no offset any more).
	Backwards []OffsetDiff
	// StaleOffsets are committed offsets of topics the group's topology
	// does not read, for inventory --orphans or delete-offsets.
	StaleOffsets []kafka.TopicPartition
	// OldTopics are the internal topics the migration left (from the
	// journal), for inventory --orphans.
	OldTopics []string
	// Asks is how many times the group was looked at.
	Asks int
	// Err is a failure to read the group or NEW.
	Err error
}

// Failures lists the run's failure, if any.
func (r *VerifyResult) Failures() []kafka.Failure {
	return kafka.Failures([]*VerifyResult{r}, func(r *VerifyResult) (string, error) { return r.Group, r.Err })
}

// VerifySources are where verify reads from.
type VerifySources struct {
	Client VerifyClient
	Read   func(file string) (*topology.Description, error)
}

// Verify reads NEW and asks until the answer is not "not yet" or Wait is
// over. The error is for a signal.
func Verify(ctx context.Context, src VerifySources, opts VerifyOptions) (*VerifyResult, error) {
	newDesc, err := src.Read(opts.New)
	if err != nil {
		return &VerifyResult{Group: opts.Group, Err: &NewError{File: opts.New, Err: err}}, nil
	}
	interval := opts.Interval
	if interval <= 0 {
		interval = time.Second
	}
	deadline := time.Now().Add(opts.Wait)
	asks := 0
	for {
		asks++
		res := verifyOnce(ctx, src.Client, opts, newDesc)
		res.Asks = asks
		if errors.Is(ctx.Err(), context.Canceled) {
			return res, context.Cause(ctx)
		}
		if res.Outcome != NotYet || res.Err != nil || !time.Now().Add(interval).Before(deadline) {
			return res, nil
		}
		select {
		case <-ctx.Done():
			return res, context.Cause(ctx)
		case <-time.After(interval):
		}
	}
}

// verifyOnce looks at the group once.
func verifyOnce(ctx context.Context, client VerifyClient, opts VerifyOptions, newDesc *topology.Description) *VerifyResult {
	res := &VerifyResult{Group: opts.Group}
	if opts.Journal != nil {
		res.OldTopics = slices.Clone(opts.Journal.LeftBehind)
	}
	g, err := findGroup(ctx, client, opts.Group)
	switch {
	case err != nil:
		res.Err = err
		return res
	case g == nil:
		res.Outcome, res.Reason = NotYet, "the group does not exist: nothing has committed to it (was upgrade apply run?)"
		return res
	}
	res.Type, res.State = g.Type, g.State
	switch {
	case simpleClassic(*g):
		res.Outcome, res.Reason = NotYet, "the group is still the Empty classic group the migration made: start the new version (and only it)"
		return res
	case g.Type != "streams":
		res.Outcome, res.Reason = VerifyFailed, fmt.Sprintf("the group is a %s group (%s), not a streams group: another client uses the id", g.Type, g.State)
		return res
	}
	if j := opts.Journal; j != nil && j.Step == StepDelete {
		res.Outcome = VerifyFailed
		res.Reason = "upgrade apply stopped after the delete and never committed the exported offsets, yet a streams group holds the id: " +
			"an application started before the commit and read its inputs from auto.offset.reset, whatever its offsets say now " +
			"(records processed twice, or skipped). Reprocessing under a new application id is the way back"
		return res
	}
	verifyStreams(ctx, client, opts, newDesc, res)
	return res
}

// verifyStreams checks a streams group: its topology, its state, its
// offsets.
func verifyStreams(ctx context.Context, client VerifyClient, opts VerifyOptions, newDesc *topology.Description, res *VerifyResult) {
	sg, err := diff.DescribeGroup(ctx, client, opts.Group)
	if err != nil {
		res.Err = err
		return
	}
	res.State, res.Members = sg.State, len(sg.Members)
	if len(sg.Subtopologies) == 0 {
		res.Outcome, res.Reason = NotYet, "the streams group holds no topology yet"
		return
	}
	if err := res.compareTopology(ctx, opts.Group, sg, newDesc); err != nil {
		res.Err = err
		return
	}
	offs := client.FetchCommittedOffsets(ctx, []string{opts.Group})
	if err := answerErr(offs, func(g admin.GroupOffsets) error { return g.Err }, "OffsetFetch"); err != nil {
		res.Err = err
		return
	}
	// The topics a KIP-1071 topology reads: sources and repartition sources.
	reads := topicSet(sg.Subtopologies, func(s kafka.Subtopology) []string { return slices.Concat(s.SourceTopics, s.RepartitionSourceTopics) })
	res.compareOffsets(opts.Journal, offs[0].Offsets, reads)
	res.decide()
}

// compareTopology asks diff's broker rule whether the group's topology is
// NEW's. Without a stored description the KIP-1071 topology alone is
// compared, which is what the broker compares.
func (r *VerifyResult) compareTopology(ctx context.Context, group string, sg *kafka.StreamsGroup, newDesc *topology.Description) error {
	stored := sg.Topology
	if stored == nil {
		stored = &topology.Description{}
	}
	c, err := diff.CompareContext(ctx, diff.Input{Description: stored, ApplicationID: group, Subtopologies: sg.Subtopologies},
		diff.Input{Description: newDesc, ApplicationID: group})
	if err != nil {
		return err
	}
	r.Refused = refusedBy(c)
	r.OldTopology = len(r.Refused) > 0
	return nil
}

// compareOffsets finds the exported offsets that moved backwards (a topic
// the topology still reads whose offset is below the export, or gone) and
// the committed offsets of topics it does not read.
func (r *VerifyResult) compareOffsets(j *Journal, committed []admin.CommittedOffset, read map[string]bool) {
	have := map[kafka.TopicPartition]int64{}
	for _, o := range committed {
		if o.Err != nil || o.Offset < 0 {
			continue
		}
		have[o.TopicPartition] = o.Offset
		if !read[o.Topic] {
			r.StaleOffsets = append(r.StaleOffsets, o.TopicPartition)
		}
	}
	if j == nil {
		return
	}
	for _, o := range j.Offsets {
		if !read[o.Topic] {
			continue
		}
		r.Checked++
		got, ok := have[o.TopicPartition]
		if !ok {
			got = -1
		}
		if got < o.Offset {
			r.Backwards = append(r.Backwards, OffsetDiff{TopicPartition: o.TopicPartition, Want: o.Offset, Got: got})
		}
	}
}

// decide sets the outcome from what was found, the worst first.
func (r *VerifyResult) decide() {
	switch {
	case r.OldTopology:
		r.Outcome = VerifyFailed
		r.Reason = "the group holds another topology than NEW: an instance of the old version joined first, and the broker refuses NEW for the group again. " +
			"Stop every instance, run upgrade apply again (a fresh export of the offsets the old version committed), then start only the new version"
	case len(r.Backwards) > 0:
		r.Outcome = VerifyFailed
		r.Reason = "offsets moved backwards from the export: the application re-read records it had processed (started before the offsets were committed?). " +
			"Its output and state now hold those records twice; reprocessing under a new application id is the way back"
	case !strings.EqualFold(r.State, "Stable"):
		r.Outcome, r.Reason = NotYet, fmt.Sprintf("the group is %s, not Stable yet", r.State)
	default:
		r.Outcome = Verified
	}
}
