//go:build unix

package history

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/benchtest"
	cr "github.com/kstreams-groups/kstreams-groups/internal/coordrecords"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// offsetCommitKey is an OffsetCommitKey (type 1: group, topic,
// partition) as a coordinator writes it.
func offsetCommitKey(group, topic string, partition int32) []byte {
	b := []byte{0, 1}
	b = append(b, byte(len(group)>>8), byte(len(group)))
	b = append(b, group...)
	b = append(b, byte(len(topic)>>8), byte(len(topic)))
	b = append(b, topic...)
	return append(b, byte(partition>>24), byte(partition>>16), byte(partition>>8), byte(partition))
}

// TestHistoryRead_large is the figure (issue 34, Performance): a
// partition of HISTORY_BENCH_MB megabytes (100 in the issue) holding
// 1,000 groups' records, offset commits mostly, read through the real
// Fetch path (admin.ReadLog on a kfake broker) for one group's history:
// its wall time and the peak memory of the process that reads, logged. Opt-in: producing the
// partition takes a while.
func TestHistoryRead_large(t *testing.T) {
	mb, _ := strconv.Atoi(os.Getenv("HISTORY_BENCH_MB"))
	if mb <= 0 {
		t.Skip("set HISTORY_BENCH_MB (100 for the issue's figure)")
	}
	const topic = "offsets-bench"
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, topic))
	require.NoError(t, err)
	defer c.Close()
	prod, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.DefaultProduceTopic(topic),
		kgo.ProducerBatchMaxBytes(1<<20), kgo.ProducerBatchCompression(kgo.NoCompression()), kgo.ProducerLinger(5*time.Millisecond))
	require.NoError(t, err)
	value := make([]byte, 40) // an OffsetCommitValue's size
	var produced atomic.Int64
	var wg sync.WaitGroup
	target := int64(mb) << 20
	// The group's own records: a member joins, every 1,000 records.
	s := base()
	mine := 0
	for n := 0; produced.Load() < target; n++ {
		var key, val []byte
		if n%1000 == 999 && mine < len(s.recs) {
			key, val = s.recs[mine].Key, s.recs[mine].Value
			mine++
		} else {
			key, val = offsetCommitKey(fmt.Sprintf("application-%04d", n%1000), "orders-input-topic", int32(n%12)), value
		}
		produced.Add(int64(len(key) + len(val) + 8)) // with its framing: about the batch bytes
		wg.Add(1)
		prod.Produce(context.Background(), &kgo.Record{Key: key, Value: val}, func(_ *kgo.Record, err error) {
			require.NoError(t, err)
			wg.Done()
		})
	}
	wg.Wait()
	prod.Close()

	// The read in a child process, for its own peak memory: the broker's
	// copy of the log lives in this one.
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Env = append(os.Environ(), historyChildEnv+"="+c.ListenAddrs()[0]+" "+topic)
	u, err := benchtest.Measure(cmd)
	require.NoError(t, err)
	t.Logf("%d MB of 1,000 groups' records (uncompressed, as a coordinator writes them by default): %s; "+
		"one group's history in %s wall (%s CPU), peak RSS %.1f MB",
		mb, strings.TrimSpace(out.String()), u.Wall.Round(time.Millisecond), u.CPU.Round(time.Millisecond), float64(u.Peak)/(1<<20))
}

// historyChildEnv makes the test binary the child of
// TestHistoryRead_large: "ADDR TOPIC" to read group's history from.
const historyChildEnv = "KSTREAMS_GROUPS_HISTORY_CHILD"

func TestMain(m *testing.M) {
	if spec := os.Getenv(historyChildEnv); spec != "" {
		addr, topic, _ := strings.Cut(spec, " ")
		if err := readChild(addr, topic); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		benchtest.WritePeak()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func readChild(addr, topic string) error {
	cl, err := admin.New(admin.Config{Bootstrap: []string{addr}})
	if err != nil {
		return err
	}
	defer cl.Close()
	h := NewReader(Options{Group: group, MaxBytes: DefaultMaxBytes})
	h.tp, h.located = kafka.TopicPartition{Topic: topic}, true
	res, err := h.Read(context.Background(), cl)
	if err == nil {
		err = res.Err
	}
	if err != nil {
		return err
	}
	if len(res.Entries) != 1 {
		return fmt.Errorf("%d entries, want the group's creation", len(res.Entries))
	}
	fmt.Printf("%d records, %d MB fetched, %d of the group's", res.Stats.Records, res.Stats.Bytes>>20, res.Stats.GroupRecords)
	return nil
}

// BenchmarkReader_decode is the fold alone: 100,000 records of 1,000
// groups (offset commits) and one group's streams records, handed to
// the reader as ReadLog would.
func BenchmarkReader_decode(b *testing.B) {
	s := base()
	var recs []admin.LogRecord
	for n := range 100_000 {
		r := admin.LogRecord{Offset: int64(n), Batch: int64(n), Timestamp: t0.UnixMilli(),
			Key: offsetCommitKey(fmt.Sprintf("application-%04d", n%1000), "orders-input-topic", int32(n%12)), Value: make([]byte, 40)}
		if i := n / 10_000; n%10_000 == 0 && i < len(s.recs) {
			r.Key, r.Value = s.recs[i].Key, s.recs[i].Value
		}
		recs = append(recs, r)
	}
	c := &fakeClient{recs: recs}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(context.Background(), c, Options{Group: group}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(recs)), "records/op")
	_ = cr.TypeOffsetCommit
}
