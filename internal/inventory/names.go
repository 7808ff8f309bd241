package inventory

import (
	"regexp"
	"strings"
	"sync"
)

// The names Kafka Streams 4.4 gives its internal topics, all
// "<application.id>-" then a name (ProcessorStateManager.storeChangelogTopic,
// InternalTopologyBuilder.decorateTopic):
//   - "<store>-changelog" for a store's changelog, generated stores
//     included ("KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog",
//     "KTABLE-SUPPRESS-STATE-STORE-0000000007-changelog");
//   - "<name>-repartition" for a repartition topic
//     (KStreamImpl.REPARTITION_TOPIC_SUFFIX);
//   - a foreign-key join's two topics (KTableImpl: "-topic" appended to
//     "<name>-subscription-registration" / "-subscription-response", or to
//     the generated "KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-<n>" /
//     "…-RESPONSE-<n>").
// These are the rules of StreamsResetter.matchesInternalTopicFormat, which
// kafka-streams-groups.sh applies too; a named topology would add its name
// after the application id, which the prefix rule covers.

// internalSuffixes end the names of internal topics.
var internalSuffixes = []string{"-changelog", "-repartition", "-subscription-registration-topic", "-subscription-response-topic"}

// fkJoinName is a generated foreign-key join topic name after the
// application id; compiled on first use, not at every start of the binary.
var fkJoinName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^KTABLE-FK-JOIN-SUBSCRIPTION-(?:REGISTRATION|RESPONSE)-[0-9]+-topic$`)
})

// generatedMarkers start the generated part of a name: what comes before
// is the application id.
var generatedMarkers = []string{"-KSTREAM-", "-KTABLE-"}

// IsInternalName tells whether topic is named as an internal topic of the
// application appID: "<appID>-", then a non-empty name ending in an
// internal suffix, or a generated foreign-key join name.
func IsInternalName(appID, topic string) bool {
	if appID == "" || !strings.HasPrefix(topic, appID+"-") {
		return false
	}
	rest := topic[len(appID)+1:]
	for _, suf := range internalSuffixes {
		if len(rest) > len(suf) && strings.HasSuffix(rest, suf) {
			return true
		}
	}
	return fkJoinName().MatchString(rest)
}

// Owners returns every application id that topic could be an internal
// topic of by its name, longest first: each prefix before a dash that
// IsInternalName accepts.
func Owners(topic string) []string {
	var out []string
	for i := len(topic) - 1; i > 0; i-- {
		if topic[i] == '-' && IsInternalName(topic[:i], topic) {
			out = append(out, topic[:i])
		}
	}
	return out
}

// generatedOwner is the application id before the first generated part
// of the name ("app-KSTREAM-…-changelog" is app's), "" when the name has
// none that is an owner.
func generatedOwner(topic string) string {
	for _, m := range generatedMarkers {
		if i := strings.Index(topic, m); i > 0 && IsInternalName(topic[:i], topic) {
			return topic[:i]
		}
	}
	return ""
}
