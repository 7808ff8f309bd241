package main

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// The docs' table of history's exit codes is historyExitStatuses.
func TestREADMEHistoryExitCodes(t *testing.T) {
	t.Parallel()
	var want [][]string
	for _, s := range historyExitStatuses {
		want = append(want, []string{itoa(s.Code), s.Meaning})
	}
	assert.Equal(t, want, readmeTable(t, "history-exit-codes"))
}

// historyClient serves a __consumer_offsets of one partition holding the
// records of a real 4.4.0 coordinator (testdata/history/real-4.4.0),
// the first `shown` of them (all when 0), as a broker would.
type historyClient struct {
	client   //nolint:unused // embedded for its method set only
	mu       sync.Mutex
	recs     []admin.LogRecord
	shown    int
	topicErr error
	reads    []admin.LogRead
}

func newHistoryClient(t *testing.T) *historyClient {
	t.Helper()
	f, err := os.Open("../../testdata/history/real-4.4.0/lifecycle.jsonl")
	require.NoError(t, err)
	defer f.Close()
	c := &historyClient{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r struct {
			Offset    int64   `json:"offset"`
			Timestamp int64   `json:"timestamp_ms"`
			Key       string  `json:"key"`
			Value     *string `json:"value"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r))
		// One batch per timestamp: the coordinator's writes.
		lr := admin.LogRecord{Offset: r.Offset, Timestamp: r.Timestamp, Batch: r.Offset}
		if n := len(c.recs); n > 0 && c.recs[n-1].Timestamp == r.Timestamp {
			lr.Batch = c.recs[n-1].Batch
		}
		lr.Key, err = base64.StdEncoding.DecodeString(r.Key)
		require.NoError(t, err)
		if r.Value != nil {
			lr.Value, err = base64.StdEncoding.DecodeString(*r.Value)
			require.NoError(t, err)
		}
		c.recs = append(c.recs, lr)
	}
	require.NoError(t, sc.Err())
	return c
}

func (c *historyClient) DescribeTopics(_ context.Context, topics []string) ([]admin.TopicInfo, error) {
	return []admin.TopicInfo{{Topic: topics[0], Partitions: []admin.PartitionInfo{{Partition: 0, Leader: 1}}, Err: c.topicErr}}, nil
}

func (c *historyClient) ReadLog(_ context.Context, q admin.LogRead, fn func(admin.LogRecord) error) (admin.LogReadStats, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reads = append(c.reads, q)
	recs := c.recs
	if c.shown > 0 {
		recs = recs[:c.shown]
	}
	st := admin.LogReadStats{End: recs[len(recs)-1].Offset + 1, Next: max(q.From, 0)}
	for _, r := range recs {
		if r.Offset < q.From {
			continue
		}
		if q.MaxBytes > 0 && st.Bytes >= q.MaxBytes {
			st.Budget = true
			break
		}
		st.Bytes += int64(len(r.Key) + len(r.Value))
		if err := fn(r); err != nil {
			return st, err
		}
		st.Next = r.Offset + 1
	}
	return st, nil
}

func (c *historyClient) Close() {}

func historyDeps(c *historyClient) deps {
	return deps{newClient: func(admin.Config) (client, error) { return c, nil }}
}

// The real lifecycle's timeline, as text and JSON.
func TestHistory_realRecords(t *testing.T) {
	t.Parallel()
	for _, o := range []string{"text", "json"} {
		t.Run(o, func(t *testing.T) {
			r := runWith(t, historyDeps(newHistoryClient(t)), "--bootstrap-server", "b:9092", "history", "--group", "hy-app", "-o", o)
			require.Equal(t, 0, r.code, r.stderr)
			assert.Empty(t, r.stderr)
			golden.Assert(t, []byte(r.stdout))
		})
	}
}

// Without DESCRIBE and READ on __consumer_offsets: one line naming them,
// nothing on stdout, exit 3 (with --detailed-exit-codes too).
func TestHistory_notAuthorized(t *testing.T) {
	t.Parallel()
	for _, detailed := range []bool{false, true} {
		c := newHistoryClient(t)
		c.topicErr = admin.NewKafkaError(kafka.CodeTopicAuthorizationFailed, nil)
		args := []string{"--bootstrap-server", "b:9092", "history", "--group", "hy-app"}
		if detailed {
			args = append(args, "--detailed-exit-codes")
		}
		r := runWith(t, historyDeps(c), args...)
		assert.Equal(t, historyUnreadable, r.code)
		assert.Empty(t, r.stdout)
		lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
		require.Len(t, lines, 1, r.stderr)
		assert.Contains(t, lines[0], "TOPIC_AUTHORIZATION_FAILED")
		assert.Contains(t, lines[0], "(history needs the DESCRIBE and READ ACLs on topic __consumer_offsets)")
	}
}

// --since and --until keep a window; --max-bytes stops the read with a
// note and still exits 0.
func TestHistory_windowAndBudget(t *testing.T) {
	t.Parallel()
	r := runWith(t, historyDeps(newHistoryClient(t)), "--bootstrap-server", "b:9092", "history", "--group", "hy-app",
		"--since", "2026-12-06T10:57:36Z", "--until", "2026-12-06T10:57:41Z", "-o", "json")
	require.Equal(t, 0, r.code, r.stderr)
	var doc struct {
		Entries []struct {
			GroupEpoch int `json:"group_epoch"`
		} `json:"entries"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &doc))
	var epochs []int
	for _, e := range doc.Entries {
		epochs = append(epochs, e.GroupEpoch)
	}
	assert.Equal(t, []int{6, 7, 8}, epochs)

	r = runWith(t, historyDeps(newHistoryClient(t)), "--bootstrap-server", "b:9092", "history", "--group", "hy-app", "--max-bytes", "1KB")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "Note: the byte budget (--max-bytes) stopped the read at offset")
	assert.NotContains(t, r.stdout, "epoch 9 -> 10")
}

// --watch reads only what the log gained since the last sample.
func TestHistory_watch(t *testing.T) {
	t.Parallel()
	c := newHistoryClient(t)
	c.shown = 40 // up to epoch 4's target assignment
	clk := newFakeClock(func(int) {
		c.mu.Lock()
		c.shown = 0 // the rest is written
		c.mu.Unlock()
	})
	r := runWith(t, deps{newClient: historyDeps(c).newClient, clock: clk}, "--bootstrap-server", "b:9092", "history", "--group", "hy-app", "--watch", "--count", "2")
	require.Equal(t, 0, r.code, r.stderr)
	first, second, ok := strings.Cut(r.stdout, "sample 2")
	require.True(t, ok, r.stdout)
	assert.Contains(t, first, "epoch 3 -> 4")
	assert.NotContains(t, first, "epoch 4 -> 5")
	assert.Contains(t, second, "epoch 9 -> 10")
	require.Len(t, c.reads, 2)
	assert.Equal(t, admin.EarliestTimestamp, c.reads[0].From)
	assert.Equal(t, c.recs[39].Offset+1, c.reads[1].From)
}

func TestHistory_usage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{nil, "history needs --group"},
		{[]string{"--group", "a", "--group", "b"}, "history reads one group: give --group once"},
		{[]string{"--group", "a", "--since", "yesterday"}, `--since: want a duration (2h, 30m) or a time`},
		{[]string{"--group", "a", "--until", "2h"}, `--until: want a time`},
		{[]string{"--group", "a", "--max-bytes", "0"}, "--max-bytes: want a size of 1 byte or more"},
		{[]string{"--group", "a", "--since", "2026-12-06T04:00:00Z", "--until", "2026-12-06T03:00:00Z"}, "--until 2026-12-06T03:00:00Z is before --since"},
		{[]string{"--group", "a", "--count", "2"}, "--count needs --watch"},
		{[]string{"--group", "a", "-o", "dot"}, "-o dot: history prints text, json or yaml"},
	} {
		r := runWith(t, noClient(t), append([]string{"--bootstrap-server", "b:9092", "history"}, tc.args...)...)
		assert.Equal(t, exitUsage, r.code, "%v: %s", tc.args, r.stderr)
		assert.Contains(t, r.stderr, tc.msg, "%v", tc.args)
	}
}
