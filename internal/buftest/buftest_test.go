package buftest_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kstreams-groups/kstreams-groups/internal/buftest"
)

// TestBuffer writes from many goroutines while reading (go test -race
// fails a buffer without its lock) and keeps every write whole.
func TestBuffer(t *testing.T) {
	var b buftest.Buffer
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				_, _ = b.Write([]byte("ab\n"))
				_ = b.String()
			}
		})
	}
	wg.Wait()
	assert.Equal(t, strings.Repeat("ab\n", 800), b.String())
}
