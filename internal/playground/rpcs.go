package playground

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// rpc is one RPC the playground answers.
type rpc struct {
	// name is Kafka's name of the API, as kmsg.NameForKey spells it.
	name string
	// handle answers a decoded request of this key. An error closes the
	// connection, as Kafka does with a request it cannot process.
	handle func(c *Cluster, n *node, req kmsg.Request) (kmsg.Response, error)
	// groups returns the group ids the request names, for Request.Groups;
	// nil when the log does not need them.
	groups func(req kmsg.Request) []string
	// stateFaults says a state file's faults may name this key: the
	// handler consults the injected faults per group or at top level.
	stateFaults bool
}

// rpcs is every RPC the playground answers, by API key, and the only place
// a handler is registered: a new RPC is its handler file plus one line
// here. A key missing here closes the connection even when the profile
// advertises it; ApiVersions always advertises the profile's whole table.
// It is built on first use: its handlers are closures, which a start of the
// binary for another command would allocate for nothing (TestStartup_initBudget).
var rpcs = sync.OnceValue(func() map[int16]rpc {
	return map[int16]rpc{
		1:  {name: "Fetch", handle: (*Cluster).handleFetch, stateFaults: true},
		2:  {name: "ListOffsets", handle: locked((*Cluster).handleListOffsets)},
		3:  {name: "Metadata", handle: locked((*Cluster).handleMetadata)},
		8:  {name: "OffsetCommit", handle: locked((*Cluster).handleOffsetCommit), groups: offsetCommitGroups, stateFaults: true},
		9:  {name: "OffsetFetch", handle: locked((*Cluster).handleOffsetFetch), stateFaults: true},
		10: {name: "FindCoordinator", handle: locked((*Cluster).handleFindCoordinator), groups: findCoordinatorGroups, stateFaults: true},
		15: {name: "DescribeGroups", handle: locked((*Cluster).handleDescribeGroups), groups: describeGroupsGroups, stateFaults: true},
		16: {name: "ListGroups", handle: locked((*Cluster).handleListGroups), stateFaults: true},
		17: {name: "SASLHandshake", handle: locked((*Cluster).handleSaslHandshake)},
		18: {name: "ApiVersions", handle: (*Cluster).handleApiVersions},
		20: {name: "DeleteTopics", handle: locked((*Cluster).handleDeleteTopics)},
		32: {name: "DescribeConfigs", handle: locked((*Cluster).handleDescribeConfigs), stateFaults: true},
		35: {name: "DescribeLogDirs", handle: locked((*Cluster).handleDescribeLogDirs)},
		42: {name: "DeleteGroups", handle: locked((*Cluster).handleDeleteGroups), groups: deleteGroupsGroups, stateFaults: true},
		44: {name: "IncrementalAlterConfigs", handle: locked((*Cluster).handleIncrementalAlterConfigs), stateFaults: true},
		47: {name: "OffsetDelete", handle: locked((*Cluster).handleOffsetDelete), groups: offsetDeleteGroups, stateFaults: true},
		74: {name: "ListConfigResources", handle: locked((*Cluster).handleListConfigResources)},
		88: {name: "StreamsGroupHeartbeat", handle: locked((*Cluster).handleStreamsGroupHeartbeat), groups: heartbeatGroups, stateFaults: true},
		89: {name: "StreamsGroupDescribe", handle: locked((*Cluster).handleStreamsGroupDescribe), groups: describeGroups, stateFaults: true},
		90: {name: "DescribeShareGroupOffsets", handle: locked((*Cluster).handleDescribeShareGroupOffsets)},
	}
})

// locked adapts a handler of one request type to the table: it gets the
// request and the answer of its version, and runs under c.mu.
func locked[Q kmsg.Request, S kmsg.Response](h func(*Cluster, *node, Q, S)) func(*Cluster, *node, kmsg.Request) (kmsg.Response, error) {
	return func(c *Cluster, n *node, req kmsg.Request) (kmsg.Response, error) {
		r := req.(Q)
		resp := r.ResponseKind().(S)
		c.mu.Lock()
		defer c.mu.Unlock()
		h(c, n, r, resp)
		return resp, nil
	}
}

// apiVersionsKey is special in the framing: its response header is always
// v0, and a version the profile lacks gets the KIP-511 fallback.
const apiVersionsKey int16 = 18

// stateFaultKeys lists, in the words of a validation error, the keys a
// state file may fault: "1, 8, 9, 10, 15, 16, 32, 42, 44, 47, 88 or 89".
func stateFaultKeys() string {
	var keys []string
	for _, k := range slices.Sorted(maps.Keys(rpcs())) {
		if rpcs()[k].stateFaults {
			keys = append(keys, fmt.Sprint(k))
		}
	}
	return strings.Join(keys[:len(keys)-1], ", ") + " or " + keys[len(keys)-1]
}
