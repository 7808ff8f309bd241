package describe

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

func row(status int8, d *kmsg.StreamsGroupDescribeResponseGroupTopologyDescription) *kmsg.StreamsGroupDescribeResponseGroup {
	r := kmsg.NewStreamsGroupDescribeResponseGroup()
	r.Group, r.State, r.Epoch, r.AssignmentEpoch = "g", "Stable", 5, 4
	r.Topology = &kmsg.StreamsGroupDescribeResponseGroupTopology{Epoch: 2}
	r.TopologyDescriptionStatus, r.TopologyDescription = status, d
	assignor := "sticky"
	r.AssignorName = &assignor
	return &r
}

func TestBuild(t *testing.T) {
	coord := admin.Broker{ID: 1, Host: "h", Port: 9092}
	tests := []struct {
		name       string
		in         admin.DescribedGroup
		topo       bool
		wantStatus topology.Status
		wantTopo   bool
		wantErr    string
	}{
		{name: "available", in: admin.DescribedGroup{Group: "g", Coordinator: coord, Row: row(3, tt.ToWire(tt.WordCount()))}, topo: true, wantStatus: topology.Available, wantTopo: true},
		{name: "not stored", in: admin.DescribedGroup{Group: "g", Coordinator: coord, Row: row(1, nil)}, topo: true, wantStatus: topology.NotStored},
		{name: "error", in: admin.DescribedGroup{Group: "g", Coordinator: coord, Row: row(2, nil)}, topo: true, wantStatus: topology.Error},
		{name: "not requested and not asked", in: admin.DescribedGroup{Group: "g", Row: row(0, nil)}, topo: false, wantStatus: topology.NotRequested},
		{name: "not requested although asked", in: admin.DescribedGroup{Group: "g", Row: row(0, nil)}, topo: true, wantErr: "malformed response from the broker: the broker answered NOT_REQUESTED although the topology description was requested"},
		{name: "unknown status", in: admin.DescribedGroup{Group: "g", Row: row(9, nil)}, topo: true, wantErr: "malformed response from the broker: Unknown topology description status 9"},
		{name: "available without description", in: admin.DescribedGroup{Group: "g", Row: row(3, nil)}, topo: true, wantErr: "malformed response from the broker: Topology description is missing despite status AVAILABLE"},
		{
			name: "bad node type",
			in: admin.DescribedGroup{Group: "g", Row: row(3, &kmsg.StreamsGroupDescribeResponseGroupTopologyDescription{
				Subtopologies: []kmsg.TopologyDescriptionSubtopology{{SubtopologyID: "0", Nodes: []kmsg.TopologyDescriptionNode{{Name: "n", NodeType: 4}}}},
			})},
			topo:    true,
			wantErr: "malformed response from the broker: Unknown topology node type: 4",
		},
		{name: "transport error", in: admin.DescribedGroup{Group: "g", Err: &admin.UnavailableError{Op: "x", Err: context.DeadlineExceeded}}, topo: true, wantErr: "x: timed out"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := build(tc.in, Options{Groups: []string{"g"}, Topology: tc.topo})
			assert.Equal(t, "g", g.Group)
			if tc.wantErr != "" {
				assert.EqualError(t, g.Err, tc.wantErr)
				return
			}
			require.NoError(t, g.Err)
			assert.Equal(t, tc.wantStatus, g.TopologyStatus)
			assert.Equal(t, tc.wantTopo, g.Topology != nil)
			assert.Equal(t, "Stable", g.State)
			assert.EqualValues(t, 5, g.GroupEpoch)
			assert.EqualValues(t, 4, g.AssignmentEpoch)
			assert.EqualValues(t, 2, g.TopologyEpoch)
			assert.Equal(t, "sticky", *g.AssignorName)
		})
	}
}

type fakeClient struct {
	listed    []admin.ListedGroup
	listErr   error
	described [][]string
}

func (f *fakeClient) DescribeStreamsGroups(_ context.Context, groups []string, topo bool) []admin.DescribedGroup {
	f.described = append(f.described, groups)
	out := make([]admin.DescribedGroup, len(groups))
	for i, g := range groups {
		r := row(1, nil)
		r.Group = g
		out[i] = admin.DescribedGroup{Group: g, Row: r}
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
	t.Run("invalid options", func(t *testing.T) {
		_, err := Run(context.Background(), &fakeClient{}, Options{Topology: true})
		assert.EqualError(t, err, "Option [describe] takes one of these options: [all-groups], [group]")
		_, err = Run(context.Background(), &fakeClient{}, Options{Groups: []string{"a"}, AllGroups: true})
		assert.EqualError(t, err, `Option "[group]" can't be used with option "[all-groups]"`)
	})
}
