package format

// The overview as a picture (overview -o dot|mermaid|svg|png): the
// topology drawing of graph.go with the lag on it, top to bottom (an
// application's chain of subtopologies stays readable on a page). The title names the
// group, its lag and its largest task; each subtopology's label adds its
// task count and lag (and, with --time-lag, the time lag of the group and
// of each subtopology), and its border takes the color (and a width) of its
// share of the group's lag: green for none, amber below a quarter, orange
// below a half, red from a half; each source topic's label adds its lag and
// its fill the same scale. A subtopology whose nodes are unknown (the
// description is not AVAILABLE) is drawn from the group's topology: one
// source node reading its source topics, one processor standing for the
// unknown nodes with the stores, and one sink per repartition and sink
// topic, so that topics still link the subtopologies.

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/kstreams-groups/kstreams-groups/internal/overview"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// OverviewGraphContext draws one group's overview in a graph format (dot,
// mermaid, svg, png); a picture's layout ends with ctx, and a topology past
// the limits is a PictureTooLargeError before any layout.
func OverviewGraphContext(ctx context.Context, w io.Writer, o Output, g *overview.Group) error {
	gr := buildGraph(overviewDescription(g))
	gr.notes = overviewNotes(g)
	switch o {
	case Dot:
		return writeDot(w, g.Group, gr)
	case Mermaid:
		return writeMermaid(w, gr)
	case SVG, PNG:
		return drawPicture(ctx, w, o, g.Group, gr)
	}
	return fmt.Errorf("format %q does not draw a topology", o)
}

// overviewDescription is the description to draw: the stored one where a
// subtopology's nodes are known, a stand-in from the group's topology
// elsewhere.
func overviewDescription(g *overview.Group) *topology.Description {
	d := &topology.Description{GlobalStores: g.GlobalStores}
	for _, s := range g.Subtopologies {
		if s.Nodes != nil {
			d.Subtopologies = append(d.Subtopologies, &topology.Subtopology{ID: s.ID, Nodes: s.Nodes})
			continue
		}
		unknown := "nodes unknown (" + g.DescriptionStatus.String() + ")"
		var stores, topics []string
		for _, x := range s.Stores {
			stores = append(stores, x.Name)
		}
		for _, src := range s.Sources {
			topics = append(topics, src.Topic)
		}
		nodes := []*topology.Node{
			{Name: "sources", Kind: topology.Source, Topics: topics, Successors: []string{unknown}},
			{Name: unknown, Kind: topology.Processor, Stores: stores},
		}
		for _, t := range append(append([]string{}, s.RepartitionSinks...), s.Sinks...) {
			sink := "to " + t
			topic := t
			nodes[1].Successors = append(nodes[1].Successors, sink)
			nodes = append(nodes, &topology.Node{Name: sink, Kind: topology.Sink, Topic: &topic})
		}
		topology.LinkPredecessors(nodes)
		d.Subtopologies = append(d.Subtopologies, &topology.Subtopology{ID: s.ID, Nodes: nodes})
	}
	return d
}

func overviewNotes(g *overview.Group) *graphNotes {
	n := &graphNotes{clusters: map[string]graphNote{}, topics: map[string]graphNote{}, lagColors: map[string]bool{}, topDown: true}
	n.title = g.Group + ": lag " + strconv.FormatInt(g.Lag, 10)
	if g.Largest != nil {
		n.title += ", largest task " + g.Largest.String() + " (" + strconv.FormatInt(g.Largest.Lag, 10) + ")"
	}
	if g.Time.Measured {
		n.title += ", time lag " + TimeLagText(g.Time)
	}
	topicLag := map[string]int64{}
	for _, s := range g.Subtopologies {
		share := lagShare(s.Lag, g.Lag)
		label := plural(len(s.Tasks), "task") + ", lag " + strconv.FormatInt(s.Lag, 10)
		if s.Time.Measured {
			label += ", time lag " + TimeLagText(s.Time)
		}
		n.clusters[s.ID] = graphNote{label: label, color: lagColor(s.Lag, share), width: 1.5 + 3*share}
		n.lagColors[lagColor(s.Lag, share)] = true
		for _, src := range s.Sources {
			topicLag[src.Topic] = overview.AddLag(topicLag[src.Topic], src.Lag)
		}
	}
	for t, lag := range topicLag {
		note := graphNote{label: "lag " + strconv.FormatInt(lag, 10)}
		if lag > 0 {
			note.color = lagFill(lagShare(lag, g.Lag))
		}
		n.lagColors[lagColor(lag, lagShare(lag, g.Lag))] = true
		n.topics[t] = note
	}
	return n
}

func lagShare(lag, total int64) float64 {
	if total <= 0 || lag <= 0 {
		return 0
	}
	return float64(lag) / float64(total)
}

// lagColor is a border color on the scale of the file comment.
func lagColor(lag int64, share float64) string {
	switch {
	case lag <= 0:
		return "#188038"
	case share < 0.25:
		return "#f9ab00"
	case share < 0.5:
		return "#e8710a"
	}
	return "#d93025"
}

// lagFill is the matching light fill of a topic with lag.
func lagFill(share float64) string {
	switch {
	case share < 0.25:
		return "#feefc3"
	case share < 0.5:
		return "#fed7aa"
	}
	return "#f6aea9"
}
