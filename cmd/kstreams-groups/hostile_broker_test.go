package main

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin/admintest"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// Misbehaving brokers, through the real command path: a broker that answers
// some requests and then closes the connection, holds back an answer, or
// breaks the wire protocol. Each case asserts the exit code, the one line
// on stderr, the time taken and that no control byte reaches the terminal.
// A protocol error is reported at once, well before --timeout, and the
// request is not sent again; a lost answer is retried and reported as
// unavailable when --timeout ends, never as an authentication failure.
// e2e/FINDINGS.md F140, F143.

const (
	keyApiVersions = 18
)

// The --timeout of the cases: a case that must end at once gets a long one
// and asserts it took less than half of it; one that retries until the
// timeout gets a short one and asserts it ended within hostileMargin after
// it. The margins are generous: the point is retrying or not, on a machine
// that may be loaded.
const (
	atOnceTimeout  = 10 * time.Second
	retriedTimeout = 1500 * time.Millisecond
	hostileMargin  = 3 * time.Second
)

// hostileCluster is one node with a described group, an empty group to
// delete, and a classic group.
func hostileCluster(t *testing.T) *playground.Cluster {
	t.Helper()
	c, err := playground.Start(playground.Config{Logf: t.Logf})
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	c.PutStreamsGroup(streamsGroup("word-count", tt.WordCount()))
	c.PutStreamsGroup(emptyGroup("old-app"))
	return c
}

func TestHostileBroker(t *testing.T) {
	t.Parallel()
	isolate(t)
	describe := []string{"--describe", "--topology", "--group", "word-count"}
	del := []string{"--delete", "--group", "old-app"}
	list := []string{"--list"}
	tests := []struct {
		name  string
		rules []admintest.Rule
		args  []string
		// wantCode is with --detailed-exit-codes; the default mode exits 1
		// for every failure.
		wantCode int
		// wantLine matches the one stderr line; ADDR is the broker.
		wantLine string
		// untilTimeout: retried until --timeout, else reported at once.
		untilTimeout bool
		// sentOnce: the spoiled key reached the broker exactly once.
		sentOnce int16
		wantOut  string // stdout, exact but for ADDR
	}{
		{name: "connection closed after DeleteGroups", rules: []admintest.Rule{{Key: keyDeleteGroups, Action: admintest.Close}}, args: del,
			wantCode: exitUnavailable, untilTimeout: true,
			wantOut: deleteFailed + `DeleteGroups: timed out OPT{waiting for ADDR to answer DeleteGroups v3 }(last error: broker ADDR closed the connection without answering DeleteGroups)` + "\n"},
		{name: "answer to DeleteGroups lost once", rules: []admintest.Rule{{Key: keyDeleteGroups, Action: admintest.Lose, Times: 1}}, args: del,
			wantCode: exitOK, wantOut: "Deletion of requested streams groups ('old-app') was successful.\n"},
		{name: "connection closed after StreamsGroupDescribe", rules: []admintest.Rule{{Key: keyStreamsGroupDescribe, Action: admintest.Close}}, args: describe,
			wantCode: exitUnavailable, untilTimeout: true,
			wantLine: `Error: streams group 'word-count': StreamsGroupDescribe: timed out OPT{waiting for ADDR to answer StreamsGroupDescribe v1 }(last error: broker ADDR closed the connection without answering StreamsGroupDescribe) (--timeout 1500 ms)`},
		{name: "connection closed after ListGroups", rules: []admintest.Rule{{Key: keyListGroups, Action: admintest.Close}}, args: list,
			wantCode: exitUnavailable, untilTimeout: true,
			wantLine: `Error: ListGroups: timed out OPT{waiting for ADDR to answer ListGroups v5 }(last error: broker ADDR closed the connection without answering ListGroups) (--timeout 1500 ms)`},
		{name: "connection cut in the middle of an answer", rules: []admintest.Rule{{Key: keyStreamsGroupDescribe, Action: admintest.CutFrame}}, args: describe,
			wantCode: exitUnavailable, untilTimeout: true,
			wantLine: `Error: streams group 'word-count': StreamsGroupDescribe: timed out OPT{waiting for ADDR to answer StreamsGroupDescribe v1 }(last error: broker ADDR closed the connection in the middle of its answer to StreamsGroupDescribe) (--timeout 1500 ms)`},
		{name: "answer never comes", rules: []admintest.Rule{{Key: keyStreamsGroupDescribe, Action: admintest.Hang}}, args: describe,
			wantCode: exitUnavailable, untilTimeout: true,
			wantLine: `Error: streams group 'word-count': StreamsGroupDescribe: timed out waiting for ADDR to answer StreamsGroupDescribe v1 (--timeout 1500 ms)`},
		{name: "SASL listener: closes after the first request but ApiVersions", args: describe,
			rules:    []admintest.Rule{{Key: keyApiVersions, Action: admintest.Answer}, {Key: admintest.AnyKey, Action: admintest.Close}},
			wantCode: exitNotAuthorized,
			wantLine: `Error: streams group 'word-count': authentication failed: broker closed the connection immediately after a request was issued, which often happens when SASL is required but not provided: is SASL missing?`},
		{name: "oversized answer to StreamsGroupDescribe", rules: []admintest.Rule{{Key: keyStreamsGroupDescribe, Action: admintest.Oversize}}, args: describe,
			wantCode: exitFailure, sentOnce: keyStreamsGroupDescribe,
			wantLine: `Error: streams group 'word-count': invalid response from broker ADDR to StreamsGroupDescribe v1: response size 209715200 is over the limit of 104857600 bytes`},
		{name: "negative size", rules: []admintest.Rule{{Key: keyStreamsGroupDescribe, Action: admintest.NegativeSize}}, args: describe,
			wantCode: exitFailure, sentOnce: keyStreamsGroupDescribe,
			wantLine: `Error: streams group 'word-count': invalid response from broker ADDR to StreamsGroupDescribe v1: negative response size -16`},
		{name: "wrong correlation id", rules: []admintest.Rule{{Key: keyStreamsGroupDescribe, Action: admintest.WrongCorrelation}}, args: describe,
			wantCode: exitFailure, sentOnce: keyStreamsGroupDescribe,
			wantLine: `Error: streams group 'word-count': invalid response from broker ADDR to StreamsGroupDescribe v1: correlation id 1002, expected 2`},
		{name: "truncated body", rules: []admintest.Rule{{Key: keyStreamsGroupDescribe, Action: admintest.TruncateBody}}, args: describe,
			wantCode: exitFailure, sentOnce: keyStreamsGroupDescribe,
			wantLine: `Error: streams group 'word-count': invalid response from broker ADDR to StreamsGroupDescribe: the answer ends before its message does`},
		{name: "oversized answer to DeleteGroups", rules: []admintest.Rule{{Key: keyDeleteGroups, Action: admintest.Oversize}}, args: del,
			wantCode: exitFailure, sentOnce: keyDeleteGroups,
			wantOut: deleteFailed + `invalid response from broker ADDR to DeleteGroups v3: response size 209715200 is over the limit of 104857600 bytes` + "\n"},
		{name: "oversized answer to ListGroups", rules: []admintest.Rule{{Key: keyListGroups, Action: admintest.Oversize}}, args: list,
			wantCode: exitFailure, sentOnce: keyListGroups,
			wantLine: `Error: invalid response from broker ADDR to ListGroups v5: response size 209715200 is over the limit of 104857600 bytes`},
		{name: "truncated FindCoordinator", rules: []admintest.Rule{{Key: keyFindCoordinator, Action: admintest.TruncateBody}}, args: describe,
			wantCode: exitFailure, sentOnce: keyFindCoordinator,
			wantLine: `Error: streams group 'word-count': invalid response from broker ADDR to FindCoordinator: the answer ends before its message does`},
		{name: "wrong correlation id in the handshake", rules: []admintest.Rule{{Key: keyApiVersions, Action: admintest.WrongCorrelation}}, args: describe,
			wantCode: exitFailure, sentOnce: keyApiVersions,
			wantLine: `Error: streams group 'word-count': invalid response from broker ADDR to ApiVersions v4: correlation id 1000, expected 0`},
		{name: "negative size in the handshake", rules: []admintest.Rule{{Key: keyApiVersions, Action: admintest.NegativeSize}}, args: list,
			wantCode: exitFailure, sentOnce: keyApiVersions,
			wantLine: `Error: invalid response from broker ADDR to ApiVersions v4: negative response size -16`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, detailed := range []bool{true, false} {
				if !detailed && (tc.untilTimeout || tc.wantCode == exitOK) {
					continue // one run of each slow case is enough
				}
				timeout := atOnceTimeout
				if tc.untilTimeout {
					timeout = retriedTimeout
				}
				h := admintest.Start(t, hostileCluster(t), tc.rules...)
				args := append([]string{"--bootstrap-server", h.Bootstrap(), "--timeout", itoa(int(timeout.Milliseconds()))}, tc.args...)
				want := tc.wantCode
				if detailed {
					args = append(args, "--detailed-exit-codes")
				} else if want != exitOK {
					want = exitFailure
				}
				start := time.Now()
				r := runWith(t, deps{}, args...)
				took := time.Since(start)
				t.Logf("detailed=%v: exit %d in %s: stderr %q stdout %q", detailed, r.code, took.Round(time.Millisecond), r.stderr, r.stdout)

				assert.Equal(t, want, r.code, "exit code; stderr: %s", r.stderr)
				assert.Regexp(t, addrPattern(tc.wantOut), r.stdout)
				if tc.wantLine == "" {
					assert.Empty(t, r.stderr)
				} else {
					assert.Regexp(t, addrPattern(tc.wantLine+"\n"), r.stderr, "one line on stderr")
				}
				assertNoControlBytes(t, r)
				if tc.untilTimeout {
					assert.GreaterOrEqual(t, took, timeout-100*time.Millisecond, "retried until --timeout")
					assert.Less(t, took, timeout+hostileMargin, "ended at --timeout")
				} else {
					assert.Less(t, took, timeout/2, "reported at once, not retried until --timeout")
				}
				if tc.sentOnce != 0 {
					assert.Equal(t, 1, h.Count(tc.sentOnce), "an invalid answer is never asked for again: %v", h.Requests())
				}
			}
		})
	}
}

// deleteFailed is how the delete text starts the line of a failed group
// (Kafka's, on stdout).
const deleteFailed = "\nError: Deletion of some streams groups failed:\n* Group 'old-app' could not be deleted due to: "

// addrPattern matches s exactly, with ADDR standing for a loopback address
// and OPT{x} for x, an earlier step of the retry, or nothing: the step a
// timeout names when a retry was under way at the deadline (the retry
// dials again and may look up the coordinator again, so on a loaded
// machine the deadline can land in its TCP connect, its ApiVersions or
// its FindCoordinator).
func addrPattern(s string) *regexp.Regexp {
	p := strings.ReplaceAll(regexp.QuoteMeta(s), "ADDR", `127\.0\.0\.1:\d+`)
	p = optPattern.ReplaceAllString(p, `(?:$1|`+retryHandshake+`)?`)
	return regexp.MustCompile("^" + p + "$")
}

// retryHandshake is what a timeout names when it ends a retry before its
// request (admin.Wait's words).
const retryHandshake = `connecting to 127\.0\.0\.1:\d+ \(TCP\) |` +
	`waiting for 127\.0\.0\.1:\d+ to answer ApiVersions v\d+, the first request of a connection \(is it a Kafka listener\?\) |` +
	`waiting for 127\.0\.0\.1:\d+ to answer FindCoordinator v\d+ `

var optPattern = regexp.MustCompile(`OPT\\\{(.*?)\\\}`)
