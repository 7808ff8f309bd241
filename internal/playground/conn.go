package playground

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/twmb/franz-go/pkg/kbin"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// maxFrame matches the broker default socket.request.max.bytes (100 MiB);
// a larger size prefix is garbage, not a request.
const maxFrame = 100 << 20

// minFrame is the smallest request header: key, version, correlation id and
// a null client id.
const minFrame = 2 + 2 + 4 + 2

func (c *Cluster) accept(n *node) {
	defer c.wg.Done()
	for {
		conn, err := n.ln.Accept()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				c.logf("playground: node %d: accept: %v", n.id, err)
			}
			return
		}
		id, err := c.track(conn)
		if err != nil {
			_ = conn.Close()
			continue
		}
		go c.serve(n, conn, id)
	}
}

// track registers conn so Close can interrupt its blocking read. The
// WaitGroup is only added to under c.mu while the cluster is open, so it
// never races with the Wait in Close.
// It returns the connection's number, counted from 1 across the cluster.
func (c *Cluster) track(conn net.Conn) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return 0, errClosed
	}
	c.conns[conn] = struct{}{}
	c.wg.Add(1)
	c.accepted++
	return c.accepted, nil
}

func (c *Cluster) untrack(conn net.Conn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.conns, conn)
}

// serve answers requests on one connection in order, as a Kafka broker does
// (clients pipeline and match responses by correlation id).
func (c *Cluster) serve(n *node, conn net.Conn, id int) {
	defer c.wg.Done()
	defer c.untrack(conn)
	defer conn.Close()
	// Garbage must never take the test binary down: a panic in a decoder or
	// handler closes this connection only.
	defer func() {
		if r := recover(); r != nil {
			c.logf("playground: node %d: closing connection after panic: %v", n.id, r)
		}
	}()

	write := conn.Write
	if c.cfg.Latency > 0 {
		w := delayedWriter(conn, c.cfg.Latency)
		defer w.close()
		write = w.write
	}
	r := bufio.NewReader(conn)
	var size [4]byte
	for {
		if _, err := io.ReadFull(r, size[:]); err != nil {
			return
		}
		l := int32(binary.BigEndian.Uint32(size[:]))
		if l < minFrame || l > maxFrame {
			c.logf("playground: node %d: closing connection: bad frame size %d", n.id, l)
			return
		}
		frame := make([]byte, l)
		if _, err := io.ReadFull(r, frame); err != nil {
			return
		}
		out, err := c.handleFrame(n, id, frame)
		if err != nil {
			c.logf("playground: node %d: closing connection: %v", n.id, err)
			return
		}
		if _, err := write(out); err != nil {
			return
		}
	}
}

// lateWriter writes each answer on conn once its delay is over, in order,
// while the connection's next requests are handled (Config.Latency).
type lateWriter struct {
	delay time.Duration
	out   chan lateAnswer
	done  chan struct{}
}

type lateAnswer struct {
	due time.Time
	b   []byte
}

func delayedWriter(conn net.Conn, delay time.Duration) *lateWriter {
	w := &lateWriter{out: make(chan lateAnswer, 64), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		failed := false
		for a := range w.out {
			time.Sleep(time.Until(a.due))
			if !failed {
				_, err := conn.Write(a.b)
				failed = err != nil
			}
		}
	}()
	w.delay = delay
	return w
}

func (w *lateWriter) write(b []byte) (int, error) {
	w.out <- lateAnswer{due: time.Now().Add(w.delay), b: b}
	return len(b), nil
}

// close writes what is left before the connection closes.
func (w *lateWriter) close() {
	close(w.out)
	<-w.done
}

// handleFrame decodes one request frame and returns the whole response
// frame. An error means the connection must be closed, which is what Kafka
// does with a request it cannot parse or an unsupported version.
func (c *Cluster) handleFrame(n *node, conn int, frame []byte) ([]byte, error) {
	b := kbin.Reader{Src: frame}
	key, version, corr := b.Int16(), b.Int16(), b.Int32()
	b.NullableString() // client id: never compact, even in header v2
	if !b.Ok() {
		return nil, errors.New("truncated request header")
	}
	entry := Request{Node: n.id, Conn: conn, Key: key, Version: version}

	req := kmsg.RequestForKey(key)
	if req == nil {
		c.record(entry)
		return nil, fmt.Errorf("unknown api key %d", key)
	}
	req.SetVersion(version)
	// Header v2 (a tag buffer after the client id) goes with flexible
	// versions. kmsg answers IsFlexible for any version, including ones
	// above its max, which is what ApiVersions' fallback needs.
	if req.IsFlexible() {
		kmsg.SkipTags(&b)
		if !b.Ok() {
			c.record(entry)
			return nil, errors.New("truncated request header tags")
		}
	}

	h, handled := rpcs()[key]
	if key == apiVersionsKey && !c.supports(key, version) {
		// KIP-511: answer an ApiVersions version we do not know with
		// UNSUPPORTED_VERSION at v0, naming our own ApiVersions range, so
		// the client retries lower instead of giving up.
		c.record(entry)
		return c.frame(corr, false, c.apiVersionsFallback()), nil
	}
	if !handled || !c.supports(key, version) {
		c.record(entry)
		return nil, fmt.Errorf("unsupported request key %d (%s) v%d", key, kmsg.NameForKey(key), version)
	}
	if err := req.ReadFrom(b.Src); err != nil {
		c.record(entry)
		return nil, fmt.Errorf("decode %s v%d: %w", h.name, version, err)
	}
	entry.Msg = req
	if h.groups != nil {
		entry.Groups = h.groups(req)
	}
	c.record(entry)

	flexHeader := req.IsFlexible() && key != apiVersionsKey
	if raw := c.takeRaw(key, n.id); raw != nil {
		return c.frame(corr, flexHeader, raw(version)), nil
	}
	resp, err := h.handle(c, n, req)
	if err != nil {
		return nil, err
	}
	return appendFrame(corr, flexHeader, resp), nil
}

// appendFrame encodes resp after its size and response header, in a
// buffer sized up front for a Fetch answer's record batches: a Fetch
// answer is mostly their bytes, which growing the buffer from nothing and
// then copying it behind the header would move several times.
func appendFrame(corr int32, flexHeader bool, resp kmsg.Response) []byte {
	room := 256
	if f, ok := resp.(*kmsg.FetchResponse); ok {
		for i := range f.Topics {
			t := &f.Topics[i]
			room += len(t.Topic) + 32
			for j := range t.Partitions {
				room += len(t.Partitions[j].RecordBatches) + 64 + 16*len(t.Partitions[j].AbortedTransactions)
			}
		}
	}
	return frameWith(corr, flexHeader, room, resp.AppendTo)
}

// frameWith writes a response frame: the size, the response header, then
// what body appends (room: the bytes it is expected to append).
func frameWith(corr int32, flexHeader bool, room int, body func([]byte) []byte) []byte {
	hdr := 4
	if flexHeader {
		hdr++
	}
	out := make([]byte, 4, 4+hdr+room)
	out = binary.BigEndian.AppendUint32(out, uint32(corr))
	if flexHeader {
		out = append(out, 0)
	}
	out = body(out)
	binary.BigEndian.PutUint32(out, uint32(len(out)-4))
	return out
}

// frame prepends the size and response header to body. Response header v1
// (an empty tag buffer) goes with flexible versions, except for ApiVersions,
// whose response header is always v0 so that a client that does not know
// the broker's versions yet can still read it.
func (*Cluster) frame(corr int32, flexHeader bool, body []byte) []byte {
	return frameWith(corr, flexHeader, len(body), func(out []byte) []byte { return append(out, body...) })
}

// supports reports whether the profile advertises key at version and kmsg
// can decode it.
func (c *Cluster) supports(key, version int16) bool {
	maxV, ok := c.maxVers[key]
	if !ok || version < 0 || version > maxV || !c.offered(key) {
		return false
	}
	req := kmsg.RequestForKey(key)
	return req != nil && version <= req.MaxVersion()
}
