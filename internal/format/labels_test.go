package format

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/check"
	"github.com/kstreams-groups/kstreams-groups/internal/format/promtest"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
)

// labelUnescape reads a label written by labelEscape back into the name:
// the rule documented there, and nothing else (an unknown escape fails).
func labelUnescape(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			i++
			continue
		}
		switch {
		case strings.HasPrefix(s[i:], `\\`):
			b.WriteByte('\\')
			i += 2
		case strings.HasPrefix(s[i:], `\x{`):
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return "", fmt.Errorf("unterminated \\x{ at %d", i)
			}
			r, err := strconv.ParseUint(s[i+3:i+end], 16, 32)
			if err != nil {
				return "", err
			}
			b.WriteRune(rune(r))
			i += end + 1
		case strings.HasPrefix(s[i:], `\x`) && i+4 <= len(s):
			v, err := strconv.ParseUint(s[i+2:i+4], 16, 8)
			if err != nil {
				return "", err
			}
			b.WriteByte(byte(v))
			i += 4
		default:
			return "", fmt.Errorf("unknown escape at %d in %q", i, s)
		}
	}
	return b.String(), nil
}

// Names that gave one perfdata label ("'", "_", "=" all became "_") or one
// Prometheus series (a CR and the text \x0D; an invalid byte and U+FFFD;
// a C1 control and the text of its escape) before the escaping was made
// reversible.
var collidingNames = []string{
	"a'b", "a_b", "a=b", "a|b", "a/b",
	"c\rx", `c\x0Dx`, `c\rx`, `c\x0dx`, `c\\x0Dx`,
	"d\xff", "d\uFFFD", `d\xFF`, "d\u0085", "d\x85", `d\u0085`, `d\x{0085}`, `d\x85`,
	"e\u202e", `e\u202e`, `e\x{202E}`,
	"f\n", `f\n`, `f\x0A`, "f\\", `f\\`, `f\\\`, "f\x1b", "f^[",
	`g"`, `g\"`,
}

// Every name gives its own perfdata label and its own Prometheus series,
// and each reads back as the name.
func TestLabels_collidingNames(t *testing.T) {
	var groups []*overview.Group
	for i, name := range collidingNames {
		groups = append(groups, checkedGroup(name, "Stable", int64(i)))
	}
	res := checkResult(check.Options{}, groups...)

	perf := Perfdata(res)
	labels := regexp.MustCompile(`'([^']*) lag'=(\d+)`).FindAllStringSubmatch(perf, -1)
	require.Len(t, labels, len(collidingNames), perf)
	seen := map[string]bool{}
	for _, m := range labels {
		assert.False(t, seen[m[1]], "label %q twice", m[1])
		seen[m[1]] = true
		assert.NotContains(t, m[1], "=")
		assert.NotContains(t, m[1], "|")
		name, err := labelUnescape(m[1])
		require.NoError(t, err)
		i, _ := strconv.Atoi(m[2])
		assert.Equal(t, collidingNames[i], name, "label %q reads back", m[1])
	}

	var b bytes.Buffer
	require.NoError(t, CheckPrometheusWith(&b, res, PrometheusOptions{}))
	fams := promtest.Parse(t, b.String())
	series := fams["kstreams_group_lag"].GetMetric()
	require.Len(t, series, len(collidingNames), "one series per group:\n%s", b.String())
	seen = map[string]bool{}
	for _, m := range series {
		v := m.GetLabel()[0].GetValue()
		assert.False(t, seen[v], "series %q twice", v)
		seen[v] = true
		name, err := labelUnescape(v)
		require.NoError(t, err)
		assert.Equal(t, collidingNames[int(m.GetGauge().GetValue())], name, "label value %q reads back", v)
	}
	promtest.Promtool(t, b.String())
}

// Distinct names give distinct labels: the perfdata label and the
// Prometheus label value (read back with the Prometheus parser) both decode
// to the name, hold no control character and are valid UTF-8.
func FuzzLabelEscape(f *testing.F) {
	for i := 0; i+1 < len(collidingNames); i++ {
		f.Add(collidingNames[i], collidingNames[i+1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		la, lb := perfLabel(a+" lag"), perfLabel(b+" lag")
		if a != b {
			assert.NotEqual(t, la, lb, "%q and %q", a, b)
			assert.NotEqual(t, promValue(t, a), promValue(t, b), "%q and %q", a, b)
		}
		for _, name := range []string{a, b} {
			label := perfLabel(name)
			inner := label[1 : len(label)-1]
			assert.NotContains(t, inner, "'")
			assert.NotContains(t, inner, "=")
			assert.NotContains(t, inner, "|")
			checkLabel(t, name, inner)
			checkLabel(t, name, promValue(t, name))
		}
	})
}

func checkLabel(t *testing.T, name, label string) {
	t.Helper()
	assert.True(t, utf8.ValidString(label), "%q is valid UTF-8", label)
	assert.False(t, needsEscape(label), "%q holds nothing a terminal obeys", label)
	back, err := labelUnescape(label)
	require.NoError(t, err)
	assert.Equal(t, name, back, "%q reads back", label)
}

// promValue is the value of a label written for name, as the Prometheus
// parser reads it.
func promValue(t *testing.T, name string) string {
	t.Helper()
	var b bytes.Buffer
	s := promSet{}
	s.add(promGroupLag, 1, PromLabel("g", name))
	require.NoError(t, s.write(&b))
	p := expfmt.NewTextParser(model.LegacyValidation)
	fams, err := p.TextToMetricFamilies(&b)
	require.NoError(t, err)
	return fams[promGroupLag.Name()].GetMetric()[0].GetLabel()[0].GetValue()
}
