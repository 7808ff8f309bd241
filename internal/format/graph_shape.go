package format

// The direction of a plain topology drawing, by its shape. A topology is
// mostly chains (source, processors, sink, a repartition topic, the next
// sub-topology): drawn left to right, a chain of 11 boxes is 11 boxes wide,
// too wide for a page or a screen; drawn top to bottom it is one box wide.
// But many independent short sub-topologies drawn top to bottom stand side
// by side, and then left to right (one row each) is narrower. So the
// drawing goes the way that makes it narrower, estimated from the graph
// before any layout: its depth (the longest path, in boxes) against its
// breadth (per connected part, the most boxes at one depth, summed).

import "slices"

// topDownReadsBetter tells whether the drawing is narrower top to bottom
// (as wide as its breadth) than left to right (as wide as its depth).
func (g *graph) topDownReadsBetter() bool {
	depth, breadth := g.shape()
	return breadth <= depth
}

// shape is the graph's depth (the longest path, in vertices) and breadth
// (per weakly connected part, the most vertices at one depth, summed).
// It costs time and memory linear in the graph (a few int32 per vertex
// and edge); a cycle (a topic a sub-topology both writes and reads) is
// cut where it closes.
func (g *graph) shape() (depth, breadth int) {
	n, edges := g.edgeList()
	start, to, in, spare := adjacency(n, edges)
	level := levels(start, to, in, spare) // in and spare are spent
	find := components(start, to, in)
	return depthAndBreadth(level, find)
}

// edgeList is the number of vertices and the edges (from, to pairs) as
// vertex indexes: processor-graph nodes, then topics, then stores.
func (g *graph) edgeList() (n int, edges []int32) {
	offsets := make([]int, len(g.clusters)+1)
	for i, c := range g.clusters {
		offsets[i+1] = offsets[i] + len(c.nodes)
	}
	nn, nt := offsets[len(g.clusters)], len(g.topics)
	index := func(v vertex) int32 {
		switch v.kind {
		case 't':
			return int32(nn + v.i)
		case 's':
			return int32(nn + nt + v.i)
		}
		return int32(offsets[v.c] + v.i)
	}
	// The edges, in one pass (eachEdge is most of the cost).
	_ = g.eachEdge(func(from, t vertex, _ edgeKind) error {
		edges = append(edges, index(from), index(t))
		return nil
	})
	return nn + nt + len(g.stores), edges
}

// adjacency is the edges as adjacency arrays (CSR): vertex v's successors
// are to[start[v]:start[v+1]]; in is each vertex's in-degree, spare a
// slice of n for the caller to reuse.
func adjacency(n int, edges []int32) (start, to, in, spare []int32) {
	start = make([]int32, n+1)
	in = make([]int32, n)
	for i := 0; i < len(edges); i += 2 {
		start[edges[i]+1]++
		in[edges[i+1]]++
	}
	for v := range n {
		start[v+1] += start[v]
	}
	next := slices.Clone(start[:n])
	to = make([]int32, len(edges)/2)
	for i := 0; i < len(edges); i += 2 {
		to[next[edges[i]]] = edges[i+1]
		next[edges[i]]++
	}
	return start, to, in, next
}

// levels is the depth of each vertex, in topological order (Kahn);
// vertices left on a cycle keep the depth they reached. It spends in
// and queue (a slice of n).
func levels(start, to, in, queue []int32) []int32 {
	n := len(in)
	level := make([]int32, n)
	queue = queue[:0]
	for v := range int32(n) {
		if in[v] == 0 {
			queue = append(queue, v)
		}
	}
	for q := 0; q < len(queue); q++ {
		v := queue[q]
		for _, w := range to[start[v]:start[v+1]] {
			level[w] = max(level[w], level[v]+1)
			if in[w]--; in[w] == 0 {
				queue = append(queue, w)
			}
		}
	}
	return level
}

// components is union-find over the edges, in parent (a slice of n): it
// returns the find of each vertex's part.
func components(start, to, parent []int32) func(int32) int32 {
	for i := range parent {
		parent[i] = int32(i)
	}
	find := func(i int32) int32 {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for v := range int32(len(parent)) {
		for _, w := range to[start[v]:start[v+1]] {
			if a, b := find(v), find(w); a != b {
				parent[max(a, b)] = min(a, b)
			}
		}
	}
	return find
}

// depthAndBreadth are the most levels of any vertex and, per part, the
// most vertices at one depth, summed: the vertices sorted by part
// (counting sort), then a count per depth, reset between parts.
func depthAndBreadth(level []int32, find func(int32) int32) (depth, breadth int) {
	n := len(level)
	byPart := make([]int32, n+1)
	for v := range int32(n) {
		byPart[find(v)+1]++
	}
	for v := range n {
		byPart[v+1] += byPart[v]
	}
	order := make([]int32, n)
	for v := range int32(n) {
		r := find(v)
		order[byPart[r]] = v
		byPart[r]++
	}
	perLevel := make([]int32, n+1)
	for i := 0; i < n; {
		r := find(order[i])
		j, widest := i, int32(0)
		for ; j < n && find(order[j]) == r; j++ {
			l := level[order[j]]
			depth = max(depth, int(l)+1)
			perLevel[l]++
			widest = max(widest, perLevel[l])
		}
		for _, v := range order[i:j] {
			perLevel[level[v]] = 0
		}
		breadth += int(widest)
		i = j
	}
	return depth, breadth
}
