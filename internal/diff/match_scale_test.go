package diff

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// Sub-topologies of a DSL application share their node families
// (KSTREAM-FILTER-#, ...), so every pair shares a feature: comparing them
// all is quadratic (5,000 against 12,000 took minutes). Past a budget only
// rarer features (a source topic, a store) propose pairs: the pairs
// examined grow with the sub-topologies, and each still finds its own.
func TestMatchSubtopologies_sharedFamiliesStayLinear(t *testing.T) {
	for _, n := range []int{1000, 4000} {
		old := normalize(Input{Description: tt.Generated(n, 0, "out")}, &stopper{ctx: context.Background()})
		new := normalize(Input{Description: tt.Generated(2*n, 1, "out-v2")}, &stopper{ctx: context.Background()})
		m := newSubMatcher(old.desc.Subtopologies, new.desc.Subtopologies, &stopper{ctx: context.Background()})
		pairs, removed, added := m.match()
		t.Logf("%d against %d sub-topologies: %d similarities computed", n, 2*n, m.examined)
		assert.LessOrEqual(t, m.examined, 4*n, "pairs examined grow linearly")
		require.Len(t, pairs, n)
		assert.Empty(t, removed)
		assert.Len(t, added, n)
		for _, p := range pairs {
			require.Equal(t, p.old.ID, p.new.ID, "each sub-topology pairs with its own")
		}
	}
}

// A small topology is still compared exhaustively: two sub-topologies
// that share only node families pair (the most similar first).
func TestMatchSubtopologies_smallIsExhaustive(t *testing.T) {
	old := tt.Generated(3, 0, "out").Subtopologies
	new := tt.Generated(3, 0, "other").Subtopologies
	for _, s := range new {
		// Every topic and store differs: only the families are shared.
		for _, nd := range s.Nodes {
			for k := range nd.Topics {
				nd.Topics[k] = "renamed-" + nd.Topics[k]
			}
			for k := range nd.Stores {
				nd.Stores[k] = "my-store-" + s.ID
			}
		}
	}
	m := newSubMatcher(old, new, &stopper{ctx: context.Background()})
	pairs, removed, added := m.match()
	assert.Len(t, pairs, 3)
	assert.Empty(t, removed)
	assert.Empty(t, added)
}

// A cancelled context ends a comparison with its cause.
func TestCompareContext_cancelled(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := assert.AnError
	cancel(stop)
	c, err := CompareContext(ctx, Input{Description: tt.Generated(2000, 0, "out")}, Input{Description: tt.Generated(2000, 1, "x")})
	assert.Nil(t, c)
	assert.ErrorIs(t, err, stop)
}

// renamedGlobals is n global stores, every name (topic, store, nodes)
// with the suffix v: two of them share nothing.
func renamedGlobals(n int, v string) *topology.Description {
	var g [][2]*topology.Node
	for i := range n {
		src, proc := fmt.Sprintf("global-source%s-%d", v, i), fmt.Sprintf("global-processor%s-%d", v, i)
		g = append(g, [2]*topology.Node{tt.Src(src, []string{fmt.Sprintf("global-topic%s-%d", v, i)}, proc),
			tt.Proc(proc, []string{fmt.Sprintf("global-store%s-%d", v, i)})})
	}
	return tt.Desc(nil, g...)
}

// renamedRepartitions is n sub-topologies that each write a repartition
// topic, every name with the suffix v: no node pairs across two of them
// but the source, so each renamed topic is found through its
// sub-topology (onlyNewRepartition).
func renamedRepartitions(n int, v string) *topology.Description {
	var subs []*topology.Subtopology
	for i := range n {
		src, proc, sink := fmt.Sprintf("source%s-%d", v, i), fmt.Sprintf("process%s-%d", v, i), fmt.Sprintf("sink%s-%d", v, i)
		subs = append(subs, tt.Sub(fmt.Sprint(i),
			tt.Src(src, []string{fmt.Sprintf("input-%d", i)}, proc),
			tt.Proc(proc, nil, sink),
			tt.Sink(sink, fmt.Sprintf("step%s-%d-repartition", v, i))))
	}
	return tt.Desc(subs)
}

// renamedStores is one processor keeping n stores, every name with the
// suffix v.
func renamedStores(n int, v string) *topology.Description {
	stores := make([]string, 0, n)
	for i := range n {
		stores = append(stores, fmt.Sprintf("store%s-%d", v, i))
	}
	return tt.Desc([]*topology.Subtopology{tt.Sub("0", tt.Src("source", []string{"input"}, "process"), tt.Proc("process", stores))})
}

// wideRepartitionSource is one source reading n repartition topics, every
// name with the suffix v.
func wideRepartitionSource(n int, v string) *topology.Description {
	topics := make([]string, 0, n)
	for i := range n {
		topics = append(topics, fmt.Sprintf("step%s-%d-repartition", v, i))
	}
	return tt.Desc([]*topology.Subtopology{tt.Sub("0", tt.Src("source", topics, "process"), tt.Proc("process", nil))})
}

// alikeSubtopologies is n sub-topologies of the same families, each a
// pattern source and a sink of one topic, their generated names from
// first on.
func alikeSubtopologies(n, first int) *topology.Description {
	var subs []*topology.Subtopology
	for i := range n {
		src, sink := fmt.Sprintf("KSTREAM-SOURCE-%010d", first+2*i), fmt.Sprintf("KSTREAM-SINK-%010d", first+2*i+1)
		s := tt.Src(src, nil, sink)
		s.Pattern = "events-.*"
		subs = append(subs, tt.Sub(fmt.Sprint(i), s, tt.Sink(sink, "out")))
	}
	return tt.Desc(subs)
}

// Global stores, repartition topics, stores and sub-topologies that no
// name pairs were compared with every candidate of NEW: 4,000 renamed
// global stores took 5 s, 10,000 renamed repartition topics 16 s, a
// processor with 5,000 renamed stores 4.5 s (20,000: minutes), a source
// of 5,000 renamed repartition topics 3.7 s (20,000: minutes), 20,000
// sub-topologies alike 7 s. The steps of a comparison
// (every loop that grows with the input ticks the stopper) grow linearly.
func TestCompare_candidatesByIndexStayLinear(t *testing.T) {
	for _, c := range []struct {
		name  string
		sides func(n int) (*topology.Description, *topology.Description)
		kind  Kind
	}{
		{"global stores", func(n int) (*topology.Description, *topology.Description) {
			return renamedGlobals(n, ""), renamedGlobals(n, "-v2")
		}, GlobalStoreAdded},
		{"repartition topics", func(n int) (*topology.Description, *topology.Description) {
			return renamedRepartitions(n, ""), renamedRepartitions(n, "-v2")
		}, RepartitionRenamed},
		{"stores of a processor", func(n int) (*topology.Description, *topology.Description) {
			return renamedStores(n, ""), renamedStores(n, "-v2")
		}, StoreRenamed},
		{"repartition topics of a source", func(n int) (*topology.Description, *topology.Description) {
			return wideRepartitionSource(n, ""), wideRepartitionSource(n, "-v2")
		}, RepartitionRenamed},
		{"sub-topologies alike", func(n int) (*topology.Description, *topology.Description) {
			return alikeSubtopologies(n, 0), alikeSubtopologies(n, 1)
		}, DynamicNode},
	} {
		t.Run(c.name, func(t *testing.T) {
			var ticks []int
			for _, n := range []int{500, 2000} {
				old, new := c.sides(n)
				stop := &stopper{ctx: context.Background()}
				cmp := compare(stop, Input{Description: old}, Input{Description: new})
				count := 0
				for _, f := range cmp.Findings {
					if f.Kind == c.kind {
						count++
					}
				}
				require.Equal(t, n, count, "each one found")
				ticks = append(ticks, stop.ticks)
			}
			t.Logf("steps at 500 and 2,000: %v", ticks)
			assert.Less(t, ticks[1], 6*ticks[0], "four times the input, about four times the steps")
		})
	}
}
