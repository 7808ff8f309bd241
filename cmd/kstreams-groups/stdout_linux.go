//go:build linux

package main

import (
	"context"
	"errors"
	"io"
	"os"
	"strconv"
	"syscall"
	"time"
)

// A write to a pipe nobody reads blocks, and a blocking file descriptor
// (stdout as the shell hands it over) takes no deadline: a signal could
// only end the process by signalGrace's fallback, a second after it. So
// when stdout is a pipe, the output goes through a file of its own opened
// on the same pipe (/proc/self/fd/1: a new open file description, so the
// non-blocking mode Go's poller sets there is not the shell's or the other
// writers'), whose pending write the signal cuts at once by a deadline.

// cancellableStdout is out, or when out is a pipe, a writer on that pipe
// whose blocked writes end when ctx does.
func cancellableStdout(ctx context.Context, out *os.File) io.Writer {
	fi, err := out.Stat()
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		return out
	}
	// O_NONBLOCK: the open fails (ENXIO) rather than waits when the pipe
	// has no reader left; writes then go to out as before.
	f, err := os.OpenFile("/proc/self/fd/"+strconv.Itoa(int(out.Fd())), os.O_WRONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return out
	}
	if f.SetWriteDeadline(time.Time{}) != nil { // not in the poller: no deadline either
		f.Close()
		return out
	}
	context.AfterFunc(ctx, func() { _ = f.SetWriteDeadline(time.Now()) })
	return &pipeWriter{f: f, orig: out}
}

// pipeWriter writes to the pipe through f.
type pipeWriter struct{ f, orig *os.File }

func (p *pipeWriter) Write(b []byte) (int, error) {
	n, err := p.f.Write(b)
	if errors.Is(err, syscall.EPIPE) {
		// The reader is gone (| head). Go raises SIGPIPE for a write to
		// descriptor 1 only: writing the rest there ends the process as
		// it always did, silently, instead of with an error line.
		m, err := p.orig.Write(b[n:])
		return n + m, err
	}
	return n, err
}
