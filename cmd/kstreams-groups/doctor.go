package main

// The doctor verb: `kstreams-groups doctor --group G` (subcommand only)
// explains why a group's topology description is not AVAILABLE or why the
// group is unhealthy. Its exit codes are its own (doctorExitStatuses): a
// script asks it "is anything wrong?".

import (
	"context"
	"io"

	"github.com/kstreams-groups/kstreams-groups/internal/doctor"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
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
	return &verb{
		name:           "doctor",
		subcommandOnly: true,
		flags:          []flagDef{groupFlag},
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

-o json|yaml prints the findings as a document.` + "\n\n" +
			ownExitHelp(doctorExitStatuses, "These are doctor's own codes, the same with --detailed-exit-codes."),
		example: `  # Why does describe --topology say NOT_STORED?
  kstreams-groups doctor --group my-app

  # The findings as JSON, for a ticket
  kstreams-groups doctor --group my-app -o json`,
		parse: func(v flagValues) job {
			opts := doctor.Options{Groups: v.strings("group")}
			return job{opts: opts, validate: opts.Validate, run: func(ctx context.Context) error { return a.doctor(ctx, opts) }}
		},
	}
}

// doctor runs the doctor verb.
func (a *app) doctor(ctx context.Context, opts doctor.Options) error {
	if o := a.cfg.Output; o.Graph() || o == format.Prometheus {
		return usageErrorf("-o %s: doctor prints text, json or yaml", o)
	}
	ctx, c, done, err := a.connect(ctx)
	if err != nil {
		return err
	}
	defer done()
	stop := a.showWaiting(c)
	res, err := doctor.Run(ctx, c, opts)
	stop()
	if err != nil {
		return &verbExit{code: doctorUndiagnose, err: err}
	}
	err = a.write(func() any { return format.NewDoctorDoc(res) }, func(w io.Writer, st *format.Styles) error { return format.DoctorText(w, res, st) })
	if err != nil {
		return err
	}
	fails := res.Failures()
	for _, f := range fails {
		a.printError(a.groupErrorLine(f.Group, f.Err))
	}
	switch {
	case len(fails) > 0:
		return &verbExit{code: doctorUndiagnose}
	case res.Wrong():
		return &verbExit{code: doctorWrong}
	}
	return nil
}
