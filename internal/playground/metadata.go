package playground

import (
	"crypto/sha256"
	"maps"
	"slices"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

type topic struct {
	name       string
	id         [16]byte
	partitions int32
	// rf is the replication factor; 0 means min(nodes, 3). configs are
	// its dynamic configs and sizes the bytes of each partition's replicas
	// (topicconfigs.go).
	rf      int16
	configs map[string]string
	sizes   []int64
}

// PutTopic adds or replaces a topic. Partition p is led by node
// (hash(name)+p) mod Nodes, so leaders spread over the nodes, and each
// partition is replicated on up to three consecutive nodes. The topic id is
// derived from the name so it is the same in every run.
func (c *Cluster) PutTopic(name string, partitions int32) {
	c.PutTopicSpec(TopicSpec{Name: name, Partitions: partitions})
}

// topicByIDLocked is the registered topic with id, or nil.
func (c *Cluster) topicByIDLocked(id [16]byte) *topic {
	for _, t := range c.topics {
		if t.id == id {
			return t
		}
	}
	return nil
}

// topicID is a name-derived UUID, so golden output stays stable.
func topicID(name string) [16]byte {
	sum := sha256.Sum256([]byte("kafkatest topic " + name))
	var id [16]byte
	copy(id[:], sum[:16])
	id[6] = id[6]&0x0f | 0x40 // version 4, like Kafka's Uuid.randomUuid
	id[8] = id[8]&0x3f | 0x80
	return id
}

func (c *Cluster) handleMetadata(_ *node, r *kmsg.MetadataRequest, resp *kmsg.MetadataResponse) {
	for _, n := range c.nodes {
		resp.Brokers = append(resp.Brokers, kmsg.MetadataResponseBroker{NodeID: n.id, Host: n.host, Port: n.port})
	}
	clusterID := c.cfg.ClusterID
	resp.ClusterID = &clusterID
	resp.ControllerID = 0

	// v0 has no null array, so an empty list asks for every topic there;
	// from v1 an empty list asks for none and null for all.
	if r.Topics == nil || (r.Version == 0 && len(r.Topics) == 0) {
		// __consumer_offsets is left out, unlike Kafka: the views that
		// list a cluster's topics stay as they were (STATE.md).
		for _, name := range slices.Sorted(maps.Keys(c.topics)) {
			resp.Topics = append(resp.Topics, c.metadataTopicLocked(c.topics[name]))
		}
		return
	}
	for _, rt := range r.Topics {
		var t *topic
		if rt.Topic != nil {
			t, _ = c.namedTopicLocked(*rt.Topic)
		} else if rt.TopicID == offsetsTopicID {
			t, _ = c.namedTopicLocked(OffsetsTopic)
		} else {
			t = c.topicByIDLocked(rt.TopicID)
		}
		if t != nil {
			resp.Topics = append(resp.Topics, c.metadataTopicLocked(t))
			continue
		}
		// Topics are never auto-created: tests register them explicitly.
		mt := kmsg.NewMetadataResponseTopic()
		mt.Topic = rt.Topic
		mt.ErrorCode = kerr.UnknownTopicOrPartition.Code
		if rt.Topic == nil {
			mt.ErrorCode = kerr.UnknownTopicID.Code
			mt.TopicID = rt.TopicID
		}
		resp.Topics = append(resp.Topics, mt)
	}
}

func (c *Cluster) metadataTopicLocked(t *topic) kmsg.MetadataResponseTopic {
	mt := kmsg.NewMetadataResponseTopic()
	name := t.name
	mt.Topic = &name
	mt.TopicID = t.id
	mt.IsInternal = t.name == OffsetsTopic
	nodes := int32(len(c.nodes))
	rf := t.replicas(nodes)
	for p := range t.partitions {
		mp := kmsg.NewMetadataResponseTopicPartition()
		mp.Partition = p
		mp.Leader = leaderOf(t.name, p, nodes)
		for i := range rf {
			mp.Replicas = append(mp.Replicas, (mp.Leader+i)%nodes)
		}
		mp.ISR = slices.Clone(mp.Replicas)
		mt.Partitions = append(mt.Partitions, mp)
	}
	return mt
}

// PartitionLeader returns the node leading partition p of topic, and false
// if the topic or partition is not registered.
func (c *Cluster) PartitionLeader(topicName string, p int32) (int32, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.namedTopicLocked(topicName)
	if !ok || p < 0 || p >= t.partitions {
		return -1, false
	}
	return leaderOf(t.name, p, int32(len(c.nodes))), true
}

func leaderOf(topicName string, p, nodes int32) int32 {
	if topicName == OffsetsTopic {
		// Where defaultPlacement puts the coordinators of its groups.
		return p % nodes
	}
	return (javaAbs(javaHash(topicName))%nodes + p) % nodes
}
