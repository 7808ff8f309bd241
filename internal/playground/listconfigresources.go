package playground

import (
	"maps"
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// handleListConfigResources answers key 74 (KIP-1142) for GROUP resources:
// the groups that have dynamic configs, existing or not, as a 4.4 broker
// lists them. Other resource types list nothing here; v0 (client metrics
// only) too.
func (c *Cluster) handleListConfigResources(_ *node, r *kmsg.ListConfigResourcesRequest, resp *kmsg.ListConfigResourcesResponse) {
	group := int8(kmsg.ConfigResourceTypeGroupConfig)
	if r.Version < 1 || (len(r.ResourceTypes) > 0 && !slices.Contains(r.ResourceTypes, group)) {
		return
	}
	for _, g := range slices.Sorted(maps.Keys(c.groupConfigs)) {
		cr := kmsg.NewListConfigResourcesResponseConfigResource()
		cr.Name, cr.Type = g, group
		resp.ConfigResources = append(resp.ConfigResources, cr)
	}
}
