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
