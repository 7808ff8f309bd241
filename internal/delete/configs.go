package delete

import (
	"context"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// A group's dynamic configs (streams.num.standby.replicas, ...) live apart
// from the group: deleting the group leaves them on the broker, and a new
// group of the same id inherits them (FINDINGS F402). Without
// --delete-configs the result says which remain; with it they are removed
// (IncrementalAlterConfigs DELETE of each key) once the group is gone.

// Configs is what became of a group's dynamic configs.
type Configs struct {
	// Dynamic are the configs set on the group when it was deleted (in a
	// dry run: now).
	Dynamic []kafka.GroupConfigEntry
	// Deleted tells that --delete-configs removed them all.
	Deleted bool
	// Err is why they could not be read, or (--delete-configs) deleted.
	Err error
}

// Remaining are the dynamic configs left on the broker: all of them
// unless they were deleted.
func (c *Configs) Remaining() []kafka.GroupConfigEntry {
	if c == nil || c.Deleted {
		return nil
	}
	return c.Dynamic
}

// readConfigs reads the dynamic configs of the groups, before a deletion
// or for a dry run; one DescribeConfigs for all of them. The read only
// says what will remain, so it may use at most half the time left (a
// broker that never answers it leaves the other half to DeleteGroups),
// and its failure is each group's Configs.Err, never the group's.
func readConfigs(ctx context.Context, client Client, groups []*Group) {
	if len(groups) == 0 {
		return
	}
	ctx, cancel := kafka.EnrichContext(ctx)
	defer cancel()
	ids := make([]string, len(groups))
	for i, g := range groups {
		ids[i] = g.Group
	}
	answers := map[string]kafka.GroupConfigs{}
	for _, gc := range client.DescribeGroupConfigs(ctx, ids) {
		answers[gc.Group] = gc
	}
	for _, g := range groups {
		gc := answers[g.Group]
		g.Configs = &Configs{Dynamic: gc.Dynamic(), Err: gc.Err}
	}
}

// deleteConfigs removes the dynamic configs of the deleted groups that
// have some, in one IncrementalAlterConfigs.
func deleteConfigs(ctx context.Context, client Client, groups []*Group) {
	var alters []admin.GroupConfigAlter
	byGroup := map[string]*Group{}
	for _, g := range groups {
		if !g.Deleted || g.Configs == nil || g.Configs.Err != nil || len(g.Configs.Dynamic) == 0 {
			continue
		}
		a := admin.GroupConfigAlter{Group: g.Group}
		for _, e := range g.Configs.Dynamic {
			a.Ops = append(a.Ops, admin.ConfigOp{Name: e.Name})
		}
		alters = append(alters, a)
		byGroup[g.Group] = g
	}
	if len(alters) == 0 {
		return
	}
	for _, a := range client.AlterGroupConfigs(ctx, alters, false) {
		g := byGroup[a.Group]
		if a.Err != nil {
			g.Configs.Err = a.Err
			continue
		}
		g.Configs.Deleted = true
	}
}
