package topoparse

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The regular expressions of the text grammar, which the hand matchers of
// text.go implement in linear time. Names may be empty, so that our text
// of a description with empty names reads back.
var (
	reHeader    = regexp.MustCompile(`^Topologies:\s*$`)
	reSub       = regexp.MustCompile(`^Sub-topology:(?: (.+?)( for global store \(will not generate tasks\))?| ?())$`)
	reSourceSet = regexp.MustCompile(`^Source: (.*) \(topics: \[(.*)\]\)$`)
	reSourcePat = regexp.MustCompile(`^Source: (.*) \(topics: (.*)\)$`)
	reProcessor = regexp.MustCompile(`^Processor: (.*) \(stores: \[(.*)\]\)$`)
	reSinkTopic = regexp.MustCompile(`^Sink: (.*) \(topic: (.*)\)$`)
	reSinkExtr  = regexp.MustCompile(`^Sink: (.*) \(extractor class: (.*)\)$`)
	reSucc      = regexp.MustCompile(`^--> ?(.*)$`)
	rePred      = regexp.MustCompile(`^<-- ?(.*)$`)
)

// TestMatchers compares each matcher with its regular expression on lines
// built from the grammar's pieces.
func TestMatchers(t *testing.T) {
	pieces := []string{"Source: ", "Processor: ", "Sink: ", "Sub-topology: ", "Topologies:", "-->", "<--", " (topics: [", " (topics: ",
		" (stores: [", " (topic: ", " (extractor class: ", globalSuffix, "])", ")", "]", "[", "(", " ", "  ", "\t", "a", "b c", "é", "null", ":"}
	r := rand.New(rand.NewPCG(1, 2))
	clauses := []struct {
		re                 *regexp.Regexp
		head, marker, tail string
	}{
		{reSourceSet, "Source: ", " (topics: [", "])"},
		{reSourcePat, "Source: ", " (topics: ", ")"},
		{reProcessor, "Processor: ", " (stores: [", "])"},
		{reSinkTopic, "Sink: ", " (topic: ", ")"},
		{reSinkExtr, "Sink: ", " (extractor class: ", ")"},
	}
	for range 200_000 {
		var b strings.Builder
		for range 1 + r.IntN(7) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		line := b.String()
		for _, c := range clauses {
			m := c.re.FindStringSubmatch(line)
			name, value, ok := clause(line, c.head, c.marker, c.tail)
			if !assert.Equal(t, m != nil, ok, "%s on %q", c.re, line) {
				return
			}
			if ok {
				assert.Equal(t, []string{m[1], m[2]}, []string{name, value}, "%s on %q", c.re, line)
			}
		}
		m := reSub.FindStringSubmatch(line)
		id, global, ok := subtopologyHeader(line)
		if assert.Equal(t, m != nil, ok, "%q", line) && ok {
			assert.Equal(t, []any{m[1], m[2] != ""}, []any{id, global}, "%q", line)
		}
		if line == "Sub-topology: " {
			assert.True(t, ok)
		}
		for _, a := range []struct {
			re   *regexp.Regexp
			head string
		}{{reSucc, "-->"}, {rePred, "<--"}} {
			m := a.re.FindStringSubmatch(line)
			names, ok := arrow(line, a.head)
			if assert.Equal(t, m != nil, ok, "%q", line) && ok {
				assert.Equal(t, m[1], names, "%q", line)
			}
		}
		assert.Equal(t, reHeader.MatchString(line), isHeader(line), "%q", line)
	}
}
