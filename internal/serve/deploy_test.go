package serve_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
)

const deployDir = "../../deploy"

// promString is a PromQL string literal: double or single quoted (with
// backslash escapes) or in backquotes.
var promString = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'` + "|`[^`]*`")

// promIdent is an identifier of PromQL: a metric, label, function or
// keyword name.
var promIdent = regexp.MustCompile(`[a-zA-Z_:][a-zA-Z0-9_:]*`)

// metricsIn are the kstreams_ metric names of expr: every identifier
// outside a string literal that starts with kstreams_ (labels, functions
// and keywords never do). The syntax itself is promtool's to check.
func metricsIn(expr string) []string {
	var out []string
	for _, id := range promIdent.FindAllString(promString.ReplaceAllString(expr, `""`), -1) {
		if strings.HasPrefix(id, "kstreams_") && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

func TestMetricsIn(t *testing.T) {
	assert.Equal(t, []string{"kstreams_group_state", "kstreams_group_up"},
		metricsIn(`kstreams_group_state{state="kstreams_not_a_metric", cluster=~'$cluster'} == 0 and on (cluster, group) kstreams_group_up == 1`))
	assert.Equal(t, []string{"kstreams_serve_stale"}, metricsIn("max by (cluster) (kstreams_serve_stale{g=`kstreams_x`})"))
}

// ruleExprs are the expressions of the alerting rules, by alert.
func ruleExprs(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(deployDir, "prometheus", "kstreams-groups-rules.yml"))
	require.NoError(t, err)
	var f struct {
		Groups []struct {
			Rules []struct {
				Alert, Expr string
			}
		}
	}
	require.NoError(t, yaml.Unmarshal(b, &f))
	out := map[string]string{}
	for _, g := range f.Groups {
		for _, r := range g.Rules {
			require.NotEmpty(t, r.Alert)
			out[r.Alert] = r.Expr
		}
	}
	return out
}

// dashboardExprs are the expressions of the dashboard's panels and
// variables, by panel title (variables as "$name").
func dashboardExprs(t *testing.T) map[string][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(deployDir, "grafana", "kstreams-groups.json"))
	require.NoError(t, err)
	type panel struct {
		Title   string
		Type    string
		Targets []struct{ Expr string }
		Panels  []json.RawMessage
	}
	var d struct {
		Panels     []panel
		Templating struct {
			List []struct {
				Name, Type, Definition string
			}
		}
	}
	require.NoError(t, json.Unmarshal(b, &d))
	out := map[string][]string{}
	for _, p := range d.Panels {
		if p.Type == "row" {
			require.Empty(t, p.Panels, "rows are open: their panels are at the top level")
			continue
		}
		require.NotEmpty(t, p.Targets, "panel %q queries something", p.Title)
		for _, tg := range p.Targets {
			out[p.Title] = append(out[p.Title], tg.Expr)
		}
	}
	for _, v := range d.Templating.List {
		if v.Type == "query" {
			// label_values(SELECTOR, label) is Grafana's, not PromQL: its
			// selector is.
			def := strings.TrimPrefix(v.Definition, "label_values(")
			out["$"+v.Name] = []string{def[:strings.LastIndexByte(def, ',')]}
		}
	}
	return out
}

// servedMetricNames are the names of every family serve's /metrics may
// export but the Go and process metrics (the inventory's are not).
func servedMetricNames() []string {
	var names []string
	for m := range format.PromServeDroppedSeries + 1 {
		if !strings.HasPrefix(m.Name(), "kstreams_inventory_") {
			names = append(names, m.Name())
		}
	}
	return names
}

// TestDeployUsesServedMetrics: every metric an alerting rule or a
// dashboard panel uses is one serve exports.
func TestDeployUsesServedMetrics(t *testing.T) {
	exported := servedMetricNames()
	check := func(where, expr string) {
		used := metricsIn(expr)
		assert.NotEmpty(t, used, "%s: %q uses no kstreams_ metric", where, expr)
		for _, m := range used {
			assert.Contains(t, exported, m, "%s: %s is not a metric serve exports", where, m)
		}
	}
	rules := ruleExprs(t)
	require.NotEmpty(t, rules)
	for alert, expr := range rules {
		check("rule "+alert, expr)
	}
	panels := dashboardExprs(t)
	require.NotEmpty(t, panels)
	for title, exprs := range panels {
		for _, e := range exprs {
			check("panel "+strconv.Quote(title), e)
		}
	}
}

// TestDeployPromtool: the rules pass promtool check rules, and so do the
// dashboard's expressions (Grafana's variables replaced by values) as
// recording rules.
func TestDeployPromtool(t *testing.T) {
	bin, err := exec.LookPath("promtool")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("promtool is not installed: .ci/run installs Debian's prometheus package")
		}
		t.Skip("promtool is not installed")
	}
	out, err := exec.Command(bin, "check", "rules", filepath.Join(deployDir, "prometheus", "kstreams-groups-rules.yml")).CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "SUCCESS")

	vars := strings.NewReplacer("$__rate_interval", "5m", "$__interval", "1m", "$__range", "1h")
	var rules []map[string]string
	for _, exprs := range dashboardExprs(t) {
		for _, e := range exprs {
			rules = append(rules, map[string]string{"record": "dashboard:expr_" + strconv.Itoa(len(rules)), "expr": vars.Replace(e)})
		}
	}
	b, err := yaml.Marshal(map[string]any{"groups": []any{map[string]any{"name": "dashboard", "rules": rules}}})
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "dashboard-rules.yml")
	require.NoError(t, os.WriteFile(file, b, 0o644))
	out, err = exec.Command(bin, "check", "rules", file).CombinedOutput()
	require.NoError(t, err, "%s\n%s", out, b)
}
