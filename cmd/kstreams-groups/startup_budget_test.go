package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Start-up is most of a run, and most of start-up is the package inits of
// what the binary links (BenchmarkStartup measures it against a hello
// world). These tests keep it from creeping back, with figures that load
// does not change: the allocations each package's init makes, as
// GODEBUG=inittrace=1 reports them, and what the root command builds for
// --version. Time is never asserted.

// releaseBuild builds the main package in dir into out as the release
// does (.goreleaser.yaml: CGO_ENABLED=0, -trimpath, -ldflags "-s -w"),
// so that what is measured is what people run (TestStartup_releaseFlags
// keeps the two equal).
func releaseBuild(tb testing.TB, dir, out string) {
	tb.Helper()
	cmd := exec.Command("go", append([]string{"build", "-o", out}, releaseFlags...)...)
	cmd.Args = append(cmd.Args, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build %s: %v\n%s", dir, err, msg)
	}
}

var releaseFlags = []string{"-trimpath", "-ldflags=-s -w"}

func TestStartup_releaseFlags(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../.goreleaser.yaml")
	require.NoError(t, err)
	cfg := string(b)
	assert.Contains(t, cfg, "- CGO_ENABLED=0")
	assert.Contains(t, cfg, "- -trimpath")
	assert.Contains(t, cfg, "- -s -w ", "the release strips the symbol table and DWARF, as releaseBuild does")
}

// initCost is one package's init in GODEBUG=inittrace=1's words.
type initCost struct {
	bytes, allocs int
}

// parseInitTrace reads the init lines of GODEBUG=inittrace=1:
//
//	init net/http @1.2 ms, 0.036 ms clock, 4872 bytes, 50 allocs
func parseInitTrace(out []byte) (map[string]initCost, error) {
	costs := map[string]initCost{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," || f[10] != "allocs" {
			continue
		}
		b, err := strconv.Atoi(f[7])
		if err != nil {
			return nil, fmt.Errorf("%q: %w", sc.Text(), err)
		}
		a, err := strconv.Atoi(f[9])
		if err != nil {
			return nil, fmt.Errorf("%q: %w", sc.Text(), err)
		}
		c := costs[f[1]]
		costs[f[1]] = initCost{bytes: c.bytes + b, allocs: c.allocs + a}
	}
	return costs, sc.Err()
}

// initBudget is what an init may allocate: every package not in
// initBudgets at most defaultInitBudget, those listed (what they cost in
// December 2026, Go 1.26, with room for a library's minor release) at
// most their own figure, and all of them together at most
// totalInitBudget. A package-level regexp.MustCompile costs 20 to 200
// allocations, a template or a parsed embedded file more: make it lazy
// (sync.OnceValue) rather than raise a budget. A budget is raised only for
// what every run needs; keeping a dependency out of the binary, or out of
// the run path, is the alternative.
var (
	defaultInitBudget = initCost{bytes: 4096, allocs: 12}
	totalInitBudget   = initCost{bytes: 720_000, allocs: 4_700}
	initBudgets       = map[string]initCost{
		// serve: client_golang registers its default Go and process
		// collectors at init (issue 23 asks for the Prometheus client and
		// the exporter toolkit's --web.config.file).
		"github.com/prometheus/procfs":                            {120_000, 1_100},
		"github.com/prometheus/client_golang/prometheus":          {80_000, 310},
		"github.com/prometheus/client_golang/prometheus/internal": {10_500, 60},
		"github.com/prometheus/common/model":                      {7_000, 100},
		"github.com/prometheus/common/expfmt":                     {5_000, 45},
		"github.com/prometheus/client_model/go":                   {17_000, 35},
		"runtime/metrics":                                         {19_000, 120},
		"google.golang.org/protobuf/types/known/timestamppb":      {3_700, 25},
		"google.golang.org/protobuf/internal/filedesc":            {4_096, 23},
		"github.com/mwitkow/go-conntrack":                         {6_000, 120},
		"golang.org/x/net/trace":                                  {23_000, 55},
		"expvar":                                                  {4_096, 35},
		"github.com/golang-jwt/jwt/v5":                            {4_096, 45},
		// mcp: issue 35 asks for the official MCP Go SDK; its session
		// state is gob's, its schemas jsonschema-go's (meta-schemas
		// compiled at init). The total grew by what they cost.
		"encoding/gob": {30_000, 400},
		"github.com/google/jsonschema-go/jsonschema":     {90_000, 330},
		"github.com/modelcontextprotocol/go-sdk/mcp":     {9_000, 200},
		"github.com/modelcontextprotocol/go-sdk/oauthex": {4_096, 30},
		// viper (the configuration) and its codecs.
		"go.yaml.in/yaml/v3":         {32_000, 345},
		"go.yaml.in/yaml/v2":         {34_000, 330},
		"github.com/subosito/gotenv": {38_000, 290},
		"github.com/spf13/cast":      {8_000, 110},
		"html/template":              {22_500, 115},
		"github.com/spf13/cobra":     {4_096, 18},
		// The Kafka client, TLS and HTTP, the picture runtime, diff.
		"github.com/twmb/franz-go/pkg/kgo":                {6_500, 80},
		"github.com/twmb/franz-go/pkg/kerr":               {8_500, 12},
		"github.com/klauspost/compress/flate":             {34_000, 20},
		"github.com/klauspost/compress/internal/snapref":  {11_500, 12},
		"github.com/youmark/pkcs8":                        {4_096, 17},
		"github.com/tetratelabs/wazero/internal/platform": {11_500, 25},
		"github.com/tetratelabs/wazero/internal/wasm":     {22_000, 13},
		"github.com/aymanbagabas/go-udiff":                {4_096, 35},
		"golang.org/x/sys/cpu":                            {6_500, 13},
		// The standard library.
		"net/http":                            {6_000, 62},
		"net":                                 {4_096, 30},
		"net/netip":                           {4_096, 23},
		"crypto/tls":                          {4_096, 17},
		"crypto/internal/fips140/rsa":         {4_096, 30},
		"crypto/internal/fips140/ecdsa":       {4_096, 20},
		"unicode":                             {14_500, 20},
		"debug/dwarf":                         {10_000, 20},
		"vendor/golang.org/x/net/http2/hpack": {9_500, 12},
		"compress/flate":                      {5_500, 12},
		"mime":                                {6_500, 12},
		// Ours: tables (maps) only.
		"main": {4_096, 34},
		"github.com/kstreams-groups/kstreams-groups/internal/playground":   {7_000, 40},
		"github.com/kstreams-groups/kstreams-groups/internal/format":       {5_000, 22},
		"github.com/kstreams-groups/kstreams-groups/internal/clientconfig": {4_400, 17},
	}
)

// TestStartup_initBudget runs the binary people run with
// GODEBUG=inittrace=1 and fails when a package's init allocates more than
// its budget (initBudget): a costly init added to a package of ours, or a
// new dependency that does work at init, is paid by every run, --version
// included. The allocations are the figure: unlike time, the machine's
// load does not change them.
func TestStartup_initBudget(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: builds the release binary; make test and CI run it")
	}
	bin := filepath.Join(t.TempDir(), "kstreams-groups")
	releaseBuild(t, ".", bin)
	cmd := exec.Command(bin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Run(), stderr.String())
	costs, err := parseInitTrace(stderr.Bytes())
	require.NoError(t, err)
	require.Contains(t, costs, "runtime", "GODEBUG=inittrace=1 printed the inits:\n%s", stderr.String())
	checkInitBudgets(t, costs)
}

// checkInitBudgets fails t for every package over its budget and for a
// total over totalInitBudget.
func checkInitBudgets(t testing.TB, costs map[string]initCost) {
	t.Helper()
	var total initCost
	for pkg, c := range costs {
		total.bytes += c.bytes
		total.allocs += c.allocs
		budget, ok := initBudgets[pkg]
		if !ok {
			budget = defaultInitBudget
		}
		if c.allocs > budget.allocs || c.bytes > budget.bytes {
			t.Errorf("the init of %s allocates %d bytes in %d allocations at every start, over its budget of %d bytes, %d allocations: "+
				"make the work lazy (sync.OnceValue), or keep the package out of the binary (see initBudgets)", pkg, c.bytes, c.allocs, budget.bytes, budget.allocs)
		}
	}
	if total.allocs > totalInitBudget.allocs || total.bytes > totalInitBudget.bytes {
		t.Errorf("the inits allocate %d bytes in %d allocations at every start, over the total budget of %d bytes, %d allocations",
			total.bytes, total.allocs, totalInitBudget.bytes, totalInitBudget.allocs)
	}
}

// The check itself: an init over its budget, one of an unlisted package
// over the default, and a total over the total fail; the figures of
// today's binary pass.
func TestStartup_initBudgetCatches(t *testing.T) {
	t.Parallel()
	trace := []byte(`init runtime @0.038 ms, 0.075 ms clock, 0 bytes, 0 allocs
init go.yaml.in/yaml/v3 @2.5 ms, 0.049 ms clock, 25720 bytes, 276 allocs
init github.com/kstreams-groups/kstreams-groups/internal/inventory @3.9 ms, 0.07 ms clock, 16296 bytes, 177 allocs
init github.com/kstreams-groups/kstreams-groups/internal/format @4.0 ms, 0.015 ms clock, 3976 bytes, 17 allocs
not an init line
`)
	costs, err := parseInitTrace(trace)
	require.NoError(t, err)
	assert.Equal(t, initCost{bytes: 16296, allocs: 177}, costs["github.com/kstreams-groups/kstreams-groups/internal/inventory"])
	assert.Len(t, costs, 4)

	ft := &fakeTB{TB: t}
	checkInitBudgets(ft, costs)
	require.Len(t, ft.errors, 1, "the package-level regexp of inventory (before it was made lazy)")
	assert.Contains(t, ft.errors[0], "internal/inventory allocates 16296 bytes in 177 allocations")

	ft = &fakeTB{TB: t}
	checkInitBudgets(ft, map[string]initCost{"go.yaml.in/yaml/v3": {bytes: 60_000, allocs: 700}})
	assert.Len(t, ft.errors, 1, "a listed package over its own budget")

	ft = &fakeTB{TB: t}
	many := map[string]initCost{}
	for i := range 400 {
		many[fmt.Sprintf("example.com/p%d", i)] = initCost{bytes: 2000, allocs: 10}
	}
	checkInitBudgets(ft, many)
	require.Len(t, ft.errors, 1, "many packages each under the default, over the total")
	assert.Contains(t, ft.errors[0], "over the total budget")

	ft = &fakeTB{TB: t}
	checkInitBudgets(ft, map[string]initCost{"main": {1616, 27}, "go.yaml.in/yaml/v3": {25720, 276}})
	assert.Empty(t, ft.errors)
}

// fakeTB records Errorf instead of failing.
type fakeTB struct {
	testing.TB
	errors []string
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
