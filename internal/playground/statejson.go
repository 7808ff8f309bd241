package playground

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// A state file is read as YAML, JSON included. YAML takes an implicit key
// (every JSON key is one) of at most maxYAMLKey characters from its start
// to its colon, and past that its error names the line where the enclosing
// mapping began ("line 3: did not find expected ',' or '}'"), not the key.
// For a JSON file YAML could not read, jsonLongKey finds such a key and
// says so, at the key's line and column.

// maxYAMLKey is YAML's limit on an implicit key (YAML 1.2, 7.4.2; yaml.v3
// counts the quotes and any blanks before the colon).
const maxYAMLKey = 1024

// jsonLongKey returns the error for the first key of data over maxYAMLKey,
// nil when data is not valid JSON or has no such key.
func jsonLongKey(data []byte) error {
	if !json.Valid(data) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	// objects[i] tells whether the i-th open container is an object;
	// key whether its next token is a key.
	var objects []bool
	key := false
	for {
		before := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			objects = append(objects, tok == json.Delim('{'))
			key = tok == json.Delim('{')
			continue
		case json.Delim('}'), json.Delim(']'):
			objects = objects[:len(objects)-1]
			key = len(objects) > 0 && objects[len(objects)-1]
			continue
		}
		if !key {
			key = len(objects) > 0 && objects[len(objects)-1]
			continue
		}
		key = false
		if e := keyTooLong(data, int(before), int(dec.InputOffset()), tok); e != nil {
			return e
		}
	}
}

// keyTooLong is the error for the key token between from (before the comma
// and blanks ahead of it) and end (after its closing quote), when it is
// over maxYAMLKey characters to its colon.
func keyTooLong(data []byte, from, end int, tok json.Token) error {
	start := from
	for start < end && data[start] != '"' {
		start++
	}
	colon := end
	for colon < len(data) && data[colon] != ':' {
		colon++
	}
	n := utf8.RuneCount(data[start:colon])
	if n <= maxYAMLKey {
		return nil
	}
	line := bytes.Count(data[:start], []byte("\n")) + 1
	col := utf8.RuneCount(data[bytes.LastIndexByte(data[:start], '\n')+1:start]) + 1
	name, _ := tok.(string)
	if r := []rune(name); len(r) > 40 {
		name = string(r[:40]) + "…"
	}
	return fmt.Errorf("line %d, column %d: the JSON key %q is %d characters long with its quotes: a state file is read as YAML, which takes keys of at most %d",
		line, col, name, n, maxYAMLKey)
}
