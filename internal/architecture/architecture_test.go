package architecture

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
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
}

// rel is the package path inside the module ("internal/admin").
func (p pkg) rel() string { return strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/") }

// testSupport tells the packages that only tests import (golden, *test):
// they may import what production code may not.
func (p pkg) testSupport() bool {
	return strings.HasSuffix(p.Name, "test") || p.rel() == "internal/golden"
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

// verbPackages are the packages that each hold one verb.
var verbPackages = []string{"internal/describe", "internal/list", "internal/delete", "internal/resetoffsets", "internal/deleteoffsets", "internal/overview", "internal/diff", "internal/check", "internal/doctor"}

// rules are the import rules of docs/ARCHITECTURE.md ("Import rules").
var rules = []rule{
	{"franz-go only in internal/admin and internal/playground", not(under("internal/admin", "internal/playground")),
		prefixed("github.com/twmb/franz-go")},
	{"cobra, viper, pflag, cast and the terminal libraries only in cmd", not(under("cmd")),
		prefixed("github.com/spf13/cobra", "github.com/spf13/viper", "github.com/spf13/pflag", "github.com/spf13/cast", "github.com/mattn/go-isatty", "github.com/mattn/go-colorable")},
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
	{"production code never imports test support", func(p pkg) bool { return !p.testSupport() },
		func(imp string) bool {
			return imp == module+"/internal/golden" || strings.HasSuffix(imp, "test") && strings.HasPrefix(imp, module) ||
				prefixed("github.com/stretchr/testify", "github.com/creack/pty")(imp)
		}},
}

// violations lists every forbidden edge of pkgs, one line each.
func violations(pkgs []pkg) []string {
	var out []string
	for _, p := range pkgs {
		if p.testSupport() {
			continue
		}
		for _, r := range rules {
			if !r.applies(p) {
				continue
			}
			for _, imp := range p.Imports {
				if r.forbidden(imp) {
					out = append(out, p.rel()+" imports "+imp+": "+r.name)
				}
			}
		}
	}
	return out
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

// The checker itself catches a forbidden edge, so an empty list above
// means something.
func TestImportRules_catchForbiddenEdges(t *testing.T) {
	tests := []struct {
		p    pkg
		want string
	}{
		{pkg{ImportPath: module + "/internal/describe", Name: "describe", Imports: []string{"github.com/twmb/franz-go/pkg/kmsg"}}, "franz-go only in internal/admin and internal/playground"},
		{pkg{ImportPath: module + "/internal/topology", Name: "topology", Imports: []string{"github.com/twmb/franz-go/pkg/kmsg"}}, "models import only the standard library and each other"},
		{pkg{ImportPath: module + "/internal/format", Name: "format", Imports: []string{module + "/internal/admin"}}, "format renders models: no admin, no playground, no configuration"},
		{pkg{ImportPath: module + "/internal/list", Name: "list", Imports: []string{module + "/internal/format"}}, "verb packages never format, never serve, never read configuration"},
		{pkg{ImportPath: module + "/internal/clientconfig", Name: "clientconfig", Imports: []string{"github.com/twmb/franz-go/pkg/kgo"}}, "franz-go only in internal/admin and internal/playground"},
		{pkg{ImportPath: module + "/internal/describe", Name: "describe", Imports: []string{"github.com/spf13/viper"}}, "cobra, viper, pflag, cast and the terminal libraries only in cmd"},
		{pkg{ImportPath: module + "/internal/admin", Name: "admin", Imports: []string{module + "/internal/describe"}}, "admin knows no verb and no rendering"},
		{pkg{ImportPath: module + "/internal/delete", Name: "delete", Imports: []string{module + "/internal/playground"}}, "only cmd serves the playground"},
		{pkg{ImportPath: module + "/cmd/kstreams-groups", Name: "main", Imports: []string{module + "/internal/golden"}}, "production code never imports test support"},
		{pkg{ImportPath: module + "/internal/topology", Name: "topology", Imports: []string{"github.com/tetratelabs/wazero"}}, "the Graphviz runtime and the painting libraries only in internal/format/picture"},
		{pkg{ImportPath: module + "/internal/overview", Name: "overview", Imports: []string{module + "/internal/format/picture"}}, "verb packages never format, never serve, never read configuration"},
		{pkg{ImportPath: module + "/internal/format/picture", Name: "picture", Imports: []string{module + "/internal/topology"}}, "picture knows no model: it turns DOT into pictures"},
	}
	for _, tc := range tests {
		got := violations([]pkg{tc.p})
		assert.Contains(t, strings.Join(got, "\n"), tc.want, "%s", tc.p.ImportPath)
	}
	assert.Empty(t, violations([]pkg{{ImportPath: module + "/internal/topology/topologytest", Name: "topologytest", Imports: []string{"github.com/twmb/franz-go/pkg/kmsg"}}}),
		"test support may import what it needs")
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
// alone, and the playground's state file is its own input format.
func TestNoDocumentTagsOutsideFormat(t *testing.T) {
	for _, p := range listPackages(t) {
		if under("internal/format", "internal/playground")(p) || p.testSupport() {
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
						t.Errorf("%s: a %s tag on %v; documents live in internal/format", p.rel(), key, field.Names)
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
	for _, p := range listPackages(t) {
		if !under("internal")(p) || p.testSupport() {
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
