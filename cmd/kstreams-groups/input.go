package main

// Local input: the config file, --command-config, serve's
// --web.config.file, render's FILE or stdin (and diff's file sides, with
// render's limit), reset-offsets' --from-file and the playground's
// --state. Each is read with a size limit, so that /dev/zero or a runaway
// file cannot take the machine's memory, and read so that a signal ends
// the reading at once, even of a terminal or a pipe that never sends
// anything (docs/usage.md, "Hostile input, limits and signals").

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// localInput is one kind of local input: what messages call it and its
// size limit.
type localInput struct {
	// kind names it in the limit's message: "a config file".
	kind  string
	limit int64
}

// The local inputs and their limits; the trust and key stores' 16 MiB is
// clientconfig's.
var (
	configInput     = localInput{kind: "a config file", limit: 1 << 20}
	propertiesInput = localInput{kind: "a properties file", limit: 1 << 20}
	webConfigInput  = localInput{kind: "a web configuration file", limit: 1 << 20} // serve's --web.config.file
	renderInput     = localInput{kind: "a topology description", limit: 64 << 20}  // render, diff
	stateInput      = seedInput{localInput{kind: "a seed file", limit: 64 << 20}}
	planInput       = localInput{kind: "a --from-file reset plan", limit: 64 << 20}
)

// tooLargeError is a local input over its limit.
type tooLargeError struct {
	name string
	in   localInput
}

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %s, the limit for %s", e.name, sizeText(e.in.limit), e.in.kind)
}

// sizeText writes a limit in MiB (the limits are whole MiB) or bytes.
func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// readFile reads the file at path, up to in's limit; name is how messages
// call it. Opening is part of the reading: a FIFO blocks there until a
// writer comes, and a signal ends that wait too.
func (in localInput) readFile(ctx context.Context, name, path string) (string, error) {
	return in.read(ctx, name, func() (io.ReadCloser, error) { return os.Open(path) })
}

// readStream reads r as readFile reads a file.
func (in localInput) readStream(ctx context.Context, name string, r io.Reader) (string, error) {
	return in.read(ctx, name, func() (io.ReadCloser, error) { return io.NopCloser(r), nil })
}

// read reads what open gives through a bounded reader (limit+1 bytes, so
// that one byte more tells the input is too large: a usage error), in a
// goroutine of its own: a read the context cannot interrupt (a terminal, a
// FIFO) is left behind when ctx ends, and the process ends soon after.
func (in localInput) read(ctx context.Context, name string, open func() (io.ReadCloser, error)) (string, error) {
	type result struct {
		data string
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := readBounded(ctx, open, in.limit)
		done <- result{data, err}
	}()
	select {
	case r := <-done:
		if r.err == nil && int64(len(r.data)) > in.limit {
			return "", &usageError{err: &tooLargeError{name: name, in: in}}
		}
		return r.data, r.err
	case <-ctx.Done():
		return "", context.Cause(ctx)
	}
}

// readBounded reads at most limit+1 bytes of what open gives, stopping
// between chunks when ctx ends. The result is a string built in place (a
// regular file's buffer sized once), so that a large input is held once.
func readBounded(ctx context.Context, open func() (io.ReadCloser, error), limit int64) (string, error) {
	f, err := open()
	if err != nil {
		return "", err
	}
	defer f.Close()
	var b strings.Builder
	if st, ok := f.(interface{ Stat() (os.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
			b.Grow(int(min(fi.Size(), limit) + 1))
		}
	}
	lr := io.LimitReader(f, limit+1)
	chunk := make([]byte, 256<<10)
	for {
		if err := ctx.Err(); err != nil {
			return "", context.Cause(ctx)
		}
		n, err := lr.Read(chunk)
		b.Write(chunk[:n])
		if errors.Is(err, io.EOF) {
			return b.String(), nil
		}
		if err != nil {
			return "", err
		}
	}
}

// asUsage is the error of a local read as a usage error after prefix; the
// read's own usage error (too large) is returned as it is.
func asUsage(err error, prefix string) error {
	var ue *usageError
	if err == nil || errors.As(err, &ue) {
		return err
	}
	return usageErrorf("%s%v", prefix, err)
}
