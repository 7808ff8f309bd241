//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestTimeLag: an application paused with records produced at known
// timestamps (ten minutes old, set by the producer; partitions 0-1 in
// zstd, 2-3 in lz4): our overview --time-lag gives each partition's and
// the sub-topology's time lag within one second of the truth, and counts
// the records exactly.
func TestTimeLag(t *testing.T) {
	bin := OurBinary(t)
	ctx := context.Background()
	b := StartBroker(t, BrokerOptions{Plugin: PluginInMemory})
	require.NoError(t, createTopic(ctx, b, "ov-input", 4))
	pause := filepath.Join(b.Dir, "tl-pause")
	port, err := FreePort()
	require.NoError(t, err)
	proc := startOverviewInstance(t, b, "tl-app", "a", "localhost:"+strconv.Itoa(port), pause)
	require.NoError(t, b.WaitGroupState(ctx, "tl-app", "Stable", 120*time.Second, proc, b.Proc))
	produceTo(t, b, "ov-input", map[int32]int{0: 5, 1: 5, 2: 5, 3: 5})
	waitOverview(t, bin, b, "tl-app", func(d overviewDoc) string {
		if d.Lag != 0 || d.committed() < 4 {
			return fmt.Sprintf("lag %d, %d committed", d.Lag, d.committed())
		}
		return ""
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
			recs = append(recs, &kgo.Record{Topic: "ov-input", Partition: p, Timestamp: ts, Value: fmt.Appendf(nil, "view page-%d region-%d", i%7, i%3)})
		}
		pctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		require.NoError(t, cl.ProduceSync(pctx, recs...).FirstErr())
		cancel()
		cl.Close()
	}

	var doc struct {
		Groups []struct {
			TimeLag       tlFig `json:"time_lag"`
			Subtopologies []struct {
				ID      string `json:"id"`
				TimeLag tlFig  `json:"time_lag"`
				Tasks   []struct {
					Offsets []struct {
						Topic     string `json:"topic"`
						Partition int32  `json:"partition"`
						Lag       int64  `json:"lag"`
						TimeLag   tlFig  `json:"time_lag"`
					} `json:"offsets"`
				} `json:"tasks"`
			} `json:"subtopologies"`
		} `json:"groups"`
	}
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
				if o.Topic != "ov-input" {
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
}

type tlFig struct {
	Milliseconds  *int64 `json:"milliseconds"`
	Records       int64  `json:"records"`
	RecordsExact  bool   `json:"records_exact"`
	TimestampType string `json:"timestamp_type"`
}
