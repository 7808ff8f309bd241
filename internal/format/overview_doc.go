package format

// The JSON and YAML document of `kstreams-groups overview` (schema in the
// docs/schema.md). Every list is present ([] when empty);
// a task's holders are members (MemberRefDoc) named by member id, with the
// ids, host and endpoint of the members view.

import (
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
)

// OverviewDoc is the top-level overview document.
type OverviewDoc struct {
	Groups []OverviewGroupDoc `json:"groups" yaml:"groups"`
}

// OverviewGroupDoc is one group's overview; a group whose overview could
// not be made has group, coordinator (when known) and error only.
type OverviewGroupDoc struct {
	Group       string     `json:"group" yaml:"group"`
	Coordinator *BrokerDoc `json:"coordinator,omitempty" yaml:"coordinator,omitempty"`
	// The overview's fields, inline; nil for a group with an error.
	*OverviewBodyDoc `json:",inline" yaml:",inline"`
	Error            *ErrorDoc `json:"error,omitempty" yaml:"error,omitempty"`
}

// OverviewBodyDoc is what a group's overview holds besides its name.
type OverviewBodyDoc struct {
	State                     string  `json:"state" yaml:"state"`
	GroupEpoch                int32   `json:"group_epoch" yaml:"group_epoch"`
	AssignmentEpoch           int32   `json:"assignment_epoch" yaml:"assignment_epoch"`
	TopologyEpoch             int32   `json:"topology_epoch" yaml:"topology_epoch"`
	AssignorName              *string `json:"assignor_name,omitempty" yaml:"assignor_name,omitempty"`
	TopologyDescriptionStatus string  `json:"topology_description_status,omitempty" yaml:"topology_description_status,omitempty"`
	MemberCount               int     `json:"member_count" yaml:"member_count"`
	// Members are sorted by member id; MemberRefDoc.Ref is the name the
	// text view uses (m1, m2, ...).
	Members     []MemberRefDoc `json:"members" yaml:"members"`
	Lag         int64          `json:"lag" yaml:"lag"`
	LargestTask *TaskLagDoc    `json:"largest_task" yaml:"largest_task"`
	// TimeLag is present only when measured (--time-lag): the largest of
	// its tasks'.
	TimeLag       *TimeLagDoc              `json:"time_lag,omitempty" yaml:"time_lag,omitempty"`
	Subtopologies []OverviewSubtopologyDoc `json:"subtopologies" yaml:"subtopologies"`
	GlobalStores  []GlobalStoreDoc         `json:"global_stores" yaml:"global_stores"`
	// Store is the store view (--store); absent otherwise.
	Store *StoreViewDoc `json:"store,omitempty" yaml:"store,omitempty"`
	// StandbyCoverage is the standby coverage (docs/standbys.md).
	StandbyCoverage *StandbyCoverageDoc `json:"standby_coverage" yaml:"standby_coverage"`
	// LastRebalance is present when the group's history was read (the
	// overview verb; check and serve do not read it).
	LastRebalance *LastRebalanceDoc `json:"last_rebalance,omitempty" yaml:"last_rebalance,omitempty"`
}

// MemberRefDoc is a member as a task holder.
type MemberRefDoc struct {
	Ref      string `json:"ref" yaml:"ref"`
	MemberID string `json:"member_id" yaml:"member_id"`
	// InstanceID is a static member's group.instance.id; null for a
	// dynamic member.
	InstanceID   *string      `json:"instance_id" yaml:"instance_id"`
	ProcessID    string       `json:"process_id" yaml:"process_id"`
	ClientID     string       `json:"client_id" yaml:"client_id"`
	ClientHost   string       `json:"client_host" yaml:"client_host"`
	UserEndpoint *EndpointDoc `json:"user_endpoint" yaml:"user_endpoint"`
}

// TaskLagDoc names a task and its lag.
type TaskLagDoc struct {
	ID  string `json:"id" yaml:"id"`
	Lag int64  `json:"lag" yaml:"lag"`
}

// OverviewSubtopologyDoc is one subtopology of an overview.
type OverviewSubtopologyDoc struct {
	ID               string      `json:"id" yaml:"id"`
	SourceTopics     []SourceDoc `json:"source_topics" yaml:"source_topics"`
	SinkTopics       []string    `json:"sink_topics" yaml:"sink_topics"`
	DynamicSink      bool        `json:"dynamic_sink" yaml:"dynamic_sink"`
	RepartitionSinks []string    `json:"repartition_sink_topics" yaml:"repartition_sink_topics"`
	Stores           []StoreDoc  `json:"stores" yaml:"stores"`
	// Nodes are the description's, in the broker's order; null when the
	// description is not AVAILABLE.
	Nodes      *[]NodeDoc  `json:"nodes" yaml:"nodes"`
	TaskCount  int         `json:"task_count" yaml:"task_count"`
	Lag        int64       `json:"lag" yaml:"lag"`
	MaxTaskLag int64       `json:"max_task_lag" yaml:"max_task_lag"`
	TimeLag    *TimeLagDoc `json:"time_lag,omitempty" yaml:"time_lag,omitempty"`
	Tasks      []TaskDoc   `json:"tasks" yaml:"tasks"`
}

// SourceDoc is a topic a subtopology reads, with its lag over the tasks;
// missing (present only when true) tells that the topic does not exist.
type SourceDoc struct {
	Topic       string `json:"topic" yaml:"topic"`
	Repartition bool   `json:"repartition" yaml:"repartition"`
	Lag         int64  `json:"lag" yaml:"lag"`
	Missing     bool   `json:"missing,omitempty" yaml:"missing,omitempty"`
}

// StoreDoc is a state store; changelog_topic is null when it has none.
type StoreDoc struct {
	Name           string  `json:"name" yaml:"name"`
	ChangelogTopic *string `json:"changelog_topic" yaml:"changelog_topic"`
}

// TaskDoc is one task: holders by kind (current, and the target active),
// whether it is moving, its lag and the partitions behind it.
type TaskDoc struct {
	ID           string          `json:"id" yaml:"id"`
	Subtopology  string          `json:"subtopology_id" yaml:"subtopology_id"`
	Partition    int32           `json:"partition" yaml:"partition"`
	Active       []MemberRefDoc  `json:"active" yaml:"active"`
	Standby      []MemberRefDoc  `json:"standby" yaml:"standby"`
	Warmup       []MemberRefDoc  `json:"warmup" yaml:"warmup"`
	TargetActive []MemberRefDoc  `json:"target_active" yaml:"target_active"`
	Moving       bool            `json:"moving" yaml:"moving"`
	Lag          int64           `json:"lag" yaml:"lag"`
	TimeLag      *TimeLagDoc     `json:"time_lag,omitempty" yaml:"time_lag,omitempty"`
	Offsets      []TaskOffsetDoc `json:"offsets" yaml:"offsets"`
}

// TaskOffsetDoc is one source partition of a task; ahead_of_log_end
// (present only when above 0) is how far the committed offset is past the
// log end, whose lag then counts as 0.
type TaskOffsetDoc struct {
	Topic          string      `json:"topic" yaml:"topic"`
	Partition      int32       `json:"partition" yaml:"partition"`
	Repartition    bool        `json:"repartition" yaml:"repartition"`
	CurrentOffset  *int64      `json:"current_offset" yaml:"current_offset"`
	LogStartOffset int64       `json:"log_start_offset" yaml:"log_start_offset"`
	LogEndOffset   int64       `json:"log_end_offset" yaml:"log_end_offset"`
	Lag            int64       `json:"lag" yaml:"lag"`
	AheadOfLogEnd  int64       `json:"ahead_of_log_end,omitempty" yaml:"ahead_of_log_end,omitempty"`
	TimeLag        *TimeLagDoc `json:"time_lag,omitempty" yaml:"time_lag,omitempty"`
}

// TimeLagDoc is a time lag and a record lag (docs/overview.md, "Time lag").
// milliseconds is null when the time lag is not known; records_exact false
// means records is the offset lag, an upper bound. first_record_timestamp
// (ms) and timestamp_type are a partition's only; error is why its time
// lag is unknown.
type TimeLagDoc struct {
	Milliseconds         *int64 `json:"milliseconds" yaml:"milliseconds"`
	Records              int64  `json:"records" yaml:"records"`
	RecordsExact         bool   `json:"records_exact" yaml:"records_exact"`
	FirstRecordTimestamp *int64 `json:"first_record_timestamp,omitempty" yaml:"first_record_timestamp,omitempty"`
	TimestampType        string `json:"timestamp_type,omitempty" yaml:"timestamp_type,omitempty"`
	// FutureRecords counts the records skipped for their time, stamped
	// after now beyond the clock-skew allowance (overview.ClockSkewAllowance).
	FutureRecords int64  `json:"future_records,omitempty" yaml:"future_records,omitempty"`
	Error         string `json:"error,omitempty" yaml:"error,omitempty"`
}

// newTimeLagDoc is nil when the time lag was not measured.
func newTimeLagDoc(tl overview.TimeLag, partition bool) *TimeLagDoc {
	if !tl.Measured {
		return nil
	}
	d := &TimeLagDoc{Records: tl.Records, RecordsExact: tl.Exact}
	if tl.Known {
		ms := tl.Lag.Milliseconds()
		d.Milliseconds = &ms
	}
	if partition {
		if tl.Timestamp >= 0 {
			ts := tl.Timestamp
			d.FirstRecordTimestamp = &ts
		}
		d.TimestampType, d.FutureRecords = tl.TimestampType, tl.Future
		if tl.Err != nil {
			d.Error = tl.Err.Error()
		}
	}
	return d
}

// StoreViewDoc is the store view: one entry per partition of the store.
type StoreViewDoc struct {
	Name           string         `json:"name" yaml:"name"`
	Subtopology    string         `json:"subtopology_id" yaml:"subtopology_id"`
	ChangelogTopic *string        `json:"changelog_topic" yaml:"changelog_topic"`
	Partitions     []StorePartDoc `json:"partitions" yaml:"partitions"`
}

// StorePartDoc is one partition of a store and where its copies are.
type StorePartDoc struct {
	Partition int32          `json:"partition" yaml:"partition"`
	Task      string         `json:"task" yaml:"task"`
	Active    []MemberRefDoc `json:"active" yaml:"active"`
	Standby   []MemberRefDoc `json:"standby" yaml:"standby"`
	Warmup    []MemberRefDoc `json:"warmup" yaml:"warmup"`
}

// NewOverviewDoc builds the document of an overview result.
func NewOverviewDoc(res *overview.Result) OverviewDoc {
	return OverviewDoc{Groups: mapAll(res.Groups, func(g *overview.Group) OverviewGroupDoc {
		d := OverviewGroupDoc{Group: g.Group, Coordinator: NewBrokerDoc(g.Coordinator), Error: NewErrorDoc(g.Err)}
		if g.Err == nil {
			d.OverviewBodyDoc = newOverviewBodyDoc(g)
		}
		return d
	})}
}

// memberRefs are a group's members as documents, by their index in the
// group: tasks and stores name their holders through it.
type memberRefs []MemberRefDoc

func (m memberRefs) pick(is []int) []MemberRefDoc {
	return mapAll(is, func(i int) MemberRefDoc { return m[i] })
}

// newOverviewBodyDoc builds the document of a group that was read.
func newOverviewBodyDoc(g *overview.Group) *OverviewBodyDoc {
	d := &OverviewBodyDoc{}
	d.State, d.GroupEpoch, d.AssignmentEpoch, d.TopologyEpoch, d.AssignorName = g.State, g.GroupEpoch, g.AssignmentEpoch, g.TopologyEpoch, g.AssignorName
	d.TopologyDescriptionStatus, d.MemberCount, d.Lag = g.DescriptionStatus.String(), len(g.Members), g.Lag
	d.LastRebalance = newLastRebalanceDoc(g)
	members := make(memberRefs, len(g.Members))
	for i := range g.Members {
		members[i] = newMemberRefDoc(i, &g.Members[i])
	}
	d.Members = members
	if g.Largest != nil {
		d.LargestTask = &TaskLagDoc{ID: g.Largest.String(), Lag: g.Largest.Lag}
	}
	d.TimeLag = newTimeLagDoc(g.Time, false)
	d.Subtopologies = mapAll(g.Subtopologies, func(s *overview.Subtopology) OverviewSubtopologyDoc { return newOverviewSubtopologyDoc(s, members) })
	d.GlobalStores = mapAll(g.GlobalStores, newGlobalStoreDoc)
	if v := g.Store; v != nil {
		d.Store = &StoreViewDoc{Name: v.Name, Subtopology: v.Subtopology, ChangelogTopic: nonEmpty(v.Changelog),
			Partitions: mapAll(v.Tasks, func(t *overview.Task) StorePartDoc {
				return StorePartDoc{Partition: t.Partition, Task: t.String(), Active: members.pick(t.Active), Standby: members.pick(t.Standby), Warmup: members.pick(t.Warmup)}
			})}
	}
	d.StandbyCoverage = newStandbyCoverageDoc(g)
	return d
}

// newOverviewSubtopologyDoc builds the document of one sub-topology, its
// tasks naming their holders from members.
func newOverviewSubtopologyDoc(s *overview.Subtopology, members memberRefs) OverviewSubtopologyDoc {
	sd := OverviewSubtopologyDoc{ID: s.ID, SinkTopics: orEmpty(s.Sinks), DynamicSink: s.DynamicSink, RepartitionSinks: orEmpty(s.RepartitionSinks),
		TaskCount: len(s.Tasks), Lag: s.Lag, MaxTaskLag: s.MaxTaskLag, TimeLag: newTimeLagDoc(s.Time, false),
		SourceTopics: mapAll(s.Sources, func(src overview.Source) SourceDoc {
			return SourceDoc{Topic: src.Topic, Repartition: src.Repartition, Lag: src.Lag, Missing: src.Missing}
		}),
		Stores: mapAll(s.Stores, func(st overview.Store) StoreDoc {
			return StoreDoc{Name: st.Name, ChangelogTopic: nonEmpty(st.Changelog)}
		}),
		Tasks: mapAll(s.Tasks, func(t *overview.Task) TaskDoc {
			return TaskDoc{ID: t.String(), Subtopology: t.Subtopology, Partition: t.Partition, Active: members.pick(t.Active), Standby: members.pick(t.Standby),
				Warmup: members.pick(t.Warmup), TargetActive: members.pick(t.TargetActive), Moving: t.Moving(), Lag: t.Lag, TimeLag: newTimeLagDoc(t.Time, false),
				Offsets: mapAll(t.Offsets, func(o overview.PartitionLag) TaskOffsetDoc {
					return TaskOffsetDoc{Topic: o.Topic, Partition: o.Partition, Repartition: o.Repartition,
						CurrentOffset: o.Committed, LogStartOffset: o.LogStart, LogEndOffset: o.LogEnd, Lag: o.Lag, AheadOfLogEnd: o.Ahead, TimeLag: newTimeLagDoc(o.Time, true)}
				})}
		})}
	if s.Nodes != nil {
		nodes := mapAll(s.Nodes, newNodeDoc)
		sd.Nodes = &nodes
	}
	return sd
}

func newMemberRefDoc(i int, m *kafka.Member) MemberRefDoc {
	return MemberRefDoc{Ref: MemberRef(i), MemberID: m.MemberID, InstanceID: m.InstanceID, ProcessID: m.ProcessID, ClientID: m.ClientID, ClientHost: m.ClientHost, UserEndpoint: newEndpointDoc(m.UserEndpoint)}
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
