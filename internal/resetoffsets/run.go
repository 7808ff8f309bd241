package resetoffsets

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	groupdelete "github.com/kstreams-groups/kstreams-groups/internal/delete"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// Client is what Run needs from the admin client.
type Client interface {
	ListStreamsGroups(ctx context.Context) ([]admin.ListedGroup, error)
	DescribeStreamsGroups(ctx context.Context, groups []string, includeTopology bool) []admin.DescribedGroup
	FetchCommittedOffsets(ctx context.Context, groups []string) []admin.GroupOffsets
	DescribeTopics(ctx context.Context, topics []string) ([]admin.TopicInfo, error)
	ListOffsets(ctx context.Context, tps []kafka.TopicPartition, timestamp int64) ([]admin.ListedOffset, error)
	CommitOffsets(ctx context.Context, commits []admin.GroupCommit) []admin.CommitResult
	DeleteTopics(ctx context.Context, topics []string) []admin.DeletedTopic
}

// Result holds one Group per requested group, in request order.
type Result struct {
	Scenario Scenario
	Execute  bool
	// SingleGroup: exactly one --group was given (CSV without the group
	// column, as the Java tool writes it).
	SingleGroup bool
	Groups      []*Group
}

// Failures lists, in request order, the groups whose offsets were not
// reset as asked and those whose internal topics could not all be deleted.
func (r *Result) Failures() []kafka.Failure {
	return kafka.Failures(r.Groups, func(g *Group) (string, error) { return g.Group, cmp.Or(g.Err, g.InternalTopics.FirstErr()) })
}

// Group is one requested group and its plan.
type Group struct {
	Group       string
	Coordinator *kafka.Broker
	// Described tells that the group was described as a streams group: the
	// Java tool's table has a place for it (its header is printed), even
	// when it has no rows.
	Described bool
	State     string
	// Partitions is the plan, sorted by topic and partition.
	Partitions []Partition
	// Committed is set once --execute committed the plan.
	Committed bool
	// Err says why the group was not reset: it could not be described, it
	// was refused (*kafka.RefusedError), or a request failed.
	Err error
	// InternalTopics are the topics deleted after the commit, with
	// --delete-all-internal-topics or --delete-internal-topic.
	InternalTopics *groupdelete.InternalTopics
}

// Refusal returns the group's refusal, or nil.
func (g *Group) Refusal() *kafka.RefusedError {
	var re *kafka.RefusedError
	if errors.As(g.Err, &re) {
		return re
	}
	return nil
}

// Clamp says whether a target was moved into the log.
type Clamp int

const (
	// NotClamped: the target was inside the log.
	NotClamped Clamp = iota
	// ClampedToLogEnd: the target was past the log end (high watermark).
	ClampedToLogEnd
	// ClampedToLogStart: the target was before the log start.
	ClampedToLogStart
)

// Partition is one row of the plan.
type Partition struct {
	kafka.TopicPartition
	// Current is the group's committed offset; nil when there is none.
	Current *int64
	// New is the offset the plan commits.
	New int64
	// LogStart and LogEnd are the partition's log start offset and high
	// watermark when the plan was made.
	LogStart, LogEnd int64
	// Requested is the target before clamping, when Clamp is set.
	Requested int64
	Clamp     Clamp
	// NoRecordAfter: no record has a timestamp at or after the target
	// (--to-datetime, --by-duration), so the plan falls back to the log end.
	NoRecordAfter bool
}

// Run plans the reset of req's groups and, with Execute, commits it. Every
// group is described once (one StreamsGroupDescribe per coordinator), the
// committed offsets of the Empty ones are fetched once (one OffsetFetch per
// coordinator), and the log offsets of all their partitions are listed
// together (one ListOffsets per partition leader for the log start, one for
// the log end, one by timestamp for --to-datetime and --by-duration). A
// group that is not a streams group (GROUP_ID_NOT_FOUND) is refused before
// anything is sent for it, and so is a group that is not Empty. The
// returned error is for failures of the whole command: listing the groups,
// a topic of --input-topic that does not exist, or a --delete-internal-topic
// that is not an internal topic of any requested group, in which case
// nothing was committed.
func Run(ctx context.Context, client Client, req Request) (*Result, error) {
	ids, err := admin.RequestedGroups(ctx, client, req.Groups, req.AllGroups)
	if err != nil {
		return nil, err
	}
	res := &Result{Scenario: req.Scenario, Execute: req.Execute, SingleGroup: req.SingleGroup}
	if len(ids) == 0 {
		return res, nil
	}

	subs, empty := describeEmpty(ctx, client, ids, res)
	if len(empty) == 0 {
		return res, nil
	}

	committed := fetchCommitted(ctx, client, empty)
	var topicParts map[string][]int32
	if len(req.InputTopics) > 0 {
		if topicParts, err = resolveTopics(ctx, client, req.InputTopics); err != nil {
			return nil, err
		}
	}

	// The partitions of each group.
	want := map[string][]kafka.TopicPartition{}
	var all []kafka.TopicPartition
	for _, g := range empty {
		if g.Err != nil {
			continue
		}
		tps, err := partitionsOf(g, req, subs[g.Group], committed[g.Group], topicParts)
		if err != nil {
			g.Err = err
			continue
		}
		want[g.Group] = tps
		all = append(all, tps...)
	}

	logs, err := listLogs(ctx, client, all, req)
	if err != nil {
		return nil, err
	}
	for _, g := range empty {
		if g.Err != nil {
			continue
		}
		g.Partitions, g.Err = plan(g.Group, want[g.Group], committed[g.Group], logs, req)
	}

	if !req.Execute {
		return res, nil
	}
	named := req.DeleteInternalTopics
	if req.DeleteAllInternalTopics {
		named = nil // --delete-all-internal-topics takes priority, as in the Java tool
	}
	if err := checkInternalTopics(named, empty, subs); err != nil {
		return nil, err
	}
	commit(ctx, client, empty)
	deleteInternalTopics(ctx, client, req, empty, subs)
	return res, nil
}

// describeEmpty describes ids into res.Groups and returns the Empty ones
// (the only groups a reset may touch) with their sub-topologies; every
// other group gets its refusal.
func describeEmpty(ctx context.Context, client Client, ids []string, res *Result) (map[string][]kafka.Subtopology, []*Group) {
	subs := map[string][]kafka.Subtopology{}
	var empty []*Group
	for _, d := range client.DescribeStreamsGroups(ctx, ids, false) {
		g := &Group{Group: d.Group}
		if d.Coordinator != (kafka.Broker{}) {
			c := d.Coordinator
			g.Coordinator = &c
		}
		res.Groups = append(res.Groups, g)
		switch {
		case d.Err != nil:
			g.Err = d.Err
		case kafka.StateDead.Is(d.Streams.State):
			// Dead: being removed; the Java tool would create a classic
			// group by committing to it.
			g.Err = admin.NewClientKafkaError(kafka.CodeGroupIDNotFound, fmt.Sprintf("Streams group '%s' group state is DEAD.", d.Group))
		case !kafka.StateEmpty.Is(d.Streams.State):
			g.Described, g.State = true, d.Streams.State
			g.Err = &kafka.RefusedError{Reason: kafka.RefusedActive, Group: d.Group, State: d.Streams.State}
		default:
			g.Described, g.State = true, d.Streams.State
			subs[g.Group] = d.Streams.Subtopologies
			empty = append(empty, g)
		}
	}
	return subs, empty
}

// partitionsOf returns the partitions the reset of g covers, in order: the
// plan file's, the group's source partitions, or those of --input-topic
// (each of which the group must have committed).
func partitionsOf(g *Group, req Request, subs []kafka.Subtopology, mine map[kafka.TopicPartition]int64, topicParts map[string][]int32) ([]kafka.TopicPartition, error) {
	switch {
	case req.File != nil:
		plan, ok := req.File.Plan(g.Group)
		if !ok {
			return nil, &kafka.RefusedError{Reason: kafka.RefusedNoPlan, Group: g.Group, FromFile: true}
		}
		tps := make([]kafka.TopicPartition, 0, len(plan))
		for _, fo := range plan {
			tps = append(tps, fo.TopicPartition)
		}
		slices.SortFunc(tps, kafka.CompareTopicPartitions)
		return tps, nil
	case req.AllInputTopics:
		return SourcePartitions(subs, slices.Collect(maps.Keys(mine))), nil
	}
	tps := Partitions(req.InputTopics, topicParts)
	var missing []string
	for _, tp := range tps {
		if _, ok := mine[tp]; !ok {
			missing = append(missing, fmt.Sprintf("%s-%d", tp.Topic, tp.Partition))
		}
	}
	if len(missing) > 0 {
		return nil, &kafka.RefusedError{Reason: kafka.RefusedNoPlan, Group: g.Group, Topics: missing}
	}
	return tps, nil
}

// fetchCommitted returns each group's committed offsets (those answered
// without a partition error). A group whose fetch failed gets Err.
func fetchCommitted(ctx context.Context, client Client, groups []*Group) map[string]map[kafka.TopicPartition]int64 {
	ids := make([]string, len(groups))
	for i, g := range groups {
		ids[i] = g.Group
	}
	out := map[string]map[kafka.TopicPartition]int64{}
	for i, co := range client.FetchCommittedOffsets(ctx, ids) {
		if co.Err != nil {
			groups[i].Err = co.Err
			continue
		}
		m := map[kafka.TopicPartition]int64{}
		for _, o := range co.Offsets {
			if o.Committed() {
				m[o.TopicPartition] = o.Offset
			}
		}
		out[co.Group] = m
	}
	return out
}

// resolveTopics checks the --input-topic topics and partitions against the
// cluster (one Metadata request) as kafka-streams-groups.sh does
// (checkAllTopicPartitionsValid), and returns every partition of each
// topic. A topic that does not exist, a partition it does not have, or a
// partition without a leader fails the command.
func resolveTopics(ctx context.Context, client Client, topics []InputTopic) (map[string][]int32, error) {
	infos, err := client.DescribeTopics(ctx, Topics(topics))
	if err != nil {
		return nil, err
	}
	parts := map[string][]int32{}
	leaders := map[kafka.TopicPartition]int32{}
	for _, ti := range infos {
		if ti.Err != nil {
			var ke *kafka.Error
			if errors.As(ti.Err, &ke) && ke.Code == kafka.CodeUnknownTopicOrPartition {
				return nil, admin.NewClientKafkaError(ke.Code, fmt.Sprintf("Topic '%s' does not exist.", ti.Topic))
			}
			return nil, fmt.Errorf("topic '%s': %w", ti.Topic, ti.Err)
		}
		for _, p := range ti.Partitions {
			parts[ti.Topic] = append(parts[ti.Topic], p.Partition)
			leaders[kafka.TopicPartition{Topic: ti.Topic, Partition: p.Partition}] = p.Leader
		}
	}
	var missing, leaderless []string
	for _, tp := range Partitions(topics, parts) {
		leader, ok := leaders[tp]
		switch {
		case !ok:
			missing = append(missing, fmt.Sprintf("%s-%d", tp.Topic, tp.Partition))
		case leader < 0:
			leaderless = append(leaderless, fmt.Sprintf("%s-%d", tp.Topic, tp.Partition))
		}
	}
	if len(missing) > 0 {
		return nil, admin.NewClientKafkaError(kafka.CodeUnknownTopicOrPartition, fmt.Sprintf(`The partitions "%s" do not exist`, strings.Join(missing, ",")))
	}
	if len(leaderless) > 0 {
		return nil, admin.NewClientKafkaError(kafka.CodeLeaderNotAvailable, fmt.Sprintf(`The partitions "%s" have no leader`, strings.Join(leaderless, ",")))
	}
	return parts, nil
}

// logOffsets are a partition's log start, log end and, for the timestamp
// scenarios, the first offset at or after the target (-1: none).
type logOffsets struct {
	start, end, atTime int64
	err                error
}

// listLogs lists the log offsets of tps: the log start and end always (the
// plan shows both and clamps to them), by timestamp for --to-datetime and
// --by-duration.
func listLogs(ctx context.Context, client Client, tps []kafka.TopicPartition, req Request) (map[kafka.TopicPartition]*logOffsets, error) {
	out := map[kafka.TopicPartition]*logOffsets{}
	if len(tps) == 0 {
		return out, nil
	}
	for _, tp := range tps {
		out[tp] = &logOffsets{atTime: -1}
	}
	fill := func(ts int64, set func(l *logOffsets, off int64)) error {
		los, err := client.ListOffsets(ctx, tps, ts)
		if err != nil {
			return err
		}
		for _, lo := range los {
			l := out[lo.TopicPartition]
			if l == nil {
				continue
			}
			if lo.Err != nil {
				if l.err == nil {
					l.err = fmt.Errorf("ListOffsets of %s-%d: %w", lo.Topic, lo.Partition, lo.Err)
				}
				continue
			}
			set(l, lo.Offset)
		}
		return nil
	}
	if err := fill(admin.EarliestTimestamp, func(l *logOffsets, off int64) { l.start = off }); err != nil {
		return nil, err
	}
	if err := fill(admin.LatestTimestamp, func(l *logOffsets, off int64) { l.end = off }); err != nil {
		return nil, err
	}
	if ts, ok := targetTime(req); ok {
		if err := fill(ts, func(l *logOffsets, off int64) { l.atTime = off }); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// targetTime is the timestamp the timestamp scenarios search for. It is
// never negative: ListOffsets reads -1, -2 and -3 as latest, earliest and
// max-timestamp, so 1969-12-31T23:59:59.999 would reset to the log end. A
// time before the epoch is before every record (producers refuse negative
// timestamps), so it searches from 0: the first record, as the log start.
func targetTime(req Request) (int64, bool) {
	switch req.Scenario {
	case ToDatetime:
		return max(req.Timestamp, 0), true
	case ByDuration:
		now := time.Now
		if req.Now != nil {
			now = req.Now
		}
		return max(saturatingSub(now().UnixMilli(), req.Duration), 0), true
	}
	return 0, false
}

// plan computes a group's new offsets, as GroupOffsetsResetter does:
// earliest and latest as listed, to-current the committed offset (the log
// end where there is none), to-offset, shift-by and from-file clamped into
// [log start, log end], the timestamp scenarios the first offset at or
// after the target, or the log end when there is none.
func plan(group string, tps []kafka.TopicPartition, committed map[kafka.TopicPartition]int64, logs map[kafka.TopicPartition]*logOffsets, req Request) ([]Partition, error) {
	var fromFile map[kafka.TopicPartition]int64
	if req.File != nil {
		fromFile = map[kafka.TopicPartition]int64{}
		fos, _ := req.File.Plan(group)
		for _, fo := range fos {
			fromFile[fo.TopicPartition] = fo.Offset
		}
	}
	out := make([]Partition, 0, len(tps))
	for _, tp := range tps {
		l := logs[tp]
		if l.err != nil {
			return nil, l.err
		}
		p := Partition{TopicPartition: tp, LogStart: l.start, LogEnd: l.end}
		cur, hasCur := committed[tp]
		if hasCur {
			c := cur
			p.Current = &c
		}
		clamp := false
		switch req.Scenario {
		case ToEarliest:
			p.New = l.start
		case ToLatest:
			p.New = l.end
		case ToCurrent:
			p.New = l.end
			if hasCur {
				p.New = cur
			}
		case ToOffset:
			p.New, clamp = req.Offset, true
		case ShiftBy:
			if !hasCur {
				return nil, fmt.Errorf("Cannot shift offset for partition %s-%d since there is no current committed offset", tp.Topic, tp.Partition)
			}
			p.New, clamp = saturatingAdd(cur, req.Offset), true
		case FromFile:
			p.New, clamp = fromFile[tp], true
		case ToDatetime, ByDuration:
			p.New = l.atTime
			if l.atTime < 0 {
				p.New, p.NoRecordAfter = l.end, true
			}
		}
		if clamp {
			switch {
			case p.New > l.end:
				p.Requested, p.New, p.Clamp = p.New, l.end, ClampedToLogEnd
			case p.New < l.start:
				p.Requested, p.New, p.Clamp = p.New, l.start, ClampedToLogStart
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// saturatingAdd is a + b held at the ends of int64 instead of wrapping
// (the Java tool wraps: --shift-by 9223372036854775807 moved a group to the
// log start); the clamp into the log follows.
func saturatingAdd(a, b int64) int64 {
	s := a + b
	switch {
	case b > 0 && s < a:
		return math.MaxInt64
	case b < 0 && s > a:
		return math.MinInt64
	}
	return s
}

// saturatingSub is a - b held at the ends of int64 (a --by-duration of
// -PT2562047788015H is far in the future, not before the epoch).
func saturatingSub(a, b int64) int64 {
	s := a - b
	switch {
	case b < 0 && s < a:
		return math.MaxInt64
	case b > 0 && s > a:
		return math.MinInt64
	}
	return s
}

// checkInternalTopics refuses --delete-internal-topic names that are not
// inferred internal topics (Kafka's prefix and suffix rules) of any of the
// groups about to be reset, before anything is committed.
func checkInternalTopics(named []string, groups []*Group, subs map[string][]kafka.Subtopology) error {
	if len(named) == 0 {
		return nil
	}
	var internal, ids []string
	for _, g := range groups {
		inferred, _ := groupdelete.Infer(g.Group, subs[g.Group])
		internal = append(internal, inferred...)
		ids = append(ids, g.Group)
	}
	return groupdelete.CheckNamed(named, ids, internal)
}

// memberCodes are the answers of a group coordinator to an admin commit
// for a group that has members: the group became active after the check.
var memberCodes = []int16{kafka.CodeUnknownMemberID, kafka.CodeIllegalGeneration, kafka.CodeStaleMemberEpoch, kafka.CodeRebalanceInProgress}

// commit commits the plans of the groups that have one (one OffsetCommit
// per group, to its coordinator).
func commit(ctx context.Context, client Client, groups []*Group) {
	var commits []admin.GroupCommit
	byGroup := map[string]*Group{}
	for _, g := range groups {
		if g.Err != nil {
			continue
		}
		if len(g.Partitions) == 0 {
			g.Committed = true // nothing to commit
			continue
		}
		gc := admin.GroupCommit{Group: g.Group}
		for _, p := range g.Partitions {
			gc.Offsets = append(gc.Offsets, admin.OffsetToCommit{TopicPartition: p.TopicPartition, Offset: p.New})
		}
		commits = append(commits, gc)
		byGroup[g.Group] = g
	}
	if len(commits) == 0 {
		return
	}
	for _, cr := range client.CommitOffsets(ctx, commits) {
		g := byGroup[cr.Group]
		var ke *kafka.Error
		switch {
		case cr.Err == nil:
			g.Committed = true
		case errors.As(cr.Err, &ke) && slices.Contains(memberCodes, ke.Code):
			g.Err = &kafka.RefusedError{Reason: kafka.RefusedActive, Group: g.Group, Cause: cr.Err}
		default:
			g.Err = cr.Err
		}
	}
}

// deleteInternalTopics deletes, after its commit, each group's inferred
// internal topics (--delete-all-internal-topics) or the named ones that are
// its own (--delete-internal-topic), one DeleteTopics per group.
func deleteInternalTopics(ctx context.Context, client Client, req Request, groups []*Group, subs map[string][]kafka.Subtopology) {
	if !req.DeleteAllInternalTopics && len(req.DeleteInternalTopics) == 0 {
		return
	}
	for _, g := range groups {
		if !g.Committed {
			continue
		}
		it := groupdelete.InferInternalTopics(g.Group, subs[g.Group])
		if !req.DeleteAllInternalTopics {
			if it = it.Named(req.DeleteInternalTopics); len(it.Inferred) == 0 {
				continue
			}
		}
		g.InternalTopics = it
		it.Delete(ctx, client)
	}
}
