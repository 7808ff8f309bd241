package main

import (
	"errors"
	"fmt"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// Exit codes: the scripting contract. The default mode is compatible with
// kafka-streams-groups.sh except that usage errors exit 2;
// --detailed-exit-codes splits failures further. The README's table is
// checked against exitStatuses by TestREADMEExitCodes (docs/exit-status.md).
const (
	exitOK            = 0
	exitFailure       = 1
	exitUsage         = 2
	exitNotStored     = 3
	exitDescError     = 4
	exitNotFound      = 5
	exitNotAuthorized = 6
	exitUnavailable   = 7
	exitTooOld        = 8
	exitNotDeleted    = 9
	exitGroupActive   = 10
	exitNoResetPlan   = 11
	exitNotInternal   = 12
	exitConfigRefused = 13
	exitSIGINT        = 130 // 128 + SIGINT, as a shell reports it
	exitSIGTERM       = 143 // 128 + SIGTERM
)

// exitStatus documents one code; help texts and the README are built from
// this table.
type exitStatus struct {
	Code     int
	Detailed bool // only with --detailed-exit-codes
	Meaning  string
}

var exitStatuses = []exitStatus{
	{exitOK, false, "Success; for --describe --topology, every requested group's topology description is AVAILABLE; for --delete, every requested group was deleted (with --dry-run: passed the pre-checks)."},
	{exitFailure, false, "Any failure: a description NOT_STORED or ERROR, a group not deleted, a group error, an unsupported broker, an unreachable cluster. With --detailed-exit-codes, a failure not listed below."},
	{exitUsage, false, "Usage error: unknown flag, bad value, missing or conflicting options, unreadable config file, a local input over its size limit."},
	{exitNotStored, true, "Topology description NOT_STORED."},
	{exitDescError, true, "Topology description ERROR: the broker's plugin failed to fetch it."},
	{exitNotFound, true, "Group not found, or not a streams group (for --delete, also a Dead group)."},
	{exitNotAuthorized, true, "Not authorized."},
	{exitUnavailable, true, "Cluster unreachable, coordinator unavailable, or timed out."},
	{exitTooOld, true, "Broker too old for the request (--topology needs Apache Kafka 4.4 or newer)."},
	{exitNotDeleted, true, "Group could not be deleted (GROUP_DELETION_FAILED, or the group is not empty)."},
	{exitGroupActive, true, "Offsets not changed because the group is active: it is not Empty, or gained a member before the commit (--delete-offsets: GROUP_SUBSCRIBED_TO_TOPIC)."},
	{exitNoResetPlan, true, "Nothing to reset for a group: --from-file has no line for it, or --input-topic names partitions it has no committed offset for."},
	{exitNotInternal, true, "--delete-internal-topic names a topic that is not an internal topic of the group; nothing was changed."},
	{exitConfigRefused, true, "A group config change refused by the broker (INVALID_CONFIG: a value outside its bounds, such as more standbys than group.streams.max.standby.replicas); nothing was changed for that group."},
	{exitSIGINT, false, "Interrupted by SIGINT (Ctrl-C): the command stopped at once, wherever it was; its output may be incomplete."},
	{exitSIGTERM, false, "Terminated by SIGTERM: as for 130."},
}

// usageError is a bad invocation: exit 2, with a pointer to --help. A
// verb with a convention of its own (check: UNKNOWN, 3) sets code, and
// stdout, a line for stdout (check's status line); see verb.usage.
type usageError struct {
	err    error
	code   int
	stdout string
	// hint, when set, is a line of ours printed on stderr after the
	// error's: the error line itself stays the Java tool's.
	hint string
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usageErrorf(format string, a ...any) error {
	return &usageError{err: fmt.Errorf(format, a...)}
}

// outcomeError reports per-group failures that were already printed; the
// exit code is that of the first one, in request order.
type outcomeError struct{ causes []error }

func (e *outcomeError) Error() string {
	return fmt.Sprintf("%d of the requested groups did not succeed", len(e.causes))
}

// verbExit is the outcome of a verb with an exit-code convention of its
// own (diff: 0 identical, 1 differences, 3 breaking, 2 a side that cannot
// be read), documented in that verb's --help rather than in exitStatuses.
// Its code is the exit code with or without --detailed-exit-codes. err,
// when set, is the reason, printed as one error line on stderr; nil means
// the output already said everything.
type verbExit struct {
	code int
	err  error
}

func (e *verbExit) Error() string {
	if e.err != nil {
		return e.err.Error()
	}
	return fmt.Sprintf("exit status %d", e.code)
}

func (e *verbExit) Unwrap() error { return e.err }

// categoryCodes are the detailed exit codes of the error categories;
// kafka.Classify decides the category, for this and for every document.
var categoryCodes = map[kafka.Category]int{
	kafka.Failed:           exitFailure,
	kafka.NotStored:        exitNotStored,
	kafka.DescriptionError: exitDescError,
	kafka.GroupNotFound:    exitNotFound,
	kafka.NotAuthorized:    exitNotAuthorized,
	kafka.Unavailable:      exitUnavailable,
	kafka.BrokerTooOld:     exitTooOld,
	kafka.NotDeleted:       exitNotDeleted,
	kafka.GroupActive:      exitGroupActive,
	kafka.NoResetPlan:      exitNoResetPlan,
	kafka.NotInternalTopic: exitNotInternal,
	kafka.ConfigRefused:    exitConfigRefused,
}

// exitCodeFor is the only mapping from an outcome to an exit code: a
// verb's own outcome (verbExit) is its code; a usage error is exitUsage
// (or its verb's own code for one, usageError.code);
// otherwise the first failure decides, by its kafka.Classify category with
// --detailed-exit-codes, or exitFailure.
func exitCodeFor(err error, detailed bool) int {
	if err == nil {
		return exitOK
	}
	var se *signalError
	if errors.As(err, &se) {
		return se.code()
	}
	var ve *verbExit
	if errors.As(err, &ve) {
		return ve.code
	}
	var ue *usageError
	if errors.As(err, &ue) {
		if ue.code != 0 {
			return ue.code
		}
		return exitUsage
	}
	var oe *outcomeError
	if errors.As(err, &oe) && len(oe.causes) > 0 {
		err = oe.causes[0]
	}
	if !detailed {
		return exitFailure
	}
	return categoryCodes[kafka.Classify(err).Category]
}
