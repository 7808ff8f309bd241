package architecture

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every verb package found by rule (findVerbPackages) that declares the
// Client interface of its Run has it embedded in the command's client
// interface (cmd/kstreams-groups/client.go): the one place a new verb's
// client needs join, checked by rule so that a verb cannot be forgotten.
func TestVerbClients_inCommandClient(t *testing.T) {
	embedded := commandClientEmbeds(t, filepath.Join("..", "..", "cmd", "kstreams-groups", "client.go"))
	for _, p := range verbPackages {
		if !declaresType(t, filepath.Join("..", "..", p), "Client") {
			continue
		}
		assert.Contains(t, embedded, module+"/"+p, "%s.Client is not in cmd's client interface (client.go)", p)
	}
	assert.Contains(t, embedded, module+"/internal/describe", "the rule reads client.go")
}

// commandClientEmbeds are the import paths of the X.Client interfaces
// embedded in client.go's client interface.
func commandClientEmbeds(t *testing.T, file string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
	require.NoError(t, err)
	byName := map[string]string{}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		name := filepath.Base(path)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		byName[name] = path
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok || ts.Name.Name != "client" {
			return true
		}
		for _, m := range ts.Type.(*ast.InterfaceType).Methods.List {
			if sel, ok := m.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Client" {
				out = append(out, byName[sel.X.(*ast.Ident).Name])
			}
		}
		return false
	})
	require.NotEmpty(t, out, "client.go declares the client interface")
	return out
}

// declaresType tells whether a non-test file of the package in dir
// declares the exported interface type name.
func declaresType(t *testing.T, dir, name string) bool {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	return slices.ContainsFunc(files, func(file string) bool {
		if filepath.Ext(file) != ".go" || len(file) > 8 && file[len(file)-8:] == "_test.go" {
			return false
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
		if err != nil {
			return false
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, s := range g.Specs {
				if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.Name == name {
					_, isInterface := ts.Type.(*ast.InterfaceType)
					return isInterface
				}
			}
		}
		return false
	})
}
