package main

import (
	"fmt"
	"sync"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
)

// A broker that does not answer used to mean --timeout of silence. On a
// terminal, once the client has waited waitingAfter for one step, one line
// on stderr says what for (the step and the broker), kept up to date and
// erased when the command's requests are done; never in a pipe, nor with
// --debug, whose log says it already.

// waitingAfter is how long a step must last before the line shows.
const waitingAfter = 2 * time.Second

// waitingTick is how often the line is brought up to date.
const waitingTick = 250 * time.Millisecond

// waitingWidth bounds the line so that it never wraps on an 80-column
// terminal: a wrapped line could not be erased in place.
const waitingWidth = 79

// waiter is the part of the client that says what it is waiting for;
// *admin.Client has it, test fakes need not.
type waiter interface {
	Waiting() (admin.Wait, bool)
}

// showWaiting starts the line for the requests of the clients cs (the
// step waited on the longest among them); stop erases it, and must be
// called before the command prints what the requests brought.
func (a *app) showWaiting(cs ...any) (stop func()) {
	var ws []waiter
	for _, c := range cs {
		if w, ok := c.(waiter); ok {
			ws = append(ws, w)
		}
	}
	if len(ws) == 0 || a.cfg.Debug || !a.isTerminal(a.io.ErrOut) {
		return func() {}
	}
	var (
		mu      sync.Mutex
		shown   string
		stopped bool
	)
	done := make(chan struct{})
	finished := make(chan struct{})
	erase := func() {
		if shown != "" {
			fmt.Fprint(a.io.ErrOut, "\r"+clearLine)
			shown = ""
		}
	}
	go func() {
		defer close(finished)
		t := time.NewTicker(waitingTick)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			mu.Lock()
			if stopped {
				mu.Unlock()
				return
			}
			wt, ok := oldestWait(ws)
			if since := time.Since(wt.Since); ok && since >= waitingAfter {
				if line := waitingLine(wt, since); line != shown {
					fmt.Fprint(a.io.ErrOut, "\r"+line+clearLine)
					shown = line
				}
			} else {
				erase()
			}
			mu.Unlock()
		}
	}()
	return func() {
		mu.Lock()
		if !stopped {
			stopped = true
			erase()
			close(done)
		}
		mu.Unlock()
		<-finished
	}
}

// waitingLine is the status line of a step waited on for since: short, the
// broker's name escaped, cut to waitingWidth.
func waitingLine(w admin.Wait, since time.Duration) string {
	what := w.API
	switch w.Step {
	case admin.StepConnect:
		what = "TCP connect"
	case admin.StepTLS:
		what = "TLS handshake"
	case admin.StepApiVersions:
		what += " (connection handshake)"
	case admin.StepSASL:
		what += " (SASL)"
	}
	line := fmt.Sprintf("waiting %ds for %s: %s", int(since/time.Second), format.Escape(w.Broker), format.Escape(what))
	if r := []rune(line); len(r) > waitingWidth {
		line = string(r[:waitingWidth-1]) + "…"
	}
	return line
}

// oldestWait is the step waited on the longest among ws.
func oldestWait(ws []waiter) (admin.Wait, bool) {
	var (
		out admin.Wait
		ok  bool
	)
	for _, w := range ws {
		if wt, has := w.Waiting(); has && (!ok || wt.Since.Before(out.Since)) {
			out, ok = wt, true
		}
	}
	return out, ok
}
