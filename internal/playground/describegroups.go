package playground

import (
	"fmt"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// DescribeGroups (key 15), as the 4.4.0 group coordinator answers it
// (GroupMetadataManager.describeGroups): only classic groups are described,
// with their state and protocol type ("" for the simple group an admin
// offset commit creates) and no members, since the playground models no
// classic members. A group that does not exist, or is not a classic group
// (streams, consumer, share), is state Dead with, from v6,
// GROUP_ID_NOT_FOUND and "Group <id> not found." or "Group <id> is not a
// classic group."; before v6 without an error. Only the coordinator
// answers (NOT_COORDINATOR otherwise); a Fault with Key 15 answers its
// ErrorCode and ErrorMessage for the group.

func describeGroupsGroups(req kmsg.Request) []string {
	return append([]string(nil), req.(*kmsg.DescribeGroupsRequest).Groups...)
}

func (c *Cluster) handleDescribeGroups(n *node, r *kmsg.DescribeGroupsRequest, resp *kmsg.DescribeGroupsResponse) {
	for _, id := range r.Groups {
		row := kmsg.NewDescribeGroupsResponseGroup()
		row.Group = id
		if code, msg, stop := c.groupCheckLocked(r.Key(), n, id); stop {
			row.ErrorCode = code
			if r.Version >= 6 {
				row.ErrorMessage = msg
			}
			resp.Groups = append(resp.Groups, row)
			continue
		}
		if r.IncludeAuthorizedOperations {
			row.AuthorizedOperations = groupOperations
		}
		g, ok := c.groups[id]
		switch {
		case !ok || g.groupType != "classic":
			row.State = "Dead"
			if r.Version >= 6 {
				row.ErrorCode = kerr.GroupIDNotFound.Code
				row.ErrorMessage = strPtr(fmt.Sprintf("Group %s not found.", id))
				if ok {
					row.ErrorMessage = strPtr(fmt.Sprintf("Group %s is not a classic group.", id))
				}
			}
		default:
			row.State, row.ProtocolType = g.state, g.protocolType
		}
		resp.Groups = append(resp.Groups, row)
	}
}
