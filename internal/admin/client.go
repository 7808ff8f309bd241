package admin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/kstreams-groups/kstreams-groups/internal/clientconfig"
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

// dialTimeout bounds one TCP dial plus TLS handshake, for franz-go's dialer
// and the --debug dialer alike.
const dialTimeout = 5 * time.Second

// Client talks to one Kafka cluster. It is safe for concurrent use.
type Client struct {
	cl           *kgo.Client
	coordinators coordinatorCache // coordcache.go

	softwareVersion string

	mu       sync.Mutex
	versions map[int32]*kmsg.ApiVersionsResponse
}

// Pinned protocol versions, one per request the CLI sends, so that a
// franz-go upgrade can never change what goes on the wire. Kafka 4.4 levels.
var pinned = map[int16]int16{
	2:  11, // ListOffsets (also by timestamp, --to-datetime, --by-duration)
	3:  13, // Metadata (partitions and leaders of --input-topic)
	8:  9,  // OffsetCommit (--reset-offsets --execute; v10 names topics by id)
	9:  10, // OffsetFetch
	10: 6,  // FindCoordinator
	16: 5,  // ListGroups
	17: 1,  // SaslHandshake
	18: 4,  // ApiVersions
	20: 6,  // DeleteTopics (--delete-all-internal-topics)
	36: 2,  // SaslAuthenticate
	42: 3,  // DeleteGroups (v3: per-group ErrorMessage, KIP-1331)
	47: 0,  // OffsetDelete (--delete-offsets)
	89: 1,  // StreamsGroupDescribe (v1: topology description, KIP-1331)
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
	}
	opts = append(opts, securityOpts(cfg.Security, cfg.Debug)...)
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, fmt.Errorf("invalid client configuration: %w", err)
	}
	sv := cfg.SoftwareVersion
	if !validSoftwareVersion(sv) {
		sv = "0.0.0"
	}
	return &Client{cl: cl, softwareVersion: sv, versions: map[int32]*kmsg.ApiVersionsResponse{}}, nil
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

// maxVersion returns the highest version of key that node supports, or -1,
// asking the node once per client.
func (c *Client) maxVersion(ctx context.Context, node int32, key int16) (int16, error) {
	c.mu.Lock()
	resp := c.versions[node]
	c.mu.Unlock()
	if resp == nil {
		req := kmsg.NewPtrApiVersionsRequest()
		// v3+ brokers reject an ApiVersions without a valid software name.
		req.ClientSoftwareName, req.ClientSoftwareVersion = "kstreams-groups", c.softwareVersion
		r, err := c.cl.Broker(int(node)).RetriableRequest(ctx, req)
		if err != nil {
			return 0, err
		}
		resp = r.(*kmsg.ApiVersionsResponse)
		if resp.ErrorCode != 0 {
			return 0, NewKafkaError(resp.ErrorCode, nil)
		}
		c.mu.Lock()
		c.versions[node] = resp
		c.mu.Unlock()
	}
	for _, k := range resp.ApiKeys {
		if k.ApiKey == key {
			return k.MaxVersion, nil
		}
	}
	return -1, nil
}

func validSoftwareVersion(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		alnum := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		inner := i > 0 && i < len(s)-1 && (r == '-' || r == '.')
		if !alnum && !inner {
			return false
		}
	}
	return true
}
