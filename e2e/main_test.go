//go:build e2e

package e2e

import (
	"os"
	"testing"
)

// TestMain removes what OurBinary built and stops the shared brokers (SharedBroker) once all
// tests of the binary are done (there is no per-binary cleanup hook in testing.TB).
func TestMain(m *testing.M) {
	code := m.Run()
	stopSharedBrokers(code != 0)
	removeOurBinary()
	os.Exit(code)
}
