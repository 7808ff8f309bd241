// Package picture turns a Graphviz DOT document into an SVG or PNG picture
// inside the process: Graphviz 12.1.2 compiled to WebAssembly (graphviz.wasm,
// the build that github.com/goccy/go-graphviz v0.2.10 ships) runs on the
// pure-Go wazero runtime, so no Graphviz installation and no CGO are needed.
// Graphviz lays the graph out and decides every shape, sizing the lines
// of text that are not ASCII by this package's measure (textlayout.go:
// its own estimate is per byte and ASCII only); a small SVG is
// written by Graphviz itself, the parts of a large one by this package's
// recording render plugin (record.go: the same bytes, without Graphviz's
// slow number formatting), and a PNG is painted from the recorded
// drawing with x/image's rasterizer and the Go fonts, band by band into
// its own PNG encoder (png.go, raster.go, pngenc.go). Its single job is that
// conversion; it knows nothing of topologies and never prints.
//
// The runtime is built on the first picture only (interpreted for small
// documents, compiled for large ones), so commands that draw
// nothing pay nothing for it (go-graphviz itself instantiates its module in
// a package init, on every start of a program that links it: e2e/FINDINGS.md
// F180).
package picture
