package delete

import (
	"cmp"
	"context"
	"errors"
	"fmt"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// Options select what to delete.
type Options struct {
	// Groups are deleted in this order (a repeated id counts once);
	// AllGroups lists every streams group instead.
	Groups    []string
	AllGroups bool
	// DryRun runs the pre-checks (and infers internal topics) but sends no
	// DeleteGroups and no DeleteTopics.
	DryRun bool
	// DeleteInternalTopics also deletes the internal topics inferred from
	// each deleted group's topology (--delete-all-internal-topics).
	DeleteInternalTopics bool
	// InternalTopics are the internal topics to delete with their groups
	// (--delete-internal-topic; DeleteInternalTopics takes priority, as in
	// kafka-streams-groups.sh). Each must be an inferred internal topic of
	// a group that passes the pre-checks, or nothing is deleted.
	InternalTopics []string
	// DeleteConfigs also removes each deleted group's dynamic configs,
	// which deleting a group leaves on the broker (configs.go).
	DeleteConfigs bool
	// TopicSpecific says a topic-specific option of offset deletion
	// (--input-topic, --all-input-topics) was given with --delete, which
	// kafka-streams-groups.sh refuses in its --delete checks.
	TopicSpecific bool
}

// Validate checks the options before any I/O, with
// kafka-streams-groups.sh's messages in its order. The checks shared with
// other verbs (--group with --all-groups) are the command line's.
func (o Options) Validate() error {
	if !o.AllGroups && len(o.Groups) == 0 {
		return errors.New("Option [delete] takes one of these options: [all-groups], [group]")
	}
	if o.TopicSpecific {
		return errors.New("Kafka Streams does not support topic-specific offset deletion from a streams group.")
	}
	return nil
}

// Client is what Run needs from the admin client.
type Client interface {
	ListStreamsGroups(ctx context.Context) ([]admin.ListedGroup, error)
	DescribeStreamsGroups(ctx context.Context, groups []string, includeTopology bool) []admin.DescribedGroup
	DeleteGroups(ctx context.Context, groups []string) []admin.DeletedGroup
	DeleteTopics(ctx context.Context, topics []string) []admin.DeletedTopic
	DescribeGroupConfigs(ctx context.Context, groups []string) []kafka.GroupConfigs
	AlterGroupConfigs(ctx context.Context, alters []admin.GroupConfigAlter, validateOnly bool) []admin.AlteredGroupConfig
}

// Stage names the step at which a group failed.
type Stage string

const (
	// StagePreCheck: the ListGroups pre-check refused the group; nothing
	// was sent to delete it.
	StagePreCheck Stage = "pre_check"
	// StageDeleteGroups: the coordinator refused DeleteGroups, or did not
	// answer in time.
	StageDeleteGroups Stage = "delete_groups"
)

// Result holds one Group per requested group, in request order.
type Result struct {
	DryRun bool
	// DeleteConfigs: the groups' dynamic configs are deleted with them.
	DeleteConfigs bool
	Groups        []*Group
}

// Failures lists, in request order, the groups that were not deleted (in a
// dry run: that failed the pre-checks) and those whose internal topics
// could not all be deleted.
func (r *Result) Failures() []kafka.Failure {
	return kafka.Failures(r.Groups, func(g *Group) (string, error) {
		var configs error
		if r.DeleteConfigs && g.Configs != nil {
			configs = g.Configs.Err
		}
		return g.Group, cmp.Or(g.Err, g.InternalTopics.FirstErr(), configs)
	})
}

// Group returns the outcome of the group id, or nil.
func (r *Result) Group(id string) *Group {
	for _, g := range r.Groups {
		if g.Group == id {
			return g
		}
	}
	return nil
}

// Group is one requested group and its outcome.
type Group struct {
	Group string
	// State is the group's state in the ListGroups pre-check, "" when the
	// group was not listed as a streams group.
	State string
	// Coordinator answered DeleteGroups; nil when nothing was sent.
	Coordinator *kafka.Broker
	// Deleted is true once the coordinator deleted the group. In a dry run
	// it stays false; a group without Err would have been sent.
	Deleted bool
	Err     error
	Stage   Stage // where Err arose
	// DeleteGroupsVersion is the DeleteGroups version the coordinator
	// answered, 0 when nothing was answered.
	DeleteGroupsVersion int16
	// AnswerLost: see admin.DeletedGroup.AnswerLost.
	AnswerLost bool
	// InternalTopics is set with Options.DeleteInternalTopics for every
	// group that passed the pre-checks.
	InternalTopics *InternalTopics
	// Configs are the group's dynamic configs, for every group that
	// passed the pre-checks (configs.go).
	Configs *Configs
}

// MayBePluginFailure tells whether the group's UNKNOWN_SERVER_ERROR came
// from a DeleteGroups version that cannot carry GROUP_DELETION_FAILED, so it
// may hide a topology description plugin failure (a Kafka 4.4 broker
// answers v0–v2 clients so when its plugin fails).
func (g *Group) MayBePluginFailure() bool {
	var ke *kafka.Error
	return g.Stage == StageDeleteGroups && g.DeleteGroupsVersion < 3 &&
		errors.As(g.Err, &ke) && ke.Code == kafka.CodeUnknownServerError
}

// The messages of kafka-streams-groups.sh's pre-checks
// (StreamsGroupCommand.deleteGroups, verified in e2e/FINDINGS.md F29–F34).
func notFoundMessage(g string) string {
	return fmt.Sprintf("Group '%s' does not exist or is not a streams group.", g)
}

func deadMessage(g string) string {
	return fmt.Sprintf("Streams group '%s' group state is DEAD.", g)
}

func notEmptyMessage(g string) string {
	return fmt.Sprintf("Streams group '%s' is not EMPTY.", g)
}

// Run deletes the groups of opts, which passed Validate. Per-group
// outcomes are in each Group; the returned error is for failures of the
// whole command, such as ListGroups failing or a --delete-internal-topic
// that is not an internal topic of a group to delete, in which case nothing
// was deleted. With AllGroups, Groups is ignored.
func Run(ctx context.Context, client Client, opts Options) (*Result, error) {
	listed, err := client.ListStreamsGroups(ctx)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]admin.ListedGroup, len(listed))
	for _, l := range listed {
		byID[l.Group] = l
	}
	ids := requestedIDs(opts, listed)

	res := &Result{DryRun: opts.DryRun, DeleteConfigs: opts.DeleteConfigs, Groups: make([]*Group, 0, len(ids))}
	var passing []string
	byGroup := map[string]*Group{}
	for _, id := range ids {
		g := precheck(id, byID)
		res.Groups = append(res.Groups, g)
		byGroup[id] = g
		if g.Err == nil {
			passing = append(passing, id)
		}
	}
	if len(passing) == 0 {
		return res, nil
	}

	named := !opts.DeleteInternalTopics && len(opts.InternalTopics) > 0
	if opts.DeleteInternalTopics || named {
		// Before the delete: once a group is gone its topology is too.
		if err := describeInternalTopics(ctx, client, opts, passing, byGroup); err != nil {
			return nil, err
		}
	}
	var checked []*Group
	for _, id := range passing {
		checked = append(checked, byGroup[id])
	}
	readConfigs(ctx, client, checked)
	if opts.DryRun {
		return res, nil
	}

	deleteGroups(ctx, client, passing, byGroup)

	if opts.DeleteInternalTopics || named {
		// One DeleteTopics per group, in request order, and only for groups
		// that are gone: the topics of a group that still exists stay.
		for _, g := range res.Groups {
			if g.Deleted && g.InternalTopics != nil {
				g.InternalTopics.Delete(ctx, client)
			}
		}
	}
	if opts.DeleteConfigs {
		deleteConfigs(ctx, client, res.Groups)
	}
	return res, nil
}

// requestedIDs returns the groups to delete: every listed one with
// AllGroups, else opts.Groups without repeats, in order.
func requestedIDs(opts Options, listed []admin.ListedGroup) []string {
	var ids []string
	if opts.AllGroups {
		for _, l := range listed {
			ids = append(ids, l.Group)
		}
		return ids
	}
	seen := map[string]bool{}
	for _, g := range opts.Groups {
		if !seen[g] {
			seen[g] = true
			ids = append(ids, g)
		}
	}
	return ids
}

// describeInternalTopics infers the internal topics of the passing groups
// from their topologies and checks --delete-internal-topic's names
// against them: a name that is no group's internal topic fails the whole
// command.
func describeInternalTopics(ctx context.Context, client Client, opts Options, passing []string, byGroup map[string]*Group) error {
	named := !opts.DeleteInternalTopics && len(opts.InternalTopics) > 0
	var internal []string
	for _, d := range client.DescribeStreamsGroups(ctx, passing, false) {
		it := internalTopicsOf(d)
		internal = append(internal, it.Inferred...)
		if named && it.Err == nil {
			it = it.Named(opts.InternalTopics)
		}
		byGroup[d.Group].InternalTopics = it
	}
	if named {
		return CheckNamed(opts.InternalTopics, passing, internal)
	}
	return nil
}

// deleteGroups sends DeleteGroups for the passing groups and records each
// outcome.
func deleteGroups(ctx context.Context, client Client, passing []string, byGroup map[string]*Group) {
	for _, d := range client.DeleteGroups(ctx, passing) {
		g := byGroup[d.Group]
		if d.Coordinator != (kafka.Broker{}) {
			c := d.Coordinator
			g.Coordinator = &c
		}
		g.DeleteGroupsVersion, g.AnswerLost = d.Version, d.AnswerLost
		if d.Err != nil {
			g.Err, g.Stage = d.Err, StageDeleteGroups
			continue
		}
		g.Deleted = true
	}
}

// precheck applies kafka-streams-groups.sh's ListGroups checks. The Java
// tool throws IllegalArgumentException, IllegalStateException and
// GroupNotEmptyException; here each failure carries the fitting Kafka error
// name with the reference message. A dead group is reported as
// GROUP_ID_NOT_FOUND: it is being removed, and Kafka's describe says such a
// group "does not exist".
func precheck(id string, listed map[string]admin.ListedGroup) *Group {
	g := &Group{Group: id}
	l, ok := listed[id]
	if !ok {
		g.Err, g.Stage = admin.NewClientKafkaError(kafka.CodeGroupIDNotFound, notFoundMessage(id)), StagePreCheck
		return g
	}
	g.State = l.State
	switch {
	case kafka.StateDead.Is(l.State):
		g.Err, g.Stage = admin.NewClientKafkaError(kafka.CodeGroupIDNotFound, deadMessage(id)), StagePreCheck
	case l.State != "" && !kafka.StateEmpty.Is(l.State):
		// The Java tool skips the state check when ListGroups reports no
		// state (brokers before ListGroups v4); so does this.
		g.Err, g.Stage = admin.NewClientKafkaError(kafka.CodeNonEmptyGroup, notEmptyMessage(id)), StagePreCheck
	}
	return g
}

// internalTopicsOf infers one described group's internal topics.
func internalTopicsOf(d admin.DescribedGroup) *InternalTopics {
	if d.Err != nil {
		return &InternalTopics{Err: d.Err}
	}
	var subs []kafka.Subtopology
	if d.Streams != nil {
		subs = d.Streams.Subtopologies
	}
	return InferInternalTopics(d.Group, subs)
}
