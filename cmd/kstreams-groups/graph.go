package main

import (
	"github.com/kstreams-groups/kstreams-groups/internal/describe"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// describeGraphs prints --describe --topology -o dot|mermaid: the drawing of
// each AVAILABLE description on stdout (one dot graph per group; Mermaid
// holds one diagram, so it takes one group), and Kafka's status messages
// and errors on stderr, where they cannot break the drawing. Exit codes are
// those of the text view.
func (a *app) describeGraphs(res *describe.Result) error {
	if a.cfg.Output == format.Mermaid && len(res.Groups) > 1 {
		return usageErrorf("-o mermaid draws one group; pass a single --group (or use -o dot, which draws one graph per group)")
	}
	var failures []error
	for _, g := range res.Groups {
		switch {
		case g.Err != nil:
			a.printGroupError(g.Group, g.Err)
			failures = append(failures, g.Err)
		case g.TopologyStatus == topology.Available:
			if err := format.TopologyGraph(a.io.Out, a.cfg.Output, g.Group, g.Topology); err != nil {
				return err
			}
		default:
			msg := format.NotStoredMessage(g.Group)
			if g.TopologyStatus == topology.Error {
				msg = format.ErrorMessage(g.Group)
			}
			a.printError(msg)
			failures = append(failures, &kafka.StatusError{Group: g.Group, Status: g.TopologyStatus})
		}
	}
	if len(failures) > 0 {
		return &outcomeError{causes: failures}
	}
	return nil
}
