// Package api holds the documents of `kstreams-groups serve`'s /api/v1
// that have no verb of their own (schema in docs/schema.md and
// docs/console.md): the served clusters, the group list the web page
// draws (one row per group, the columns of its table), a group's detail
// (its overview and check documents side by side), its history and
// timeline, and the error answer; each built from a snapshot.Cluster. The
// overview, check and list documents of a cluster are the verbs' own
// (format.NewOverviewDoc, format.NewCheckDoc, format.NewListDoc), which
// these documents embed. They live here, beside the snapshot they are
// read from, so that the renderers of internal/format never import
// serve; internal/serve/web writes them with format.Encode.
package api

import (
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/check"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
	"github.com/kstreams-groups/kstreams-groups/internal/serve/snapshot"
)

// ClustersDoc is /api/v1/clusters: every served cluster, in --profile
// order.
type ClustersDoc struct {
	Clusters []ClusterDoc `json:"clusters" yaml:"clusters"`
}

// ClusterDoc is the collector's state of one cluster. Times are RFC 3339
// in UTC, to the millisecond (as every time of these documents); taken and
// last_success are null before the first cycle (the first success); stale
// tells that the last cycle failed and the groups are the last good
// cycle's, error says why.
type ClusterDoc struct {
	Name         string  `json:"name" yaml:"name"`
	Taken        *string `json:"taken" yaml:"taken"`
	LastSuccess  *string `json:"last_success" yaml:"last_success"`
	Stale        bool    `json:"stale" yaml:"stale"`
	Error        string  `json:"error,omitempty" yaml:"error,omitempty"`
	CycleSeconds float64 `json:"cycle_seconds" yaml:"cycle_seconds"`
	// Status is the check's status over the cluster's groups (OK, WARNING,
	// CRITICAL, UNKNOWN); "" before the first successful cycle.
	Status     string `json:"status" yaml:"status"`
	GroupCount int    `json:"group_count" yaml:"group_count"`
}

// GroupsDoc is /api/v1/groups: every group of every served cluster, one
// row each, as the page's list shows them. refresh_ms is how often the
// page asks again.
type GroupsDoc struct {
	RefreshMS int64         `json:"refresh_ms" yaml:"refresh_ms"`
	Clusters  []ClusterDoc  `json:"clusters" yaml:"clusters"`
	Groups    []GroupRowDoc `json:"groups" yaml:"groups"`
}

// GroupRowDoc is one group of the list. A group that could not be read
// has cluster, group, status, problems and error only; one the listing
// knows but the check did not reach has its state only, status "".
type GroupRowDoc struct {
	Cluster     string `json:"cluster" yaml:"cluster"`
	Group       string `json:"group" yaml:"group"`
	State       string `json:"state" yaml:"state"`
	MemberCount int    `json:"member_count" yaml:"member_count"`
	Lag         int64  `json:"lag" yaml:"lag"`
	// TimeLagMS is the group's time lag in milliseconds, null when it was
	// not measured or is not known.
	TimeLagMS        *int64 `json:"time_lag_ms" yaml:"time_lag_ms"`
	SubtopologyCount int    `json:"subtopology_count" yaml:"subtopology_count"`
	TaskCount        int    `json:"task_count" yaml:"task_count"`
	MovingTasks      int64  `json:"moving_tasks" yaml:"moving_tasks"`
	// StandbyCoverage is absent for a group without stateful tasks.
	StandbyCoverage           *StandbySummaryDoc `json:"standby_coverage,omitempty" yaml:"standby_coverage,omitempty"`
	TopologyDescriptionStatus string             `json:"topology_description_status" yaml:"topology_description_status"`
	// Status is the check's: OK, WARNING, CRITICAL or UNKNOWN.
	Status   string                   `json:"status" yaml:"status"`
	Problems []format.CheckProblemDoc `json:"problems" yaml:"problems"`
	Error    *format.ErrorDoc         `json:"error,omitempty" yaml:"error,omitempty"`
}

// StandbySummaryDoc is a group's standby coverage in one line of the
// group list: its stateful tasks (of a sub-topology with stores), those
// with at least one standby that counts (not on its active's process or
// host: overview's Coverage), the configured standbys (null when they
// could not be read) and the tasks with fewer counted than configured.
type StandbySummaryDoc struct {
	StatefulTasks int    `json:"stateful_tasks" yaml:"stateful_tasks"`
	Covered       int    `json:"covered" yaml:"covered"`
	Configured    *int64 `json:"configured" yaml:"configured"`
	Short         int    `json:"short" yaml:"short"`
}

// GroupDetailDoc is /api/v1/clusters/{cluster}/groups/{group}: the
// group's overview document (members, sub-topologies with their nodes,
// tasks with owners and lags) and check document, as `overview -o json`
// and `check -o json` print them for the group.
type GroupDetailDoc struct {
	Cluster  ClusterDoc              `json:"cluster" yaml:"cluster"`
	Overview format.OverviewGroupDoc `json:"overview" yaml:"overview"`
	Check    format.CheckGroupDoc    `json:"check" yaml:"check"`
	// Thresholds are the check's lag conditions, so that the page can
	// colour each sub-topology by the same limits the group is judged by.
	Thresholds ThresholdsDoc `json:"thresholds" yaml:"thresholds"`
}

// ThresholdsDoc is serve's lag conditions (--lag-warning, …); a
// condition not given is null.
type ThresholdsDoc struct {
	LagWarning        *int64 `json:"lag_warning" yaml:"lag_warning"`
	LagCritical       *int64 `json:"lag_critical" yaml:"lag_critical"`
	TaskLagWarning    *int64 `json:"task_lag_warning" yaml:"task_lag_warning"`
	TaskLagCritical   *int64 `json:"task_lag_critical" yaml:"task_lag_critical"`
	TimeLagWarningMS  *int64 `json:"time_lag_warning_ms" yaml:"time_lag_warning_ms"`
	TimeLagCriticalMS *int64 `json:"time_lag_critical_ms" yaml:"time_lag_critical_ms"`
}

// NewThresholdsDoc builds the lag conditions of o.
func NewThresholdsDoc(o check.Options) ThresholdsDoc {
	ms := func(d *time.Duration) *int64 {
		if d == nil {
			return nil
		}
		v := d.Milliseconds()
		return &v
	}
	return ThresholdsDoc{LagWarning: o.LagWarning, LagCritical: o.LagCritical, TaskLagWarning: o.TaskLagWarning, TaskLagCritical: o.TaskLagCritical,
		TimeLagWarningMS: ms(o.TimeLagWarning), TimeLagCriticalMS: ms(o.TimeLagCritical)}
}

// HistoryDoc is …/history: the group's samples, oldest first.
type HistoryDoc struct {
	Cluster string      `json:"cluster" yaml:"cluster"`
	Group   string      `json:"group" yaml:"group"`
	Samples []SampleDoc `json:"samples" yaml:"samples"`
}

// SampleDoc is one cycle's lag; time_lag_ms is null when not measured.
type SampleDoc struct {
	Time      string `json:"time" yaml:"time"`
	Lag       int64  `json:"lag" yaml:"lag"`
	TimeLagMS *int64 `json:"time_lag_ms" yaml:"time_lag_ms"`
}

// EventsDoc is …/events: the group's changes, oldest first.
type EventsDoc struct {
	Cluster string     `json:"cluster" yaml:"cluster"`
	Group   string     `json:"group" yaml:"group"`
	Events  []EventDoc `json:"events" yaml:"events"`
}

// EventDoc is one change between two cycles, or a rebalance read back
// from the group's history when serve started.
type EventDoc struct {
	Time string `json:"time" yaml:"time"`
	Text string `json:"text" yaml:"text"`
	// Causes are a rebalance's causes, one line each; empty for a change
	// seen between cycles.
	Causes []string `json:"causes" yaml:"causes"`
}

// NewClusterDoc builds the state document of one cluster.
func NewClusterDoc(c *snapshot.Cluster) ClusterDoc {
	d := ClusterDoc{Name: c.Name, Taken: timeOrNil(c.Taken), LastSuccess: timeOrNil(c.LastSuccess), Stale: c.Stale, Error: c.Error, CycleSeconds: c.CycleSeconds}
	if c.Check != nil {
		d.Status, d.GroupCount = c.Check.Status.String(), len(c.Check.Groups)
	} else if c.List != nil {
		d.GroupCount = len(c.List.Groups)
	}
	return d
}

// NewClustersDoc builds /api/v1/clusters.
func NewClustersDoc(cs []*snapshot.Cluster) ClustersDoc {
	doc := ClustersDoc{Clusters: make([]ClusterDoc, 0, len(cs))}
	for _, c := range cs {
		doc.Clusters = append(doc.Clusters, NewClusterDoc(c))
	}
	return doc
}

// NewGroupsDoc builds /api/v1/groups: per cluster, the checked groups in
// the check's order, then the listed groups the check did not hold.
func NewGroupsDoc(cs []*snapshot.Cluster, refresh time.Duration) GroupsDoc {
	doc := GroupsDoc{RefreshMS: refresh.Milliseconds(), Clusters: NewClustersDoc(cs).Clusters, Groups: []GroupRowDoc{}}
	for _, c := range cs {
		seen := map[string]bool{}
		if c.Check != nil {
			for _, g := range c.Check.Groups {
				seen[g.ID()] = true
				doc.Groups = append(doc.Groups, newGroupRowDoc(c.Name, g))
			}
		}
		if c.List != nil {
			for _, l := range c.List.Groups {
				if !seen[l.Group] {
					doc.Groups = append(doc.Groups, GroupRowDoc{Cluster: c.Name, Group: l.Group, State: l.State, Problems: []format.CheckProblemDoc{}})
				}
			}
		}
	}
	return doc
}

func newGroupRowDoc(cluster string, g *check.Group) GroupRowDoc {
	o := g.Overview
	d := GroupRowDoc{Cluster: cluster, Group: g.ID(), Status: g.Status.String(), Problems: make([]format.CheckProblemDoc, 0, len(g.Problems))}
	for _, p := range g.Problems {
		d.Problems = append(d.Problems, format.CheckProblemDoc{Condition: p.Condition, Status: p.Status.String(), Message: p.Message})
	}
	if o.Err != nil {
		d.Error = format.NewErrorDoc(o.Err)
		return d
	}
	d.State, d.MemberCount, d.Lag, d.MovingTasks = o.State, len(o.Members), g.Lag, g.MovingTasks
	d.TopologyDescriptionStatus, d.SubtopologyCount = o.DescriptionStatus.String(), len(o.Subtopologies)
	if o.Time.Measured && o.Time.Known {
		ms := o.Time.Lag.Milliseconds()
		d.TimeLagMS = &ms
	}
	for _, s := range o.Subtopologies {
		d.TaskCount += len(s.Tasks)
	}
	if c := o.Coverage; c != nil && len(c.Tasks) > 0 {
		sum := &StandbySummaryDoc{StatefulTasks: len(c.Tasks), Covered: len(c.Tasks) - c.WithoutStandby(), Short: len(c.Short())}
		if c.ConfiguredKnown {
			n := c.Configured
			sum.Configured = &n
		}
		d.StandbyCoverage = sum
	}
	return d
}

// NewGroupDetailDoc builds a group's detail from its check (whose
// Overview is the group's overview join) and the check's options.
func NewGroupDetailDoc(c *snapshot.Cluster, g *check.Group) GroupDetailDoc {
	ov := format.NewOverviewDoc(&overview.Result{Groups: []*overview.Group{g.Overview}})
	ck := format.NewCheckDoc(&check.Result{Groups: []*check.Group{g}, Status: g.Status, Options: c.Check.Options})
	return GroupDetailDoc{Cluster: NewClusterDoc(c), Overview: ov.Groups[0], Check: ck.Groups[0], Thresholds: NewThresholdsDoc(c.Check.Options)}
}

// NewHistoryDoc builds a group's history.
func NewHistoryDoc(cluster, group string, samples []snapshot.Sample) HistoryDoc {
	doc := HistoryDoc{Cluster: cluster, Group: group, Samples: make([]SampleDoc, 0, len(samples))}
	for _, s := range samples {
		d := SampleDoc{Time: stamp(s.Time), Lag: s.Lag}
		if s.HasTimeLag {
			ms := int64(s.TimeLagSeconds * 1000)
			d.TimeLagMS = &ms
		}
		doc.Samples = append(doc.Samples, d)
	}
	return doc
}

// NewEventsDoc builds a group's timeline.
func NewEventsDoc(cluster, group string, events []snapshot.Event) EventsDoc {
	doc := EventsDoc{Cluster: cluster, Group: group, Events: make([]EventDoc, 0, len(events))}
	for _, e := range events {
		causes := e.Causes
		if causes == nil {
			causes = []string{}
		}
		doc.Events = append(doc.Events, EventDoc{Time: stamp(e.Time), Text: e.Text, Causes: causes})
	}
	return doc
}

// OverviewOf is the overview document of a cluster's check: every
// group's overview join, as `overview -o json` prints it.
func OverviewOf(res *check.Result) format.OverviewDoc {
	ov := &overview.Result{Groups: make([]*overview.Group, 0, len(res.Groups))}
	for _, g := range res.Groups {
		ov.Groups = append(ov.Groups, g.Overview)
	}
	return format.NewOverviewDoc(ov)
}

// stamp writes a time as RFC 3339 in UTC, to the millisecond.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

func timeOrNil(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := stamp(t)
	return &s
}

// ServeErrorDoc is the answer of a request /api/v1 cannot serve: an
// unknown cluster (CLUSTER_NOT_FOUND) or group (GROUP_NOT_FOUND), a
// cluster not read yet (NOT_READY), an unknown path (NOT_FOUND).
type ServeErrorDoc struct {
	Error format.ErrorDoc `json:"error" yaml:"error"`
}

// NewServeErrorDoc builds an error answer.
func NewServeErrorDoc(name, msg string) ServeErrorDoc {
	return ServeErrorDoc{Error: format.ErrorDoc{Name: name, Message: msg}}
}

// Documents lists the top-level document types of /api/v1 that are not a
// verb's, for the schema tests (format.Documents lists the verbs').
func Documents() []any {
	return []any{ClustersDoc{}, GroupsDoc{}, GroupDetailDoc{}, HistoryDoc{}, EventsDoc{}, ServeErrorDoc{}}
}
