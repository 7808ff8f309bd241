package list

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
)

const validStates = "Valid states are: Empty, NotReady, Stable, Assigning, Reconciling, Dead"

func TestParseStates(t *testing.T) {
	tests := []struct {
		in      string
		want    []string
		wantErr string
	}{
		{in: "", want: nil},
		{in: ",", want: nil},
		{in: "Stable", want: []string{"Stable"}},
		{in: "stable,EMPTY", want: []string{"Stable", "Empty"}},
		{in: " notready , Dead ", want: []string{"NotReady", "Dead"}},
		{in: "Stable,stable", want: []string{"Stable"}},
		{in: "Stable,", want: []string{"Stable"}},
		{in: "not_ready", wantErr: "Invalid state list 'not_ready'. " + validStates},
		{in: "foo", wantErr: "Invalid state list 'foo'. " + validStates},
		{in: "Stable,,Empty", wantErr: "Invalid state list 'Stable,,Empty'. " + validStates},
		{in: ",Stable", wantErr: "Invalid state list ',Stable'. " + validStates},
		{in: "PreparingRebalance", wantErr: "Invalid state list 'PreparingRebalance'. " + validStates},
		{in: "Unknown", wantErr: "Invalid state list 'Unknown'. " + validStates},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseStates(tc.in)
			if tc.wantErr != "" {
				assert.EqualError(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

type fakeClient struct {
	groups []admin.ListedGroup
	err    error
	asked  [][]string
}

func (f *fakeClient) ListStreamsGroupsInStates(_ context.Context, states []string) ([]admin.ListedGroup, error) {
	f.asked = append(f.asked, states)
	return f.groups, f.err
}

func TestRun(t *testing.T) {
	f := &fakeClient{groups: []admin.ListedGroup{{Group: "b", State: "Stable"}, {Group: "a", State: ""}}}
	res, err := Run(context.Background(), f, Options{WithState: true, States: []string{"Stable", "Empty"}})
	require.NoError(t, err)
	assert.True(t, res.WithState)
	assert.Equal(t, []Group{{Group: "a", State: "Unknown"}, {Group: "b", State: "Stable"}}, res.Groups, "sorted; a missing state is Unknown")
	assert.Equal(t, [][]string{{"Stable", "Empty"}}, f.asked)

	_, err = Run(context.Background(), f, Options{States: []string{"bogus"}})
	assert.EqualError(t, err, `unknown streams group state "bogus"`)

	_, err = Run(context.Background(), &fakeClient{err: errors.New("down")}, Options{})
	assert.EqualError(t, err, "down")
}
