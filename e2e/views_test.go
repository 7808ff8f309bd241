//go:build e2e

package e2e

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestViews runs our binary and the real 4.4.0 StreamsGroupCommand side by side for --list and
// the --describe views (--state, --members, --offsets, each with and without --verbose) and
// requires the same exit code and the same stdout lines. Lines are compared as multisets: the
// Java tool prints groups (--all-groups, --list), members and partitions in hash or broker
// order, where we sort (the README says so); every line itself must be byte-identical.
//
// One 4.4.0 broker holds three groups, all started together:
//   - wc-app: two instances of the word count (3 input partitions, so both members own tasks
//     of both subtopologies), with 30 records processed and committed, then idle;
//   - em-app: a word count that processed the same records and stopped (Empty, committed
//     offsets kept);
//   - nr-app: a streams member this test keeps alive with StreamsGroupHeartbeat, whose
//     topology reads a topic that does not exist, so the group is NotReady (a Kafka Streams
//     app would shut itself down on MISSING_SOURCE_TOPICS).
func TestViews(t *testing.T) {
	bin := OurBinary(t)
	start := time.Now()
	defer func() { logf("TestViews total %s", time.Since(start).Round(time.Millisecond)) }()
	ctx := context.Background()

	b := StartBroker(t, BrokerOptions{Plugin: PluginInMemory})
	require.NoError(t, createTopic(ctx, b, "wc-input", 3))
	startInstance(t, b, "wc-app", "a")
	startInstance(t, b, "wc-app", "b")
	em := startInstance(t, b, "em-app", "a")
	for _, g := range []string{"wc-app", "em-app"} {
		require.NoError(t, b.WaitGroupState(ctx, g, "Stable", 120*time.Second, b.Proc))
	}
	nr := keepNotReadyMember(t, b, "nr-app")
	produce(t, b, "wc-input", 30)
	waitSettled(t, bin, b, "wc-app", 2)
	waitSettled(t, bin, b, "em-app", 1)
	require.NoError(t, em.Stop(20*time.Second))
	require.NoError(t, b.WaitGroupState(ctx, "em-app", "Empty", 30*time.Second, b.Proc))
	require.NoError(t, b.WaitGroupState(ctx, "nr-app", "NotReady", 30*time.Second, b.Proc))
	require.NoError(t, nr.err())
	logf("TestViews: groups ready after %s", time.Since(start).Round(time.Millisecond))

	bs := []string{"--bootstrap-server", b.Addr}
	same := func(name string, args ...string) {
		t.Run(name, func(t *testing.T) { compareViews(t, bin, name, append(bs, args...)...) })
	}
	same("list", "--list")
	same("list state", "--list", "--state")
	same("list state filter", "--list", "--state", "stable,EMPTY")
	for _, view := range []string{"--offsets", "--members", "--state"} {
		same("describe "+view, "--describe", view, "--all-groups")
		same("describe "+view+" verbose", "--describe", view, "--verbose", "--all-groups")
	}
	same("describe default view", "--describe", "--group", "wc-app")
	same("describe groups in order", "--describe", "--state", "--group", "nr-app", "--group", "em-app", "--group", "wc-app")

	// Deliberate differences (README): NotReady groups are found, and usage errors exit 2.
	t.Run("list state NotReady", func(t *testing.T) {
		java, ours := runBoth(t, bin, "list state NotReady", append(bs, "--list", "--state", "NotReady")...)
		assert.Equal(t, "GROUP           STATE\n", java.Stdout, "the Java tool's filter never matches NotReady (FINDINGS)")
		assert.Equal(t, "GROUP           STATE\nnr-app          NotReady\n", ours.Stdout)
		assert.Equal(t, 0, java.ExitCode)
		assert.Equal(t, 0, ours.ExitCode)
		// The broker side of it: the filter matches only Kafka's internal spelling.
		for filter, want := range map[string][]string{"NotReady": nil, "not_ready": {"nr-app"}, "STABLE": {"wc-app"}} {
			req := kmsg.NewPtrListGroupsRequest()
			req.StatesFilter, req.TypesFilter = []string{filter}, []string{"streams"}
			resp, err := req.RequestWith(ctx, b.Client())
			require.NoError(t, err)
			var got []string
			for _, g := range resp.Groups {
				got = append(got, g.Group)
			}
			assert.Equal(t, want, got, "StatesFilter %q", filter)
		}
	})
	t.Run("list invalid state", func(t *testing.T) {
		java, ours := runBoth(t, bin, "list invalid state", append(bs, "--list", "--state", "foo")...)
		assert.Equal(t, 1, java.ExitCode)
		assert.Equal(t, 2, ours.ExitCode)
		const prefix = "Invalid state list 'foo'. Valid states are: "
		jl, _, _ := strings.Cut(java.Stderr, "\n")
		ol, _, _ := strings.Cut(ours.Stderr, "\n")
		require.True(t, strings.HasPrefix(jl, prefix), jl)
		require.True(t, strings.HasPrefix(ol, prefix), ol)
		javaStates, ourStates := strings.Split(strings.TrimPrefix(jl, prefix), ", "), strings.Split(strings.TrimPrefix(ol, prefix), ", ")
		assert.ElementsMatch(t, javaStates, ourStates, "the same states; the Java order changes from run to run")
	})
	t.Run("describe missing group", func(t *testing.T) {
		java, ours := runBoth(t, bin, "describe missing group", append(bs, "--describe", "--state", "--group", "no-such-group")...)
		assert.Equal(t, java.ExitCode, ours.ExitCode)
		assert.Contains(t, java.Stdout, "GroupIdNotFoundException: Group no-such-group not found.")
		assert.Equal(t, "Error: streams group 'no-such-group': GROUP_ID_NOT_FOUND: Group no-such-group not found.\n", ours.Stderr)
	})
	t.Run("json offsets agree with the text", func(t *testing.T) {
		doc := describeJSON(t, bin, b, "--offsets", "wc-app")
		require.Len(t, doc.Groups, 1)
		g := doc.Groups[0]
		assert.Equal(t, 2, *g.MemberCount)
		topics := map[string]int{}
		for _, o := range g.Offsets {
			topics[o.Topic]++
			require.NotNil(t, o.CurrentOffset, "%s-%d", o.Topic, o.Partition)
			assert.Zero(t, o.Lag)
		}
		assert.Equal(t, map[string]int{"wc-input": 3, "wc-app-word-counts-repartition": 3}, topics,
			"source and repartition-source partitions, the latter with committed offsets")
	})
}

// compareViews runs both tools and requires the same exit code, the same stdout lines (as a
// multiset) and an empty stderr from both. A mismatch is retried twice, as a group can move
// (a heartbeat bumps an epoch) between the two runs.
func compareViews(t *testing.T, bin, name string, args ...string) {
	t.Helper()
	var java, ours ToolResult
	for attempt := range 3 {
		java, ours = runBoth(t, bin, name, args...)
		if java.ExitCode == ours.ExitCode && slices.Equal(sortedLines(java.Stdout), sortedLines(ours.Stdout)) {
			break
		}
		logf("TestViews %v: outputs differ (attempt %d), retrying", args, attempt+1)
		time.Sleep(time.Second)
	}
	assert.Equal(t, java.ExitCode, ours.ExitCode, "exit code")
	assert.Equal(t, sortedLines(java.Stdout), sortedLines(ours.Stdout), "stdout lines\njava:\n%s\nours:\n%s", java.Stdout, ours.Stdout)
	assert.Empty(t, java.Stderr)
	// Ours says on stderr why a group's view is empty (README, deliberate
	// differences: a view with nothing to show); nothing else.
	for _, line := range strings.Split(strings.TrimSuffix(ours.Stderr, "\n"), "\n") {
		if line != "" {
			assert.Regexp(t, emptyViewNote, line, "ours: stderr holds only the empty-view notes")
		}
	}
	assert.NotEmpty(t, ours.Stdout)
}

// emptyViewNote is a line ours prints on stderr for a group whose view has no rows.
var emptyViewNote = regexp.MustCompile(`^Streams group '[^']+'( has no members| is Dead)?: .*(nothing to show|no rows|active tasks).*\.$`)

// runBoth runs the Java tool, then ours. With E2E_CAPTURE=1 the Java tool's result is also
// written to testdata/real/views-<name>/ as TestGroundTruth writes its scenarios (the broker
// address becomes ${BOOTSTRAP}); member and process ids in it are random.
func runBoth(t *testing.T, bin, name string, args ...string) (java, ours ToolResult) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	java, err := RunStreamsGroupCommand(ctx, args...)
	require.NoError(t, err)
	ours = RunOurs(ctx, bin, args...)
	if os.Getenv("E2E_CAPTURE") == "1" {
		captureViews(t, name, java, args)
	}
	return java, ours
}

func captureViews(t *testing.T, name string, r ToolResult, args []string) {
	t.Helper()
	addr := args[1] // every scenario starts with --bootstrap-server ADDR
	sub := func(s string) string { return strings.ReplaceAll(s, addr, "${BOOTSTRAP}") }
	dir := filepath.Join(E2EDir(), "testdata", "real", "views-"+strings.ReplaceAll(strings.ReplaceAll(name, " ", "-"), "--", ""))
	require.NoError(t, os.MkdirAll(dir, 0o755))
	files := map[string]string{
		"args.txt":      sub(strings.Join(args, "\n") + "\n"),
		"stdout.txt":    sub(r.Stdout),
		"stderr.txt":    sub(r.Stderr),
		"exit_code.txt": fmt.Sprintf("%d\n", r.ExitCode),
	}
	for f, content := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), []byte(content), 0o644))
	}
}

func sortedLines(s string) []string {
	lines := strings.Split(s, "\n")
	slices.Sort(lines)
	return lines
}

// startInstance starts one e2e.TopologyApp word count with its own state directory, so that
// two instances of an application run side by side (StartApp keys the state by app id).
func startInstance(t *testing.T, b *Broker, appID, instance string) *Process {
	t.Helper()
	cp, err := Classpath(Kafka44)
	require.NoError(t, err)
	name := appID + "-" + instance
	stateDir := filepath.Join(b.Dir, "state-"+name)
	require.NoError(t, os.MkdirAll(stateDir, 0o755))
	jvm := []string{"-Xmx200m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true",
		"-Dlog4j2.configurationFile=" + filepath.Join(HarnessDir(), "config", "app-log4j2.properties")}
	p, err := StartJava("app-"+name, filepath.Join(b.Dir, "app-"+name+".log"), cp, jvm, "e2e.TopologyApp",
		"bootstrap="+b.Addr, "app-id="+appID, "topology="+TopologyWordCount, "state-dir="+stateDir)
	require.NoError(t, err)
	t.Cleanup(func() { _ = p.Stop(20 * time.Second) })
	return p
}

func createTopic(ctx context.Context, b *Broker, name string, partitions int32) error {
	req := kmsg.NewPtrCreateTopicsRequest()
	rt := kmsg.NewCreateTopicsRequestTopic()
	rt.Topic, rt.NumPartitions, rt.ReplicationFactor = name, partitions, 1
	req.Topics = append(req.Topics, rt)
	req.TimeoutMillis = 10000
	resp, err := req.RequestWith(ctx, b.Client())
	if err != nil {
		return err
	}
	if code := resp.Topics[0].ErrorCode; code != 0 && code != kerr.TopicAlreadyExists.Code {
		return kerr.ErrorForCode(code)
	}
	return nil
}

// produce writes n records round-robin over the partitions of topic.
func produce(t *testing.T, b *Broker, topic string, n int) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(b.Addr), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	require.NoError(t, err)
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for i := range n {
		r := &kgo.Record{Topic: topic, Partition: int32(i % 3), Value: fmt.Appendf(nil, "hello world %d", i%5)}
		require.NoError(t, cl.ProduceSync(ctx, r).FirstErr())
	}
}

// viewsDoc is the part of our describe document the test reads.
type viewsDoc struct {
	Groups []struct {
		Group           string `json:"group"`
		AssignmentEpoch int32  `json:"assignment_epoch"`
		MemberCount     *int   `json:"member_count"`
		Members         []struct {
			MemberEpoch      int32           `json:"member_epoch"`
			Assignment       json.RawMessage `json:"assignment"`
			TargetAssignment json.RawMessage `json:"target_assignment"`
		} `json:"members"`
		Offsets []struct {
			Topic         string `json:"topic"`
			Partition     int32  `json:"partition"`
			CurrentOffset *int64 `json:"current_offset"`
			Lag           int64  `json:"lag"`
		} `json:"offsets"`
	} `json:"groups"`
}

func describeJSON(t *testing.T, bin string, b *Broker, view, group string) viewsDoc {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r := RunOurs(ctx, bin, "--bootstrap-server", b.Addr, "describe", view, "--group", group, "-o", "json")
	require.Equal(t, 0, r.ExitCode, r.Stderr)
	var doc viewsDoc
	require.NoError(t, json.Unmarshal([]byte(r.Stdout), &doc), r.Stdout)
	return doc
}

// waitSettled waits, through our own JSON documents, until group has members members whose
// assignment is the target one at the group's assignment epoch, and has committed every
// partition it reads up to the log end.
func waitSettled(t *testing.T, bin string, b *Broker, group string, members int) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	last := ""
	for time.Now().Before(deadline) {
		ms := describeJSON(t, bin, b, "--members", group).Groups[0]
		offs := describeJSON(t, bin, b, "--offsets", group).Groups[0]
		settled := len(ms.Members) == members && len(offs.Offsets) == 6
		for _, m := range ms.Members {
			settled = settled && m.MemberEpoch == ms.AssignmentEpoch && string(m.Assignment) == string(m.TargetAssignment)
		}
		for _, o := range offs.Offsets {
			settled = settled && o.CurrentOffset != nil && o.Lag == 0
		}
		if settled {
			return
		}
		last = fmt.Sprintf("%d members, %d partitions", len(ms.Members), len(offs.Offsets))
		time.Sleep(time.Second)
	}
	t.Fatalf("group %s did not settle: %s", group, last)
}

// notReadyMember heartbeats one streams member into a group whose topology reads a missing
// topic, until the test ends.
type notReadyMember struct {
	mu       sync.Mutex
	firstErr error
}

func (m *notReadyMember) err() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.firstErr
}

func keepNotReadyMember(t *testing.T, b *Broker, group string) *notReadyMember {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(b.Addr), kgo.ClientID(group+"-client"))
	require.NoError(t, err)
	memberID := newMemberID()
	send := func(ctx context.Context, epoch int32, join bool) (*kmsg.StreamsGroupHeartbeatResponse, error) {
		req := kmsg.NewPtrStreamsGroupHeartbeatRequest()
		req.Group, req.MemberID, req.MemberEpoch = group, memberID, epoch
		if join {
			process := group + "-process"
			req.ProcessID = &process
			req.RebalanceTimeoutMillis = 30000
			req.Topology = &kmsg.StreamsGroupHeartbeatRequestTopology{Subtopologies: []kmsg.StreamsGroupHeartbeatRequestTopologySubtopology{
				{SubtopologyID: "0", SourceTopics: []string{group + "-missing-input"}},
			}}
			req.ActiveTasks, req.StandbyTasks, req.WarmupTasks = []kmsg.TaskIDs{}, []kmsg.TaskIDs{}, []kmsg.TaskIDs{}
			req.ClientTags = []kmsg.StreamsGroupHeartbeatRequestClientTag{}
			req.TaskOffsets, req.TaskEndOffsets = []kmsg.TaskOffset{}, []kmsg.TaskOffset{}
		}
		kr, err := cl.Broker(1).Request(ctx, req) // node 1 coordinates every group
		if err != nil {
			return nil, err
		}
		resp := kr.(*kmsg.StreamsGroupHeartbeatResponse)
		if resp.ErrorCode != 0 {
			msg := ""
			if resp.ErrorMessage != nil {
				msg = *resp.ErrorMessage
			}
			return nil, fmt.Errorf("StreamsGroupHeartbeat %s: %w %s", group, kerr.ErrorForCode(resp.ErrorCode), msg)
		}
		return resp, nil
	}
	// The first group of a fresh broker waits for __consumer_offsets: retry coordinator errors.
	joinCtx, joinCancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer joinCancel()
	var resp *kmsg.StreamsGroupHeartbeatResponse
	for {
		var err error
		resp, err = send(joinCtx, 0, true)
		if err == nil {
			break
		}
		if joinCtx.Err() != nil {
			t.Fatalf("%s: joining: %v", group, err)
		}
		time.Sleep(500 * time.Millisecond)
	}

	m := &notReadyMember{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		epoch, interval := resp.MemberEpoch, time.Duration(resp.HeartbeatIntervalMillis)*time.Millisecond
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(interval):
			}
			r, err := send(ctx, epoch, false)
			if err != nil {
				if ctx.Err() == nil {
					m.mu.Lock()
					if m.firstErr == nil {
						m.firstErr = err
					}
					m.mu.Unlock()
				}
				continue
			}
			epoch = r.MemberEpoch
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		leaveCtx, leaveCancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer leaveCancel()
		_, _ = send(leaveCtx, -1, false) // leave, so the group empties at once
		cl.Close()
	})
	return m
}

func newMemberID() string {
	var u [16]byte
	_, _ = rand.Read(u[:])
	return base64.RawURLEncoding.EncodeToString(u[:])
}
