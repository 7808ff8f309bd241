package playground

import (
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"
)

// Profile selects the Apache Kafka release whose ApiVersions table the
// cluster advertises.
type Profile string

const (
	// Kafka44 advertises Apache Kafka 4.4: StreamsGroupDescribe v0–1
	// (KIP-1331), DeleteGroups v0–3 and key 93.
	Kafka44 Profile = "4.4"
	// Kafka43 advertises Apache Kafka 4.3: StreamsGroupDescribe v0 only and
	// DeleteGroups v0–2, so a client must fall back or refuse --topology.
	Kafka43 Profile = "4.3"
)

// Profiles lists the supported profiles, newest first.
func Profiles() []Profile { return []Profile{Kafka44, Kafka43} }

func (p Profile) versions() (*kversion.Versions, error) {
	switch p {
	case Kafka44:
		return kversion.V4_4_0(), nil
	case Kafka43:
		return kversion.V4_3_0(), nil
	}
	return nil, fmt.Errorf("unknown profile %q (want %q or %q)", string(p), Kafka44, Kafka43)
}

// AnyNode in Fault.Node or SetRawResponse matches every node.
const AnyNode int32 = -1

// DefaultClusterID is the cluster id Metadata and ApiVersions v5 use unless
// Config.ClusterID is set; it is readable so it stands out in client output.
const DefaultClusterID = "playground-Y2x1c3Rlcg"

// Config configures Start. The zero value is a one-node Kafka 4.4 cluster on
// 127.0.0.1.
type Config struct {
	Nodes     int     // number of brokers, node ids 0..Nodes-1; default 1
	Profile   Profile // advertised release; default Kafka44
	Host      string  // listen and advertised host; default 127.0.0.1
	ClusterID string  // default DefaultClusterID
	// Port, when set, is node 0's port and node i listens on Port+i, so a
	// playground can print a stable bootstrap address. 0 picks free ports.
	Port int
	// Logf, when set, receives diagnostics such as why a connection was
	// closed. Tests can pass t.Logf; the playground a stderr logger.
	Logf func(format string, args ...any)
	// NoRequestLog keeps no request log (Requests answers nothing): a
	// playground that serves for hours, or a benchmark's thousands of
	// runs, would otherwise keep every request it was sent.
	NoRequestLog bool
	// Latency, when set, delays every answer by that much, as a network
	// between the client and the cluster would: requests are still
	// handled one after the other on a connection, as on a Kafka broker,
	// but a pipelined request does not wait for the previous answer's
	// delay. Benchmarks see the round trips a command waits for in series.
	Latency time.Duration
	// Now is the playground's clock, read when a state is loaded: topics
	// with produced_over get record timestamps relative to it. Tests fix
	// it (with their clients' clock) so time lags are the same every run;
	// default time.Now.
	Now func() time.Time
	// CoordinatorLogBytes bounds each partition of __consumer_offsets
	// (coordlog.go); 0 is 32 MiB.
	CoordinatorLogBytes int64
}

func (c *Cluster) now() time.Time {
	if c.cfg.Now != nil {
		return c.cfg.Now()
	}
	return time.Now()
}

// Request is one entry of the request log.
type Request struct {
	Node int32
	// Conn numbers the connection the request came on, from 1 in the order
	// the cluster accepted them.
	Conn    int
	Key     int16
	Version int16
	// Groups holds the group ids the request names: the coordinator keys of
	// FindCoordinator, the groups of StreamsGroupDescribe and DeleteGroups.
	Groups []string
	// Msg is the decoded request, for assertions on other fields (for
	// example IncludeTopologyDescription). It is nil when the body was not
	// decoded: unknown key, unsupported version, garbage.
	Msg kmsg.Request
}

// Cluster is a running playground cluster. All methods are safe for
// concurrent use, and every change is visible to the next request.
type Cluster struct {
	cfg      Config
	versions *kversion.Versions
	maxVers  map[int16]int16
	nodes    []*node

	mu           sync.Mutex
	groups       map[string]*group
	coordinators map[string]int32
	topics       map[string]*topic
	faults       []*Fault
	raws         []*rawResponse
	offsets      offsetBook // log and committed offsets (offsets.go)
	coord        *coordLog  // __consumer_offsets (coordlog.go); nil until first written
	log          []Request
	conns        map[net.Conn]struct{}
	accepted     int // connections accepted so far
	closed       bool

	// brokerConfigs are the broker configs every node reports beside the
	// release's defaults (describeconfigs.go); nil values are unset.
	brokerConfigs map[string]*string
	// groupConfigs are the dynamic group configs by group, then key
	// (groupconfigs.go).
	groupConfigs map[string]map[string]string
	// unsupported are the API keys left out of ApiVersions and refused
	// like a key the release does not know (SetUnsupported).
	unsupported map[int16]bool

	closeOnce sync.Once
	wg        sync.WaitGroup
}

type node struct {
	id   int32
	host string
	port int32
	ln   net.Listener
}

type rawResponse struct {
	key   int16
	node  int32
	body  func(version int16) []byte
	times int
}

// Start listens on one port per node and serves until Close.
func Start(cfg Config) (*Cluster, error) {
	if cfg.Nodes == 0 {
		cfg.Nodes = 1
	}
	if cfg.Nodes < 0 || cfg.Nodes > maxNodes {
		return nil, fmt.Errorf("playground: nodes must be 1..%d, got %d", maxNodes, cfg.Nodes)
	}
	if cfg.Profile == "" {
		cfg.Profile = Kafka44
	}
	if cfg.Host == "" {
		cfg.Host = "127.0.0.1"
	}
	if cfg.ClusterID == "" {
		cfg.ClusterID = DefaultClusterID
	}
	vs, err := cfg.Profile.versions()
	if err != nil {
		return nil, fmt.Errorf("playground: %w", err)
	}
	c := &Cluster{
		cfg:          cfg,
		versions:     vs,
		maxVers:      map[int16]int16{},
		groups:       map[string]*group{},
		coordinators: map[string]int32{},
		topics:       map[string]*topic{},
		conns:        map[net.Conn]struct{}{},
	}
	vs.EachMaxKeyVersion(func(k, v int16) { c.maxVers[k] = v })

	if cfg.Port < 0 || cfg.Port > 0 && cfg.Port+cfg.Nodes-1 > 65535 {
		return nil, fmt.Errorf("playground: port %d cannot fit %d nodes", cfg.Port, cfg.Nodes)
	}
	for i := range cfg.Nodes {
		port := 0
		if cfg.Port > 0 {
			port = cfg.Port + i
		}
		ln, err := net.Listen("tcp", net.JoinHostPort(cfg.Host, strconv.Itoa(port)))
		if err != nil {
			_ = c.Close()
			return nil, fmt.Errorf("playground: node %d: %w", i, err)
		}
		bound := ln.Addr().(*net.TCPAddr).Port
		c.nodes = append(c.nodes, &node{id: int32(i), host: cfg.Host, port: int32(bound), ln: ln})
	}
	for _, n := range c.nodes {
		c.wg.Add(1)
		go c.accept(n)
	}
	return c, nil
}

// maxNodes keeps a typo in a state file from opening thousands of ports.
const maxNodes = 64

// Close stops the listeners, closes every connection and waits for all
// goroutines. It is idempotent and always returns nil; the error result
// lets it be used directly with t.Cleanup-style helpers.
func (c *Cluster) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closed = true
		for conn := range c.conns {
			_ = conn.Close()
		}
		c.mu.Unlock()
		for _, n := range c.nodes {
			_ = n.ln.Close()
		}
		c.wg.Wait()
	})
	return nil
}

// SetUnsupported makes the brokers leave keys out of their ApiVersions
// answer and close a connection that sends one anyway, as a broker that
// does not offer them (a Kafka-protocol broker without group configs has
// no DescribeConfigs) does. It replaces the previous set; ApiVersions
// itself cannot be left out.
func (c *Cluster) SetUnsupported(keys ...int16) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.unsupported = unsupportedSet(keys)
}

// unsupportedSet is keys as a set, less ApiVersions, which cannot be left
// out.
func unsupportedSet(keys []int16) map[int16]bool {
	out := make(map[int16]bool, len(keys))
	for _, k := range keys {
		if k != apiVersionsKey {
			out[k] = true
		}
	}
	return out
}

// offered tells whether key is in the brokers' ApiVersions answer.
func (c *Cluster) offered(key int16) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.unsupported[key]
}

// Addrs returns "host:port" per node, in node id order.
func (c *Cluster) Addrs() []string {
	out := make([]string, len(c.nodes))
	for i, n := range c.nodes {
		out[i] = net.JoinHostPort(n.host, strconv.Itoa(int(n.port)))
	}
	return out
}

// SetCoordinator places group on node. It may be called at any time, so a
// test can move a coordinator between FindCoordinator and the request that
// follows. A node outside 0..Nodes-1 makes every node answer NOT_COORDINATOR.
func (c *Cluster) SetCoordinator(group string, node int32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.coordinators[group] = node
}

// Coordinator returns the node that coordinates group: the SetCoordinator
// placement, or else a stable hash of the id.
func (c *Cluster) Coordinator(group string) int32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.coordinatorLocked(group)
}

func (c *Cluster) coordinatorLocked(group string) int32 {
	if n, ok := c.coordinators[group]; ok {
		return n
	}
	return defaultPlacement(group, len(c.nodes))
}

// groupCheckLocked is what a group coordinator request checks first for
// each group, in this order: a Fault of key for the group (faults take
// precedence over every other check), an empty group id
// (INVALID_GROUP_ID), a node that does not coordinate the group
// (NOT_COORDINATOR). stop tells that the group goes no further, with code
// and msg (a Fault's ErrorMessage) its answer. Callers hold c.mu.
func (c *Cluster) groupCheckLocked(key int16, n *node, group string) (code int16, msg *string, stop bool) {
	if f, ok := c.takeFaultLocked(key, n.id, group); ok {
		return f.ErrorCode, f.ErrorMessage, true
	}
	if group == "" {
		return kerr.InvalidGroupID.Code, nil, true
	}
	if c.coordinatorLocked(group) != n.id {
		return kerr.NotCoordinator.Code, nil, true
	}
	return 0, nil, false
}

// offsetsTopicPartitions mirrors offsets.topic.num.partitions' default.
const offsetsTopicPartitions = 50

// defaultPlacement copies Kafka's choice of __consumer_offsets partition
// (Utils.abs(groupId.hashCode) % 50) and puts that partition's leader on
// partition % nodes, so placement is stable across runs and spread over
// nodes the way a small real cluster spreads it.
func defaultPlacement(group string, nodes int) int32 {
	partition := javaAbs(javaHash(group)) % offsetsTopicPartitions
	return partition % int32(nodes)
}

// javaHash is Java's String.hashCode.
func javaHash(s string) int32 {
	var h int32
	for _, u := range utf16Units(s) {
		h = 31*h + int32(u)
	}
	return h
}

// javaAbs is the sign bit masked off (Kafka's Utils.toPositive). It is not
// Utils.abs, which partitionFor uses: the group's partition of
// __consumer_offsets is OffsetsPartition's; the placements here keep
// javaAbs so that coordinators and leaders stay where they were.
func javaAbs(n int32) int32 { return n & 0x7fffffff }

// utf16Units returns s as Java chars, because String.hashCode hashes UTF-16.
func utf16Units(s string) []uint16 {
	var out []uint16
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			out = append(out, uint16(0xd800+(r>>10)), uint16(0xdc00+(r&0x3ff)))
			continue
		}
		out = append(out, uint16(r))
	}
	return out
}

// InjectError queues a fault. Faults are checked in injection order and the
// first match wins; see Fault for what each key does with it.
func (c *Cluster) InjectError(f Fault) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.faults = append(c.faults, &f)
}

// SetRawResponse makes the next times requests with key on node (AnyNode for
// any) get body(version) as the response body instead of the handler's
// answer; times 0 means forever. The response header is still written
// correctly, so only the body is malformed. The request is logged but has no
// other effect (a DeleteGroups deletes nothing).
func (c *Cluster) SetRawResponse(key int16, node int32, body func(version int16) []byte, times int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.raws = append(c.raws, &rawResponse{key: key, node: node, body: body, times: times})
}

// takeRaw returns the body function of the first raw response matching the
// request and counts it down.
func (c *Cluster) takeRaw(key int16, node int32) func(int16) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, r := range c.raws {
		if r.key != key || (r.node != AnyNode && r.node != node) {
			continue
		}
		if r.times > 0 {
			r.times--
			if r.times == 0 {
				c.raws = slices.Delete(c.raws, i, i+1)
			}
		}
		return r.body
	}
	return nil
}

// Requests returns a copy of the request log in arrival order.
func (c *Cluster) Requests() []Request {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.log)
}

// ResetRequests empties the request log.
func (c *Cluster) ResetRequests() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.log = nil
}

func (c *Cluster) record(r Request) {
	if c.cfg.NoRequestLog {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.log = append(c.log, r)
}

func (c *Cluster) logf(format string, args ...any) {
	if c.cfg.Logf != nil {
		c.cfg.Logf(format, args...)
	}
}

// errClosed reports a connection accepted while Close ran.
var errClosed = errors.New("playground: cluster closed")
