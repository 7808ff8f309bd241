package format

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/kstreams-groups/kstreams-groups/internal/overview"
)

func TestHumanDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0s", -time.Second: "0s", 850 * time.Millisecond: "850ms", 42 * time.Second: "42s",
		252 * time.Second: "4m12s", 4 * time.Minute: "4m", 3*time.Hour + 5*time.Minute + 9*time.Second: "3h5m",
		49*time.Hour + 30*time.Minute: "2d1h", 48 * time.Hour: "2d",
	} {
		assert.Equal(t, want, HumanDuration(d), d.String())
	}
}

func TestTimeLagText(t *testing.T) {
	assert.Equal(t, "", TimeLagText(overview.TimeLag{}))
	assert.Equal(t, "4m12s", TimeLagText(overview.TimeLag{Measured: true, Known: true, Lag: 252 * time.Second}))
	assert.Equal(t, ">=4m12s", TimeLagText(overview.TimeLag{Measured: true, Lag: 252 * time.Second}))
	assert.Equal(t, "-", TimeLagText(overview.TimeLag{Measured: true}))
}
