package playground

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/twmb/franz-go/pkg/kmsg"
	"go.yaml.in/yaml/v3"
)

// State is a playground state file (schema: STATE.md). It describes a whole
// cluster: Start it with StartState, or Start a cluster with Nodes and
// Profile and then Load it.
type State struct {
	Nodes         int                 `yaml:"nodes"`   // default 1
	Profile       Profile             `yaml:"profile"` // default Kafka44
	ClusterID     string              `yaml:"cluster_id"`
	Topics        []StateTopic        `yaml:"topics"`
	StreamsGroups []StateStreamsGroup `yaml:"streams_groups"`
	Groups        []StateGroup        `yaml:"groups"`
	Faults        []StateFault        `yaml:"faults"`
	// BrokerConfigs are broker configs every node reports in
	// DescribeConfigs (describeconfigs.go); a null value is unset.
	BrokerConfigs map[string]*string `yaml:"broker_configs"`
	// GroupConfigs are the dynamic group configs (GROUP config resources,
	// groupconfigs.go) by group id, then key; the group need not exist.
	GroupConfigs map[string]map[string]string `yaml:"group_configs"`
	// Unsupported are API keys the brokers leave out of ApiVersions
	// (Cluster.SetUnsupported).
	Unsupported []int16 `yaml:"unsupported_apis"`
	// Timeline changes streams groups while the playground command runs
	// (timeline.go); Load ignores it.
	Timeline *StateTimeline `yaml:"timeline"`
}

// StateTopic is a topic of a State.
type StateTopic struct {
	Name       string `yaml:"name"`
	Partitions int32  `yaml:"partitions"`
	// StartOffsets and EndOffsets are the log start and end offset of each
	// partition (offsets.go); omitted means 0.
	StartOffsets []int64 `yaml:"start_offsets"`
	EndOffsets   []int64 `yaml:"end_offsets"`
	// Timestamps are the record timestamps (ms) of each partition, from
	// its start offset on, for ListOffsets by timestamp (offsets.go).
	Timestamps [][]int64 `yaml:"timestamps"`
	// ProducedOver, a Go duration ("1h"), gives a topic without
	// timestamps records produced at a steady rate over that span before
	// the playground's start (Config.Now), the last one at the start: the
	// default seed's time lag then reads as real ages on any day.
	ProducedOver string `yaml:"produced_over"`
	// TimestampType, Compression, BatchRecords and Transactions lay the
	// records out in batches for Fetch (fetch.go).
	TimestampType string        `yaml:"timestamp_type"`
	Compression   string        `yaml:"compression"`
	BatchRecords  int64         `yaml:"batch_records"`
	Transactions  []Transaction `yaml:"transactions"`
	// ReplicationFactor, Configs and Bytes are what inventory reads
	// (topicconfigs.go): 0 is min(nodes, 3); a streams group's declared
	// internal topic without configs gets the configs it declares, as the
	// broker creates it; no bytes is 100 bytes per record of the log.
	ReplicationFactor int16             `yaml:"replication_factor"`
	Configs           map[string]string `yaml:"configs"`
	Bytes             []int64           `yaml:"bytes"`
}

// StateStreamsGroup is a StreamsGroup plus its coordinator placement.
type StateStreamsGroup struct {
	StreamsGroup `yaml:",inline"`
	Coordinator  *int32 `yaml:"coordinator"` // nil: default placement
	// CommittedOffsets are the group's committed offsets (offsets.go).
	CommittedOffsets []StateCommitted `yaml:"committed_offsets"`
}

// StateGroup is a group of another type (see PutGroup).
type StateGroup struct {
	ID           string `yaml:"id"`
	Type         string `yaml:"type"`          // classic, consumer or share
	ProtocolType string `yaml:"protocol_type"` // default "consumer" ("share" for share groups)
	State        string `yaml:"state"`
	Coordinator  *int32 `yaml:"coordinator"`
}

// StateFault is a Fault of a State; Node nil means any node.
type StateFault struct {
	Key          int16   `yaml:"key"`
	Group        string  `yaml:"group"`
	Topic        string  `yaml:"topic"`
	ErrorCode    int16   `yaml:"error_code"`
	ErrorMessage *string `yaml:"error_message"`
	Times        int     `yaml:"times"`
	Node         *int32  `yaml:"node"`
}

//go:embed seed/default.yaml
var defaultStateYAML []byte

// DefaultState is the playground's built-in cluster: three 4.4 nodes with
// the word-count (description AVAILABLE), inventory (NOT_STORED), billing
// (ERROR), fraud-detector (Empty), page-views (Reconciling: standby and
// warm-up tasks, a task moving, user endpoints, uneven lag), order-audit
// (Empty, with committed offsets) and clicks (Stable; its timeline makes an
// instance join and leave) streams groups and the classic group
// legacy-consumer, coordinators spread over the nodes.
func DefaultState() *State {
	s, err := ParseState(defaultStateYAML)
	if err != nil {
		// The seed is a compiled-in constant covered by tests.
		panic("playground: invalid embedded seed/default.yaml: " + err.Error())
	}
	return s
}

// ParseState decodes and validates a state file. It is strict: unknown keys,
// duplicate keys, wrong types, unknown enum spellings and inconsistent
// values are errors, each naming its line or path.
func ParseState(data []byte) (*State, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var s State
	if err := dec.Decode(&s); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("state file is empty")
		}
		if jerr := jsonLongKey(data); jerr != nil {
			err = jerr // YAML's own message names an unrelated line
		}
		return nil, fmt.Errorf("state file: %w", friendlyYAMLError(err))
	}
	var extra any
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, errors.New("state file: more than one YAML document")
	}
	s.applyDefaults()
	if err := s.validate(s.Nodes); err != nil {
		return nil, err
	}
	return &s, nil
}

func (s *State) applyDefaults() {
	if s.Nodes == 0 {
		s.Nodes = 1
	}
	if s.Profile == "" {
		s.Profile = Kafka44
	}
	for i := range s.Groups {
		g := &s.Groups[i]
		if g.ProtocolType == "" {
			g.ProtocolType = "consumer"
			if strings.EqualFold(g.Type, "share") {
				g.ProtocolType = "share"
			}
		}
	}
}

// StartState starts a cluster shaped by s and loads it.
func StartState(s *State) (*Cluster, error) { return StartStateWith(Config{}, s) }

// StartStateWith is StartState with cfg's other settings (its nodes,
// profile and cluster id are s's).
func StartStateWith(cfg Config, s *State) (*Cluster, error) {
	cfg.Nodes, cfg.Profile, cfg.ClusterID = s.Nodes, s.Profile, s.ClusterID
	c, err := Start(cfg)
	if err != nil {
		return nil, err
	}
	if err := c.Load(s); err != nil {
		_ = c.Close()
		return nil, err
	}
	return c, nil
}

// Load replaces the cluster's topics, groups, coordinator placements, faults
// and raw responses with s. It fails without changing anything if s is
// invalid or was written for a different node count, profile or cluster id
// (those are fixed at Start).
func (c *Cluster) Load(s *State) error {
	nodes := len(c.nodes)
	if s.Nodes != 0 && s.Nodes != nodes {
		return fmt.Errorf("state is for %d nodes, the cluster has %d", s.Nodes, nodes)
	}
	if s.Profile != "" && s.Profile != c.cfg.Profile {
		return fmt.Errorf("state is for profile %s, the cluster runs %s", s.Profile, c.cfg.Profile)
	}
	if s.ClusterID != "" && s.ClusterID != c.cfg.ClusterID {
		return fmt.Errorf("state is for cluster id %q, the cluster has %q", s.ClusterID, c.cfg.ClusterID)
	}
	if err := s.validate(nodes); err != nil {
		return err
	}

	groups, coordinators := stateGroups(s)
	topics := stateTopics(s)
	var faults []*Fault
	for _, f := range s.Faults {
		node := AnyNode
		if f.Node != nil {
			node = *f.Node
		}
		faults = append(faults, &Fault{Key: f.Key, Group: f.Group, Topic: f.Topic, ErrorCode: f.ErrorCode, ErrorMessage: clonePtr(f.ErrorMessage), Times: f.Times, Node: node})
	}

	offsets := stateOffsets(s, c.now())
	configs := map[string]*string{}
	for k, v := range s.BrokerConfigs {
		configs[k] = clonePtr(v)
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	c.groups, c.coordinators, c.topics, c.faults, c.raws = groups, coordinators, topics, faults, nil
	c.offsets, c.brokerConfigs = offsets, configs
	c.unsupported = unsupportedSet(s.Unsupported)
	c.groupConfigs = map[string]map[string]string{}
	for g, kv := range s.GroupConfigs {
		if len(kv) > 0 {
			c.groupConfigs[g] = maps.Clone(kv)
		}
	}
	c.writeSeedLocked(s)
	return nil
}

// stateGroups are the groups of a validated state and the coordinators it
// places.
func stateGroups(s *State) (map[string]*group, map[string]int32) {
	groups := map[string]*group{}
	coordinators := map[string]int32{}
	for _, g := range s.StreamsGroups {
		groups[g.ID] = g.group()
		if g.Coordinator != nil {
			coordinators[g.ID] = *g.Coordinator
		}
	}
	for _, g := range s.Groups {
		groups[g.ID] = &group{id: g.ID, groupType: strings.ToLower(g.Type), protocolType: g.ProtocolType, state: g.State}
		if g.Coordinator != nil {
			coordinators[g.ID] = *g.Coordinator
		}
	}
	return groups, coordinators
}

// stateTopics are the topics of a validated state: sizes of 100 bytes a
// record where none are given, and an internal topic's configs from the
// topology that declares it where the topic has none.
func stateTopics(s *State) map[string]*topic {
	topics := map[string]*topic{}
	for _, t := range s.Topics {
		tp := TopicSpec{Name: t.Name, Partitions: t.Partitions, ReplicationFactor: t.ReplicationFactor, Configs: t.Configs, Bytes: t.Bytes}.topic()
		if tp.sizes == nil {
			for p := range t.Partitions {
				r := t.logRange(p)
				tp.sizes = append(tp.sizes, 100*(r.end-r.start))
			}
		}
		topics[t.Name] = tp
	}
	for _, g := range s.StreamsGroups {
		if g.Topology == nil {
			continue
		}
		for _, sub := range g.Topology.Subtopologies {
			for _, ti := range slices.Concat(sub.StateChangelogTopics, sub.RepartitionSourceTopics) {
				if tp, ok := topics[ti.Name]; ok && tp.configs == nil {
					tp.configs = maps.Clone(ti.Configs)
				}
			}
		}
	}
	return topics
}

// validateUnsupported checks unsupported_apis: known keys, ApiVersions
// kept (a client could not even learn the table without it).
func (s *State) validateUnsupported(p *problems) {
	for i, k := range s.Unsupported {
		switch {
		case k == apiVersionsKey:
			p.add("unsupported_apis[%d]: ApiVersions (18) cannot be left out", i)
		case kmsg.RequestForKey(k) == nil:
			p.add("unsupported_apis[%d]: unknown API key %d", i, k)
		}
	}
}

// validate collects every problem so a playground user fixes a file in one
// pass.
func (s *State) validate(nodes int) error {
	var p problems
	if nodes < 1 || nodes > maxNodes {
		p.add("nodes: must be 1..%d, got %d", maxNodes, nodes)
	}
	if s.Profile != "" {
		if _, err := s.Profile.versions(); err != nil {
			p.add("profile: %v", err)
		}
	}
	topicNames := map[string]bool{}
	for i, t := range s.Topics {
		where := fmt.Sprintf("topics[%d]", i)
		p.unique(topicNames, where, "name", "topic", t.Name)
		if t.Partitions < 1 {
			p.add("%s (%s): partitions must be at least 1, got %d", where, t.Name, t.Partitions)
		}
	}
	s.validateGroups(nodes, &p)
	s.validateFaults(nodes, &p)
	s.validateUnsupported(&p)
	s.validateConfigs(&p)
	validateOffsets(s, &p)
	validateTimeline(s, &p)
	return p.err()
}

// validateGroups checks the streams groups and the other groups: unique
// ids, coordinators among the nodes, and each kind's own keys.
func (s *State) validateGroups(nodes int, p *problems) {
	checkCoordinator := func(where string, n *int32) {
		if n != nil && (*n < 0 || int(*n) >= nodes) {
			p.add("%s: coordinator %d out of range (nodes are 0..%d)", where, *n, nodes-1)
		}
	}
	ids := map[string]bool{}
	for i := range s.StreamsGroups {
		g := &s.StreamsGroups[i]
		where := fmt.Sprintf("streams_groups[%d]", i)
		p.unique(ids, where, "id", "group id", g.ID)
		if g.ID != "" {
			where = fmt.Sprintf("%s (%s)", where, g.ID)
		}
		checkCoordinator(where, g.Coordinator)
		g.validate(where, p)
	}
	for i, g := range s.Groups {
		where := fmt.Sprintf("groups[%d]", i)
		p.unique(ids, where, "id", "group id", g.ID)
		if g.ID != "" {
			where = fmt.Sprintf("%s (%s)", where, g.ID)
		}
		checkCoordinator(where, g.Coordinator)
		switch strings.ToLower(g.Type) {
		case "classic", "consumer", "share":
		case "streams":
			p.add("%s: streams groups go under streams_groups", where)
		case "":
			p.add("%s: type is required (classic, consumer or share)", where)
		default:
			p.add("%s: unknown type %q (want classic, consumer or share)", where, g.Type)
		}
		if g.State == "" {
			p.add("%s: state is required", where)
		}
	}
}

// validateFaults checks the faults: keys that can be faulted, nodes among
// the cluster's, a topic only for Fetch.
func (s *State) validateFaults(nodes int, p *problems) {
	for i, f := range s.Faults {
		where := fmt.Sprintf("faults[%d]", i)
		if !rpcs()[f.Key].stateFaults {
			p.add("%s: key %d cannot be faulted (want %s)", where, f.Key, stateFaultKeys())
		}
		if f.Node != nil && (*f.Node < 0 || int(*f.Node) >= nodes) {
			p.add("%s: node %d out of range (nodes are 0..%d; omit node for any)", where, *f.Node, nodes-1)
		}
		if f.Times < 0 {
			p.add("%s: times must be 0 (forever) or more, got %d", where, f.Times)
		}
		if f.Topic != "" && f.Key != 1 {
			p.add("%s: topic applies to key 1 (Fetch) only", where)
		}
	}
}

// validateConfigs checks the broker and group configs' names.
func (s *State) validateConfigs(p *problems) {
	for name := range s.BrokerConfigs {
		if strings.TrimSpace(name) == "" {
			p.add("broker_configs: a config name is empty")
		}
	}
	for _, g := range slices.Sorted(maps.Keys(s.GroupConfigs)) {
		if g == "" {
			p.add("group_configs: a group id is empty")
		}
		for _, k := range slices.Sorted(maps.Keys(s.GroupConfigs[g])) {
			if _, ok := lookupGroupConfigDef(k); !ok {
				p.add("group_configs (%s): unknown group config %q", g, k)
			}
		}
	}
}

func (g *StreamsGroup) validate(where string, p *problems) {
	if !slices.Contains(StreamsGroupStates, g.State) {
		p.add("%s: state %q is not a streams group state (want one of %s)", where, g.State, strings.Join(StreamsGroupStates, ", "))
	}
	switch g.DescriptionStatus {
	case StatusNotRequested, StatusNotStored, StatusError:
		if g.Description != nil && g.DescriptionStatus != StatusNotRequested {
			p.add("%s: description is only sent with description_status available, not %s", where, g.DescriptionStatus)
		}
	case StatusAvailable:
		if g.Description == nil {
			p.add("%s: description_status available needs a description", where)
		}
	default:
		p.add("%s: unknown description_status %s", where, g.DescriptionStatus)
	}
	if g.Topology != nil {
		seen := map[string]bool{}
		for i, st := range g.Topology.Subtopologies {
			w := fmt.Sprintf("%s: topology.subtopologies[%d]", where, i)
			p.unique(seen, w, "id", "subtopology id", st.ID)
		}
	}
	members := map[string]bool{}
	for i, m := range g.Members {
		w := fmt.Sprintf("%s: members[%d]", where, i)
		p.unique(members, w, "member_id", "member_id", m.MemberID)
	}
	if g.Description != nil {
		g.Description.validate(where+": description", p)
	}
}

func (d *Description) validate(where string, p *problems) {
	seen := map[string]bool{}
	for i, st := range d.Subtopologies {
		w := fmt.Sprintf("%s.subtopologies[%d]", where, i)
		p.unique(seen, w, "id", "subtopology id", st.ID)
		validateNodes(w+".nodes", st.Nodes, p)
	}
	for i, gs := range d.GlobalStores {
		w := fmt.Sprintf("%s.global_stores[%d]", where, i)
		// The Java admin client rejects any other shape.
		if gs.Source.Type != NodeSource {
			p.add("%s.source: a global store's source must have type source, not %s", w, gs.Source.Type)
		}
		if gs.Processor.Type != NodeProcessor {
			p.add("%s.processor: a global store's processor must have type processor, not %s", w, gs.Processor.Type)
		}
		validateNodes(w, []Node{gs.Source, gs.Processor}, p)
	}
}

// validateNodes checks node fields against their type and that successors
// stay inside the subtopology (or the global store pair), as Streams
// guarantees; a typo there would silently drop an edge from the rendering.
func validateNodes(where string, nodes []Node, p *problems) {
	names := map[string]bool{}
	for _, n := range nodes {
		names[n.Name] = true
	}
	seen := map[string]bool{}
	for i, n := range nodes {
		w := fmt.Sprintf("%s[%d]", where, i)
		if n.Name != "" {
			w = fmt.Sprintf("%s (%s)", w, n.Name)
		}
		p.unique(seen, w, "name", "node name", n.Name)
		switch n.Type {
		case NodeSource, NodeProcessor, NodeSink:
		default:
			p.add("%s: unknown node type %s (want source, processor or sink)", w, n.Type)
		}
		if len(n.SourceTopics) > 0 && n.Type != NodeSource {
			p.add("%s: source_topics is only for source nodes", w)
		}
		if n.SinkTopic != nil && n.Type != NodeSink {
			p.add("%s: sink_topic is only for sink nodes", w)
		}
		if len(n.Stores) > 0 && n.Type != NodeProcessor {
			p.add("%s: stores is only for processor nodes", w)
		}
		if len(n.Successors) > 0 && n.Type == NodeSink {
			p.add("%s: a sink has no successors", w)
		}
		for _, succ := range n.Successors {
			if !names[succ] {
				p.add("%s: successor %q is not a node of this subtopology", w, succ)
			}
		}
	}
}

type problems []string

func (p *problems) add(format string, args ...any) { *p = append(*p, fmt.Sprintf(format, args...)) }

// unique reports a key that is empty or already in seen (the field's name
// and, for duplicates, what the value identifies), then records it.
func (p *problems) unique(seen map[string]bool, where, field, kind, v string) {
	switch {
	case v == "":
		p.add("%s: %s is required", where, field)
	case seen[v]:
		p.add("%s: duplicate %s %q", where, kind, v)
	}
	seen[v] = true
}

func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	return fmt.Errorf("invalid state:\n  %s", strings.Join(p, "\n  "))
}

// UnmarshalYAML accepts "4.4", "4.4.0", "v4.3" and the like, so an
// unquoted 4.4 (a YAML float) works.
func (p *Profile) UnmarshalYAML(n *yaml.Node) error {
	v := strings.TrimPrefix(strings.TrimSpace(n.Value), "v")
	for _, known := range Profiles() {
		if v == string(known) || strings.HasPrefix(v, string(known)+".") {
			*p = known
			return nil
		}
	}
	return typeErr(n, "unknown profile %q (want %q or %q)", n.Value, Kafka44, Kafka43)
}

// UnmarshalYAML accepts not_stored, error and available in any case.
// not_requested is refused: it is what a broker answers when the client did
// not ask, never a stored state.
func (s *DescriptionStatus) UnmarshalYAML(n *yaml.Node) error {
	v := strings.ToLower(strings.TrimSpace(n.Value))
	for st, name := range statusNames {
		if st != StatusNotRequested && v == name {
			*s = st
			return nil
		}
	}
	return typeErr(n, "unknown description_status %q (want not_stored, error or available)", n.Value)
}

// MarshalYAML writes the name, so a State round-trips.
func (s DescriptionStatus) MarshalYAML() (any, error) { return s.String(), nil }

// UnmarshalYAML accepts source, processor and sink in any case.
func (t *NodeType) UnmarshalYAML(n *yaml.Node) error {
	v := strings.ToLower(strings.TrimSpace(n.Value))
	for nt, name := range nodeTypeNames {
		if v == name {
			*t = nt
			return nil
		}
	}
	return typeErr(n, "unknown node type %q (want source, processor or sink)", n.Value)
}

// MarshalYAML writes the name, so a State round-trips.
func (t NodeType) MarshalYAML() (any, error) { return t.String(), nil }

// typeErr returns a *yaml.TypeError so the decoder keeps going and reports
// it with the other errors, with its line.
func typeErr(n *yaml.Node, format string, args ...any) error {
	return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: ", n.Line) + fmt.Sprintf(format, args...)}}
}

var fieldNotFoundRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^line (\d+): field (.+) not found in type playground\.(\w+)$`)
})

// sectionNames names the Go types behind each part of the schema, so errors
// speak the file's language instead of Go's.
var sectionNames = map[string]string{
	"State":                  "the top level",
	"StateTopic":             "a topic",
	"StateStreamsGroup":      "a streams group",
	"StateGroup":             "a group",
	"StateFault":             "a fault",
	"StateCommitted":         "a committed offset",
	"Topology":               "topology",
	"Subtopology":            "a topology subtopology",
	"TopicInfo":              "a topic info",
	"Member":                 "a member",
	"Endpoint":               "user_endpoint",
	"TaskOffset":             "a task offset",
	"Transaction":            "a transaction",
	"Assignment":             "an assignment",
	"Description":            "description",
	"DescriptionSubtopology": "a description subtopology",
	"Node":                   "a node",
	"GlobalStore":            "a global store",
}

func friendlyYAMLError(err error) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return err
	}
	msgs := make([]string, 0, len(te.Errors))
	for _, e := range te.Errors {
		if m := fieldNotFoundRE().FindStringSubmatch(e); m != nil {
			section := sectionNames[m[3]]
			if section == "" {
				section = m[3]
			}
			e = fmt.Sprintf("line %s: unknown key %q in %s", m[1], m[2], section)
		}
		msgs = append(msgs, e)
	}
	return errors.New(strings.Join(msgs, "\n  "))
}
