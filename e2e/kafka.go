//go:build e2e

package e2e

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"
)

// Topology description status bytes (StreamsGroupDescribe v1, KIP-1331).
const (
	StatusNotRequested int8 = 0
	StatusNotStored    int8 = 1
	StatusError        int8 = 2
	StatusAvailable    int8 = 3
)

// StatusName returns the admin enum name of a topology description status byte.
func StatusName(s int8) string {
	switch s {
	case StatusNotRequested:
		return "NOT_REQUESTED"
	case StatusNotStored:
		return "NOT_STORED"
	case StatusError:
		return "ERROR"
	case StatusAvailable:
		return "AVAILABLE"
	}
	return fmt.Sprintf("UNKNOWN(%d)", s)
}

// NewClient returns a franz-go client for addr. Versions are pinned explicitly (kversion.Stable()
// with StreamsGroupDescribe 89→v1 and DeleteGroups 42→v3, the pins of admin.PinnedVersions); maxDeleteGroups
// < 3 lowers key 42 (to observe the v0–v2 downgrade).
func NewClient(addr string, maxDeleteGroups int16) (*kgo.Client, error) {
	v := kversion.Stable()
	v.SetMaxKeyVersion(89, 1)
	if maxDeleteGroups <= 0 {
		maxDeleteGroups = 3
	}
	v.SetMaxKeyVersion(42, maxDeleteGroups)
	return kgo.NewClient(
		kgo.SeedBrokers(addr),
		kgo.MaxVersions(v),
		kgo.RequestRetries(2),
		kgo.DialTimeout(3*time.Second),
		kgo.RetryTimeout(5*time.Second),
	)
}

// Client returns the broker's shared franz-go client (closed by Broker.Close).
func (b *Broker) Client() *kgo.Client {
	if b.client == nil {
		cl, err := NewClient(b.Addr, 3)
		if err != nil {
			panic(err)
		}
		b.client = cl
	}
	return b.client
}

// waitReady polls ApiVersions + Metadata until the broker lists itself.
func (b *Broker) waitReady(ctx context.Context) error {
	var last error
	for {
		if b.Proc != nil && b.Proc.Exited() {
			return errors.New("broker process exited")
		}
		cl := b.Client()
		rctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		_, err := kmsg.NewPtrApiVersionsRequest().RequestWith(rctx, cl)
		if err == nil {
			var md *kmsg.MetadataResponse
			md, err = kmsg.NewPtrMetadataRequest().RequestWith(rctx, cl)
			if err == nil && len(md.Brokers) == 0 {
				err = errors.New("metadata lists no brokers")
			}
		}
		cancel()
		if err == nil {
			return nil
		}
		last = err
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (last error: %w)", ctx.Err(), last)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// ApiVersions returns the broker's max version per api key.
func (b *Broker) ApiVersions(ctx context.Context) (map[int16]int16, error) {
	resp, err := kmsg.NewPtrApiVersionsRequest().RequestWith(ctx, b.Client())
	if err != nil {
		return nil, err
	}
	if err := kerr.ErrorForCode(resp.ErrorCode); err != nil {
		return nil, err
	}
	m := map[int16]int16{}
	for _, k := range resp.ApiKeys {
		m[k.ApiKey] = k.MaxVersion
	}
	return m, nil
}

// CheckKIP1331 is the runtime check that the broker has KIP-1331: key 89 ≥ v1, key 93 present,
// key 42 ≥ v3. It names everything that is missing.
func (b *Broker) CheckKIP1331(ctx context.Context) error {
	v, err := b.ApiVersions(ctx)
	if err != nil {
		return fmt.Errorf("e2e: ApiVersions: %w", err)
	}
	var missing []string
	if v[89] < 1 {
		missing = append(missing, fmt.Sprintf("StreamsGroupDescribe (89) v1 (broker max %d)", v[89]))
	}
	if _, ok := v[93]; !ok {
		missing = append(missing, "StreamsGroupTopologyDescriptionUpdate (93)")
	}
	if v[42] < 3 {
		missing = append(missing, fmt.Sprintf("DeleteGroups (42) v3 (broker max %d)", v[42]))
	}
	if len(missing) > 0 {
		return fmt.Errorf("e2e: broker at %s lacks KIP-1331: %s", b.Addr, strings.Join(missing, ", "))
	}
	return nil
}

// DescribeStreamsGroup sends StreamsGroupDescribe (v1 on 4.4) for one group straight to node 1,
// the coordinator of every group on a single-node cluster.
func (b *Broker) DescribeStreamsGroup(ctx context.Context, group string, includeTopology bool) (*kmsg.StreamsGroupDescribeResponseGroup, error) {
	req := kmsg.NewPtrStreamsGroupDescribeRequest()
	req.Groups = []string{group}
	req.IncludeTopologyDescription = includeTopology
	raw, err := b.Client().Broker(1).Request(ctx, req)
	if err != nil {
		return nil, err
	}
	resp := raw.(*kmsg.StreamsGroupDescribeResponse)
	if len(resp.Groups) != 1 {
		return nil, fmt.Errorf("StreamsGroupDescribe returned %d groups", len(resp.Groups))
	}
	return &resp.Groups[0], nil
}

// WaitTopologyStatus polls StreamsGroupDescribe(IncludeTopologyDescription=true) until the group
// exists (ErrorCode 0) and its topology description status is want. It gives up early when one
// of the watched processes (e.g. the app's) has exited.
func (b *Broker) WaitTopologyStatus(ctx context.Context, group string, want int8, timeout time.Duration, watch ...*Process) (*kmsg.StreamsGroupDescribeResponseGroup, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var last string
	for {
		if err := exited(watch); err != nil {
			return nil, fmt.Errorf("group %q: topology status %s not reached: %w", group, StatusName(want), err)
		}
		g, err := b.DescribeStreamsGroup(ctx, group, true)
		switch {
		case err != nil:
			last = err.Error()
		case g.ErrorCode != 0:
			last = fmt.Sprintf("error code %d (%v)", g.ErrorCode, kerr.ErrorForCode(g.ErrorCode))
		case g.TopologyDescriptionStatus == want:
			return g, nil
		default:
			last = fmt.Sprintf("state %s, status %s", g.State, StatusName(g.TopologyDescriptionStatus))
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("group %q: topology status %s not reached: %s", group, StatusName(want), last)
		case <-time.After(300 * time.Millisecond):
		}
	}
}

// WaitGroupState polls StreamsGroupDescribe until the group's state is want (e.g. "Empty",
// "Stable"); it gives up early when a watched process has exited.
func (b *Broker) WaitGroupState(ctx context.Context, group, want string, timeout time.Duration, watch ...*Process) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var last string
	for {
		if err := exited(watch); err != nil {
			return fmt.Errorf("group %q: state %s not reached: %w", group, want, err)
		}
		g, err := b.DescribeStreamsGroup(ctx, group, false)
		switch {
		case err != nil:
			last = err.Error()
		case g.ErrorCode != 0:
			last = fmt.Sprintf("error code %d (%v)", g.ErrorCode, kerr.ErrorForCode(g.ErrorCode))
		case g.State == want:
			return nil
		default:
			last = "state " + g.State
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("group %q: state %s not reached: %s", group, want, last)
		case <-time.After(300 * time.Millisecond):
		}
	}
}

// DeleteGroupsRaw sends DeleteGroups to node 1 with at most version maxVersion (3 = KIP-1331).
func (b *Broker) DeleteGroupsRaw(ctx context.Context, maxVersion int16, groups ...string) (*kmsg.DeleteGroupsResponse, error) {
	cl, err := NewClient(b.Addr, maxVersion)
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	req := kmsg.NewPtrDeleteGroupsRequest()
	req.Groups = groups
	raw, err := cl.Broker(1).Request(ctx, req)
	if err != nil {
		return nil, err
	}
	return raw.(*kmsg.DeleteGroupsResponse), nil
}

// CreateTopics creates topics (1 partition, RF 1), ignoring TOPIC_ALREADY_EXISTS.
func (b *Broker) CreateTopics(ctx context.Context, topics ...string) error {
	req := kmsg.NewPtrCreateTopicsRequest()
	for _, t := range topics {
		rt := kmsg.NewCreateTopicsRequestTopic()
		rt.Topic = t
		rt.NumPartitions = 1
		rt.ReplicationFactor = 1
		req.Topics = append(req.Topics, rt)
	}
	req.TimeoutMillis = 10000
	resp, err := req.RequestWith(ctx, b.Client())
	if err != nil {
		return err
	}
	for _, t := range resp.Topics {
		if t.ErrorCode != 0 && t.ErrorCode != kerr.TopicAlreadyExists.Code {
			return fmt.Errorf("create topic %s: %w", t.Topic, kerr.ErrorForCode(t.ErrorCode))
		}
	}
	return nil
}

func exited(procs []*Process) error {
	for _, p := range procs {
		if p != nil && p.Exited() {
			return fmt.Errorf("%s (pid %d) exited; log %s", p.Name, p.PID, p.LogPath)
		}
	}
	return nil
}

// committedOffsets is a group's committed offsets (OffsetFetch v9, as an admin client, to the
// single broker) on the topics keep accepts, as "topic-partition" -> offset.
func committedOffsets(ctx context.Context, b *Broker, group string, keep func(topic string) bool) (map[string]int64, error) {
	req := kmsg.NewPtrOffsetFetchRequest()
	rg := kmsg.NewOffsetFetchRequestGroup()
	rg.Group, rg.MemberEpoch = group, -1
	req.Groups = []kmsg.OffsetFetchRequestGroup{rg}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	kr, err := b.Client().Broker(1).Request(ctx, ooV9{req})
	if err != nil {
		return nil, err
	}
	g := kr.(*kmsg.OffsetFetchResponse).Groups[0]
	if err := kerr.ErrorForCode(g.ErrorCode); err != nil {
		return nil, err
	}
	out := map[string]int64{}
	for _, tp := range g.Topics {
		for _, p := range tp.Partitions {
			if p.Offset >= 0 && keep(tp.Topic) {
				out[fmt.Sprintf("%s-%d", tp.Topic, p.Partition)] = p.Offset
			}
		}
	}
	return out, nil
}
