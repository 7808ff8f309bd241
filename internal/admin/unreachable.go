package admin

import (
	"errors"
	"net"
	"slices"
	"sync"
	"syscall"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// A bootstrap server that refuses the connection (a typo in the port, a
// broker not started) answers at once, and retrying it until --timeout
// only makes a user wait in silence for the same answer. So the dialer
// counts, for each bootstrap address, the dials that failed at once
// (refused, or a host name that does not resolve); once every address has
// failed unreachableTries times in a row and no broker of the cluster ever
// connected, the failure is permanent (Client.failure) and names each
// address. A broker that is slow rather than absent (it accepts, then
// does not answer; or a dial that times out) is no such failure: it keeps
// the whole --timeout.

// unreachableTries is how many quick failures of each bootstrap address
// end the retries: kgo's own retries and the router's first backoffs
// (50, 100, 200 ms) reach it well within a second.
const unreachableTries = 3

// reachability is the dials' record of the bootstrap addresses.
type reachability struct {
	mu sync.Mutex
	// seeds are the bootstrap addresses in the order given.
	seeds []string
	// failed counts each seed's quick failures in a row; reason is the
	// last one's.
	failed map[string]int
	reason map[string]string
	// connected tells that a dial to any broker succeeded once.
	connected bool
}

func newReachability(seeds []string) *reachability {
	return &reachability{seeds: seeds, failed: map[string]int{}, reason: map[string]string{}}
}

// dialed records the outcome of a dial to addr.
func (r *reachability) dialed(addr string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err == nil {
		r.connected = true
		return
	}
	if !slices.Contains(r.seeds, addr) {
		return
	}
	if reason := quickFailure(err); reason != "" {
		r.failed[addr]++
		r.reason[addr] = reason
	} else {
		r.failed[addr] = 0
	}
}

// unreachable returns the permanent failure when err is a quick dial
// failure and every bootstrap address has failed often enough, else nil.
func (r *reachability) unreachable(err error) *kafka.UnreachableError {
	var ue *kafka.UnreachableError
	if errors.As(err, &ue) {
		return ue
	}
	if quickFailure(cause(err)) == "" {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.connected {
		return nil
	}
	out := &kafka.UnreachableError{Servers: make([]kafka.ServerFailure, 0, len(r.seeds))}
	for _, s := range r.seeds {
		if r.failed[s] < unreachableTries {
			return nil
		}
		out.Servers = append(out.Servers, kafka.ServerFailure{Addr: s, Reason: r.reason[s]})
	}
	return out
}

// quickFailure names a dial failure that came at once and would come again
// ("" for any other error): the connection refused, or a host name that
// does not resolve.
func quickFailure(err error) string {
	var (
		errno  syscall.Errno
		dnsErr *net.DNSError
	)
	switch {
	case err == nil:
		return ""
	case errors.As(err, &errno) && (errno == syscall.ECONNREFUSED || errno == wsaECONNREFUSED):
		return "connection refused"
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		return "no such host"
	}
	return ""
}

// wsaECONNREFUSED is Windows' errno for a refused connection, which its
// syscall.ECONNREFUSED (an invented value there) does not match; no Unix
// errno is that high.
const wsaECONNREFUSED = 10061
