package playground

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// PluginClassConfig is the Kafka 4.4 broker config naming the topology
// description plugin (KIP-1331); unset, the feature is off and every
// description is NOT_STORED.
const PluginClassConfig = "group.streams.topology.description.plugin.class"

// brokerConfig is one broker config a DescribeConfigs answer can carry.
type brokerConfig struct {
	value  *string
	source kmsg.ConfigSource
	typ    kmsg.ConfigType
	doc    string
}

// brokerConfigsLocked are the configs every node reports: those the
// profile's release defines (on 4.4 the plugin class, default null), with
// the values of the state file's broker_configs, which may add others
// (reported as static STRING configs). Callers hold c.mu.
func (c *Cluster) brokerConfigsLocked() map[string]brokerConfig {
	out := map[string]brokerConfig{}
	if c.cfg.Profile == Kafka44 {
		out[PluginClassConfig] = brokerConfig{source: kmsg.ConfigSourceDefaultConfig, typ: kmsg.ConfigTypeClass,
			doc: "The fully qualified class name of a StreamsGroupTopologyDescriptionPlugin implementation. When not set, the feature is disabled."}
	}
	for name, v := range c.brokerConfigs {
		bc, known := out[name]
		if !known {
			if name == PluginClassConfig {
				continue // a 4.3 broker does not know the config
			}
			bc.typ = kmsg.ConfigTypeString
		}
		bc.value, bc.source = clonePtr(v), kmsg.ConfigSourceStaticBrokerConfig
		if v == nil {
			bc.source = kmsg.ConfigSourceDefaultConfig
		}
		out[name] = bc
	}
	return out
}

// SetBrokerConfig sets (value non-nil) or unsets a broker config on every
// node, as the state file's broker_configs does.
func (c *Cluster) SetBrokerConfig(name string, value *string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.brokerConfigs == nil {
		c.brokerConfigs = map[string]*string{}
	}
	c.brokerConfigs[name] = clonePtr(value)
}

// handleDescribeConfigs answers key 32 for BROKER resources (TOPIC ones:
// topicconfigs.go, GROUP ones: groupconfigs.go) the way a Kafka broker
// answers for itself: the resource name must be this node's id (or empty,
// the cluster default, which reports the same here); requested names the
// broker does not know are left out, null names mean every config. A
// fault of key 32 spoils the resource's answer with its error code and
// message.
func (c *Cluster) handleDescribeConfigs(n *node, r *kmsg.DescribeConfigsRequest, resp *kmsg.DescribeConfigsResponse) {
	configs := c.brokerConfigsLocked()
	for _, res := range r.Resources {
		rr := kmsg.NewDescribeConfigsResponseResource()
		rr.ResourceType, rr.ResourceName = res.ResourceType, res.ResourceName
		if f, ok := c.takeTopLevelFaultLocked(r.Key(), n.id); ok {
			rr.ErrorCode, rr.ErrorMessage = f.ErrorCode, clonePtr(f.ErrorMessage)
			resp.Resources = append(resp.Resources, rr)
			continue
		}
		id := strconv.Itoa(int(n.id))
		switch {
		case res.ResourceType == kmsg.ConfigResourceTypeTopic:
			c.describeTopicConfigsLocked(res, &rr)
		case res.ResourceType == kmsg.ConfigResourceTypeGroupConfig:
			c.describeGroupConfigLocked(r, res, &rr) // groupconfigs.go
		case res.ResourceType != kmsg.ConfigResourceTypeBroker:
			rr.ErrorCode = kerr.InvalidRequest.Code
			rr.ErrorMessage = strPtr("The playground describes broker configs only.")
		case res.ResourceName != "" && res.ResourceName != id:
			// Kafka's ConfigHelper text.
			rr.ErrorCode = kerr.InvalidRequest.Code
			rr.ErrorMessage = strPtr(fmt.Sprintf("Unexpected broker id, expected %s or empty string, but received %s", id, res.ResourceName))
		default:
			names := res.ConfigNames
			if names == nil {
				names = slices.Sorted(maps.Keys(configs))
			}
			for _, name := range names {
				bc, ok := configs[name]
				if !ok {
					continue
				}
				e := kmsg.NewDescribeConfigsResponseResourceConfig()
				e.Name, e.Value, e.ReadOnly = name, clonePtr(bc.value), true
				e.IsDefault = r.Version == 0 && bc.source == kmsg.ConfigSourceDefaultConfig // a v0 field: 4.4.0 answers false at v4
				e.Source, e.ConfigType = bc.source, bc.typ
				if r.IncludeDocumentation && bc.doc != "" {
					e.Documentation = strPtr(bc.doc)
				}
				rr.Configs = append(rr.Configs, e)
			}
		}
		resp.Resources = append(resp.Resources, rr)
	}
}
