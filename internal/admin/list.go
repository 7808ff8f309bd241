package admin

import (
	"context"
	"slices"
	"strings"
)

// ListStreamsGroupsInStates lists the streams groups whose state is one of
// states (every streams group when states is empty), sorted by id.
//
// The states are matched here rather than sent as ListGroups' StatesFilter:
// the broker lower-cases a filter and compares it with the state's
// toLowerCaseString(), which is "not_ready" for NotReady, so the filter
// "NotReady" that the Java admin client sends matches nothing
// (e2e/FINDINGS.md F69). Filtering the full streams listing matches every
// state on every broker version and costs nothing extra on the wire.
func (c *Client) ListStreamsGroupsInStates(ctx context.Context, states []string) ([]ListedGroup, error) {
	all, err := c.ListStreamsGroups(ctx)
	if err != nil || len(states) == 0 {
		return all, err
	}
	out := make([]ListedGroup, 0, len(all))
	for _, g := range all {
		if slices.ContainsFunc(states, func(s string) bool { return strings.EqualFold(s, g.State) }) {
			out = append(out, g)
		}
	}
	return out, nil
}

// GroupLister is what RequestedGroups needs: Client.ListStreamsGroups.
type GroupLister interface {
	ListStreamsGroups(ctx context.Context) ([]ListedGroup, error)
}

// RequestedGroups are the groups a verb works on: groups as given or, with
// all (--all-groups), the id of every streams group, sorted. The error is
// the listing's.
func RequestedGroups(ctx context.Context, l GroupLister, groups []string, all bool) ([]string, error) {
	if !all {
		return groups, nil
	}
	listed, err := l.ListStreamsGroups(ctx)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(listed))
	for i, g := range listed {
		ids[i] = g.Group
	}
	return ids, nil
}
