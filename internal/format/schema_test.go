package format

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

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
			key := strings.Split(js, ",")[0]
			assert.Regexp(t, `^[a-z][a-z0-9_]*$`, key, "%s: key is not snake_case", name)
			walk(f.Type, name)
		}
	}
	for _, doc := range Documents() {
		walk(reflect.TypeOf(doc), reflect.TypeOf(doc).Name())
	}
	assert.NotEmpty(t, seen)
}
