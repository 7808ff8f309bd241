package format_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/serve/api"
)

// documents are every top-level document type: the verbs' (format's) and
// serve's own (internal/serve/api's, which holds format's types).
func documents() []any { return slices.Concat(format.Documents(), api.Documents()) }

// docDirs are the packages that hold document types, for docTypeNames.
var docDirs = []string{".", "../serve/api"}

// Documents are read by scripts: every field has the same snake_case name
// in JSON and YAML.
func TestSchemaTags(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type, string)
	walk = func(typ reflect.Type, path string) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || seen[typ] {
			return
		}
		seen[typ] = true
		for i := range typ.NumField() {
			f := typ.Field(i)
			js, ys := f.Tag.Get("json"), f.Tag.Get("yaml")
			name := path + "." + f.Name
			if js == "-" && ys == "-" {
				continue
			}
			assert.NotEmpty(t, js, "%s has no json tag", name)
			assert.Equal(t, js, ys, "%s: json and yaml tags differ", name)
			if f.Anonymous && js == ",inline" {
				walk(f.Type, path) // its fields are the document's own
				continue
			}
			key := strings.Split(js, ",")[0]
			assert.Regexp(t, `^[a-z][a-z0-9_]*$`, key, "%s: key is not snake_case", name)
			walk(f.Type, name)
		}
	}
	for _, doc := range documents() {
		walk(reflect.TypeOf(doc), reflect.TypeOf(doc).Name())
	}
	assert.NotEmpty(t, seen)

	// Every document type of the packages is part of a listed document,
	// so the walk above covers it.
	reached := map[string]bool{}
	for typ := range seen {
		reached[typ.Name()] = true
	}
	for _, name := range docTypeNames(t) {
		assert.True(t, reached[name], "%s is a document type that no document of format.Documents() or api.Documents() reaches", name)
	}
}

// docTypeNames lists the struct types of the document packages (docDirs)
// whose name ends in Doc, read from the source.
func docTypeNames(t *testing.T) []string {
	t.Helper()
	var names []string
	for _, dir := range docDirs {
		//nolint:staticcheck // SA1019: these packages have no build-tagged files, the one case ParseDir gets wrong
		pkgs, err := parser.ParseDir(token.NewFileSet(), dir, func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
		require.NoError(t, err)
		before := len(names)
		for _, pkg := range pkgs {
			names = append(names, structsNamedDoc(pkg.Files)...)
		}
		require.Greater(t, len(names), before, "%s holds document types", dir)
	}
	return names
}

// structsNamedDoc are the struct types of files whose name ends in Doc.
func structsNamedDoc(files map[string]*ast.File) []string {
	var names []string
	for _, f := range files {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				if _, isStruct := ts.Type.(*ast.StructType); isStruct && strings.HasSuffix(ts.Name.Name, "Doc") {
					names = append(names, ts.Name.Name)
				}
			}
		}
	}
	return names
}

// The documents of internal/serve/api are written by format.Encode as
// the libraries write them, with field types the comparison fills.
func TestEncode_apiDocumentsMatchTheLibraries(t *testing.T) {
	format.FillCovers(t, api.Documents())
	format.MatchesTheLibraries(t, api.Documents())
}
