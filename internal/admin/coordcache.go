package admin

import (
	"context"
	"sync"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// coordinatorCache keeps the group coordinators FindCoordinator named, for
// the client's next group request: a verb that describes, fetches and
// commits (--reset-offsets) looks each group up once. A retry of the
// router looks its groups up again, dropping what was kept.
type coordinatorCache struct {
	mu sync.Mutex
	m  map[string]kafka.Broker
}

// cachedCoordinators is findCoordinators for groups, answering from the
// cache those it holds when cached is set; with cached unset their entries
// are dropped and every group is looked up.
func (c *Client) cachedCoordinators(ctx context.Context, groups []string, cached bool) (map[string]*coordinator, error) {
	cc := &c.coordinators
	out := make(map[string]*coordinator, len(groups))
	var ask []string
	cc.mu.Lock()
	for _, g := range groups {
		if b, ok := cc.m[g]; ok && cached {
			out[g] = &coordinator{broker: b}
			continue
		}
		delete(cc.m, g)
		ask = append(ask, g)
	}
	cc.mu.Unlock()
	if len(ask) == 0 {
		return out, nil
	}
	found, err := c.findCoordinators(ctx, ask)
	if err != nil {
		return nil, err
	}
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if cc.m == nil {
		cc.m = map[string]kafka.Broker{}
	}
	for g, co := range found {
		out[g] = co
		if co.err == nil {
			cc.m[g] = co.broker
		}
	}
	return out, nil
}
