package admin

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRouterRetried pins the retry order: the groups marked for a retry,
// in request order whatever order the coordinators answered in, and no
// mark left for the next attempt.
func TestRouterRetried(t *testing.T) {
	r := &router[int]{retry: map[string]bool{}}
	pending := []string{"g5", "g1", "g4", "g2", "g3"}
	for _, g := range []string{"g3", "g5", "g2"} {
		r.retry[g] = true
	}
	assert.Equal(t, []string{"g5", "g2", "g3"}, r.retried(pending))
	assert.Empty(t, r.retry)
	assert.Empty(t, r.retried(pending))
}

// BenchmarkRouterRetried is the retry order of --all-groups on a large
// cluster: linear in the pending groups.
func BenchmarkRouterRetried(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		pending := make([]string, n)
		for i := range pending {
			pending[i] = fmt.Sprintf("group-%d", n-i)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			r := &router[int]{retry: map[string]bool{}}
			for b.Loop() {
				for i := 0; i < n; i += 2 {
					r.retry[pending[i]] = true
				}
				r.retried(pending)
			}
		})
	}
}
