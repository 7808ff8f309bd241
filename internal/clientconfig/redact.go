package clientconfig

import (
	"slices"
	"strings"
	"sync"
)

// redactor replaces known credentials in text. The debug log never prints
// request bodies, so this is a second line of defence for log lines and
// messages that quote something a credential could have reached.
type redactor struct {
	mu      sync.Mutex
	secrets []string
	r       *strings.Replacer
}

// minSecret is the shortest credential that is redacted: shorter ones
// would garble every line they happen to occur in.
const minSecret = 4

func (r *redactor) add(s string) {
	if len(s) < minSecret {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if slices.Contains(r.secrets, s) {
		return
	}
	r.secrets = append(r.secrets, s)
	// Longest first, so a secret that contains another is replaced whole.
	slices.SortStableFunc(r.secrets, func(a, b string) int { return len(b) - len(a) })
	args := make([]string, 0, 2*len(r.secrets))
	for _, x := range r.secrets {
		args = append(args, x, "[redacted]")
	}
	r.r = strings.NewReplacer(args...)
}

func (r *redactor) apply(text string) string {
	if r == nil {
		return text
	}
	r.mu.Lock()
	rep := r.r
	r.mu.Unlock()
	if rep == nil {
		return text
	}
	return rep.Replace(text)
}
