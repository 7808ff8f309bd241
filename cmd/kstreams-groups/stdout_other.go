//go:build !linux

package main

import (
	"context"
	"io"
	"os"
)

// cancellableStdout is out: elsewhere than Linux a write blocked on a pipe
// ends by signalGrace's fallback (stdout_linux.go).
func cancellableStdout(_ context.Context, out *os.File) io.Writer { return out }
