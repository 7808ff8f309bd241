package main

// What a command reads of its process besides the streams: the
// environment variables and whether a stream is a terminal. Both are
// injected (deps), as the streams and the clock are, so that command tests
// run side by side, each with an environment of its own, and none sees
// the developer's.

import (
	"errors"
	"io"
	"os"
	"strings"
)

// environ is the environment a command sees; the zero value is the
// process's.
type environ struct {
	// lookup reads a variable; nil means os.LookupEnv.
	lookup func(key string) (string, bool)
}

// get is a variable's value, "" when it is not set.
func (e environ) get(key string) string {
	if e.lookup == nil {
		return os.Getenv(key)
	}
	v, _ := e.lookup(key)
	return v
}

// homeDir is the user's home directory: os.UserHomeDir for the process,
// $HOME for an injected environment.
func (e environ) homeDir() (string, error) {
	if e.lookup == nil {
		return os.UserHomeDir()
	}
	if h := e.get("HOME"); h != "" {
		return h, nil
	}
	return "", errors.New("$HOME is not defined")
}

// envName is the variable of a setting: KSTREAMS_GROUPS_ + its key in
// upper case, - as _.
func envName(key string) string {
	return "KSTREAMS_GROUPS_" + strings.ToUpper(strings.ReplaceAll(key, "-", "_"))
}

// getenv reads a variable of this invocation's environment.
func (a *app) getenv(key string) string { return a.deps.env.get(key) }

// isTerminal reports whether w is a terminal, as deps.terminal says when a
// test sets it.
func (a *app) isTerminal(w io.Writer) bool {
	if a.deps.terminal != nil {
		if cw, ok := w.(ctxWriter); ok {
			w = cw.w
		}
		return a.deps.terminal(w)
	}
	return isTerminal(w)
}
