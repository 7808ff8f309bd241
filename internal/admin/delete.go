package admin

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// DeletedGroup is one group's DeleteGroups outcome.
type DeletedGroup struct {
	Group       string
	Coordinator kafka.Broker
	// Version is the DeleteGroups version the coordinator answered; below 3
	// the broker cannot report GROUP_DELETION_FAILED and says
	// UNKNOWN_SERVER_ERROR instead.
	Version int16
	// Err is nil when the group was deleted.
	Err error
	// AnswerLost tells that an earlier request for the group got no
	// readable answer and the resend found the group gone. The pre-checks
	// had seen the group, so the lost request most likely deleted it; it is
	// reported as deleted either way, because the group no longer exists.
	AnswerLost bool
}

const deleteGroupsAPI = "DeleteGroups"

// DeleteGroups deletes groups at their coordinators and returns one entry
// per requested group, in request order (a repeated id is sent once and
// answered for each occurrence). The router (route.go) resends only the
// groups that asked for it: kgo's own retries resend a whole shard, groups
// it already deleted included, and report those as GROUP_ID_NOT_FOUND. A
// request whose answer was lost may still have deleted its groups, so a
// GROUP_ID_NOT_FOUND for such a group on the resend counts as deleted
// (DeletedGroup.AnswerLost).
func (c *Client) DeleteGroups(ctx context.Context, groups []string) []DeletedGroup {
	var mu sync.Mutex
	versions := map[string]int16{}
	maybeSent := map[string]bool{}
	answerLost := map[string]bool{}
	call := groupCall[struct{}]{
		api: deleteGroupsAPI,
		send: func(ctx context.Context, b *kgo.Broker, gs []string) (answers[struct{}], error) {
			req := kmsg.NewPtrDeleteGroupsRequest()
			req.Groups = gs
			// Request, not RetriableRequest: a resend after a broken
			// connection must go through the router, which knows which
			// groups may already be gone.
			kr, err := b.Request(ctx, req)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				for _, g := range gs {
					maybeSent[g] = true
				}
				return nil, err
			}
			resp := kr.(*kmsg.DeleteGroupsResponse)
			got := make(answers[struct{}], len(resp.Groups))
			for _, r := range resp.Groups {
				code := r.ErrorCode
				lost := code == kafka.CodeGroupIDNotFound && maybeSent[r.Group]
				if lost {
					code = 0
				}
				if got.add(r.Group, struct{}{}, code, r.ErrorMessage) {
					answerLost[r.Group] = answerLost[r.Group] || lost
					versions[r.Group] = resp.GetVersion()
				}
			}
			return got, nil
		},
	}
	res := route(ctx, c, groups, call)
	out := make([]DeletedGroup, len(groups))
	mu.Lock()
	defer mu.Unlock()
	for i, g := range groups {
		r := res[g]
		out[i] = DeletedGroup{Group: g, Coordinator: r.coordinator, Version: versions[g], Err: r.err,
			AnswerLost: r.err == nil && answerLost[g]}
	}
	return out
}

// DeletedTopic is one topic's DeleteTopics outcome.
type DeletedTopic struct {
	Topic string
	// Err is nil when the topic was deleted.
	Err error
}

const deleteTopicsAPI = "DeleteTopics"

// DeleteTopics deletes topics by name through the controller and returns
// one entry per distinct topic, in request order. Like DeleteGroups it
// retries only what was not answered (NOT_CONTROLLER, a lost answer) until
// ctx ends, and an UNKNOWN_TOPIC_OR_PARTITION on a resend after a lost
// answer counts as deleted. The broker is asked to wait for the deletion up
// to ctx's deadline.
func (c *Client) DeleteTopics(ctx context.Context, topics []string) []DeletedTopic {
	names := dedup(topics)
	pending := names
	st := topicDeletion{errs: map[string]error{}, maybeSent: map[string]bool{}, last: map[string]error{}}
	for attempt := 0; len(pending) > 0; attempt++ {
		if attempt > 0 {
			if err := sleep(ctx, backoff(attempt-1)); err != nil {
				for _, t := range pending {
					st.errs[t] = c.unavailable(deleteTopicsAPI, err, st.last[t])
				}
				break
			}
		}
		resp, sent, err := c.deleteTopicsOnce(ctx, pending)
		if err != nil {
			fe, permanent := c.failure(err, "", deleteTopicsAPI)
			for _, t := range pending {
				if permanent {
					st.errs[t] = fe
				}
				st.last[t] = fe
				st.maybeSent[t] = st.maybeSent[t] || sent
			}
			if permanent {
				break
			}
			continue
		}
		pending = st.answered(pending, resp)
	}
	out := make([]DeletedTopic, len(names))
	for i, t := range names {
		out[i] = DeletedTopic{Topic: t, Err: st.errs[t]}
	}
	return out
}

// topicDeletion is what DeleteTopics knows of each topic across attempts:
// its final error, whether a request for it may have reached the
// controller, and the last retriable error.
type topicDeletion struct {
	errs      map[string]error
	maybeSent map[string]bool
	last      map[string]error
}

// answered records one answer for the pending topics and returns those
// to ask again.
func (st *topicDeletion) answered(pending []string, resp *kmsg.DeleteTopicsResponse) []string {
	rows := map[string]kmsg.DeleteTopicsResponseTopic{}
	for _, r := range resp.Topics {
		if r.Topic != nil {
			if _, dup := rows[*r.Topic]; !dup {
				rows[*r.Topic] = r
			}
		}
	}
	var retry []string
	for _, t := range pending {
		r, ok := rows[t]
		switch {
		case !ok:
			st.errs[t] = &kafka.MalformedError{Reason: "DeleteTopics response has no row for topic '" + t + "'"}
		case r.ErrorCode == 0:
		case r.ErrorCode == kerr.UnknownTopicOrPartition.Code && st.maybeSent[t]:
		case r.ErrorCode == kerr.NotController.Code || r.ErrorCode == kerr.RequestTimedOut.Code:
			// REQUEST_TIMED_OUT: the controller accepted the deletion
			// but did not finish it within TimeoutMillis; asking again
			// waits for it (or finds the topic gone).
			st.last[t] = NewKafkaError(r.ErrorCode, r.ErrorMessage)
			st.maybeSent[t] = st.maybeSent[t] || r.ErrorCode == kerr.RequestTimedOut.Code
			retry = append(retry, t)
		default:
			st.errs[t] = NewKafkaError(r.ErrorCode, r.ErrorMessage)
		}
	}
	return retry
}

// deleteTopicsOnce sends one DeleteTopics to the controller, without kgo's
// retries (see DeleteTopics). sent tells whether the DeleteTopics request
// may have reached the broker.
func (c *Client) deleteTopicsOnce(ctx context.Context, topics []string) (resp *kmsg.DeleteTopicsResponse, sent bool, err error) {
	meta := kmsg.NewPtrMetadataRequest()
	meta.Topics = []kmsg.MetadataRequestTopic{}
	mresp, err := meta.RequestWith(ctx, c.cl)
	if err != nil {
		return nil, false, err
	}
	if mresp.ControllerID < 0 {
		return nil, false, errors.New("the cluster reports no controller")
	}
	req := kmsg.NewPtrDeleteTopicsRequest()
	req.TimeoutMillis = 30000
	if dl, ok := ctx.Deadline(); ok {
		req.TimeoutMillis = int32(max(min(time.Until(dl), 30*time.Second), time.Millisecond) / time.Millisecond)
	}
	for _, t := range topics {
		req.TopicNames = append(req.TopicNames, t)
		rt := kmsg.NewDeleteTopicsRequestTopic()
		rt.Topic = kmsg.StringPtr(t)
		req.Topics = append(req.Topics, rt)
	}
	kr, err := c.cl.Broker(int(mresp.ControllerID)).Request(ctx, req)
	if err != nil {
		return nil, true, err
	}
	return kr.(*kmsg.DeleteTopicsResponse), true, nil
}
