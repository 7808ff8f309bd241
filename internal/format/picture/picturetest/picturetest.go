// Package picturetest checks pictures in tests: that an SVG is one
// well-formed XML document with a single <svg> root. Only tests import it.
package picturetest

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// CheckSVG requires data to parse as XML to its end (strict mode) with one
// root element, named svg, and one "<svg" in all; it returns the contents
// of the text elements, in document order.
func CheckSVG(t testing.TB, data []byte) []string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	depth, roots := 0, 0
	var texts []string
	inText := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		switch el := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
				assert.Equal(t, "svg", el.Name.Local, "the root element")
			}
			depth++
			inText = el.Name.Local == "text"
		case xml.EndElement:
			depth--
			inText = false
		case xml.CharData:
			if inText {
				texts = append(texts, string(el))
			}
		}
	}
	assert.Equal(t, 1, roots, "one root element")
	assert.Equal(t, 1, strings.Count(string(data), "<svg"), "one <svg")
	return texts
}
