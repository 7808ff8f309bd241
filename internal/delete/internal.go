package delete

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// fkJoinTopic matches the internal topics of a foreign-key join, whose
// names do not end in one of the internal suffixes.
var fkJoinTopic = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^.+-KTABLE-FK-JOIN-SUBSCRIPTION-(?:REGISTRATION|RESPONSE)-[0-9]+-topic$`)
})

// internalSuffixes end the names Kafka Streams gives its internal topics.
var internalSuffixes = []string{"-changelog", "-repartition", "-subscription-registration-topic", "-subscription-response-topic"}

// Infer returns a group's internal topics by kafka-streams-groups.sh's rules
// (StreamsGroupCommand.deleteGroups, isInferredInternalTopic): the repartition-source and changelog topics of every subtopology
// that are not a source topic of any subtopology (a source table's
// changelog is its input topic and must survive), in subtopology order,
// repartition topics first, each once. A candidate is inferred as internal
// only if it starts with "<appID>-" and ends in an internal suffix or
// matches the foreign-key-join pattern; the others are returned as
// notInferred, to be reported and left alone.
func Infer(appID string, subs []kafka.Subtopology) (inferred, notInferred []string) {
	var sources []string
	for _, s := range subs {
		sources = append(sources, s.SourceTopics...)
	}
	seen := map[string]bool{}
	for _, s := range subs {
		for _, t := range slices.Concat(s.RepartitionSourceTopics, s.StateChangelogTopics) {
			if seen[t] || slices.Contains(sources, t) {
				continue
			}
			seen[t] = true
			if IsInternalTopic(appID, t) {
				inferred = append(inferred, t)
			} else {
				notInferred = append(notInferred, t)
			}
		}
	}
	return inferred, notInferred
}

// IsInternalTopic is kafka-streams-groups.sh's isInferredInternalTopic.
func IsInternalTopic(appID, topic string) bool {
	if !strings.HasPrefix(topic, appID+"-") {
		return false
	}
	for _, suf := range internalSuffixes {
		if strings.HasSuffix(topic, suf) {
			return true
		}
	}
	return fkJoinTopic().MatchString(topic)
}

// InternalTopics are a group's internal topics, inferred from the topology
// its members declared (StreamsGroupDescribe), by kafka-streams-groups.sh's
// rules (see Infer).
type InternalTopics struct {
	// Inferred are deleted after the group (in a dry run: would be).
	Inferred []string
	// NotInferred are topics the topology names as repartition or
	// changelog topics that do not follow the internal naming rules; they
	// are reported and left alone.
	NotInferred []string
	// Err is set when the group could not be described, so no topic is
	// known and none is deleted.
	Err error
	// Deleted and Failed are the DeleteTopics outcomes, in Inferred order.
	Deleted []string
	Failed  []TopicFailure
}

// TopicFailure is a topic that could not be deleted.
type TopicFailure struct {
	Topic string
	Err   error
}

// FirstErr is the first error about the group's internal topics, or nil.
func (it *InternalTopics) FirstErr() error {
	switch {
	case it == nil:
		return nil
	case it.Err != nil:
		return it.Err
	case len(it.Failed) > 0:
		return it.Failed[0].Err
	}
	return nil
}

// InferInternalTopics is Infer's answer as a group's InternalTopics, the
// topics --delete-all-internal-topics deletes with the group.
func InferInternalTopics(appID string, subs []kafka.Subtopology) *InternalTopics {
	inferred, notInferred := Infer(appID, subs)
	return &InternalTopics{Inferred: inferred, NotInferred: notInferred}
}

// Named is what --delete-internal-topic deletes of it: the named topics
// that are among its inferred ones, in the order named, each once. The
// topics it leaves alone are not reported.
func (it *InternalTopics) Named(named []string) *InternalTopics {
	var mine []string
	for _, t := range named {
		if slices.Contains(it.Inferred, t) && !slices.Contains(mine, t) {
			mine = append(mine, t)
		}
	}
	return &InternalTopics{Inferred: mine}
}

// CheckNamed refuses the --delete-internal-topic names that are not among
// internal, the inferred internal topics of groups (the groups about to be
// deleted or reset), before anything is changed.
func CheckNamed(named, groups, internal []string) error {
	skip := make(map[string]bool, len(internal)) // internal, or refused already
	for _, t := range internal {
		skip[t] = true
	}
	var refused []string
	for _, t := range named {
		if !skip[t] {
			skip[t] = true
			refused = append(refused, t)
		}
	}
	if len(refused) == 0 {
		return nil
	}
	return &kafka.RefusedError{Reason: kafka.RefusedNotInternal, Group: strings.Join(groups, "', '"), Topics: refused, Internal: internal}
}

// Delete deletes the Inferred topics with one DeleteTopics, when there are
// any, and records each outcome in Deleted or Failed, in Inferred order.
func (it *InternalTopics) Delete(ctx context.Context, client interface {
	DeleteTopics(ctx context.Context, topics []string) []admin.DeletedTopic
}) {
	if len(it.Inferred) == 0 {
		return
	}
	for _, t := range client.DeleteTopics(ctx, it.Inferred) {
		if t.Err != nil {
			it.Failed = append(it.Failed, TopicFailure{Topic: t.Topic, Err: t.Err})
			continue
		}
		it.Deleted = append(it.Deleted, t.Topic)
	}
}
