//go:build e2e

package e2e

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"
)

// TestUpgradeFacts confirms on a real 4.4.0 broker, with the real Kafka Streams 4.4.0
// application of the notes (e2e.UpgradeApp), the facts `upgrade` rests on
// (../shared/reference/upgrade-migration.md, issue 33): the broker refuses v2 (store renamed),
// v4 (repartition topic renamed) and v5 (source added) for the existing Empty group; deleting
// the group removes its offsets, not its internal topics; an offset commit to the absent group
// makes an Empty "simple" classic group holding them; the first streams heartbeat converts it,
// keeps the offsets and accepts the topology that was refused; the application resumes where v1
// stopped, and the renamed store starts empty. All by hand, with no kstreams-groups command.
func TestUpgradeFacts(t *testing.T) {
	b := SharedBroker(t, BrokerOptions{})
	s := newUpScenario(t, b, "", "facts")
	ctx := context.Background()
	v1 := s.runV1()
	repartition := s.internal("by-key-repartition")
	require.Equal(t, upWant(repartition, s.ends(repartition)...), upPick(v1, repartition), "v1 drained its repartition topic")
	require.Len(t, v1, 6, "3 input and 3 repartition partitions: %s", upSorted(v1))

	// The broker refuses each changed topology for the existing Empty group.
	for _, v := range []string{"v2", "v4", "v5"} {
		s.expectRefused(v)
	}
	require.Equal(t, v1, s.committed(), "the refused starts committed nothing")

	// DeleteGroups removes the group and every offset; the internal topics stay.
	resp, err := b.DeleteGroupsRaw(ctx, 3, s.app)
	require.NoError(t, err)
	require.Equal(t, int16(0), resp.Groups[0].ErrorCode)
	assert.Empty(t, s.committed())
	topics := listTopics(t, b)
	for _, it := range []string{"by-key-repartition", "counts-changelog"} {
		assert.Contains(t, topics, s.internal(it))
	}

	// An admin offset commit (generation -1, no member) to the absent group is accepted and
	// makes an Empty classic group with no protocol and no member, holding the offsets.
	for tp, off := range v1 {
		i := strings.LastIndexByte(tp, '-')
		p := int32(tp[i+1] - '0')
		require.Equal(t, int16(0), ooAdminCommit(t, b, s.app, tp[:i], p, off), tp)
	}
	require.Equal(t, v1, s.committed())
	state, protocolType, groupType, members := s.classicGroup()
	assert.Equal(t, "Empty", state)
	assert.Equal(t, "", protocolType, "a simple group: no protocol")
	assert.Equal(t, "classic", groupType)
	assert.Zero(t, members)
	g, err := b.DescribeStreamsGroup(ctx, s.app, false)
	require.NoError(t, err)
	assert.Equal(t, "GROUP_ID_NOT_FOUND", errName(g.ErrorCode))
	assert.Equal(t, "Group "+s.app+" is not a streams group.", deref(g.ErrorMessage))

	// 12 more records; v2 (refused before) starts: its first heartbeat converts the group,
	// which keeps the offsets and takes v2's topology.
	s.produce()
	since := s.logSize()
	v2 := s.start("v2")
	require.NoError(t, v2.WaitGroupState(ctx, b, "Stable", 60*time.Second))
	got := s.waitCaughtUp(v2, 2*upRecords, repartition)
	s.stop(v2)
	_, err = dfWaitLog(v2, since, upRefused, time.Millisecond)
	assert.Error(t, err, "v2 was not refused after the conversion")
	broker, err := os.ReadFile(filepath.Join(b.Dir, "broker.log"))
	require.NoError(t, err)
	// The notes say no broker log line marks the conversion; 4.4.0 logs one (FINDINGS F344, F650).
	assert.Contains(t, string(broker), "[GroupId "+s.app+"] Converted the empty classic group to a streams group.")
	g, err = b.DescribeStreamsGroup(ctx, s.app, true)
	require.NoError(t, err)
	require.Equal(t, int16(0), g.ErrorCode)
	var changelogs []string
	for _, st := range g.Topology.Subtopologies {
		for _, c := range st.StateChangelogTopics {
			changelogs = append(changelogs, c.Topic)
		}
	}
	assert.Equal(t, []string{s.internal("counts-v2-changelog")}, changelogs, "the group holds v2's topology")

	// Resumed: exactly 12 more records out, up-in committed 8/8/8; the renamed store started
	// empty (1, 2, 3 again).
	out := s.out()
	require.Len(t, out, 2*upRecords, "exactly the 12 new records were processed")
	assert.Equal(t, upCounts(1, 2, 3), upCountsFrom(out, upRecords), "the renamed store started empty")
	assert.Equal(t, upWant(s.topic("up-in"), 8, 8, 8), upPick(got, s.topic("up-in")))
	assert.True(t, slices.Contains(listTopics(t, b), s.internal("counts-changelog")), "the old changelog is left behind")
}

// errName is a Kafka error code's name ("" for none).
func errName(code int16) string {
	if code == 0 {
		return ""
	}
	var ke *kerr.Error
	if errors.As(kerr.ErrorForCode(code), &ke) {
		return ke.Message
	}
	return fmt.Sprintf("error %d", code)
}

// deref is *s, "" for nil.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
