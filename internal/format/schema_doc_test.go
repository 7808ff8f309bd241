package format_test

import (
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
)

// The schema page (docs/schema.md) and the document types agree: every
// field of every document is named in the page, and the page names no
// field that no document has.
//
// The page is cut at its "## " headings. A section says which documents
// it describes with a comment, <!-- schema: ListDoc -->. A struct type is
// described by the first section (in page order) whose documents reach it,
// so a later section may say "as in describe" for a type it shares; its
// own fields, and the field that holds the shared type, it names itself.
// A field is named in backquotes (`group`, or `missing: true`) or as a key
// of an example (JSON "group": or YAML group:); a value in backquotes is
// quoted (`"planned"`), so that it is not read as a field, and a command
// is named in a heading.
func TestSchemaPage(t *testing.T) {
	page, err := os.ReadFile("../../docs/schema.md")
	require.NoError(t, err)
	assert.Empty(t, schemaProblems(string(page), documentsByName()))
}

// The check fails on each way the page and the types drift apart.
func TestSchemaPage_detectsDrift(t *testing.T) {
	page, err := os.ReadFile("../../docs/schema.md")
	require.NoError(t, err)
	docs := documentsByName()

	// A field added to a document type, not to the page.
	type listDocPlus struct {
		format.ListDoc `json:",inline" yaml:",inline"`
		Shiny          bool `json:"shiny_new_field" yaml:"shiny_new_field"`
	}
	withField := documentsByName()
	withField["ListDoc"] = listDocPlus{}
	assert.Equal(t, []string{"## list: listDocPlus's field `shiny_new_field` is not named"}, schemaProblems(string(page), withField))

	// A document type the page lacks.
	type NewDoc struct {
		Group string `json:"group" yaml:"group"`
	}
	withDoc := documentsByName()
	withDoc["NewDoc"] = NewDoc{}
	assert.Equal(t, []string{"NewDoc: no section of the page says <!-- schema: NewDoc -->"}, schemaProblems(string(page), withDoc))

	// A field the page names that no document has (a removed or misspelt
	// one).
	stale := strings.Replace(string(page), "`member_count`", "`members_count`", 1)
	assert.Contains(t, schemaProblems(stale, docs), "## describe names `members_count`, a field no document has")
}

// documentsByName are documents() by their type's name.
func documentsByName() map[string]any {
	docs := map[string]any{}
	for _, d := range documents() {
		docs[reflect.TypeOf(d).Name()] = d
	}
	return docs
}

// schemaSection is one "## " section of the page.
type schemaSection struct {
	heading string
	docs    []string
	named   map[string]bool
}

var (
	schemaMarker   = regexp.MustCompile(`<!--\s*schema:\s*([^>]*?)\s*-->`)
	backquoted     = regexp.MustCompile("`([^`\n]+)`")
	fieldName      = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	fieldWithValue = regexp.MustCompile(`^([a-z][a-z0-9_]*): `)
	jsonKey        = regexp.MustCompile(`"([a-z][a-z0-9_]*)"\s*:`)
	yamlKey        = regexp.MustCompile(`(?m)(?:^|[\s{,-])([a-z][a-z0-9_]*):(?:\s|$)`)
)

// parseSchemaPage cuts the page into sections with what each names.
func parseSchemaPage(page string) []schemaSection {
	var sections []schemaSection
	cur := schemaSection{heading: "(top)", named: map[string]bool{}}
	inFence := false
	for _, line := range strings.Split(page, "\n") {
		if strings.HasPrefix(line, "```") {
			inFence = !inFence
			continue
		}
		if !inFence && strings.HasPrefix(line, "## ") {
			sections = append(sections, cur)
			cur = schemaSection{heading: line, named: map[string]bool{}}
			continue
		}
		if inFence {
			for _, re := range []*regexp.Regexp{jsonKey, yamlKey} {
				for _, m := range re.FindAllStringSubmatch(line, -1) {
					cur.named[m[1]] = true
				}
			}
			continue
		}
		for _, m := range schemaMarker.FindAllStringSubmatch(line, -1) {
			for _, name := range strings.Split(m[1], ",") {
				cur.docs = append(cur.docs, strings.TrimSpace(name))
			}
		}
		for _, m := range backquoted.FindAllStringSubmatch(line, -1) {
			s := m[1]
			if fm := fieldWithValue.FindStringSubmatch(s); fm != nil {
				s = fm[1]
			}
			if fieldName.MatchString(s) && s != "null" && s != "true" && s != "false" {
				cur.named[s] = true
			}
		}
	}
	return append(sections, cur)
}

// docFields are the JSON keys of a struct type's own fields (an inline
// embedded struct's are its own too), and the struct types they hold.
func docFields(typ reflect.Type) (keys []string, holds []reflect.Type) {
	for i := range typ.NumField() {
		f := typ.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		if f.Anonymous && strings.Split(tag, ",")[0] == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			k, h := docFields(et)
			keys, holds = append(keys, k...), append(holds, h...)
			continue
		}
		keys = append(keys, strings.Split(tag, ",")[0])
		ft := f.Type
		for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice || ft.Kind() == reflect.Array || ft.Kind() == reflect.Map {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct {
			holds = append(holds, ft)
		}
	}
	return keys, holds
}

// schemaProblems compares the page with the documents (by type name).
func schemaProblems(page string, docs map[string]any) []string {
	var problems []string
	sections := parseSchemaPage(page)
	owner := map[reflect.Type]string{}
	var order []reflect.Type
	allKeys := map[string]bool{}
	described := map[string]bool{}
	for _, s := range sections {
		for _, name := range s.docs {
			d, ok := docs[name]
			if !ok {
				problems = append(problems, fmt.Sprintf("%s says schema: %s, which is not a document (format.Documents(), api.Documents())", s.heading, name))
				continue
			}
			described[name] = true
			var walk func(reflect.Type)
			walk = func(typ reflect.Type) {
				if _, seen := owner[typ]; seen {
					return
				}
				owner[typ] = s.heading
				order = append(order, typ)
				_, holds := docFields(typ)
				for _, h := range holds {
					walk(h)
				}
			}
			walk(reflect.TypeOf(d))
		}
	}
	names := make([]string, 0, len(docs))
	for name := range docs {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if !described[name] {
			problems = append(problems, fmt.Sprintf("%s: no section of the page says <!-- schema: %s -->", name, name))
		}
	}
	named := map[string]map[string]bool{}
	for _, s := range sections {
		named[s.heading] = s.named
	}
	seen := map[reflect.Type]bool{}
	var collect func(reflect.Type)
	collect = func(typ reflect.Type) {
		if seen[typ] {
			return
		}
		seen[typ] = true
		keys, holds := docFields(typ)
		for _, k := range keys {
			allKeys[k] = true
		}
		for _, h := range holds {
			collect(h)
		}
	}
	for _, d := range docs {
		collect(reflect.TypeOf(d))
	}
	for _, typ := range order {
		keys, _ := docFields(typ)
		for _, k := range keys {
			if !named[owner[typ]][k] {
				problems = append(problems, fmt.Sprintf("%s: %s's field `%s` is not named", owner[typ], typ.Name(), k))
			}
		}
	}
	// A heading names commands (## reset-offsets and delete-offsets):
	// those names in backquotes are not fields.
	commands := map[string]bool{}
	for _, s := range sections {
		for _, w := range strings.FieldsFunc(strings.TrimPrefix(s.heading, "## "), func(r rune) bool { return r == ' ' || r == ',' || r == '/' }) {
			commands[w] = true
		}
	}
	for _, s := range sections {
		var extra []string
		for k := range s.named {
			if !allKeys[k] && !commands[k] {
				extra = append(extra, k)
			}
		}
		slices.Sort(extra)
		for _, k := range extra {
			problems = append(problems, fmt.Sprintf("%s names `%s`, a field no document has", s.heading, k))
		}
	}
	return problems
}
