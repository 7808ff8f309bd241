package admin_test

import (
	"context"
	"testing"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/describe"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// BenchmarkDescribeViews times a whole --describe of the playground's
// page-views group (3 nodes) per view, from a new client's first
// connection to the last answer, each answer 1 ms late as over a network
// between zones. It is issue 32's figure: the offsets view needs requests
// the others do not (OffsetFetch, Metadata, two ListOffsets) and sends
// them together, so that it waits for three round trips more than the
// members view (Metadata, the leaders' connection, ListOffsets), not five.
func BenchmarkDescribeViews(b *testing.B) {
	c, err := playground.StartStateWith(playground.Config{NoRequestLog: true, Latency: time.Millisecond}, playground.DefaultState())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = c.Close() })
	for _, v := range []struct {
		name string
		opts describe.Options
	}{
		{"offsets", describe.Options{Offsets: true}},
		{"members", describe.Options{Members: true}},
		{"state", describe.Options{State: true}},
	} {
		b.Run(v.name, func(b *testing.B) {
			opts := v.opts
			opts.Groups = []string{"page-views"}
			for b.Loop() {
				cl, err := admin.New(admin.Config{Bootstrap: c.Addrs()})
				if err != nil {
					b.Fatal(err)
				}
				res, err := describe.Run(context.Background(), cl, opts)
				cl.Close()
				if err != nil {
					b.Fatal(err)
				}
				if g := res.Groups[0]; g.Err != nil || len(g.Members) == 0 {
					b.Fatalf("page-views: %v, %d members", g.Err, len(g.Members))
				}
			}
		})
	}
}
