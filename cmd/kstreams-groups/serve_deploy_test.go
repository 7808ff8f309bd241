//go:build linux

package main

import (
	"encoding/json"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// deployMetric is a metric name in an expression of deploy/: rules and
// dashboard use no kstreams_ word other than metric names.
var deployMetric = regexp.MustCompile(`kstreams_[a-z0-9_]+`)

// deployMetrics are the metrics the shipped alerting rules and dashboard
// query, each with where.
func deployMetrics(t *testing.T) map[string]string {
	b, err := os.ReadFile("../../deploy/prometheus/kstreams-groups-rules.yml")
	require.NoError(t, err)
	var rules struct {
		Groups []struct {
			Rules []struct{ Alert, Expr string }
		}
	}
	require.NoError(t, yaml.Unmarshal(b, &rules))
	out := map[string]string{}
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			for _, m := range deployMetric.FindAllString(r.Expr, -1) {
				out[m] = "rule " + r.Alert
			}
		}
	}
	b, err = os.ReadFile("../../deploy/grafana/kstreams-groups.json")
	require.NoError(t, err)
	var dash struct {
		Panels []struct {
			Title   string
			Targets []struct{ Expr string }
		}
	}
	require.NoError(t, json.Unmarshal(b, &dash))
	for _, p := range dash.Panels {
		for _, tg := range p.Targets {
			for _, m := range deployMetric.FindAllString(tg.Expr, -1) {
				out[m] = "panel " + p.Title
			}
		}
	}
	return out
}

// TestServeDefaultsFeedDeploy: serve with nothing but a bootstrap server
// exports a sample of every metric the shipped rules and dashboard query
// (the time lag's included: it is measured by default), for a cluster
// whose groups have lag and records with timestamps.
func TestServeDefaultsFeedDeploy(t *testing.T) {
	isolate(t)
	c := timeLagCluster(t)
	s := startServe(t, "--bootstrap-server", bootstrap(c), "--interval", "1s")
	s.waitReady(t)
	code, body := s.get(t, "/metrics")
	require.Equal(t, http.StatusOK, code)
	var have []string
	for _, l := range strings.Split(body, "\n") {
		if name, _, ok := strings.Cut(l, "{"); ok && !strings.HasPrefix(l, "#") {
			have = append(have, name)
		}
	}
	used := deployMetrics(t)
	require.Contains(t, used, "kstreams_group_lag_seconds", "the time-lag alert and panels")
	for m, where := range used {
		assert.True(t, slices.Contains(have, m), "%s: %s has no sample with serve's defaults", where, m)
	}
}
