package admin

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// What the client is waiting for. A request goes through steps (the TCP
// connect, the TLS handshake, ApiVersions, SASL, then the request itself),
// and a broker that never answers one of them stops it there: --timeout
// then names that step, not the request the command was making (a hung
// handshake was reported as "StreamsGroupDescribe: timed out"), and a
// terminal can show what is taking so long (Client.Waiting).

// Step is a stage of a connection or of a request on it.
type Step int

// The steps, in the order a new connection takes them.
const (
	StepConnect Step = iota
	StepTLS
	StepApiVersions
	StepSASL
	StepRequest
)

// Wait is one step under way with a broker.
type Wait struct {
	Step Step
	// Broker is the host:port dialled.
	Broker string
	// API names the request awaited (with its version), for the steps that
	// are requests.
	API   string
	Since time.Time
}

// String says what is awaited: it reads after "timed out " and on its own.
func (w Wait) String() string {
	switch w.Step {
	case StepConnect:
		return fmt.Sprintf("connecting to %s (TCP)", w.Broker)
	case StepTLS:
		return fmt.Sprintf("in the TLS handshake with %s", w.Broker)
	case StepApiVersions:
		return fmt.Sprintf("waiting for %s to answer %s, the first request of a connection (is it a Kafka listener?)", w.Broker, w.API)
	case StepSASL:
		return fmt.Sprintf("waiting for %s to answer %s (SASL authentication)", w.Broker, w.API)
	}
	return fmt.Sprintf("waiting for %s to answer %s", w.Broker, w.API)
}

// waits are the steps under way, and the last one that ended in failure
// (a connection closed or a dial abandoned when --timeout ended it).
type waits struct {
	mu   sync.Mutex
	next uint64
	open map[uint64]Wait
	last *Wait
}

// begin notes a step under way; end(id, failed) when it is over.
func (ws *waits) begin(w Wait) uint64 {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.open == nil {
		ws.open = map[uint64]Wait{}
	}
	ws.next++
	w.Since = time.Now()
	ws.open[ws.next] = w
	return ws.next
}

func (ws *waits) end(id uint64, failed bool) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if w, ok := ws.open[id]; ok && failed {
		ws.last = &w
	}
	delete(ws.open, id)
}

// oldest is the step under way the longest.
func (ws *waits) oldest() (Wait, bool) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	var (
		out Wait
		ok  bool
	)
	for _, w := range ws.open {
		if !ok || w.Since.Before(out.Since) || w.Since.Equal(out.Since) && w.Step < out.Step {
			out, ok = w, true
		}
	}
	return out, ok
}

// stuck is what to name when --timeout ended a request: the oldest step
// still under way, else (ended too) the last that failed, whose error the
// caller does not have.
func (ws *waits) stuck(ended bool) (Wait, bool) {
	if w, ok := ws.oldest(); ok || !ended {
		return w, ok
	}
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.last != nil {
		return *ws.last, true
	}
	return Wait{}, false
}

// Waiting is the step the client has been waiting on the longest, if any:
// for a terminal's status line.
func (c *Client) Waiting() (Wait, bool) { return c.waits.oldest() }

// unavailable is the error of op that retries could not get through: when
// the deadline ended it, it names the step that was stuck. A step that
// already failed is named only when no last error says why.
func (c *Client) unavailable(op string, err, last error) *kafka.UnavailableError {
	ue := &kafka.UnavailableError{Op: op, Err: err, Last: last}
	if errors.Is(err, context.DeadlineExceeded) {
		if w, ok := c.waits.stuck(last == nil); ok {
			ue.Stuck = w.String()
		}
	}
	return ue
}
