package kafka

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCompareGroupConfigNames(t *testing.T) {
	names := []string{"share.session.timeout.ms", "zz.new", "consumer.session.timeout.ms", "streams.future.key", StreamsAssignorName, StreamsNumStandbyReplicas, StreamsSessionTimeoutMs, "aa.new"}
	slices.SortFunc(names, CompareGroupConfigNames)
	assert.Equal(t, []string{StreamsSessionTimeoutMs, StreamsNumStandbyReplicas, StreamsAssignorName, "streams.future.key",
		"consumer.session.timeout.ms", "share.session.timeout.ms", "aa.new", "zz.new"}, names)
}

func TestGroupConfigKeys(t *testing.T) {
	seen := map[string]bool{}
	streams := true
	for _, k := range GroupConfigKeys {
		assert.False(t, seen[k.Name], "%s twice", k.Name)
		seen[k.Name] = true
		if k.Protocol != "streams" {
			streams = false
		}
		assert.True(t, streams || k.Protocol != "streams", "%s: streams keys come first", k.Name)
		assert.NotEmpty(t, k.Doc, k.Name)
	}
	assert.Len(t, GroupConfigKeys, 27, "Kafka 4.4.0's GroupConfig.CONFIG_DEF")
	k, ok := GroupConfigKeyFor("group.streams.num.standby.replicas")
	assert.True(t, ok)
	assert.Equal(t, StreamsNumStandbyReplicas, k.Name)
	_, ok = LookupGroupConfigKey("Streams.num.standby.replicas")
	assert.False(t, ok, "names are case-sensitive")
}

func TestGroupConfigEntry(t *testing.T) {
	v, d := "1", "0"
	e := GroupConfigEntry{Name: StreamsNumStandbyReplicas, Value: &v, Source: SourceGroup, Synonyms: []ConfigSynonym{
		{Name: StreamsNumStandbyReplicas, Value: &v, Source: SourceGroup}, {Name: "group.streams.num.standby.replicas", Value: &d, Source: SourceDefault}}}
	assert.True(t, e.Dynamic())
	def, ok := e.Default()
	assert.True(t, ok)
	assert.Equal(t, "group.streams.num.standby.replicas", def.Name)
	_, ok = GroupConfigEntry{}.Default()
	assert.False(t, ok)
}
