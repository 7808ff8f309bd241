package doctor

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// PluginConfig is the broker config that names the topology description
// plugin; unset, a 4.4 broker stores no description.
const PluginConfig = "group.streams.topology.description.plugin.class"

// The API keys doctor looks for in the coordinator's ApiVersions.
const (
	keyStreamsGroupDescribe = 89
	keyTopologyUpdate       = 93
)

// Options select the groups to diagnose.
type Options struct {
	// Groups are diagnosed in this order; AllGroups lists them instead.
	Groups    []string
	AllGroups bool
	// StormThreshold is how many rebalances in the last hour make a storm
	// (0: DefaultStormThreshold).
	StormThreshold int
	// Now is the clock, for the last hour's rebalances (nil: time.Now).
	Now func() time.Time
}

func (o Options) now() time.Time {
	if o.Now == nil {
		return time.Now()
	}
	return o.Now()
}

// Validate checks the options before any I/O.
func (o Options) Validate() error {
	if !o.AllGroups && len(o.Groups) == 0 {
		return errors.New("doctor needs --group (repeatable) or --all-groups")
	}
	return nil
}

// Client is what Run needs from the admin client.
type Client interface {
	admin.GroupLister
	DescribeStreamsGroups(ctx context.Context, groups []string, includeTopology bool) []admin.DescribedGroup
	BrokerAPIs(ctx context.Context, b kafka.Broker) (*kafka.BrokerAPIs, error)
	DescribeBrokerConfigs(ctx context.Context, b kafka.Broker, names []string) ([]kafka.BrokerConfig, error)
}

// Severity grades a finding.
type Severity int

// The severities: OK is a check that passed; Info is worth knowing and not
// wrong; Warning and Problem are wrong (Problem surely, Warning probably or
// for now).
const (
	OK Severity = iota
	Info
	Warning
	Problem
)

func (s Severity) String() string {
	return [...]string{"ok", "info", "warning", "problem"}[s]
}

// Wrong tells whether the finding is something to fix.
func (s Severity) Wrong() bool { return s >= Warning }

// The checks, naming what a finding is about.
const (
	CheckGroup       = "group"
	CheckBroker      = "broker"
	CheckPlugin      = "plugin"
	CheckState       = "state"
	CheckMembers     = "members"
	CheckProtocol    = "protocol"
	CheckEpochs      = "topology-epoch"
	CheckDescription = "description"
)

// Finding is one thing doctor found.
type Finding struct {
	Check    string
	Severity Severity
	// Message says what was found; Hint, when set, what to do. Both hold
	// broker strings unescaped.
	Message, Hint string
}

// Result holds one Group per requested group, in request order.
type Result struct {
	Groups []*Group
}

// Wrong tells whether a finding of any group is wrong.
func (r *Result) Wrong() bool {
	for _, g := range r.Groups {
		if slices.ContainsFunc(g.Findings, func(f Finding) bool { return f.Severity.Wrong() }) {
			return true
		}
	}
	return false
}

// Failures lists the groups that could not be diagnosed, in request order.
func (r *Result) Failures() []kafka.Failure {
	return kafka.Failures(r.Groups, func(g *Group) (string, error) { return g.Group, g.Err })
}

// Group is the diagnosis of one group.
type Group struct {
	Group       string
	Coordinator *kafka.Broker
	// Streams is the described group; nil when it could not be described
	// (it does not exist, or Err).
	Streams  *kafka.StreamsGroup
	Findings []Finding
	// Err is what kept the group from being diagnosed at all (the cluster
	// unreachable, not authorized); Findings are then empty.
	Err error
}

func (g *Group) add(check string, s Severity, hint, format string, args ...any) {
	g.Findings = append(g.Findings, Finding{Check: check, Severity: s, Message: fmt.Sprintf(format, args...), Hint: hint})
}

// Run diagnoses the groups of opts, which passed Validate.
func Run(ctx context.Context, client Client, opts Options) (*Result, error) {
	ids, err := admin.RequestedGroups(ctx, client, opts.Groups, opts.AllGroups)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return &Result{}, nil
	}
	described := describeAll(ctx, client, ids)
	res := &Result{}
	var streamsIDs []string
	var coord *kafka.Broker
	for _, d := range described {
		if d.Err == nil && d.Streams != nil {
			streamsIDs = append(streamsIDs, d.Group)
			if coord == nil && d.Coordinator != (kafka.Broker{}) {
				c := d.Coordinator
				coord = &c
			}
		}
	}
	// A client without overview.SettingsReader gets no standby or
	// session findings.
	settings := overview.ReadSettings(ctx, client, streamsIDs, coord)
	brokers := map[int32]*brokerFacts{}
	for _, d := range described {
		res.Groups = append(res.Groups, diagnoseOne(ctx, client, d, settings[d.Group], brokers, opts))
	}
	return res, nil
}

// describeAll describes ids with their topology descriptions; the groups
// whose coordinator has no KIP-1331 are described again without (v0), to
// diagnose the rest.
func describeAll(ctx context.Context, client Client, ids []string) []admin.DescribedGroup {
	described := client.DescribeStreamsGroups(ctx, ids, true)
	var old []string
	for _, d := range described {
		if errors.Is(d.Err, kafka.ErrBrokerTooOld) {
			old = append(old, d.Group)
		}
	}
	if len(old) == 0 {
		return described
	}
	again := map[string]admin.DescribedGroup{}
	for _, d := range client.DescribeStreamsGroups(ctx, old, false) {
		again[d.Group] = d
	}
	for i, d := range described {
		if errors.Is(d.Err, kafka.ErrBrokerTooOld) {
			described[i] = again[d.Group]
		}
	}
	return described
}

// diagnoseOne diagnoses one described group; brokers caches what was read
// of each coordinator.
func diagnoseOne(ctx context.Context, client Client, d admin.DescribedGroup, settings *overview.Settings, brokers map[int32]*brokerFacts, opts Options) *Group {
	g := &Group{Group: d.Group, Streams: d.Streams}
	if d.Coordinator != (kafka.Broker{}) {
		co := d.Coordinator
		g.Coordinator = &co
	}
	notFound := errors.Is(d.Err, kafka.ErrGroupNotFound)
	if d.Err != nil && !notFound {
		g.Err = d.Err
		return g
	}
	if notFound {
		g.add(CheckGroup, Problem, "Check the application.id (it is the group id) and that the application runs Kafka Streams with group.protocol=streams.",
			"there is no streams group %s: %s", d.Group, d.Err)
	}
	var facts *brokerFacts
	if g.Coordinator != nil {
		if facts = brokers[g.Coordinator.ID]; facts == nil {
			facts = readBroker(ctx, client, *g.Coordinator)
			brokers[g.Coordinator.ID] = facts
		}
		facts.report(g)
	}
	if d.Streams != nil {
		diagnose(g, d.Streams, facts)
		staticMembers(g, d.Streams, settings)
		standbys(ctx, client, g, d, settings, facts)
		rebalances(ctx, client, g, opts)
	}
	return g
}

// brokerFacts is what doctor read of one coordinator.
type brokerFacts struct {
	broker kafka.Broker
	apis   *kafka.BrokerAPIs
	apiErr error
	// plugin is the configured class; pluginKnown tells the config was
	// read, pluginErr why it could not be.
	plugin      string
	pluginKnown bool
	pluginErr   string
	source      string
	// bounds are the broker's group.streams.* bounds that it reported
	// (boundConfigs), by name; nil when not read.
	bounds *overview.Settings
}

func readBroker(ctx context.Context, client Client, b kafka.Broker) *brokerFacts {
	f := &brokerFacts{broker: b}
	f.apis, f.apiErr = client.BrokerAPIs(ctx, b)
	if !f.kip1331() {
		return f // a broker without KIP-1331 has no plugin to ask about
	}
	configs, err := client.DescribeBrokerConfigs(ctx, b, append([]string{PluginConfig}, boundConfigs...))
	if err != nil {
		f.pluginErr = err.Error()
		return f
	}
	f.bounds = &overview.Settings{Values: map[string]overview.Setting{}}
	for _, c := range configs {
		if c.Value != nil && slices.Contains(boundConfigs, c.Name) {
			f.bounds.Values[c.Name] = overview.Setting{Value: *c.Value}
		}
	}
	i := slices.IndexFunc(configs, func(c kafka.BrokerConfig) bool { return c.Name == PluginConfig })
	switch {
	case i < 0:
		f.pluginErr = "the broker does not report it"
	case configs[i].Sensitive && configs[i].Value == nil:
		f.pluginErr = "the broker reports it as sensitive, without its value"
	default:
		f.pluginKnown, f.source = true, configs[i].Source
		if v := configs[i].Value; v != nil {
			f.plugin = strings.TrimSpace(*v)
		}
	}
	return f
}

// kip1331 tells whether the broker stores descriptions: StreamsGroupDescribe
// v1 and the topology update API. Unknown (no ApiVersions) counts as yes,
// so that the plugin is still asked about.
func (f *brokerFacts) kip1331() bool {
	if f.apis == nil {
		return true
	}
	describe, ok := f.apis.Max(keyStreamsGroupDescribe)
	_, update := f.apis.Max(keyTopologyUpdate)
	return ok && describe >= 1 && update
}

// report adds the broker's findings to g.
func (f *brokerFacts) report(g *Group) {
	id := f.broker.ID
	if f.apis == nil {
		g.add(CheckBroker, Warning, "", "cannot read the ApiVersions of coordinator %d (%s): %s", id, f.broker.Addr(), f.apiErr)
	} else {
		describe, ok := f.apis.Max(keyStreamsGroupDescribe)
		update, hasUpdate := f.apis.Max(keyTopologyUpdate)
		upgrade := "Upgrade the brokers to Apache Kafka 4.4 or newer."
		switch {
		case !ok:
			g.add(CheckBroker, Problem, "Streams groups need brokers of Apache Kafka 4.1 or newer, with the streams protocol enabled.",
				"coordinator %d does not speak StreamsGroupDescribe: it has no streams groups (KIP-1071)", id)
		case describe < 1:
			g.add(CheckBroker, Problem, upgrade,
				"coordinator %d speaks StreamsGroupDescribe up to v%d only, and not the topology update API (key 93): it is older than Apache Kafka 4.4 and stores no topology description (KIP-1331)", id, describe)
		case !hasUpdate:
			g.add(CheckBroker, Problem, upgrade,
				"coordinator %d speaks StreamsGroupDescribe v%d but not the topology update API (key 93): the clients cannot push a description", id, describe)
		default:
			g.add(CheckBroker, OK, "", "coordinator %d speaks StreamsGroupDescribe up to v%d and StreamsGroupTopologyDescriptionUpdate (key 93) up to v%d: Apache Kafka 4.4 or newer", id, describe, update)
		}
	}
	if !f.kip1331() {
		return
	}
	switch {
	case f.pluginErr != "":
		g.add(CheckPlugin, Warning, "DescribeConfigs of a broker needs DESCRIBE_CONFIGS on the cluster; or look for "+PluginConfig+" in the broker's server.properties.",
			"cannot tell whether a topology description plugin is configured: cannot read %s of coordinator %d: %s", PluginConfig, id, f.pluginErr)
	case f.plugin == "":
		g.add(CheckPlugin, Problem, "Set "+PluginConfig+" in every broker's configuration, for example to org.apache.kafka.server.streams.InMemoryTopologyDescriptionPlugin (Kafka's own, in memory: lost when the broker restarts), and restart the brokers.",
			"no topology description plugin is configured on coordinator %d (%s is not set): the broker stores no description, so every group's is NOT_STORED", id, PluginConfig)
	default:
		g.add(CheckPlugin, OK, "", "topology description plugin %s is configured on coordinator %d (%s)", f.plugin, id, f.source)
	}
}

// diagnose adds the group's own findings, and explains its description
// status with what was found.
func diagnose(g *Group, s *kafka.StreamsGroup, facts *brokerFacts) {
	total := len(s.Members)
	var classic, otherEpoch []string
	for _, m := range s.Members {
		if m.IsClassic {
			classic = append(classic, m.MemberID)
		}
		if m.TopologyEpoch != s.TopologyEpoch {
			otherEpoch = append(otherEpoch, fmt.Sprintf("%s (epoch %d)", m.MemberID, m.TopologyEpoch))
		}
	}
	moving := 0
	for _, t := range overview.Holders(s.Members) {
		if t.Moving() {
			moving++
		}
	}
	switch {
	case kafka.StateDead.Is(s.State):
		g.add(CheckState, Problem, "", "the group is Dead: it is being removed")
	case kafka.StateNotReady.Is(s.State):
		g.add(CheckState, Problem, "Create the topology's source topics, and check that its internal topics can be created with the partitions the topology needs (the broker's log names the topic).",
			"the group is NotReady: the broker could not set up its topology (a source topic is missing, or an internal topic is missing or has the wrong number of partitions)")
	case kafka.StateAssigning.Is(s.State), kafka.StateReconciling.Is(s.State):
		g.add(CheckState, Info, "", "the group is %s: a rebalance is under way (%d tasks moving)", s.State, moving)
	case kafka.StateStable.Is(s.State):
		g.add(CheckState, OK, "", "the group is Stable")
	}
	switch {
	case total == 0:
		g.add(CheckMembers, Problem, "Start the application: a description is pushed by the members when they join. "+refusedHint(g.Group),
			"the group has no members (%s): nobody runs the application, so nobody can push a topology description", s.State)
	case len(classic) > 0:
		g.add(CheckProtocol, Warning, "Set group.protocol=streams on every instance; the classic members push no topology description.",
			"%d of %d members still use the classic protocol: %s", len(classic), total, list(classic))
	default:
		g.add(CheckMembers, OK, "", "%s, all on the streams protocol", plural(total, "member"))
	}
	switch {
	case total == 0:
	case len(otherEpoch) > 0:
		g.add(CheckEpochs, Warning, "Let the rolling upgrade finish: once the members run the group's topology, its description is pushed for the group's epoch.",
			"the group's topology epoch is %d but %d of %d members run another one: %s (a rolling upgrade is in progress)", s.TopologyEpoch, len(otherEpoch), total, list(otherEpoch))
	default:
		g.add(CheckEpochs, OK, "", "every member runs the group's topology epoch %d", s.TopologyEpoch)
	}

	switch s.TopologyStatus {
	case topology.Available:
		g.add(CheckDescription, OK, "", "the topology description is AVAILABLE")
	case topology.Error:
		g.add(CheckDescription, Problem, fmt.Sprintf("See the log of broker %s: it logs \"Topology description plugin getTopology failed for group %s.\" with the plugin's exception.", brokerName(g), g.Group),
			"the topology description is ERROR: the broker's plugin failed to fetch it")
	case topology.NotStored:
		notStored(g, total, len(classic), len(otherEpoch), facts)
	case topology.NotRequested:
		// Only a broker without KIP-1331 answers so; the broker finding says why.
	}
}

// RefusedLine is what a Kafka Streams 4.4 application logs (at ERROR, from
// StreamsGroupHeartbeatRequestManager) when the broker refuses its topology
// for the group (FINDINGS F341).
const RefusedLine = "StreamsGroupHeartbeatRequest failed due to INVALID_REQUEST: Topology updates are not supported yet."

// refusedHint names the cause of an Empty group that the broker cannot
// show: the members of a build with another topology are refused before
// the group records them, so the group stays Empty while they run.
func refusedHint(group string) string {
	return fmt.Sprintf("If it runs and still has no member, the broker may refuse it: a build whose topology differs from the one the broker keeps "+
		"for the group (a store, changelog or repartition topic renamed, a source topic added) never joins, its stream threads die, and it logs %q. "+
		"Check with kstreams-groups diff group:%s <the build's topology>; if the broker refuses it, kstreams-groups upgrade plan --group %s <the build's topology> "+
		"says how to migrate the group with its offsets (docs/upgrades.md).", RefusedLine, group, group)
}

// notStored explains a NOT_STORED description by what else was found.
func notStored(g *Group, total, classic, otherEpoch int, facts *brokerFacts) {
	why := "the topology description is NOT_STORED"
	switch {
	case facts != nil && facts.pluginKnown && facts.plugin == "":
		g.add(CheckDescription, Problem, "", "%s because no plugin is configured to store it", why)
	case total == 0:
		g.add(CheckDescription, Problem, "", "%s: no member is running to push it", why)
	case classic == total:
		g.add(CheckDescription, Problem, "", "%s: every member uses the classic protocol, which does not push", why)
	case otherEpoch > 0:
		g.add(CheckDescription, Warning, "", "%s: members run another topology epoch than the group's (a rolling upgrade)", why)
	case facts == nil || !facts.pluginKnown:
		g.add(CheckDescription, Warning, "Set topology.description.push.enabled=true (the default) in the application's Streams config.",
			"%s, and whether a plugin is configured is unknown: if one is, the clients have topology.description.push.enabled=false, or the push has not happened yet", why)
	default:
		g.add(CheckDescription, Warning, "Set topology.description.push.enabled=true (the default) in the application's Streams config. If it is set, run doctor again in a few seconds; a client log line \"Topology description push failed\" names a plugin that refused the description.",
			"%s although everything else is healthy: the clients have topology.description.push.enabled=false, or the push has not happened yet (it follows the first heartbeats, within seconds)", why)
	}
}

func brokerName(g *Group) string {
	if g.Coordinator == nil {
		return "the coordinator"
	}
	return fmt.Sprintf("%d (%s)", g.Coordinator.ID, g.Coordinator.Addr())
}

// list names up to three items and how many more.
func list(items []string) string {
	if len(items) <= 3 {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:3], ", ") + fmt.Sprintf(" and %d more", len(items)-3)
}

// verb is one (n is 1) or many.
func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// largest is the key of m with the largest value, the first in key order
// among equals; m is not empty.
func largest[V cmp.Ordered](m map[string]V) string {
	return slices.MaxFunc(slices.Sorted(maps.Keys(m)), func(a, b string) int { return cmp.Compare(m[a], m[b]) })
}

func plural(n int, word string) string { return fmt.Sprintf("%d %s", n, verb(n, word, word+"s")) }
