//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestOverview runs `kstreams-groups overview` against a real 4.4.0 broker and checks its join
// against the real StreamsGroupCommand: every task's owners equal those of --describe --members
// and every task's lag equals the sum of the matching rows of --describe --offsets.
//
// One broker, one application ov-app (e2e.OverviewApp: a word count on the 4-partition ov-input
// into the store ov-counts) with two instances, each with its own application.server and one
// standby per stateful task. After 40 records are processed and committed, the instances are
// paused (a pause file their first processor waits on) and 60 more records are produced
// unevenly over the partitions, so lag is non-zero and holds still while both tools look.
func TestOverview(t *testing.T) {
	bin := OurBinary(t)
	start := time.Now()
	defer func() { logf("TestOverview total %s", time.Since(start).Round(time.Millisecond)) }()
	ctx := context.Background()

	b := SharedBroker(t, BrokerOptions{Plugin: PluginInMemory})
	require.NoError(t, createTopic(ctx, b, "ov-input", 4))
	pause := filepath.Join(b.Dir, "ov-pause")
	endpoints := map[string]bool{}
	var procs []*Process
	for _, inst := range []string{"a", "b"} {
		port, err := FreePort()
		require.NoError(t, err)
		server := "localhost:" + strconv.Itoa(port)
		endpoints[server] = true
		procs = append(procs, startOverviewInstance(t, b, "ov-app", inst, server, pause))
	}
	require.NoError(t, b.WaitGroupState(ctx, "ov-app", "Stable", 120*time.Second, append(procs, b.Proc)...))
	_, err := b.WaitTopologyStatus(ctx, "ov-app", StatusAvailable, 60*time.Second, append(procs, b.Proc)...)
	require.NoError(t, err)

	produceTo(t, b, "ov-input", map[int32]int{0: 10, 1: 10, 2: 10, 3: 10})
	first := waitOverview(t, bin, b, "ov-app", func(d overviewDoc) string {
		switch {
		case len(d.Members) != 2:
			return fmt.Sprintf("%d members", len(d.Members))
		case d.Lag != 0:
			return fmt.Sprintf("lag %d", d.Lag)
		case d.moving() != "":
			return "moving: " + d.moving()
		case d.committed() < 8:
			return fmt.Sprintf("%d committed partitions", d.committed())
		case d.standbys() == 0:
			return "no standby yet"
		}
		return ""
	})
	logf("TestOverview: settled after %s with %d standby tasks", time.Since(start).Round(time.Millisecond), first.standbys())

	// Pause, then produce unevenly: the lag is what was produced, per partition.
	require.NoError(t, os.WriteFile(pause, nil, 0o644))
	t.Cleanup(func() { _ = os.Remove(pause) })
	produceTo(t, b, "ov-input", map[int32]int{0: 30, 1: 20, 2: 10})
	waitOverview(t, bin, b, "ov-app", func(d overviewDoc) string {
		if d.Lag != 60 {
			return fmt.Sprintf("lag %d", d.Lag)
		}
		return ""
	})
	logf("TestOverview: lag in place after %s", time.Since(start).Round(time.Millisecond))

	t.Run("owners and lag agree with the Java tool", func(t *testing.T) {
		var ov overviewDoc
		var members map[string]javaTasks
		var rows map[string]int64
		for attempt := range 3 {
			javaMembers, err := RunStreamsGroupCommand(ctx, "--bootstrap-server", b.Addr, "--describe", "--members", "--group", "ov-app")
			require.NoError(t, err)
			require.Equal(t, 0, javaMembers.ExitCode, javaMembers.Stderr)
			javaOffsets, err := RunStreamsGroupCommand(ctx, "--bootstrap-server", b.Addr, "--describe", "--offsets", "--group", "ov-app")
			require.NoError(t, err)
			require.Equal(t, 0, javaOffsets.ExitCode, javaOffsets.Stderr)
			ov = overviewJSON(t, bin, b, "ov-app")
			members, rows = parseJavaMembers(t, javaMembers.Stdout), parseJavaOffsets(t, javaOffsets.Stdout)
			if diffs := compareOverview(ov, members, rows); len(diffs) == 0 {
				break
			} else if attempt == 2 {
				t.Fatalf("overview and the Java tool disagree:\n%s\njava members:\n%s\njava offsets:\n%s", strings.Join(diffs, "\n"), javaMembers.Stdout, javaOffsets.Stdout)
			}
			logf("TestOverview: the tools disagree (attempt %d), retrying", attempt+1)
			time.Sleep(time.Second)
		}
		var sum int64
		for _, l := range rows {
			sum += l
		}
		assert.Equal(t, int64(60), sum, "the Java tool sees the lag produced")
		assert.Equal(t, int64(60), ov.Lag)
		require.NotNil(t, ov.LargestTask)
		assert.Equal(t, "0_0", ov.LargestTask.ID, "30 records wait on partition 0")
		assert.Equal(t, int64(30), ov.LargestTask.Lag)
	})

	t.Run("user endpoints and standby tasks", func(t *testing.T) {
		ov := overviewJSON(t, bin, b, "ov-app")
		got := map[string]bool{}
		for _, m := range ov.Members {
			require.NotNil(t, m.UserEndpoint, m.MemberID)
			got[m.UserEndpoint.Host+":"+strconv.Itoa(m.UserEndpoint.Port)] = true
		}
		assert.Equal(t, endpoints, got, "each instance's application.server")
		require.Len(t, ov.Subtopologies, 2)
		for _, task := range ov.Subtopologies[1].Tasks {
			require.Len(t, task.Active, 1, task.ID)
			require.Len(t, task.Standby, 1, "%s: num.standby.replicas=1 (as a group config)", task.ID)
			assert.NotEqual(t, task.Active[0].ProcessID, task.Standby[0].ProcessID, "%s: the standby is on the other instance", task.ID)
		}
		assert.Empty(t, ov.Subtopologies[0].Tasks[0].Standby, "a stateless task has no standby")
		assert.Equal(t, []string{"ov-counts"}, storeNames(ov.Subtopologies[1]))
	})

	t.Run("text, store view and pictures", func(t *testing.T) {
		rctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		defer cancel()
		r := RunOurs(rctx, bin, "--bootstrap-server", b.Addr, "overview", "--group", "ov-app")
		require.Equal(t, 0, r.ExitCode, r.Stderr)
		assert.Contains(t, r.Stdout, "Streams group 'ov-app': Stable, 2 members")
		assert.Contains(t, r.Stdout, "Lag:           60 (largest task 0_0: 30)")
		assert.Contains(t, r.Stdout, "ov-app-ov-counts-repartition (repartition, lag 0)")
		r = RunOurs(rctx, bin, "--bootstrap-server", b.Addr, "overview", "--group", "ov-app", "--store", "ov-counts")
		require.Equal(t, 0, r.ExitCode, r.Stderr)
		for server := range endpoints {
			assert.Contains(t, r.Stdout, server, "the store view names the hosts")
		}
		r = RunOurs(rctx, bin, "--bootstrap-server", b.Addr, "overview", "--group", "ov-app", "-o", "svg")
		require.Equal(t, 0, r.ExitCode, r.Stderr)
		assert.True(t, strings.HasPrefix(r.Stdout, "<?xml"), "%.100s", r.Stdout)
		assert.Equal(t, 1, strings.Count(r.Stdout, "<svg"))
		assert.Contains(t, r.Stdout, "lag 60")
	})
}

// startOverviewInstance starts one e2e.OverviewApp instance with its own state directory.
// extra are more key=value arguments for e2e.OverviewApp (processing-guarantee=...).
func startOverviewInstance(t *testing.T, b *Broker, appID, instance, server, pause string, extra ...string) *Process {
	t.Helper()
	cp, err := Classpath(Kafka44)
	require.NoError(t, err)
	name := appID + "-" + instance
	stateDir := filepath.Join(b.Dir, "state-"+name)
	require.NoError(t, os.MkdirAll(stateDir, 0o755))
	jvm := []string{"-Xmx200m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true",
		"-Dlog4j2.configurationFile=" + filepath.Join(HarnessDir(), "config", "app-log4j2.properties")}
	p, err := StartJava("app-"+name, filepath.Join(b.Dir, "app-"+name+".log"), cp, jvm, "e2e.OverviewApp",
		append([]string{"bootstrap=" + b.Addr, "app-id=" + appID, "state-dir=" + stateDir, "application-server=" + server, "pause-file=" + pause}, extra...)...)
	require.NoError(t, err)
	t.Cleanup(func() {
		_ = os.Remove(pause) // a paused instance would hold its close up
		_ = p.Stop(20 * time.Second)
	})
	return p
}

// produceTo writes n[p] records to each partition p of topic.
func produceTo(t *testing.T, b *Broker, topic string, n map[int32]int) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(b.Addr), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	require.NoError(t, err)
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var recs []*kgo.Record
	for p, count := range n {
		for i := range count {
			recs = append(recs, &kgo.Record{Topic: topic, Partition: p, Value: fmt.Appendf(nil, "view page-%d region-%d", i%7, i%3)})
		}
	}
	require.NoError(t, cl.ProduceSync(ctx, recs...).FirstErr())
}

// overviewDoc is the part of our overview document the test reads.
type overviewDoc struct {
	Group       string `json:"group"`
	Lag         int64  `json:"lag"`
	LargestTask *struct {
		ID  string `json:"id"`
		Lag int64  `json:"lag"`
	} `json:"largest_task"`
	Members       []ovMember      `json:"members"`
	Subtopologies []ovSubtopology `json:"subtopologies"`
}

type ovSubtopology struct {
	ID           string `json:"id"`
	SourceTopics []struct {
		Topic string `json:"topic"`
	} `json:"source_topics"`
	Stores []struct {
		Name string `json:"name"`
	} `json:"stores"`
	Tasks []struct {
		ID        string     `json:"id"`
		Partition int32      `json:"partition"`
		Active    []ovMember `json:"active"`
		Standby   []ovMember `json:"standby"`
		Warmup    []ovMember `json:"warmup"`
		Moving    bool       `json:"moving"`
		Lag       int64      `json:"lag"`
		Offsets   []struct {
			CurrentOffset *int64 `json:"current_offset"`
		} `json:"offsets"`
	} `json:"tasks"`
}

type ovMember struct {
	MemberID     string `json:"member_id"`
	ProcessID    string `json:"process_id"`
	UserEndpoint *struct {
		Host string `json:"host"`
		Port int    `json:"port"`
	} `json:"user_endpoint"`
}

func (d overviewDoc) moving() string {
	var ids []string
	for _, s := range d.Subtopologies {
		for _, task := range s.Tasks {
			if task.Moving {
				ids = append(ids, task.ID)
			}
		}
	}
	return strings.Join(ids, ",")
}

func (d overviewDoc) committed() int {
	n := 0
	for _, s := range d.Subtopologies {
		for _, task := range s.Tasks {
			for _, o := range task.Offsets {
				if o.CurrentOffset != nil {
					n++
				}
			}
		}
	}
	return n
}

func (d overviewDoc) standbys() int {
	n := 0
	for _, s := range d.Subtopologies {
		for _, task := range s.Tasks {
			n += len(task.Standby)
		}
	}
	return n
}

func storeNames(s ovSubtopology) []string {
	var out []string
	for _, st := range s.Stores {
		out = append(out, st.Name)
	}
	return out
}

func overviewJSON(t *testing.T, bin string, b *Broker, group string) overviewDoc {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r := RunOurs(ctx, bin, "--bootstrap-server", b.Addr, "overview", "--group", group, "-o", "json")
	require.Equal(t, 0, r.ExitCode, r.Stderr)
	var doc struct {
		Groups []overviewDoc `json:"groups"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.Stdout), &doc), r.Stdout)
	require.Len(t, doc.Groups, 1)
	return doc.Groups[0]
}

// waitOverview polls our overview until notYet returns "", for at most 90 s.
func waitOverview(t *testing.T, bin string, b *Broker, group string, notYet func(overviewDoc) string) overviewDoc {
	t.Helper()
	return pollDoc(t, group, 500*time.Millisecond, func() overviewDoc { return overviewJSON(t, bin, b, group) }, notYet)
}

// pollDoc reads a group's document with get every interval until notYet says "" of it, for at
// most 90 s, and fails the test with notYet's last word after that.
func pollDoc[D any](t *testing.T, group string, interval time.Duration, get func() D, notYet func(D) string) D {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	last := ""
	for time.Now().Before(deadline) {
		d := get()
		if last = notYet(d); last == "" {
			return d
		}
		time.Sleep(interval)
	}
	t.Fatalf("group %s: still %s after 90 s", group, last)
	var zero D
	return zero
}

// javaTasks are one member's tasks by kind, as "S_P".
type javaTasks map[string][]string

var (
	javaKinds = regexp.MustCompile(`(ACTIVE|STANDBY|WARMUP): ((?:[^ :;]+:\[[0-9,]*\]; )+)`)
	javaTask  = regexp.MustCompile(`([^ :;]+):\[([0-9,]*)\]`)
)

// parseJavaMembers reads --describe --members: member id -> kind -> tasks.
func parseJavaMembers(t *testing.T, out string) map[string]javaTasks {
	t.Helper()
	// Not trimmed: each assignment cell ends in "; ", the last line's too.
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	require.GreaterOrEqual(t, len(lines), 2, out)
	require.True(t, strings.HasPrefix(lines[0], "GROUP "), out)
	members := map[string]javaTasks{}
	for _, l := range lines[1:] {
		fields := strings.Fields(l)
		require.GreaterOrEqual(t, len(fields), 4, l)
		kinds := javaTasks{}
		for _, k := range javaKinds.FindAllStringSubmatch(l, -1) {
			for _, task := range javaTask.FindAllStringSubmatch(k[2], -1) {
				for _, p := range strings.Split(task[2], ",") {
					if p != "" {
						kinds[k[1]] = append(kinds[k[1]], task[1]+"_"+p)
					}
				}
			}
		}
		members[fields[1]] = kinds
	}
	return members
}

// parseJavaOffsets reads --describe --offsets: "topic partition" -> lag.
func parseJavaOffsets(t *testing.T, out string) map[string]int64 {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.True(t, strings.HasPrefix(lines[0], "GROUP "), out)
	rows := map[string]int64{}
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		require.Len(t, f, 4, l)
		lag, err := strconv.ParseInt(f[3], 10, 64)
		require.NoError(t, err, l)
		rows[f[1]+" "+f[2]] = lag
	}
	return rows
}

// compareOverview lists where the overview disagrees with the Java tool's views.
func compareOverview(ov overviewDoc, members map[string]javaTasks, rows map[string]int64) []string {
	var diffs []string
	holders := func(id, kind string) []string {
		var out []string
		for m, kinds := range members {
			if slices.Contains(kinds[kind], id) {
				out = append(out, m)
			}
		}
		sort.Strings(out)
		return out
	}
	ids := func(ms []ovMember) []string {
		var out []string
		for _, m := range ms {
			out = append(out, m.MemberID)
		}
		sort.Strings(out)
		return out
	}
	seen := 0
	for _, s := range ov.Subtopologies {
		for _, task := range s.Tasks {
			for kind, got := range map[string][]ovMember{"ACTIVE": task.Active, "STANDBY": task.Standby, "WARMUP": task.Warmup} {
				if want := holders(task.ID, kind); !slices.Equal(want, ids(got)) {
					diffs = append(diffs, fmt.Sprintf("task %s %s: overview %v, Java %v", task.ID, kind, ids(got), want))
				}
			}
			var sum int64
			for _, src := range s.SourceTopics {
				if lag, ok := rows[src.Topic+" "+strconv.Itoa(int(task.Partition))]; ok {
					sum += lag
					seen++
				}
			}
			if sum != task.Lag {
				diffs = append(diffs, fmt.Sprintf("task %s: overview lag %d, Java rows sum to %d", task.ID, task.Lag, sum))
			}
		}
	}
	if seen != len(rows) {
		diffs = append(diffs, fmt.Sprintf("the overview's tasks cover %d of the Java tool's %d offset rows", seen, len(rows)))
	}
	return diffs
}
