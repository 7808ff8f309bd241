package playground

import (
	"fmt"
	"net"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

func TestMetadata_BrokersAndTopics(t *testing.T) {
	t.Parallel()
	c := startCluster(t, Config{Nodes: 3})
	c.PutTopic("words", 6)
	c.PutTopic("single", 1)
	cl := newClient(t, c, nil)

	md, err := kadm.NewClient(cl).Metadata(testCtx(t), "words", "single", "missing")
	require.NoError(t, err)
	assert.Equal(t, DefaultClusterID, md.Cluster)
	assert.Equal(t, int32(0), md.Controller)
	require.Len(t, md.Brokers, 3)
	for i, b := range md.Brokers {
		assert.Equal(t, int32(i), b.NodeID)
		assert.Equal(t, c.Addrs()[i], net.JoinHostPort(b.Host, strconv.Itoa(int(b.Port))))
	}

	words := md.Topics["words"]
	require.NoError(t, words.Err)
	assert.Equal(t, topicID("words"), [16]byte(words.ID))
	leaders := map[int32]bool{}
	for p, pd := range words.Partitions {
		want, ok := c.PartitionLeader("words", p)
		require.True(t, ok)
		assert.Equal(t, want, pd.Leader)
		assert.Len(t, pd.Replicas, 3)
		assert.Equal(t, pd.Leader, pd.Replicas[0])
		leaders[pd.Leader] = true
	}
	assert.Len(t, leaders, 3, "leaders spread over the nodes")
	assert.Len(t, md.Topics["single"].Partitions, 1)
	assert.ErrorIs(t, md.Topics["missing"].Err, kerr.UnknownTopicOrPartition)
}

func TestMetadata_EveryVersion(t *testing.T) {
	t.Parallel()
	c := startCluster(t, Config{Nodes: 2})
	c.PutTopic("t", 2)
	for v := int16(0); v <= 13; v++ {
		t.Run(fmt.Sprintf("v%d", v), func(t *testing.T) {
			raw := dialRaw(t, c.Addrs()[1])
			all := kmsg.NewPtrMetadataRequest()
			all.Version = v
			if v == 0 {
				all.Topics = []kmsg.MetadataRequestTopic{} // v0: empty means all
			}
			resp := decode[*kmsg.MetadataResponse](t, raw, all)
			assert.Len(t, resp.Brokers, 2)
			require.Len(t, resp.Topics, 1)
			assert.Equal(t, "t", *resp.Topics[0].Topic)

			if v >= 1 {
				none := kmsg.NewPtrMetadataRequest()
				none.Version = v
				none.Topics = []kmsg.MetadataRequestTopic{}
				resp = decode[*kmsg.MetadataResponse](t, raw, none)
				assert.Empty(t, resp.Topics, "from v1 an empty list asks for no topics")
			}
		})
	}
}

func TestMetadata_TopicByID(t *testing.T) {
	t.Parallel()
	c := startCluster(t, Config{})
	c.PutTopic("t", 1)
	raw := dialRaw(t, c.Addrs()[0])
	req := kmsg.NewPtrMetadataRequest()
	req.Version = 12
	req.Topics = []kmsg.MetadataRequestTopic{{TopicID: topicID("t")}, {TopicID: [16]byte{1}}}
	resp := decode[*kmsg.MetadataResponse](t, raw, req)
	require.Len(t, resp.Topics, 2)
	assert.Equal(t, "t", *resp.Topics[0].Topic)
	assert.Equal(t, kerr.UnknownTopicID.Code, resp.Topics[1].ErrorCode)
}
