package playground

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Group configs (GROUP config resources, type 32) the way a Kafka 4.4.0
// broker keeps them: dynamic values per group, stored apart from the
// groups themselves (a DeleteGroups leaves them: FINDINGS F402), answered
// by any node, each falling back to the broker config named by its
// synonym (the state file's broker_configs) and then to GroupConfig's
// default. The playground imports no client code, so the key table is its
// own copy of Kafka's (internal/kafka keeps the client's).

// groupConfigDef is one key of Kafka 4.4.0's GroupConfig.
type groupConfigDef struct {
	name   string
	typ    kmsg.ConfigType
	broker string // the broker synonym, "" for none (the key itself is reported)
	def    string // GroupConfig's default
	// min is ConfigDef's at-least validator (-1: none).
	min int64
	// internal keys are answered only when set on the group.
	internal bool
	// bound is the broker's check on top of ConfigDef's (validateValues).
	bound *brokerBound
}

// groupConfigDefs are the keys, in GroupConfig's order.
var groupConfigDefs = []groupConfigDef{
	{name: "consumer.session.timeout.ms", typ: kmsg.ConfigTypeInt, broker: "group.consumer.session.timeout.ms", def: "45000", min: 1,
		bound: &brokerBound{"group.consumer.min.session.timeout.ms", 45000, "group.consumer.max.session.timeout.ms", 60000}},
	{name: "consumer.heartbeat.interval.ms", typ: kmsg.ConfigTypeInt, broker: "group.consumer.heartbeat.interval.ms", def: "5000", min: 1,
		bound: &brokerBound{"group.consumer.min.heartbeat.interval.ms", 5000, "group.consumer.max.heartbeat.interval.ms", 15000}},
	{name: "consumer.assignment.interval.ms", typ: kmsg.ConfigTypeInt, broker: "group.consumer.assignment.interval.ms", def: "1000", min: 0},
	{name: "consumer.assignor.offload.enable", typ: kmsg.ConfigTypeBoolean, broker: "group.consumer.assignor.offload.enable", def: "true", min: -1, internal: true},
	{name: "share.session.timeout.ms", typ: kmsg.ConfigTypeInt, broker: "group.share.session.timeout.ms", def: "45000", min: 1},
	{name: "share.heartbeat.interval.ms", typ: kmsg.ConfigTypeInt, broker: "group.share.heartbeat.interval.ms", def: "5000", min: 1},
	{name: "share.record.lock.duration.ms", typ: kmsg.ConfigTypeInt, broker: "group.share.record.lock.duration.ms", def: "30000", min: 1000},
	{name: "share.delivery.count.limit", typ: kmsg.ConfigTypeInt, broker: "group.share.delivery.count.limit", def: "5", min: 2},
	{name: "share.partition.max.record.locks", typ: kmsg.ConfigTypeInt, broker: "group.share.partition.max.record.locks", def: "2000", min: 100},
	{name: "share.auto.offset.reset", typ: kmsg.ConfigTypeString, def: "latest", min: -1},
	{name: "share.assignment.interval.ms", typ: kmsg.ConfigTypeInt, broker: "group.share.assignment.interval.ms", def: "1000", min: 0},
	{name: "share.assignor.offload.enable", typ: kmsg.ConfigTypeBoolean, broker: "group.share.assignor.offload.enable", def: "true", min: -1, internal: true},
	{name: "streams.session.timeout.ms", typ: kmsg.ConfigTypeInt, broker: "group.streams.session.timeout.ms", def: "45000", min: 1,
		bound: &brokerBound{"group.streams.min.session.timeout.ms", 45000, "group.streams.max.session.timeout.ms", 60000}},
	{name: "streams.heartbeat.interval.ms", typ: kmsg.ConfigTypeInt, broker: "group.streams.heartbeat.interval.ms", def: "5000", min: 1,
		bound: &brokerBound{"group.streams.min.heartbeat.interval.ms", 5000, "group.streams.max.heartbeat.interval.ms", 15000}},
	{name: "streams.num.standby.replicas", typ: kmsg.ConfigTypeInt, broker: "group.streams.num.standby.replicas", def: "0", min: 0,
		bound: &brokerBound{maxName: "group.streams.max.standby.replicas", maxDef: 2}},
	{name: "streams.initial.rebalance.delay.ms", typ: kmsg.ConfigTypeInt, broker: "group.streams.initial.rebalance.delay.ms", def: "3000", min: 0},
	{name: "streams.assignment.interval.ms", typ: kmsg.ConfigTypeInt, broker: "group.streams.assignment.interval.ms", def: "1000", min: 0,
		bound: &brokerBound{"group.streams.min.assignment.interval.ms", 0, "group.streams.max.assignment.interval.ms", 15000}},
	{name: "streams.rack.aware.assignment.tags", typ: kmsg.ConfigTypeList, broker: "group.streams.rack.aware.assignment.tags", def: "", min: -1},
	{name: "streams.assignor.offload.enable", typ: kmsg.ConfigTypeBoolean, broker: "group.streams.assignor.offload.enable", def: "true", min: -1, internal: true},
	{name: "streams.task.offset.interval.ms", typ: kmsg.ConfigTypeInt, broker: "group.streams.task.offset.interval.ms", def: "60000", min: 1, internal: true,
		bound: &brokerBound{minName: "group.streams.min.task.offset.interval.ms", minDef: 15000}},
	{name: "streams.num.warmup.replicas", typ: kmsg.ConfigTypeInt, broker: "group.streams.num.warmup.replicas", def: "2", min: 0, internal: true,
		bound: &brokerBound{maxName: "group.streams.max.warmup.replicas", maxDef: 20}},
	{name: "streams.acceptable.recovery.lag", typ: kmsg.ConfigTypeLong, broker: "group.streams.acceptable.recovery.lag", def: "10000", min: 0, internal: true},
	{name: "streams.assignor.name", typ: kmsg.ConfigTypeString, broker: "group.streams.assignors", def: "sticky", min: -1},
	{name: "share.isolation.level", typ: kmsg.ConfigTypeString, def: "read_uncommitted", min: -1},
	{name: "share.renew.acknowledge.enable", typ: kmsg.ConfigTypeBoolean, def: "true", min: -1},
	{name: "errors.deadletterqueue.topic.name", typ: kmsg.ConfigTypeString, def: "", min: -1},
	{name: "errors.deadletterqueue.copy.record.enable", typ: kmsg.ConfigTypeBoolean, def: "false", min: -1},
}

func lookupGroupConfigDef(name string) (groupConfigDef, bool) {
	for _, d := range groupConfigDefs {
		if d.name == name {
			return d, true
		}
	}
	return groupConfigDef{}, false
}

// brokerInt is the broker config name as an int: its broker_configs value,
// else def.
func (c *Cluster) brokerInt(name string, def int64) int64 {
	if v, ok := c.brokerConfigs[name]; ok && v != nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(*v), 10, 64); err == nil {
			return n
		}
	}
	return def
}

// brokerBound is a group config's bounds in broker configs, each with its
// default; a bound without a name is none.
type brokerBound struct {
	minName string
	minDef  int64
	maxName string
	maxDef  int64
}

// outOfBounds is GroupConfig.validateValues' check of key's value v
// against the broker's bounds, with 4.4.0's messages; "" when within.
func (c *Cluster) outOfBounds(key string, b *brokerBound, v int64) string {
	lo, hi := c.brokerInt(b.minName, b.minDef), c.brokerInt(b.maxName, b.maxDef)
	switch {
	case b.minName != "" && b.maxName != "" && (v < lo || v > hi):
		return fmt.Sprintf("%s must be in the range %d to %d inclusive.", key, lo, hi)
	case b.minName == "" && v > hi:
		return fmt.Sprintf("%s must be less than or equal to %d", key, hi)
	case b.maxName == "" && v < lo:
		return fmt.Sprintf("%s must be greater than or equal to %d", key, lo)
	}
	return ""
}

// SetGroupConfig sets (value non-nil) or removes a dynamic config of a
// group, as IncrementalAlterConfigs and the state file's group_configs do;
// the group need not exist. It does not validate.
func (c *Cluster) SetGroupConfig(group, name string, value *string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	kv := maps.Clone(c.groupConfigs[group])
	if kv == nil {
		kv = map[string]string{}
	}
	if value == nil {
		delete(kv, name)
	} else {
		kv[name] = *value
	}
	c.putGroupConfigsLocked(group, kv)
}

// putGroupConfigsLocked replaces group's dynamic configs with kv (none when
// it is empty), then lets the group's assignment follow them.
func (c *Cluster) putGroupConfigsLocked(group string, kv map[string]string) {
	before := c.groupConfigs[group]
	if len(kv) == 0 {
		delete(c.groupConfigs, group)
	} else {
		if c.groupConfigs == nil {
			c.groupConfigs = map[string]map[string]string{}
		}
		c.groupConfigs[group] = kv
	}
	c.groupConfigsChangedLocked(group, before)
}

// GroupConfigs returns a copy of the dynamic configs of group.
func (c *Cluster) GroupConfigs(group string) map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.groupConfigs[group])
}

// describeGroupConfigLocked fills rr, the answer for one GROUP resource,
// as 4.4.0 does: an empty name is INVALID_REQUEST; any other group, known
// or not, gets every key that is not internal, and each internal key only
// when the group sets it (FINDINGS F401); names the broker does not know
// are left out. Synonyms (when asked): the group's own, the broker's
// static config, the default. Callers hold c.mu.
func (c *Cluster) describeGroupConfigLocked(r *kmsg.DescribeConfigsRequest, res kmsg.DescribeConfigsRequestResource, rr *kmsg.DescribeConfigsResponseResource) {
	if res.ResourceName == "" {
		rr.ErrorCode, rr.ErrorMessage = kerr.InvalidRequest.Code, strPtr("Group name must not be empty")
		return
	}
	dynamic := c.groupConfigs[res.ResourceName]
	names := res.ConfigNames
	if names == nil {
		for _, d := range groupConfigDefs {
			names = append(names, d.name)
		}
		slices.Sort(names)
	}
	for _, name := range names {
		d, ok := lookupGroupConfigDef(name)
		if !ok {
			continue
		}
		own, set := dynamic[name]
		if d.internal && !set {
			continue
		}
		e := kmsg.NewDescribeConfigsResponseResourceConfig()
		e.Name, e.ConfigType = name, d.typ
		var syns []kmsg.DescribeConfigsResponseResourceConfigConfigSynonym
		syn := func(name, value string, src kmsg.ConfigSource) {
			s := kmsg.NewDescribeConfigsResponseResourceConfigConfigSynonym()
			s.Name, s.Value, s.Source = name, strPtr(value), src
			syns = append(syns, s)
		}
		if set {
			syn(name, own, kmsg.ConfigSourceGroupConfig)
		}
		brokerName := d.broker
		if brokerName == "" {
			brokerName = name
		}
		if v, ok := c.brokerConfigs[d.broker]; ok && d.broker != "" && v != nil {
			syn(brokerName, *v, kmsg.ConfigSourceStaticBrokerConfig)
		}
		syn(brokerName, d.def, kmsg.ConfigSourceDefaultConfig)
		e.Value, e.Source = syns[0].Value, syns[0].Source
		if r.IncludeSynonyms {
			e.ConfigSynonyms = syns
		}
		rr.Configs = append(rr.Configs, e)
	}
}

// handleIncrementalAlterConfigs answers key 44 for GROUP resources as
// 4.4.0 does (FINDINGS F403): the changes are applied to the group's
// dynamic configs and the result checked as GroupConfig.validate checks
// it, the first problem refusing the resource with INVALID_CONFIG and
// Kafka's text; validateOnly checks without applying. An empty group id is
// INVALID_REQUEST, other resource types too. A fault of key 44 spoils
// each resource's answer.
func (c *Cluster) handleIncrementalAlterConfigs(n *node, r *kmsg.IncrementalAlterConfigsRequest, resp *kmsg.IncrementalAlterConfigsResponse) {
	for _, res := range r.Resources {
		rr := kmsg.NewIncrementalAlterConfigsResponseResource()
		rr.ResourceType, rr.ResourceName = res.ResourceType, res.ResourceName
		if f, ok := c.takeTopLevelFaultLocked(r.Key(), n.id); ok {
			rr.ErrorCode, rr.ErrorMessage = f.ErrorCode, clonePtr(f.ErrorMessage)
			resp.Resources = append(resp.Resources, rr)
			continue
		}
		switch {
		case res.ResourceType != kmsg.ConfigResourceTypeGroupConfig:
			rr.ErrorCode, rr.ErrorMessage = kerr.InvalidRequest.Code, strPtr("The playground alters group configs only.")
		case res.ResourceName == "":
			rr.ErrorCode, rr.ErrorMessage = kerr.InvalidRequest.Code, strPtr("Default group resources are not allowed.")
		default:
			rr.ErrorCode, rr.ErrorMessage = c.alterGroupConfigsLocked(res, r.ValidateOnly)
		}
		resp.Resources = append(resp.Resources, rr)
	}
}

// alterGroupConfigsLocked applies one GROUP resource's changes, checked as
// GroupConfig.validate checks the result (only checked with validateOnly),
// and returns the resource's error code and message.
func (c *Cluster) alterGroupConfigsLocked(res kmsg.IncrementalAlterConfigsRequestResource, validateOnly bool) (int16, *string) {
	merged := maps.Clone(c.groupConfigs[res.ResourceName])
	if merged == nil {
		merged = map[string]string{}
	}
	var unknown string
	for _, e := range res.Configs {
		switch e.Op {
		case kmsg.IncrementalAlterConfigOpSet:
			if _, ok := lookupGroupConfigDef(e.Name); !ok && unknown == "" {
				unknown = e.Name
			}
			v := ""
			if e.Value != nil {
				v = *e.Value
			}
			merged[e.Name] = v
		case kmsg.IncrementalAlterConfigOpDelete:
			delete(merged, e.Name)
		default:
			return kerr.InvalidRequest.Code, strPtr(fmt.Sprintf("The playground does not %s group configs.", e.Op))
		}
	}
	msg := "Unknown group config name: " + unknown
	if unknown == "" {
		msg = c.validateGroupConfigLocked(merged)
	}
	if msg != "" {
		return kerr.InvalidConfig.Code, strPtr(msg)
	}
	if !validateOnly {
		c.putGroupConfigsLocked(res.ResourceName, merged)
	}
	return 0, nil
}

// validateGroupConfigLocked checks a group's configs as 4.4.0's
// GroupConfig.validate does, in its order, returning the first problem in
// Kafka's words ("" when valid): duplicate rack tags, then each value's
// type and ConfigDef minimum in GroupConfig's key order, then the broker's
// bounds (validateValues' order: the heartbeat before the session of each
// protocol), the assignor, then that a session exceeds its heartbeat.
// The share protocol's broker bounds are not modelled.
func (c *Cluster) validateGroupConfigLocked(props map[string]string) string {
	if msg := duplicateRackTags(props); msg != "" {
		return msg
	}
	parsed, msg := parseGroupConfigs(props)
	if msg != "" {
		return msg
	}
	for _, name := range []string{
		"consumer.heartbeat.interval.ms", "consumer.session.timeout.ms", "consumer.assignment.interval.ms",
		"streams.heartbeat.interval.ms", "streams.session.timeout.ms", "streams.num.standby.replicas",
		"streams.assignment.interval.ms", "streams.task.offset.interval.ms", "streams.num.warmup.replicas",
	} {
		d, _ := lookupGroupConfigDef(name)
		if n, ok := parsed[name]; ok && d.bound != nil {
			if msg := c.outOfBounds(name, d.bound, n); msg != "" {
				return msg
			}
		}
	}
	if msg := c.unknownAssignor(props); msg != "" {
		return msg
	}
	for _, p := range []string{"consumer", "share", "streams"} {
		session, heartbeat := p+".session.timeout.ms", p+".heartbeat.interval.ms"
		_, s := parsed[session]
		_, h := parsed[heartbeat]
		if !s && !h {
			continue
		}
		if c.effectiveInt(parsed, session) <= c.effectiveInt(parsed, heartbeat) {
			return fmt.Sprintf("%s must be greater than %s", session, heartbeat)
		}
	}
	return ""
}

// duplicateRackTags is GroupConfig's first check: no rack tag twice.
func duplicateRackTags(props map[string]string) string {
	v, ok := props["streams.rack.aware.assignment.tags"]
	if !ok {
		return ""
	}
	seen := map[string]bool{}
	for _, t := range strings.Split(v, ",") {
		t = strings.TrimSpace(t)
		if t != "" && seen[t] {
			return "streams.rack.aware.assignment.tags must not contain duplicate tag keys."
		}
		seen[t] = true
	}
	return ""
}

// parseGroupConfigs checks each value's type and ConfigDef minimum in
// GroupConfig's key order and returns the numbers, or the first problem.
func parseGroupConfigs(props map[string]string) (map[string]int64, string) {
	parsed := map[string]int64{}
	for _, d := range groupConfigDefs {
		v, ok := props[d.name]
		if !ok {
			continue
		}
		invalid := func(why string) string {
			return fmt.Sprintf("Invalid value %s for configuration %s: %s", v, d.name, why)
		}
		switch d.typ {
		case kmsg.ConfigTypeInt, kmsg.ConfigTypeLong:
			bits, typ := 32, "INT"
			if d.typ == kmsg.ConfigTypeLong {
				bits, typ = 64, "LONG"
			}
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, bits)
			if err != nil {
				return nil, invalid("Not a number of type " + typ)
			}
			if d.min >= 0 && n < d.min {
				return nil, invalid(fmt.Sprintf("Value must be at least %d", d.min))
			}
			parsed[d.name] = n
		case kmsg.ConfigTypeBoolean:
			if t := strings.ToLower(strings.TrimSpace(v)); t != "true" && t != "false" {
				return nil, invalid("Expected value to be either true or false")
			}
		}
	}
	return parsed, ""
}

// unknownAssignor refuses a streams.assignor.name the broker's
// group.streams.assignors does not register.
func (c *Cluster) unknownAssignor(props map[string]string) string {
	v, ok := props["streams.assignor.name"]
	if !ok {
		return ""
	}
	assignors := []string{"sticky"}
	if b, ok := c.brokerConfigs["group.streams.assignors"]; ok && b != nil {
		assignors = nil
		for _, a := range strings.Split(*b, ",") {
			assignors = append(assignors, strings.TrimSpace(a))
		}
	}
	if slices.Contains(assignors, v) {
		return ""
	}
	return fmt.Sprintf("streams.assignor.name '%s' is not a registered task assignor. Registered assignors are: [%s].", v, strings.Join(assignors, ", "))
}

// effectiveInt is an int key's value among parsed, else its broker
// config's, else its default.
func (c *Cluster) effectiveInt(parsed map[string]int64, name string) int64 {
	if n, ok := parsed[name]; ok {
		return n
	}
	d, _ := lookupGroupConfigDef(name)
	def, _ := strconv.ParseInt(d.def, 10, 64)
	return c.brokerInt(d.broker, def)
}
