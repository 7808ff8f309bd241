//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// tlInput is TestTimeLag's OverviewApp input (topic-prefix=tl-), its own on the shared broker:
// step 3 changes its message.timestamp.type.
const tlInput = "tl-ov-input"

// TestTimeLag: one exactly-once (exactly_once_v2) application on the
// shared broker, in four steps.
//
//  1. Idle and running, its input receives an aborted transaction of three
//     records on partition 0: nothing to process, and the app commits past
//     it by itself.
//  2. Paused with records produced at known timestamps (ten minutes old, set
//     by the producer; partitions 0-1 in zstd, 2-3 in lz4): each partition's
//     and the sub-topology's time lag is within one second of the truth, and
//     the records are counted exactly (the aborted ones are not).
//  3. The input switched to message.timestamp.type=LogAppendTime: the time
//     lag follows the broker's append time, not the producer's (old) one,
//     and the JSON says LogAppendTime.
//  4. Stopped, its input receives another aborted transaction, started
//     again: idle, yet the Java tool's --describe --offsets counts the
//     aborted records and the marker (LAG 4) for good, and ours in the Kafka
//     form prints the same lines; our overview --time-lag counts 0 records
//     and 0 time lag on every partition, and check --lag-critical 0 is OK.
func TestTimeLag(t *testing.T) {
	bin := OurBinary(t)
	ctx := context.Background()
	start := time.Now()
	b := SharedBroker(t, BrokerOptions{Plugin: PluginInMemory})
	require.NoError(t, createTopic(ctx, b, tlInput, 4))
	pause := filepath.Join(b.Dir, "tl-pause")
	port, err := FreePort()
	require.NoError(t, err)
	proc := startOverviewInstance(t, b, "tl-app", "a", "localhost:"+strconv.Itoa(port), pause, "processing-guarantee=exactly_once_v2", "topic-prefix=tl-")
	require.NoError(t, b.WaitGroupState(ctx, "tl-app", "Stable", 120*time.Second, proc, b.Proc))
	logf("TestTimeLag: broker and app up after %s", time.Since(start).Round(time.Millisecond))
	produceTo(t, b, tlInput, map[int32]int{0: 5, 1: 5, 2: 5, 3: 5})
	// Caught up: every input partition committed and nothing left to read.
	// (The offset difference need not be 0: the app's own transactions
	// leave markers on its repartition topic.)
	idle := waitTimeLag(t, bin, b, "tl-app", func(d tlDoc) string {
		if n := len(d.inputRows()); n != 4 {
			return fmt.Sprintf("%d input partitions committed", n)
		}
		if r := d.Groups[0].TimeLag.Records; r != 0 {
			return fmt.Sprintf("%d records to process", r)
		}
		return ""
	})
	logf("TestTimeLag: idle after %s; offset lag %d", time.Since(start).Round(time.Millisecond), idle.offsetLag())

	// Running and idle, the app reads past an aborted transaction and
	// commits past it (Kafka Streams commits an idle task's position once
	// it moved beyond what the task last consumed): the offset lag goes
	// back to 0 by itself (F395).
	t.Run("aborted transaction on a running exactly-once app", func(t *testing.T) {
		at := time.Now()
		abortTransaction(t, b, tlInput, 0, 3)
		d := timeLagJSON(t, bin, b, "tl-app")
		logf("TestTimeLag: right after the abort: "+tlInput+"-0 offset lag %d, records %d", d.inputRows()[0].Lag, d.inputRows()[0].TimeLag.Records)
		assertNothingToProcess(t, d)
		waitTimeLag(t, bin, b, "tl-app", func(d tlDoc) string {
			if l := d.inputRows()[0].Lag; l != 0 {
				return fmt.Sprintf("%s-0 offset lag %d", tlInput, l)
			}
			return ""
		})
		logf("TestTimeLag: the running app committed past the aborted transaction %s after it", time.Since(at).Round(time.Millisecond))
	})

	require.NoError(t, os.WriteFile(pause, nil, 0o644))
	t.Cleanup(func() { _ = os.Remove(pause) })

	// Ten minutes old, 1 ms apart, per partition: 3, 4, 5, 6 records.
	base := time.Now().Add(-10 * time.Minute).Truncate(time.Millisecond)
	first := map[int32]time.Time{}
	for p, codec := range map[int32]kgo.CompressionCodec{0: kgo.ZstdCompression(), 1: kgo.ZstdCompression(), 2: kgo.Lz4Compression(), 3: kgo.Lz4Compression()} {
		cl, err := kgo.NewClient(kgo.SeedBrokers(b.Addr), kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.ProducerBatchCompression(codec))
		require.NoError(t, err)
		var recs []*kgo.Record
		for i := range int(p) + 3 {
			ts := base.Add(time.Duration(int(p)*100+i) * time.Millisecond)
			if i == 0 {
				first[p] = ts
			}
			recs = append(recs, &kgo.Record{Topic: tlInput, Partition: p, Timestamp: ts, Value: fmt.Appendf(nil, "view page-%d region-%d", i%7, i%3)})
		}
		pctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		require.NoError(t, cl.ProduceSync(pctx, recs...).FirstErr())
		cancel()
		cl.Close()
	}

	var doc tlDoc
	// The lag shows once the records are in; the paused app commits no more.
	deadline := time.Now().Add(60 * time.Second)
	var before, after time.Time
	for {
		before = time.Now()
		r := RunOurs(ctx, bin, "--bootstrap-server", b.Addr, "overview", "--group", "tl-app", "--time-lag", "-o", "json")
		after = time.Now()
		require.Equal(t, 0, r.ExitCode, r.Stderr)
		require.NoError(t, json.Unmarshal([]byte(r.Stdout), &doc), r.Stdout)
		if doc.Groups[0].TimeLag.Records == 18 || time.Now().After(deadline) {
			logf("TestTimeLag: %s", r.Stdout)
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	g := doc.Groups[0]
	require.EqualValues(t, 18, g.TimeLag.Records)
	within := func(what string, got *int64, ts time.Time) {
		require.NotNil(t, got, what)
		lo, hi := before.Sub(ts)-time.Second, after.Sub(ts)+time.Second
		d := time.Duration(*got) * time.Millisecond
		assert.True(t, d >= lo && d <= hi, "%s: time lag %s, want %s..%s", what, d, lo, hi)
	}
	oldest := first[0]
	for _, st := range g.Subtopologies {
		for _, task := range st.Tasks {
			for _, o := range task.Offsets {
				if o.Topic != tlInput {
					continue
				}
				what := fmt.Sprintf("%s-%d", o.Topic, o.Partition)
				within(what, o.TimeLag.Milliseconds, first[o.Partition])
				assert.EqualValues(t, o.Partition+3, o.TimeLag.Records, what)
				assert.True(t, o.TimeLag.RecordsExact, what)
				assert.Equal(t, "CreateTime", o.TimeLag.TimestampType, what)
			}
		}
		if st.ID == "0" {
			within("sub-topology 0", st.TimeLag.Milliseconds, oldest)
		}
	}
	within("group", g.TimeLag.Milliseconds, oldest)

	t.Run("LogAppendTime", func(t *testing.T) {
		at := time.Now()
		require.NoError(t, os.Remove(pause))
		waitTimeLag(t, bin, b, "tl-app", func(d tlDoc) string {
			if r := d.Groups[0].TimeLag.Records; r != 0 {
				return fmt.Sprintf("%d records to process", r)
			}
			return ""
		})
		require.NoError(t, alterTopicConfig(ctx, b, tlInput, "message.timestamp.type", "LogAppendTime"))
		require.NoError(t, os.WriteFile(pause, nil, 0o644))
		// The producer's timestamps are ten minutes old; the broker's replace them.
		old := time.Now().Add(-10 * time.Minute)
		cl, err := kgo.NewClient(kgo.SeedBrokers(b.Addr), kgo.RecordPartitioner(kgo.ManualPartitioner()))
		require.NoError(t, err)
		var recs []*kgo.Record
		for p := range int32(4) {
			recs = append(recs, &kgo.Record{Topic: tlInput, Partition: p, Timestamp: old, Value: []byte("append time")})
		}
		p0 := time.Now()
		pctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		require.NoError(t, cl.ProduceSync(pctx, recs...).FirstErr())
		cancel()
		cl.Close()
		d := waitTimeLag(t, bin, b, "tl-app", func(got tlDoc) string {
			if r := got.Groups[0].TimeLag.Records; r != 4 {
				return fmt.Sprintf("%d records to process", r)
			}
			return ""
		})
		after := time.Now()
		for _, o := range d.inputRows() {
			what := fmt.Sprintf("%s-%d", o.Topic, o.Partition)
			assert.Equal(t, "LogAppendTime", o.TimeLag.TimestampType, what)
			assert.EqualValues(t, 1, o.TimeLag.Records, what)
			if assert.NotNil(t, o.TimeLag.Milliseconds, what) {
				got := time.Duration(*o.TimeLag.Milliseconds) * time.Millisecond
				// Appended after p0, read before after.
				assert.True(t, got >= -time.Second && got <= after.Sub(p0)+time.Second,
					"%s: time lag %s, want at most %s (append time, not the producer's)", what, got, after.Sub(p0)+time.Second)
			}
		}
		logf("TestTimeLag: LogAppendTime step %s", time.Since(at).Round(time.Millisecond))
	})

	// Stopped, then started again after an aborted transaction: the new
	// task never consumed a record, so it never commits past the aborted
	// records and the marker, and the offset lag stays 4 while the
	// application idles (F396). That is the lag that is no lag.
	t.Run("aborted transaction before an exactly-once app restarts", func(t *testing.T) {
		at := time.Now()
		_ = os.Remove(pause)
		waitTimeLag(t, bin, b, "tl-app", func(d tlDoc) string {
			if r := d.Groups[0].TimeLag.Records; r != 0 {
				return fmt.Sprintf("%d records to process", r)
			}
			return ""
		})
		require.NoError(t, proc.Stop(20*time.Second))
		require.NoError(t, b.WaitGroupState(ctx, "tl-app", "Empty", 30*time.Second, b.Proc))
		abortTransaction(t, b, tlInput, 0, 3)
		port, err := FreePort()
		require.NoError(t, err)
		proc = startOverviewInstance(t, b, "tl-app", "b", "localhost:"+strconv.Itoa(port), pause, "processing-guarantee=exactly_once_v2", "topic-prefix=tl-")
		require.NoError(t, b.WaitGroupState(ctx, "tl-app", "Stable", 120*time.Second, proc, b.Proc))
		logf("TestTimeLag: restarted app Stable %s after the stop", time.Since(at).Round(time.Millisecond))
		// Many commit intervals (200 ms) for the app to move, if it would.
		time.Sleep(3 * time.Second)
		java, err := RunStreamsGroupCommand(ctx, "--bootstrap-server", b.Addr, "--describe", "--offsets", "--group", "tl-app")
		require.NoError(t, err)
		require.Equal(t, 0, java.ExitCode, java.Stderr)
		ours := RunOurs(ctx, bin, "--bootstrap-server", b.Addr, "--describe", "--offsets", "--group", "tl-app")
		require.Equal(t, 0, ours.ExitCode, ours.Stderr)
		logf("TestTimeLag: java --describe --offsets:\n%s", java.Stdout)
		// Every line the same bytes; ours sorts the rows (README).
		assert.Equal(t, sortedLines(java.Stdout), sortedLines(ours.Stdout), "java:\n%s\nours:\n%s", java.Stdout, ours.Stdout)
		rows := parseJavaOffsets(t, java.Stdout)
		assert.EqualValues(t, 4, rows[tlInput+" 0"], "3 aborted records + the abort marker")
		for p := 1; p < 4; p++ {
			assert.EqualValues(t, 0, rows[fmt.Sprintf("%s %d", tlInput, p)])
		}
		d := timeLagJSON(t, bin, b, "tl-app")
		assert.EqualValues(t, 4, d.inputRows()[0].Lag, "the offset difference stays in the JSON")
		assertNothingToProcess(t, d)
		chk := RunOurs(ctx, bin, "--bootstrap-server", b.Addr, "check", "--group", "tl-app", "--lag-critical", "0")
		assert.Equal(t, 0, chk.ExitCode, "check: %s%s", chk.Stdout, chk.Stderr)
		logf("TestTimeLag: check --lag-critical 0: exit %d %s", chk.ExitCode, chk.Stdout)
		logf("TestTimeLag: restart step %s", time.Since(at).Round(time.Millisecond))
	})
	logf("TestTimeLag: %s in all (before stopping the JVMs)", time.Since(start).Round(time.Millisecond))
}

// assertNothingToProcess: every partition of the group counts 0 records
// (exactly) and 0 time lag.
func assertNothingToProcess(t *testing.T, d tlDoc) {
	t.Helper()
	for _, st := range d.Groups[0].Subtopologies {
		for _, task := range st.Tasks {
			for _, o := range task.Offsets {
				what := fmt.Sprintf("%s-%d", o.Topic, o.Partition)
				assert.EqualValues(t, 0, o.TimeLag.Records, what)
				assert.True(t, o.TimeLag.RecordsExact, what)
				if assert.NotNil(t, o.TimeLag.Milliseconds, what) {
					assert.EqualValues(t, 0, *o.TimeLag.Milliseconds, what)
				}
			}
		}
	}
	assert.EqualValues(t, 0, d.Groups[0].TimeLag.Records)
}

type tlDoc struct {
	Groups []struct {
		TimeLag       tlFig `json:"time_lag"`
		Subtopologies []struct {
			ID      string `json:"id"`
			TimeLag tlFig  `json:"time_lag"`
			Tasks   []struct {
				Offsets []tlRow `json:"offsets"`
			} `json:"tasks"`
		} `json:"subtopologies"`
	} `json:"groups"`
}

type tlRow struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	Lag       int64  `json:"lag"`
	TimeLag   tlFig  `json:"time_lag"`
}

// inputRows are the tlInput partitions, by partition.
func (d tlDoc) inputRows() []tlRow {
	var out []tlRow
	for _, g := range d.Groups {
		for _, st := range g.Subtopologies {
			for _, task := range st.Tasks {
				for _, o := range task.Offsets {
					if o.Topic == tlInput {
						out = append(out, o)
					}
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b tlRow) int { return int(a.Partition - b.Partition) })
	return out
}

// offsetLag is the sum of the offset differences, for the log.
func (d tlDoc) offsetLag() int64 {
	var n int64
	for _, g := range d.Groups {
		for _, st := range g.Subtopologies {
			for _, task := range st.Tasks {
				for _, o := range task.Offsets {
					n += o.Lag
				}
			}
		}
	}
	return n
}

func timeLagJSON(t *testing.T, bin string, b *Broker, group string) tlDoc {
	t.Helper()
	r := RunOurs(context.Background(), bin, "--bootstrap-server", b.Addr, "overview", "--group", group, "--time-lag", "-o", "json")
	require.Equal(t, 0, r.ExitCode, r.Stderr)
	var d tlDoc
	require.NoError(t, json.Unmarshal([]byte(r.Stdout), &d), r.Stdout)
	require.Len(t, d.Groups, 1, r.Stdout)
	return d
}

// waitTimeLag polls overview --time-lag until notYet says "" (90 s at most).
func waitTimeLag(t *testing.T, bin string, b *Broker, group string, notYet func(tlDoc) string) tlDoc {
	t.Helper()
	return pollDoc(t, group, 300*time.Millisecond, func() tlDoc { return timeLagJSON(t, bin, b, group) }, notYet)
}

// abortTransaction writes n records to topic's partition in a transaction
// and aborts it: n aborted records and one abort marker.
func abortTransaction(t *testing.T, b *Broker, topic string, partition int32, n int) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(b.Addr), kgo.TransactionalID("tl-aborter"),
		kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.DisableClientMetrics())
	require.NoError(t, err)
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	require.NoError(t, cl.BeginTransaction())
	var recs []*kgo.Record
	for i := range n {
		recs = append(recs, &kgo.Record{Topic: topic, Partition: partition, Value: fmt.Appendf(nil, "aborted %d", i)})
	}
	require.NoError(t, cl.ProduceSync(ctx, recs...).FirstErr())
	require.NoError(t, cl.EndTransaction(ctx, kgo.TryAbort))
}

// alterTopicConfig sets one config of topic (IncrementalAlterConfigs).
func alterTopicConfig(ctx context.Context, b *Broker, topic, key, value string) error {
	req := kmsg.NewPtrIncrementalAlterConfigsRequest()
	r := kmsg.NewIncrementalAlterConfigsRequestResource()
	r.ResourceType, r.ResourceName = kmsg.ConfigResourceTypeTopic, topic
	c := kmsg.NewIncrementalAlterConfigsRequestResourceConfig()
	c.Name, c.Op, c.Value = key, kmsg.IncrementalAlterConfigOpSet, kmsg.StringPtr(value)
	r.Configs = append(r.Configs, c)
	req.Resources = append(req.Resources, r)
	resp, err := req.RequestWith(ctx, b.Client())
	if err != nil {
		return err
	}
	return kerr.ErrorForCode(resp.Resources[0].ErrorCode)
}

type tlFig struct {
	Milliseconds  *int64 `json:"milliseconds"`
	Records       int64  `json:"records"`
	RecordsExact  bool   `json:"records_exact"`
	TimestampType string `json:"timestamp_type"`
}
