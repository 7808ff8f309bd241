// Package promtest parses -o prometheus output in tests with the Prometheus
// project's own parser (expfmt), so that a malformed line fails, and checks
// the rules of our exposition on top: every family a kstreams_ gauge with
// its HELP, no timestamps. Only tests import it.
package promtest

import (
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Parse parses text and returns its families by name.
func Parse(t testing.TB, text string) map[string]*dto.MetricFamily {
	t.Helper()
	p := expfmt.NewTextParser(model.LegacyValidation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(text))
	require.NoError(t, err, "the exposition does not parse:\n%s", text)
	require.NotEmpty(t, fams, "no metric in:\n%s", text)
	// expfmt merges a family whose samples are split; the format wants
	// them together, after their HELP and TYPE.
	done := map[string]bool{}
	current := ""
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		name := line
		if f := strings.Fields(line); len(f) > 2 && f[0] == "#" {
			name = f[2]
		} else if i := strings.IndexAny(line, "{ "); i >= 0 {
			name = line[:i]
		}
		if name != current {
			require.False(t, done[name], "family %s is split:\n%s", name, text)
			done[current], current = true, name
		}
	}
	for name, f := range fams {
		assert.True(t, strings.HasPrefix(name, "kstreams_"), "metric %s is not prefixed kstreams_", name)
		assert.Equal(t, dto.MetricType_GAUGE, f.GetType(), "%s is a gauge", name)
		assert.NotEmpty(t, f.GetHelp(), "%s has a HELP line", name)
		for _, m := range f.GetMetric() {
			assert.Zero(t, m.GetTimestampMs(), "%s: no timestamp (the textfile collector refuses them)", name)
		}
		assert.Equal(t, 1, strings.Count(text, "# TYPE "+name+" "), "%s: one TYPE line", name)
	}
	return fams
}

// Value returns the value of the sample of family name whose labels are
// labels (name, value, ...), failing when there is none.
func Value(t testing.TB, fams map[string]*dto.MetricFamily, name string, labels ...string) float64 {
	t.Helper()
	m := find(fams, name, labels)
	require.NotNil(t, m, "no sample %s%v", name, labels)
	return m.GetGauge().GetValue()
}

// Has tells whether family name has a sample with labels.
func Has(fams map[string]*dto.MetricFamily, name string, labels ...string) bool {
	return find(fams, name, labels) != nil
}

func find(fams map[string]*dto.MetricFamily, name string, labels []string) *dto.Metric {
	for _, m := range fams[name].GetMetric() {
		got := map[string]string{}
		for _, l := range m.GetLabel() {
			got[l.GetName()] = l.GetValue()
		}
		match := len(got) == len(labels)/2
		for i := 0; match && i < len(labels); i += 2 {
			match = got[labels[i]] == labels[i+1]
		}
		if match {
			return m
		}
	}
	return nil
}

// Canonical is fams as comparable text: for each family its HELP and
// type, then one line per sample (labels sorted by name, then the value),
// sorted; two expositions with equal Canonical hold the same series.
func Canonical(fams map[string]*dto.MetricFamily) map[string][]string {
	out := map[string][]string{}
	for name, f := range fams {
		lines := []string{"# " + f.GetHelp() + " " + f.GetType().String()}
		for _, m := range f.GetMetric() {
			var labels []string
			for _, l := range m.GetLabel() {
				labels = append(labels, l.GetName()+"="+strconv.Quote(l.GetValue()))
			}
			slices.Sort(labels)
			v := m.GetGauge().GetValue()
			if m.GetCounter() != nil {
				v = m.GetCounter().GetValue()
			}
			lines = append(lines, "{"+strings.Join(labels, ",")+"} "+strconv.FormatFloat(v, 'g', -1, 64))
		}
		slices.Sort(lines[1:])
		out[name] = lines
	}
	return out
}

// Promtool runs `promtool check metrics` (Debian: apt-get install
// prometheus) on text: it must read the exposition and have no remark,
// which is what node_exporter's textfile collector accepts (duplicate
// series included). Without promtool the test logs it and goes on, except
// under CI (CI set), where .ci/run installs it and its absence fails.
func Promtool(t testing.TB, text string) {
	t.Helper()
	bin, err := exec.LookPath("promtool")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("promtool is not installed: .ci/run installs Debian's prometheus package")
		}
		t.Log("promtool is not installed: the expfmt parse stands alone")
		return
	}
	cmd := exec.Command(bin, "check", "metrics")
	cmd.Stdin = strings.NewReader(text)
	out, err := cmd.CombinedOutput()
	assert.NoError(t, err, "promtool check metrics:\n%s\n%s", out, text)
	assert.Empty(t, strings.TrimSpace(string(out)), "promtool check metrics has remarks")
}

// WithoutServe is a serve exposition's kstreams_ families without serve's
// own (kstreams_serve_): what check -o prometheus prints, labelled cluster.
func WithoutServe(text string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(text, "\n") {
		name := line
		if f := strings.Fields(line); len(f) > 2 && f[0] == "#" {
			name = f[2]
		}
		if strings.HasPrefix(name, "kstreams_") && !strings.HasPrefix(name, "kstreams_serve_") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// ClusterFamilies parses WithoutServe(text) and keeps cluster's samples,
// with their cluster label removed: the families check -o prometheus
// prints for that cluster.
func ClusterFamilies(t testing.TB, text, cluster string) map[string]*dto.MetricFamily {
	t.Helper()
	fams := Parse(t, WithoutServe(text))
	for name, f := range fams {
		var kept []*dto.Metric
		for _, m := range f.GetMetric() {
			var labels []*dto.LabelPair
			in := ""
			for _, l := range m.GetLabel() {
				if l.GetName() == "cluster" {
					in = l.GetValue()
				} else {
					labels = append(labels, l)
				}
			}
			if in == cluster {
				m.Label = labels
				kept = append(kept, m)
			}
		}
		if f.Metric = kept; len(kept) == 0 {
			delete(fams, name)
		}
	}
	return fams
}
