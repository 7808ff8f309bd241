package playground

import "slices"

// Fault makes the cluster answer an error code instead of the real outcome.
// What "answer" means depends on Key:
//
//   - 1 Fetch: each partition of Topic ("" every topic) gets ErrorCode
//     and no records; 29 TOPIC_AUTHORIZATION_FAILED is what a broker with
//     an authorizer answers a principal without READ on the topic (who may
//     still DESCRIBE it: Metadata, ListOffsets and OffsetFetch answer).
//   - 8 OffsetCommit: every partition of Group's commit gets ErrorCode and
//     nothing is committed.
//   - 10 FindCoordinator: the coordinator entry for Group gets ErrorCode,
//     node id -1 and ErrorMessage (or Kafka's default text).
//   - 15 DescribeGroups: the group's row gets ErrorCode and, from v6,
//     ErrorMessage.
//   - 16 ListGroups: the top-level ErrorCode; only faults with Group "" apply.
//   - 42 DeleteGroups: the group's result gets ErrorCode and, at v3,
//     ErrorMessage. Like a real 4.4 broker, a v0–v2 request sees 134
//     GROUP_DELETION_FAILED as -1 UNKNOWN_SERVER_ERROR. The group is kept,
//     and after a 134 its description status reads NOT_STORED, as on a
//     real broker whose plugin failed mid-delete.
//   - 47 OffsetDelete: the top-level ErrorCode; nothing is deleted.
//   - 88 StreamsGroupHeartbeat: the answer's ErrorCode and ErrorMessage;
//     nothing changes.
//   - 89 StreamsGroupDescribe: the group's row is replaced by an error row
//     (ErrorCode, ErrorMessage, no topology, status 0), whichever node the
//     request reached.
//
// Faults take precedence over every other check.
type Fault struct {
	Key          int16
	Group        string // group id; "" matches every group
	Topic        string // Fetch: topic name; "" matches every topic
	ErrorCode    int16
	ErrorMessage *string
	Times        int   // how many answers the fault spoils; 0 means forever
	Node         int32 // node the fault fires on; AnyNode for all (the zero value is node 0)
}

// takeFaultLocked returns the first fault for a per-group request that
// matches and counts it down, removing it once spent. Callers hold c.mu.
func (c *Cluster) takeFaultLocked(key int16, node int32, group string) (Fault, bool) {
	return c.takeFaultWhere(key, node, func(f *Fault) bool { return f.Group == "" || f.Group == group })
}

// takeTopicFaultLocked is takeFaultLocked for a request's partitions of
// topic (Fetch), where a fault's Topic names the topic.
func (c *Cluster) takeTopicFaultLocked(key int16, node int32, topic string) (Fault, bool) {
	return c.takeFaultWhere(key, node, func(f *Fault) bool { return f.Topic == "" || f.Topic == topic })
}

// takeTopLevelFaultLocked is takeFaultLocked for requests that name no
// group, where only group-less faults can apply.
func (c *Cluster) takeTopLevelFaultLocked(key int16, node int32) (Fault, bool) {
	return c.takeFaultWhere(key, node, func(f *Fault) bool { return f.Group == "" })
}

func (c *Cluster) takeFaultWhere(key int16, node int32, match func(*Fault) bool) (Fault, bool) {
	for i, f := range c.faults {
		if f.Key != key || (f.Node != AnyNode && f.Node != node) || !match(f) {
			continue
		}
		out := *f
		if f.Times > 0 {
			f.Times--
			if f.Times == 0 {
				c.faults = slices.Delete(c.faults, i, i+1)
			}
		}
		return out, true
	}
	return Fault{}, false
}

// ClearFaults removes every queued fault: the broker recovered.
func (c *Cluster) ClearFaults() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.faults = nil
}
