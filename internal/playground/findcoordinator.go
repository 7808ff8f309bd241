package playground

import (
	"errors"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Kafka's coordinator key types: 0 group, 1 transaction, 2 share.
const maxCoordinatorType = 2

// findCoordinatorGroups lists the coordinator keys of a request, for the
// request log: v4 (KIP-699) batches them.
func findCoordinatorGroups(req kmsg.Request) []string {
	r := req.(*kmsg.FindCoordinatorRequest)
	if r.Version >= 4 {
		return append([]string(nil), r.CoordinatorKeys...)
	}
	return []string{r.CoordinatorKey}
}

func (c *Cluster) handleFindCoordinator(n *node, r *kmsg.FindCoordinatorRequest, resp *kmsg.FindCoordinatorResponse) {
	// v4 (KIP-699) batches keys; before that the single answer sits at the
	// top level.
	if r.Version < 4 {
		e := c.coordinatorEntryLocked(n, r, r.CoordinatorKey)
		resp.ErrorCode, resp.ErrorMessage = e.ErrorCode, e.ErrorMessage
		resp.NodeID, resp.Host, resp.Port = e.NodeID, e.Host, e.Port
		return
	}
	for _, key := range r.CoordinatorKeys {
		resp.Coordinators = append(resp.Coordinators, c.coordinatorEntryLocked(n, r, key))
	}
}

func (c *Cluster) coordinatorEntryLocked(n *node, r *kmsg.FindCoordinatorRequest, key string) kmsg.FindCoordinatorResponseCoordinator {
	e := kmsg.NewFindCoordinatorResponseCoordinator()
	e.Key = key
	fail := func(code int16, msg *string) kmsg.FindCoordinatorResponseCoordinator {
		// Kafka's error entries carry node -1, an empty host and port -1.
		e.NodeID, e.Host, e.Port = -1, "", -1
		e.ErrorCode = code
		e.ErrorMessage = msg
		if msg == nil {
			e.ErrorMessage = defaultMessage(code)
		}
		return e
	}
	if f, ok := c.takeFaultLocked(r.Key(), n.id, key); ok {
		return fail(f.ErrorCode, f.ErrorMessage)
	}
	if r.CoordinatorType < 0 || r.CoordinatorType > maxCoordinatorType {
		return fail(kerr.InvalidRequest.Code, nil)
	}
	placed := c.coordinatorLocked(key)
	if placed < 0 || int(placed) >= len(c.nodes) {
		// No live leader for the group's offsets partition.
		return fail(kerr.CoordinatorNotAvailable.Code, nil)
	}
	target := c.nodes[placed]
	e.NodeID, e.Host, e.Port = target.id, target.host, target.port
	e.ErrorMessage = defaultMessage(0)
	return e
}

// defaultMessage is the text Java's Errors.message() gives a code, which is
// what Kafka puts in ErrorMessage fields when it has nothing better. kerr
// carries the same descriptions.
func defaultMessage(code int16) *string {
	if code == 0 {
		s := "NONE"
		return &s
	}
	var ke *kerr.Error
	if errors.As(kerr.ErrorForCode(code), &ke) {
		s := ke.Description
		return &s
	}
	return nil
}
