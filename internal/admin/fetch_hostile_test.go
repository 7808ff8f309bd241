package admin_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/admin/admintest"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// A broker that answers Fetch badly, or never: every partition gets one
// clear error, within the caller's time, and nothing else breaks.
func TestFetchFirstRecords_hostile(t *testing.T) {
	for _, tc := range []struct {
		action admintest.Action
		want   string
	}{
		{admintest.Hang, "timed out"},
		{admintest.Oversize, "209715200"},
		{admintest.TruncateBody, "ends before its message"},
		{admintest.NegativeSize, "size"},
		{admintest.CutFrame, "Fetch"},
		{admintest.Close, "Fetch"},
	} {
		t.Run(tc.action.String(), func(t *testing.T) {
			up, err := playground.Start(playground.Config{Nodes: 1, Logf: t.Logf})
			require.NoError(t, err)
			t.Cleanup(func() { _ = up.Close() })
			up.PutTopic("in", 2)
			up.SetLogOffsets("in", 0, 0, 5)
			up.SetLogOffsets("in", 1, 0, 5)
			h := admintest.Start(t, up, admintest.Rule{Key: 1, Action: tc.action})
			cl, err := admin.New(admin.Config{Bootstrap: h.Addrs()})
			require.NoError(t, err)
			t.Cleanup(cl.Close)
			ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
			defer cancel()
			got, _, err := cl.FetchFirstRecords(ctx, []admin.FirstRecordQuery{
				{TopicPartition: kafka.TopicPartition{Topic: "in", Partition: 0}, From: 0, End: 5, Count: true},
				{TopicPartition: kafka.TopicPartition{Topic: "in", Partition: 1}, From: 2, End: 5},
			})
			require.NoError(t, err, "Metadata is answered")
			require.Len(t, got, 2)
			for _, g := range got {
				require.Error(t, g.Err)
				msg := g.Err.Error()
				t.Log(msg)
				assert.NotContains(t, msg, "\n", "one line")
				assert.Contains(t, strings.ToLower(msg), strings.ToLower(tc.want))
				assert.False(t, g.Found)
				assert.False(t, g.Counted)
			}
		})
	}
}
