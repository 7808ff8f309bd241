package admin

import (
	"context"
	"errors"
	"sync"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// DescribedGroup is one group's StreamsGroupDescribe answer.
type DescribedGroup struct {
	Group       string
	Coordinator kafka.Broker
	// Version is the StreamsGroupDescribe version the coordinator answered.
	Version int16
	// Streams is the described group; nil when Err is set.
	Streams *kafka.StreamsGroup
	Err     error
}

// streamsDescribeAPI is the request name used in messages.
const streamsDescribeAPI = "StreamsGroupDescribe"

// DescribeStreamsGroups describes groups at their coordinators and returns
// one entry per requested group, in request order (a repeated id is asked
// once and answered for each occurrence). With includeTopology every
// coordinator must speak StreamsGroupDescribe v1 (Kafka 4.4); a group whose
// coordinator does not fails with a kafka.BrokerTooOldError and nothing is
// sent for it, rather than a silently downgraded v0 request. The check reads
// the ApiVersions table of the connection's handshake (maxVersion).
func (c *Client) DescribeStreamsGroups(ctx context.Context, groups []string, includeTopology bool) []DescribedGroup {
	need, feature := int16(0), "streams groups"
	if includeTopology {
		need, feature = 1, "topology descriptions"
	}
	var vmu sync.Mutex
	versions := map[string]int16{}
	call := groupCall[*kmsg.StreamsGroupDescribeResponseGroup]{
		api:  streamsDescribeAPI,
		gate: c.versionGate(89, need, streamsDescribeAPI, feature),
		send: func(ctx context.Context, b *kgo.Broker, gs []string) (answers[*kmsg.StreamsGroupDescribeResponseGroup], error) {
			req := kmsg.NewPtrStreamsGroupDescribeRequest()
			req.Groups = gs
			req.IncludeTopologyDescription = includeTopology
			resp, err := request[*kmsg.StreamsGroupDescribeResponse](ctx, b, req, streamsDescribeAPI)
			if err != nil {
				return nil, err
			}
			got := make(answers[*kmsg.StreamsGroupDescribeResponseGroup], len(resp.Groups))
			for i := range resp.Groups {
				r := &resp.Groups[i]
				got.add(r.Group, r, r.ErrorCode, r.ErrorMessage)
			}
			// The gate makes a downgrade impossible; keep the guarantee even
			// if a broker answers a version it did not advertise.
			if includeTopology && resp.GetVersion() < 1 {
				for g, a := range got {
					a.code, a.msg = kerr.UnsupportedVersion.Code, nil
					got[g] = a
				}
			}
			vmu.Lock()
			for g := range got {
				versions[g] = resp.GetVersion()
			}
			vmu.Unlock()
			return got, nil
		},
	}
	res := route(ctx, c, groups, call)
	out := make([]DescribedGroup, len(groups))
	// A repeated id shares its one answer and its one model: the
	// conversion consumes the wire's node lists (descriptionFromWire).
	converted := map[string]DescribedGroup{}
	for i, g := range groups {
		if d, done := converted[g]; done {
			out[i] = d
			continue
		}
		r := res[g]
		d := DescribedGroup{Group: g, Coordinator: r.coordinator, Err: r.err, Version: versions[g]}
		if d.Err == nil {
			d.Streams, d.Err = streamsGroupFromWire(r.row, includeTopology)
		}
		converted[g] = d
		out[i] = d
	}
	return out
}

// ListedGroup is one streams group from ListGroups.
type ListedGroup struct {
	Group       string
	State       string
	Coordinator int32
}

// ListStreamsGroups lists the streams groups of every broker, sorted by id,
// retrying connection errors until ctx ends.
func (c *Client) ListStreamsGroups(ctx context.Context) ([]ListedGroup, error) {
	listed, err := c.listGroups(ctx, "streams")
	if err != nil {
		return nil, err
	}
	out := make([]ListedGroup, 0, len(listed))
	for _, g := range listed {
		out = append(out, ListedGroup{Group: g.Group, State: g.State, Coordinator: g.Coordinator})
	}
	return out, nil
}

// listGroups lists the groups of types (every type when none) on every
// broker, sorted by id, retrying connection errors until ctx ends.
func (c *Client) listGroups(ctx context.Context, types ...string) ([]kadm.ListedGroup, error) {
	var listed kadm.ListedGroups
	err := c.retry(ctx, "ListGroups", func() (string, error) {
		var err error
		listed, err = kadm.NewClient(c.cl).ListGroupsByType(ctx, types)
		return shardBroker(err), err
	})
	return listed.Sorted(), err
}

// shardBroker is the address of the broker of kadm's first failed shard, ""
// when there is none.
func shardBroker(err error) string {
	var se *kadm.ShardErrors
	if errors.As(err, &se) && len(se.Errs) > 0 {
		return brokerAddr(se.Errs[0].Broker)
	}
	return ""
}
