package admin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/kstreams-groups/kstreams-groups/internal/clientconfig"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// Config is what a Client needs to reach a cluster.
type Config struct {
	// Bootstrap lists host:port seeds.
	Bootstrap []string
	// ClientID is sent in every request header.
	ClientID string
	// SoftwareVersion is sent in ApiVersions (KIP-511); it must match
	// [a-zA-Z0-9](?:[a-zA-Z0-9\-.]*[a-zA-Z0-9])?. Default 0.0.0.
	SoftwareVersion string
	// Security are the validated client properties of --command-config
	// (TLS, SASL, request.timeout.ms); nil is PLAINTEXT. They are
	// clientconfig's own type rather than a copy defined here: clientconfig
	// imports no Kafka client, so admin reads its settings directly and
	// security.go maps them onto franz-go.
	Security *clientconfig.Settings
	// Debug receives the --debug wire log when set (see wirelog).
	Debug io.Writer
}

// dialTimeout bounds one TCP dial plus TLS handshake (dial, wire.go), with
// --debug or without.
const dialTimeout = 5 * time.Second

// Client talks to one Kafka cluster. It is safe for concurrent use.
type Client struct {
	cl           *kgo.Client
	coordinators coordinatorCache // coordcache.go

	softwareVersion string
	// seeds are the bootstrap addresses as franz-go dials them, in the
	// order of its SeedBrokers.
	seeds []string
	// answered tells that a broker of the cluster has answered a request
	// other than the connection set-up (see wire.go).
	answered atomic.Bool
	// waits are the connection steps and requests under way (progress.go).
	waits waits
	// reach records the dials to the bootstrap servers (unreachable.go).
	reach *reachability

	mu sync.Mutex
	// tables are the ApiVersions answers by broker address (wire.go).
	tables map[string]*kmsg.ApiVersionsResponse
	// nodes counts the open connections by broker id; addrs are the
	// addresses dialled for each (errors name the broker).
	nodes map[int32]int
	addrs map[int32]string
	// sharded are the topics ListOffsets asked for since the last
	// ForgetTopicMetadata: kgo holds their partitions' metadata.
	sharded map[string]struct{}
}

// Pinned protocol versions, one per request the CLI sends, so that a
// franz-go upgrade can never change what goes on the wire. Kafka 4.4 levels.
var pinned = map[int16]int16{
	1:  12, // Fetch (time lag: v12, the last naming topics)
	2:  11, // ListOffsets (also by timestamp, --to-datetime, --by-duration)
	3:  13, // Metadata (partitions and leaders of --input-topic)
	8:  9,  // OffsetCommit (--reset-offsets --execute; v10 names topics by id)
	9:  10, // OffsetFetch
	10: 6,  // FindCoordinator
	16: 5,  // ListGroups
	17: 1,  // SaslHandshake
	18: 4,  // ApiVersions
	20: 6,  // DeleteTopics (--delete-all-internal-topics)
	32: 4,  // DescribeConfigs (doctor: the coordinator's plugin config; group configs; inventory: topic configs)
	35: 4,  // DescribeLogDirs (inventory: replica sizes; v4 has every field inventory reads)
	36: 2,  // SaslAuthenticate
	42: 3,  // DeleteGroups (v3: per-group ErrorMessage, KIP-1331)
	44: 1,  // IncrementalAlterConfigs (config --set/--delete-config, delete --delete-configs)
	47: 0,  // OffsetDelete (--delete-offsets)
	74: 1,  // ListConfigResources (inventory: groups with dynamic configs; v1 takes resource types)
	89: 1,  // StreamsGroupDescribe (v1: topology description, KIP-1331)
	90: 1,  // DescribeShareGroupOffsets (inventory: what share groups consumed)
}

// PinnedVersions returns the max version table the client uses.
func PinnedVersions() *kversion.Versions {
	v := kversion.V4_4_0()
	for k, max := range pinned {
		v.SetMaxKeyVersion(k, max)
	}
	return v
}

// New builds a client; it does not connect until the first request.
func New(cfg Config) (*Client, error) {
	if len(cfg.Bootstrap) == 0 {
		return nil, errors.New("no bootstrap server given")
	}
	id := cfg.ClientID
	if id == "" {
		id = "kstreams-groups"
	}
	sv := cfg.SoftwareVersion
	if !validSoftwareVersion(sv) {
		sv = "0.0.0"
	}
	seeds := seedAddrs(cfg.Bootstrap)
	c := &Client{softwareVersion: sv, seeds: seeds, reach: newReachability(seeds), tables: map[string]*kmsg.ApiVersionsResponse{}, nodes: map[int32]int{}, addrs: map[int32]string{}}
	opts := []kgo.Opt{
		kgo.SeedBrokers(cfg.Bootstrap...),
		kgo.ClientID(id),
		kgo.MaxVersions(PinnedVersions()),
		// kgo gives up early so that the routing loop sees connection errors,
		// retries them itself and can report the last one when the caller's
		// context (--timeout) ends.
		kgo.RequestRetries(2),
		kgo.RetryBackoffFn(backoff),
		kgo.DialTimeout(dialTimeout),
		kgo.BrokerMaxReadBytes(maxResponse),
		// No KIP-714 client metrics: an admin tool has none to push, and
		// kgo starts pushing once a Fetch connection exists (the time lag),
		// then holds Close up to a second for the last push.
		kgo.DisableClientMetrics(),
		kgo.WithHooks(connHook{c}),
	}
	opts = append(opts, c.securityOpts(cfg.Security, cfg.Debug)...)
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, fmt.Errorf("invalid client configuration: %w", err)
	}
	c.cl = cl
	return c, nil
}

// seedAddrs returns the bootstrap servers as franz-go dials them: host:port,
// with its default port 9092 for a server without one.
func seedAddrs(servers []string) []string {
	out := make([]string, len(servers))
	for i, s := range servers {
		out[i] = s
		if h, p, err := net.SplitHostPort(s); err == nil {
			if n, err := strconv.ParseInt(p, 10, 32); err == nil {
				out[i] = net.JoinHostPort(h, strconv.Itoa(int(n)))
			}
		} else if !strings.Contains(s, ":") {
			out[i] = net.JoinHostPort(s, "9092")
		}
	}
	return out
}

// connHook keeps Client.nodes: the connections franz-go holds to each
// broker id (a broker may have several: normal, slow, ...).
type connHook struct{ c *Client }

func (h connHook) OnBrokerConnect(meta kgo.BrokerMetadata, _ time.Duration, _ net.Conn, err error) {
	if err == nil && meta.NodeID >= 0 {
		h.c.mu.Lock()
		h.c.nodes[meta.NodeID]++
		h.c.addrs[meta.NodeID] = brokerAddr(meta)
		h.c.mu.Unlock()
	}
}

func (h connHook) OnBrokerDisconnect(meta kgo.BrokerMetadata, _ net.Conn) {
	h.c.mu.Lock()
	if h.c.nodes[meta.NodeID]--; h.c.nodes[meta.NodeID] <= 0 {
		delete(h.c.nodes, meta.NodeID)
	}
	h.c.mu.Unlock()
}

// nodeAddr is the address the client dialled for node id, "" when it never
// connected to it.
func (c *Client) nodeAddr(id int32) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.addrs[id]
}

// Close releases all connections.
func (c *Client) Close() { c.cl.Close() }

// backoff grows from 50 ms to 1 s; the context deadline ends the retries.
func backoff(attempt int) time.Duration {
	d := 50 * time.Millisecond << min(attempt, 5)
	return min(d, time.Second)
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// target is how requests reach a coordinator: franz-go's handle, and the
// address it dials, whose handshake table the version checks read.
type target struct {
	co   kafka.Broker
	b    *kgo.Broker
	addr string
}

// brokerFor returns how to reach the coordinator co without a Metadata
// round trip or a second connection when it can: the node's own connection
// when franz-go has one, else the bootstrap server at co's address (a
// bootstrap broker that coordinates the group answers on the connection
// FindCoordinator used), else the node, which franz-go looks up with
// Metadata (e2e/FINDINGS.md F145).
func (c *Client) brokerFor(co kafka.Broker) target {
	c.mu.Lock()
	connected := c.nodes[co.ID] > 0
	c.mu.Unlock()
	if !connected {
		for i, s := range c.seeds {
			if strings.EqualFold(s, co.Addr()) {
				if seeds := c.cl.SeedBrokers(); i < len(seeds) {
					return target{co: co, b: seeds[i], addr: s}
				}
			}
		}
	}
	return target{co: co, b: c.cl.Broker(int(co.ID)), addr: co.Addr()}
}

// maxVersion returns the highest version of key that the coordinator of t
// supports, or -1, from its ApiVersions table (apiVersions).
func (c *Client) maxVersion(ctx context.Context, t target, key int16) (int16, error) {
	resp, err := c.apiVersions(ctx, t)
	if err != nil {
		return 0, err
	}
	for _, k := range resp.ApiKeys {
		if k.ApiKey == key {
			return k.MaxVersion, nil
		}
	}
	return -1, nil
}

// apiVersions returns the ApiVersions answer of the broker of t. It reads
// the table franz-go negotiated on the connection to t.addr (wire.go); when
// there is none yet it opens one with a request franz-go refuses to send
// (connectOnly), which fills the table without a request on the wire
// (e2e/FINDINGS.md F144). Only if there is still no table (a franz-go that
// behaves otherwise) does it ask ApiVersions itself.
func (c *Client) apiVersions(ctx context.Context, t target) (*kmsg.ApiVersionsResponse, error) {
	resp := c.versionTable(t.addr)
	if resp == nil {
		_, err := t.b.Request(ctx, connectOnly{kmsg.NewPtrApiVersionsRequest()})
		if resp = c.versionTable(t.addr); resp == nil && err != nil && !isUnknownKey(err) {
			return nil, err // the connection failed
		}
	}
	if resp == nil {
		req := kmsg.NewPtrApiVersionsRequest()
		// v3+ brokers reject an ApiVersions without a valid software name.
		req.ClientSoftwareName, req.ClientSoftwareVersion = "kstreams-groups", c.softwareVersion
		r, err := t.b.RetriableRequest(ctx, req)
		if err != nil {
			return nil, err
		}
		resp = r.(*kmsg.ApiVersionsResponse)
		if resp.ErrorCode != 0 {
			return nil, NewKafkaError(resp.ErrorCode, nil)
		}
		c.mu.Lock()
		c.tables[t.addr] = resp
		c.mu.Unlock()
	}
	return resp, nil
}

// connectOnly is a request under an API key missing from PinnedVersions:
// franz-go opens the broker's connection for it (ApiVersions and SASL
// included) and then fails it with "request key is unknown" before writing
// anything, so it opens a connection and sends nothing.
type connectOnly struct{ *kmsg.ApiVersionsRequest }

// connectOnlyKey is beyond every Kafka API key.
const connectOnlyKey = 32000

func (connectOnly) Key() int16 { return connectOnlyKey }

// isUnknownKey tells franz-go's refusal of connectOnly (errUnknownRequestKey,
// unexported; its text is matched, franz-go being pinned).
func isUnknownKey(err error) bool { return err != nil && err.Error() == "request key is unknown" }

// validSoftwareVersion tells a ClientSoftwareVersion that brokers accept
// (KIP-511).
func validSoftwareVersion(s string) bool {
	ok, _ := regexp.MatchString(`^[a-zA-Z0-9](?:[a-zA-Z0-9\-.]*[a-zA-Z0-9])?$`, s)
	return ok
}
