package check

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/overview"
)

func d(v time.Duration) *time.Duration { return &v }

// measured is group() with records read: task 0_1 (offset lag 35) has 3
// records to process and is 4m12s behind; 0_0 (offset lag 25) has 20.
func measured(known bool) *overview.Group {
	g := group()
	ts := g.Subtopologies[0].Tasks
	ts[0].Time = overview.TimeLag{Measured: true, Known: true, Lag: time.Minute, Records: 20, Exact: true}
	ts[1].Time = overview.TimeLag{Measured: true, Known: known, Lag: 252 * time.Second, Records: 3, Exact: true}
	ts[2].Time = overview.TimeLag{Measured: true, Known: true, Exact: true}
	g.Time = overview.TimeLag{Measured: true, Known: known, Lag: 252 * time.Second, Records: 23, Exact: true}
	return g
}

func TestEvaluate_timeLag(t *testing.T) {
	for _, tc := range []struct {
		name  string
		opts  Options
		known bool
		want  Status
		msgs  []string
	}{
		{"equal is not above", Options{TimeLagWarning: d(252 * time.Second)}, true, OK, nil},
		{"warning", Options{TimeLagWarning: d(4 * time.Minute), TimeLagCritical: d(5 * time.Minute)}, true, Warning, []string{"time-lag-warning WARNING time lag 4m12s > 4m0s"}},
		{"critical", Options{TimeLagWarning: d(time.Minute), TimeLagCritical: d(4 * time.Minute)}, true, Critical, []string{"time-lag-critical CRITICAL time lag 4m12s > 4m0s"}},
		{"unknown below the critical", Options{TimeLagCritical: d(5 * time.Minute)}, false, Unknown, []string{"time-lag UNKNOWN time lag cannot be measured (4m12s of it known)"}},
		{"unknown, its known part crosses", Options{TimeLagCritical: d(4 * time.Minute)}, false, Critical, []string{"time-lag-critical CRITICAL time lag 4m12s > 4m0s"}},
		// The lag conditions judge the record lag: 23, not 60.
		{"record lag", Options{LagCritical: n(23)}, true, OK, nil},
		{"record lag above", Options{LagWarning: n(22)}, true, Warning, []string{"lag-warning WARNING lag 23 > 22"}},
		{"record task lag: the largest is 0_0", Options{TaskLagWarning: n(19)}, true, Warning, []string{"task-lag-warning WARNING task 0_0 lag 20 > 19"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Evaluate(measured(tc.known), tc.opts)
			assert.Equal(t, tc.want, got.Status)
			var msgs []string
			for _, p := range got.Problems {
				msgs = append(msgs, p.Condition+" "+p.Status.String()+" "+p.Message)
			}
			assert.Equal(t, tc.msgs, msgs)
			assert.EqualValues(t, 23, got.Lag)
			assert.EqualValues(t, 20, got.MaxTaskLag)
		})
	}
	// Without records read, the offset lag.
	got := Evaluate(group(), Options{LagWarning: n(59)})
	assert.EqualValues(t, 60, got.Lag)
	assert.EqualValues(t, 35, got.MaxTaskLag)
}

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{"90s": 90 * time.Second, "5m": 5 * time.Minute, "1h30m": 90 * time.Minute, " 120 ": 2 * time.Minute, "0": 0} {
		got, err := ParseDuration("time-lag-warning", in)
		require.NoError(t, err, in)
		assert.Equal(t, want, *got, in)
	}
	for _, in := range []string{"", "-1", "-5s", "soon", "5 minutes"} {
		_, err := ParseDuration("time-lag-warning", in)
		assert.Error(t, err, in)
	}
}

func TestOptionsMeasured(t *testing.T) {
	assert.False(t, Options{}.measured())
	assert.True(t, Options{LagCritical: n(0)}.measured(), "a lag threshold reads the records")
	assert.False(t, Options{LagCritical: n(0)}.ShowsTimeLag())
	assert.True(t, Options{TimeLagWarning: d(time.Second)}.ShowsTimeLag())
	assert.True(t, Options{TimeLag: true}.measured())
	assert.Error(t, Options{Groups: []string{"g"}, TimeLagWarning: d(time.Hour), TimeLagCritical: d(time.Minute)}.Validate())
}
