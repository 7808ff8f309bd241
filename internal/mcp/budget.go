package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// DefaultBudget is the most bytes of a document one answer carries: about
// 16k tokens, well inside an assistant's context window and under the
// 25k-token cap some clients put on a tool's answer. A larger document is
// paged over its largest list, or cut where it has none, and the answer
// says so.
const DefaultBudget = 64 << 10

// PageArgument is the argument that asks for one page of a document over
// the budget.
const PageArgument = "page"

// withPageArguments adds the page argument to a tool's arguments.
func withPageArguments(props map[string]*jsonschema.Schema) map[string]*jsonschema.Schema {
	out := maps.Clone(props)
	if out == nil {
		out = map[string]*jsonschema.Schema{}
	}
	out[PageArgument] = &jsonschema.Schema{Type: "integer", Minimum: new(1.0),
		Description: "The page of an answer over the size budget (1, the default, is the first); the answer says how many there are."}
	return out
}

// pageOf takes the page argument out of the verb's arguments.
func pageOf(args map[string]any) (int, map[string]any) {
	f, ok := args[PageArgument].(float64)
	if !ok {
		return 1, args
	}
	rest := maps.Clone(args)
	delete(rest, PageArgument)
	return int(f), rest
}

// step is one step of the path to a list in a document: a key of an
// object, or an index of a list (key "").
type step struct {
	key   string
	index int
}

// page is one page of a document over the budget, and what the answer
// says of it.
type page struct {
	doc   any
	note  string
	extra map[string]any
}

// cut bounds a document to budget bytes: whole when it fits; else page n
// of its largest list (found down the largest values, a one-item list
// entered: an overview of one group pages its tasks), each page as many
// items as fit; else (no list, or one item over the budget) the first
// budget bytes of its JSON as a string, which the note says.
func cut(doc json.RawMessage, budget, n int) (page, error) {
	if doc == nil {
		return page{}, nil
	}
	if len(doc) <= budget {
		if n > 1 {
			return page{}, fmt.Errorf("page %d is past the last: the answer has one page", n)
		}
		return page{doc: doc}, nil
	}
	var v any
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	if d.Decode(&v) != nil {
		return truncated(doc, budget), nil
	}
	path, list := findList(v, 0)
	if len(list) < 2 {
		if n > 1 {
			return page{}, fmt.Errorf("page %d is past the last: the answer has one page", n)
		}
		return truncated(doc, budget), nil
	}
	pages := split(list, budget-(len(doc)-size(list))-256)
	if n > len(pages) {
		return page{}, fmt.Errorf("page %d is past the last: the answer has %d pages", n, len(pages))
	}
	first := 0
	for _, p := range pages[:n-1] {
		first += len(p)
	}
	items := pages[n-1]
	setList(v, path, items)
	b, _ := json.Marshal(v)
	where := pathString(path)
	info := map[string]any{"page": n, "pages": len(pages), "list": where, "first": first, "count": len(items), "total": len(list)}
	note := fmt.Sprintf("The document is %d bytes, over the answer's budget of %d: this is page %d of %d, %s items %d to %d of %d.",
		len(doc), budget, n, len(pages), where, first+1, first+len(items), len(list))
	if n < len(pages) {
		note += fmt.Sprintf(" Call again with %s: %d for the next, or narrow the call (name the groups).", PageArgument, n+1)
	}
	if len(b) > budget {
		p := truncated(b, budget)
		p.note = note + " " + p.note
		p.extra["page"] = info
		return p, nil
	}
	return page{doc: json.RawMessage(b), note: note, extra: map[string]any{"page": info}}, nil
}

// truncated is the first budget bytes of a document as a string, cut at a
// character's start.
func truncated(doc []byte, budget int) page {
	end := min(budget, len(doc))
	for end > 0 && end < len(doc) && doc[end]&0xC0 == 0x80 {
		end--
	}
	return page{doc: string(doc[:end]),
		note:  fmt.Sprintf("The document is %d bytes, over the answer's budget of %d, and has no list to page: it is cut to its first %d bytes, as a string (not valid JSON). Narrow the call to see all of it.", len(doc), budget, end),
		extra: map[string]any{"truncated": true}}
}

// findList is the path to the list to page: down the largest value of each
// object, into a list of one item.
func findList(v any, depth int) ([]step, []any) {
	if depth > 6 {
		return nil, nil
	}
	switch x := v.(type) {
	case []any:
		if len(x) != 1 {
			return nil, x
		}
		if p, l := findList(x[0], depth+1); len(l) > 1 {
			return append([]step{{index: 0}}, p...), l
		}
		return nil, x
	case map[string]any:
		best, bestSize := "", -1
		for k, e := range x {
			switch e.(type) {
			case []any, map[string]any:
				if s := size(e); s > bestSize || s == bestSize && k < best {
					best, bestSize = k, s
				}
			}
		}
		if bestSize < 0 {
			return nil, nil
		}
		p, l := findList(x[best], depth+1)
		return append([]step{{key: best}}, p...), l
	}
	return nil, nil
}

// setList replaces the list at path.
func setList(v any, path []step, items []any) {
	for i, s := range path {
		last := i == len(path)-1
		switch x := v.(type) {
		case map[string]any:
			if last {
				x[s.key] = items
				return
			}
			v = x[s.key]
		case []any:
			if last {
				x[s.index] = items
				return
			}
			v = x[s.index]
		}
	}
}

// split cuts a list into pages of at most room bytes each, at least one
// item a page.
func split(list []any, room int) [][]any {
	var pages [][]any
	var cur []any
	used := 0
	for _, e := range list {
		s := size(e) + 1
		if len(cur) > 0 && used+s > room {
			pages = append(pages, cur)
			cur, used = nil, 0
		}
		cur = append(cur, e)
		used += s
	}
	return append(pages, cur)
}

func size(v any) int {
	b, _ := json.Marshal(v)
	return len(b)
}

// pathString is a path as a reader writes it: groups[0].tasks.
func pathString(path []step) string {
	var b strings.Builder
	for _, s := range path {
		if s.key == "" {
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.key)
	}
	return b.String()
}
