package playground

import (
	"maps"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// handleListGroups answers key 16 with the groups this node coordinates:
// a client must ask every broker, as with a real cluster.
func (c *Cluster) handleListGroups(n *node, r *kmsg.ListGroupsRequest, resp *kmsg.ListGroupsResponse) {
	if f, ok := c.takeTopLevelFaultLocked(r.Key(), n.id); ok {
		resp.ErrorCode = f.ErrorCode
		return
	}
	// The broker lower-cases and trims both filters (KafkaApis and
	// GroupMetadataManager.listGroups); an unknown type matches nothing.
	var states, types []string
	if r.Version >= 4 {
		states = normalise(r.StatesFilter)
	}
	if r.Version >= 5 {
		types = normalise(r.TypesFilter)
	}

	for _, id := range slices.Sorted(maps.Keys(c.groups)) {
		g := c.groups[id]
		if c.coordinatorLocked(id) != n.id {
			continue
		}
		if len(states) > 0 && !slices.Contains(states, g.filterState()) {
			continue
		}
		if len(types) > 0 && !slices.Contains(types, g.groupType) {
			continue
		}
		lg := kmsg.NewListGroupsResponseGroup()
		lg.Group = g.id
		lg.ProtocolType = g.protocolType
		lg.GroupState = g.state
		lg.GroupType = g.groupType
		resp.Groups = append(resp.Groups, lg)
	}
}

func normalise(in []string) []string {
	out := make([]string, 0, len(in))
	for _, s := range in {
		out = append(out, strings.ToLower(strings.TrimSpace(s)))
	}
	return out
}

// filterState is the spelling a states filter must use. Kafka compares with
// the state's toLowerCaseString(), which for a streams group in NotReady is
// "not_ready" (e2e/FINDINGS.md F69), so "NotReady" in a filter matches nothing.
func (g *group) filterState() string {
	if g.streams != nil && g.state == "NotReady" {
		return "not_ready"
	}
	return strings.ToLower(g.state)
}
