//go:build e2e

package e2e

import (
	"os"
	"testing"
)

// TestMain exists only to remove what OurBinary built once all tests of the binary are done
// (there is no per-binary cleanup hook in testing.TB).
func TestMain(m *testing.M) {
	code := m.Run()
	removeOurBinary()
	os.Exit(code)
}
