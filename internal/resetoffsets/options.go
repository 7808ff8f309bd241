package resetoffsets

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"time"
)

// Options are the --reset-offsets options as given; Validate checks them
// and Prepare parses their values.
type Options struct {
	// Groups are reset in this order (a repeated id counts once);
	// AllGroups lists every streams group instead.
	Groups    []string
	AllGroups bool
	// AllInputTopics and InputTopics are the scope; AllInputTopics wins
	// when both are given, as in the Java tool.
	AllInputTopics bool
	InputTopics    []string
	// The scenarios; exactly one must be given. The ones with a value hold
	// it as typed (nil: not given).
	ToEarliest, ToLatest, ToCurrent bool
	ToOffset, ShiftBy               *string
	ToDatetime, ByDuration          *string
	FromFile                        *string
	// DryRun or Execute: exactly one.
	DryRun, Execute bool
	// Export prints the plan as CSV instead of the table.
	Export bool
	// DeleteAllInternalTopics deletes every inferred internal topic of a
	// reset group after its commit; DeleteInternalTopics only those named,
	// each of which must be an inferred internal topic of a requested group.
	DeleteAllInternalTopics bool
	DeleteInternalTopics    []string
}

// scenarioOrder is the order in which kafka-streams-groups.sh checks the
// scenarios against each other (StreamsGroupCommandOptions.
// checkOffsetResetArgs).
var scenarioOrder = []Scenario{ToOffset, ToDatetime, ByDuration, ToEarliest, ToLatest, ToCurrent, ShiftBy, FromFile}

// given lists the scenarios the options name.
func (o Options) given() []Scenario {
	on := map[Scenario]bool{
		ToOffset: o.ToOffset != nil, ToDatetime: o.ToDatetime != nil, ByDuration: o.ByDuration != nil,
		ToEarliest: o.ToEarliest, ToLatest: o.ToLatest, ToCurrent: o.ToCurrent,
		ShiftBy: o.ShiftBy != nil, FromFile: o.FromFile != nil,
	}
	var out []Scenario
	for _, s := range scenarioOrder {
		if on[s] {
			out = append(out, s)
		}
	}
	return out
}

// Validate checks the options before any I/O with kafka-streams-groups.sh's
// messages in its order (checkOffsetResetArgs). The checks shared with
// other verbs (internal topic options, --group with --all-groups) are the
// command line's. With three scenarios or more the Java tool names the
// second one in hash order; this names the first after the first.
func (o Options) Validate() error {
	switch {
	case o.DryRun && o.Execute:
		return errors.New("Option [reset-offsets] only accepts one of [execute] and [dry-run]")
	case !o.DryRun && !o.Execute:
		return errors.New("Option [reset-offsets] takes the option: [execute] or [dry-run]")
	case !o.AllGroups && len(o.Groups) == 0:
		return errors.New("Option [reset-offsets] takes one of these options: [all-groups], [group]")
	}
	if g := o.given(); len(g) > 1 {
		return fmt.Errorf(`Option "[%s]" can't be used with option "[%s]"`, g[0], g[1])
	}
	return nil
}

// Scenario is how the new offsets are chosen.
type Scenario string

// The scenarios, named as their options.
const (
	ToEarliest Scenario = "to-earliest"
	ToLatest   Scenario = "to-latest"
	ToCurrent  Scenario = "to-current"
	ToOffset   Scenario = "to-offset"
	ShiftBy    Scenario = "shift-by"
	ToDatetime Scenario = "to-datetime"
	ByDuration Scenario = "by-duration"
	FromFile   Scenario = "from-file"
)

// helpOrder is the order of the scenarios in the Java tool's help, used to
// list them in the "requires one of the following scenarios" message (the
// Java tool lists them in hash order, which changes from run to run).
var helpOrder = []Scenario{ToDatetime, ByDuration, ToEarliest, ToLatest, ShiftBy, FromFile, ToCurrent, ToOffset}

// Request is a validated and parsed reset: what Run needs.
type Request struct {
	Groups    []string
	AllGroups bool
	// AllInputTopics, or else InputTopics, is the scope; neither with
	// FromFile, whose partitions are the file's.
	AllInputTopics bool
	InputTopics    []InputTopic
	Scenario       Scenario
	// Offset is the --to-offset target or the --shift-by amount.
	Offset int64
	// Timestamp is the --to-datetime instant in milliseconds.
	Timestamp int64
	// Duration is --by-duration in milliseconds: the target is Now minus it.
	Duration int64
	File     *PlanFile
	Execute  bool
	// SingleGroup tells that exactly one --group was given: the Java tool
	// then reads and writes CSV without the group column.
	SingleGroup             bool
	DeleteAllInternalTopics bool
	DeleteInternalTopics    []string
	// Now is the clock of --by-duration; nil means time.Now.
	Now func() time.Time
}

// Prepare parses what the Java tool parses only once every check passed
// (its lazy Long conversion, then per group the scope, the --input-topic
// syntax and the scenario), before anything is sent; a failure is a usage
// error. read reads the --from-file file.
func (o Options) Prepare(read func(path string) ([]byte, error)) (Request, error) {
	r := Request{Groups: dedupe(o.Groups), AllGroups: o.AllGroups, AllInputTopics: o.AllInputTopics, Execute: o.Execute,
		SingleGroup: !o.AllGroups && len(o.Groups) == 1, DeleteAllInternalTopics: o.DeleteAllInternalTopics,
		DeleteInternalTopics: dedupe(o.DeleteInternalTopics)}
	for name, v := range map[string]*string{"to-offset": o.ToOffset, "shift-by": o.ShiftBy} {
		if v == nil {
			continue
		}
		n, err := strconv.ParseInt(*v, 10, 64)
		if err != nil {
			return Request{}, fmt.Errorf("Cannot parse argument '%s' of option %s", *v, name)
		}
		r.Offset = n
	}
	if !o.AllInputTopics && len(o.InputTopics) == 0 && o.FromFile == nil {
		return Request{}, errors.New("One of the reset scopes should be defined: --all-input-topics, --input-topic.")
	}
	if !o.AllInputTopics && len(o.InputTopics) > 0 {
		topics, err := ParseInputTopics(o.InputTopics)
		if err != nil {
			return Request{}, err
		}
		r.InputTopics = topics
	}
	g := o.given()
	if len(g) == 0 {
		names := ""
		for i, s := range helpOrder {
			if i > 0 {
				names += ", "
			}
			names += "[" + string(s) + "]"
		}
		return Request{}, fmt.Errorf("Option '[reset-offsets]' requires one of the following scenarios: [%s]", names)
	}
	r.Scenario = g[0]
	if err := o.prepareScenario(&r, read); err != nil {
		return Request{}, err
	}
	return r, nil
}

// prepareScenario parses the value of r's scenario into r.
func (o Options) prepareScenario(r *Request, read func(path string) ([]byte, error)) error {
	switch r.Scenario {
	case ToDatetime:
		t, err := ParseDateTime(*o.ToDatetime)
		if err != nil {
			return err
		}
		r.Timestamp = t.UnixMilli()
	case ByDuration:
		d, err := ParseDuration(*o.ByDuration)
		if err != nil {
			return err
		}
		r.Duration = d
	case FromFile:
		f, err := o.readPlan(r, read)
		if err != nil {
			return err
		}
		r.File = f
		// The file replaces the scope (the Java tool computes a given scope
		// and then ignores it).
		r.AllInputTopics, r.InputTopics = false, nil
	}
	return nil
}

// readPlan reads and parses the --from-file plan.
func (o Options) readPlan(r *Request, read func(path string) ([]byte, error)) (*PlanFile, error) {
	data, err := read(*o.FromFile)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("--from-file: cannot read %s: %w", *o.FromFile, err)
	}
	single := ""
	if r.SingleGroup {
		single = r.Groups[0]
	}
	return ParsePlanFile(data, *o.FromFile, single)
}

// dedupe keeps the first of each string, in order.
func dedupe(xs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
