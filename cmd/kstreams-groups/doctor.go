package main

// The doctor verb: `kstreams-groups doctor --group G` (subcommand only)
// explains why a group's topology description is not AVAILABLE or why the
// group is unhealthy. Its exit codes are its own (doctorExitStatuses): a
// script asks it "is anything wrong?".

import (
	"context"
	"io"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/doctor"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// doctor's exit codes.
const (
	doctorHealthy    = 0
	doctorWrong      = 1
	doctorUndiagnose = 3
)

var doctorExitStatuses = []exitStatus{
	{doctorHealthy, false, "Nothing is wrong: every finding is ok (or information)."},
	{doctorWrong, false, "Something is wrong: a finding is a warning or a problem; its hint says what to do."},
	{exitUsage, false, "Usage error."},
	{doctorUndiagnose, false, "A group could not be diagnosed: cluster unreachable or timed out, not authorized (the reason is on stderr)."},
}

func (a *app) doctorVerb() *verb {
	storm := intOption(flagDef{name: "storm-threshold", help: "More than `N` rebalances in the last hour is a rebalance storm (default 10)."},
		1, "--storm-threshold: want a whole number, 1 or more, got %q")
	return &verb{
		name:           "doctor",
		subcommandOnly: true,
		flags:          table(groupFlag, allGroupsFlag.withHelp("Diagnose every streams group of the cluster."), storm),
		own:            &ownExit{doctorExitStatuses, "These are doctor's own codes, the same with --detailed-exit-codes."},
		short:          "Explain why a topology description is not AVAILABLE, or why a group is unhealthy",
		long: `Diagnose streams groups: why the broker has no topology description for a
group (KIP-1331), or why the group is unhealthy. For each group it reads
the group, its coordinator's ApiVersions (StreamsGroupDescribe v1 and the
topology update API, key 93: Apache Kafka 4.4) and the coordinator's broker
config group.streams.topology.description.plugin.class (DescribeConfigs,
which needs DESCRIBE_CONFIGS on the cluster; doctor says so when it cannot
read it), and reports one finding per check with a hint for each one that
is wrong:

  broker          a coordinator older than 4.4 stores no description
  plugin          no plugin configured: every description is NOT_STORED
  state           NotReady (topics missing), Dead, a rebalance under way
  members         no members: nobody can push a description
  protocol        members still on the classic protocol
  topology-epoch  members on another topology epoch: a rolling upgrade
  description     ERROR is the plugin failing (see the broker's log);
                  NOT_STORED with everything else healthy means the
                  clients have topology.description.push.enabled=false,
                  or the push has not happened yet
  static-members  one group.instance.id on several processes; a static
                  member that left and holds its tasks until its session
                  expires; a new process id at every rejoin
  rebalances      the last rebalance and its causes, read from the
                  group's records in __consumer_offsets (needs DESCRIBE
                  and READ on it: unknown otherwise, never a failure); more
                  than --storm-threshold rebalances in the last hour

-o json|yaml prints the findings as a document.`,
		example: `  # Why does describe --topology say NOT_STORED?
  kstreams-groups doctor --group my-app

  # Every streams group of the cluster
  kstreams-groups doctor --all-groups

  # The findings as JSON, for a ticket
  kstreams-groups doctor --group my-app -o json`,
		parse: func(v flagValues) job {
			opts := doctor.Options{Groups: groupFlag.get(v), AllGroups: allGroupsFlag.get(v), Now: func() time.Time { return a.clock().Now() }}
			var serr error
			opts.StormThreshold, _, serr = storm.value(v)
			return job{opts: opts, parseErr: serr, validate: opts.Validate, run: func(ctx context.Context) error { return a.doctor(ctx, opts) }}
		},
	}
}

// doctor runs the doctor verb: a group it could not diagnose is exit 3,
// a finding that is wrong 1.
func (a *app) doctor(ctx context.Context, opts doctor.Options) error {
	p := printer[*doctor.Result]{
		text: func(w io.Writer, res *doctor.Result, st *format.Styles) error { return format.DoctorText(w, res, st) },
		doc:  func(res *doctor.Result) any { return format.NewDoctorDoc(res) },
		line: func(_ *doctor.Result, f kafka.Failure, _ format.Output) string {
			return a.groupErrorLine(f.Group, f.Err)
		},
		failed: func(err error) (*doctor.Result, error) { return nil, &verbExit{code: doctorUndiagnose, err: err} },
		outcome: func(res *doctor.Result, failures []error) error {
			switch {
			case len(failures) > 0:
				return &verbExit{code: doctorUndiagnose}
			case res.Wrong():
				return &verbExit{code: doctorWrong}
			}
			return nil
		},
	}
	return runVerb(a, ctx, p, func(ctx context.Context, c client) (*doctor.Result, error) { return doctor.Run(ctx, c, opts) })
}
