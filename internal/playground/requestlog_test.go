package playground

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// The request log keeps every request, unless NoRequestLog: then it keeps
// none (the playground command, benchmarks), and the requests are still
// answered.
func TestRequestLog(t *testing.T) {
	for _, tc := range []struct {
		name   string
		noLog  bool
		logged bool
	}{
		{"kept", false, true},
		{"none", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := startCluster(t, Config{NoRequestLog: tc.noLog})
			cl := newClient(t, c, nil)
			for range 3 {
				_, err := kmsg.NewPtrMetadataRequest().RequestWith(testCtx(t), cl)
				require.NoError(t, err)
			}
			metadata := 0
			for _, r := range c.Requests() {
				if r.Key == 3 {
					metadata++
				}
			}
			if tc.logged {
				assert.GreaterOrEqual(t, metadata, 3)
			} else {
				assert.Empty(t, c.Requests())
			}
		})
	}
}

// appendFrame writes what frame writes around AppendTo's bytes, for a
// Fetch answer (sized up front) and any other.
func TestAppendFrame(t *testing.T) {
	fetch := kmsg.NewPtrFetchResponse()
	fetch.SetVersion(12)
	ft := kmsg.NewFetchResponseTopic()
	ft.Topic = "in"
	for p := range int32(3) {
		fp := kmsg.NewFetchResponseTopicPartition()
		fp.Partition = p
		fp.RecordBatches = make([]byte, 100*int(p))
		fp.AbortedTransactions = append(fp.AbortedTransactions, kmsg.NewFetchResponseTopicPartitionAbortedTransaction())
		ft.Partitions = append(ft.Partitions, fp)
	}
	fetch.Topics = append(fetch.Topics, ft)
	meta := kmsg.NewPtrMetadataResponse()
	meta.SetVersion(13)
	meta.Brokers = append(meta.Brokers, kmsg.NewMetadataResponseBroker())
	for _, resp := range []kmsg.Response{fetch, meta} {
		for _, flex := range []bool{false, true} {
			want := (&Cluster{}).frame(7, flex, resp.AppendTo(nil))
			assert.Equal(t, want, appendFrame(7, flex, resp), "%T flexible header %v", resp, flex)
		}
	}
}
