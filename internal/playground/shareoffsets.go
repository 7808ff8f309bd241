package playground

import (
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// handleDescribeShareGroupOffsets answers key 90 (KIP-932) at the group's
// coordinator: the share group's start offsets, the offsets Commit
// recorded for it, every topic for null topics. A group that is not a
// share group is GROUP_ID_NOT_FOUND, as 4.4 answers.
func (c *Cluster) handleDescribeShareGroupOffsets(n *node, r *kmsg.DescribeShareGroupOffsetsRequest, resp *kmsg.DescribeShareGroupOffsetsResponse) {
	for _, rg := range r.Groups {
		out := kmsg.NewDescribeShareGroupOffsetsResponseGroup()
		out.GroupID = rg.GroupID
		if code, msg, stop := c.groupCheckLocked(r.Key(), n, rg.GroupID); stop {
			out.ErrorCode, out.ErrorMessage = code, clonePtr(msg)
			resp.Groups = append(resp.Groups, out)
			continue
		}
		if g, ok := c.groups[rg.GroupID]; !ok || g.groupType != "share" {
			out.ErrorCode = kerr.GroupIDNotFound.Code
			resp.Groups = append(resp.Groups, out)
			continue
		}
		byTopic := map[string]int{}
		for _, o := range c.offsets.sorted(rg.GroupID) {
			i, ok := byTopic[o.Topic]
			if !ok {
				t := kmsg.NewDescribeShareGroupOffsetsResponseGroupTopic()
				t.Topic = o.Topic
				if tp, known := c.topics[o.Topic]; known {
					t.TopicID = tp.id
				}
				i = len(out.Topics)
				byTopic[o.Topic] = i
				out.Topics = append(out.Topics, t)
			}
			p := kmsg.NewDescribeShareGroupOffsetsResponseGroupTopicPartition()
			p.Partition, p.StartOffset, p.LeaderEpoch = o.Partition, o.Offset, o.LeaderEpoch
			out.Topics[i].Partitions = append(out.Topics[i].Partitions, p)
		}
		resp.Groups = append(resp.Groups, out)
	}
}
