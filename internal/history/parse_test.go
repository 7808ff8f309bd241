package history

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Time
	}{
		{"2h", now.Add(-2 * time.Hour)},
		{"90m", now.Add(-90 * time.Minute)},
		{"2026-12-06T03:12:00Z", time.Date(2026, 12, 6, 3, 12, 0, 0, time.UTC)},
		{"2026-12-06T04:12:00+01:00", time.Date(2026, 12, 6, 3, 12, 0, 0, time.UTC)},
		{"2026-12-06T03:12", time.Date(2026, 12, 6, 3, 12, 0, 0, time.UTC)},
		{"2026-12-06", time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)},
	} {
		s, err := ParseSince("since", tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, s.From(now), tc.in)
	}
	_, err := ParseSince("since", "yesterday")
	assert.EqualError(t, err, `--since: want a duration (2h, 30m) or a time such as 2026-12-06T03:12:00Z, got "yesterday"`)
	_, err = ParseSince("since", "-2h")
	assert.Error(t, err)
	_, err = ParseTime("until", "2h")
	assert.EqualError(t, err, `--until: want a time such as 2026-12-06T03:12:00Z (RFC 3339; UTC without a zone), got "2h"`)
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1": 1, "1048576": 1 << 20, "64KB": 64 << 10, "256MB": 256 << 20, "1g": 1 << 30, "2 MiB": 2 << 20, "10B": 10} {
		got, err := ParseSize("max-bytes", in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"0", "-1", "MB", "1.5MB", "9999999999999GB", "lots"} {
		_, err := ParseSize("max-bytes", in)
		assert.Error(t, err, in)
	}
}

// The zero time.Time means "no bound" in Options: a time given as year 1
// (or any time before the Unix epoch, before every record) still bounds,
// and does not turn --since into "now" or drop --until.
func TestParseTime_beforeTheEpoch(t *testing.T) {
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	for _, in := range []string{"0001-01-01T00:00:00Z", "0001-01-01", "1960-01-01"} {
		s, err := ParseSince("since", in)
		require.NoError(t, err, in)
		from := s.From(now)
		assert.False(t, from.IsZero(), in)
		assert.False(t, from.After(time.UnixMilli(0)), "%s: before every record, not now (%s)", in, from)
		u, err := ParseTime("until", in)
		require.NoError(t, err, in)
		assert.False(t, u.IsZero(), "%s: --until bounds", in)
		assert.NoError(t, Options{Group: "g", Since: from, Until: u}.Validate(), in)
	}
}
