//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"sync"
	"testing"
)

// Shared brokers: formatting and starting a KRaft JVM is most of a top-level test's time
// (about 20 s each on a loaded 2-core machine). A test that addresses its groups and topics
// only by names of its own (a prefix such as "le-", "ms-"), never lists every group
// (--list, --all-groups), never changes the broker (SetFaults, a restart, a config) and never
// stops it, takes SharedBroker instead of StartBroker: one broker per set of options serves
// every such test of the run, and TestMain stops it after the last test.
var shared struct {
	sync.Mutex
	brokers map[string]*Broker
	errs    map[string]error
}

// sharedKey is the options after their defaults, so that BrokerOptions{} and
// BrokerOptions{Plugin: PluginInMemory} (the 4.4.0 default) share a broker.
func sharedKey(opts BrokerOptions) (string, error) {
	if len(opts.Props) > 0 || opts.ReadyTimeout != 0 {
		return "", fmt.Errorf("e2e: SharedBroker takes no Props or ReadyTimeout (a test with its own broker config starts its own broker)")
	}
	if opts.Version == "" {
		opts.Version = Kafka44
	}
	if opts.Plugin == PluginDefault {
		opts.Plugin = PluginNone
		if opts.Version == Kafka44 {
			opts.Plugin = PluginInMemory
		}
	}
	if opts.Plugin == PluginFailing {
		return "", fmt.Errorf("e2e: SharedBroker does not take %s: its faults are the broker's, for every test", PluginFailing)
	}
	if opts.HeapMB == 0 {
		opts.HeapMB = 512
	}
	return fmt.Sprintf("%s/%s/%d", opts.Version, opts.Plugin, opts.HeapMB), nil
}

// SharedBroker returns the run's broker for opts, starting it on first use. Its directory
// is removed when TestMain stops it (E2E_KEEP=1 keeps it).
func SharedBroker(tb testing.TB, opts BrokerOptions) *Broker {
	tb.Helper()
	key, err := sharedKey(opts)
	if err != nil {
		tb.Fatal(err)
	}
	shared.Lock()
	defer shared.Unlock()
	if err := shared.errs[key]; err != nil {
		tb.Fatalf("shared broker %s failed to start earlier: %v", key, err)
	}
	if b := shared.brokers[key]; b != nil {
		logf("shared broker %s at %s: reused", key, b.Addr)
		return b
	}
	if shared.brokers == nil {
		shared.brokers, shared.errs = map[string]*Broker{}, map[string]error{}
	}
	b, err := startBroker(opts)
	if err != nil {
		if b != nil {
			b.Close()
		}
		shared.errs[key] = err
		tb.Fatalf("%v", err)
	}
	logf("shared broker %s at %s: started in %s", key, b.Addr, b.StartTime)
	shared.brokers[key] = b
	return b
}

// stopSharedBrokers stops every shared broker (TestMain, after the last test).
func stopSharedBrokers() {
	shared.Lock()
	defer shared.Unlock()
	for key, b := range shared.brokers {
		b.Close()
		if os.Getenv("E2E_KEEP") == "1" {
			logf("kept shared broker %s dir %s", key, b.Dir)
		} else {
			_ = os.RemoveAll(b.Dir)
		}
	}
	shared.brokers = nil
}
