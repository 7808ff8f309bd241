package playground

import (
	"slices"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// OffsetDelete (key 47), as the group coordinator answers it, for
// kafka-streams-groups.sh --delete-offsets:
//
//   - Only the group's coordinator answers; other nodes say NOT_COORDINATOR,
//     at the top level like every group error. An empty group id is
//     INVALID_GROUP_ID and a group that does not exist GROUP_ID_NOT_FOUND.
//   - A streams group may delete offsets in any state
//     (StreamsGroup.validateOffsetDelete), but while it is not Empty (or
//     Dead) it is subscribed to every source and repartition source topic
//     of its topology (StreamsTopology.sourceTopicMap), whose partitions
//     answer GROUP_SUBSCRIBED_TO_TOPIC.
//   - Another group that is not Empty answers GROUP_SUBSCRIBED_TO_TOPIC for
//     every partition (the playground does not track subscriptions).
//   - A topic that does not exist, and a partition it does not have (-1
//     included), answer UNKNOWN_TOPIC_OR_PARTITION before the coordinator
//     sees them (KafkaApis.handleOffsetDeleteRequest checks the metadata
//     cache; e2e/FINDINGS.md F304, F510). Like its OffsetDeleteResponse
//     Builder.merge, the answer lists those first, topic by topic in the
//     request's order, then the coordinator's answers, appended to a topic
//     already listed; a top-level error replaces them all.
//   - Every other partition answers success and loses its committed offset,
//     whether it had one or not.
//   - A Fault with Key 47 answers its ErrorCode at the top level and deletes
//     nothing.

// offsetDeleteGroups lists the group of a request, for the request log.
func offsetDeleteGroups(req kmsg.Request) []string {
	return []string{req.(*kmsg.OffsetDeleteRequest).Group}
}

func (c *Cluster) handleOffsetDelete(n *node, r *kmsg.OffsetDeleteRequest, resp *kmsg.OffsetDeleteResponse) {
	if code := c.offsetDeleteCodeLocked(n, r); code != 0 {
		resp.ErrorCode = code
		return
	}
	g := c.groups[r.Group]
	// The broker's answers (unknown topics and partitions), then the
	// coordinator's, merged by topic name as Kafka's Builder.merge does.
	var unknown, coordinator []kmsg.OffsetDeleteResponseTopic
	var deleted []Committed
	defer func() { c.writeCommitsLocked(r.Group, deleted, true) }()
	for _, rt := range r.Topics {
		t := c.topics[rt.Topic]
		bad := kmsg.NewOffsetDeleteResponseTopic()
		bad.Topic = rt.Topic
		out := kmsg.NewOffsetDeleteResponseTopic()
		out.Topic = rt.Topic
		subscribed := g.subscribedTo(rt.Topic)
		for _, rp := range rt.Partitions {
			p := kmsg.NewOffsetDeleteResponseTopicPartition()
			p.Partition = rp.Partition
			switch {
			case t == nil || rp.Partition < 0 || rp.Partition >= t.partitions:
				p.ErrorCode = kerr.UnknownTopicOrPartition.Code
				bad.Partitions = append(bad.Partitions, p)
				continue
			case subscribed:
				p.ErrorCode = kerr.GroupSubscribedToTopic.Code
			default:
				if m := c.offsets.committed[r.Group]; m != nil {
					if o, ok := m[tpKey{rt.Topic, rp.Partition}]; ok {
						deleted = append(deleted, o)
					}
					delete(m, tpKey{rt.Topic, rp.Partition})
				}
			}
			out.Partitions = append(out.Partitions, p)
		}
		if len(bad.Partitions) > 0 {
			unknown = append(unknown, bad)
		}
		if len(out.Partitions) > 0 {
			coordinator = append(coordinator, out)
		}
	}
	resp.Topics = unknown
	for _, out := range coordinator {
		i := slices.IndexFunc(resp.Topics, func(t kmsg.OffsetDeleteResponseTopic) bool { return t.Topic == out.Topic })
		if i < 0 {
			resp.Topics = append(resp.Topics, out)
			continue
		}
		resp.Topics[i].Partitions = append(resp.Topics[i].Partitions, out.Partitions...)
	}
}

func (c *Cluster) offsetDeleteCodeLocked(n *node, r *kmsg.OffsetDeleteRequest) int16 {
	if code, _, stop := c.groupCheckLocked(r.Key(), n, r.Group); stop {
		return code
	}
	if _, ok := c.groups[r.Group]; !ok {
		return kerr.GroupIDNotFound.Code
	}
	return 0
}

// subscribedTo tells whether the group is actively subscribed to topic,
// which keeps OffsetDelete from deleting its offsets.
func (g *group) subscribedTo(topicName string) bool {
	if g.emptyOrDead() {
		return false
	}
	if g.streams == nil {
		return true
	}
	t := g.streams.row.Topology
	if t == nil {
		return false
	}
	for _, s := range t.Subtopologies {
		if slices.Contains(s.SourceTopics, topicName) {
			return true
		}
		for _, ti := range s.RepartitionSourceTopics {
			if ti.Topic == topicName {
				return true
			}
		}
	}
	return false
}
