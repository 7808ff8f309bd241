package diff

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
