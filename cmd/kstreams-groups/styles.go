package main

// Color and terminal handling. Color is decided once per stream, here and
// nowhere else: with --color=auto (the default), on only when the stream is
// a terminal, NO_COLOR is unset or empty (no-color.org), TERM is not
// "dumb", --no-color was not given and the output format is text;
// --color=always colors text output anyway, --color=never never. The decision builds format.Styles whose colors are
// switched per instance; fatih/color's global NoColor is never touched.
// stdout and stderr are decided separately, so that `2>err.log` keeps
// escape sequences out of the log while stdout on a terminal is colored.

import (
	"fmt"
	"io"
	"os"

	"github.com/mattn/go-colorable"
	"github.com/mattn/go-isatty"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
)

// terminal is the color state of one invocation.
type terminal struct {
	noColor     bool   // --no-color
	color       string // --color: auto, always or never
	out, errOut *format.Styles
}

// check refuses a --color other than auto, always and never.
func (t *terminal) check() error {
	switch t.color {
	case "", "auto", "always", "never":
		return nil
	}
	return usageErrorf("invalid --color %q: want auto, always or never", t.color)
}

// outStyles are the styles of stdout, decided on first use (after the
// configuration is loaded, so that -o is known).
func (a *app) outStyles() *format.Styles { return a.styles(&a.term.out, &a.io.Out) }

// errStyles are the styles of stderr.
func (a *app) errStyles() *format.Styles { return a.styles(&a.term.errOut, &a.io.ErrOut) }

// styles are the styles of the stream *w, kept in *st; on a color they
// wrap *w for a Windows console.
func (a *app) styles(st **format.Styles, w *io.Writer) *format.Styles {
	if *st == nil {
		on := a.colorOn(*w)
		if on {
			*w = ansiWriter(*w)
		}
		*st = format.NewStyles(on)
	}
	return *st
}

// colorOn is the one color decision for a stream.
func (a *app) colorOn(w io.Writer) bool {
	switch {
	case a.term.noColor, a.term.color == "never", a.cfg.Output != format.Text:
		return false
	case a.term.color == "always":
		// Asked for on the command line: above NO_COLOR (no-color.org)
		// and whatever w is (a pager that shows colors).
		return true
	case a.getenv("NO_COLOR") != "", a.getenv("TERM") == "dumb":
		return false
	}
	return a.isTerminal(w)
}

// isTerminal reports whether w is a terminal (a Cygwin/MSYS pty counts).
func isTerminal(w io.Writer) bool {
	if cw, ok := w.(ctxWriter); ok {
		w = cw.w
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

// ansiWriter lets a Windows console without virtual terminal support show
// the escape sequences as colors; elsewhere it returns w itself.
func ansiWriter(w io.Writer) io.Writer {
	if cw, ok := w.(ctxWriter); ok {
		return ctxWriter{ctx: cw.ctx, w: ansiWriter(cw.w)}
	}
	if f, ok := w.(*os.File); ok {
		return colorable.NewColorable(f)
	}
	return w
}

// printError writes one "Error: <msg>" line on stderr, the label red on a
// terminal. Broker-supplied parts of msg must already be escaped
// (format.Escape; errorText does it for errors).
func (a *app) printError(msg string) {
	fmt.Fprintf(a.io.ErrOut, "%s %s\n", a.errStyles().ErrorLabel(), msg)
}
