package admin

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
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
	// send sends one request for groups to b and returns each group's
	// answer; a group missing from it is an error.
	send func(ctx context.Context, b *kgo.Broker, groups []string) (answers[T], error)
}

// answer is one group's row of a coordinator's answer, with its error code
// and the broker's message.
type answer[T any] struct {
	row  T
	code int16
	msg  *string
}

// answers are a coordinator's answers by group.
type answers[T any] map[string]answer[T]

// add keeps g's answer unless g was answered already (the first counts)
// and tells whether it did.
func (a answers[T]) add(g string, row T, code int16, msg *string) bool {
	if _, dup := a[g]; dup {
		return false
	}
	a[g] = answer[T]{row, code, msg}
	return true
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
// group id. Each attempt finds the coordinators of the pending groups
// (coordinators), sends one request per coordinator (sendAll, each
// answer sorted into outcomes and retries by settle) and retries the
// groups that asked for it, in request order (retried).
func route[T any](ctx context.Context, c *Client, groups []string, call groupCall[T]) map[string]*routed[T] {
	r := &router[T]{c: c, call: call, out: make(map[string]*routed[T], len(groups)), last: map[string]error{}, retry: map[string]bool{}}
	var pending []string
	for _, g := range groups {
		if _, seen := r.out[g]; !seen {
			r.out[g] = &routed[T]{}
			pending = append(pending, g)
		}
	}
	for attempt := 0; len(pending) > 0; attempt++ {
		if attempt > 0 {
			if err := sleep(ctx, backoff(attempt-1)); err != nil {
				r.finish(pending, err)
				return r.out
			}
		}
		nodes, more := r.coordinators(ctx, pending, attempt == 0)
		if !more {
			return r.out
		}
		r.sendAll(ctx, nodes)
		pending = r.retried(pending)
	}
	return r.out
}

// router is the state of one route: each group's outcome, the last
// retriable error of a group still pending, and the groups this attempt
// retries. mu guards them while the coordinators answer.
type router[T any] struct {
	c     *Client
	call  groupCall[T]
	mu    sync.Mutex
	out   map[string]*routed[T]
	last  map[string]error
	retry map[string]bool
}

// nodeGroups are the groups one coordinator is asked about.
type nodeGroups struct {
	broker kafka.Broker
	groups []string
}

// finish fails gs with cause, the error that ended the route.
func (r *router[T]) finish(gs []string, cause error) {
	for _, g := range gs {
		r.out[g].err = r.c.unavailable(r.call.api, cause, r.last[g])
	}
}

// again marks g for a retry after err.
func (r *router[T]) again(g string, err error) {
	r.last[g] = err
	r.retry[g] = true
}

// fail gives every group of gs the outcome err.
func (r *router[T]) fail(gs []string, err error) {
	for _, g := range gs {
		r.out[g].err = err
	}
}

// coordinators finds the coordinators of pending and groups them by node,
// in node order; a group whose lookup failed is settled or marked for a
// retry. It returns false when the route ends here.
func (r *router[T]) coordinators(ctx context.Context, pending []string, fresh bool) ([]*nodeGroups, bool) {
	coords, err := r.c.cachedCoordinators(ctx, pending, fresh)
	if err != nil {
		if fe, permanent := r.c.failure(err, "", ""); permanent {
			r.fail(pending, fe)
			return nil, false
		}
		if ctx.Err() != nil {
			r.finish(pending, ctx.Err())
			return nil, false
		}
		for _, g := range pending {
			r.again(g, err)
		}
		return nil, true
	}
	byNode := map[int32]*nodeGroups{}
	for _, g := range pending {
		co := coords[g]
		switch {
		case co == nil:
			r.out[g].err = &kafka.MalformedError{Reason: "FindCoordinator did not answer for group '" + g + "'"}
		case co.err != nil && errors.Is(co.err, kafka.ErrUnavailable):
			r.again(g, co.err)
		case co.err != nil:
			r.out[g].err = co.err
		default:
			r.out[g].coordinator = co.broker
			n := byNode[co.broker.ID]
			if n == nil {
				n = &nodeGroups{}
				byNode[co.broker.ID] = n
			}
			n.broker, n.groups = co.broker, append(n.groups, g)
		}
	}
	nodes := slices.SortedFunc(maps.Values(byNode), func(a, b *nodeGroups) int { return cmp.Compare(a.broker.ID, b.broker.ID) })
	return nodes, true
}

// sendAll sends one request to each coordinator, all at once.
func (r *router[T]) sendAll(ctx context.Context, nodes []*nodeGroups) {
	var wg sync.WaitGroup
	for _, n := range nodes {
		tg := r.c.brokerFor(n.broker)
		wg.Go(func() { r.send(ctx, tg, n) })
	}
	wg.Wait()
}

// send asks one coordinator about its groups and settles each answer.
func (r *router[T]) send(ctx context.Context, tg target, n *nodeGroups) {
	if r.call.gate != nil {
		if err := r.call.gate(ctx, tg); err != nil {
			r.gateFailed(ctx, tg, n.groups, err)
			return
		}
	}
	got, err := r.call.send(ctx, tg.b, n.groups)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		r.sendFailed(ctx, tg, n.groups, err)
		return
	}
	for _, g := range n.groups {
		a, ok := got[g]
		if !ok {
			r.out[g].err = &kafka.MalformedError{Reason: fmt.Sprintf("%s response from broker %d has no row for group '%s'", r.call.api, n.broker.ID, g)}
			continue
		}
		r.settle(g, a)
	}
}

// settle sorts one group's answer into its outcome or a retry.
func (r *router[T]) settle(g string, a answer[T]) {
	switch {
	case kafka.IsCoordinatorRetriable(a.code):
		r.again(g, NewKafkaError(a.code, a.msg))
	case a.code != 0:
		r.out[g].row, r.out[g].err = a.row, NewKafkaError(a.code, a.msg)
	default:
		r.out[g].row = a.row
	}
}

// gateFailed settles the groups of a coordinator its gate failed: retried
// when the failure is passing (or the context ended), else their outcome.
func (r *router[T]) gateFailed(ctx context.Context, tg target, gs []string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fe, permanent := r.c.failure(err, tg.addr, "ApiVersions")
	if permanent || (ctx.Err() == nil && !errors.Is(err, kafka.ErrUnavailable)) {
		r.fail(gs, fe)
		return
	}
	for _, g := range gs {
		r.again(g, fe)
	}
}

// sendFailed settles the groups of a request that got no answer: a
// permanent failure is their outcome, anything else is retried.
func (r *router[T]) sendFailed(ctx context.Context, tg target, gs []string, err error) {
	fe, permanent := r.c.failure(err, tg.addr, r.call.api)
	if permanent {
		r.fail(gs, fe)
		return
	}
	for _, g := range gs {
		r.retry[g] = true
		// The deadline itself is no last error.
		if ctx.Err() == nil || !errors.Is(fe, ctx.Err()) {
			r.last[g] = fe
		}
	}
}

// retried returns the groups marked for a retry, in request order (that
// of pending), and clears the marks.
func (r *router[T]) retried(pending []string) []string {
	var next []string
	for _, g := range pending {
		if r.retry[g] {
			next = append(next, g)
		}
	}
	clear(r.retry)
	return next
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

// request sends req to b, resent by kgo after a connection error, and
// returns its answer as T.
func request[T kmsg.Response](ctx context.Context, b *kgo.Broker, req kmsg.Request, api string) (T, error) {
	kr, err := b.RetriableRequest(ctx, req)
	if err != nil {
		var zero T
		return zero, err
	}
	resp, ok := kr.(T)
	if !ok {
		return resp, &kafka.MalformedError{Reason: fmt.Sprintf("%s answered with %T", api, kr)}
	}
	return resp, nil
}

// brokerAddr is the host:port of a broker franz-go reports, "" when the
// request never reached one.
func brokerAddr(m kgo.BrokerMetadata) string {
	if m.Host == "" {
		return ""
	}
	return kafka.Broker{Host: m.Host, Port: m.Port}.Addr()
}
