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
// every such test of the run, and TestMain stops it after the last test. Top-level tests run
// one after the other (none calls t.Parallel), so the apps of one test are stopped (its
// t.Cleanup) before the next test starts its own.
var shared struct {
	sync.Mutex
	brokers map[string]*Broker
	errs    map[string]error
	// users are the tests that took each broker, true once a test has ended: a test that
	// asks again after it ended (go test -count=N) gets a fresh broker, since its names are
	// already taken on the old one.
	users map[string]map[string]bool
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
// is removed when TestMain stops it, unless a test failed or E2E_KEEP=1.
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
	if shared.brokers == nil {
		shared.brokers, shared.errs, shared.users = map[string]*Broker{}, map[string]error{}, map[string]map[string]bool{}
	}
	test := tb.Name()
	if b := shared.brokers[key]; b != nil {
		switch {
		case shared.users[key][test]: // ended: this is a second run of it
			logf("shared broker %s at %s: %s runs again, so a fresh broker", key, b.Addr, test)
			retireShared(key, b, false)
		case b.Proc.Exited():
			tb.Fatalf("shared broker %s at %s exited (log %s):\n%s", key, b.Addr, b.Proc.LogPath, logTail(b.Proc.LogPath, 3000))
		default:
			logf("shared broker %s at %s: reused by %s", key, b.Addr, test)
			shared.users[key][test] = false
			sharedUserEnds(tb, key, test)
			return b
		}
	}
	b, err := startBroker(opts)
	if err != nil {
		if b != nil {
			b.Close()
		}
		shared.errs[key] = err
		tb.Fatalf("%v", err)
	}
	logf("shared broker %s at %s: started in %s for %s", key, b.Addr, b.StartTime, test)
	shared.brokers[key] = b
	shared.users[key] = map[string]bool{test: false}
	sharedUserEnds(tb, key, test)
	return b
}

// sharedUserEnds marks test as ended for key's broker when it ends.
func sharedUserEnds(tb testing.TB, key, test string) {
	tb.Cleanup(func() {
		shared.Lock()
		defer shared.Unlock()
		if u := shared.users[key]; u != nil {
			u[test] = true
		}
	})
}

// retireShared stops a shared broker by PID and removes its directory unless keep or
// E2E_KEEP=1.
func retireShared(key string, b *Broker, keep bool) {
	b.Close()
	if keep || os.Getenv("E2E_KEEP") == "1" {
		logf("kept shared broker %s dir %s", key, b.Dir)
	} else {
		_ = os.RemoveAll(b.Dir)
	}
	delete(shared.brokers, key)
	delete(shared.users, key)
}

// stopSharedBrokers stops every shared broker (TestMain, after the last test); keep keeps
// their directories (a test failed: its apps' logs are there).
func stopSharedBrokers(keep bool) {
	shared.Lock()
	defer shared.Unlock()
	for key, b := range shared.brokers {
		retireShared(key, b, keep)
	}
}
