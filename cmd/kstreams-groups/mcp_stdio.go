package main

// stdin's end, for the mcp command: a script may write its requests and
// close stdin (kstreams-groups mcp < requests.jsonl); the SDK's session
// ends at EOF and cancels the calls still running. The reader below holds
// EOF back until every request read has its answer written, so that what
// was asked is answered, then the session ends.

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"sync"
)

// answered tracks the requests read and not yet answered, by id.
type answered struct {
	mu   sync.Mutex
	cond *sync.Cond
	open map[string]bool
	done bool
}

func newAnswered(ctx context.Context) *answered {
	a := &answered{open: map[string]bool{}}
	a.cond = sync.NewCond(&a.mu)
	context.AfterFunc(ctx, func() {
		a.mu.Lock()
		a.done = true
		a.mu.Unlock()
		a.cond.Broadcast()
	})
	return a
}

// message is what the tracking reads of a JSON-RPC message: a request has
// an id and a method, an answer an id and no method.
func messageID(line []byte) (id string, request, ok bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(line, &m) != nil {
		return "", false, false
	}
	raw, has := m["id"]
	if !has || string(raw) == "null" {
		return "", false, false
	}
	_, isRequest := m["method"]
	// The id as the SDK reads it (jsonrpc2.MakeID): a number as the
	// int64 of its float64, so that 2.0, 2.5 and 1e20 match the answer's
	// 2, 2 and the int64 it became; a string by its value ("\u0061" is
	// "a").
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return "", false, false
	}
	switch v := v.(type) {
	case float64:
		return strconv.FormatInt(int64(v), 10), isRequest, true
	case string:
		return strconv.Quote(v), isRequest, true
	}
	return "", false, false
}

// lines calls fn with each complete line of p after rest, and returns
// what is left of a line not ended yet.
func lines(rest, p []byte, fn func([]byte)) []byte {
	rest = append(rest, p...)
	for {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			return rest
		}
		fn(rest[:i])
		rest = rest[i+1:]
	}
}

type drainReader struct {
	r    io.Reader
	a    *answered
	rest []byte
}

func (d *drainReader) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	d.rest = lines(d.rest, p[:n], func(line []byte) {
		if id, request, ok := messageID(line); ok && request {
			d.a.mu.Lock()
			d.a.open[id] = true
			d.a.mu.Unlock()
		}
	})
	if err == io.EOF {
		d.a.mu.Lock()
		for len(d.a.open) > 0 && !d.a.done {
			d.a.cond.Wait()
		}
		d.a.mu.Unlock()
	}
	return n, err
}

type drainWriter struct {
	w    io.Writer
	a    *answered
	mu   sync.Mutex
	rest []byte
}

func (d *drainWriter) Write(p []byte) (int, error) {
	n, err := d.w.Write(p)
	d.mu.Lock()
	defer d.mu.Unlock()
	d.rest = lines(d.rest, p[:n], func(line []byte) {
		if id, request, ok := messageID(line); ok && !request {
			d.a.mu.Lock()
			delete(d.a.open, id)
			d.a.mu.Unlock()
			d.a.cond.Broadcast()
		}
	})
	return n, err
}

func (d *drainWriter) Close() error { return nil }
