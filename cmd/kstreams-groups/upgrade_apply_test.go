package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
	"github.com/kstreams-groups/kstreams-groups/internal/topoparse"
)

// The measured application (shared reference upgrade-migration.md) as v1
// left it: up-app Empty, up-in committed 4/4/4 and the repartition topic
// 3/3/6, both at their ends. NEW files are the upgrade package's.
const upDir = "../../internal/upgrade/testdata/"

func applyCluster(t *testing.T) *playground.Cluster {
	t.Helper()
	c := startCluster(t, 1, playground.Kafka44)
	for _, name := range []string{"up-in", "up-in-b", "up-out", "up-app-by-key-repartition", "up-app-counts-changelog"} {
		c.PutTopic(name, 3)
	}
	data, err := os.ReadFile(upDir + "v1.txt")
	require.NoError(t, err)
	stored := strings.NewReplacer("(topic: by-key-repartition)", "(topic: up-app-by-key-repartition)",
		"(topics: [by-key-repartition])", "(topics: [up-app-by-key-repartition])").Replace(string(data))
	d, err := topoparse.ParseString(stored)
	require.NoError(t, err)
	c.PutStreamsGroup(playground.StreamsGroup{ID: "up-app", State: "Empty", GroupEpoch: 4, AssignmentEpoch: 4,
		Topology: &playground.Topology{Subtopologies: []playground.Subtopology{
			{ID: "0", SourceTopics: []string{"up-in"}, RepartitionSinkTopics: []string{"up-app-by-key-repartition"}},
			{ID: "1", RepartitionSourceTopics: []playground.TopicInfo{{Name: "up-app-by-key-repartition"}},
				StateChangelogTopics: []playground.TopicInfo{{Name: "up-app-counts-changelog"}}},
		}},
		Description: toState(d)})
	for p, o := range []int64{4, 4, 4} {
		c.SetLogOffsets("up-in", int32(p), 0, o)
		c.Commit("up-app", playground.Committed{Topic: "up-in", Partition: int32(p), Offset: o, LeaderEpoch: -1})
	}
	for p, o := range []int64{3, 3, 6} {
		c.SetLogOffsets("up-app-by-key-repartition", int32(p), 0, o)
		c.Commit("up-app", playground.Committed{Topic: "up-app-by-key-repartition", Partition: int32(p), Offset: o, LeaderEpoch: -1})
		c.SetLogOffsets("up-app-counts-changelog", int32(p), 0, 3)
	}
	return c
}

// joinUp sends a Streams member's first heartbeat with the application's
// topology: the store's and repartition topic's names as given.
func joinUp(t *testing.T, c *playground.Cluster, member, store string) {
	t.Helper()
	heartbeatUp(t, c, member, store, 0)
}

// heartbeatUp sends a heartbeat of epoch (0 joins with the topology, -1
// leaves).
func heartbeatUp(t *testing.T, c *playground.Cluster, member, store string, epoch int32) {
	t.Helper()
	k, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs()...), kgo.MaxVersions(kversion.V4_4_0()))
	require.NoError(t, err)
	defer k.Close()
	_, err = k.Request(t.Context(), kmsg.NewPtrMetadataRequest())
	require.NoError(t, err)
	topo := kmsg.NewStreamsGroupHeartbeatRequestTopology()
	s0, s1 := kmsg.NewStreamsGroupHeartbeatRequestTopologySubtopology(), kmsg.NewStreamsGroupHeartbeatRequestTopologySubtopology()
	s0.SubtopologyID, s0.SourceTopics, s0.RepartitionSinkTopics = "0", []string{"up-in"}, []string{"up-app-by-key-repartition"}
	rp, cl := kmsg.NewTopicInfo(), kmsg.NewTopicInfo()
	rp.Topic, cl.Topic = "up-app-by-key-repartition", "up-app-"+store+"-changelog"
	s1.SubtopologyID, s1.RepartitionSourceTopics, s1.StateChangelogTopics = "1", []kmsg.TopicInfo{rp}, []kmsg.TopicInfo{cl}
	topo.Subtopologies = []kmsg.StreamsGroupHeartbeatRequestTopologySubtopology{s0, s1}
	req := kmsg.NewPtrStreamsGroupHeartbeatRequest()
	req.Group, req.MemberID, req.MemberEpoch = "up-app", member, epoch
	if epoch == 0 {
		req.Topology, req.RebalanceTimeoutMillis = &topo, 300000
	}
	resp, err := k.Broker(0).Request(t.Context(), req)
	require.NoError(t, err)
	require.Zero(t, resp.(*kmsg.StreamsGroupHeartbeatResponse).ErrorCode)
}

// stable takes the export file's directory out of an output.
func inDir(out, dir string) string { return strings.ReplaceAll(out, dir, "DIR") }

func TestUpgradeApply_cli(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := applyCluster(t)
	bs := bootstrap(c)
	dir := t.TempDir()
	file := filepath.Join(dir, "up-app.csv")

	t.Run("dry run", func(t *testing.T) {
		r := runCLI(t, "upgrade", "apply", "--bootstrap-server", bs, "--group", "up-app", upDir+"v2.txt", "--accept-state-loss", "counts")
		require.Equal(t, 0, r.code, r.stderr)
		golden.Assert(t, []byte(r.stdout))
	})
	assert.True(t, c.HasGroup("up-app"))

	r := runCLI(t, "upgrade", "apply", "--bootstrap-server", bs, "--group", "up-app", upDir+"v2.txt", "--accept-state-loss", "counts",
		"--execute", "--export", file)
	require.Equal(t, 0, r.code, r.stderr)
	golden.AssertFile(t, strings.TrimSuffix(golden.Path(t), ".golden")+"/execute.golden", []byte(inDir(r.stdout, dir)))

	csv, err := os.ReadFile(file)
	require.NoError(t, err)
	// Jackson's quoting: a value longer than 24 characters is quoted.
	assert.Equal(t, "up-app,\"up-app-by-key-repartition\",0,3\nup-app,\"up-app-by-key-repartition\",1,3\nup-app,\"up-app-by-key-repartition\",2,6\n"+
		"up-app,up-in,0,4\nup-app,up-in,1,4\nup-app,up-in,2,4\n\n", string(csv))
	var j format.UpgradeJournalFile
	six := 6
	data, err := os.ReadFile(file + journalSuffix)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &j))
	assert.Equal(t, format.UpgradeJournalFile{Version: 1, Group: "up-app", New: upDir + "v2.txt", AcceptStateLoss: []string{"counts"},
		LeftBehind: []string{"up-app-counts-changelog"}, Step: "confirm", Offsets: &six}, j)

	// A second run must not overwrite the export of the first.
	r = runCLI(t, "upgrade", "apply", "--bootstrap-server", bs, "--group", "up-app", upDir+"v2.txt", "--execute", "--export", file)
	assert.Equal(t, 2, r.code, "the group is no streams group any more: no plan")

	// verify: not yet, then the new version joins.
	r = runCLI(t, "upgrade", "verify", "--bootstrap-server", bs, "--group", "up-app", upDir+"v2.txt", "--export", file)
	assert.Equal(t, 1, r.code, r.stderr)
	assert.Contains(t, r.stdout, "not yet")
	joinUp(t, c, "v2", "counts-v2")
	r = runCLI(t, "upgrade", "verify", "--bootstrap-server", bs, "--group", "up-app", upDir+"v2.txt", "--export", file)
	require.Equal(t, 0, r.code, r.stderr)
	golden.AssertFile(t, strings.TrimSuffix(golden.Path(t), ".golden")+"/verify.golden", []byte(r.stdout))
	r = runCLI(t, "upgrade", "verify", "--bootstrap-server", bs, "--group", "up-app", upDir+"v2.txt", "--export", file, "-o", "json")
	require.Equal(t, 0, r.code, r.stderr)
	golden.AssertFile(t, strings.TrimSuffix(golden.Path(t), ".golden")+"/verify.json.golden", []byte(r.stdout))
}

func TestUpgradeApply_jsonDocument(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := applyCluster(t)
	dir := t.TempDir()
	r := runCLI(t, "upgrade", "apply", "--bootstrap-server", bootstrap(c), "--group", "up-app", upDir+"v2.txt", "--accept-state-loss", "counts",
		"--execute", "--export", filepath.Join(dir, "up.csv"), "-o", "json")
	require.Equal(t, 0, r.code, r.stderr)
	golden.Assert(t, []byte(inDir(r.stdout, dir)))
}

// TestUpgradeApply_resumeAndByHand stops apply after the delete (the
// commit refused) and finishes it two ways: --resume, and the export file
// by hand with reset-offsets --from-file, which ours runs on an Empty
// streams group (the old version started and stopped: F344, ours refuses
// an absent group, Kafka's tool commits to it).
func TestUpgradeApply_resumeAndByHand(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"resume", "by hand"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			isolate(t)
			c := applyCluster(t)
			bs := bootstrap(c)
			dir := t.TempDir()
			file := filepath.Join(dir, "up-app.csv")
			c.InjectError(playground.Fault{Key: 8, Group: "up-app", ErrorCode: 30, Times: 1})
			r := runCLI(t, "upgrade", "apply", "--bootstrap-server", bs, "--group", "up-app", upDir+"v2.txt", "--accept-state-loss", "counts",
				"--execute", "--export", file)
			require.Equal(t, 3, r.code, r.stderr)
			if how == "resume" {
				golden.Assert(t, []byte(inDir(r.stdout, dir)))
			}
			assert.False(t, c.HasGroup("up-app"), "deleted, nothing committed")

			if how == "resume" {
				r = runCLI(t, "upgrade", "apply", "--bootstrap-server", bs, "--resume", file)
				require.Equal(t, 0, r.code, r.stderr)
				golden.AssertFile(t, strings.TrimSuffix(golden.Path(t), ".golden")+"/resumed.golden", []byte(inDir(r.stdout, dir)))
			} else {
				heartbeatUp(t, c, "old", "counts", 0)
				heartbeatUp(t, c, "old", "counts", -1)
				r = runCLI(t, "reset-offsets", "--bootstrap-server", bs, "--group", "up-app", "--from-file", file, "--execute")
				require.Equal(t, 0, r.code, r.stderr)
			}
			var got []string
			for _, o := range c.CommittedOffsets("up-app") {
				got = append(got, o.Topic+":"+string(rune('0'+o.Partition))+"="+string(rune('0'+o.Offset)))
			}
			assert.Equal(t, []string{"up-app-by-key-repartition:0=3", "up-app-by-key-repartition:1=3", "up-app-by-key-repartition:2=6",
				"up-in:0=4", "up-in:1=4", "up-in:2=4"}, got)
		})
	}
}

func TestUpgradeApply_exitCodes(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		"refused: state loss not accepted": {args: []string{"--group", "up-app", upDir + "v2.txt"}, code: 1, stdout: "store counts is renamed"},
		"nothing to migrate":               {args: []string{"--group", "up-app", upDir + "v3.txt"}, code: 4, stdout: "Nothing to migrate"},
		"execute without export":           {args: []string{"--group", "up-app", upDir + "v2.txt", "--execute"}, code: 2, stderr: "needs --export FILE"},
		"both modes":                       {args: []string{"--group", "up-app", upDir + "v2.txt", "--execute", "--dry-run", "--export", "x"}, code: 2, stderr: "not both"},
		"resume with a group":              {args: []string{"--group", "up-app", "--resume", "x"}, code: 2, stderr: "takes no --group"},
		"resume without a journal":         {args: []string{"--resume", "nope.csv"}, code: 2, stderr: "nope.csv.journal"},
		"unknown group":                    {args: []string{"--group", "nope", upDir + "v2.txt"}, code: 2, stderr: "nope"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			isolate(t)
			c := applyCluster(t)
			r := runCLI(t, append([]string{"upgrade", "apply", "--bootstrap-server", bootstrap(c)}, tt.args...)...)
			assert.Equal(t, tt.code, r.code, r.stderr)
			assert.Contains(t, r.stdout, tt.stdout)
			assert.Contains(t, r.stderr, tt.stderr)
			assert.Equal(t, "streams", groupType(t, c), "nothing changed")
		})
	}
}

func groupType(t *testing.T, c *playground.Cluster) string {
	r := runCLI(t, "inventory", "--bootstrap-server", bootstrap(c), "-o", "json")
	require.Equal(t, 0, r.code, r.stderr)
	if strings.Contains(r.stdout, `"up-app"`) && c.HasGroup("up-app") {
		return "streams"
	}
	return ""
}

func TestUpgradeVerify_failures(t *testing.T) {
	t.Parallel()
	isolate(t)
	for name, tt := range map[string]struct {
		join  string
		after func(c *playground.Cluster)
		code  int
		want  string
	}{
		"old instance first": {join: "counts", code: 3, want: "an instance of the old version joined first"},
		"offset moved backwards": {join: "counts-v2", code: 3, want: "up-in-1: exported 4, committed 0",
			after: func(c *playground.Cluster) {
				c.Commit("up-app", playground.Committed{Topic: "up-in", Partition: 1, Offset: 0, LeaderEpoch: -1})
			}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c := applyCluster(t)
			bs := bootstrap(c)
			file := filepath.Join(t.TempDir(), "up.csv")
			r := runCLI(t, "upgrade", "apply", "--bootstrap-server", bs, "--group", "up-app", upDir+"v2.txt", "--accept-state-loss", "counts",
				"--execute", "--export", file)
			require.Equal(t, 0, r.code, r.stderr)
			joinUp(t, c, "m", tt.join)
			if tt.after != nil {
				tt.after(c)
			}
			r = runCLI(t, "upgrade", "verify", "--bootstrap-server", bs, "--group", "up-app", upDir+"v2.txt", "--export", file)
			assert.Equal(t, tt.code, r.code, r.stderr)
			assert.Contains(t, r.stdout, tt.want)
			golden.Assert(t, []byte(r.stdout))
		})
	}
}

// docs/exit-status.md lists upgrade apply's and verify's own codes as the
// code has them.
func TestREADMEUpgradeApplyVerifyExitCodes(t *testing.T) {
	t.Parallel()
	for marker, statuses := range map[string][]exitStatus{"upgrade-apply-exit-codes": upgradeApplyExitStatuses, "upgrade-verify-exit-codes": upgradeVerifyExitStatuses} {
		var want [][]string
		for _, s := range statuses {
			want = append(want, []string{itoa(s.Code), s.Meaning})
		}
		assert.Equal(t, want, readmeTable(t, marker), marker)
	}
}

// A signal while apply waits on the commit (the coordinator keeps moving)
// ends it with 130; stdout takes no more writes, so the state left and the
// command that finishes it are on stderr; --resume then finishes it.
func TestUpgradeApply_signalAfterTheDelete(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := applyCluster(t)
	file := filepath.Join(t.TempDir(), "up.csv")
	c.InjectError(playground.Fault{Key: 8, Group: "up-app", ErrorCode: 16, Node: playground.AnyNode}) // NOT_COORDINATOR: retried
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	// The signal once the commit was sent (and refused, retried): the
	// group being gone only tells that the delete was done, and the
	// command may still be reading its answer.
	go func() {
		for len(requestsWithKey(c, 8)) == 0 {
			time.Sleep(5 * time.Millisecond)
		}
		cancel(&signalError{sig: syscall.SIGINT})
	}()
	var out, errOut bytes.Buffer
	code := testRun(t, []string{"upgrade", "apply", "--bootstrap-server", bootstrap(c), "--group", "up-app", upDir + "v2.txt",
		"--accept-state-loss", "counts", "--execute", "--export", file}, IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut},
		deps{signals: &signalWatch{ctx: ctx}})
	assert.Equal(t, 130, code, errOut.String())
	assert.Contains(t, errOut.String(), "upgrade apply stopped at commit: group up-app")
	assert.Contains(t, errOut.String(), "To finish: kstreams-groups upgrade apply --resume "+file)
	assert.Contains(t, errOut.String(), "interrupted by SIGINT")

	c.ClearFaults()
	r := runCLI(t, "upgrade", "apply", "--bootstrap-server", bootstrap(c), "--resume", file)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Len(t, c.CommittedOffsets("up-app"), 6)
}

// An export file that lost lines after the delete (cut short, emptied,
// replaced) is not committed as if it were the migration's: the resume
// stops before the commit, nothing committed, and says so.
func TestUpgradeApply_resumeRefusesAnExportThatLostLines(t *testing.T) {
	t.Parallel()
	for name, keep := range map[string]int{"cut short": 2, "emptied": 0} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			isolate(t)
			c := applyCluster(t)
			bs := bootstrap(c)
			file := filepath.Join(t.TempDir(), "up-app.csv")
			c.InjectError(playground.Fault{Key: 8, Group: "up-app", ErrorCode: 30, Times: 1})
			r := runCLI(t, "upgrade", "apply", "--bootstrap-server", bs, "--group", "up-app", upDir+"v2.txt", "--accept-state-loss", "counts",
				"--execute", "--export", file)
			require.Equal(t, 3, r.code, r.stderr)
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			lines := strings.SplitAfter(string(data), "\n")
			require.Greater(t, len(lines), keep)
			require.NoError(t, os.WriteFile(file, []byte(strings.Join(lines[:keep], "")), 0o600))

			r = runCLI(t, "upgrade", "apply", "--bootstrap-server", bs, "--resume", file)
			assert.Equal(t, applyFailed, r.code, r.stdout)
			assert.Contains(t, r.stderr, "the journal says 6")
			assert.Empty(t, c.CommittedOffsets("up-app"), "nothing committed")
		})
	}
}

// A signal while NEW is read (a stdin that never ends) ends each upgrade
// verb with the signal's code and one stderr line, the signal's, as other
// verbs end: not also the NEW failure the signal caused.
func TestUpgrade_signalWhileReadingNEW(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"upgrade", "plan", "--group", "up-app", "-"},
		{"upgrade", "apply", "--group", "up-app", "-"},
		{"upgrade", "verify", "--group", "up-app", "-"},
	} {
		t.Run(args[1], func(t *testing.T) {
			t.Parallel()
			isolate(t)
			c := applyCluster(t)
			stdin, w, err := os.Pipe()
			require.NoError(t, err)
			t.Cleanup(func() { _ = w.Close(); _ = stdin.Close() })
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			time.AfterFunc(100*time.Millisecond, func() { cancel(&signalError{sig: syscall.SIGINT}) })
			var out, errOut bytes.Buffer
			code := testRun(t, append(args, "--bootstrap-server", bootstrap(c)), IOStreams{In: stdin, Out: &out, ErrOut: &errOut},
				deps{signals: &signalWatch{ctx: ctx}})
			assert.Equal(t, 130, code, errOut.String())
			assert.Equal(t, "Error: interrupted by SIGINT\n", errOut.String())
			assert.Equal(t, "streams", groupType(t, c), "nothing changed")
		})
	}
}
