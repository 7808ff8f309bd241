package web_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/kstreams-groups/kstreams-groups/internal/check"
	"github.com/kstreams-groups/kstreams-groups/internal/serve/web"
	"github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// BenchmarkAPI answers the page's documents from memory: the group list
// of 2,000 groups, and the detail of a group of 10,000 nodes.
func BenchmarkAPI(b *testing.B) {
	c := syntheticCluster("prod", 2000)
	c.Check.Groups = append(c.Check.Groups, check.Evaluate(syntheticGroup("big-10k", topologytest.Large(10000), 5000), c.Check.Options))
	h := web.Handler(newSource(c))
	for _, bc := range []struct{ name, path string }{
		{"groups-2000", "/api/v1/groups"},
		{"check-2000", "/api/v1/clusters/prod/check"},
		{"detail-10k-nodes", "/api/v1/clusters/prod/groups/big-10k"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, bc.path, nil)
			var size int
			for b.Loop() {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("%s: %d %s", bc.path, rec.Code, rec.Body)
				}
				size = rec.Body.Len()
			}
			b.ReportMetric(float64(size), "bytes/doc")
		})
	}
}
