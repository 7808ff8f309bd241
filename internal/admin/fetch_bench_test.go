package admin

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// BenchmarkFetchAnswer weighs the batch-header reader (take: headers, and
// the records of a batch only where the gap starts or ends) against
// franz-go's decoding of every record (takeRecords: kgo.ProcessFetchPartition)
// on one partition's answer of a counted gap: RecordCountBound records in
// batches of 100, from offset 50 (inside the first batch) to the end, the
// case of a lagging partition whose records are counted.
func BenchmarkFetchAnswer(b *testing.B) {
	for _, codec := range []string{"none", "lz4", "zstd"} {
		p := benchAnswer(b, codec)
		q := FirstRecordQuery{TopicPartition: kafka.TopicPartition{Topic: "t"}, From: 50, End: RecordCountBound, Count: true}
		mk := func() *partRead {
			return &partRead{q: q, pos: q.From, maxBytes: fetchCountPartitionBytes, out: FirstRecord{Timestamp: -1, Offset: -1}}
		}
		dec := newBoundedDecompressor(maxDecompressedBatch)
		b.Run(codec+"/headers", func(b *testing.B) {
			var scratch []byte
			b.ReportAllocs()
			for b.Loop() {
				r := mk()
				r.take(p, dec, &scratch)
				if r.out.Records != RecordCountBound-50 {
					b.Fatalf("counted %d", r.out.Records)
				}
			}
		})
		b.Run(codec+"/kgo", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r := mk()
				if _, failed := r.takeRecords(p, dec); failed || r.out.Records != RecordCountBound-50 {
					b.Fatalf("counted %d, failed %v", r.out.Records, failed)
				}
			}
		})
	}
}

// benchAnswer is the playground's Fetch answer for topic t's partition 0
// (RecordCountBound records, 100 to a batch, in codec), from offset 0.
func benchAnswer(b *testing.B, codec string) *kmsg.FetchResponseTopicPartition {
	b.Helper()
	ts := make([]string, RecordCountBound)
	for o := range ts {
		ts[o] = fmt.Sprint(1_000_000 + o)
	}
	s, err := playground.ParseState(fmt.Appendf(nil, `nodes: 1
topics:
  - name: t
    partitions: 1
    end_offsets: [%d]
    timestamps: [[%s]]
    compression: %s
    batch_records: 100
`, RecordCountBound, strings.Join(ts, ","), codec))
	require.NoError(b, err)
	c, err := playground.StartState(s)
	require.NoError(b, err)
	b.Cleanup(func() { _ = c.Close() })
	cl, err := New(Config{Bootstrap: c.Addrs()})
	require.NoError(b, err)
	b.Cleanup(cl.Close)
	req := kmsg.NewPtrFetchRequest()
	req.ReplicaID, req.MaxBytes, req.IsolationLevel, req.SessionEpoch = -1, 32<<20, 1, -1
	rt := kmsg.NewFetchRequestTopic()
	rt.Topic = "t"
	rp := kmsg.NewFetchRequestTopicPartition()
	rp.PartitionMaxBytes, rp.CurrentLeaderEpoch, rp.LastFetchedEpoch, rp.LogStartOffset = 32<<20, -1, -1, -1
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)
	kr, err := cl.cl.Broker(0).Request(b.Context(), fetchV12{req})
	require.NoError(b, err)
	p := kr.(*kmsg.FetchResponse).Topics[0].Partitions[0]
	require.NotEmpty(b, p.RecordBatches)
	return &p
}

// BenchmarkLogBatches weighs ReadLog's plain record reader (plainRecords:
// each record's offset, timestamp, key and value read in place) against
// franz-go's decoding (kgo.ProcessFetchPartition, its fallback) on the
// same answer: RecordCountBound records in batches of 100, every batch.
func BenchmarkLogBatches(b *testing.B) {
	for _, codec := range []string{"none", "lz4", "zstd"} {
		p := benchAnswer(b, codec)
		var batches [][]byte
		for rb := p.RecordBatches; len(rb) > batchHeaderLen; {
			size := int(binary.BigEndian.Uint32(rb[batchLengthAt:])) + batchLengthAt + 4
			batches = append(batches, rb[:size])
			rb = rb[size:]
		}
		w := &logWalk{tp: kafka.TopicPartition{Topic: "t"}, dec: newBoundedDecompressor(maxDecompressedBatch)}
		b.Run(codec+"/plain", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				n := 0
				for _, raw := range batches {
					recs, ok := w.plainRecords(raw, binary.BigEndian.Uint16(raw[batchAttrsAt:]), int64(binary.BigEndian.Uint64(raw)), 0)
					if !ok {
						b.Fatal("not read plainly")
					}
					n += len(recs)
				}
				if n != RecordCountBound {
					b.Fatalf("read %d", n)
				}
			}
		})
		b.Run(codec+"/kgo", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				n := 0
				for _, raw := range batches {
					fp, _ := kgo.ProcessFetchPartition(kgo.ProcessFetchPartitionOpts{IsolationLevel: kgo.ReadUncommitted(), Topic: "t"},
						&kmsg.FetchResponseTopicPartition{HighWatermark: -1, LastStableOffset: -1, LogStartOffset: -1, RecordBatches: raw}, w.dec, nil)
					if fp.Err != nil {
						b.Fatal(fp.Err)
					}
					n += len(fp.Records)
				}
				if n != RecordCountBound {
					b.Fatalf("read %d", n)
				}
			}
		})
	}
}
