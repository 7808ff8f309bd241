package main

import (
	"bytes"
	"io"
	"maps"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	"github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// result is one CLI run: what a shell would see.
type result struct {
	stdout, stderr string
	code           int
}

// runCLI runs the real command path in-process with captured streams and
// the test's environment (setenv).
func runCLI(t testing.TB, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	code := testRun(t, args, IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}, deps{})
	return result{stdout: out.String(), stderr: errOut.String(), code: code}
}

// testRun is run with the test's environment (setenv) when d has none:
// a command test never sees the developer's environment, and tests run in
// parallel.
func testRun(t testing.TB, args []string, ios IOStreams, d deps) int {
	t.Helper()
	if d.env.lookup == nil {
		d.env = testEnv(t)
	}
	if d.undeclared == nil {
		d.undeclared = func(name string) {
			t.Errorf("%v: a verb read --%s, which its flag table does not declare (or declares with another kind)", args, name)
		}
	}
	return run(args, ios, d)
}

// testEnvs are the variables tests set, by test name: a subtest sees its
// parents' too.
var testEnvs sync.Map // t.Name() -> *envVars

type envVars struct {
	mu   sync.Mutex
	vars map[string]string
}

// setenv sets a variable for the commands the test (and its subtests)
// runs in-process, as t.Setenv would for the process, without keeping
// the test from running in parallel.
func setenv(t testing.TB, key, value string) {
	t.Helper()
	e, loaded := testEnvs.LoadOrStore(t.Name(), &envVars{vars: map[string]string{}})
	if !loaded {
		name := t.Name()
		t.Cleanup(func() { testEnvs.Delete(name) })
	}
	ev := e.(*envVars)
	ev.mu.Lock()
	ev.vars[key] = value
	ev.mu.Unlock()
}

// testEnv is the environment of the test: what it and its parents set,
// nothing of the process.
func testEnv(t testing.TB) environ {
	vars := map[string]string{}
	parts := strings.Split(t.Name(), "/")
	for i := range parts {
		if e, ok := testEnvs.Load(strings.Join(parts[:i+1], "/")); ok {
			ev := e.(*envVars)
			ev.mu.Lock()
			maps.Copy(vars, ev.vars)
			ev.mu.Unlock()
		}
	}
	return mapEnviron(vars)
}

// isolate gives a test a home and a config directory of its own, empty.
// (Every in-process command sees only the test's environment anyway.)
func isolate(t testing.TB) {
	t.Helper()
	setenv(t, "XDG_CONFIG_HOME", t.TempDir())
	setenv(t, "HOME", t.TempDir())
}

// startCluster starts a test broker that the test stops.
func startCluster(t *testing.T, nodes int, profile playground.Profile) *playground.Cluster {
	t.Helper()
	c, err := playground.Start(playground.Config{Nodes: nodes, Profile: profile, Logf: t.Logf})
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func bootstrap(c *playground.Cluster) string { return strings.Join(c.Addrs(), ",") }

// streamsGroup is a Stable streams group whose stored description is d
// (status AVAILABLE), or NOT_STORED when d is nil.
func streamsGroup(id string, d *topology.Description) playground.StreamsGroup {
	g := playground.StreamsGroup{ID: id, State: "Stable", GroupEpoch: 3, AssignmentEpoch: 3,
		Topology: &playground.Topology{Epoch: 1}, AssignorName: "sticky"}
	if d != nil {
		g.Description = toState(d)
	}
	return g
}

// toState converts a model into the test broker's description.
func toState(d *topology.Description) *playground.Description {
	w := topologytest.ToWire(d)
	out := &playground.Description{}
	node := func(n topologyWireNode) playground.Node {
		return playground.Node{Name: n.Name, Type: playground.NodeType(n.NodeType), SourceTopics: n.SourceTopics,
			SinkTopic: n.SinkTopic, Stores: n.Stores, Successors: n.Successors}
	}
	for _, s := range w.Subtopologies {
		ds := playground.DescriptionSubtopology{ID: s.SubtopologyID}
		for _, n := range s.Nodes {
			ds.Nodes = append(ds.Nodes, node(n))
		}
		out.Subtopologies = append(out.Subtopologies, ds)
	}
	for _, g := range w.GlobalStores {
		out.GlobalStores = append(out.GlobalStores, playground.GlobalStore{Source: node(g.Source), Processor: node(g.Processor)})
	}
	return out
}

type topologyWireNode = kmsg.TopologyDescriptionNode

// portOf returns the port of a host:port address.
func portOf(t *testing.T, addr string) int32 {
	t.Helper()
	_, p, err := net.SplitHostPort(addr)
	require.NoError(t, err)
	n, err := strconv.Atoi(p)
	require.NoError(t, err)
	return int32(n)
}

// closedPort returns a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return addr
}

// runMode runs args against c, adding --detailed-exit-codes when detailed,
// and checks the exit code of that mode and stderr: empty when wantStderr
// is "", else containing it.
func runMode(t *testing.T, c *playground.Cluster, detailed bool, code, detailedCode int, wantStderr string, args ...string) result {
	t.Helper()
	args = append([]string{"--bootstrap-server", bootstrap(c)}, args...)
	want := code
	if detailed {
		args, want = append(args, "--detailed-exit-codes"), detailedCode
	}
	r := runCLI(t, args...)
	assert.Equal(t, want, r.code, "exit code (detailed=%v); stderr: %s", detailed, r.stderr)
	if wantStderr == "" {
		assert.Empty(t, r.stderr)
	} else {
		assert.Contains(t, r.stderr, wantStderr)
	}
	return r
}

func itoa(i int) string { return strconv.Itoa(i) }

// formatTopology writes our text of a generated topology of about nodes
// nodes.
func formatTopology(w io.Writer, nodes int) error {
	return format.Topology(w, topologytest.Large(nodes))
}

// seededCluster is a playground serving the state file at path, closed
// when the test ends.
func seededCluster(t *testing.T, path string) *playground.Cluster {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	s, err := playground.ParseState(data)
	require.NoError(t, err)
	c, err := playground.StartStateWith(testPlayground, s)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// testNow is the tests' "now": the playgrounds they start load their seed
// at it (the default seed's record ages count back from it), and commands
// run without a clock of their own read it (TestMain fixes processClock,
// in-process and in the binary run as the CLI), so time lags are the same
// every run.
var testNow = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

// testPlayground is the Config of the tests' playgrounds.
var testPlayground = playground.Config{Now: func() time.Time { return testNow }}

// fixedNowClock is a clock whose Now stands still and whose After waits
// for real, so a watch or serve still ticks.
type fixedNowClock struct{ at time.Time }

func (c fixedNowClock) Now() time.Time                       { return c.at }
func (fixedNowClock) After(d time.Duration) <-chan time.Time { return time.After(d) }
