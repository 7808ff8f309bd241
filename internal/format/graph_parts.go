package format

// Pictures (-o svg, -o png) of large topologies. Graphviz lays a graph out
// in more than linear time and memory, so a drawing past splitAbove
// vertices is laid out by connected component (a sub-topology with its
// topics and stores, joined to others through the topics they share) and
// the parts are packed (picture.RenderParts); a smaller one stays one
// layout, as before. Past MaxPictureVertices vertices in all, or
// MaxPicturePartVertices in one component, no layout starts: the command
// says so and suggests -o dot, which has no limit.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/kstreams-groups/kstreams-groups/internal/format/picture"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

const (
	// MaxPictureVertices is the most boxes (processor nodes, topics and
	// stores) a picture draws.
	MaxPictureVertices = 25_000
	// MaxPicturePartVertices is the most boxes of one connected part of
	// a picture: one Graphviz layout.
	MaxPicturePartVertices = 2_000
	// splitAbove is the number of boxes from which a picture is laid out
	// by connected part.
	splitAbove = 300
)

// PictureTooLargeError is a topology too large to draw as a picture.
type PictureTooLargeError struct {
	// Vertices is the number of boxes, Largest the number of the largest
	// connected part.
	Vertices, Largest int
}

func (e *PictureTooLargeError) Error() string {
	if e.Vertices > MaxPictureVertices {
		return fmt.Sprintf("the topology is too large for a picture: %d boxes (nodes, topics and stores), at most %d are drawn; -o dot writes it for Graphviz without a limit",
			e.Vertices, MaxPictureVertices)
	}
	return fmt.Sprintf("the topology is too large for a picture: %d boxes (nodes, topics and stores) are connected, at most %d are laid out together; -o dot writes it for Graphviz without a limit",
		e.Largest, MaxPicturePartVertices)
}

// graphParts are the connected components of a graph: the part of each
// cluster, topic and store, numbered in the order of their first cluster.
type graphParts struct {
	cluster, topic, store []int
	// size is the number of vertices of each part.
	size []int
}

func (g *graph) parts() *graphParts {
	nc, nt := len(g.clusters), len(g.topics)
	parent := make([]int, nc+nt+len(g.stores))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	index := func(v vertex) int {
		switch v.kind {
		case 't':
			return nc + v.i
		case 's':
			return nc + nt + v.i
		}
		return v.c
	}
	_ = g.eachEdge(func(from, to vertex, _ edgeKind) error {
		if a, b := find(index(from)), find(index(to)); a != b {
			parent[max(a, b)] = min(a, b)
		}
		return nil
	})
	p := &graphParts{cluster: make([]int, nc), topic: make([]int, nt), store: make([]int, len(g.stores))}
	number := map[int]int{}
	partOf := func(i, vertices int) int {
		r := find(i)
		k, ok := number[r]
		if !ok {
			k = len(p.size)
			number[r] = k
			p.size = append(p.size, 0)
		}
		p.size[k] += vertices
		return k
	}
	for c := range g.clusters {
		p.cluster[c] = partOf(c, len(g.clusters[c].nodes))
	}
	for t := range g.topics {
		p.topic[t] = partOf(nc+t, 1)
	}
	for s := range g.stores {
		p.store[s] = partOf(nc+nt+s, 1)
	}
	return p
}

// drawPicture lays g out and writes it as -o svg or png: checked against
// the limits first, then as one layout or by part.
func drawPicture(ctx context.Context, w io.Writer, o Output, name string, g *graph) error {
	p := g.parts()
	total, largest := 0, 0
	for _, n := range p.size {
		total += n
		largest = max(largest, n)
	}
	if total > MaxPictureVertices || largest > MaxPicturePartVertices {
		return &PictureTooLargeError{Vertices: total, Largest: largest}
	}
	f := picture.SVG
	if o == PNG {
		f = picture.PNG
	}
	g.pictured = true
	if total <= splitAbove || len(p.size) == 1 {
		var dot bytes.Buffer
		if err := writeDot(&dot, name, g); err != nil {
			return err
		}
		return picture.Render(ctx, dot.Bytes(), f, w)
	}
	var docs [][]byte
	titled := g.notes != nil && g.notes.title != "" || len(g.legend().entries) > 0
	if titled {
		// The title and the legend: the first part, on top.
		var dot bytes.Buffer
		bw := newGraphWriter(&dot)
		g.writeDotHeader(bw, name, g.direction(), true)
		g.writeDotLegend(bw)
		bw.WriteString("}\n")
		if err := bw.Flush(); err != nil {
			return err
		}
		docs = append(docs, dot.Bytes())
	}
	// One layout per part: putting a few small parts in one document
	// saves nothing (measured), and a part is what the limit bounds. All
	// parts are written in one pass over the graph.
	bufs := make([]bytes.Buffer, len(p.size))
	ws := make([]*graphWriter, len(p.size))
	for k := range ws {
		ws[k] = &graphWriter{Writer: bufio.NewWriterSize(&bufs[k], 4<<10)}
	}
	if err := writeDotParts(ws, name, g, p); err != nil {
		return err
	}
	for k := range bufs {
		docs = append(docs, bufs[k].Bytes())
	}
	return picture.RenderParts(ctx, docs, titled, f, w)
}

// TopologyGraphContext is TopologyGraph whose picture layout (svg, png)
// ends with ctx; a topology past the limits is a PictureTooLargeError
// before any layout.
func TopologyGraphContext(ctx context.Context, w io.Writer, o Output, name string, d *topology.Description) error {
	if o.Picture() {
		return drawPicture(ctx, w, o, name, buildGraph(d))
	}
	return TopologyGraph(w, o, name, d)
}
