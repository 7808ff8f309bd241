package diff

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The regular expression splitGenerated stands for.
var generatedRE = regexp.MustCompile(`^([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-)([0-9]{10})((?:-[a-z]+)*)$`)

func TestSplitGenerated(t *testing.T) {
	names := []string{
		"KSTREAM-SOURCE-0000000000", "KSTREAM-AGGREGATE-STATE-STORE-0000000003", "KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition",
		"KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-filter", "KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic",
		"KSTREAM-0000000001-0000000002", "KSTREAM-NODE-0001-0000000009", "X-0000000001", "-0000000001", "A--0000000001",
		"kstream-source-0000000000", "KSTREAM-SOURCE-000000000", "KSTREAM-SOURCE-00000000000", "KSTREAM-SOURCE-0000000000-",
		"KSTREAM-SOURCE-0000000000-Repartition", "KSTREAM-SOURCE-0000000000--x", "KSTREAM-SOURCE-0000000000x", "word-counts",
		"df-counts-repartition-filter", "", "0000000001", "A0-0000000001-a-b",
	}
	for _, n := range names {
		p, d, s, ok := splitGenerated(n)
		m := generatedRE.FindStringSubmatch(n)
		if assert.Equal(t, m != nil, ok, n) && ok {
			assert.Equal(t, m[1:], []string{p, d, s}, n)
		}
	}
	assert.Equal(t, "KSTREAM-AGGREGATE-STATE-STORE-#-repartition", family("KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition"))
	assert.Equal(t, "word-counts", family("word-counts"))
	assert.Equal(t, 7, index("KSTREAM-SINK-0000000007"))
	assert.Equal(t, -1, index("sink"))
	assert.True(t, shifted("KSTREAM-SINK-0000000007", "KSTREAM-SINK-0000000008"))
	assert.False(t, shifted("KSTREAM-SINK-0000000007", "KSTREAM-SOURCE-0000000008"))
	assert.False(t, shifted("sink", "sink2"))
}

func TestInternalNames(t *testing.T) {
	for _, n := range []string{"x-repartition", "KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition", "s-changelog",
		"j-subscription-registration-topic", "j-subscription-response-topic", "KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-0000000014-topic"} {
		assert.True(t, isInternalName(n), n)
	}
	for _, n := range []string{"orders-topic", "orders", "repartition", "changelog-archive"} {
		assert.False(t, isInternalName(n), n)
	}
}
