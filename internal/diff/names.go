package diff

import (
	"regexp"
	"strings"
	"sync"
)

// Kafka Streams names what the user does not name: a node is its operator's
// prefix and a 10-digit index from one counter per StreamsBuilder
// (KSTREAM-AGGREGATE-0000000004), and what derives from a node or store
// adds a suffix to that name (KSTREAM-AGGREGATE-STATE-STORE-0000000003-
// repartition, ...-repartition-filter). Adding an operator anywhere before
// it moves the counter, so every later generated name shifts: the family
// (the name with its index taken out) stays, the index does not.
//
// A generated name is [A-Z][A-Z0-9]*(-[A-Z0-9]+)*-, ten digits, and
// (-[a-z]+)*; splitGenerated reads it by hand, as the comparison of a large
// topology asks for every name several times (TestSplitGenerated holds the
// regular expression it stands for).
func splitGenerated(name string) (prefix, digits, suffix string, ok bool) {
	for i := 1; i+11 <= len(name); i++ {
		if name[i] != '-' || !allDigits(name[i+1:i+11]) || i+11 < len(name) && name[i+11] != '-' {
			continue
		}
		prefix, suffix = name[:i+1], name[i+11:]
		if generatedPrefix(prefix) && generatedSuffix(suffix) {
			return prefix, name[i+1 : i+11], suffix, true
		}
	}
	return "", "", "", false
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// generatedPrefix is [A-Z][A-Z0-9]*(-[A-Z0-9]+)*- .
func generatedPrefix(p string) bool {
	if p == "" || p[0] < 'A' || p[0] > 'Z' || p[len(p)-1] != '-' {
		return false
	}
	for i := 1; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '-':
			if p[i-1] == '-' {
				return false
			}
		case c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return true
}

// generatedSuffix is (-[a-z]+)* .
func generatedSuffix(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '-':
			if i+1 == len(s) || s[i+1] == '-' {
				return false
			}
		case c >= 'a' && c <= 'z':
			if i == 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// family is name with the index of a generated name replaced by "#"; a
// name the user chose is its own family.
func family(name string) string {
	if p, _, s, ok := splitGenerated(name); ok {
		return p + "#" + s
	}
	return name
}

// isGenerated tells whether name is one Kafka Streams generated.
func isGenerated(name string) bool {
	_, _, _, ok := splitGenerated(name)
	return ok
}

// index is the counter value in a generated name, -1 for a chosen name.
func index(name string) int {
	_, digits, _, ok := splitGenerated(name)
	if !ok {
		return -1
	}
	n := 0
	for _, c := range digits {
		n = n*10 + int(c-'0')
	}
	return n
}

// shifted tells whether two names are the same generated name at another
// index: what inserting or removing an operator upstream does.
func shifted(old, new string) bool {
	return old != new && isGenerated(old) && isGenerated(new) && family(old) == family(new)
}

// Internal topics are the ones Kafka Streams creates for an application and
// names <application.id>-<name>: repartition topics (<name>-repartition),
// the foreign-key join topics (<name>-subscription-registration-topic,
// <name>-subscription-response-topic, or the generated
// KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-<index>-topic and ...-RESPONSE-...)
// and changelogs (<store>-changelog). Topology#describe() prints them
// without the prefix; the broker stores them with it.
const (
	repartitionSuffix = "-repartition"
	changelogSuffix   = "-changelog"
)

var fkJoinTopic = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(-subscription-(registration|response)-topic|^KTABLE-FK-JOIN-SUBSCRIPTION-(REGISTRATION|RESPONSE)-[0-9]{10}-topic)$`)
})

// isRepartition tells whether a topic name (without the application id
// prefix) is one of a repartition topic or a foreign-key join topic: the
// internal topics a sub-topology writes for another one to read.
func isRepartition(topic string) bool {
	return strings.HasSuffix(topic, repartitionSuffix) || fkJoinTopic().MatchString(topic)
}

// isInternalName tells whether a topic name (without the prefix) has the
// shape of an internal topic.
func isInternalName(topic string) bool {
	return isRepartition(topic) || strings.HasSuffix(topic, changelogSuffix)
}

// changelogOf is the changelog topic of a store, without the prefix
// (ProcessorStateManager.storeChangelogTopic).
func changelogOf(store string) string { return store + changelogSuffix }
