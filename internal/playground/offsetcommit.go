package playground

import (
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// OffsetCommit (key 8), as the KIP-848/KIP-1071 group coordinator answers
// it, for kafka-streams-groups.sh --reset-offsets --execute. OffsetCommit has
// no group-level error: every code is per partition.
//
//   - Only the group's coordinator answers; other nodes say NOT_COORDINATOR.
//     An empty group id is INVALID_GROUP_ID.
//   - A streams group (StreamsGroup.validateOffsetCommit) takes an admin
//     commit (member epoch < 0, as an admin client sends -1 with an empty
//     member id) only while it has no members; with members it answers
//     UNKNOWN_MEMBER_ID. A member's commit must name a member
//     (UNKNOWN_MEMBER_ID) with its current epoch (STALE_MEMBER_EPOCH).
//   - Other groups take an admin commit while Empty (or Dead) and answer
//     UNKNOWN_MEMBER_ID otherwise.
//   - A group that does not exist is created by the commit as an Empty
//     classic group holding the offsets, as Kafka does.
//   - A topic or partition Metadata does not know is
//     UNKNOWN_TOPIC_OR_PARTITION (v10 names topics by id: UNKNOWN_TOPIC_ID).
//   - A Fault with Key 8 answers its ErrorCode for every partition of the
//     group (Group "" for any group) and commits nothing.
//
// Committed offsets keep the leader epoch and metadata sent.

// offsetCommitGroups lists the group of a request, for the request log.
func offsetCommitGroups(req kmsg.Request) []string {
	return []string{req.(*kmsg.OffsetCommitRequest).Group}
}

func (c *Cluster) handleOffsetCommit(n *node, r *kmsg.OffsetCommitRequest, resp *kmsg.OffsetCommitResponse) {
	code := c.offsetCommitCodeLocked(n, r)
	byID := r.Version >= 10
	var commits []Committed
	for _, rt := range r.Topics {
		out := kmsg.NewOffsetCommitResponseTopic()
		out.Topic, out.TopicID = rt.Topic, rt.TopicID
		t := c.topics[rt.Topic]
		if byID {
			t = c.topicByIDLocked(rt.TopicID)
		}
		for _, rp := range rt.Partitions {
			p := kmsg.NewOffsetCommitResponseTopicPartition()
			p.Partition = rp.Partition
			p.ErrorCode = code
			switch {
			case p.ErrorCode != 0:
			case t == nil && byID:
				p.ErrorCode = kerr.UnknownTopicID.Code
			case t == nil || rp.Partition < 0 || rp.Partition >= t.partitions:
				p.ErrorCode = kerr.UnknownTopicOrPartition.Code
			default:
				commits = append(commits, Committed{Topic: t.name, Partition: rp.Partition, Offset: rp.Offset, LeaderEpoch: rp.LeaderEpoch, Metadata: rp.Metadata})
			}
			out.Partitions = append(out.Partitions, p)
		}
		resp.Topics = append(resp.Topics, out)
	}
	c.commitLocked(r.Group, commits)
	if _, ok := c.groups[r.Group]; !ok && len(commits) > 0 {
		// A commit outside any group creates a simple classic group.
		c.groups[r.Group] = &group{id: r.Group, groupType: "classic", protocolType: "", state: "Empty"}
	}
}

// offsetCommitCodeLocked is the code every partition of the request gets
// from the group checks, 0 when the commit may proceed.
func (c *Cluster) offsetCommitCodeLocked(n *node, r *kmsg.OffsetCommitRequest) int16 {
	if code, _, stop := c.groupCheckLocked(r.Key(), n, r.Group); stop {
		return code
	}
	g, ok := c.groups[r.Group]
	if !ok {
		return 0
	}
	switch {
	case g.streams == nil && g.emptyOrDead():
		return 0
	case g.streams == nil:
		return kerr.UnknownMemberID.Code
	case r.Generation >= 0: // a member's commit
		return g.streams.checkMember(r.MemberID, r.Generation)
	case len(g.streams.row.Members) == 0: // an admin commit
		return 0
	}
	return kerr.UnknownMemberID.Code
}
