package format

import "testing"

// The documents of internal/serve/api hold format's types and are written
// by Encode, but that package imports format, so only format's external
// tests (package format_test) can hold them to format's checks: these
// give those tests the internal ones.
var (
	FillCovers          func(*testing.T, []any) = fillCovers
	MatchesTheLibraries func(*testing.T, []any) = matchesTheLibraries
)
