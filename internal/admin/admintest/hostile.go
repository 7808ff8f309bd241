package admintest

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// Action is what Hostile does with a request a rule matches.
type Action int

// The actions. Those that need the cluster's answer forward the request
// first, so the cluster acts on it (a DeleteGroups deletes).
const (
	// Answer forwards the request and returns the cluster's answer.
	Answer Action = iota
	// Close closes the connection without forwarding the request.
	Close
	// Lose forwards the request and closes the connection instead of
	// answering: the cluster acted, the answer is lost.
	Lose
	// Hang neither forwards nor answers, and keeps the connection open.
	Hang
	// Oversize answers with a size prefix of OversizeBytes, over the
	// client's 100 MiB limit, and junk after it.
	Oversize
	// NegativeSize answers with a negative size prefix.
	NegativeSize
	// WrongCorrelation returns the cluster's answer under another
	// correlation id.
	WrongCorrelation
	// TruncateBody returns the cluster's answer with its body cut in half,
	// in a frame whose size matches the cut body.
	TruncateBody
	// CutFrame sends the size of the cluster's answer and half its bytes,
	// then closes the connection.
	CutFrame
)

var actionNames = []string{"answer", "close", "lose", "hang", "oversize", "negative size", "wrong correlation id", "truncated body", "cut frame"}

func (a Action) String() string {
	if int(a) < len(actionNames) {
		return actionNames[a]
	}
	return "action(" + strconv.Itoa(int(a)) + ")"
}

// OversizeBytes is the size prefix of an Oversize answer: 200 MiB.
const OversizeBytes = 200 << 20

// AnyKey in Rule.Key matches every request.
const AnyKey int16 = -1

// Rule spoils requests: the first rule whose Key matches decides, and a
// request no rule matches is answered.
type Rule struct {
	Key int16
	// Skip lets this many matching requests through (answered) first.
	Skip int
	// Times is how many matching requests the rule spoils; 0 means all.
	Times  int
	Action Action
}

// Request is one entry of Hostile's log.
type Request struct {
	Node int32
	// Conn numbers the connection, from 1 in accept order.
	Conn         int
	Key, Version int16
	Action       Action
}

// Hostile is a misbehaving broker: a proxy in front of a playground
// cluster, one listener per node. It rewrites the addresses in Metadata and
// FindCoordinator answers so that clients stay behind it.
type Hostile struct {
	up    *playground.Cluster
	lns   []net.Listener
	ports []int32

	mu    sync.Mutex
	rules []*rule
	log   []Request
	conns map[net.Conn]struct{}
	n     int
	done  bool
	wg    sync.WaitGroup
}

type rule struct {
	Rule
	seen, spoiled int
}

// Start serves a Hostile in front of up until the test ends.
func Start(t testing.TB, up *playground.Cluster, rules ...Rule) *Hostile {
	t.Helper()
	h := &Hostile{up: up, conns: map[net.Conn]struct{}{}}
	for _, r := range rules {
		h.rules = append(h.rules, &rule{Rule: r})
	}
	for i := range up.Addrs() {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatalf("admintest: listen: %v", err)
		}
		h.lns = append(h.lns, ln)
		h.ports = append(h.ports, int32(ln.Addr().(*net.TCPAddr).Port))
		h.wg.Add(1)
		go h.accept(int32(i), ln)
	}
	t.Cleanup(h.Close)
	return h
}

// Addrs returns host:port per node, in node order.
func (h *Hostile) Addrs() []string {
	out := make([]string, len(h.lns))
	for i, ln := range h.lns {
		out[i] = ln.Addr().String()
	}
	return out
}

// Bootstrap is Addrs joined with commas.
func (h *Hostile) Bootstrap() string { return strings.Join(h.Addrs(), ",") }

// Requests returns a copy of the log.
func (h *Hostile) Requests() []Request {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.log)
}

// Count is how many requests with key arrived.
func (h *Hostile) Count(key int16) int {
	n := 0
	for _, r := range h.Requests() {
		if r.Key == key {
			n++
		}
	}
	return n
}

// Close stops the listeners and connections and waits for them.
func (h *Hostile) Close() {
	h.mu.Lock()
	h.done = true
	for c := range h.conns {
		_ = c.Close()
	}
	h.mu.Unlock()
	for _, ln := range h.lns {
		_ = ln.Close()
	}
	h.wg.Wait()
}

func (h *Hostile) accept(node int32, ln net.Listener) {
	defer h.wg.Done()
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		h.mu.Lock()
		if h.done {
			h.mu.Unlock()
			_ = c.Close()
			return
		}
		h.n++
		id := h.n
		h.conns[c] = struct{}{}
		h.wg.Add(1)
		h.mu.Unlock()
		go h.serve(node, id, c)
	}
}

// decide logs a request and returns the action of the first matching rule.
func (h *Hostile) decide(node int32, conn int, key, version int16) Action {
	h.mu.Lock()
	defer h.mu.Unlock()
	act := Answer
	for _, r := range h.rules {
		if r.Key != AnyKey && r.Key != key {
			continue
		}
		r.seen++
		if r.seen > r.Skip && (r.Times == 0 || r.spoiled < r.Times) {
			r.spoiled++
			act = r.Action
		}
		break
	}
	h.log = append(h.log, Request{Node: node, Conn: conn, Key: key, Version: version, Action: act})
	return act
}

func (h *Hostile) serve(node int32, id int, c net.Conn) {
	defer h.wg.Done()
	defer func() {
		_ = c.Close()
		h.mu.Lock()
		delete(h.conns, c)
		h.mu.Unlock()
	}()
	up, err := net.Dial("tcp", h.up.Addrs()[node])
	if err != nil {
		return
	}
	defer up.Close()
	h.mu.Lock()
	h.conns[up] = struct{}{}
	h.mu.Unlock()
	r, ur := bufio.NewReader(c), bufio.NewReader(up)
	for {
		req, err := readFrame(r)
		if err != nil || len(req) < 12 {
			return
		}
		key, version := int16(binary.BigEndian.Uint16(req[4:])), int16(binary.BigEndian.Uint16(req[6:]))
		if !h.answer(h.decide(node, id, key, version), key, version, req, c, r, up, ur) {
			return
		}
	}
}

// answer carries out act for one request frame req read from the client
// c (r reads it) and reports whether the connection goes on; up and ur
// are the cluster's side.
func (h *Hostile) answer(act Action, key, version int16, req []byte, c net.Conn, r *bufio.Reader, up net.Conn, ur *bufio.Reader) bool {
	switch act {
	case Close:
		return false
	case Hang:
		_, _ = io.Copy(io.Discard, r) // until the client goes
		return false
	case Oversize, NegativeSize:
		size := uint32(OversizeBytes)
		if act == NegativeSize {
			size = 0xfffffff0
		}
		if _, err := c.Write(binary.BigEndian.AppendUint32(nil, size)); err != nil {
			return false
		}
		junk := make([]byte, 64<<10)
		for range 16 { // 1 MiB at most: enough to show it is never read
			if _, err := c.Write(junk); err != nil {
				return false
			}
		}
		_, _ = io.Copy(io.Discard, r)
		return false
	}
	if _, err := up.Write(req); err != nil {
		return false
	}
	resp, err := readFrame(ur)
	if err != nil {
		return false
	}
	if resp, err = h.rewrite(key, version, resp); err != nil {
		return false
	}
	out, closeAfter := spoil(act, key, version, resp)
	_, err = c.Write(out)
	return err == nil && !closeAfter
}

// spoil applies act to the cluster's answer frame resp.
func spoil(act Action, key, version int16, resp []byte) (out []byte, closeAfter bool) {
	switch act {
	case Lose:
		return nil, true
	case WrongCorrelation:
		corr := binary.BigEndian.Uint32(resp[4:])
		binary.BigEndian.PutUint32(resp[4:], corr+1000)
		return resp, false
	case TruncateBody:
		hdr := headerLen(key, version)
		body := resp[4+hdr:]
		cut := append(slices.Clone(resp[:4+hdr]), body[:len(body)/2]...)
		binary.BigEndian.PutUint32(cut, uint32(len(cut)-4))
		return cut, false
	case CutFrame:
		return resp[:4+(len(resp)-4)/2], true
	}
	return resp, false
}

// headerLen is the response header's length after the size: the
// correlation id, and a tag buffer for flexible versions (never for
// ApiVersions). The playground writes an empty tag buffer.
func headerLen(key, version int16) int {
	req := kmsg.RequestForKey(key)
	if req == nil || key == 18 {
		return 4
	}
	req.SetVersion(version)
	if req.IsFlexible() {
		return 5
	}
	return 4
}

// rewrite points the broker addresses of Metadata and FindCoordinator
// answers at the proxy's listeners.
func (h *Hostile) rewrite(key, version int16, frame []byte) ([]byte, error) {
	if key != 3 && key != 10 {
		return frame, nil
	}
	req := kmsg.RequestForKey(key)
	req.SetVersion(version)
	hdr := headerLen(key, version)
	resp := req.ResponseKind()
	resp.SetVersion(version)
	if err := resp.ReadFrom(frame[4+hdr:]); err != nil {
		return nil, fmt.Errorf("admintest: decode %s: %w", kmsg.NameForKey(key), err)
	}
	port := func(node, p int32) int32 {
		if node >= 0 && int(node) < len(h.ports) {
			return h.ports[node]
		}
		return p
	}
	switch r := resp.(type) {
	case *kmsg.MetadataResponse:
		for i := range r.Brokers {
			r.Brokers[i].Port = port(r.Brokers[i].NodeID, r.Brokers[i].Port)
		}
	case *kmsg.FindCoordinatorResponse:
		r.Port = port(r.NodeID, r.Port)
		for i := range r.Coordinators {
			r.Coordinators[i].Port = port(r.Coordinators[i].NodeID, r.Coordinators[i].Port)
		}
	default:
		return nil, errors.New("admintest: unexpected response type")
	}
	out := slices.Clone(frame[:4+hdr])
	out = resp.AppendTo(out)
	binary.BigEndian.PutUint32(out, uint32(len(out)-4))
	return out, nil
}

// readFrame reads one size-prefixed frame, size included.
func readFrame(r *bufio.Reader) ([]byte, error) {
	var size [4]byte
	if _, err := io.ReadFull(r, size[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(size[:])
	if n > 100<<20 {
		return nil, fmt.Errorf("admintest: frame of %d bytes", n)
	}
	frame := make([]byte, 4+n)
	copy(frame, size[:])
	_, err := io.ReadFull(r, frame[4:])
	return frame, err
}
