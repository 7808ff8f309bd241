//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// Topology names understood by e2e.TopologyApp.
const (
	TopologyWordCount   = "wordcount"   // flatMapValues + groupBy + count: 2 subtopologies, repartition topic
	TopologyGlobalStore = "globalstore" // stream joined with a GlobalKTable: a global store
	TopologyDynamicSink = "dynamicsink" // two-topic source + TopicNameExtractor (dynamic) sink
	// TopologyPattern is a Pattern source + dynamic sink. Kafka Streams 4.4.0 refuses pattern
	// subscriptions with group.protocol=streams, so it only works with DescribeTopology.
	TopologyPattern = "pattern"
)

// AppOptions configures StartApp.
type AppOptions struct {
	AppID       string // application.id = streams group id (required)
	Topology    string // TopologyWordCount, TopologyGlobalStore or TopologyPattern (required)
	DisablePush bool   // topology.description.push.enabled=false
	DescribeOut string // where the app writes topology.describe(); default <broker dir>/<app-id>.describe.txt
	HeapMB      int    // default 256
	OffsetReset string // the consumers' auto.offset.reset; "" is Kafka Streams' default (earliest)
	// TopicPrefix prefixes the wordcount topology's topics (<P>wc-input, <P>wc-output): a test on
	// the shared broker keeps its topics apart from the other tests' with it.
	TopicPrefix string
}

// App is a running e2e.TopologyApp (Kafka Streams, group.protocol=streams, 4.4.0 client).
type App struct {
	AppOptions
	Proc *Process
}

// StartApp starts e2e.TopologyApp against b (the app creates its own topics with Admin first).
// It is stopped by PID in tb.Cleanup unless Stop was called.
func StartApp(tb testing.TB, b *Broker, opts AppOptions) *App {
	tb.Helper()
	if opts.AppID == "" || opts.Topology == "" {
		tb.Fatalf("e2e: AppOptions needs AppID and Topology")
	}
	if opts.HeapMB == 0 {
		opts.HeapMB = 256
	}
	if opts.DescribeOut == "" {
		opts.DescribeOut = filepath.Join(b.Dir, opts.AppID+".describe.txt")
	}
	cp, err := Classpath(Kafka44)
	if err != nil {
		tb.Fatalf("%v", err)
	}
	stateDir := filepath.Join(b.Dir, "state-"+opts.AppID)
	if err := os.MkdirAll(stateDir, 0o755); err != nil {
		tb.Fatalf("%v", err)
	}
	jvm := []string{
		fmt.Sprintf("-Xmx%dm", opts.HeapMB), "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
		"-Djava.awt.headless=true",
		"-Dlog4j2.configurationFile=" + filepath.Join(HarnessDir(), "config", "app-log4j2.properties"),
	}
	args := []string{
		"bootstrap=" + b.Addr,
		"app-id=" + opts.AppID,
		"topology=" + opts.Topology,
		"push=" + strconv.FormatBool(!opts.DisablePush),
		"state-dir=" + stateDir,
		"describe-out=" + opts.DescribeOut,
	}
	if opts.OffsetReset != "" {
		args = append(args, "offset-reset="+opts.OffsetReset)
	}
	if opts.TopicPrefix != "" {
		args = append(args, "topic-prefix="+opts.TopicPrefix)
	}
	proc, err := StartJava("app-"+opts.AppID, filepath.Join(b.Dir, "app-"+opts.AppID+".log"), cp, jvm, "e2e.TopologyApp", args...)
	if err != nil {
		tb.Fatalf("%v", err)
	}
	a := &App{AppOptions: opts, Proc: proc}
	tb.Cleanup(func() { _ = a.Stop() })
	return a
}

// WaitTopologyStatus waits until the app's group has topology description status want (and
// fails at once if the app exits).
func (a *App) WaitTopologyStatus(ctx context.Context, b *Broker, want int8, timeout time.Duration) (*kmsg.StreamsGroupDescribeResponseGroup, error) {
	return b.WaitTopologyStatus(ctx, a.AppID, want, timeout, a.Proc, b.Proc)
}

// WaitGroupState waits until the app's group is in state want (fails at once if the app exits).
func (a *App) WaitGroupState(ctx context.Context, b *Broker, want string, timeout time.Duration) error {
	return b.WaitGroupState(ctx, a.AppID, want, timeout, a.Proc, b.Proc)
}

// DescribeTopology runs `e2e.TopologyApp topology=<name> describe-only=true` (no broker) and
// returns the Topology#describe() text.
func DescribeTopology(ctx context.Context, topology string) (string, error) {
	res, err := RunJavaTool(ctx, Kafka44, "e2e.TopologyApp", "topology="+topology, "describe-only=true")
	if err != nil {
		return "", err
	}
	if res.ExitCode != 0 {
		return "", fmt.Errorf("TopologyApp describe-only %s: exit %d: %s", topology, res.ExitCode, res.Stderr)
	}
	return res.Stdout, nil
}

// Stop sends SIGTERM (the app closes with LEAVE_GROUP, so its member leaves at once), then
// SIGKILL after 20s.
func (a *App) Stop() error { return a.Proc.Stop(20 * time.Second) }

// Describe returns the Topology#describe() text the app wrote at start.
func (a *App) Describe() (string, error) {
	b, err := os.ReadFile(a.DescribeOut)
	return string(b), err
}
