package playground

import (
	"fmt"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// groupOperations is the AuthorizedOperations bit set a broker without an
// authorizer reports for a group: READ(3), DELETE(6), DESCRIBE(8),
// DESCRIBE_CONFIGS(10) and ALTER_CONFIGS(11), the operations Kafka 4.x
// supports on GROUP resources.
const groupOperations int32 = 1<<3 | 1<<6 | 1<<8 | 1<<10 | 1<<11

// describeGroups lists the groups of a request, for the request log.
func describeGroups(req kmsg.Request) []string {
	return append([]string(nil), req.(*kmsg.StreamsGroupDescribeRequest).Groups...)
}

// handleStreamsGroupDescribe answers key 89 the way GroupCoordinatorService
// and GroupMetadataManager.streamsGroupDescribe do in Kafka 4.4:
// one row per requested id, in request order, errors per row.
func (c *Cluster) handleStreamsGroupDescribe(n *node, r *kmsg.StreamsGroupDescribeRequest, resp *kmsg.StreamsGroupDescribeResponse) {
	for _, id := range r.Groups {
		resp.Groups = append(resp.Groups, c.describeRowLocked(n, r, id))
	}
}

func (c *Cluster) describeRowLocked(n *node, r *kmsg.StreamsGroupDescribeRequest, id string) kmsg.StreamsGroupDescribeResponseGroup {
	// Error rows are fresh rows: no topology, no members, status 0 and a
	// null assignor, even when the description was requested.
	errRow := func(groupID string, code int16, msg *string) kmsg.StreamsGroupDescribeResponseGroup {
		row := kmsg.NewStreamsGroupDescribeResponseGroup()
		row.Group = groupID
		row.ErrorCode = code
		row.ErrorMessage = msg
		return row
	}
	if code, msg, stop := c.groupCheckLocked(r.Key(), n, id); stop {
		return errRow(id, code, msg)
	}
	g, ok := c.groups[id]
	if !ok {
		return errRow(id, kerr.GroupIDNotFound.Code, strPtr(fmt.Sprintf("Group %s not found.", id)))
	}
	if g.streams == nil {
		// Same code as a missing group: a client cannot tell them apart
		// without reading the message.
		return errRow(id, kerr.GroupIDNotFound.Code, strPtr(fmt.Sprintf("Group %s is not a streams group.", id)))
	}

	row := g.streams.row // shallow copy; the shared parts are only read
	if r.IncludeAuthorizedOperations {
		row.AuthorizedOperations = groupOperations
	}
	if r.Version >= 1 {
		row.AssignorName = g.streams.assignor
		if r.IncludeTopologyDescription {
			row.TopologyDescriptionStatus = int8(g.streams.status)
			if g.streams.status == StatusAvailable {
				row.TopologyDescription = g.streams.description
			}
		}
	}
	return row
}

func strPtr(s string) *string { return &s }
