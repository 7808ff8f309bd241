package picture

// The Graphviz driver. graphviz.wasm is a WASI command module linked with
// --export-all: it exports Graphviz's C API (agmemread, gvLayout,
// gvRenderData, ...) and malloc/free, and imports 66 "env" callbacks that
// go-graphviz uses for plugins written in Go. Graphviz's built-in plugins
// are used (the dot layout and the core renderers: svg, json), one
// render plugin of ours, the recorder (record.go), whose callbacks are
// the RenderEngine ones, and one text layout plugin (textlayout.go);
// every other callback fails loudly if called.
//
// wasm32 pointers are 32 bits; the module is instantiated afresh for each
// picture, so nothing leaks from one picture into the next (the parts of
// one picture share an instance per CPU, each part freed after its
// layout).

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// graphvizWASM is Graphviz 12.1.2 for wasm32-wasi, copied byte for byte
// from github.com/goccy/go-graphviz v0.2.10 (internal/wasm/graphviz.wasm;
// EPL-1.0, see NOTICE). scripts/graphviz-wasm.sh refreshes it;
// TestGraphvizWASMChecksum pins it.
//
//go:embed graphviz.wasm
var graphvizWASM []byte

// GraphvizWASMSHA256 is the SHA-256 of the embedded graphviz.wasm.
const GraphvizWASMSHA256 = "7cc5b0a5f176aeaa69760ed5dc3282ceda2b1b04229b22de77bb0a5eab45578e"

// engine is a runtime with graphviz.wasm compiled for it, built once per
// process on first use.
type engine struct {
	once     sync.Once
	config   func() wazero.RuntimeConfig
	runtime  wazero.Runtime
	compiled wazero.CompiledModule
	err      error
}

// Two engines: wazero's interpreter compiles graphviz.wasm in about 0.08 s
// but lays out about 25 times slower than machine code, and its compiler
// needs about 0.5 s first (e2e/FINDINGS.md F183). A topology-sized DOT
// document (up to about 35 nodes) is laid out sooner by the interpreter;
// a larger one by the compiler (where wazero has none for the platform,
// NewRuntimeConfig is the interpreter too). The compiler's machine code is
// kept in the user's cache directory (compilationCache), so that only the
// first large picture on a machine pays for it.
var (
	interpreted = &engine{config: wazero.NewRuntimeConfigInterpreter}
	compiled    = &engine{config: func() wazero.RuntimeConfig {
		c := wazero.NewRuntimeConfig()
		if cache := compilationCache(); cache != nil {
			c = c.WithCompilationCache(cache)
		}
		return c
	}}
	// renderMu makes one rendering at a time: a picture is one command's
	// output, and two instances at once would only double the memory.
	renderMu sync.Mutex
)

// compilationCache is wazero's cache of compiled modules under
// os.UserCacheDir()/kstreams-groups/wazero (keyed by the module's hash
// and wazero's version; written atomically, so concurrent processes are
// safe), or nil where there is no such directory or it cannot be made:
// then every process compiles, as before.
func compilationCache() wazero.CompilationCache {
	dir, err := os.UserCacheDir()
	if err != nil {
		return nil
	}
	dir = filepath.Join(dir, "kstreams-groups", "wazero")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil
	}
	cache, err := wazero.NewCompilationCacheWithDir(dir)
	if err != nil {
		return nil
	}
	return cache
}

// compileAbove is the DOT size from which the compiler is used.
const compileAbove = 4 << 10

func engineForSize(size int) *engine {
	if size > compileAbove {
		return compiled
	}
	return interpreted
}

// load builds the engine's runtime and compiles graphviz.wasm for it.
func (e *engine) load() error {
	e.once.Do(func() {
		ctx := context.Background()
		// Not WithCloseOnContextDone: its check at every loop of the
		// compiled code doubles the time of a layout (1.6 s to 3.3 s of
		// CPU for 200 parts). A picture stops between Graphviz calls
		// instead (instance.call), and the limits (format) keep each
		// layout short.
		r := wazero.NewRuntimeWithConfig(ctx, e.config())
		// The compiler's functions are compiled by a worker per CPU: the
		// first large picture on a machine waits for it (the interpreter
		// compiles in one pass, no faster with workers).
		compiled, err := r.CompileModule(experimental.WithCompilationWorkers(ctx, runtime.GOMAXPROCS(0)), graphvizWASM)
		if err != nil {
			e.err = fmt.Errorf("graphviz.wasm: %w", err)
			return
		}
		env := r.NewHostModuleBuilder("env")
		for _, f := range compiled.ImportedFunctions() {
			module, name, _ := f.Import()
			if module != "env" {
				continue
			}
			fn := api.GoModuleFunc(func(context.Context, api.Module, []uint64) {
				panic("graphviz.wasm called back " + name + ", which this build does not provide")
			})
			if cb, ok := recordingCallbacks[name]; ok {
				fn = recordingHost(cb)
			}
			if name == textLayoutImport {
				fn = textLayout
			}
			env = env.NewFunctionBuilder().WithGoModuleFunction(fn, f.ParamTypes(), f.ResultTypes()).Export(name)
		}
		if _, err := env.Instantiate(ctx); err != nil {
			e.err = fmt.Errorf("graphviz.wasm: %w", err)
			return
		}
		if _, err := wasi_snapshot_preview1.Instantiate(ctx, r); err != nil {
			e.err = fmt.Errorf("graphviz.wasm: %w", err)
			return
		}
		e.runtime, e.compiled = r, compiled
	})
	return e.err
}

// instance is one instantiated graphviz.wasm.
type instance struct {
	ctx    context.Context
	mod    api.Module
	stderr *bytes.Buffer
	// rec is the recording renderer's drawing of the document being
	// rendered (record.go).
	rec    *recording
	recBuf *bytes.Buffer
	// funcs, stack and scratch serve the recording callbacks' calls.
	funcs   map[string]api.Function
	called  map[string]api.Function
	stack   [1]uint64
	scratch uint32
}

// drawing is one document as Graphviz drew it: data, what a Graphviz
// writer wrote (SVG, or -Tjson for PNG), or rec, what the recording
// renderer made of it.
type drawing struct {
	data []byte
	rec  *recording
}

// graphviz renders dot in Graphviz's output format name ("svg", "json")
// with the dot layout and returns what Graphviz wrote.
func graphviz(ctx context.Context, dot []byte, name string) (drawing, error) {
	outs, err := graphvizAll(ctx, [][]byte{dot}, name)
	if err != nil {
		return drawing{}, err
	}
	return outs[0], nil
}

// graphvizAll renders each document as graphviz does. The documents are
// shared out among up to one instance per CPU (each with one Graphviz
// context), each instance taking the next document when it is done with
// one: the parts of a large drawing (pack.go) pay for neither again, and
// a picture of hundreds of parts takes the machine's cores. A part's
// layout does not depend on the instance that made it. It stops at the
// next Graphviz call once ctx is done, with ctx's cause.
func graphvizAll(ctx context.Context, dots [][]byte, name string) ([]drawing, error) {
	size := 0
	for _, d := range dots {
		size += len(d)
	}
	e := engineForSize(size)
	// Compiling graphviz.wasm takes a second of CPU and cannot be
	// interrupted: a signal does not wait for it.
	loaded := make(chan error, 1)
	go func() { loaded <- e.load() }()
	select {
	case err := <-loaded:
		if err != nil {
			return nil, err
		}
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
	renderMu.Lock()
	defer renderMu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, context.Cause(ctx)
	}
	// One instance unless there are parts enough to share: an instance
	// costs its start and memory.
	workers := 1
	if len(dots) >= 2*minPerInstance {
		workers = min(runtime.GOMAXPROCS(0), maxInstances, len(dots)/minPerInstance)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	outs := make([]drawing, len(dots))
	errs := make([]error, workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	for i := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = e.renderEach(ctx, dots, outs, &next, name)
			if errs[i] != nil {
				cancel(errs[i])
			}
		}()
	}
	wg.Wait()
	// The first failure, not the others' "canceled" that it caused.
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return nil, err
		}
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return outs, nil
}

const (
	// maxInstances bounds the instances of one picture (each holds its
	// own memory, tens of MB for a large part).
	maxInstances = 4
	// minPerInstance is the fewest documents that make another instance
	// worth its start.
	minPerInstance = 8
)

// renderEach instantiates graphviz.wasm and renders documents on it,
// taking their indexes from next, until none is left.
func (e *engine) renderEach(ctx context.Context, dots [][]byte, outs []drawing, next *atomic.Int64, name string) (err error) {
	var stderr bytes.Buffer
	mod, err := e.runtime.InstantiateModule(ctx, e.compiled,
		wazero.NewModuleConfig().WithName("").WithStderr(&stderr))
	if err != nil {
		return stoppedOr(ctx, fmt.Errorf("graphviz.wasm: %w", err))
	}
	defer mod.Close(context.Background())
	in := &instance{mod: mod, stderr: &stderr, funcs: map[string]api.Function{}, called: map[string]api.Function{}, recBuf: &bytes.Buffer{}}
	in.ctx = context.WithValue(ctx, instanceKey{}, in)
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("graphviz.wasm: %v", r)
		}
		err = stoppedOr(ctx, err)
	}()
	gvc, err := in.context()
	if err != nil {
		return err
	}
	defer in.call("gvFreeContext", gvc) //nolint:errcheck // best effort on a module that is closed next
	for {
		k := int(next.Add(1) - 1)
		if k >= len(dots) {
			return nil
		}
		stderr.Reset()
		out, err := in.draw(gvc, dots[k], name)
		if err != nil {
			return err
		}
		outs[k] = out
	}
}

// stoppedOr is ctx's cause once ctx is done (the error of a call that the
// end of ctx interrupted says only that the module closed), else err.
func stoppedOr(ctx context.Context, err error) error {
	if err != nil && ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return err
}

// draw renders dot as render does; for the recording formats, as the
// recording renderer records it, or, where it does not write what the
// drawing needs, with Graphviz's own writer of the same format.
func (in *instance) draw(gvc uint64, dot []byte, name string) (drawing, error) {
	if name != recSVG && name != recPNG {
		data, err := in.render(gvc, dot, name)
		return drawing{data: data}, err
	}
	// One buffer per instance, reused: each part keeps an exact copy.
	in.recBuf.Reset()
	in.rec = &recording{png: name == recPNG, svg: in.recBuf}
	defer func() { in.rec = nil }()
	if !in.rec.png {
		in.rec.svg.WriteString(svgPrologue)
	}
	// The class attribute is written by svg_print_id_class, which the
	// recorder does not read.
	unsupported := bytes.Contains(dot, []byte("class"))
	if !unsupported {
		if _, err := in.render(gvc, dot, name); err != nil {
			return drawing{}, err
		}
		unsupported = in.rec.unsupported != ""
	}
	if unsupported {
		own := "svg"
		if in.rec.png {
			own = "json"
		}
		data, err := in.render(gvc, dot, own)
		return drawing{data: data}, err
	}
	in.rec.svg = bytes.NewBuffer(bytes.Clone(in.recBuf.Bytes()))
	return drawing{rec: in.rec}, nil
}

// render runs the Graphviz calls of `dot -T<name>` on one instance.
func (in *instance) render(gvc uint64, dot []byte, name string) ([]byte, error) {
	src, err := in.cstring(string(dot))
	if err != nil {
		return nil, err
	}
	defer in.call("free", src) //nolint:errcheck // releasing wasm memory; the render already succeeded or failed
	g, err := in.call("agmemread", src)
	if err != nil {
		return nil, err
	}
	if g == 0 {
		return nil, in.failure("the DOT document does not parse")
	}
	defer in.call("agclose", g) //nolint:errcheck // releasing wasm memory; the render already succeeded or failed
	layout, err := in.cstring("dot")
	if err != nil {
		return nil, err
	}
	defer in.call("free", layout) //nolint:errcheck // releasing wasm memory; the render already succeeded or failed
	if rc, err := in.call("gvLayout", gvc, g, layout); err != nil {
		return nil, err
	} else if int32(rc) != 0 {
		return nil, in.failure("the dot layout failed")
	}
	defer in.call("gvFreeLayout", gvc, g) //nolint:errcheck // releasing wasm memory; the render already succeeded or failed
	format, err := in.cstring(name)
	if err != nil {
		return nil, err
	}
	defer in.call("free", format) //nolint:errcheck // releasing wasm memory; the render already succeeded or failed
	result, err := in.malloc(8)   // char *result; unsigned int length
	if err != nil {
		return nil, err
	}
	defer in.call("free", result) //nolint:errcheck // releasing wasm memory; the render already succeeded or failed
	if rc, err := in.call("gvRenderData", gvc, g, format, result, result+4); err != nil {
		return nil, err
	} else if int32(rc) != 0 {
		return nil, in.failure("rendering " + name + " failed")
	}
	mem := in.mod.Memory()
	p, ok1 := mem.ReadUint32Le(uint32(result))
	n, ok2 := mem.ReadUint32Le(uint32(result + 4))
	data, ok3 := mem.Read(p, n)
	if !ok1 || !ok2 || !ok3 {
		return nil, errors.New("graphviz.wasm: the rendered data lies outside its memory")
	}
	out := bytes.Clone(data)
	_, _ = in.call("gvFreeRenderData", uint64(p))
	return out, nil
}

// context is gvContextPlugins with the module's built-in plugins (dot and
// neato layouts, the core renderers), as go-graphviz's SymList_default
// lists them: an array of pointers to {name, address} pairs, 8 bytes
// apart, turned into the NULL-terminated lt_symlist_t array Graphviz reads.
func (in *instance) context() (uint64, error) {
	ret, err := in.malloc(4)
	if err != nil {
		return 0, err
	}
	if _, err := in.call("wasm_bridge_SymList_default", ret); err != nil {
		return 0, err
	}
	mem := in.mod.Memory()
	slice, _ := mem.ReadUint32Le(uint32(ret))
	n, _ := mem.ReadUint32Le(slice)
	data, _ := mem.ReadUint32Le(slice + 4)
	list, err := in.malloc(uint64(8 * (n + 1)))
	if err != nil {
		return 0, err
	}
	for i := range n {
		elem, _ := mem.ReadUint32Le(data + 8*i)
		pair, ok := mem.Read(elem, 8)
		if !ok || !mem.Write(uint32(list)+8*i, pair) {
			return 0, errors.New("graphviz.wasm: the plugin list lies outside its memory")
		}
	}
	mem.Write(uint32(list)+8*n, make([]byte, 8))
	// The recording plugin first (record.go).
	name, library, err := in.installRecorder()
	if err != nil {
		return 0, err
	}
	withOurs, err := in.malloc(uint64(8 * (n + 2)))
	if err != nil {
		return 0, err
	}
	ours := make([]byte, 8)
	binary.LittleEndian.PutUint32(ours, uint32(name))
	binary.LittleEndian.PutUint32(ours[4:], uint32(library))
	rest, _ := mem.Read(uint32(list), 8*(n+1))
	if !mem.Write(uint32(withOurs), ours) || !mem.Write(uint32(withOurs)+8, rest) {
		return 0, errors.New("graphviz.wasm: the plugin list lies outside its memory")
	}
	scratch, err := in.malloc(8)
	if err != nil {
		return 0, err
	}
	in.scratch = uint32(scratch)
	gvc, err := in.call("gvContextPlugins", withOurs, 1)
	if err != nil {
		return 0, err
	}
	if gvc == 0 {
		return 0, in.failure("no Graphviz context")
	}
	return gvc, nil
}

func (in *instance) call(name string, args ...uint64) (uint64, error) {
	if in.ctx.Err() != nil {
		return 0, context.Cause(in.ctx)
	}
	// Looked up once per instance: each lookup makes a new function
	// with a call stack of its own. Not fast's: a function is never
	// called again while it runs.
	f := in.called[name]
	if f == nil {
		if f = in.mod.ExportedFunction(name); f == nil {
			return 0, fmt.Errorf("graphviz.wasm exports no %s", name)
		}
		in.called[name] = f
	}
	res, err := f.Call(in.ctx, args...)
	if err != nil {
		return 0, fmt.Errorf("graphviz.wasm %s: %w", name, err)
	}
	if len(res) == 0 {
		return 0, nil
	}
	return res[0], nil
}

func (in *instance) malloc(n uint64) (uint64, error) {
	p, err := in.call("malloc", n)
	if err == nil && p == 0 {
		err = errors.New("graphviz.wasm is out of memory")
	}
	return p, err
}

// cstring copies s into the module's memory as a NUL-terminated string.
func (in *instance) cstring(s string) (uint64, error) {
	return in.alloc(append([]byte(s), 0), "a string")
}

// alloc copies b, what the error calls what, into the module's memory.
func (in *instance) alloc(b []byte, what string) (uint64, error) {
	p, err := in.malloc(uint64(len(b)))
	if err != nil {
		return 0, err
	}
	if !in.mod.Memory().Write(uint32(p), b) {
		return 0, errors.New("graphviz.wasm: " + what + " does not fit its memory")
	}
	return p, nil
}

// failure is an error with what Graphviz wrote on its stderr, control
// characters made visible (the DOT document came from a broker).
func (in *instance) failure(what string) error {
	msg := strings.TrimSpace(in.stderr.String())
	msg = strings.Map(func(r rune) rune {
		if r == '\n' {
			return ' '
		}
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, msg)
	if msg == "" {
		return errors.New("graphviz: " + what)
	}
	return fmt.Errorf("graphviz: %s: %s", what, msg)
}
