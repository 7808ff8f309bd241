package admin

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

func TestDescribeGroupConfigs(t *testing.T) {
	c, cl := testCluster(t, 3, playground.Kafka44)
	ctx := testContext(t, 10*time.Second)
	one, fifty := "1", "50000"
	c.SetGroupConfig("app", kafka.StreamsNumStandbyReplicas, &one)
	c.SetBrokerConfig("group.streams.session.timeout.ms", &fifty)

	got := cl.DescribeGroupConfigs(ctx, []string{"app", "other", "app", ""})
	require.Len(t, got, 3, "a repeated group is asked once")
	assert.Equal(t, []string{"app", "other", ""}, []string{got[0].Group, got[1].Group, got[2].Group})
	require.NoError(t, got[0].Err)
	require.NoError(t, got[1].Err, "a group without configs gets the defaults")
	var ke *kafka.Error
	require.ErrorAs(t, got[2].Err, &ke)
	assert.Equal(t, "INVALID_REQUEST", ke.Name)
	assert.Equal(t, "Group name must not be empty", ke.Message)

	e, ok := got[0].Entry(kafka.StreamsNumStandbyReplicas)
	require.True(t, ok)
	assert.Equal(t, "1", *e.Value)
	assert.Equal(t, kafka.SourceGroup, e.Source)
	assert.True(t, e.Dynamic())
	def, ok := e.Default()
	require.True(t, ok)
	assert.Equal(t, kafka.ConfigSynonym{Name: "group.streams.num.standby.replicas", Value: strp("0"), Source: kafka.SourceDefault}, def)
	assert.Len(t, got[0].Dynamic(), 1)
	assert.Empty(t, got[1].Dynamic())

	e, ok = got[1].Entry(kafka.StreamsSessionTimeoutMs)
	require.True(t, ok)
	assert.Equal(t, "50000", *e.Value)
	assert.Equal(t, kafka.SourceStaticBroker, e.Source)

	// Streams keys first, in GroupConfig's order.
	var names []string
	for _, e := range got[1].Entries {
		names = append(names, e.Name)
	}
	assert.Equal(t, []string{kafka.StreamsSessionTimeoutMs, kafka.StreamsHeartbeatIntervalMs, kafka.StreamsNumStandbyReplicas}, names[:3])
	assert.Equal(t, kafka.StreamsAssignorName, names[6], "the internal keys are not answered when unset")
	assert.Equal(t, "consumer.session.timeout.ms", names[7])

	var sent int
	for _, r := range c.Requests() {
		if r.Key == 32 {
			sent++
			assert.EqualValues(t, 4, r.Version)
		}
	}
	assert.Equal(t, 1, sent, "every group in one request")

	msg := "Group authorization failed."
	c.InjectError(playground.Fault{Key: 32, ErrorCode: kerr.GroupAuthorizationFailed.Code, ErrorMessage: &msg, Node: playground.AnyNode})
	got = cl.DescribeGroupConfigs(ctx, []string{"app"})
	require.ErrorAs(t, got[0].Err, &ke)
	assert.Equal(t, "GROUP_AUTHORIZATION_FAILED", ke.Name)
}

func strp(s string) *string { return &s }

func TestAlterGroupConfigs(t *testing.T) {
	c, cl := testCluster(t, 3, playground.Kafka44)
	ctx := testContext(t, 10*time.Second)
	one := "1"
	c.SetGroupConfig("b", kafka.StreamsNumWarmupReplicas, &one)

	alters := []GroupConfigAlter{
		{Group: "a", Ops: []ConfigOp{{Name: kafka.StreamsNumStandbyReplicas, Value: strp("2")}}},
		{Group: "b", Ops: []ConfigOp{{Name: kafka.StreamsNumStandbyReplicas, Value: strp("5")}}},
		{Group: "c", Ops: []ConfigOp{{Name: kafka.StreamsNumWarmupReplicas}}},
	}
	got := cl.AlterGroupConfigs(ctx, alters, true)
	require.Len(t, got, 3)
	assert.NoError(t, got[0].Err)
	var ke *kafka.Error
	require.ErrorAs(t, got[1].Err, &ke)
	assert.Equal(t, "INVALID_CONFIG", ke.Name)
	assert.Equal(t, "streams.num.standby.replicas must be less than or equal to 2", ke.Message)
	assert.ErrorIs(t, got[1].Err, kafka.ErrConfigRefused)
	assert.NoError(t, got[2].Err)
	assert.Empty(t, c.GroupConfigs("a"), "validateOnly changes nothing")

	alters[1].Ops = []ConfigOp{{Name: kafka.StreamsNumWarmupReplicas}}
	got = cl.AlterGroupConfigs(ctx, alters, false)
	for _, g := range got {
		assert.NoError(t, g.Err, g.Group)
	}
	assert.Equal(t, map[string]string{kafka.StreamsNumStandbyReplicas: "2"}, c.GroupConfigs("a"))
	assert.Empty(t, c.GroupConfigs("b"), "deleted")

	var sent []int16
	for _, r := range c.Requests() {
		if r.Key == 44 {
			sent = append(sent, r.Version)
		}
	}
	assert.Equal(t, []int16{1, 1}, sent, "one request per call, v1")
	assert.Empty(t, cl.AlterGroupConfigs(ctx, nil, false))
}

// TestUnsupportedAPI: a request the broker's ApiVersions does not offer
// fails at once, naming the request and the broker, instead of being
// retried until the deadline; the requests it does offer still work.
func TestUnsupportedAPI(t *testing.T) {
	c, cl := testCluster(t, 1, playground.Kafka44)
	c.SetUnsupported(32) // DescribeConfigs
	ctx := testContext(t, 10*time.Second)

	start := time.Now()
	got := cl.DescribeGroupConfigs(ctx, []string{"app"})
	took := time.Since(start)
	require.Len(t, got, 1)
	var ue *kafka.UnsupportedAPIError
	require.ErrorAs(t, got[0].Err, &ue)
	assert.ErrorIs(t, got[0].Err, kafka.ErrBrokerTooOld)
	assert.Equal(t, "DescribeConfigs: broker "+c.Addrs()[0]+" does not offer DescribeConfigs (its ApiVersions answer leaves it out); nothing was sent", got[0].Err.Error())
	// The deadline is 10 s: at once is well under it (a generous bound,
	// the point being that it does not wait for --timeout).
	assert.Less(t, took, 3*time.Second)
	for _, r := range c.Requests() {
		assert.NotEqual(t, int16(32), r.Key, "nothing is sent")
	}

	_, err := cl.ListStreamsGroups(ctx)
	require.NoError(t, err, "ListGroups is offered")
}

func TestConfigSource(t *testing.T) {
	assert.Equal(t, kafka.SourceGroup, configSource(8))
	assert.Equal(t, kafka.SourceStaticBroker, configSource(4))
	assert.Equal(t, kafka.SourceDynamicDefaultBroker, configSource(3))
	assert.Equal(t, kafka.SourceUnknown, configSource(99))
}
