//go:build e2e

package e2e

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// The application of the upgrade scenarios (issue 33) as the measured notes run it
// (../shared/reference/upgrade-migration.md): e2e.UpgradeApp, versions v1 to v5, on the shared
// broker. Each scenario has its own application id and topic prefix, so scenarios share the
// broker and never see each other's records.

// upRecords is how many records each round writes to up-in: 4 per partition, values k0..k3
// three times each, so that v1 counts every key 1, 2, 3 and the next round 4, 5, 6.
const upRecords = 12

// upScenario is one scenario's application: its group, its topics and its runs.
type upScenario struct {
	t      *testing.T
	b      *Broker
	bin    string
	app    string // application id = streams group id
	prefix string // of the user topics: <prefix>up-in, <prefix>up-in-b, <prefix>up-out
	dir    string // the texts, exports and the application's log (kept with the broker's dir on failure)
	runs   int    // starts so far: each start gets a fresh state directory
	rounds int    // rounds of records written to up-in
	began  time.Time
}

// newUpScenario creates the scenario's topics (3 partitions each, up-out 1 so its records keep
// their order).
func newUpScenario(t *testing.T, b *Broker, bin, name string) *upScenario {
	t.Helper()
	s := &upScenario{t: t, b: b, bin: bin, app: "up-" + name, prefix: "up-" + name + "-", began: time.Now()}
	s.dir = filepath.Join(b.Dir, s.app)
	require.NoError(t, os.MkdirAll(s.dir, 0o755))
	ctx := context.Background()
	for topic, parts := range map[string]int32{s.topic("up-in"): 3, s.topic("up-in-b"): 3, s.topic("up-out"): 1} {
		if err := ooCreateTopic(ctx, b, topic, parts, nil); err != nil && !errors.Is(err, kerr.TopicAlreadyExists) {
			require.NoError(t, err, topic)
		}
	}
	// A topic just created may not be in the broker's metadata yet.
	require.Eventually(t, func() bool {
		for _, topic := range []string{s.topic("up-in"), s.topic("up-in-b"), s.topic("up-out")} {
			if _, err := s.endsErr(topic); err != nil {
				return false
			}
		}
		return true
	}, 15*time.Second, 100*time.Millisecond, "the topics of %s", s.app)
	t.Cleanup(func() { logf("%s: scenario wall time %s", t.Name(), time.Since(s.began).Round(100*time.Millisecond)) })
	return s
}

func (s *upScenario) topic(name string) string { return s.prefix + name }

// internal is the full name of one of the application's internal topics (by-key-repartition,
// counts-changelog, ...).
func (s *upScenario) internal(name string) string { return s.app + "-" + name }

// text writes version's Topology#describe() text (the real 4.4.0 jars, no broker) to a file and
// returns its path: NEW for `upgrade plan`, `apply` and `verify`.
func (s *upScenario) text(version string) string {
	s.t.Helper()
	path := filepath.Join(s.dir, version+".txt")
	if _, err := os.Stat(path); err == nil {
		return path
	}
	res, err := RunJavaTool(context.Background(), Kafka44, "e2e.UpgradeApp", "version="+version, "topic-prefix="+s.prefix, "describe-only=true")
	require.NoError(s.t, err)
	require.Equal(s.t, 0, res.ExitCode, "describe-only %s: %s", version, res.Stderr)
	require.NoError(s.t, os.WriteFile(path, []byte(res.Stdout), 0o644))
	return path
}

// produce writes one round of upRecords records to up-in: record i to partition i%3 with value
// k<i%4> (the key the application counts by).
func (s *upScenario) produce() {
	s.t.Helper()
	s.rounds++
	s.produceTo(s.topic("up-in"), upRecords, func(i int) int32 { return int32(i % 3) })
}

// produceTo writes n records k<i%4> to topic, record i to partition part(i).
func (s *upScenario) produceTo(topic string, n int, part func(int) int32) {
	s.t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(s.b.Addr), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	require.NoError(s.t, err)
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var recs []*kgo.Record
	for i := range n {
		k := fmt.Appendf(nil, "k%d", i%4)
		recs = append(recs, &kgo.Record{Topic: topic, Partition: part(i), Key: k, Value: k})
	}
	require.NoError(s.t, cl.ProduceSync(ctx, recs...).FirstErr())
}

// start starts version with a fresh state directory (a kept store can only come back from its
// changelog); the runs of one scenario share a log. It is stopped by PID at the test's end.
func (s *upScenario) start(version string) *App {
	s.t.Helper()
	s.runs++
	cp, err := Classpath(Kafka44)
	require.NoError(s.t, err)
	jvm := []string{
		"-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true",
		"-Dlog4j2.configurationFile=" + filepath.Join(HarnessDir(), "config", "app-log4j2.properties"),
	}
	args := []string{
		"bootstrap=" + s.b.Addr, "app-id=" + s.app, "version=" + version, "topic-prefix=" + s.prefix,
		"state-dir=" + filepath.Join(s.dir, fmt.Sprintf("state-%d-%s", s.runs, version)),
		"describe-out=" + filepath.Join(s.dir, fmt.Sprintf("run-%d-%s.txt", s.runs, version)),
	}
	proc, err := StartJava(fmt.Sprintf("%s-%s", s.app, version), filepath.Join(s.dir, "app.log"), cp, jvm, "e2e.UpgradeApp", args...)
	require.NoError(s.t, err)
	a := &App{AppOptions: AppOptions{AppID: s.app, Topology: "upgrade-" + version}, Proc: proc}
	s.t.Cleanup(func() { _ = a.Stop() })
	return a
}

// stop stops a and waits until the group is Empty (the member left).
func (s *upScenario) stop(a *App) {
	s.t.Helper()
	require.NoError(s.t, a.Stop())
	require.NoError(s.t, s.b.WaitGroupState(context.Background(), s.app, "Empty", 30*time.Second, s.b.Proc))
}

// upOut is one record of up-out: a key and its count.
type upOut struct {
	Key   string
	Count int64
}

// out reads every record of up-out, in order.
func (s *upScenario) out() []upOut {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	end := s.ends(s.topic("up-out"))[0]
	if end == 0 {
		return nil
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(s.b.Addr),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{s.topic("up-out"): {0: kgo.NewOffset().AtStart()}}))
	require.NoError(s.t, err)
	defer cl.Close()
	var out []upOut
	for int64(len(out)) < end {
		fs := cl.PollFetches(ctx)
		require.NoError(s.t, ctx.Err(), "reading %s: %d of %d records", s.topic("up-out"), len(out), end)
		fs.EachRecord(func(r *kgo.Record) {
			c := int64(-1)
			if len(r.Value) == 8 {
				c = int64(binary.BigEndian.Uint64(r.Value))
			}
			out = append(out, upOut{Key: string(r.Key), Count: c})
		})
	}
	return out
}

// upCountsFrom is the counts up-out holds for each key, in order, from record from on.
func upCountsFrom(out []upOut, from int) map[string][]int64 {
	m := map[string][]int64{}
	for _, o := range out[min(from, len(out)):] {
		m[o.Key] = append(m[o.Key], o.Count)
	}
	return m
}

// upCounts is what upCountsFrom returns for a round in which every key k0..k3 counted vals.
func upCounts(vals ...int64) map[string][]int64 {
	m := map[string][]int64{}
	for k := range 4 {
		m[fmt.Sprintf("k%d", k)] = vals
	}
	return m
}

// ends is topic's end offsets, by partition.
func (s *upScenario) ends(topic string) []int64 {
	s.t.Helper()
	out, err := s.endsErr(topic)
	require.NoError(s.t, err)
	return out
}

// endsErr is ends, failing with an error (a topic not yet created).
func (s *upScenario) endsErr(topic string) ([]int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	lo, err := kadm.NewClient(s.b.Client()).ListEndOffsets(ctx, topic)
	if err == nil {
		err = lo.Error()
	}
	if err != nil {
		return nil, fmt.Errorf("end offsets of %s: %w", topic, err)
	}
	var out []int64
	lo.Each(func(o kadm.ListedOffset) {
		for int32(len(out)) <= o.Partition {
			out = append(out, -1)
		}
		out[o.Partition] = o.Offset
	})
	return out, nil
}

// committed is the group's committed offsets, every topic, as "topic-partition" -> offset.
func (s *upScenario) committed() map[string]int64 {
	s.t.Helper()
	got, err := committedOffsets(context.Background(), s.b, s.app, func(string) bool { return true })
	require.NoError(s.t, err)
	return got
}

// upWant is "topic-partition" -> offset for topic's partitions 0..n-1 at offs.
func upWant(topic string, offs ...int64) map[string]int64 {
	m := map[string]int64{}
	for p, o := range offs {
		m[fmt.Sprintf("%s-%d", topic, p)] = o
	}
	return m
}

// upMerge is the union of offset maps.
func upMerge(ms ...map[string]int64) map[string]int64 {
	out := map[string]int64{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// waitCaughtUp waits until the running application a wrote n records to up-out in all and its
// group committed up-in at the end of every partition and every given repartition topic at its
// end offsets: everything written so far is processed and committed. It returns the committed
// offsets.
func (s *upScenario) waitCaughtUp(a *App, n int, repartitions ...string) map[string]int64 {
	s.t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	var last string
	for time.Now().Before(deadline) {
		require.NoError(s.t, exited([]*Process{a.Proc, s.b.Proc}), logTail(a.Proc.LogPath, 3000))
		wantOff := upWant(s.topic("up-in"), s.ends(s.topic("up-in"))...)
		var err error
		for _, r := range repartitions {
			var e []int64
			if e, err = s.endsErr(r); err != nil {
				break
			}
			wantOff = upMerge(wantOff, upWant(r, e...))
		}
		var got map[string]int64
		if err == nil {
			got, err = committedOffsets(context.Background(), s.b, s.app, func(string) bool { return true })
		}
		outN := s.ends(s.topic("up-out"))[0]
		if err == nil && int(outN) == n && upContains(got, wantOff) {
			return got
		}
		last = fmt.Sprintf("up-out %d of %d records; committed %v, want at least %v (err %v)", outN, n, upSorted(got), upSorted(wantOff), err)
		time.Sleep(300 * time.Millisecond)
	}
	s.t.Fatalf("%s not caught up after 90 s: %s\n%s", s.app, last, logTail(a.Proc.LogPath, 3000))
	return nil
}

// upContains tells whether got holds every entry of want with the same value.
func upContains(got, want map[string]int64) bool {
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			return false
		}
	}
	return true
}

// upSorted prints an offset map in a stable order (for messages).
func upSorted(m map[string]int64) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%d ", k, m[k])
	}
	return strings.TrimSpace(b.String())
}

// runV1 is every scenario's beginning: one round of records, v1 processes them (every key
// counted 1, 2, 3), commits up-in 4/4/4 and its repartition topic at its end, and stops: the
// group is Empty, holding v1's topology. It returns the committed offsets.
func (s *upScenario) runV1() map[string]int64 {
	s.t.Helper()
	s.produce()
	v1 := s.start("v1")
	got := s.waitCaughtUp(v1, upRecords, s.internal("by-key-repartition"))
	s.stop(v1)
	logf("%s: v1 committed %s", s.app, upSorted(got))
	require.Equal(s.t, upCounts(1, 2, 3), upCountsFrom(s.out(), 0), "v1's counts")
	require.Equal(s.t, upWant(s.topic("up-in"), 4, 4, 4), upPick(got, s.topic("up-in")))
	return got
}

// upPick is the entries of m for topic.
func upPick(m map[string]int64, topic string) map[string]int64 {
	out := map[string]int64{}
	for k, v := range m {
		if strings.HasPrefix(k, topic+"-") && !strings.Contains(k[len(topic)+1:], "-") {
			out[k] = v
		}
	}
	return out
}

// waitLog waits for a line holding line in the application's log past byte since.
func (s *upScenario) waitLog(a *App, since int, line string) string {
	s.t.Helper()
	l, err := dfWaitLog(a, since, line, 60*time.Second)
	require.NoError(s.t, err)
	return l
}

// logSize is the size of the scenario's application log (the runs share it).
func (s *upScenario) logSize() int {
	st, err := os.Stat(filepath.Join(s.dir, "app.log"))
	if err != nil {
		return 0
	}
	return int(st.Size())
}

// upRefused is the refusal of a changed topology for an existing streams group, as the
// client logs it (FINDINGS F341).
const upRefused = "StreamsGroupHeartbeatRequest failed due to INVALID_REQUEST: Topology updates are not supported yet."

// expectRefused starts version on the existing group and waits for the broker's refusal and
// the client's shutdown; the group stays Empty with no member.
func (s *upScenario) expectRefused(version string) {
	s.t.Helper()
	since := s.logSize()
	a := s.start(version)
	s.waitLog(a, since, upRefused)
	s.waitLog(a, since, "E2E-STATE PENDING_ERROR -> ERROR")
	require.NoError(s.t, a.Stop())
	g, err := s.b.DescribeStreamsGroup(context.Background(), s.app, false)
	require.NoError(s.t, err)
	require.Equal(s.t, int16(0), g.ErrorCode)
	require.Equal(s.t, "Empty", g.State, "%s refused", version)
	require.Empty(s.t, g.Members)
}

// classicGroup is what DescribeGroups (the classic protocol's describe) and ListGroups say of
// the group.
func (s *upScenario) classicGroup() (state, protocolType, groupType string, members int) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	req := kmsg.NewPtrDescribeGroupsRequest()
	req.Groups = []string{s.app}
	resp, err := req.RequestWith(ctx, s.b.Client())
	require.NoError(s.t, err)
	g := resp.Groups[0]
	require.NoError(s.t, kerr.ErrorForCode(g.ErrorCode))
	lreq := kmsg.NewPtrListGroupsRequest()
	lresp, err := lreq.RequestWith(ctx, s.b.Client())
	require.NoError(s.t, err)
	for _, lg := range lresp.Groups {
		if lg.Group == s.app {
			groupType = lg.GroupType
		}
	}
	return g.State, g.ProtocolType, groupType, len(g.Members)
}
