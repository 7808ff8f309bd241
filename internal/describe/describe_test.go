package describe

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

type fakeClient struct {
	listed    []admin.ListedGroup
	listErr   error
	described [][]string
}

func (f *fakeClient) DescribeStreamsGroups(_ context.Context, groups []string, topo bool) []admin.DescribedGroup {
	f.described = append(f.described, groups)
	out := make([]admin.DescribedGroup, len(groups))
	for i, g := range groups {
		out[i] = admin.DescribedGroup{Group: g, Streams: &kafka.StreamsGroup{State: "Stable", TopologyStatus: topology.NotStored}}
	}
	return out
}

func (f *fakeClient) ListStreamsGroups(context.Context) ([]admin.ListedGroup, error) {
	return f.listed, f.listErr
}

func TestRun(t *testing.T) {
	t.Run("keeps request order and repeats", func(t *testing.T) {
		f := &fakeClient{}
		res, err := Run(context.Background(), f, Options{Groups: []string{"b", "a", "b"}, Topology: true})
		require.NoError(t, err)
		var ids []string
		for _, g := range res.Groups {
			ids = append(ids, g.Group)
		}
		assert.Equal(t, []string{"b", "a", "b"}, ids)
	})
	t.Run("all groups come from the listing", func(t *testing.T) {
		f := &fakeClient{listed: []admin.ListedGroup{{Group: "a"}, {Group: "c"}}}
		res, err := Run(context.Background(), f, Options{AllGroups: true, Topology: true})
		require.NoError(t, err)
		assert.Len(t, res.Groups, 2)
		assert.Equal(t, [][]string{{"a", "c"}}, f.described)
	})
	t.Run("no streams groups at all", func(t *testing.T) {
		f := &fakeClient{}
		res, err := Run(context.Background(), f, Options{AllGroups: true, Topology: true})
		require.NoError(t, err)
		assert.Empty(t, res.Groups)
		assert.Empty(t, f.described, "nothing to describe, nothing sent")
	})
	t.Run("listing fails", func(t *testing.T) {
		f := &fakeClient{listErr: errors.New("boom")}
		_, err := Run(context.Background(), f, Options{AllGroups: true, Topology: true})
		assert.EqualError(t, err, "boom")
	})

}

func TestResult_Failures(t *testing.T) {
	notFound := admin.NewKafkaError(kafka.CodeGroupIDNotFound, nil)
	groups := []*Group{
		{Group: "ok", StreamsGroup: kafka.StreamsGroup{TopologyStatus: topology.Available}},
		{Group: "gone", Err: notFound},
		{Group: "ns", StreamsGroup: kafka.StreamsGroup{TopologyStatus: topology.NotStored}},
	}
	topo := &Result{Groups: groups, View: ViewTopology}
	assert.Equal(t, []kafka.Failure{
		{Group: "gone", Err: notFound},
		{Group: "ns", Err: &kafka.StatusError{Group: "ns", Status: topology.NotStored}},
	}, topo.Failures(), "request order; the topology view fails a description that is not AVAILABLE")
	members := &Result{Groups: groups, View: ViewMembers}
	assert.Equal(t, []kafka.Failure{{Group: "gone", Err: notFound}}, members.Failures(), "other views are not health-aware")
}
