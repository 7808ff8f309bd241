package main

// SIGINT and SIGTERM end every command promptly, whatever it is doing, with
// exit 130 or 143 (128 plus the signal number, as shells report a command
// killed by a signal) and one stderr line. The signal cancels the command's
// context, so the network, the reading of local input and the writing of
// output stop at once and the command unwinds; should it not have ended
// signalGrace later (a read the context cannot interrupt; a write to a
// pipe nobody reads, outside Linux: stdout_linux.go cuts it), mainCode
// ends the process itself. A second signal ends
// it at once.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
)

// signalGrace is how long a command may take to unwind after a signal.
const signalGrace = time.Second

// onSignalFallback is called when a command did not unwind within
// signalGrace; the signal tests make it leave a mark on stderr.
var onSignalFallback = func() {}

// signalError is the end of a command by a signal. planned marks an end
// the command was waiting for (a --watch runs until Ctrl-C): the exit code
// is the signal's all the same, but no error line is printed.
type signalError struct {
	sig     os.Signal
	planned bool
}

func (e *signalError) Error() string {
	if e.sig == syscall.SIGTERM {
		return "terminated by SIGTERM"
	}
	return "interrupted by SIGINT"
}

// code is the exit code: 128 plus the signal number.
func (e *signalError) code() int {
	if e.sig == syscall.SIGTERM {
		return exitSIGTERM
	}
	return exitSIGINT
}

// signalWatch turns the process's SIGINT and SIGTERM into the cancellation
// of ctx, with the signal as its cause.
type signalWatch struct {
	ctx  context.Context
	sigs chan os.Signal
	// once prints the signal's stderr line a single time, whether the
	// command reports it or mainCode has to.
	once sync.Once
}

func watchSignals() *signalWatch {
	ctx, cancel := context.WithCancelCause(context.Background())
	w := &signalWatch{ctx: ctx, sigs: make(chan os.Signal, 2)}
	signal.Notify(w.sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		if s, ok := <-w.sigs; ok {
			cancel(&signalError{sig: s})
		}
	}()
	return w
}

// plannedEnd is the end of a command that runs until a signal, once ctx
// (the command's) is done: the signal's exit code without an error line.
// A ctx ended by anything but a signal counts as Ctrl-C.
func plannedEnd(ctx context.Context) error {
	sig := os.Interrupt
	var se *signalError
	if errors.As(context.Cause(ctx), &se) {
		sig = se.sig
	}
	return &signalError{sig: sig, planned: true}
}

// cause is the signal that ended the command, nil while none arrived.
func (w *signalWatch) cause() *signalError {
	var se *signalError
	if w != nil && errors.As(context.Cause(w.ctx), &se) {
		return se
	}
	return nil
}

// announce prints the signal's line once.
func (w *signalWatch) announce(print func()) {
	if w == nil {
		print()
		return
	}
	w.once.Do(print)
}

// mainCode runs one command line with the process's signals and returns
// the exit code; main exits with it.
func mainCode(args []string, ios IOStreams) int {
	w := watchSignals()
	defer signal.Stop(w.sigs)
	if f, ok := ios.Out.(*os.File); ok {
		ios.Out = cancellableStdout(w.ctx, f)
	}
	done := make(chan int, 1)
	go func() { done <- run(args, ios, deps{signals: w}) }()
	select {
	case code := <-done:
		return code
	case <-w.ctx.Done():
	}
	grace := time.NewTimer(signalGrace)
	defer grace.Stop()
	select {
	case code := <-done:
		return code
	case <-grace.C:
		onSignalFallback()
	case <-w.sigs: // a second signal
	}
	se := w.cause()
	w.announce(func() { fmt.Fprintf(ios.ErrOut, "Error: %s\n", se) })
	return se.code()
}

// ctxWriter fails every write once ctx is done, so that a long output
// stops at the next write after a signal.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, context.Cause(c.ctx)
	}
	return c.w.Write(p)
}

// context is the command's context: cancelled by a signal; Background in
// tests that run commands in-process without signals.
func (w *signalWatch) context() context.Context {
	if w == nil {
		return context.Background()
	}
	return w.ctx
}

// pictureError turns a topology too large for a picture into a usage
// error (exit 2): the message names the limit and suggests -o dot.
func pictureError(err error) error {
	var pe *format.PictureTooLargeError
	if errors.As(err, &pe) {
		return &usageError{err: err}
	}
	return err
}
