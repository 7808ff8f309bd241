package delete

import (
	"regexp"
	"slices"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// fkJoinTopic matches the internal topics of a foreign-key join, whose
// names do not end in one of the internal suffixes.
var fkJoinTopic = regexp.MustCompile(`^.+-KTABLE-FK-JOIN-SUBSCRIPTION-(?:REGISTRATION|RESPONSE)-[0-9]+-topic$`)

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
	return fkJoinTopic.MatchString(topic)
}
