package doctor

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
)

// The standby and session checks (docs/standbys.md).
const (
	CheckStandbys = "standbys"
	CheckSession  = "session"
	CheckWarmups  = "warm-ups"
)

// The broker configs bounding a group's session timeout, heartbeat
// interval and standbys.
const (
	brokerMinSession   = "group.streams.min.session.timeout.ms"
	brokerMaxSession   = "group.streams.max.session.timeout.ms"
	brokerMinHeartbeat = "group.streams.min.heartbeat.interval.ms"
	brokerMaxHeartbeat = "group.streams.max.heartbeat.interval.ms"
	brokerMaxStandbys  = "group.streams.max.standby.replicas"
)

// boundConfigs are the broker configs doctor reads besides the plugin's.
var boundConfigs = []string{brokerMinSession, brokerMaxSession, brokerMinHeartbeat, brokerMaxHeartbeat, brokerMaxStandbys, overview.BrokerRackTags}

// OffsetLister measures a changelog (its start and end offsets); a client
// without it names the largest changelog by nothing.
type OffsetLister interface {
	ListOffsets(ctx context.Context, tps []kafka.TopicPartition, timestamp int64) ([]admin.ListedOffset, error)
}

// standbys adds the standby, warm-up and session findings of a group
// described without error.
func standbys(ctx context.Context, client Client, g *Group, d admin.DescribedGroup, s *overview.Settings, facts *brokerFacts) {
	if s == nil {
		return
	}
	if s.Err != nil {
		g.add(CheckStandbys, Warning, "DescribeConfigs of a group needs DESCRIBE_CONFIGS on the group; kafka-configs.sh --describe --entity-type groups shows them too.",
			"cannot read the group's streams configs (standbys, session timeout): %s", s.Err)
		return
	}
	if facts != nil {
		sessionBounds(g, s, facts)
		if tags, _ := facts.bounds.Get(overview.BrokerRackTags); strings.TrimSpace(tags.Value) != "" {
			withTags := *s
			withTags.RackTags = overview.SplitList(tags.Value)
			s = &withTags
		}
	}
	ov := overview.Join(d, s)
	if ov.Err != nil || ov.Coverage == nil {
		return
	}
	c := ov.Coverage
	if len(c.Tasks) == 0 {
		return // stateless, or nobody runs it: no standby to judge
	}
	switch {
	case !c.ConfiguredKnown:
		g.add(CheckStandbys, Warning, "", "the broker does not report %s for the group: the standby coverage cannot be judged", overview.ConfigStandbys)
	case c.Configured == 0:
		// A choice, not a fault: Info, so doctor's exit does not fail
		// every application that runs without standbys.
		largest := largestChangelog(ctx, client, ov)
		g.add(CheckStandbys, Info, fmt.Sprintf("Set standbys on the group (the application's num.standby.replicas is ignored under the streams protocol): kafka-configs.sh --alter --entity-type groups --entity-name %s --add-config %s=1", g.Group, overview.ConfigStandbys),
			"the group has %s and no standbys configured (%s is 0): a failover restores each task's state from its changelog%s", plural(len(c.Tasks), "stateful task"), overview.ConfigStandbys, largest)
	case len(c.Short()) == 0:
		g.add(CheckStandbys, OK, "", "all %s have %s on another process and host", plural(len(c.Tasks), "stateful task"), plural(int(c.Configured), "standby"))
	default:
		short := c.Short()
		for _, reason := range []string{overview.ReasonProcesses, overview.ReasonHosts, overview.ReasonRacks, overview.ReasonWarmups, overview.ReasonAssignor} {
			var ids []string
			for _, tc := range short {
				if tc.Reason == reason {
					ids = append(ids, tc.Task.String())
				}
			}
			if len(ids) == 0 {
				continue
			}
			sev, hint := Warning, reasonHint(reason)
			if reason == overview.ReasonWarmups {
				sev = Info
			}
			g.add(CheckStandbys, sev, hint, "%s of %d stateful tasks %s fewer than the %s configured: %s (%s)",
				strconv.Itoa(len(ids)), len(c.Tasks), verb(len(ids), "has", "have"), plural(int(c.Configured), "standby"), list(ids), c.ReasonText(reason))
		}
	}
	colocated(g, ov, c.ConfiguredKnown && c.Configured > 0)
	warmups(g, ov, s, facts)
}

// reasonHint is what to do about a reason.
func reasonHint(reason string) string {
	switch reason {
	case overview.ReasonProcesses:
		return "Run more instances of the application (each task needs its active and every standby on a process of its own), or lower " + overview.ConfigStandbys + "."
	case overview.ReasonHosts:
		return "Run instances on more hosts: a standby on its active's host is lost with it."
	case overview.ReasonRacks:
		return "Run instances in more racks (client tags), or change the broker's " + overview.BrokerRackTags + "."
	case overview.ReasonWarmups:
		return "Wait: the standby is being placed."
	}
	return "The broker's assignor placed fewer standbys than configured although the group has room for them; brokers before the fix of KAFKA-20899 (StickyTaskAssignor) do. Restarting one instance makes the broker assign again."
}

// colocated names the standbys on their active's process or host: wrong
// when standbys are configured (they are why a task is short), else only
// worth knowing.
func colocated(g *Group, ov *overview.Group, configured bool) {
	var procs, hosts []string
	for _, tc := range ov.Coverage.Tasks {
		for _, sb := range tc.Standbys {
			m := &ov.Members[sb.Member]
			name := fmt.Sprintf("%s on %s", tc.Task, memberName(m))
			switch sb.Colocated {
			case overview.SameProcess, overview.SameStandbyProc:
				procs = append(procs, name)
			case overview.SameHost, overview.SameStandbyHost:
				hosts = append(hosts, name+" ("+overview.HostOf(m)+")")
			}
		}
	}
	procSev, hostSev := Problem, Warning
	if !configured {
		procSev, hostSev = Info, Info
	}
	if len(procs) > 0 {
		g.add(CheckStandbys, procSev, "A process holding a task's active and standby loses both at once; check the members' process ids (several threads of one instance share one).",
			"%s on the same process as the task's active (or another standby of it), not counted: %s", plural(len(procs), "standby"), list(procs))
	}
	if len(hosts) > 0 {
		g.add(CheckStandbys, hostSev, "Run the instances on different hosts (or set application.server to each instance's own host): a standby on its active's host is lost with it.",
			"%s on the same host as the task's active (or another standby of it), not counted: %s", plural(len(hosts), "standby"), list(hosts))
	}
}

func memberName(m *kafka.Member) string {
	if m.UserEndpoint != nil {
		return fmt.Sprintf("%s:%d", m.UserEndpoint.Host, m.UserEndpoint.Port)
	}
	return "member " + m.MemberID
}

// warmups notes warm-ups configured on a broker that places none: a 4.4
// broker's assignor never does (FINDINGS F186).
func warmups(g *Group, ov *overview.Group, s *overview.Settings, facts *brokerFacts) {
	n, ok := s.Int(overview.ConfigWarmups)
	if !ok || n == 0 {
		return
	}
	for _, st := range ov.Subtopologies {
		for _, t := range st.Tasks {
			if len(t.Warmup) > 0 || len(t.TargetWarmup) > 0 {
				return
			}
		}
	}
	version := "the broker"
	if facts != nil && facts.apis != nil && facts.kip1331() {
		version = "a 4.4 broker (StreamsGroupDescribe v1, key 93)"
	}
	g.add(CheckWarmups, Info, "A task moved to another instance restores there from the changelog while the old owner keeps it active; with standbys, the move goes to a standby's instance instead.",
		"%s is %d but no task has a warm-up: %s places none (Apache Kafka 4.4's assignor has no warm-up step; Kafka Streams logs \"Warmup replicas are not supported yet\")", overview.ConfigWarmups, n, version)
}

// sessionBounds judges the group's session timeout and heartbeat interval
// against the broker's bounds, and its standbys against the broker's
// maximum.
func sessionBounds(g *Group, s *overview.Settings, facts *brokerFacts) {
	for _, b := range []struct {
		key, min, max string
	}{
		{overview.ConfigSessionTimeout, brokerMinSession, brokerMaxSession},
		{overview.ConfigHeartbeatInterval, brokerMinHeartbeat, brokerMaxHeartbeat},
		{overview.ConfigStandbys, "", brokerMaxStandbys},
	} {
		v, ok := s.Int(b.key)
		if !ok {
			continue
		}
		check := CheckSession
		if b.key == overview.ConfigStandbys {
			check = CheckStandbys
		}
		if lo, ok := facts.bounds.Int(b.min); ok && v < lo {
			g.add(check, Warning, fmt.Sprintf("Set %s within the broker's bounds: kafka-configs.sh --alter --entity-type groups --entity-name %s --add-config %s=%d", b.key, g.Group, b.key, lo),
				"the group's %s %d is below the broker's %s %d", b.key, v, b.min, lo)
		}
		if hi, ok := facts.bounds.Int(b.max); ok && v > hi {
			g.add(check, Warning, fmt.Sprintf("Set %s within the broker's bounds: kafka-configs.sh --alter --entity-type groups --entity-name %s --add-config %s=%d", b.key, g.Group, b.key, hi),
				"the group's %s %d is above the broker's %s %d", b.key, v, b.max, hi)
		}
	}
	session, okS := s.Int(overview.ConfigSessionTimeout)
	heartbeat, okH := s.Int(overview.ConfigHeartbeatInterval)
	if okS && okH && heartbeat >= session {
		g.add(CheckSession, Warning, "Keep the heartbeat interval well below the session timeout (a third of it or less).",
			"the group's %s %d is not below its %s %d: a member is expired between two heartbeats", overview.ConfigHeartbeatInterval, heartbeat, overview.ConfigSessionTimeout, session)
	}
}

// largestChangelog names the group's largest changelog by its records (end
// minus start offset, summed over the partitions its tasks use), as
// ", the largest changelog is T (N records over P partitions)"; "" when
// it cannot be told.
func largestChangelog(ctx context.Context, client Client, ov *overview.Group) string {
	lister, ok := client.(OffsetLister)
	if !ok {
		return ""
	}
	var tps []kafka.TopicPartition
	parts := map[string]int{}
	for _, st := range ov.Subtopologies {
		for _, store := range st.Stores {
			if store.Changelog == "" {
				continue
			}
			for _, t := range st.Tasks {
				tps = append(tps, kafka.TopicPartition{Topic: store.Changelog, Partition: t.Partition})
				parts[store.Changelog]++
			}
		}
	}
	if len(tps) == 0 {
		return ""
	}
	start, errS := lister.ListOffsets(ctx, tps, admin.EarliestTimestamp)
	end, errE := lister.ListOffsets(ctx, tps, admin.LatestTimestamp)
	if errS != nil || errE != nil {
		return ""
	}
	starts, _ := admin.IndexListedOffsets(start, nil)
	ends, _ := admin.IndexListedOffsets(end, nil)
	records := map[string]int64{}
	for _, tp := range tps {
		e, s := ends[tp], starts[tp]
		if e.Err != nil || s.Err != nil {
			continue
		}
		records[tp.Topic] = overview.AddLag(records[tp.Topic], e.Offset-s.Offset)
	}
	if len(records) == 0 {
		return ""
	}
	best := largest(records)
	return fmt.Sprintf("; the largest changelog is %s (%s over %s)", best, plural(int(min(records[best], 1<<31-1)), "record"), plural(parts[best], "partition"))
}
