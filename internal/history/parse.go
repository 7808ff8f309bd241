package history

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Since is --since: a time ago (Ago) or a time (At).
type Since struct {
	Ago time.Duration
	At  time.Time
}

// From is the time Since means at now.
func (s Since) From(now time.Time) time.Time {
	if !s.At.IsZero() {
		return s.At
	}
	return now.Add(-s.Ago)
}

// timeLayouts are the times --since and --until take: RFC 3339, with or
// without seconds' fraction, or a UTC date and time without zone.
var timeLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02"}

// ParseTime reads a time of --since or --until.
func ParseTime(option, s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			// No record is older than the Unix epoch; the zero time,
			// year 1, would read as no bound (Options) or as now (Since).
			if epoch := time.UnixMilli(0); t.Before(epoch) {
				t = epoch
			}
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("--%s: want a time such as 2026-12-06T03:12:00Z (RFC 3339; UTC without a zone), got %q", option, s)
}

// ParseSince reads --since: a duration (2h, 30m) or a time.
func ParseSince(option, s string) (Since, error) {
	if d, err := time.ParseDuration(strings.TrimSpace(s)); err == nil && d >= 0 {
		return Since{Ago: d}, nil
	}
	t, err := ParseTime(option, s)
	if err != nil {
		return Since{}, fmt.Errorf("--%s: want a duration (2h, 30m) or a time such as 2026-12-06T03:12:00Z, got %q", option, s)
	}
	return Since{At: t}, nil
}

// ParseSize reads a byte size: a number of bytes, or with a unit (KB, MB,
// GB: powers of 1024, as KiB, MiB, GiB).
func ParseSize(option, s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KIB", 1 << 10}, {"MIB", 1 << 20}, {"GIB", 1 << 30}, {"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 1 || n > math.MaxInt64/mult {
		return 0, fmt.Errorf("--%s: want a size of 1 byte or more, such as 256MB, 64KB or 1048576, got %q", option, s)
	}
	return n * mult, nil
}
