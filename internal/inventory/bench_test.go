package inventory_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/inventory"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// seedLarge seeds 500 streams groups of 4 internal topics each (2,000
// declared topics), 2,950 orphaned internal topics of 59 deleted
// applications and 50 input topics: 5,000 topics, on 3 nodes.
func seedLarge(c *playground.Cluster) {
	var specs []playground.TopicSpec
	for i := range 50 {
		specs = append(specs, playground.TopicSpec{Name: fmt.Sprintf("input-%d", i), Partitions: 4})
	}
	for g := range 500 {
		id := fmt.Sprintf("app-%03d", g)
		in := fmt.Sprintf("input-%d", g%50)
		sg := playground.StreamsGroup{ID: id, State: "Stable", Topology: &playground.Topology{Epoch: 1}}
		for s := range 2 {
			rep := fmt.Sprintf("%s-step%d-repartition", id, s)
			cl := fmt.Sprintf("%s-store%d-changelog", id, s)
			sg.Topology.Subtopologies = append(sg.Topology.Subtopologies,
				playground.Subtopology{ID: fmt.Sprint(2 * s), SourceTopics: []string{in}, RepartitionSinkTopics: []string{rep}},
				playground.Subtopology{ID: fmt.Sprint(2*s + 1),
					RepartitionSourceTopics: []playground.TopicInfo{{Name: rep, Configs: map[string]string{"cleanup.policy": "delete"}}},
					StateChangelogTopics:    []playground.TopicInfo{{Name: cl, Configs: map[string]string{"cleanup.policy": "compact"}}}})
			specs = append(specs,
				playground.TopicSpec{Name: rep, Partitions: 4, Configs: map[string]string{"cleanup.policy": "delete"}, Bytes: []int64{1, 2, 3, 4}},
				playground.TopicSpec{Name: cl, Partitions: 4, Configs: map[string]string{"cleanup.policy": "compact"}, Bytes: []int64{10, 20, 30, 40}})
		}
		c.PutStreamsGroup(sg)
	}
	for i := 0; len(specs) < 5000; i++ {
		specs = append(specs, playground.TopicSpec{Name: fmt.Sprintf("old-%02d-store%d-changelog", i%59, i), Partitions: 2, Bytes: []int64{100, 100}})
	}
	c.PutTopicSpecs(specs)
}

// BenchmarkInventoryLarge is issue 24's figure: the inventory of 5,000
// topics and 500 streams groups on the playground, requests batched.
func BenchmarkInventoryLarge(b *testing.B) {
	c, err := playground.Start(playground.Config{Nodes: 3})
	require.NoError(b, err)
	defer c.Close()
	seedStart := time.Now()
	seedLarge(c)
	b.ReportMetric(float64(time.Since(seedStart).Milliseconds()), "seed-ms")
	require.Len(b, c.Topics(), 5000)
	cl, err := admin.New(admin.Config{Bootstrap: c.Addrs()})
	require.NoError(b, err)
	defer cl.Close()
	b.ResetTimer()
	for b.Loop() {
		c.ResetRequests()
		r, err := inventory.Run(context.Background(), cl, inventory.Options{})
		require.NoError(b, err)
		require.Len(b, r.Groups, 500)
		require.Len(b, r.Orphans, 2950)
		perKey := map[int16]int{}
		for _, q := range c.Requests() {
			perKey[q.Key]++
		}
		b.ReportMetric(float64(perKey[3]), "metadata-reqs")
		b.ReportMetric(float64(perKey[32]), "describeconfigs-reqs")
		b.ReportMetric(float64(perKey[35]), "logdirs-reqs")
	}
}
