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
func (c *Cluster) handleListConfigResources(_ *node, req kmsg.Request) (kmsg.Response, error) {
	r := req.(*kmsg.ListConfigResourcesRequest)
	resp := r.ResponseKind().(*kmsg.ListConfigResourcesResponse)
	c.mu.Lock()
	defer c.mu.Unlock()
	group := int8(kmsg.ConfigResourceTypeGroupConfig)
	if r.Version < 1 || (len(r.ResourceTypes) > 0 && !slices.Contains(r.ResourceTypes, group)) {
		return resp, nil
	}
	for _, g := range slices.Sorted(maps.Keys(c.groupConfigs)) {
		cr := kmsg.NewListConfigResourcesResponseConfigResource()
		cr.Name, cr.Type = g, group
		resp.ConfigResources = append(resp.ConfigResources, cr)
	}
	return resp, nil
}
