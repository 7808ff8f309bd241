package diff

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// GroupPrefix marks a side that is a streams group's stored description.
const GroupPrefix = "group:"

// Stdin is the side spelled "-": a description read from standard input.
const Stdin = "-"

// Options are one diff invocation.
type Options struct {
	// Args are OLD and NEW as given: group:NAME, a file, or - (stdin).
	Args []string
	// ApplicationID is the application.id whose "<id>-" prefix is taken
	// off the internal topics of a file side; "" means the group's id when
	// the other side is a group, else nothing.
	ApplicationID string
	// FailOn is the least severity that makes the outcome Failing:
	// "breaking" (the default when "") or "warning" or "info".
	FailOn string
	// NewCluster tells that NEW has connection settings of its own
	// (--new-bootstrap-server, --new-command-config).
	NewCluster bool
	// NoNewServer tells that --new-bootstrap-server was given without a
	// server (only commas and blanks).
	NoNewServer bool
}

// Side is OLD or NEW.
type Side struct {
	// Label is "OLD" or "NEW".
	Label string
	// Spec is the side as given on the command line.
	Spec string
	// Group is the streams group of a group: side, "" for a file.
	Group string
	// File is the file of a file side, Stdin for standard input.
	File string
}

// IsGroup tells whether the side is a streams group.
func (s Side) IsGroup() bool { return strings.HasPrefix(s.Spec, GroupPrefix) }

// Sides returns OLD and NEW; valid after Validate.
func (o Options) Sides() (Side, Side) {
	return parseSide("OLD", o.Args[0]), parseSide("NEW", o.Args[1])
}

func parseSide(label, spec string) Side {
	if g, ok := strings.CutPrefix(spec, GroupPrefix); ok {
		return Side{Label: label, Spec: spec, Group: g}
	}
	return Side{Label: label, Spec: spec, File: spec}
}

// FailLevel is the parsed FailOn; valid after Validate.
func (o Options) FailLevel() Severity {
	if o.FailOn == "" {
		return Breaking
	}
	s, _ := ParseSeverity(o.FailOn)
	return s
}

// Validate checks the options before anything is read or fetched.
func (o Options) Validate() error {
	if len(o.Args) != 2 {
		return fmt.Errorf("diff takes two arguments, OLD and NEW (each group:NAME, a file or -), got %d", len(o.Args))
	}
	old, new := o.Sides()
	for _, s := range []Side{old, new} {
		switch {
		case s.IsGroup() && s.Group == "":
			return fmt.Errorf("%s %q: name the group: group:NAME", s.Label, s.Spec)
		case !s.IsGroup() && s.File == "":
			return fmt.Errorf("%s is empty: want group:NAME, a file or -", s.Label)
		}
	}
	if old.File == Stdin && new.File == Stdin {
		return errors.New("OLD and NEW cannot both be read from stdin (-)")
	}
	if o.NewCluster && !new.IsGroup() {
		return fmt.Errorf("--new-bootstrap-server and --new-command-config are for a group: NEW side; NEW is the file %q", new.Spec)
	}
	if o.FailOn != "" {
		if _, err := ParseSeverity(o.FailOn); err != nil {
			return fmt.Errorf("--fail-on: %w", err)
		}
	}
	if o.NoNewServer {
		return errors.New("--new-bootstrap-server: no server given")
	}
	return nil
}

// Client is what Run needs from the admin client of a group side.
type Client interface {
	DescribeStreamsGroups(ctx context.Context, groups []string, includeTopology bool) []admin.DescribedGroup
}

// Sources fetch the sides: the clients of the clusters of OLD and NEW (nil
// for a file side) and the reader of files.
type Sources struct {
	Old, New Client
	// Read reads a file side (Stdin for standard input) into a
	// description; errors name what failed, not the side.
	Read func(file string) (*topology.Description, error)
	// Timeout bounds the fetching of the group sides (0: only ctx does);
	// the comparison after it ends only with ctx.
	Timeout time.Duration
}

// SideResult is a side as it was read or fetched.
type SideResult struct {
	Side
	// ApplicationID is the prefix taken off its internal topics.
	ApplicationID string
	// Err is why the side could not be read or fetched.
	Err error
}

// Result is a diff: both sides and, when both could be read, their
// comparison.
type Result struct {
	Old, New SideResult
	// Comparison is nil when a side failed.
	Comparison *Comparison
	// FailOn is the least severity that makes the outcome Failing.
	FailOn Severity
}

// Failures lists the sides that could not be read or fetched, OLD first;
// the Group of each is the side's spec.
func (r *Result) Failures() []kafka.Failure {
	return kafka.Failures([]SideResult{r.Old, r.New}, func(s SideResult) (string, error) {
		if s.Err == nil {
			return s.Spec, nil
		}
		return s.Spec, &SideError{Side: s.Side, Err: s.Err}
	})
}

// SideError is why a side could not be read or fetched.
type SideError struct {
	Side Side
	Err  error
}

func (e *SideError) Error() string { return fmt.Sprintf("%s %s: %v", e.Side.Label, e.Side.Spec, e.Err) }
func (e *SideError) Unwrap() error { return e.Err }

// Outcome is what a diff says to a script.
type Outcome int

// The outcomes.
const (
	// Identical: the same topology after normalisation.
	Identical Outcome = iota
	// Different: differences, none as severe as FailOn.
	Different
	// Failing: a finding at least as severe as FailOn.
	Failing
)

// Outcome is the result's outcome; a result with failures has none to
// give and reports Identical.
func (r *Result) Outcome() Outcome {
	c := r.Comparison
	switch {
	case c == nil || c.Identical():
		return Identical
	case slices.ContainsFunc(c.Findings, func(f Finding) bool { return f.Severity() >= r.FailOn }):
		return Failing
	}
	return Different
}

// Run reads or fetches both sides (each group with its own client), then
// compares them. Side failures are in the result (Failures); the error is
// for failures of the whole command: a ctx cancelled (a signal) is no
// side's failure, and Run returns its cause, also when it ends the
// comparison.
func Run(ctx context.Context, src Sources, opts Options) (*Result, error) {
	old, new := opts.Sides()
	res := &Result{Old: SideResult{Side: old}, New: SideResult{Side: new}, FailOn: opts.FailLevel()}
	var inputs [2]Input
	fetch, cancel := ctx, context.CancelFunc(func() {})
	if src.Timeout > 0 {
		fetch, cancel = context.WithTimeout(ctx, src.Timeout)
	}
	// Two file sides are read and parsed at once (20 MB each takes a
	// quarter of a second); a group side is fetched in order, as before.
	var wg sync.WaitGroup
	for i, s := range []*SideResult{&res.Old, &res.New} {
		client := src.Old
		if i == 1 {
			client = src.New
		}
		if !old.IsGroup() && !new.IsGroup() {
			wg.Go(func() { inputs[i], s.Err = load(fetch, s.Side, client, src.Read) })
			continue
		}
		inputs[i], s.Err = load(fetch, s.Side, client, src.Read)
	}
	wg.Wait()
	cancel()
	if errors.Is(ctx.Err(), context.Canceled) {
		return nil, context.Cause(ctx)
	}
	if res.Old.Err != nil || res.New.Err != nil {
		return res, nil
	}
	// A file side's prefix: --application-id, else the group's id of the
	// other side (harmless for a Topology#describe() text, which has no
	// prefix: only internal-looking names are stripped).
	for i, s := range []*SideResult{&res.Old, &res.New} {
		other := []Side{new, old}[i]
		switch {
		case s.IsGroup():
			s.ApplicationID = s.Group
		case opts.ApplicationID != "":
			s.ApplicationID = opts.ApplicationID
		case other.IsGroup():
			s.ApplicationID = other.Group
		}
		inputs[i].ApplicationID = s.ApplicationID
	}
	c, err := CompareContext(ctx, inputs[0], inputs[1])
	if err != nil {
		return nil, err
	}
	res.Comparison = c
	return res, nil
}

// load reads a file side or fetches a group's stored description and its
// KIP-1071 topology.
func load(ctx context.Context, s Side, client Client, read func(string) (*topology.Description, error)) (Input, error) {
	if !s.IsGroup() {
		d, err := read(s.File)
		return Input{Description: d}, err
	}
	if client == nil {
		return Input{}, errors.New("no Kafka client for a group side")
	}
	sg, err := DescribeGroup(ctx, client, s.Group)
	switch {
	case err != nil:
		return Input{}, err
	case sg.TopologyStatus != topology.Available:
		return Input{}, &kafka.StatusError{Group: s.Group, Status: sg.TopologyStatus}
	}
	subs := sg.Subtopologies
	if subs == nil {
		subs = []kafka.Subtopology{}
	}
	return Input{Description: sg.Topology, Subtopologies: subs}, nil
}

// DescribeGroup describes one streams group with its topology (diff's
// group side, upgrade's group): its answer, or why there is none.
func DescribeGroup(ctx context.Context, client Client, group string) (*kafka.StreamsGroup, error) {
	answers := client.DescribeStreamsGroups(ctx, []string{group}, true)
	if len(answers) != 1 {
		return nil, &kafka.MalformedError{Reason: fmt.Sprintf("StreamsGroupDescribe answered %d groups for 1", len(answers))}
	}
	return answers[0].Streams, answers[0].Err
}
