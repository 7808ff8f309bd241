package mcp

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// auditLog writes one JSON line per call, read or write: when, which tool,
// its arguments with secrets redacted, and how it ended.
type auditLog struct {
	mu  sync.Mutex
	w   io.Writer
	now func() time.Time
	// stalled tells the last write ran out of time: the next one only
	// tries, briefly (a reader that stalls costs one call a second, not
	// each; a deadline already past would not even try).
	stalled bool
}

// auditWait is how long one line may wait for a FIFO's or pipe's reader.
const auditWait, auditTry = time.Second, 10 * time.Millisecond

func newAuditLog(w io.Writer, now func() time.Time) *auditLog {
	return &auditLog{w: w, now: now}
}

// record writes the line; a log that cannot be written loses the line,
// not the call (the file is the operator's: a full disk must not keep an
// assistant from reading a group).
func (l *auditLog) record(tool string, args any, outcome, detail string) {
	if l == nil || l.w == nil {
		return
	}
	// A line: time, tool, arguments, outcome and, for a refusal or a
	// failure, its detail (a map: encoding/json writes its keys sorted).
	line := map[string]any{"time": l.now().UTC().Format(time.RFC3339Nano), "tool": tool, "arguments": args, "outcome": outcome}
	if detail != "" {
		line["detail"] = detail
	}
	b, err := json.Marshal(line)
	if err != nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	// A FIFO or pipe (opened non-blocking) takes a deadline; a regular
	// file says it has none, and its write does not wait on a reader.
	d, timed := l.w.(interface{ SetWriteDeadline(time.Time) error })
	if timed {
		wait := auditWait
		if l.stalled {
			wait = auditTry
		}
		timed = d.SetWriteDeadline(time.Now().Add(wait)) == nil
	}
	_, err = l.w.Write(append(b, '\n'))
	if timed {
		l.stalled = errors.Is(err, os.ErrDeadlineExceeded)
	}
}

// secretName matches the names of arguments and of KEY=VALUE settings
// that may hold a secret.
// (Compiled on first use: a package-level regexp is paid by every start
// of the command.)
var secretName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(password|passwd|secret|token|credential|jaas|sasl|private|api[._-]?key|ssl\.key)`)
})

// redacted replaces a secret value in the audit log.
const redacted = "[redacted]"

// redactArgs is the arguments with every secret replaced: the value of
// an argument whose name looks like a secret's (the approval token
// among them), and the value of a KEY=VALUE string whose key does.
func redactArgs(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			if secretName().MatchString(k) {
				out[k] = redacted
				continue
			}
			out[k] = redactArgs(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = redactArgs(e)
		}
		return out
	case string:
		if k, _, ok := strings.Cut(v, "="); ok && secretName().MatchString(k) {
			return k + "=" + redacted
		}
		return v
	}
	return v
}

// redactDetail is detail, a refusal's or failure's message, with every
// secret value of args (as redactArgs finds them) replaced: a message
// may quote the value it refused.
func redactDetail(detail string, args any) string {
	var secrets []string
	collectSecrets(args, false, &secrets)
	// Longest first: a secret that holds another is replaced whole.
	slices.SortFunc(secrets, func(a, b string) int { return len(b) - len(a) })
	for _, s := range secrets {
		if s != "" {
			detail = strings.ReplaceAll(detail, s, redacted)
		}
	}
	return detail
}

// collectSecrets appends the secret values in v: every leaf under a
// secret-named argument (all), and the VALUE of a secret KEY=VALUE.
func collectSecrets(v any, all bool, out *[]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			collectSecrets(e, all || secretName().MatchString(k), out)
		}
	case []any:
		for _, e := range v {
			collectSecrets(e, all, out)
		}
	case string:
		if all {
			*out = append(*out, v)
		} else if k, val, ok := strings.Cut(v, "="); ok && secretName().MatchString(k) {
			*out = append(*out, val)
		}
	case nil:
	default:
		if all {
			if b, err := json.Marshal(v); err == nil {
				*out = append(*out, string(b))
			}
		}
	}
}
