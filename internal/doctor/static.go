package doctor

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
)

// CheckStatic is the check of static members (group.instance.id).
const CheckStatic = "static-members"

// LeftStaticEpoch is the member epoch a 4.4 coordinator gives a static
// member that left (GroupMetadataManager.streamsGroupStaticMemberGroupLeave:
// LEAVE_GROUP_STATIC_MEMBER_EPOCH). It keeps the member, and its tasks,
// until the session times out, so that a restart within it takes its
// tasks back without a rebalance.
const LeftStaticEpoch = -2

// staticMembers adds the findings of a group with static members: none for
// a group without.
func staticMembers(g *Group, s *kafka.StreamsGroup, settings *overview.Settings) {
	static := 0
	for i := range s.Members {
		if s.Members[i].InstanceID != nil {
			static++
		}
	}
	if static == 0 {
		return
	}
	dup := duplicatedInstances(s.Members)
	left := leftStatic(s.Members)
	if len(dup) > 0 {
		g.add(CheckStatic, Problem, "Give each instance of the application its own group.instance.id (for example from its host or pod name): the broker lets one member hold an instance id, and the other process's stream threads fail with UNRELEASED_INSTANCE_ID or are fenced.",
			"the same group.instance.id is used by several processes: %s", list(dup))
	}
	if len(left) > 0 {
		timeout := "the group's " + overview.ConfigSessionTimeout
		if ms, ok := settings.Int(overview.ConfigSessionTimeout); ok {
			timeout = fmt.Sprintf("%s = %d ms", overview.ConfigSessionTimeout, ms)
		}
		g.add(CheckStatic, Warning, "Restart the instance with the same group.instance.id: it takes its tasks back without a rebalance. If it is gone for good, its tasks move to the other members only when its session expires; a shorter "+overview.ConfigSessionTimeout+" shortens the wait.",
			"%s left the group (member epoch %d) and still %s its tasks until its session expires (%s): nobody processes them meanwhile, their lag grows without a rebalance: %s",
			plural(len(left), "static member"), LeftStaticEpoch, verb(len(left), "holds", "hold"), timeout, list(left))
	}
	if len(dup) == 0 && len(left) == 0 {
		g.add(CheckStatic, OK, "", "%d of %d members are static (group.instance.id), each instance id on one process, none left", static, len(s.Members))
	}
}

// leftStatic names the static members that left and still hold tasks.
func leftStatic(ms []kafka.Member) []string {
	var out []string
	for i := range ms {
		m := &ms[i]
		if m.InstanceID == nil || m.MemberEpoch != LeftStaticEpoch {
			continue
		}
		if n := taskCount(m.Assignment); n > 0 {
			out = append(out, fmt.Sprintf("instance %s (member %s, process %s, %s)", *m.InstanceID, m.MemberID, m.ProcessID, plural(n, "task")))
		}
	}
	return out
}

func taskCount(a kafka.Assignment) int {
	n := 0
	for _, kind := range [][]kafka.Tasks{a.Active, a.Standby, a.Warmup} {
		for _, t := range kind {
			n += len(t.Partitions)
		}
	}
	return n
}

// configuredInstanceID is the group.instance.id an application was given,
// from a member's: Kafka Streams gives each stream thread's member the
// configured id with "-<thread index>" appended (StreamsConfig's main
// consumer configs), so that the threads of one process share it.
func configuredInstanceID(id string) string {
	i := strings.LastIndexByte(id, '-')
	if i <= 0 {
		return id
	}
	if _, err := strconv.ParseUint(id[i+1:], 10, 31); err != nil {
		return id
	}
	return id[:i]
}

// duplicatedInstances names the configured instance ids seen on more than
// one process. The broker lets one member hold an instance id at a time, so
// a duplicate shows as one process holding some thread ids of a configured
// id and another process the others (a process with more threads than the
// first), or as the same id on two members.
func duplicatedInstances(ms []kafka.Member) []string {
	procs := map[string][]string{}
	seen := map[string]int{}
	for i := range ms {
		m := &ms[i]
		if m.InstanceID == nil || m.MemberEpoch == LeftStaticEpoch {
			// A thread of a restarting instance that has not rejoined yet
			// still has the old process id: not a second process.
			continue
		}
		seen[*m.InstanceID]++
		base := configuredInstanceID(*m.InstanceID)
		if !slices.Contains(procs[base], m.ProcessID) {
			procs[base] = append(procs[base], m.ProcessID)
		}
	}
	var out []string
	for base, ps := range procs {
		if len(ps) > 1 {
			slices.Sort(ps)
			out = append(out, fmt.Sprintf("%s on processes %s", base, strings.Join(ps, ", ")))
		}
	}
	for id, n := range seen {
		if n > 1 && len(procs[configuredInstanceID(id)]) == 1 {
			out = append(out, fmt.Sprintf("%s on %d members", id, n))
		}
	}
	slices.Sort(out)
	return out
}
