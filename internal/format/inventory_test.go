package format

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/format/promtest"
	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/inventory"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

func inventoryResult() *inventory.Result {
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	old := at.Add(-48 * time.Hour)
	return &inventory.Result{At: at, Brokers: 3,
		Groups: []*inventory.Group{{Group: "wc", Live: true, State: "NotReady",
			Topics: []inventory.Topic{
				{Name: "wc-counts-changelog", Kind: kafka.ChangelogTopic, Subtopology: "1", ExpectedPartitions: 2, Present: true, Partitions: 2, ReplicationFactor: 3,
					Declared: kafka.DeclaredTopic{Name: "wc-counts-changelog", Kind: kafka.ChangelogTopic, Configs: []kafka.ConfigEntry{{Key: "cleanup.policy", Value: "compact"}}},
					Usage:    inventory.Usage{Bytes: 3 << 20, CopyBytes: 1 << 20, Copies: 3, SizeKnown: true, Newest: &old}},
				{Name: "wc-counts-repartition", Kind: kafka.RepartitionTopic, Subtopology: "1", ExpectedPartitions: 2, Present: true, Partitions: 3, ReplicationFactor: 3,
					Usage: inventory.Usage{SizeKnown: true, Copies: 3, Empty: true}},
				{Name: "wc-x\x1b[31m-changelog", Kind: kafka.ChangelogTopic, Subtopology: "1"},
			},
			Findings: []inventory.Finding{{Kind: inventory.FindingPartitions, Topic: "wc-counts-repartition", Want: "2", Have: "3"},
				{Kind: inventory.FindingMissing, Topic: "wc-x\x1b[31m-changelog"}}},
			{Group: "broken", Live: true, Err: errors.New("boom")}},
		Orphans: []inventory.Orphan{{Topic: "gone-store-changelog", Application: "gone", Reason: "no streams group gone exists", Partitions: 1, ReplicationFactor: 3,
			Usage: inventory.Usage{Bytes: 300, CopyBytes: 100, Copies: 3, SizeKnown: true, Unknown: 1}}},
		Kept:     []inventory.Kept{{Topic: "legacy-store-changelog", Reason: "group legacy-reader has committed offsets on it"}},
		Deletion: &inventory.Deletion{MinAge: 24 * time.Hour, Topics: []inventory.Outcome{{Topic: "gone-store-changelog", Outcome: inventory.Skipped, Reason: "its age is unknown"}}},
	}
}

func TestInventoryViews(t *testing.T) {
	r := inventoryResult()
	t.Run("text", func(t *testing.T) {
		var b bytes.Buffer
		require.NoError(t, InventoryText(&b, r))
		assert.NotContains(t, b.String(), "\x1b", "broker strings escaped")
		golden.Assert(t, b.Bytes())
	})
	t.Run("json", func(t *testing.T) {
		var b bytes.Buffer
		require.NoError(t, Encode(&b, JSON, NewInventoryDoc(r)))
		golden.Assert(t, b.Bytes())
	})
	t.Run("prometheus", func(t *testing.T) {
		var b bytes.Buffer
		require.NoError(t, InventoryPrometheus(&b, r))
		fams := promtest.Parse(t, b.String())
		assert.EqualValues(t, 3<<20, promtest.Value(t, fams, "kstreams_inventory_application_bytes", "group", "wc"))
		assert.EqualValues(t, 300, promtest.Value(t, fams, "kstreams_inventory_orphaned_bytes", "application", "gone"))
		assert.EqualValues(t, 300, promtest.Value(t, fams, "kstreams_inventory_orphaned_bytes_total"))
		golden.Assert(t, b.Bytes())
	})
}
