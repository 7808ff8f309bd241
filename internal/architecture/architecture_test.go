package architecture

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/kstreams-groups/kstreams-groups"

// pkg is what the rules look at in one package, from `go list -json`.
type pkg struct {
	ImportPath string
	Name       string
	Dir        string
	Doc        string
	GoFiles    []string
	Imports    []string
	// TestImports and XTestImports are the imports of its _test files.
	TestImports  []string
	XTestImports []string
}

// rel is the package path inside the module ("internal/admin").
func (p pkg) rel() string { return strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/") }

// testFacilities are the libraries only tests use. chromedp drives the
// console's browser tests: kept out of production, it is never downloaded
// by a build of the command (docs/development.md).
var testFacilities = []string{"testing", "net/http/httptest", "github.com/stretchr/testify", "github.com/creack/pty",
	"github.com/chromedp/chromedp", "github.com/chromedp/cdproto"}

// testSupport finds the packages only tests may import, by rule rather
// than by name: what _test files import (directly or through other test
// support) that no command reaches through production imports. A
// command that imported one would make it production code, held to the
// rules: its own imports of testing or testify then break them, and its
// missing mayImport entry fails TestEveryPackageIsConstrained. Test
// support may import anything.
func testSupport(pkgs []pkg) map[string]bool {
	byPath := map[string]pkg{}
	for _, p := range pkgs {
		byPath[p.ImportPath] = p
	}
	production := map[string]bool{}
	var reach func(path string)
	reach = func(path string) {
		if production[path] {
			return
		}
		production[path] = true
		for _, imp := range byPath[path].Imports {
			reach(imp)
		}
	}
	for _, p := range pkgs {
		if p.Name == "main" {
			reach(p.ImportPath)
		}
	}
	support := map[string]bool{}
	var mark func(path string)
	mark = func(path string) {
		if _, ours := byPath[path]; !ours || production[path] || support[path] {
			return
		}
		support[path] = true
		for _, imp := range byPath[path].Imports {
			mark(imp)
		}
	}
	for _, p := range pkgs {
		for _, imp := range slices.Concat(p.TestImports, p.XTestImports) {
			if imp != p.ImportPath { // its own external tests
				mark(imp)
			}
		}
	}
	return support
}

// rule forbids some imports to some packages.
type rule struct {
	name string
	// applies selects the packages the rule constrains.
	applies func(p pkg) bool
	// forbidden selects the imports (full paths) it refuses.
	forbidden func(imp string) bool
}

func under(dirs ...string) func(pkg) bool {
	return func(p pkg) bool {
		for _, d := range dirs {
			if p.rel() == d || strings.HasPrefix(p.rel(), d+"/") {
				return true
			}
		}
		return false
	}
}

func not(f func(pkg) bool) func(pkg) bool { return func(p pkg) bool { return !f(p) } }

func local(dirs ...string) func(string) bool {
	return func(imp string) bool {
		for _, d := range dirs {
			if imp == module+"/"+d || strings.HasPrefix(imp, module+"/"+d+"/") {
				return true
			}
		}
		return false
	}
}

func prefixed(prefixes ...string) func(string) bool {
	return func(imp string) bool {
		return slices.ContainsFunc(prefixes, func(p string) bool { return imp == p || strings.HasPrefix(imp, p+"/") })
	}
}

func stdlib(imp string) bool { return !strings.Contains(strings.Split(imp, "/")[0], ".") }

// verbPackages are the packages that each hold one verb, found by rule
// (findVerbPackages), so that a new verb is held by the rules without an
// edit here.
var verbPackages = findVerbPackages("../..")

// findVerbPackages are the packages directly under internal/ of the module
// at root with the shape docs/ARCHITECTURE.md's recipe gives a verb: a
// top-level `func Run(ctx context.Context, ...) (*Result, error)` in a
// non-test file.
func findVerbPackages(root string) []string {
	dirs, _ := filepath.Glob(filepath.Join(root, "internal", "*"))
	var out []string
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		if slices.ContainsFunc(files, func(f string) bool { return !strings.HasSuffix(f, "_test.go") && declaresRun(f) }) {
			out = append(out, "internal/"+filepath.Base(dir))
		}
	}
	return out
}

// declaresRun tells whether the file declares a verb's Run.
func declaresRun(file string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
	if err != nil {
		return false
	}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Name.Name != "Run" || len(fn.Type.Params.List) == 0 || fn.Type.Results == nil {
			continue
		}
		first, ok := fn.Type.Params.List[0].Type.(*ast.SelectorExpr)
		res := fn.Type.Results.List
		if ok && first.Sel.Name == "Context" && len(res) == 2 && types(res[0].Type) == "*Result" && types(res[1].Type) == "error" {
			return true
		}
	}
	return false
}

// types spells a result type of Run: "*Result", "error".
func types(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.StarExpr:
		return "*" + types(t.X)
	}
	return ""
}

// The rule finds a verb package by its shape, and nothing else: a fake
// verb added to a module is held by the rules without an edit here.
func TestVerbPackages_foundByRule(t *testing.T) {
	root := t.TempDir()
	write := func(rel, src string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(root, rel), []byte(src), 0o600))
	}
	write("internal/fakeverb/fakeverb.go", "package fakeverb\n\nimport \"context\"\n\ntype Result struct{}\n\nfunc Run(ctx context.Context, c any, opts int) (*Result, error) { return nil, nil }\n")
	write("internal/helper/helper.go", "package helper\n\nfunc Run() error { return nil }\n")
	write("internal/testonly/x_test.go", "package testonly\n\nimport \"context\"\n\ntype Result struct{}\n\nfunc Run(ctx context.Context) (*Result, error) { return nil, nil }\n")
	assert.Equal(t, []string{"internal/fakeverb"}, findVerbPackages(root))
	// and the tree's verbs are found: the rules hold them.
	assert.Subset(t, verbPackages, []string{"internal/check", "internal/describe", "internal/diff", "internal/list", "internal/resetoffsets"})
}

// rules are the import rules of docs/ARCHITECTURE.md ("Import rules").
var rules = []rule{
	{"franz-go only in internal/admin and internal/playground", not(under("internal/admin", "internal/playground")),
		prefixed("github.com/twmb/franz-go")},
	{"cobra, viper, pflag and the terminal libraries only in cmd", not(under("cmd")),
		prefixed("github.com/spf13/cobra", "github.com/spf13/viper", "github.com/spf13/pflag", "github.com/mattn/go-isatty", "github.com/mattn/go-colorable")},
	{"no spf13/cast: cmd's resolver converts what viper gives", func(pkg) bool { return true }, prefixed("github.com/spf13/cast")},
	{"only admin (its settings) and cmd read the client configuration", not(under("internal/admin", "cmd")), local("internal/clientconfig")},
	{"only clientconfig and cmd parse Java properties", not(under("internal/clientconfig", "cmd")), local("internal/javaprops")},
	{"a verb imports another verb only where docs/ARCHITECTURE.md lists it", under(verbPackages...), nil},
	{"nothing imports cmd", func(pkg) bool { return true }, local("cmd")},
	{"the Graphviz runtime and the painting libraries only in internal/format/picture", not(under("internal/format/picture")),
		prefixed("github.com/tetratelabs/wazero", "github.com/goccy/go-graphviz", "github.com/fogleman/gg", "github.com/golang/freetype", "golang.org/x/image")},
	{"picture knows no model: it turns DOT into pictures", under("internal/format/picture"),
		func(imp string) bool { return strings.HasPrefix(imp, module+"/") }},
	{"models import only the standard library and each other", under("internal/kafka", "internal/topology"),
		func(imp string) bool { return !stdlib(imp) && !local("internal/topology")(imp) }},
	{"javaprops imports only the standard library", under("internal/javaprops"), func(imp string) bool { return !stdlib(imp) }},
	{"format renders models: no admin, no playground, no configuration", under("internal/format"),
		local("internal/admin", "internal/playground", "internal/clientconfig", "internal/javaprops")},
	{"verb packages never format, never serve, never read configuration", under(verbPackages...),
		local("internal/format", "internal/playground", "internal/clientconfig", "internal/javaprops", "internal/topoparse")},
	{"admin knows no verb and no rendering", under("internal/admin"),
		func(imp string) bool {
			return local(slices.Concat(verbPackages, []string{"internal/format", "internal/playground", "internal/topoparse"})...)(imp)
		}},
	{"the playground is a broker: it knows no client code", under("internal/playground"),
		local(slices.Concat(verbPackages, []string{"internal/admin", "internal/format", "internal/kafka", "internal/clientconfig"})...)},
	{"only cmd serves the playground", not(under("cmd", "internal/playground")), local("internal/playground")},
	{"renderers never import the service: nothing under format imports serve", under("internal/format"), local("internal/serve")},
}

// verb is what a verb package may import: admin, the models, and the
// other verbs listed.
func verb(others ...string) []string {
	return slices.Concat([]string{"internal/admin", "internal/kafka", "internal/topology"}, others)
}

// mayImport lists, for every production package of the module, the
// packages of the module it may import (docs/ARCHITECTURE.md's layers); a
// package of cmd/ may import every production package. A package missing
// here fails TestEveryPackageIsConstrained.
var mayImport = map[string][]string{
	"internal/topology":       nil,
	"internal/kafka":          {"internal/topology"},
	"internal/javaprops":      nil,
	"internal/clientconfig":   {"internal/javaprops"},
	"internal/admin/frames":   nil,
	"internal/admin/wirelog":  {"internal/admin/frames"},
	"internal/admin":          {"internal/kafka", "internal/topology", "internal/clientconfig", "internal/admin/wirelog", "internal/admin/frames"},
	"internal/describe":       verb(),
	"internal/list":           verb(),
	"internal/delete":         verb(),
	"internal/resetoffsets":   verb("internal/delete"),
	"internal/deleteoffsets":  verb("internal/resetoffsets"),
	"internal/overview":       verb("internal/history"),
	"internal/diff":           verb(),
	"internal/check":          verb("internal/overview"),
	"internal/doctor":         verb("internal/overview", "internal/history"),
	"internal/groupconfig":    verb(),
	"internal/inventory":      verb(),
	"internal/upgrade":        verb("internal/diff"),
	"internal/watch":          {"internal/describe", "internal/overview", "internal/check", "internal/kafka", "internal/topology"},
	"internal/format":         slices.Concat(verbPackages, []string{"internal/kafka", "internal/topology", "internal/format/picture"}),
	"internal/serve/api":      {"internal/serve/snapshot", "internal/format", "internal/check", "internal/overview"},
	"internal/serve/web":      {"internal/serve/snapshot", "internal/serve/api", "internal/format", "internal/check"},
	"internal/format/picture": nil,
	"internal/topoparse":      {"internal/format", "internal/topology"},
	"internal/playground":     {"internal/coordrecords"},
	"internal/serve/snapshot": {"internal/check", "internal/list", "internal/overview", "internal/kafka", "internal/topology"},
	"internal/serve": {"internal/serve/snapshot", "internal/check", "internal/list", "internal/overview", "internal/watch", "internal/format", "internal/history",
		"internal/kafka", "internal/topology"},
	"internal/architecture": nil,
	"internal/coordrecords": nil,
	"internal/history":      verb("internal/coordrecords"),
	"internal/mcp":          nil,
}

// allowed tells whether p may import imp, a production package of the
// module, by mayImport.
func allowed(p pkg, imp string) bool {
	if under("cmd")(p) {
		return true
	}
	return slices.Contains(mayImport[p.rel()], strings.TrimPrefix(imp, module+"/"))
}

const (
	ruleListed      = "imports within the module only as mayImport lists them"
	ruleTestSupport = "production code never imports test support"
)

// violations lists every forbidden edge of pkgs, one line each. Test
// support is found among pkgs, so a case feeds the packages an edge
// points at too.
func violations(pkgs []pkg) []string {
	support := testSupport(pkgs)
	var out []string
	for _, p := range pkgs {
		if support[p.ImportPath] {
			continue
		}
		for _, imp := range p.Imports {
			for _, name := range forbiddenBy(p, imp, support) {
				out = append(out, p.rel()+" imports "+imp+": "+name)
			}
		}
	}
	return out
}

// forbiddenBy names the rules that refuse the edge from p, production
// code, to imp.
func forbiddenBy(p pkg, imp string, support map[string]bool) []string {
	var names []string
	for _, r := range rules {
		switch {
		case !r.applies(p):
		case r.forbidden == nil: // a verb-to-verb edge not listed
			if local(verbPackages...)(imp) && !allowed(p, imp) {
				names = append(names, r.name)
			}
		case r.forbidden(imp):
			names = append(names, r.name)
		}
	}
	switch {
	case support[imp] || prefixed(testFacilities...)(imp):
		names = append(names, ruleTestSupport)
	case strings.HasPrefix(imp, module+"/") && !allowed(p, imp):
		names = append(names, ruleListed)
	}
	return names
}

// listPackages runs `go list -json ./...` at the module root (production
// imports only: tests may import anything).
func listPackages(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-json", "./...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	require.NoError(t, err)
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p pkg
		require.NoError(t, dec.Decode(&p))
		if len(p.GoFiles) > 0 {
			pkgs = append(pkgs, p)
		}
	}
	require.Greater(t, len(pkgs), 10, "go list found the packages")
	return pkgs
}

func TestImportRules(t *testing.T) {
	assert.Empty(t, violations(listPackages(t)))
}

// unconstrained lists the production packages mayImport does not name.
func unconstrained(pkgs []pkg) []string {
	support := testSupport(pkgs)
	var out []string
	for _, p := range pkgs {
		if _, listed := mayImport[p.rel()]; !listed && !support[p.ImportPath] && !under("cmd")(p) {
			out = append(out, p.rel())
		}
	}
	return out
}

// Every production package has a place in the layers, so a new package
// is constrained from its first commit.
func TestEveryPackageIsConstrained(t *testing.T) {
	assert.Empty(t, unconstrained(listPackages(t)))
	assert.Equal(t, []string{"internal/newthing"}, unconstrained([]pkg{{ImportPath: module + "/internal/newthing", Name: "newthing"}}))
}

// p is a fake package of the module at rel, importing imports (module
// packages given by their rel path).
func p(rel string, imports ...string) pkg {
	name := rel[strings.LastIndex(rel, "/")+1:]
	if strings.HasPrefix(rel, "cmd/") {
		name = "main"
	}
	q := pkg{ImportPath: module + "/" + rel, Name: name}
	for _, imp := range imports {
		if strings.HasPrefix(imp, "internal/") || strings.HasPrefix(imp, "cmd/") {
			imp = module + "/" + imp
		}
		q.Imports = append(q.Imports, imp)
	}
	return q
}

// The checker itself catches a forbidden edge of every rule, so an empty
// list above means something.
func TestImportRules_catchForbiddenEdges(t *testing.T) {
	testOnly := func(rel string) pkg { // a _test file importing rel
		return pkg{ImportPath: module + "/internal/x", Name: "x", TestImports: []string{module + "/" + rel}}
	}
	tests := []struct {
		pkgs []pkg
		want string
	}{
		{[]pkg{p("internal/describe", "github.com/twmb/franz-go/pkg/kmsg")}, "franz-go only in internal/admin and internal/playground"},
		{[]pkg{p("internal/topology", "github.com/twmb/franz-go/pkg/kmsg")}, "models import only the standard library and each other"},
		{[]pkg{p("internal/format", "internal/admin")}, "format renders models: no admin, no playground, no configuration"},
		{[]pkg{p("internal/list", "internal/format")}, "verb packages never format, never serve, never read configuration"},
		{[]pkg{p("internal/clientconfig", "github.com/twmb/franz-go/pkg/kgo")}, "franz-go only in internal/admin and internal/playground"},
		{[]pkg{p("internal/describe", "github.com/spf13/viper")}, "cobra, viper, pflag and the terminal libraries only in cmd"},
		{[]pkg{p("cmd/kstreams-groups", "github.com/spf13/cast")}, "no spf13/cast: cmd's resolver converts what viper gives"},
		{[]pkg{p("internal/admin", "internal/describe")}, "admin knows no verb and no rendering"},
		{[]pkg{p("internal/delete", "internal/playground")}, "only cmd serves the playground"},
		{[]pkg{p("internal/topology", "github.com/tetratelabs/wazero")}, "the Graphviz runtime and the painting libraries only in internal/format/picture"},
		{[]pkg{p("internal/overview", "internal/format/picture")}, "verb packages never format, never serve, never read configuration"},
		{[]pkg{p("internal/format/picture", "internal/topology")}, "picture knows no model: it turns DOT into pictures"},
		{[]pkg{p("internal/format", "internal/serve/snapshot")}, "renderers never import the service: nothing under format imports serve"},
		{[]pkg{p("internal/format", "internal/serve/api")}, "renderers never import the service: nothing under format imports serve"},
		{[]pkg{p("internal/format/picture", "internal/serve")}, "renderers never import the service: nothing under format imports serve"},
		{[]pkg{p("internal/playground", "internal/kafka")}, "the playground is a broker: it knows no client code"},
		{[]pkg{p("internal/kafka", "cmd/kstreams-groups")}, "nothing imports cmd"},
		{[]pkg{p("internal/javaprops", "github.com/spf13/afero")}, "javaprops imports only the standard library"},
		// Who reads the client configuration and its properties.
		{[]pkg{p("internal/topoparse", "internal/clientconfig")}, "only admin (its settings) and cmd read the client configuration"},
		{[]pkg{p("internal/watch", "internal/clientconfig")}, "only admin (its settings) and cmd read the client configuration"},
		{[]pkg{p("internal/admin", "internal/javaprops")}, "only clientconfig and cmd parse Java properties"},
		// Verbs import each other only along the listed edges.
		{[]pkg{p("internal/describe", "internal/list")}, "a verb imports another verb only where docs/ARCHITECTURE.md lists it"},
		{[]pkg{p("internal/delete", "internal/resetoffsets")}, "a verb imports another verb only where docs/ARCHITECTURE.md lists it"},
		{[]pkg{p("internal/overview", "internal/check")}, "a verb imports another verb only where docs/ARCHITECTURE.md lists it"},
		{[]pkg{p("internal/deleteoffsets", "internal/delete")}, "a verb imports another verb only where docs/ARCHITECTURE.md lists it"},
		// watch and topoparse are constrained like every other package.
		{[]pkg{p("internal/watch", "internal/admin")}, ruleListed},
		{[]pkg{p("internal/watch", "internal/format")}, ruleListed},
		{[]pkg{p("internal/topoparse", "internal/admin")}, ruleListed},
		{[]pkg{p("internal/kafka", "internal/admin")}, ruleListed},
		{[]pkg{p("internal/newthing", "internal/kafka")}, ruleListed},
		// Test support, found by rule: what only tests import, and the
		// test libraries themselves.
		{[]pkg{p("internal/describe", "internal/buftest"), p("internal/buftest", "sync"), testOnly("internal/buftest")}, ruleTestSupport},
		{[]pkg{p("internal/describe", "testing")}, ruleTestSupport},
		{[]pkg{p("internal/list", "github.com/stretchr/testify/assert")}, ruleTestSupport},
		{[]pkg{p("internal/serve/web", "github.com/chromedp/chromedp")}, ruleTestSupport},
		{[]pkg{p("internal/serve/web", "github.com/chromedp/cdproto/page")}, ruleTestSupport},
		{[]pkg{p("cmd/kstreams-groups", "internal/golden"), p("internal/golden", "testing"), testOnly("internal/golden")}, ruleTestSupport},
	}
	for _, tc := range tests {
		got := violations(tc.pkgs)
		assert.Contains(t, strings.Join(got, "\n"), tc.want, "%v", tc.pkgs[0])
	}
	assert.Empty(t, violations([]pkg{p("internal/topology/topologytest", "internal/topology", "github.com/twmb/franz-go/pkg/kmsg", "testing"), testOnly("internal/topology/topologytest")}),
		"test support may import what it needs")
	assert.Equal(t, map[string]bool{module + "/internal/topology/topologytest": true}, testSupport([]pkg{
		p("cmd/kstreams-groups", "internal/topology"), p("internal/topology"), p("internal/topology/topologytest", "internal/topology"), testOnly("internal/topology/topologytest"),
	}), "what a command reaches is production, whatever its tests import")
}

// parse reads a package's production files.
func parse(t *testing.T, p pkg) []*ast.File {
	t.Helper()
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range p.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.ParseComments)
		require.NoError(t, err)
		files = append(files, f)
	}
	return files
}

// Models carry no json or yaml tags: documents are internal/format's types
// (the verbs') and internal/serve/api's (serve's own), and the
// playground's state file is its own input format.
func TestNoDocumentTagsOutsideFormat(t *testing.T) {
	pkgs := listPackages(t)
	support := testSupport(pkgs)
	for _, p := range pkgs {
		if under("internal/format", "internal/serve/api", "internal/playground")(p) || support[p.ImportPath] {
			continue
		}
		for _, f := range parse(t, p) {
			ast.Inspect(f, func(n ast.Node) bool {
				field, ok := n.(*ast.Field)
				if !ok || field.Tag == nil {
					return true
				}
				tag := reflect.StructTag(strings.Trim(field.Tag.Value, "`"))
				for _, key := range []string{"json", "yaml"} {
					if _, has := tag.Lookup(key); has {
						t.Errorf("%s: a %s tag on %v; documents live in internal/format and internal/serve/api", p.rel(), key, field.Names)
					}
				}
				return true
			})
		}
	}
}

// Internal packages never print to the process streams and never exit;
// cmd is the only place that does.
func TestInternalPackagesNeverPrintOrExit(t *testing.T) {
	forbidden := map[string][]string{"os": {"Exit", "Stdout", "Stderr"}, "fmt": {"Print", "Printf", "Println"}, "log": {"Print", "Printf", "Println", "Fatal", "Fatalf", "Fatalln", "Panic"}}
	pkgs := listPackages(t)
	support := testSupport(pkgs)
	for _, p := range pkgs {
		if !under("internal")(p) || support[p.ImportPath] {
			continue
		}
		for _, f := range parse(t, p) {
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if id, ok := call.Fun.(*ast.Ident); ok && (id.Name == "println" || id.Name == "print") {
						t.Errorf("%s calls %s", p.rel(), id.Name)
					}
				}
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); ok && slices.Contains(forbidden[x.Name], sel.Sel.Name) {
					t.Errorf("%s uses %s.%s", p.rel(), x.Name, sel.Sel.Name)
				}
				return true
			})
		}
	}
}

// Every package says its single job in a doc comment.
func TestEveryPackageHasADocComment(t *testing.T) {
	for _, p := range listPackages(t) {
		assert.NotEmpty(t, strings.TrimSpace(p.Doc), "%s has no package doc comment", p.rel())
	}
}
