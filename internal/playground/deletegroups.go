package playground

import (
	"strings"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// DeletionFailedMessage is the fixed ErrorMessage a 4.4 broker sends with
// 134 GROUP_DELETION_FAILED when the topology description plugin cannot
// delete a group's description (e2e/FINDINGS.md F29: the broker's fixed
// text, not the plugin's exception message). Use it in a Fault to mimic
// that broker.
const DeletionFailedMessage = "Topology description plugin failed to delete the topology."

// deleteGroupsGroups lists the groups of a request, for the request log.
func deleteGroupsGroups(req kmsg.Request) []string {
	return append([]string(nil), req.(*kmsg.DeleteGroupsRequest).Groups...)
}

// handleDeleteGroups answers key 42 per group, removing a deleted group's
// committed offsets with it, in request order after
// de-duplication (the broker applies distinct).
func (c *Cluster) handleDeleteGroups(n *node, r *kmsg.DeleteGroupsRequest, resp *kmsg.DeleteGroupsResponse) {
	seen := map[string]bool{}
	for _, id := range r.Groups {
		if seen[id] {
			continue
		}
		seen[id] = true
		res := kmsg.NewDeleteGroupsResponseGroup()
		res.Group = id
		res.ErrorCode, res.ErrorMessage = c.deleteGroupLocked(n, r, id)
		if r.Version < 3 && res.ErrorCode == kerr.GroupDeletionFailed.Code {
			// Pre-v3 clients do not know 134; KafkaApis downgrades it.
			res.ErrorCode, res.ErrorMessage = kerr.UnknownServerError.Code, nil
		}
		resp.Groups = append(resp.Groups, res)
	}
}

func (c *Cluster) deleteGroupLocked(n *node, r *kmsg.DeleteGroupsRequest, id string) (int16, *string) {
	if f, ok := c.takeFaultLocked(r.Key(), n.id, id); ok {
		if g, ok := c.groups[id]; ok && g.streams != nil && f.ErrorCode == kerr.GroupDeletionFailed.Code {
			// The broker wrote its UNCERTAIN barrier before the plugin
			// failed and does not restore it, so the description reads
			// NOT_STORED until the app pushes again (e2e/FINDINGS.md F31).
			g.streams.status = StatusNotStored
		}
		return f.ErrorCode, f.ErrorMessage
	}
	if c.coordinatorLocked(id) != n.id {
		return kerr.NotCoordinator.Code, nil
	}
	g, ok := c.groups[id]
	if !ok {
		return kerr.GroupIDNotFound.Code, nil
	}
	switch {
	case strings.EqualFold(g.state, "Empty"):
	case g.streams == nil && strings.EqualFold(g.state, "Dead"):
		// A dead classic group is already gone as far as the broker cares.
		return kerr.GroupIDNotFound.Code, nil
	default:
		// StreamsGroup.validateDeleteGroup: anything but EMPTY, Dead
		// included, is NON_EMPTY_GROUP.
		return kerr.NonEmptyGroup.Code, nil
	}
	delete(c.groups, id)
	c.writeGroupLocked(id) // the group's tombstones
	// Deleting a group deletes its committed offsets; its internal topics
	// stay (upgrade-migration fact 3).
	delete(c.offsets.committed, id)
	return 0, nil
}
