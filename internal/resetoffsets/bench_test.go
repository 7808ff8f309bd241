package resetoffsets

import (
	"context"
	"testing"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// BenchmarkPlan plans a reset of one streams group over 1,000 committed
// partitions of a 3-node playground, as one CLI run does: a fresh client
// (so its ApiVersions, Metadata and FindCoordinator count), describe,
// fetch, and the ListOffsets of every partition leader. requests/op is the
// playground's request log for one plan.
func BenchmarkPlan(b *testing.B) {
	const partitions = 1000
	c, err := playground.Start(playground.Config{Nodes: 3})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = c.Close() })
	c.PutTopic("in", partitions)
	c.PutStreamsGroup(playground.StreamsGroup{ID: "g", State: "Empty", Topology: &playground.Topology{
		Subtopologies: []playground.Subtopology{{ID: "0", SourceTopics: []string{"in"}}}}})
	for p := range int32(partitions) {
		c.SetLogOffsets("in", p, 10, 110)
		ts := make([]int64, 100)
		for i := range ts {
			ts[i] = int64(i) * 1000
		}
		c.SetRecordTimestamps("in", p, ts)
		c.Commit("g", playground.Committed{Topic: "in", Partition: p, Offset: 50, LeaderEpoch: -1})
	}
	for _, bc := range []struct {
		name string
		req  Request
	}{
		{"to-offset", Request{Groups: []string{"g"}, AllInputTopics: true, Scenario: ToOffset, Offset: 5}},
		{"to-datetime", Request{Groups: []string{"g"}, AllInputTopics: true, Scenario: ToDatetime, Timestamp: 42_500}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			ctx := context.Background()
			var requests int
			b.ReportAllocs()
			for b.Loop() {
				c.ResetRequests()
				cl, err := admin.New(admin.Config{Bootstrap: c.Addrs()})
				if err != nil {
					b.Fatal(err)
				}
				res, err := Run(ctx, cl, bc.req)
				cl.Close()
				if err != nil || len(res.Groups) != 1 || res.Groups[0].Err != nil || len(res.Groups[0].Partitions) != partitions {
					b.Fatalf("plan failed: %v %+v", err, res)
				}
				requests = len(c.Requests())
			}
			b.ReportMetric(float64(requests), "requests/op")
			b.ReportMetric(partitions, "partitions")
		})
	}
}
