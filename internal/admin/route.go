package admin

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// Group requests (StreamsGroupDescribe, DeleteGroups) must reach each group's
// coordinator. kgo does not route StreamsGroupDescribe at all, and its
// per-shard DeleteGroups retry resends groups that already succeeded, so the
// client routes both itself: one batched FindCoordinator, one request per
// coordinator node, and a retry of only the groups that answered
// NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE or COORDINATOR_LOAD_IN_PROGRESS,
// or whose answer was lost, until the context ends. A request goes to the
// coordinator over a connection the client already has when it can
// (brokerFor): for a group coordinated by the bootstrap broker, one
// connection carries ApiVersions, FindCoordinator and the request, and
// nothing else is sent.

// routed is the outcome of a routed request for one group.
type routed[T any] struct {
	coordinator kafka.Broker
	row         T
	err         error
}

// groupCall describes one routed request kind.
type groupCall[T any] struct {
	// api names the request in errors.
	api string
	// gate fails a coordinator before anything is sent to it (version
	// checks).
	gate func(ctx context.Context, t target) error
	// send sends one request for groups to b and returns each group's row
	// and error code; a group missing from the answer is an error.
	send func(ctx context.Context, b *kgo.Broker, groups []string) (rows map[string]T, codes map[string]int16, msgs map[string]*string, err error)
}

// versionGate is the gate of a request that needs version need of API key
// from every coordinator: read from the coordinator's ApiVersions table
// (maxVersion), a coordinator without it fails its groups with a
// *kafka.BrokerTooOldError naming api and feature, and nothing is sent to
// it.
func (c *Client) versionGate(key, need int16, api, feature string) func(ctx context.Context, t target) error {
	return func(ctx context.Context, t target) error {
		have, err := c.maxVersion(ctx, t, key)
		var ke *kafka.Error
		if errors.As(err, &ke) {
			return err
		}
		if err != nil {
			return c.unavailable("ApiVersions", err, nil)
		}
		if have < need {
			return &kafka.BrokerTooOldError{NodeID: t.co.ID, API: api, Need: need, Have: have, Feature: feature}
		}
		return nil
	}
}

type coordinator struct {
	broker kafka.Broker
	err    error
}

// route runs call for every distinct group and returns the outcome per
// group id.
func route[T any](ctx context.Context, c *Client, groups []string, call groupCall[T]) map[string]*routed[T] {
	out := make(map[string]*routed[T], len(groups))
	last := map[string]error{}
	var pending []string
	for _, g := range groups {
		if _, seen := out[g]; !seen {
			out[g] = &routed[T]{}
			pending = append(pending, g)
		}
	}
	finish := func(gs []string, cause error) {
		for _, g := range gs {
			out[g].err = c.unavailable(call.api, cause, last[g])
		}
	}
	for attempt := 0; len(pending) > 0; attempt++ {
		if attempt > 0 {
			if err := sleep(ctx, backoff(attempt-1)); err != nil {
				finish(pending, err)
				return out
			}
		}
		coords, err := c.cachedCoordinators(ctx, pending, attempt == 0)
		if err != nil {
			if fe, permanent := c.failure(err, "", ""); permanent {
				for _, g := range pending {
					out[g].err = fe
				}
				return out
			}
			if ctx.Err() != nil {
				finish(pending, ctx.Err())
				return out
			}
			for _, g := range pending {
				last[g] = err
			}
			continue
		}
		var retry []string
		byNode := map[int32][]string{}
		nodeBroker := map[int32]kafka.Broker{}
		for _, g := range pending {
			co := coords[g]
			switch {
			case co == nil:
				out[g].err = &kafka.MalformedError{Reason: "FindCoordinator did not answer for group '" + g + "'"}
			case co.err != nil && errors.Is(co.err, kafka.ErrUnavailable):
				last[g] = co.err
				retry = append(retry, g)
			case co.err != nil:
				out[g].err = co.err
			default:
				out[g].coordinator = co.broker
				byNode[co.broker.ID] = append(byNode[co.broker.ID], g)
				nodeBroker[co.broker.ID] = co.broker
			}
		}

		var mu sync.Mutex
		var wg sync.WaitGroup
		nodes := make([]int32, 0, len(byNode))
		for n := range byNode {
			nodes = append(nodes, n)
		}
		slices.Sort(nodes)
		for _, node := range nodes {
			gs, co := byNode[node], nodeBroker[node]
			tg := c.brokerFor(co)
			wg.Add(1)
			go func() {
				defer wg.Done()
				if call.gate != nil {
					if err := call.gate(ctx, tg); err != nil {
						mu.Lock()
						defer mu.Unlock()
						fe, permanent := c.failure(err, tg.addr, "ApiVersions")
						if !permanent && (ctx.Err() != nil || errors.Is(err, kafka.ErrUnavailable)) {
							for _, g := range gs {
								last[g] = fe
							}
							retry = append(retry, gs...)
							return
						}
						for _, g := range gs {
							out[g].err = fe
						}
						return
					}
				}
				rows, codes, msgs, err := call.send(ctx, tg.b, gs)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					fe, permanent := c.failure(err, tg.addr, call.api)
					for _, g := range gs {
						switch {
						case permanent:
							out[g].err = fe
						case ctx.Err() == nil || !errors.Is(fe, ctx.Err()):
							// The deadline itself is no last error.
							last[g] = fe
						}
					}
					if !permanent {
						retry = append(retry, gs...)
					}
					return
				}
				for _, g := range gs {
					code, ok := codes[g]
					switch {
					case !ok:
						out[g].err = &kafka.MalformedError{Reason: fmt.Sprintf("%s response from broker %d has no row for group '%s'", call.api, node, g)}
					case kafka.IsCoordinatorRetriable(code):
						last[g] = NewKafkaError(code, msgs[g])
						retry = append(retry, g)
					default:
						out[g].row = rows[g]
						if code != 0 {
							out[g].err = NewKafkaError(code, msgs[g])
						}
					}
				}
			}()
		}
		wg.Wait()
		// Retried in request order; a position map keeps the sort
		// n log n for --all-groups on a large cluster.
		at := make(map[string]int, len(pending))
		for i, g := range pending {
			at[g] = i
		}
		slices.SortFunc(retry, func(a, b string) int { return at[a] - at[b] })
		pending = retry
	}
	return out
}

// findCoordinators looks up the group coordinators of groups in one batched
// FindCoordinator (kgo splits it per key for brokers older than v4).
func (c *Client) findCoordinators(ctx context.Context, groups []string) (map[string]*coordinator, error) {
	req := kmsg.NewPtrFindCoordinatorRequest()
	req.CoordinatorType = 0 // group
	req.CoordinatorKeys = groups
	out := make(map[string]*coordinator, len(groups))
	for _, shard := range c.cl.RequestSharded(ctx, req) {
		if shard.Err != nil {
			err, _ := c.failure(shard.Err, brokerAddr(shard.Meta), "FindCoordinator")
			return nil, c.unavailable("FindCoordinator", err, nil)
		}
		resp, ok := shard.Resp.(*kmsg.FindCoordinatorResponse)
		if !ok {
			return nil, &kafka.MalformedError{Reason: fmt.Sprintf("FindCoordinator answered with %T", shard.Resp)}
		}
		if len(resp.Coordinators) == 0 { // v0-v3: one key per request
			rc := kmsg.NewFindCoordinatorResponseCoordinator()
			rc.NodeID, rc.Host, rc.Port, rc.ErrorCode, rc.ErrorMessage = resp.NodeID, resp.Host, resp.Port, resp.ErrorCode, resp.ErrorMessage
			if sreq, ok := shard.Req.(*kmsg.FindCoordinatorRequest); ok {
				rc.Key = sreq.CoordinatorKey
			}
			resp.Coordinators = append(resp.Coordinators, rc)
		}
		for _, co := range resp.Coordinators {
			if co.ErrorCode != 0 {
				out[co.Key] = &coordinator{err: NewKafkaError(co.ErrorCode, co.ErrorMessage)}
				continue
			}
			out[co.Key] = &coordinator{broker: kafka.Broker{ID: co.NodeID, Host: co.Host, Port: co.Port}}
		}
	}
	return out, nil
}

// brokerAddr is the host:port of a broker franz-go reports, "" when the
// request never reached one.
func brokerAddr(m kgo.BrokerMetadata) string {
	if m.Host == "" {
		return ""
	}
	return kafka.Broker{Host: m.Host, Port: m.Port}.Addr()
}
