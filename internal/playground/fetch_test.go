package playground

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// fetchState is a seed whose topic t has 30 records on partition 0 (offsets
// 5 to 34) with timestamps 1000+offset, a committed transaction of 3
// records at 10 (marker 13) and an aborted one of 4 at 20 (marker 24).
func fetchState(codec, tsType string) string {
	ts := "["
	for o := 5; o < 35; o++ {
		if o > 5 {
			ts += ","
		}
		ts += fmt.Sprint(1000 + o)
	}
	ts += "]"
	return fmt.Sprintf(`nodes: 3
topics:
  - name: t
    partitions: 2
    start_offsets: [5, 0]
    end_offsets: [35, 0]
    timestamps: [%s, []]
    compression: %s
    timestamp_type: %s
    batch_records: 4
    transactions:
      - {partition: 0, offset: 10, records: 3}
      - {partition: 0, offset: 20, records: 4, aborted: true}
`, ts, codec, tsType)
}

// A franz-go consumer reads the playground's batches as it reads a
// broker's: every codec, read_committed drops the markers and the aborted
// transaction, read_uncommitted keeps the aborted records.
func TestFetch_consumerReadsBatches(t *testing.T) {
	for _, codec := range []string{"none", "gzip", "snappy", "lz4", "zstd"} {
		for _, tsType := range []string{"CreateTime", "LogAppendTime"} {
			for _, committed := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/%s/committed=%v", codec, tsType, committed), func(t *testing.T) {
					s, err := ParseState([]byte(fetchState(codec, tsType)))
					require.NoError(t, err)
					c, err := StartState(s)
					require.NoError(t, err)
					t.Cleanup(func() { _ = c.Close() })
					iso := kgo.ReadUncommitted()
					if committed {
						iso = kgo.ReadCommitted()
					}
					cl, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs()...), kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{"t": {0: kgo.NewOffset().AtStart()}}), kgo.FetchIsolationLevel(iso))
					require.NoError(t, err)
					defer cl.Close()
					var offsets []int64
					var times []int64
					ctx := testCtx(t)
					for len(offsets) < 30 && ctx.Err() == nil {
						fs := cl.PollFetches(ctx)
						for _, e := range fs.Errors() {
							require.NoError(t, e.Err)
						}
						fs.EachRecord(func(r *kgo.Record) {
							offsets = append(offsets, r.Offset)
							times = append(times, r.Timestamp.UnixMilli())
							assert.Equal(t, fmt.Sprintf("r%d", r.Offset), string(r.Value))
							if tsType == "LogAppendTime" {
								assert.Equal(t, int8(1), r.Attrs.TimestampType())
							} else {
								assert.Equal(t, int8(0), r.Attrs.TimestampType())
							}
						})
						if committed && len(offsets) == 24 || !committed && len(offsets) == 28 {
							break
						}
					}
					var want []int64
					for o := int64(5); o < 35; o++ {
						if o == 13 || o == 24 || committed && o >= 20 && o < 24 {
							continue
						}
						want = append(want, o)
					}
					require.Equal(t, want, offsets)
					if tsType == "CreateTime" {
						for i, o := range offsets {
							assert.Equal(t, 1000+o, times[i])
						}
					}
				})
			}
		}
	}
}

func TestFetch_stateValidation(t *testing.T) {
	_, err := ParseState([]byte(`topics:
  - name: t
    partitions: 1
    end_offsets: [10]
    compression: brotli
    timestamp_type: Wallclock
    batch_records: -1
    transactions:
      - {partition: 0, offset: 2, records: 3}
      - {partition: 0, offset: 4, records: 1}
      - {partition: 0, offset: 8, records: 2}
      - {partition: 3, offset: 0, records: 1}
`))
	require.Error(t, err)
	for _, want := range []string{
		`unknown compression "brotli"`,
		`unknown timestamp_type "Wallclock"`,
		"batch_records must be 1..5000, got -1",
		"the transactions at 2 and 4 of partition 0 overlap",
		"the transaction at 8 of partition 0 (2 records and its marker) is not inside offsets 0 to 10",
		"a transaction names partition 3 (the topic has 1)",
	} {
		assert.Contains(t, err.Error(), want)
	}
}

// A Fetch fault with a topic spoils that topic's partitions only, as a
// broker's authorizer refuses READ on one topic: the other topic of the
// same request is answered.
func TestFetch_topicFault(t *testing.T) {
	s, err := ParseState([]byte(fetchState("none", "CreateTime") + `  - {name: u, partitions: 1, end_offsets: [3]}
faults:
  - {key: 1, topic: t, error_code: 29}
`))
	require.NoError(t, err)
	c, err := StartState(s)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	cl := newClient(t, c, map[int16]int16{1: 12}) // topics by name
	fetch := func(topic string, offset int64) kmsg.FetchResponseTopicPartition {
		req := kmsg.NewPtrFetchRequest()
		req.Version, req.MaxBytes, req.IsolationLevel = 12, 1<<20, 1
		rt := kmsg.NewFetchRequestTopic()
		rt.Topic = topic
		rp := kmsg.NewFetchRequestTopicPartition()
		rp.FetchOffset, rp.PartitionMaxBytes = offset, 1<<20
		rt.Partitions = append(rt.Partitions, rp)
		req.Topics = append(req.Topics, rt)
		resp := brokerRequest[*kmsg.FetchResponse](t, cl, leaderOf(topic, 0, 3), req)
		require.Len(t, resp.Topics, 1)
		require.Len(t, resp.Topics[0].Partitions, 1)
		return resp.Topics[0].Partitions[0]
	}
	denied := fetch("t", 5)
	assert.Equal(t, int16(29), denied.ErrorCode)
	assert.Empty(t, denied.RecordBatches)
	allowed := fetch("u", 0)
	assert.Equal(t, int16(0), allowed.ErrorCode)
	assert.NotEmpty(t, allowed.RecordBatches)

	_, err = ParseState([]byte("faults: [{key: 9, topic: t, error_code: 29}]\n"))
	require.ErrorContains(t, err, "faults[0]: topic applies to key 1 (Fetch) only")
}
