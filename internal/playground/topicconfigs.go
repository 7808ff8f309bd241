package playground

import (
	"maps"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// What inventory reads of topics beyond Metadata: their replication
// factor, their configs (DescribeConfigs of TOPIC resources) and the size
// of their replicas (DescribeLogDirs, key 35, one log directory per
// node).

// topicDefaults are the configs every topic reports, as a broker's
// defaults, unless the topic sets them.
var topicDefaults = map[string]string{
	"cleanup.policy":         "delete",
	"retention.ms":           "604800000",
	"message.timestamp.type": "CreateTime",
}

// logDir is the one log directory of every node.
const logDir = "/playground/data"

// replicas is the topic's replication factor on a cluster of nodes.
func (t *topic) replicas(nodes int32) int32 {
	if t.rf > 0 {
		return min(int32(t.rf), nodes)
	}
	return min(nodes, 3)
}

// TopicSpec is a topic with what inventory reads of it.
type TopicSpec struct {
	Name       string
	Partitions int32
	// ReplicationFactor 0 is min(nodes, 3); it is capped at the nodes.
	ReplicationFactor int16
	// Configs are its dynamic configs (DYNAMIC_TOPIC_CONFIG).
	Configs map[string]string
	// Bytes are the size of each partition's replicas, the same on every
	// replica; missing partitions are 0 bytes.
	Bytes []int64
}

func (s TopicSpec) topic() *topic {
	return &topic{name: s.Name, id: topicID(s.Name), partitions: s.Partitions, rf: s.ReplicationFactor,
		configs: maps.Clone(s.Configs), sizes: slices.Clone(s.Bytes)}
}

// PutTopicSpec adds or replaces a topic with its replication factor,
// configs and sizes.
func (c *Cluster) PutTopicSpec(s TopicSpec) { c.PutTopicSpecs([]TopicSpec{s}) }

// PutTopicSpecs adds many topics under one lock (the benchmark's seed).
func (c *Cluster) PutTopicSpecs(specs []TopicSpec) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range specs {
		c.topics[s.Name] = s.topic()
		// The broker stamps what it appends to a LogAppendTime topic: its
		// batches carry that type, and the record times are the append times.
		if strings.EqualFold(s.Configs["message.timestamp.type"], "LogAppendTime") {
			if c.offsets.layout == nil {
				c.offsets.layout = map[string]topicLog{}
			}
			tl := c.offsets.topicLog(s.Name)
			tl.logAppendTime = true
			c.offsets.layout[s.Name] = tl
			c.offsets.cache = nil
		}
	}
}

// describeTopicConfigsLocked answers one TOPIC resource: the topic's
// configs over the defaults, the names asked (all when null).
func (c *Cluster) describeTopicConfigsLocked(res kmsg.DescribeConfigsRequestResource, rr *kmsg.DescribeConfigsResponseResource) {
	t, ok := c.topics[res.ResourceName]
	if !ok {
		rr.ErrorCode = kerr.UnknownTopicOrPartition.Code
		rr.ErrorMessage = strPtr("Topic '" + res.ResourceName + "' does not exist.")
		return
	}
	names := res.ConfigNames
	if names == nil {
		all := maps.Clone(topicDefaults)
		maps.Copy(all, t.configs)
		names = slices.Sorted(maps.Keys(all))
	}
	for _, name := range names {
		e := kmsg.NewDescribeConfigsResponseResourceConfig()
		e.Name, e.ConfigType = name, kmsg.ConfigTypeString
		if v, set := t.configs[name]; set {
			e.Value, e.Source = strPtr(v), kmsg.ConfigSourceDynamicTopicConfig
		} else if v, def := topicDefaults[name]; def {
			e.Value, e.Source = strPtr(v), kmsg.ConfigSourceDefaultConfig
		} else {
			continue // a name the broker does not know is left out
		}
		rr.Configs = append(rr.Configs, e)
	}
}

// handleDescribeLogDirs answers key 35 with the replicas this node holds
// (the topics asked, or all for null), all in one log directory.
func (c *Cluster) handleDescribeLogDirs(n *node, r *kmsg.DescribeLogDirsRequest, resp *kmsg.DescribeLogDirsResponse) {
	nodes := int32(len(c.nodes))
	dir := kmsg.NewDescribeLogDirsResponseDir()
	dir.Dir, dir.TotalBytes, dir.UsableBytes = logDir, 1<<40, 1<<39
	want := map[string][]int32{}
	all := r.Topics == nil
	for _, t := range r.Topics {
		want[t.Topic] = t.Partitions
	}
	for _, name := range slices.Sorted(maps.Keys(c.topics)) {
		t := c.topics[name]
		asked, ok := want[name]
		if !all && !ok {
			continue
		}
		rt := kmsg.NewDescribeLogDirsResponseDirTopic()
		rt.Topic = name
		for p := range t.partitions {
			if !all && !slices.Contains(asked, p) {
				continue
			}
			leader := leaderOf(name, p, nodes)
			if (n.id-leader+nodes)%nodes >= t.replicas(nodes) {
				continue // not a replica here
			}
			rp := kmsg.NewDescribeLogDirsResponseDirTopicPartition()
			rp.Partition, rp.Size = p, at(t.sizes, p)
			rt.Partitions = append(rt.Partitions, rp)
		}
		if len(rt.Partitions) > 0 {
			dir.Topics = append(dir.Topics, rt)
		}
	}
	resp.Dirs = append(resp.Dirs, dir)
}
