package history

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	cr "github.com/kstreams-groups/kstreams-groups/internal/coordrecords"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// t0 is the time of the scripts' first write.
var t0 = time.Date(2026, 12, 6, 3, 12, 0, 0, time.UTC)

// rec is one record of a script's write: a key and a value (nil: a
// tombstone).
type rec struct {
	key   cr.Key
	value cr.Value
}

// script writes the coordinator's records as a 4.4 coordinator would,
// one batch per write, for the group "app" (and others).
type script struct {
	recs   []admin.LogRecord
	offset int64
}

// write appends one batch at t0+at; skip leaves offsets out before it (a
// hole compaction made).
func (s *script) write(at time.Duration, rs ...rec) { s.writeAfter(0, at, rs...) }

func (s *script) writeAfter(skip int64, at time.Duration, rs ...rec) {
	s.offset += skip
	batch := s.offset
	for i, r := range rs {
		lr := admin.LogRecord{Offset: s.offset, Timestamp: t0.Add(at).UnixMilli(), Batch: batch, Key: cr.EncodeKey(r.key), Value: cr.EncodeValue(r.value)}
		lr.Gap = i == 0 && skip > 0
		s.recs = append(s.recs, lr)
		s.offset++
	}
}

func str(s string) *string { return &s }

const group = "app"

func memberRec(id, process string, instance *string, topoEpoch int32) rec {
	return rec{cr.Key{Type: cr.TypeStreamsGroupMemberMetadata, GroupID: group, MemberID: id},
		&cr.MemberMetadata{InstanceID: instance, ClientID: "client-" + id, ClientHost: "/10.0.0." + process, ProcessID: process,
			RebalanceTimeoutMs: 300000, TopologyEpoch: topoEpoch, ClientTags: []cr.KeyValue{}}}
}

func memberGone(id string) rec {
	return rec{cr.Key{Type: cr.TypeStreamsGroupMemberMetadata, GroupID: group, MemberID: id}, nil}
}

func metaRec(epoch int32, hash int64, configs ...cr.KeyValue) rec {
	v := cr.NewGroupMetadata()
	v.Epoch, v.MetadataHash, v.LastAssignmentConfigs = epoch, hash, configs
	return rec{cr.Key{Type: cr.TypeStreamsGroupMetadata, GroupID: group}, v}
}

func topoRec(epoch int32, subs ...cr.Subtopology) rec {
	return rec{cr.Key{Type: cr.TypeStreamsGroupTopology, GroupID: group}, &cr.Topology{Epoch: epoch, Subtopologies: subs}}
}

func sub(id string, sources ...string) cr.Subtopology {
	return cr.Subtopology{SubtopologyID: id, SourceTopics: sources}
}

func tasks(sub string, parts ...int32) []cr.TaskIDs {
	if len(parts) == 0 {
		return nil
	}
	return []cr.TaskIDs{{SubtopologyID: sub, Partitions: parts}}
}

func targetRec(id string, active, standby, warmup []cr.TaskIDs) rec {
	return rec{cr.Key{Type: cr.TypeStreamsGroupTargetAssignmentMember, GroupID: group, MemberID: id},
		&cr.TargetAssignmentMember{ActiveTasks: active, StandbyTasks: standby, WarmupTasks: warmup}}
}

func targetGone(id string) rec {
	return rec{cr.Key{Type: cr.TypeStreamsGroupTargetAssignmentMember, GroupID: group, MemberID: id}, nil}
}

func targetMeta(epoch int32) rec {
	return rec{cr.Key{Type: cr.TypeStreamsGroupTargetAssignmentMetadata, GroupID: group},
		&cr.TargetAssignmentMetadata{AssignmentEpoch: epoch, AssignmentTimestamp: t0.UnixMilli()}}
}

func currentRec(id string, epoch int32, state int8, active []cr.TaskIDs) rec {
	return rec{cr.Key{Type: cr.TypeStreamsGroupCurrentMemberAssignment, GroupID: group, MemberID: id},
		&cr.CurrentMemberAssignment{MemberEpoch: epoch, PreviousMemberEpoch: epoch - 1, State: state, ActiveTasks: active}}
}

func currentGone(id string) rec {
	return rec{cr.Key{Type: cr.TypeStreamsGroupCurrentMemberAssignment, GroupID: group, MemberID: id}, nil}
}

// fakeClient serves a script's log for one partition of 1.
type fakeClient struct {
	recs     []admin.LogRecord
	topicErr error
	readErr  error
	reads    []admin.LogRead
}

func (f *fakeClient) DescribeTopics(_ context.Context, topics []string) ([]admin.TopicInfo, error) {
	return []admin.TopicInfo{{Topic: topics[0], Partitions: []admin.PartitionInfo{{Partition: 0, Leader: 1}}, Err: f.topicErr}}, nil
}

func (f *fakeClient) ReadLog(_ context.Context, q admin.LogRead, fn func(admin.LogRecord) error) (admin.LogReadStats, error) {
	f.reads = append(f.reads, q)
	st := admin.LogReadStats{LogStart: 0, End: int64(len(f.recs)), Next: q.From}
	if f.readErr != nil {
		return st, f.readErr
	}
	for _, r := range f.recs {
		if r.Offset < q.From {
			continue
		}
		st.Bytes += int64(len(r.Key) + len(r.Value))
		if err := fn(r); err != nil {
			return st, err
		}
		st.Next = r.Offset + 1
	}
	if len(f.recs) > 0 {
		st.End = f.recs[len(f.recs)-1].Offset + 1
	}
	return st, nil
}

// base is a group of one member, A on process pA, created at t0 with
// sub-topology 0 on topic "in" (3 partitions): epoch 1.
func base() *script {
	s := &script{}
	s.write(0, memberRec("A", "pA", nil, 0), topoRec(0, sub("0", "in")), metaRec(1, 10, cr.KeyValue{Key: "num.standby.replicas", Value: "0"}),
		targetRec("A", tasks("0", 0, 1, 2), nil, nil), targetMeta(1), currentRec("A", 1, cr.MemberStable, tasks("0", 0, 1, 2)))
	return s
}

// baseEntry is base's one entry: the group's creation.
var baseEntry = Entry{Time: t0, Offset: 2, GroupEpoch: 1, PreviousEpoch: 0, Members: 1,
	Causes:   []Cause{{Kind: MemberJoined, Member: member("A", "pA", "")}},
	Assigned: true, Moved: Moves{Active: []ActiveMove{{Task{"0", 0}, "", "pA"}, {Task{"0", 1}, "", "pA"}, {Task{"0", 2}, "", "pA"}}},
	Converged: true}

func member(id, process, instance string) *Member {
	return &Member{MemberID: id, ProcessID: process, Host: "/10.0.0." + process, ClientID: "client-" + id, InstanceID: instance}
}

func read(t *testing.T, s *script, opts Options) *Result {
	t.Helper()
	opts.Group = group
	res, err := Run(context.Background(), &fakeClient{recs: s.recs}, opts)
	require.NoError(t, err)
	require.NoError(t, res.Err)
	return res
}

func TestTimeline(t *testing.T) {
	for _, tc := range []struct {
		name   string
		script func() *script
		want   []Entry
	}{
		{"a group created", base, nil},
		{"a second member joins and the group converges 3 s later", func() *script {
			s := base()
			s.write(time.Minute, memberRec("B", "pB", nil, 0), metaRec(2, 10, cr.KeyValue{Key: "num.standby.replicas", Value: "0"}),
				targetRec("A", tasks("0", 0, 1), nil, nil), targetRec("B", tasks("0", 2), nil, nil), targetMeta(2),
				currentRec("B", 2, cr.MemberUnreleasedTasks, nil))
			s.write(time.Minute+time.Second, currentRec("A", 2, cr.MemberStable, tasks("0", 0, 1)))
			s.write(time.Minute+3*time.Second, currentRec("B", 2, cr.MemberStable, tasks("0", 2)))
			return s
		}, []Entry{{Time: t0.Add(time.Minute), Offset: 7, GroupEpoch: 2, PreviousEpoch: 1, Members: 2,
			Causes:   []Cause{{Kind: MemberJoined, Member: member("B", "pB", "")}},
			Assigned: true, Moved: Moves{Active: []ActiveMove{{Task{"0", 2}, "pA", "pB"}}},
			Converged: true, ConvergedAfter: 3 * time.Second}}},
		{"a member removed", func() *script {
			s := base()
			s.write(time.Minute, memberRec("B", "pB", nil, 0), metaRec(2, 10, cr.KeyValue{Key: "num.standby.replicas", Value: "0"}),
				targetRec("A", tasks("0", 0, 1), nil, nil), targetRec("B", tasks("0", 2), nil, nil), targetMeta(2))
			s.write(2*time.Minute, currentGone("B"), targetGone("B"), memberGone("B"), metaRec(3, 10, cr.KeyValue{Key: "num.standby.replicas", Value: "0"}),
				targetRec("A", tasks("0", 0, 1, 2), nil, nil), targetMeta(3), currentRec("A", 3, cr.MemberStable, tasks("0", 0, 1, 2)))
			return s
		}, []Entry{
			{Time: t0.Add(time.Minute), Offset: 7, GroupEpoch: 2, PreviousEpoch: 1, Members: 2, Causes: []Cause{{Kind: MemberJoined, Member: member("B", "pB", "")}},
				Assigned: true, Moved: Moves{Active: []ActiveMove{{Task{"0", 2}, "pA", "pB"}}}},
			{Time: t0.Add(2 * time.Minute), Offset: 14, GroupEpoch: 3, PreviousEpoch: 2, Members: 1, Causes: []Cause{{Kind: MemberRemoved, Member: member("B", "pB", "")}},
				Assigned: true, Moved: Moves{Active: []ActiveMove{{Task{"0", 2}, "pB", "pA"}}}, Converged: true},
		}},
		{"a static member back with a new member id and the same metadata: no rebalance", func() *script {
			s := base()
			s.write(time.Minute, memberRec("S1", "pS", str("inst-s"), 0), metaRec(2, 10, cr.KeyValue{Key: "num.standby.replicas", Value: "0"}),
				targetRec("A", tasks("0", 0, 1), nil, nil), targetRec("S1", tasks("0", 2), nil, nil), targetMeta(2))
			s.write(2*time.Minute, currentRec("S1", -2, cr.MemberStable, tasks("0", 2)))
			s.write(3*time.Minute, currentGone("S1"), targetGone("S1"), memberGone("S1"),
				memberRec("S2", "pS", str("inst-s"), 0), targetRec("S2", tasks("0", 2), nil, nil), currentRec("S2", 2, cr.MemberStable, tasks("0", 2)))
			return s
		}, []Entry{{Time: t0.Add(time.Minute), Offset: 7, GroupEpoch: 2, PreviousEpoch: 1, Members: 2, Causes: []Cause{{Kind: MemberJoined, Member: member("S1", "pS", "inst-s")}},
			Assigned: true, Moved: Moves{Active: []ActiveMove{{Task{"0", 2}, "pA", "pS"}}}}}},
		{"a static member back with a new process id: rejoined, never joined", func() *script {
			s := base()
			s.write(time.Minute, memberRec("S1", "pS", str("inst-s"), 0), metaRec(2, 10, cr.KeyValue{Key: "num.standby.replicas", Value: "0"}),
				targetRec("A", tasks("0", 0, 1), nil, nil), targetRec("S1", tasks("0", 2), nil, nil), targetMeta(2))
			s.write(3*time.Minute, currentGone("S1"), targetGone("S1"), memberGone("S1"),
				memberRec("S2", "pT", str("inst-s"), 0), metaRec(3, 10, cr.KeyValue{Key: "num.standby.replicas", Value: "0"}),
				targetRec("S2", tasks("0", 2), nil, nil), targetMeta(3))
			return s
		}, []Entry{
			{Time: t0.Add(time.Minute), Offset: 7, GroupEpoch: 2, PreviousEpoch: 1, Members: 2, Causes: []Cause{{Kind: MemberJoined, Member: member("S1", "pS", "inst-s")}},
				Assigned: true, Moved: Moves{Active: []ActiveMove{{Task{"0", 2}, "pA", "pS"}}}},
			{Time: t0.Add(3 * time.Minute), Offset: 15, GroupEpoch: 3, PreviousEpoch: 2, Members: 2,
				Causes:   []Cause{{Kind: MemberRejoined, Member: member("S2", "pT", "inst-s"), PreviousMemberID: "S1"}},
				Assigned: true, Moved: Moves{Active: []ActiveMove{{Task{"0", 2}, "pS", "pT"}}}},
		}},
		{"the new member id written before the old one's tombstone", func() *script {
			s := base()
			s.write(time.Minute, memberRec("S1", "pS", str("inst-s"), 0), metaRec(2, 10, cr.KeyValue{Key: "num.standby.replicas", Value: "0"}))
			s.write(3*time.Minute, memberRec("S2", "pT", str("inst-s"), 0), memberGone("S1"), metaRec(3, 10, cr.KeyValue{Key: "num.standby.replicas", Value: "0"}))
			return s
		}, []Entry{
			{Time: t0.Add(time.Minute), Offset: 7, GroupEpoch: 2, PreviousEpoch: 1, Members: 2, Causes: []Cause{{Kind: MemberJoined, Member: member("S1", "pS", "inst-s")}}},
			{Time: t0.Add(3 * time.Minute), Offset: 10, GroupEpoch: 3, PreviousEpoch: 2, Members: 2,
				Causes: []Cause{{Kind: MemberRejoined, Member: member("S2", "pT", "inst-s"), PreviousMemberID: "S1"}}},
		}},
		{"a static member that left and never came back: session expired", func() *script {
			s := base()
			s.write(time.Minute, memberRec("S1", "pS", str("inst-s"), 0), metaRec(2, 10, cr.KeyValue{Key: "num.standby.replicas", Value: "0"}))
			s.write(2*time.Minute, currentRec("S1", -2, cr.MemberStable, nil))
			s.write(3*time.Minute, currentGone("S1"), targetGone("S1"), memberGone("S1"), metaRec(3, 10, cr.KeyValue{Key: "num.standby.replicas", Value: "0"}))
			return s
		}, []Entry{
			{Time: t0.Add(time.Minute), Offset: 7, GroupEpoch: 2, PreviousEpoch: 1, Members: 2, Causes: []Cause{{Kind: MemberJoined, Member: member("S1", "pS", "inst-s")}}},
			{Time: t0.Add(3 * time.Minute), Offset: 12, GroupEpoch: 3, PreviousEpoch: 2, Members: 1,
				Causes: []Cause{{Kind: MemberRemoved, Member: member("S1", "pS", "inst-s"), Reason: ReasonSessionExpired}}},
		}},
		{"a config change places standbys", func() *script {
			s := base()
			s.write(time.Minute, memberRec("B", "pB", nil, 0), metaRec(2, 10, cr.KeyValue{Key: "num.standby.replicas", Value: "0"}),
				targetRec("A", tasks("0", 0, 1), nil, nil), targetRec("B", tasks("0", 2), nil, nil), targetMeta(2))
			s.write(2*time.Minute, metaRec(3, 10, cr.KeyValue{Key: "num.standby.replicas", Value: "1"}, cr.KeyValue{Key: "num.warmup.replicas", Value: "2"}),
				targetRec("A", tasks("0", 0, 1), tasks("0", 2), nil), targetRec("B", tasks("0", 2), tasks("0", 0, 1), tasks("0", 0)), targetMeta(3))
			return s
		}, []Entry{
			{Time: t0.Add(time.Minute), Offset: 7, GroupEpoch: 2, PreviousEpoch: 1, Members: 2, Causes: []Cause{{Kind: MemberJoined, Member: member("B", "pB", "")}},
				Assigned: true, Moved: Moves{Active: []ActiveMove{{Task{"0", 2}, "pA", "pB"}}}},
			{Time: t0.Add(2 * time.Minute), Offset: 11, GroupEpoch: 3, PreviousEpoch: 2, Members: 2,
				Causes: []Cause{{Kind: ConfigsChanged, Configs: []ConfigChange{
					{Key: "num.standby.replicas", Old: "0", New: "1", OldSet: true, NewSet: true},
					{Key: "num.warmup.replicas", New: "2", NewSet: true}}}},
				Assigned: true, Moved: Moves{
					StandbysPlaced: []Placement{{Task{"0", 0}, "pB"}, {Task{"0", 1}, "pB"}, {Task{"0", 2}, "pA"}},
					WarmupsStarted: []Placement{{Task{"0", 0}, "pB"}}}},
		}},
		{"partitions added to an input topic", func() *script {
			s := base()
			s.write(time.Minute, metaRec(2, 11, cr.KeyValue{Key: "num.standby.replicas", Value: "0"}),
				targetRec("A", tasks("0", 0, 1, 2, 3), nil, nil), targetMeta(2))
			return s
		}, []Entry{{Time: t0.Add(time.Minute), Offset: 6, GroupEpoch: 2, PreviousEpoch: 1, Members: 1, Causes: []Cause{{Kind: PartitionsChanged}},
			Assigned: true, Moved: Moves{Active: []ActiveMove{{Task{"0", 3}, "", "pA"}}}}}},
		{"a topology change (its hash change is no partitions-changed) and the member's new topology epoch", func() *script {
			s := base()
			s.write(time.Minute, memberRec("A", "pA", nil, 1), topoRec(1, sub("0", "in"), sub("1", "other")),
				metaRec(2, 12, cr.KeyValue{Key: "num.standby.replicas", Value: "0"}))
			return s
		}, []Entry{{Time: t0.Add(time.Minute), Offset: 8, GroupEpoch: 2, PreviousEpoch: 1, Members: 1, Causes: []Cause{
			{Kind: MemberChanged, Member: member("A", "pA", ""), Changed: []string{"topology_epoch"}},
			{Kind: TopologyChanged, Subtopologies: []string{"1"}, Topics: []string{"other"}}}}}},
		{"a metadata record of the same epoch (a description stored) is no rebalance", func() *script {
			s := base()
			m := metaRec(1, 10, cr.KeyValue{Key: "num.standby.replicas", Value: "0"})
			m.value.(*cr.GroupMetadata).StoredDescriptionTopologyEpoch = 0
			s.write(time.Minute, m)
			return s
		}, nil},
		{"member records of another write do not explain a later epoch", func() *script {
			s := base()
			s.write(time.Minute, memberRec("A", "pA", nil, 0), currentRec("A", 1, cr.MemberStable, tasks("0", 0, 1, 2)))
			s.write(2*time.Minute, metaRec(2, 11, cr.KeyValue{Key: "num.standby.replicas", Value: "0"}))
			return s
		}, []Entry{{Time: t0.Add(2 * time.Minute), Offset: 8, GroupEpoch: 2, PreviousEpoch: 1, Members: 1, Causes: []Cause{{Kind: PartitionsChanged}}}}},
		{"a group deleted and created again", func() *script {
			s := base()
			s.write(time.Minute, currentGone("A"), targetGone("A"), memberGone("A"),
				rec{cr.Key{Type: cr.TypeStreamsGroupTopology, GroupID: group}, nil}, rec{cr.Key{Type: cr.TypeStreamsGroupTargetAssignmentMetadata, GroupID: group}, nil},
				rec{cr.Key{Type: cr.TypeStreamsGroupMetadata, GroupID: group}, nil})
			s.write(2*time.Minute, memberRec("C", "pC", nil, 0), topoRec(0, sub("0", "in")), metaRec(1, 10))
			return s
		}, []Entry{{Time: t0.Add(2 * time.Minute), Offset: 14, GroupEpoch: 1, Members: 1, Causes: []Cause{{Kind: MemberJoined, Member: member("C", "pC", "")}}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := read(t, tc.script(), Options{})
			assert.Equal(t, append([]Entry{baseEntry}, tc.want...), res.Entries)
		})
	}
}

// Compaction: the records before the last hole give the state, never an
// entry; the history is complete from the first record after it.
func TestTimeline_compacted(t *testing.T) {
	s := base()
	s.write(time.Minute, memberRec("B", "pB", nil, 0), metaRec(2, 10, cr.KeyValue{Key: "num.standby.replicas", Value: "0"}),
		targetRec("A", tasks("0", 0, 1), nil, nil), targetRec("B", tasks("0", 2), nil, nil), targetMeta(2))
	// The survivors of a compaction, then the log's uncleaned end: what
	// was written from t0+10m on.
	cleaned := &script{}
	for _, i := range []int{0, 1, 5, 6, 7, 8, 9, 10} { // the last record of each key
		cleaned.recs = append(cleaned.recs, s.recs[i])
	}
	for i := range cleaned.recs {
		cleaned.recs[i].Offset = int64(10 * (i + 1))
		cleaned.recs[i].Gap = true
	}
	cleaned.offset = 81
	cleaned.writeAfter(3, 10*time.Minute, currentGone("B"), targetGone("B"), memberGone("B"), metaRec(3, 10, cr.KeyValue{Key: "num.standby.replicas", Value: "0"}),
		targetRec("A", tasks("0", 0, 1, 2), nil, nil), targetMeta(3))
	res := read(t, cleaned, Options{})
	assert.Equal(t, t0.Add(10*time.Minute), res.CompleteFrom)
	assert.False(t, res.CompleteFromStart)
	assert.Equal(t, int32(2), res.FirstEpoch)
	assert.Equal(t, int32(3), res.Epoch)
	assert.Equal(t, []Entry{{Time: t0.Add(10 * time.Minute), Offset: 87, GroupEpoch: 3, PreviousEpoch: 2, Members: 1,
		Causes:   []Cause{{Kind: MemberRemoved, Member: member("B", "pB", "")}},
		Assigned: true, Moved: Moves{Active: []ActiveMove{{Task{"0", 2}, "pB", "pA"}}}}}, res.Entries)

	whole := read(t, s, Options{})
	assert.True(t, whole.CompleteFromStart)
	assert.Equal(t, t0, whole.CompleteFrom)
	assert.Zero(t, whole.FirstEpoch)
}

// Other groups' records, other record types, an unknown type, a newer
// version and a broken value are skipped and counted; --since and --until
// keep the entries in their window.
func TestReader_skipsAndCounts(t *testing.T) {
	s := base()
	other := func(r rec) rec { r.key.GroupID = "other"; return r }
	s.write(30*time.Second, other(memberRec("X", "pX", nil, 0)), other(metaRec(7, 1)))
	s.write(40*time.Second, rec{cr.Key{Type: cr.TypeStreamsGroupMetadata, GroupID: group}, nil}) // placeholder, replaced below
	s.recs[len(s.recs)-1].Key = []byte{0, 24, 0, 3, 'a', 'p', 'p'}                               // type 24: unknown
	s.recs[len(s.recs)-1].Value = []byte{0, 0}
	s.write(41*time.Second, metaRec(9, 9))
	s.recs[len(s.recs)-1].Value = []byte{0, 1, 0xff} // version 1: newer
	s.write(42*time.Second, metaRec(9, 9))
	s.recs[len(s.recs)-1].Value = []byte{0, 0, 1} // cut short
	s.write(43*time.Second, rec{cr.Key{Type: cr.TypeOffsetCommit}, nil})
	s.recs[len(s.recs)-1].Key = []byte{0, 1, 0, 3, 'a', 'p', 'p', 0, 2, 'i', 'n', 0, 0, 0, 0}
	s.write(time.Minute, memberRec("B", "pB", nil, 0), metaRec(2, 10, cr.KeyValue{Key: "num.standby.replicas", Value: "0"}))
	s.write(2*time.Minute, memberGone("B"), metaRec(3, 10, cr.KeyValue{Key: "num.standby.replicas", Value: "0"}))

	res := read(t, s, Options{})
	assert.Equal(t, Stats{LogStart: 0, End: 16, Next: 16, Bytes: res.Stats.Bytes, Records: 16, GroupRecords: 12, Tombstones: 1,
		UnknownTypes: 1, NewerVersions: 1, Malformed: 1}, res.Stats)
	require.Len(t, res.Entries, 3)
	assert.Equal(t, kafka.TopicPartition{Topic: OffsetsTopic, Partition: 0}, res.Partition)

	since := read(t, s, Options{Since: t0.Add(time.Minute)})
	assert.Equal(t, []int32{2, 3}, epochs(since.Entries))
	until := read(t, s, Options{Since: t0.Add(30 * time.Second), Until: t0.Add(90 * time.Second)})
	assert.Equal(t, []int32{2}, epochs(until.Entries))
}

func epochs(es []Entry) []int32 {
	var out []int32
	for _, e := range es {
		out = append(out, e.GroupEpoch)
	}
	return out
}

// Read again, the reader asks only for what the log gained, and the open
// entry converges with the records it brings.
func TestReader_follows(t *testing.T) {
	s := base()
	s.write(time.Minute, memberRec("B", "pB", nil, 0), metaRec(2, 10, cr.KeyValue{Key: "num.standby.replicas", Value: "0"}),
		targetRec("A", tasks("0", 0, 1), nil, nil), targetRec("B", tasks("0", 2), nil, nil), targetMeta(2),
		currentRec("A", 2, cr.MemberStable, tasks("0", 0, 1)))
	c := &fakeClient{recs: s.recs}
	r := NewReader(Options{Group: group, MaxBytes: 1 << 20})
	res, err := r.Read(context.Background(), c)
	require.NoError(t, err)
	require.Len(t, res.Entries, 2)
	assert.False(t, res.Entries[1].Converged)
	s.write(time.Minute+2*time.Second, currentRec("B", 2, cr.MemberStable, tasks("0", 2)))
	c.recs = s.recs
	res, err = r.Read(context.Background(), c)
	require.NoError(t, err)
	require.Len(t, res.Entries, 2)
	assert.True(t, res.Entries[1].Converged)
	assert.Equal(t, 2*time.Second, res.Entries[1].ConvergedAfter)
	assert.Equal(t, []admin.LogRead{
		{TopicPartition: kafka.TopicPartition{Topic: OffsetsTopic}, From: admin.EarliestTimestamp, MaxBytes: 1 << 20},
		{TopicPartition: kafka.TopicPartition{Topic: OffsetsTopic}, From: 12, MaxBytes: 1 << 20},
	}, c.reads)
	assert.Equal(t, int64(13), res.Stats.Records)
}

// A topic that cannot be read is the result's error, with what was read.
func TestReader_notAuthorized(t *testing.T) {
	denied := &kafka.Error{Code: kafka.CodeTopicAuthorizationFailed, Name: "TOPIC_AUTHORIZATION_FAILED"}
	res, err := Run(context.Background(), &fakeClient{topicErr: denied}, Options{Group: group})
	require.NoError(t, err)
	assert.ErrorIs(t, res.Err, denied)
	assert.Equal(t, []kafka.Failure{{Group: group, Err: denied}}, res.Failures())
	res, err = Run(context.Background(), &fakeClient{readErr: denied}, Options{Group: group})
	require.NoError(t, err)
	assert.True(t, errors.Is(res.Err, denied))
	assert.Empty(t, res.Entries)
}

func TestOptions_Validate(t *testing.T) {
	assert.EqualError(t, Options{}.Validate(), "history needs --group")
	assert.EqualError(t, Options{Group: "g", Since: t0, Until: t0.Add(-time.Second)}.Validate(),
		"--until 2026-12-06T03:11:59Z is before --since 2026-12-06T03:12:00Z")
	assert.NoError(t, Options{Group: "g", Since: t0, Until: t0}.Validate())
}

// A group's first metadata record after a hole is no creation: what came
// before it was compacted, its epoch 6 had a past. No entry, until the
// next epoch, compared with it.
func TestTimeline_compactedFirstEpoch(t *testing.T) {
	s := &script{}
	s.writeAfter(10, 0, memberRec("A", "pA", nil, 0), topoRec(0, sub("0", "in")))
	s.writeAfter(30, time.Minute, metaRec(6, 10, cr.KeyValue{Key: "num.standby.replicas", Value: "0"}))
	s.write(2*time.Minute, memberRec("B", "pB", nil, 0), metaRec(7, 10, cr.KeyValue{Key: "num.standby.replicas", Value: "0"}))
	res := read(t, s, Options{})
	assert.Equal(t, t0.Add(time.Minute), res.CompleteFrom)
	assert.Equal(t, []Entry{{Time: t0.Add(2 * time.Minute), Offset: 44, GroupEpoch: 7, PreviousEpoch: 6, Members: 2,
		Causes: []Cause{{Kind: MemberJoined, Member: member("B", "pB", "")}}}}, res.Entries)
}
