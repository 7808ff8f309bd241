package format

import (
	"io"
	"testing"

	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// BenchmarkEncodeTopology100k times -o json|yaml of a 100,000-node
// topology from its model (describe's and render's document), the
// encoder only.
// The materialized runs are the libraries' own, for comparison: the whole
// TopologyDoc built, then encoded (what streaming saves).
func BenchmarkEncodeTopology100k(b *testing.B) {
	d := tt.Large(100_000)
	for _, o := range []Output{JSON, YAML} {
		b.Run(string(o), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := Encode(io.Discard, o, NewTopologyDoc(d)); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(string(o)+"-materialized", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := Encode(io.Discard, o, materialized(d)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEncodeDocument times -o json|yaml of a large document without
// a topology (about 2 MB of compact JSON, overview-like rows).
func BenchmarkEncodeDocument(b *testing.B) {
	v := largeDocument()
	for _, o := range []Output{JSON, YAML} {
		b.Run(string(o), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := Encode(io.Discard, o, v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
