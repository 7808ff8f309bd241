//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestGroundTruth runs the real 4.4.0 kafka-streams-groups tool (StreamsGroupCommand) against
// real brokers and Streams apps for every --describe --topology / --delete scenario the Go CLI
// must match.
//
// With E2E_CAPTURE=1 it (re)writes e2e/testdata/real/<scenario>/{args.txt,stdout.txt,stderr.txt,
// exit_code.txt}, the wire dumps under e2e/testdata/real/wire/ and the apps' Topology#describe()
// texts under e2e/testdata/streams-describe/. Without it, it checks that the real tool still
// gives the stored exit code and stdout (and stderr where it is deterministic).
//
// The only substitution in stored files: the random broker address is written as ${BOOTSTRAP}.
func TestGroundTruth(t *testing.T) {
	gt := &groundTruth{t: t, update: os.Getenv("E2E_CAPTURE") == "1", root: filepath.Join(E2EDir(), "testdata")}
	ctx := context.Background()
	suiteStart := time.Now()
	defer func() { logf("TestGroundTruth total %s", time.Since(suiteStart).Round(time.Millisecond)) }()

	// (g) validation paths: no broker needed (an unused address keeps the args realistic).
	gt.bootstrap = "127.0.0.1:9"
	gt.capture("help", stderrExact, "--help")
	gt.capture("no-args", stderrExact)
	gt.capture("version", stderrExact, "--version")
	gt.capture("describe-topology-no-group", stderrExact, "--bootstrap-server", gt.bootstrap, "--describe", "--topology")
	gt.capture("describe-topology-members", stderrExact, "--bootstrap-server", gt.bootstrap, "--describe", "--topology", "--members", "--group", "g")
	gt.capture("describe-topology-offsets", stderrExact, "--bootstrap-server", gt.bootstrap, "--describe", "--topology", "--offsets", "--group", "g")
	gt.capture("describe-topology-state", stderrExact, "--bootstrap-server", gt.bootstrap, "--describe", "--topology", "--state", "--group", "g")
	gt.capture("topology-without-describe", stderrExact, "--bootstrap-server", gt.bootstrap, "--topology", "--group", "g")
	gt.capture("list-topology", stderrExact, "--bootstrap-server", gt.bootstrap, "--list", "--topology")
	gt.capture("delete-topology", stderrExact, "--bootstrap-server", gt.bootstrap, "--delete", "--topology", "--group", "g")
	gt.capture("describe-topology-group-and-all-groups", stderrExact, "--bootstrap-server", gt.bootstrap, "--describe", "--topology", "--group", "g", "--all-groups")
	gt.capture("describe-topology-no-bootstrap", stderrExact, "--describe", "--topology", "--group", "g")

	// Broker A: 4.4.0 with Kafka's own InMemoryTopologyDescriptionPlugin.
	t.Run("inmemory", func(t *testing.T) {
		gt := gt.sub(t)
		b := StartBroker(t, BrokerOptions{Plugin: PluginInMemory})
		gt.bootstrap = b.Addr
		apps := map[string]*App{}
		for _, o := range []AppOptions{
			{AppID: "wc-app", Topology: TopologyWordCount},
			{AppID: "gs-app", Topology: TopologyGlobalStore},
			{AppID: "ds-app", Topology: TopologyDynamicSink},
			{AppID: "ns-app", Topology: TopologyWordCount, DisablePush: true},
		} {
			apps[o.AppID] = StartApp(t, b, o)
		}
		appStart := time.Now()
		for _, id := range []string{"wc-app", "gs-app", "ds-app"} {
			g, err := apps[id].WaitTopologyStatus(ctx, b, StatusAvailable, 90*time.Second)
			if err != nil {
				t.Fatalf("%v\n%s", err, logTail(apps[id].Proc.LogPath, 3000))
			}
			logf("%s AVAILABLE %s after the 4 apps were launched", id, time.Since(appStart).Round(time.Millisecond))
			gt.wireDescribe("describe-"+id, g)
		}
		if err := apps["ns-app"].WaitGroupState(ctx, b, "Stable", 60*time.Second); err != nil {
			t.Fatalf("%v", err)
		}
		g, err := b.WaitTopologyStatus(ctx, "ns-app", StatusNotStored, 10*time.Second)
		if err != nil {
			t.Fatalf("%v", err)
		}
		gt.wireDescribe("describe-ns-app", g)
		for id, topo := range map[string]string{"wc-app": TopologyWordCount, "gs-app": TopologyGlobalStore, "ds-app": TopologyDynamicSink} {
			text, err := apps[id].Describe()
			must(t, err)
			gt.streamsDescribe(topo, text)
		}
		text, err := DescribeTopology(ctx, TopologyPattern)
		must(t, err)
		gt.streamsDescribe(TopologyPattern, text)

		// (a) AVAILABLE
		gt.capture("describe-topology-available-wordcount", stderrExact, "--bootstrap-server", b.Addr, "--describe", "--topology", "--group", "wc-app")
		gt.capture("describe-topology-available-globalstore", stderrExact, "--bootstrap-server", b.Addr, "--describe", "--topology", "--group", "gs-app")
		gt.capture("describe-topology-available-dynamicsink", stderrExact, "--bootstrap-server", b.Addr, "--describe", "--topology", "--group", "ds-app")
		gt.capture("describe-topology-available-verbose", stderrExact, "--bootstrap-server", b.Addr, "--describe", "--topology", "--verbose", "--group", "wc-app")
		gt.capture("describe-topology-available-timeout", stderrExact, "--bootstrap-server", b.Addr, "--describe", "--topology", "--timeout", "20000", "--group", "wc-app")
		// (b) NOT_STORED: push disabled
		gt.capture("describe-topology-not-stored", stderrExact, "--bootstrap-server", b.Addr, "--describe", "--topology", "--group", "ns-app")
		// (e) several groups
		gt.capture("describe-topology-two-groups-available-first", stderrExact, "--bootstrap-server", b.Addr, "--describe", "--topology", "--group", "wc-app", "--group", "ns-app")
		gt.capture("describe-topology-two-groups-not-stored-first", stderrExact, "--bootstrap-server", b.Addr, "--describe", "--topology", "--group", "ns-app", "--group", "wc-app")
		gt.capture("describe-topology-two-groups-both-available", stderrExact, "--bootstrap-server", b.Addr, "--describe", "--topology", "--group", "wc-app", "--group", "gs-app")
		gt.capture("describe-topology-all-groups", stderrExact, "--bootstrap-server", b.Addr, "--describe", "--topology", "--all-groups")
		// (d) missing group, and groups of other types
		gt.capture("describe-topology-group-not-found", stderrFirstLine, "--bootstrap-server", b.Addr, "--describe", "--topology", "--group", "no-such-group")
		gt.capture("describe-topology-two-groups-one-missing", stderrFirstLine, "--bootstrap-server", b.Addr, "--describe", "--topology", "--group", "wc-app", "--group", "no-such-group")
		gt.capture("describe-topology-two-groups-missing-first", stderrFirstLine, "--bootstrap-server", b.Addr, "--describe", "--topology", "--group", "no-such-group", "--group", "wc-app")
		gt.capture("describe-topology-same-group-twice", stderrExact, "--bootstrap-server", b.Addr, "--describe", "--topology", "--group", "wc-app", "--group", "wc-app")
		stopClassic := gt.joinConsumerGroup(b, "classic-group", false)
		stopConsumer := gt.joinConsumerGroup(b, "consumer-group", true)
		gt.capture("describe-topology-classic-group", stderrFirstLine, "--bootstrap-server", b.Addr, "--describe", "--topology", "--group", "classic-group")
		gt.capture("describe-topology-consumer-group", stderrFirstLine, "--bootstrap-server", b.Addr, "--describe", "--topology", "--group", "consumer-group")
		gt.capture("describe-topology-all-groups-with-consumer-groups", stderrExact, "--bootstrap-server", b.Addr, "--describe", "--topology", "--all-groups")
		stopClassic()
		stopConsumer()
		// NOT_STORED as seen right after a restart of an app that never pushed is the same path;
		// also record the plain list for orientation.
		gt.capture("list", stderrExact, "--bootstrap-server", b.Addr, "--list")

		for _, a := range apps {
			_ = a.Stop()
		}
	})

	// Broker B: 4.4.0 with the fault-injecting plugin: ERROR and GROUP_DELETION_FAILED.
	t.Run("failing", func(t *testing.T) {
		gt := gt.sub(t)
		b := StartBroker(t, BrokerOptions{Plugin: PluginFailing})
		gt.bootstrap = b.Addr
		app := StartApp(t, b, AppOptions{AppID: "fail-app", Topology: TopologyWordCount})
		pushStart := time.Now()
		if _, err := app.WaitTopologyStatus(ctx, b, StatusAvailable, 90*time.Second); err != nil {
			t.Fatalf("%v\n%s", err, logTail(app.Proc.LogPath, 3000))
		}
		logf("fail-app AVAILABLE %s after launch", time.Since(pushStart).Round(time.Millisecond))

		// (c) ERROR: getTopology fails
		must(t, b.SetFaults("get fail-app"))
		g, err := b.WaitTopologyStatus(ctx, "fail-app", StatusError, 10*time.Second)
		if err != nil {
			t.Fatalf("%v", err)
		}
		gt.wireDescribe("describe-fail-app-error", g)
		gt.capture("describe-topology-error", stderrExact, "--bootstrap-server", b.Addr, "--describe", "--topology", "--group", "fail-app")
		must(t, b.SetFaults())
		if _, err := b.WaitTopologyStatus(ctx, "fail-app", StatusAvailable, 10*time.Second); err != nil {
			t.Fatalf("recovery after get fault: %v", err)
		}
		gt.capture("describe-topology-error-recovered", stderrExact, "--bootstrap-server", b.Addr, "--describe", "--topology", "--group", "fail-app")

		// --delete of a group that still has a member
		gt.capture("delete-non-empty", stderrFirstLine, "--bootstrap-server", b.Addr, "--delete", "--group", "fail-app")
		gt.capture("delete-not-found", stderrFirstLine, "--bootstrap-server", b.Addr, "--delete", "--group", "no-such-group")

		// (h) GROUP_DELETION_FAILED: stop the app (LEAVE_GROUP), wait for Empty, fail deleteTopology.
		stopStart := time.Now()
		must(t, app.Stop())
		if err := b.WaitGroupState(ctx, "fail-app", "Empty", 60*time.Second); err != nil {
			t.Fatalf("%v", err)
		}
		logf("fail-app Empty %s after SIGTERM", time.Since(stopStart).Round(time.Millisecond))
		g, err = b.WaitTopologyStatus(ctx, "fail-app", StatusAvailable, 5*time.Second)
		if err != nil {
			t.Fatalf("empty group lost its description: %v", err)
		}
		gt.wireDescribe("describe-fail-app-empty", g)
		gt.capture("describe-topology-empty-group", stderrExact, "--bootstrap-server", b.Addr, "--describe", "--topology", "--group", "fail-app")

		must(t, b.SetFaults("delete fail-app"))
		gt.capture("delete-plugin-fails", stderrFirstLine, "--bootstrap-server", b.Addr, "--delete", "--group", "fail-app")
		gt.capture("describe-topology-after-failed-delete", stderrExact, "--bootstrap-server", b.Addr, "--describe", "--topology", "--group", "fail-app")
		g, err = b.DescribeStreamsGroup(ctx, "fail-app", true)
		must(t, err)
		gt.wireDescribe("describe-fail-app-after-failed-delete", g)
		// the same failure on the wire, at v3 and downgraded to v2
		for _, v := range []int16{3, 2} {
			resp, err := b.DeleteGroupsRaw(ctx, v, "fail-app")
			must(t, err)
			gt.wire(fmt.Sprintf("deletegroups-v%d-plugin-fails", v), resp)
		}
		// two groups, one failing: partial failure output
		gt.capture("delete-plugin-fails-and-not-found", stderrFirstLine, "--bootstrap-server", b.Addr, "--delete", "--group", "fail-app", "--group", "no-such-group")

		// recovery
		must(t, b.SetFaults())
		gt.capture("delete-after-recovery", stderrExact, "--bootstrap-server", b.Addr, "--delete", "--group", "fail-app")
		gt.capture("describe-topology-after-delete", stderrFirstLine, "--bootstrap-server", b.Addr, "--describe", "--topology", "--group", "fail-app")
	})

	// Broker D: 4.4.0 without any topology description plugin.
	t.Run("noplugin", func(t *testing.T) {
		gt := gt.sub(t)
		b := SharedBroker(t, BrokerOptions{Plugin: PluginNone})
		gt.bootstrap = b.Addr
		v, err := b.ApiVersions(ctx)
		must(t, err)
		gt.wire("apiversions-4.4.0-streams-keys", map[string]any{"89": v[89], "88": v[88], "42": v[42], "93": v[93]})
		app := StartApp(t, b, AppOptions{AppID: "np-app", Topology: TopologyWordCount})
		if err := app.WaitGroupState(ctx, b, "Stable", 90*time.Second); err != nil {
			t.Fatalf("%v\n%s", err, logTail(app.Proc.LogPath, 3000))
		}
		g, err := app.WaitTopologyStatus(ctx, b, StatusNotStored, 10*time.Second)
		must(t, err)
		gt.wireDescribe("describe-np-app-no-plugin", g)
		gt.capture("describe-topology-no-plugin", stderrExact, "--bootstrap-server", b.Addr, "--describe", "--topology", "--group", "np-app")
		must(t, app.Stop())
		must(t, b.WaitGroupState(ctx, "np-app", "Empty", 30*time.Second, b.Proc))
		gt.capture("delete-no-plugin", stderrExact, "--bootstrap-server", b.Addr, "--delete", "--group", "np-app")
	})

	// Broker C: Apache Kafka 4.3.1 (no KIP-1331): the "broker too old" path of the 4.4.0 tool.
	t.Run("broker43", func(t *testing.T) {
		gt := gt.sub(t)
		b := StartBroker(t, BrokerOptions{Version: Kafka43})
		gt.bootstrap = b.Addr
		v, err := b.ApiVersions(ctx)
		must(t, err)
		gt.wire("apiversions-4.3.1-streams-keys", map[string]any{"89": v[89], "88": v[88], "42": v[42], "93_present": func() bool { _, ok := v[93]; return ok }()})
		app := StartApp(t, b, AppOptions{AppID: "old-app", Topology: TopologyWordCount})
		if err := app.WaitGroupState(ctx, b, "Stable", 90*time.Second); err != nil {
			t.Fatalf("%v\n%s", err, logTail(app.Proc.LogPath, 3000))
		}
		gt.capture("describe-topology-broker-4.3.1", stderrFirstLine, "--bootstrap-server", b.Addr, "--describe", "--topology", "--group", "old-app")
		gt.capture("describe-topology-broker-4.3.1-group-not-found", stderrFirstLine, "--bootstrap-server", b.Addr, "--describe", "--topology", "--group", "no-such-group")
		gt.capture("list-broker-4.3.1", stderrExact, "--bootstrap-server", b.Addr, "--list")
		_ = app.Stop()
	})
}

type stderrMode int

const (
	stderrExact     stderrMode = iota // deterministic: compare all of stderr
	stderrFirstLine                   // stack traces: compare the first line only
)

type groundTruth struct {
	t         *testing.T
	update    bool
	root      string
	bootstrap string
}

func (gt *groundTruth) sub(t *testing.T) *groundTruth {
	c := *gt
	c.t = t
	return &c
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%v", err)
	}
}

func (gt *groundTruth) anon(s string) string {
	if gt.bootstrap == "" {
		return s
	}
	return strings.ReplaceAll(s, gt.bootstrap, "${BOOTSTRAP}")
}

// capture runs the real tool once and records or verifies the result.
func (gt *groundTruth) capture(name string, mode stderrMode, args ...string) ToolResult {
	t := gt.t
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	res, err := RunStreamsGroupCommand(ctx, args...)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	logf("tool %-55s exit=%d %s", name, res.ExitCode, res.Duration.Round(time.Millisecond))
	dir := filepath.Join(gt.root, "real", name)
	anonArgs := make([]string, len(args))
	for i, a := range args {
		anonArgs[i] = gt.anon(a)
	}
	files := map[string]string{
		"args.txt":      strings.Join(anonArgs, "\n") + "\n",
		"stdout.txt":    gt.anon(res.Stdout),
		"stderr.txt":    gt.anon(res.Stderr),
		"exit_code.txt": fmt.Sprintf("%d\n", res.ExitCode),
	}
	if gt.update {
		must(t, os.MkdirAll(dir, 0o755))
		for f, content := range files {
			must(t, os.WriteFile(filepath.Join(dir, f), []byte(content), 0o644))
		}
		return res
	}
	for _, f := range []string{"exit_code.txt", "stdout.txt", "stderr.txt"} {
		want, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Errorf("%s: no stored %s (run with E2E_CAPTURE=1): %v", name, f, err)
			continue
		}
		got := files[f]
		if f == "stderr.txt" {
			if mode == stderrFirstLine {
				got, want = firstLine(got), []byte(firstLine(string(want)))
			}
			got, want = logTimestamp.ReplaceAllString(got, "[TIMESTAMP]"), []byte(logTimestamp.ReplaceAllString(string(want), "[TIMESTAMP]"))
		}
		if got != string(want) {
			t.Errorf("%s: %s differs from the stored ground truth\n--- stored\n%q\n--- now\n%q", name, f, want, got)
		}
	}
	return res
}

// logTimestamp matches the log4j timestamp of the tool's log lines on stderr (compare mode only).
var logTimestamp = regexp.MustCompile(`(?m)^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}\]`)

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// wire records a JSON dump of a franz-go response (or any value) under testdata/real/wire/.
func (gt *groundTruth) wire(name string, v any) {
	b, err := json.MarshalIndent(v, "", "  ")
	must(gt.t, err)
	path := filepath.Join(gt.root, "real", "wire", name+".json")
	if gt.update {
		must(gt.t, os.MkdirAll(filepath.Dir(path), 0o755))
		must(gt.t, os.WriteFile(path, append(b, '\n'), 0o644))
	}
	logf("wire %s: %s", name, oneLine(string(b), 400))
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = s[:n] + "…"
	}
	return s
}

// wireDescribe records the deterministic part of a StreamsGroupDescribe v1 group row.
func (gt *groundTruth) wireDescribe(name string, g *kmsg.StreamsGroupDescribeResponseGroup) {
	gt.wire(name, map[string]any{
		"ErrorCode":                 g.ErrorCode,
		"ErrorMessage":              g.ErrorMessage,
		"Group":                     g.Group,
		"State":                     g.State,
		"TopologyDescriptionStatus": g.TopologyDescriptionStatus,
		"TopologyDescription":       g.TopologyDescription,
	})
}

// streamsDescribe stores a Topology#describe() text as parser test data.
func (gt *groundTruth) streamsDescribe(topology, text string) {
	path := filepath.Join(gt.root, "streams-describe", topology+".txt")
	if gt.update {
		must(gt.t, os.MkdirAll(filepath.Dir(path), 0o755))
		must(gt.t, os.WriteFile(path, []byte(text), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	if err != nil || string(want) != text {
		gt.t.Errorf("%s: Topology#describe() differs from %s (err %v)", topology, path, err)
	}
}

// joinConsumerGroup joins a franz-go consumer to group (classic protocol, or KIP-848 "consumer"
// protocol when nextGen) on wc-input and returns a stop func. It waits until the member is assigned.
func (gt *groundTruth) joinConsumerGroup(b *Broker, group string, nextGen bool) func() {
	t := gt.t
	must(t, b.CreateTopics(context.Background(), "wc-input"))
	assigned := make(chan struct{}, 1)
	opts := []kgo.Opt{
		kgo.SeedBrokers(b.Addr),
		kgo.ConsumerGroup(group),
		kgo.ConsumeTopics("wc-input"),
		kgo.OnPartitionsAssigned(func(context.Context, *kgo.Client, map[string][]int32) {
			select {
			case assigned <- struct{}{}:
			default:
			}
		}),
	}
	if nextGen {
		opts = append(opts, kgo.ServerSideBalancer())
	}
	cl, err := kgo.NewClient(opts...)
	must(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			cl.PollFetches(ctx)
		}
	}()
	select {
	case <-assigned:
	case <-time.After(30 * time.Second):
		cancel()
		<-done
		cl.Close()
		t.Fatalf("consumer group %s: no assignment after 30s", group)
	}
	return func() {
		cancel()
		<-done
		cl.Close()
	}
}
