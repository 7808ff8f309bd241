package upgrade_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	"github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
	"github.com/kstreams-groups/kstreams-groups/internal/upgrade"
)

// The playground holds up-app as v1 left it (the measured scenario): Empty,
// v1's topology and description stored, up-in committed 4/4/4 at its end,
// the repartition topic 3/3/6 at its end.

type pg struct {
	c      *playground.Cluster
	client *admin.Client
	kgo    *kgo.Client
}

func startPlayground(t *testing.T) *pg {
	t.Helper()
	c, err := playground.Start(playground.Config{Logf: t.Logf})
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	for _, name := range []string{"up-in", "up-in-b", "up-out", "up-app-by-key-repartition", "up-app-counts-changelog"} {
		c.PutTopic(name, 3)
	}
	c.PutStreamsGroup(playground.StreamsGroup{ID: app, State: "Empty", GroupEpoch: 4, AssignmentEpoch: 4,
		Topology: &playground.Topology{Subtopologies: []playground.Subtopology{
			{ID: "0", SourceTopics: []string{"up-in"}, RepartitionSinkTopics: []string{"up-app-by-key-repartition"}},
			{ID: "1", RepartitionSourceTopics: []playground.TopicInfo{{Name: "up-app-by-key-repartition"}},
				StateChangelogTopics: []playground.TopicInfo{{Name: "up-app-counts-changelog"}}},
		}},
		Description: toState(stored(t))})
	for p, o := range []int64{4, 4, 4} {
		c.SetLogOffsets("up-in", int32(p), 0, o)
		c.Commit(app, playground.Committed{Topic: "up-in", Partition: int32(p), Offset: o, LeaderEpoch: -1})
	}
	for p, o := range []int64{3, 3, 6} {
		c.SetLogOffsets("up-app-by-key-repartition", int32(p), 0, o)
		c.Commit(app, playground.Committed{Topic: "up-app-by-key-repartition", Partition: int32(p), Offset: o, LeaderEpoch: -1})
		c.SetLogOffsets("up-app-counts-changelog", int32(p), 0, 3)
	}
	cl, err := admin.New(admin.Config{Bootstrap: c.Addrs()})
	require.NoError(t, err)
	t.Cleanup(cl.Close)
	k, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs()...), kgo.MaxVersions(kversion.V4_4_0()), kgo.RequestRetries(0))
	require.NoError(t, err)
	t.Cleanup(k.Close)
	_, err = k.Request(ctxOf(t), kmsg.NewPtrMetadataRequest()) // kgo learns the brokers
	require.NoError(t, err)
	return &pg{c: c, client: cl, kgo: k}
}

// toState converts a model into the playground's description.
func toState(d *topology.Description) *playground.Description {
	w := topologytest.ToWire(d)
	out := &playground.Description{}
	node := func(n kmsg.TopologyDescriptionNode) playground.Node {
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
	return out
}

func ctxOf(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func readFile(t *testing.T) func(string) (*topology.Description, error) {
	return func(file string) (*topology.Description, error) { return read(t, filepath.Base(file)), nil }
}

// journal keeps what apply records, as the command's file would.
type journal struct {
	last   *upgrade.Journal
	writes int
	fail   error
	steps  []upgrade.Step
}

func (j *journal) hooks() upgrade.ApplyHooks {
	return upgrade.ApplyHooks{
		Record: func(jr upgrade.Journal) error {
			if j.fail != nil {
				return j.fail
			}
			j.writes++
			j.last = &jr
			return nil
		},
		Progress: func(s upgrade.Step) { j.steps = append(j.steps, s) },
	}
}

func applyOpts(newFile string, execute bool, accept ...string) upgrade.ApplyOptions {
	return upgrade.ApplyOptions{Options: upgrade.Options{Group: app, New: newFile}, Execute: execute, AcceptStateLoss: accept, Export: "up-app.csv"}
}

// join sends a Streams member's first heartbeat with a topology of the
// measured application.
func (p *pg) join(t *testing.T, member, store, repartition string) *kmsg.StreamsGroupHeartbeatResponse {
	t.Helper()
	topo := kmsg.NewStreamsGroupHeartbeatRequestTopology()
	s0 := kmsg.NewStreamsGroupHeartbeatRequestTopologySubtopology()
	s0.SubtopologyID, s0.SourceTopics = "0", []string{"up-in"}
	s0.RepartitionSinkTopics = []string{"up-app-" + repartition + "-repartition"}
	s1 := kmsg.NewStreamsGroupHeartbeatRequestTopologySubtopology()
	s1.SubtopologyID = "1"
	rp, cl := kmsg.NewTopicInfo(), kmsg.NewTopicInfo()
	rp.Topic, cl.Topic = "up-app-"+repartition+"-repartition", "up-app-"+store+"-changelog"
	s1.RepartitionSourceTopics, s1.StateChangelogTopics = []kmsg.TopicInfo{rp}, []kmsg.TopicInfo{cl}
	topo.Subtopologies = []kmsg.StreamsGroupHeartbeatRequestTopologySubtopology{s0, s1}
	req := kmsg.NewPtrStreamsGroupHeartbeatRequest()
	req.Group, req.MemberID, req.Topology, req.RebalanceTimeoutMillis = app, member, &topo, 300000
	// One node: the coordinator of every group. kgo cannot route this key
	// itself.
	resp, err := p.kgo.Broker(0).Request(ctxOf(t), req)
	require.NoError(t, err)
	return resp.(*kmsg.StreamsGroupHeartbeatResponse)
}

func (p *pg) listed(t *testing.T) admin.AnyGroup {
	t.Helper()
	all, err := p.client.ListAllGroups(ctxOf(t))
	require.NoError(t, err)
	for _, g := range all {
		if g.Group == app {
			return g
		}
	}
	return admin.AnyGroup{}
}

func committed(c *playground.Cluster) map[string]int64 {
	out := map[string]int64{}
	for _, o := range c.CommittedOffsets(app) {
		out[o.Topic+"-"+string(rune('0'+o.Partition))] = o.Offset
	}
	return out
}

var v1Offsets = map[string]int64{"up-in-0": 4, "up-in-1": 4, "up-in-2": 4,
	"up-app-by-key-repartition-0": 3, "up-app-by-key-repartition-1": 3, "up-app-by-key-repartition-2": 6}

func stepKinds(steps []upgrade.Step) (done []upgrade.StepKind) {
	for _, s := range steps {
		if s.Done {
			done = append(done, s.Kind)
		}
	}
	return done
}

func TestApply_executeReadsBackAndConfirms(t *testing.T) {
	t.Parallel()
	p := startPlayground(t)
	var j journal
	res, err := upgrade.Apply(ctxOf(t), upgrade.ApplySources{Client: p.client, Read: readFile(t)}, applyOpts("v2.txt", true, "counts"), j.hooks())
	require.NoError(t, err)
	require.NoError(t, res.Err)
	assert.Equal(t, upgrade.ApplyDone, res.Outcome())
	assert.Equal(t, upgrade.Steps, stepKinds(res.Steps))
	assert.Equal(t, res.Steps, j.steps, "every step told as it ended")
	assert.Equal(t, upgrade.StepConfirm, j.last.Step)
	assert.Len(t, j.last.Offsets, 6)
	assert.Equal(t, []string{"up-app-counts-changelog"}, j.last.LeftBehind)

	g := p.listed(t)
	assert.Equal(t, []string{"classic", "", "Empty"}, []string{g.Type, g.ProtocolType, g.State})
	assert.Equal(t, v1Offsets, committed(p.c))

	// The new version starts: its first heartbeat converts the group.
	require.Zero(t, p.join(t, "v2", "counts-v2", "by-key").ErrorCode)
	v, err := upgrade.Verify(ctxOf(t), upgrade.VerifySources{Client: p.client, Read: readFile(t)},
		upgrade.VerifyOptions{Options: upgrade.Options{Group: app, New: "v2.txt"}, Journal: j.last})
	require.NoError(t, err)
	require.NoError(t, v.Err)
	assert.Equal(t, upgrade.Verified, v.Outcome, v.Reason)
	assert.Equal(t, 6, v.Checked)
	assert.Equal(t, []string{"up-app-counts-changelog"}, v.OldTopics)
}

func TestApply_dryRunChangesNothing(t *testing.T) {
	t.Parallel()
	p := startPlayground(t)
	var j journal
	res, err := upgrade.Apply(ctxOf(t), upgrade.ApplySources{Client: p.client, Read: readFile(t)}, applyOpts("v2.txt", false, "counts"), j.hooks())
	require.NoError(t, err)
	assert.Equal(t, upgrade.ApplyDone, res.Outcome())
	assert.Equal(t, []upgrade.StepKind{upgrade.StepCheck}, stepKinds(res.Steps))
	assert.Len(t, res.Steps, len(upgrade.Steps), "the steps it would take are listed")
	assert.Zero(t, j.writes)
	assert.Equal(t, "streams", p.listed(t).Type)
	assert.Equal(t, v1Offsets, committed(p.c))
}

func TestApply_refusals(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		newFile string
		accept  []string
		setup   func(*pg)
		want    upgrade.ApplyOutcome
		refusal string
	}{
		"store renamed, loss not accepted": {newFile: "v2.txt", want: upgrade.ApplyRefused, refusal: "store counts is renamed"},
		"accepting a store that is kept":   {newFile: "v4.txt", accept: []string{"counts"}, want: upgrade.ApplyRefused, refusal: "--accept-state-loss names counts"},
		"repartition renamed, not drained": {newFile: "v4.txt", want: upgrade.ApplyRefused, refusal: "repartition-not-drained",
			setup: func(p *pg) { p.c.SetLogOffsets("up-app-by-key-repartition", 2, 0, 10) }},
		"group not empty": {newFile: "v2.txt", accept: []string{"counts"}, want: upgrade.ApplyRefused, refusal: "precondition group-empty does not hold",
			setup: func(p *pg) {
				p.c.PutStreamsGroup(playground.StreamsGroup{ID: app, State: "Stable", Members: []playground.Member{{MemberID: "m"}},
					Topology:    &playground.Topology{Subtopologies: []playground.Subtopology{{ID: "0", SourceTopics: []string{"up-in"}}}},
					Description: toState(stored(t))})
			}},
		"accepted as is": {newFile: "v3.txt", want: upgrade.ApplyNothing},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := startPlayground(t)
			if tt.setup != nil {
				tt.setup(p)
			}
			var j journal
			res, err := upgrade.Apply(ctxOf(t), upgrade.ApplySources{Client: p.client, Read: readFile(t)}, applyOpts(tt.newFile, true, tt.accept...), j.hooks())
			require.NoError(t, err)
			assert.Equal(t, tt.want, res.Outcome())
			if tt.refusal != "" {
				require.NotEmpty(t, res.Refusals)
				assert.Contains(t, res.Refusals[0], tt.refusal)
			}
			assert.Zero(t, j.writes, "nothing exported")
			assert.Equal(t, "streams", p.listed(t).Type, "nothing deleted")
		})
	}
}

// TestApply_resumeFromEveryStop interrupts apply at each step (a broker
// error, a cancelled context, a journal that cannot be written, another
// client's commit) and resumes from the journal.
func TestApply_resumeFromEveryStop(t *testing.T) {
	t.Parallel()
	denied := int16(30) // GROUP_AUTHORIZATION_FAILED: not retried
	tests := map[string]struct {
		fault *playground.Fault
		// during runs in Progress after the step of that kind.
		during     map[upgrade.StepKind]func(p *pg, cancel context.CancelFunc)
		recordErr  error
		wantStop   upgrade.Stopped
		wantFailed upgrade.StepKind
		wantResume []upgrade.StepKind // steps the resume did itself
	}{
		"export cannot be written": {recordErr: errors.New("disk full"), wantStop: upgrade.StoppedUnchanged, wantFailed: upgrade.StepExport},
		"delete refused": {fault: &playground.Fault{Key: 42, Group: app, ErrorCode: denied, Times: 1}, wantStop: upgrade.StoppedUnchanged,
			wantFailed: upgrade.StepDelete, wantResume: []upgrade.StepKind{upgrade.StepCheck, upgrade.StepDelete, upgrade.StepCommit, upgrade.StepReadBack, upgrade.StepConfirm}},
		"commit refused": {fault: &playground.Fault{Key: 8, Group: app, ErrorCode: denied, Times: 1}, wantStop: upgrade.StoppedDeleted,
			wantFailed: upgrade.StepCommit, wantResume: []upgrade.StepKind{upgrade.StepCommit, upgrade.StepReadBack, upgrade.StepConfirm}},
		"cancelled after the delete": {during: map[upgrade.StepKind]func(*pg, context.CancelFunc){upgrade.StepDelete: func(_ *pg, cancel context.CancelFunc) { cancel() }},
			wantStop: upgrade.StoppedDeleted, wantFailed: upgrade.StepCommit, wantResume: []upgrade.StepKind{upgrade.StepCommit, upgrade.StepReadBack, upgrade.StepConfirm}},
		"read-back refused": {during: map[upgrade.StepKind]func(*pg, context.CancelFunc){upgrade.StepCommit: func(p *pg, _ context.CancelFunc) {
			p.c.InjectError(playground.Fault{Key: 9, Group: app, ErrorCode: denied, Times: 1})
		}}, wantStop: upgrade.StoppedCommitted,
			wantFailed: upgrade.StepReadBack, wantResume: []upgrade.StepKind{upgrade.StepReadBack, upgrade.StepConfirm}},
		"read-back differs": {during: map[upgrade.StepKind]func(*pg, context.CancelFunc){upgrade.StepCommit: func(p *pg, _ context.CancelFunc) {
			p.c.Commit(app, playground.Committed{Topic: "up-in", Partition: 1, Offset: 1, LeaderEpoch: -1})
		}}, wantStop: upgrade.StoppedMismatch, wantFailed: upgrade.StepReadBack, wantResume: []upgrade.StepKind{upgrade.StepCommit, upgrade.StepReadBack, upgrade.StepConfirm}},
		"confirm cannot list": {fault: &playground.Fault{Key: 16, ErrorCode: denied, Times: 1}, wantStop: upgrade.StoppedCommitted,
			wantFailed: upgrade.StepConfirm, wantResume: []upgrade.StepKind{upgrade.StepReadBack, upgrade.StepConfirm}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := startPlayground(t)
			if tt.fault != nil {
				p.c.InjectError(*tt.fault)
			}
			ctx, cancel := context.WithCancel(ctxOf(t))
			defer cancel()
			j := journal{fail: tt.recordErr}
			hooks := j.hooks()
			progress := hooks.Progress
			hooks.Progress = func(s upgrade.Step) {
				progress(s)
				if f := tt.during[s.Kind]; f != nil && s.Done {
					f(p, cancel)
				}
			}
			res, err := upgrade.Apply(ctx, upgrade.ApplySources{Client: p.client, Read: readFile(t)}, applyOpts("v2.txt", true, "counts"), hooks)
			require.NotNil(t, res)
			if ctx.Err() != nil {
				require.ErrorIs(t, err, context.Canceled)
			}
			require.Error(t, res.Err)
			assert.Equal(t, tt.wantStop, res.Stopped)
			require.NotEmpty(t, res.Steps)
			last := res.Steps[len(res.Steps)-1]
			assert.Equal(t, tt.wantFailed, last.Kind)
			assert.False(t, last.Done)
			if tt.recordErr != nil {
				assert.Equal(t, "streams", p.listed(t).Type, "nothing deleted without an export")
				assert.Equal(t, v1Offsets, committed(p.c))
				return
			}
			require.NotNil(t, j.last, "the journal was written before the delete")

			var rj journal
			resumed, err := upgrade.Resume(ctxOf(t), p.client, *j.last, "up-app.csv", rj.hooks())
			require.NoError(t, err)
			require.NoError(t, resumed.Err)
			assert.Equal(t, upgrade.ApplyDone, resumed.Outcome())
			var own []upgrade.StepKind
			for _, s := range resumed.Steps {
				if s.Done && !s.Earlier {
					own = append(own, s.Kind)
				}
			}
			assert.Equal(t, tt.wantResume, own)
			g := p.listed(t)
			assert.Equal(t, []string{"classic", "", "Empty"}, []string{g.Type, g.ProtocolType, g.State})
			assert.Equal(t, v1Offsets, committed(p.c))
		})
	}
}

func TestResume_somethingElseTookTheGroup(t *testing.T) {
	t.Parallel()
	p := startPlayground(t)
	p.c.InjectError(playground.Fault{Key: 8, Group: app, ErrorCode: 30, Times: 1})
	var j journal
	res, err := upgrade.Apply(ctxOf(t), upgrade.ApplySources{Client: p.client, Read: readFile(t)}, applyOpts("v2.txt", true, "counts"), j.hooks())
	require.NoError(t, err)
	require.Equal(t, upgrade.StoppedDeleted, res.Stopped)

	// The old version started on the absent id before the commit.
	require.Zero(t, p.join(t, "v1", "counts", "by-key").ErrorCode)
	resumed, err := upgrade.Resume(ctxOf(t), p.client, *j.last, "up-app.csv", upgrade.ApplyHooks{})
	require.NoError(t, err)
	assert.Equal(t, upgrade.StoppedTaken, resumed.Stopped)
	assert.Equal(t, upgrade.ApplyInterrupted, resumed.Outcome())
	var taken *upgrade.TakenError
	require.ErrorAs(t, resumed.Err, &taken)
	assert.Empty(t, p.c.CommittedOffsets(app), "nothing committed to a group something else holds")
}

func TestVerify_outcomes(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		after       func(t *testing.T, p *pg)
		want        upgrade.VerifyOutcome
		oldTopology bool
		backwards   int
		reason      string
	}{
		"not started yet": {after: func(*testing.T, *pg) {}, want: upgrade.NotYet, reason: "still the Empty classic group"},
		"new topology Stable": {after: func(t *testing.T, p *pg) {
			require.Zero(t, p.join(t, "v2", "counts-v2", "by-key").ErrorCode)
		}, want: upgrade.Verified},
		"old instance first": {after: func(t *testing.T, p *pg) {
			require.Zero(t, p.join(t, "v1", "counts", "by-key").ErrorCode)
			assert.NotZero(t, p.join(t, "v2", "counts-v2", "by-key").ErrorCode, "the broker refuses v2 again")
		}, want: upgrade.VerifyFailed, oldTopology: true, reason: "an instance of the old version joined first"},
		"an offset moved backwards": {after: func(t *testing.T, p *pg) {
			require.Zero(t, p.join(t, "v2", "counts-v2", "by-key").ErrorCode)
			p.c.Commit(app, playground.Committed{Topic: "up-in", Partition: 2, Offset: 0, LeaderEpoch: -1})
		}, want: upgrade.VerifyFailed, backwards: 1, reason: "moved backwards"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := startPlayground(t)
			var j journal
			res, err := upgrade.Apply(ctxOf(t), upgrade.ApplySources{Client: p.client, Read: readFile(t)}, applyOpts("v2.txt", true, "counts"), j.hooks())
			require.NoError(t, err)
			require.Equal(t, upgrade.ApplyDone, res.Outcome())
			tt.after(t, p)
			v, err := upgrade.Verify(ctxOf(t), upgrade.VerifySources{Client: p.client, Read: readFile(t)},
				upgrade.VerifyOptions{Options: upgrade.Options{Group: app, New: "v2.txt"}, Journal: j.last})
			require.NoError(t, err)
			require.NoError(t, v.Err)
			assert.Equal(t, tt.want, v.Outcome, v.Reason)
			assert.Equal(t, tt.oldTopology, v.OldTopology)
			assert.Len(t, v.Backwards, tt.backwards)
			assert.Contains(t, v.Reason, tt.reason)
		})
	}
}

func TestVerify_waitsUntilTheNewVersionJoins(t *testing.T) {
	t.Parallel()
	p := startPlayground(t)
	var j journal
	_, err := upgrade.Apply(ctxOf(t), upgrade.ApplySources{Client: p.client, Read: readFile(t)}, applyOpts("v2.txt", true, "counts"), j.hooks())
	require.NoError(t, err)
	joined := make(chan struct{})
	read := readFile(t)
	asked := 0
	src := upgrade.VerifySources{Client: p.client, Read: read}
	// The new version joins after verify's first ask.
	src.Client = &joinAfterFirst{VerifyClient: p.client, join: func() {
		asked++
		if asked == 2 {
			p.join(t, "v2", "counts-v2", "by-key")
			close(joined)
		}
	}}
	v, err := upgrade.Verify(ctxOf(t), src, upgrade.VerifyOptions{Options: upgrade.Options{Group: app, New: "v2.txt"}, Journal: j.last,
		Wait: time.Minute, Interval: time.Millisecond})
	require.NoError(t, err)
	<-joined
	assert.Equal(t, upgrade.Verified, v.Outcome, v.Reason)
	assert.Equal(t, 2, v.Asks)
}

// joinAfterFirst runs join before each listing.
type joinAfterFirst struct {
	upgrade.VerifyClient
	join func()
}

func (j *joinAfterFirst) ListAllGroups(ctx context.Context) ([]admin.AnyGroup, error) {
	j.join()
	return j.VerifyClient.ListAllGroups(ctx)
}

// v4 renames the drained repartition topic: its offsets are carried (the
// export stays whole) and, once v4 runs, listed as stale with the old
// topic, for inventory --orphans.
func TestVerify_listsWhatIsLeftBehind(t *testing.T) {
	t.Parallel()
	p := startPlayground(t)
	var j journal
	res, err := upgrade.Apply(ctxOf(t), upgrade.ApplySources{Client: p.client, Read: readFile(t)}, applyOpts("v4.txt", true), j.hooks())
	require.NoError(t, err)
	require.Equal(t, upgrade.ApplyDone, res.Outcome(), res.Refusals)
	require.Zero(t, p.join(t, "v4", "counts", "by-key-v2").ErrorCode)
	v, err := upgrade.Verify(ctxOf(t), upgrade.VerifySources{Client: p.client, Read: readFile(t)},
		upgrade.VerifyOptions{Options: upgrade.Options{Group: app, New: "v4.txt"}, Journal: j.last})
	require.NoError(t, err)
	assert.Equal(t, upgrade.Verified, v.Outcome, v.Reason)
	assert.Equal(t, 3, v.Checked, "the input offsets; the old repartition topic is not read any more")
	assert.Equal(t, []string{"up-app-by-key-repartition"}, v.OldTopics)
	assert.Len(t, v.StaleOffsets, 3)
	assert.Equal(t, "up-app-by-key-repartition", v.StaleOffsets[0].Topic)
}

// The cluster goes away after the delete: the commit fails when the
// command's time is up, and the state says the offsets are only in the
// export.
func TestApply_clusterLostAfterTheDelete(t *testing.T) {
	t.Parallel()
	p := startPlayground(t)
	ctx, cancel := context.WithTimeout(ctxOf(t), 2*time.Second)
	defer cancel()
	var j journal
	hooks := j.hooks()
	hooks.Progress = func(s upgrade.Step) {
		if s.Kind == upgrade.StepDelete && s.Done {
			_ = p.c.Close()
		}
	}
	res, err := upgrade.Apply(ctx, upgrade.ApplySources{Client: p.client, Read: readFile(t)}, applyOpts("v2.txt", true, "counts"), hooks)
	require.NoError(t, err, "a deadline is no signal")
	assert.Equal(t, upgrade.StoppedDeleted, res.Stopped)
	assert.Equal(t, upgrade.ApplyInterrupted, res.Outcome())
	assert.Equal(t, upgrade.StepDelete, j.last.Step, "the journal says the delete was done")
	assert.Len(t, j.last.Offsets, 6)
}

// F652: an application started after the delete and before the commit
// re-reads its inputs from the earliest offset; once it committed past the
// export, only the journal tells.
func TestVerify_startedBeforeTheCommit(t *testing.T) {
	t.Parallel()
	p := startPlayground(t)
	p.c.InjectError(playground.Fault{Key: 8, Group: app, ErrorCode: 30, Times: 1})
	var j journal
	res, err := upgrade.Apply(ctxOf(t), upgrade.ApplySources{Client: p.client, Read: readFile(t)}, applyOpts("v2.txt", true, "counts"), j.hooks())
	require.NoError(t, err)
	require.Equal(t, upgrade.StoppedDeleted, res.Stopped)
	require.Zero(t, p.join(t, "v2", "counts-v2", "by-key").ErrorCode)
	for part := range int32(3) {
		p.c.Commit(app, playground.Committed{Topic: "up-in", Partition: part, Offset: 8, LeaderEpoch: -1})
		p.c.Commit(app, playground.Committed{Topic: "up-app-by-key-repartition", Partition: part, Offset: 9, LeaderEpoch: -1})
	}
	v, err := upgrade.Verify(ctxOf(t), upgrade.VerifySources{Client: p.client, Read: readFile(t)},
		upgrade.VerifyOptions{Options: upgrade.Options{Group: app, New: "v2.txt"}, Journal: j.last})
	require.NoError(t, err)
	assert.Equal(t, upgrade.VerifyFailed, v.Outcome)
	assert.Contains(t, v.Reason, "started before the commit")
	assert.Empty(t, v.Backwards, "every offset is past the export")
}

// A group that committed no offset: the migration carries nothing, so the
// commit creates no group (a real broker answers an OffsetCommit with no
// topic without reaching the coordinator) and the id stays absent until
// the new version's first heartbeat. apply, and its resume, end there
// done, not "stopped" at a confirm that can never succeed.
func TestApply_nothingCommittedEndsWithTheGroupAbsent(t *testing.T) {
	t.Parallel()
	p := startPlayground(t)
	// The group as startPlayground puts it, its offsets deleted with it.
	deleted := p.client.DeleteGroups(ctxOf(t), []string{app})
	require.Len(t, deleted, 1)
	require.NoError(t, deleted[0].Err)
	p.c.PutStreamsGroup(playground.StreamsGroup{ID: app, State: "Empty", GroupEpoch: 4, AssignmentEpoch: 4,
		Topology: &playground.Topology{Subtopologies: []playground.Subtopology{
			{ID: "0", SourceTopics: []string{"up-in"}, RepartitionSinkTopics: []string{"up-app-by-key-repartition"}},
			{ID: "1", RepartitionSourceTopics: []playground.TopicInfo{{Name: "up-app-by-key-repartition"}},
				StateChangelogTopics: []playground.TopicInfo{{Name: "up-app-counts-changelog"}}},
		}},
		Description: toState(stored(t))})
	for part := range int32(3) {
		p.c.SetLogOffsets("up-app-by-key-repartition", part, 0, 0) // drained: nothing in flight
	}
	require.Empty(t, p.c.CommittedOffsets(app))

	var j journal
	res, err := upgrade.Apply(ctxOf(t), upgrade.ApplySources{Client: p.client, Read: readFile(t)}, applyOpts("v2.txt", true, "counts"), j.hooks())
	require.NoError(t, err)
	require.NoError(t, res.Err)
	assert.Equal(t, upgrade.ApplyDone, res.Outcome())
	assert.Equal(t, upgrade.Steps, stepKinds(res.Steps))
	assert.True(t, res.Absent)
	assert.Empty(t, p.listed(t).Group, "the id is absent: the new version creates the group")

	resumed, err := upgrade.Resume(ctxOf(t), p.client, *j.last, "up-app.csv", upgrade.ApplyHooks{})
	require.NoError(t, err)
	require.NoError(t, resumed.Err)
	assert.Equal(t, upgrade.ApplyDone, resumed.Outcome())
}

// A resume before the delete goes on only when the export holds every
// offset the group has committed: an export file that lost lines (cut
// short, edited, another group's) or a partition committed since the
// export must not get the group deleted with offsets nowhere else.
func TestResume_exportMissingAnOffsetDeletesNothing(t *testing.T) {
	t.Parallel()
	for name, keep := range map[string]int{"lines lost": 3, "none of the group's": 0} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := startPlayground(t)
			p.c.InjectError(playground.Fault{Key: 42, Group: app, ErrorCode: 30, Times: 1})
			var j journal
			res, err := upgrade.Apply(ctxOf(t), upgrade.ApplySources{Client: p.client, Read: readFile(t)}, applyOpts("v2.txt", true, "counts"), j.hooks())
			require.NoError(t, err)
			require.Equal(t, upgrade.StoppedUnchanged, res.Stopped)

			cut := *j.last
			cut.Offsets = cut.Offsets[:keep]
			resumed, err := upgrade.Resume(ctxOf(t), p.client, cut, "up-app.csv", upgrade.ApplyHooks{})
			require.NoError(t, err)
			require.Error(t, resumed.Err)
			assert.Equal(t, upgrade.StoppedUnchanged, resumed.Stopped)
			assert.Equal(t, "streams", p.listed(t).Type, "the group is not deleted")
			assert.Equal(t, v1Offsets, committed(p.c))
		})
	}
}
